//! LoRA adapters served (`EngineConfig::lora_paths`, `--lora-paths`): requests pick one by
//! `model` (its name, or `<base>:<name>`) or SGLang's `lora_path`, on the OpenAI doors, the
//! native `/generate` and gRPC; `/v1/models` lists them; requests of the base model and both
//! adapters run together and each gets what it gets alone; an adapter's cached prefixes
//! serve only its own requests; misnamed models and adapters are refused; and nothing leaks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::lora::{adapter_file, fixture, ADAPTERS};

use common::servers::{post_json, serve, Servers};
use common::{family_model_path, model_path, wait_idle, wait_until};
use engine::handle::{EngineConfig, EngineHandle, LoraSpec};
use proto::v1 as pb;
use proto::v1::radix_serve_client::RadixServeClient;
use serde_json::{json, Value};

pub fn config_with_adapters() -> EngineConfig {
    let mut config = EngineConfig::new(model_path());
    config.kv_budget_bytes = 64 << 20;
    config.scheduler.max_running_requests = 8;
    for name in ADAPTERS {
        adapter_file(name); // checks the file against its fixture
        config.lora_paths.push(LoraSpec {
            name: name.into(),
            path: family_model_path(name),
        });
    }
    config
}

/// The fixture's fibonacci prompt (token ids), whose first token llama.cpp gives
/// differently with each adapter than without.
pub fn fibonacci_prompt() -> Vec<u64> {
    let prompt = &fixture(ADAPTERS[0])["prompts"][2];
    (prompt["token_ids"].as_array().unwrap().iter())
        .map(|v| v.as_u64().unwrap())
        .collect()
}

async fn complete(s: &Servers, body: Value) -> Value {
    let (status, response) = post_json(s.http, "/v1/completions", body).await;
    assert_eq!(status, 200, "{response}");
    response
}

pub fn greedy_body(model: Option<&str>, prompt: &[u64], extra: Value) -> Value {
    let mut body = json!({"prompt": prompt, "max_tokens": 12, "temperature": 0});
    if let Some(m) = model {
        body["model"] = json!(m);
    }
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    body
}

fn text(response: &Value) -> String {
    response["choices"][0]["text"].as_str().unwrap().to_string()
}

fn cached(response: &Value) -> u64 {
    response["usage"]["prompt_tokens_details"]["cached_tokens"]
        .as_u64()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_pick_adapters_by_model_or_lora_path_and_keep_their_own_cache() {
    let s = tokio::task::spawn_blocking(|| serve(config_with_adapters()))
        .await
        .unwrap();
    let base_name = s.engine.model_info().name.clone();
    let (a, b) = (ADAPTERS[0], ADAPTERS[1]);

    // /v1/models: the base model, then each adapter with the base as its parent.
    let models = reqwest_get(&s, "/v1/models").await;
    let ids: Vec<&str> = (models["data"].as_array().unwrap().iter())
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [base_name.as_str(), a, b]);
    assert_eq!(models["data"][1]["parent"], json!(base_name));
    assert_eq!(
        reqwest_get(&s, &format!("/v1/models/{b}")).await["parent"],
        json!(base_name)
    );

    // Each alone, one after another.
    let prompt = fibonacci_prompt();
    let mut alone = Vec::new();
    for model in [None, Some(a), Some(b)] {
        let response = complete(&s, greedy_body(model, &prompt, json!({}))).await;
        assert_eq!(response["model"], json!(model.unwrap_or(&base_name)));
        alone.push(text(&response));
    }
    assert_ne!(alone[0], alone[1]);
    assert_ne!(alone[0], alone[2]);
    assert_ne!(alone[1], alone[2]);
    // llama.cpp's first token with each adapter and without.
    let tok = s.engine.tokenizer();
    for (i, model) in [None, Some(0), Some(1)].into_iter().enumerate() {
        let p = &fixture(ADAPTERS[model.unwrap_or(0)])["prompts"][2];
        let key = if model.is_some() {
            "greedy_ids"
        } else {
            "base_greedy_ids"
        };
        let first = p[key][0].as_u64().unwrap() as u32;
        let ours = tok.encode(&alone[i], false).unwrap();
        assert_eq!(ours[0], first, "{model:?}: {:?}", alone[i]);
    }

    // All at once, each named every way: the same outputs.
    let bodies = [
        greedy_body(None, &prompt, json!({})),
        greedy_body(Some(a), &prompt, json!({})),
        greedy_body(Some(&format!("{base_name}:{b}")), &prompt, json!({})),
        greedy_body(None, &prompt, json!({"lora_path": a})),
        greedy_body(Some(b), &prompt, json!({"lora_path": b})),
        greedy_body(Some(&base_name), &prompt, json!({"lora_path": b})),
    ];
    let want = [
        &alone[0], &alone[1], &alone[2], &alone[1], &alone[2], &alone[2],
    ];
    let together =
        futures_util::future::join_all(bodies.into_iter().map(|body| complete(&s, body))).await;
    for (i, (response, want)) in together.iter().zip(want).enumerate() {
        assert_eq!(&text(response), want, "request {i}");
    }

    // A fresh prompt cached under adapter a serves a's requests only.
    let fresh: Vec<u64> = (0..40).map(|i| 1000 + 37 * i).collect();
    let first = complete(&s, greedy_body(Some(a), &fresh, json!({}))).await;
    assert_eq!(cached(&first), 0);
    let again = complete(&s, greedy_body(Some(a), &fresh, json!({}))).await;
    assert!(cached(&again) >= 32, "{again}");
    for model in [None, Some(b)] {
        let other = complete(&s, greedy_body(model, &fresh, json!({}))).await;
        assert_eq!(cached(&other), 0, "{model:?} must not read a's K/V");
    }
    // Flushing the caller's cache flushes its adapters' caches too.
    let mut client = RadixServeClient::connect(format!("http://{}", s.grpc))
        .await
        .unwrap();
    client
        .flush_cache(pb::FlushCacheRequest::default())
        .await
        .unwrap();
    let flushed = complete(&s, greedy_body(Some(a), &fresh, json!({}))).await;
    assert_eq!(cached(&flushed), 0, "{flushed}");

    // Embeddings run the adapter too.
    let embed = |extra: Value| {
        let mut body = json!({"input": "The capital of France is Paris."});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        post_json(s.http, "/v1/embeddings", body)
    };
    let (status, base_vector) = embed(json!({})).await;
    assert_eq!(status, 200, "{base_vector}");
    let (_, by_model) = embed(json!({"model": a})).await;
    let (_, by_path) = embed(json!({"lora_path": a})).await;
    assert_eq!(by_model["model"], json!(a));
    assert_eq!(by_model["data"], by_path["data"]);
    assert_ne!(by_model["data"], base_vector["data"]);

    // The engine refuses an adapter number it does not hold (a library caller's mistake).
    let mut request = engine::handle::GenerateRequest::new(
        vec![1, 2, 3],
        engine::sampling::SamplingParams::greedy(1),
    );
    request.namespace.adapter = Some(2);
    let err = s.engine.submit(request).err().map(|e| e.to_string());
    assert!(
        err.as_deref()
            .is_some_and(|e| e.contains("LoRA adapter 2 is not served")),
        "{err:?}"
    );

    // The native /generate and gRPC name it too.
    let (status, native) = post_json(
        s.http,
        "/generate",
        json!({"input_ids": prompt, "lora_path": b,
               "sampling_params": {"max_new_tokens": 12, "temperature": 0}}),
    )
    .await;
    assert_eq!(status, 200, "{native}");
    assert_eq!(native["text"].as_str().unwrap(), alone[2]);
    let (status, native) = post_json(
        s.http,
        "/generate",
        json!({"input_ids": [prompt, prompt], "lora_path": [b, b, b]}),
    )
    .await;
    assert_eq!(status, 400, "{native}");
    let info = client
        .get_model_info(pb::GetModelInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(info.lora_adapters, ADAPTERS);
    let mut stream = client
        .generate(pb::GenerateRequest {
            input: Some(pb::generate_request::Input::TokenIds(pb::TokenIds {
                ids: prompt.iter().map(|&t| t as u32).collect(),
            })),
            sampling_params: Some(pb::SamplingParams {
                temperature: Some(0.0),
                max_new_tokens: Some(12),
                ..Default::default()
            }),
            lora_adapter: Some(a.into()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut grpc_text = String::new();
    while let Some(message) = stream.message().await.unwrap() {
        if let Some(pb::generate_response::Response::Chunk(chunk)) = message.response {
            grpc_text.push_str(&chunk.text);
        }
    }
    assert_eq!(grpc_text, alone[1]);
    let status = client
        .generate(pb::GenerateRequest {
            input: Some(pb::generate_request::Input::Text("hi".into())),
            lora_adapter: Some("nope".into()),
            ..Default::default()
        })
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().starts_with("lora_adapter"), "{status:?}");

    // Names that serve nothing.
    for (body, code, param) in [
        (greedy_body(Some("nope"), &prompt, json!({})), 404, "model"),
        (
            greedy_body(None, &prompt, json!({"lora_path": "nope"})),
            400,
            "lora_path",
        ),
        (
            greedy_body(None, &prompt, json!({"lora_path": 5})),
            400,
            "lora_path",
        ),
        (
            greedy_body(Some(a), &prompt, json!({"lora_path": b})),
            400,
            "lora_path",
        ),
    ] {
        let (status, response) = post_json(s.http, "/v1/completions", body.clone()).await;
        assert_eq!(status, code, "{body}: {response}");
        assert_eq!(response["error"]["param"], json!(param), "{response}");
    }
    let (status, response) = post_json(
        s.http,
        "/v1/chat/completions",
        json!({"model": "nope", "messages": [{"role": "user", "content": "hi"}]}),
    )
    .await;
    assert_eq!(status, 404, "{response}");
    let engine = s.engine.clone();
    tokio::task::spawn_blocking(move || wait_idle(&engine))
        .await
        .unwrap();
}

async fn reqwest_get(s: &Servers, path: &str) -> Value {
    let addr = s.http;
    let path = path.to_string();
    tokio::task::spawn_blocking(move || {
        let (status, body) = common::http::http(addr.port(), "GET", &path, "").unwrap();
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    })
    .await
    .unwrap()
}

/// Adapters that cannot be served stop the start with the reason.
#[test]
fn an_engine_with_a_bad_adapter_does_not_start() {
    let mut config = EngineConfig::new(model_path());
    config.kv_budget_bytes = 16 << 20;
    let spec = |name: &str, path| LoraSpec {
        name: name.into(),
        path,
    };
    let a = family_model_path(ADAPTERS[0]);
    for (specs, want) in [
        (
            vec![spec("x", "/nonexistent/x.gguf".into())],
            "LoRA adapter \"x\" (/nonexistent/x.gguf)",
        ),
        (
            vec![spec("x", a.clone()), spec("x", a.clone())],
            "adapter name \"x\" is taken",
        ),
        (vec![spec("x", model_path())], "not a LoRA adapter file"),
        (
            vec![spec("bad name", a.clone())],
            "adapter name \"bad name\"",
        ),
    ] {
        config.lora_paths = specs;
        let err = EngineHandle::start(config.clone())
            .err()
            .map(|e| e.to_string());
        assert!(
            err.as_deref().is_some_and(|e| e.contains(want)),
            "{want}: {err:?}"
        );
    }
    // The base model's own name is taken too.
    let base = model_path()
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    config.lora_paths = vec![spec(&base, a)];
    let err = EngineHandle::start(config).err().map(|e| e.to_string());
    assert!(err.is_some_and(|e| e.contains("is taken")));
}

/// Adapters loaded and unloaded while serving (`/v1/load_lora_adapter`,
/// `/unload_lora_adapter`): a loaded one serves at once; one unloaded while a request runs it
/// lets that request finish, then serves no one, and its cache goes; loaded again under the
/// same name it serves as before; nothing leaks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adapters_load_and_unload_while_serving() {
    // Process-wide: counts what this test's adapters run from here on.
    let prometheus = engine::server::metrics::install().unwrap();
    let mut config = EngineConfig::new(model_path());
    config.kv_budget_bytes = 64 << 20;
    let s = tokio::task::spawn_blocking(move || serve(config))
        .await
        .unwrap();
    let gguf = family_model_path(ADAPTERS[0]);
    let peft = family_model_path("smollm2_lora_a_peft").with_extension("");
    let load = |name: &str, path: &std::path::Path| json!({"lora_name": name, "lora_path": path.display().to_string()});
    let (status, loaded) = post_json(s.http, "/v1/load_lora_adapter", load("a", &peft)).await;
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(
        loaded["loaded_adapters"]["a"],
        json!(peft.display().to_string())
    );
    let (status, _) = post_json(s.http, "/load_lora_adapter", load("a_gguf", &gguf)).await;
    assert_eq!(status, 200);
    // The PEFT and GGUF forms of one adapter answer alike, as llama.cpp begins.
    let prompt = fibonacci_prompt();
    let first = text(&complete(&s, greedy_body(Some("a"), &prompt, json!({}))).await);
    let second = text(&complete(&s, greedy_body(Some("a_gguf"), &prompt, json!({}))).await);
    assert_eq!(first, second);
    let want = fixture(ADAPTERS[0])["prompts"][2]["greedy_ids"][0]
        .as_u64()
        .unwrap();
    assert_eq!(
        s.engine.tokenizer().encode(&first, false).unwrap()[0] as u64,
        want
    );

    // Unloaded while a long request runs it: that request finishes whole.
    let long = greedy_body(
        Some("a"),
        &prompt,
        json!({"max_tokens": 200, "ignore_eos": true}),
    );
    let http = s.http;
    let running = tokio::spawn(async move { post_json(http, "/v1/completions", long).await });
    while s.engine.server_info().running_requests == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let (status, unloaded) =
        post_json(s.http, "/unload_lora_adapter", json!({"lora_name": "a"})).await;
    assert_eq!(status, 200, "{unloaded}");
    assert!(unloaded["loaded_adapters"].get("a").is_none());
    let (status, response) = running.await.unwrap();
    assert_eq!(status, 200, "{response}");
    assert_eq!(response["usage"]["completion_tokens"], json!(200));
    assert!(text(&response).starts_with(&first), "{response}");
    let (status, _) = post_json(
        s.http,
        "/v1/completions",
        greedy_body(Some("a"), &prompt, json!({})),
    )
    .await;
    assert_eq!(status, 404);
    // Once every adapter is gone, a name that was one is still refused, not served by the
    // base model.
    let (status, _) = post_json(
        s.http,
        "/unload_lora_adapter",
        json!({"lora_name": "a_gguf"}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = post_json(
        s.http,
        "/v1/completions",
        greedy_body(Some("a_gguf"), &prompt, json!({})),
    )
    .await;
    assert_eq!(status, 404);
    let models = reqwest_get(&s, "/v1/models").await;
    assert_eq!(models["data"].as_array().unwrap().len(), 1, "{models}");
    // Each adapter's requests are counted under the name it was loaded by: "a" ran two,
    // "a_gguf" one, all to their token budget; refused requests are not counted.
    let metrics = prometheus.render();
    let sample = |name: &str, labels: &[&str]| -> f64 {
        (metrics.lines())
            .filter(|l| l.starts_with(&format!("{name}{{")))
            .filter(|l| labels.iter().all(|want| l.contains(want)))
            .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
            .sum()
    };
    let (a, a_gguf) = ("adapter=\"a\"", "adapter=\"a_gguf\"");
    let requests = "radixserve_lora_requests_total";
    assert_eq!(sample(requests, &[a]), 2.0, "{metrics}");
    assert_eq!(
        sample(requests, &[a, "outcome=\"length\""]),
        2.0,
        "{metrics}"
    );
    assert_eq!(sample(requests, &[a_gguf]), 1.0, "{metrics}");
    let generated = sample("radixserve_lora_generated_tokens_total", &[a]);
    assert!(generated > 200.0, "{metrics}");
    let prompt_tokens = prompt.len() as f64;
    assert_eq!(
        sample("radixserve_lora_prompt_tokens_total", &[a_gguf]),
        prompt_tokens,
        "{metrics}"
    );
    // Only the two adapters ever ran here: with both gone, so is every cached token.
    let engine = s.engine.clone();
    tokio::task::spawn_blocking(move || {
        wait_idle(&engine);
        // The unload is answered before the scheduler drops the cache.
        wait_until(&engine, "the adapters' cache stays", |info| {
            info.kv_evictable_tokens == 0
        });
    })
    .await
    .unwrap();

    // Loaded again under its name: a new number, the same answers, a cold cache.
    let (status, _) = post_json(s.http, "/v1/load_lora_adapter", load("a", &peft)).await;
    assert_eq!(status, 200);
    let again = complete(&s, greedy_body(Some("a"), &prompt, json!({}))).await;
    assert_eq!(text(&again), first);
    assert_eq!(
        cached(&again),
        0,
        "the unloaded adapter's cache went with it"
    );

    // Refusals.
    for (path, body, code, param) in [
        ("/v1/load_lora_adapter", load("a", &peft), 400, "lora_name"),
        (
            "/v1/load_lora_adapter",
            load("bad name", &peft),
            400,
            "lora_name",
        ),
        (
            "/v1/load_lora_adapter",
            load("c", std::path::Path::new("/nonexistent")),
            400,
            "lora_path",
        ),
        (
            "/v1/load_lora_adapter",
            load("c", &model_path()),
            400,
            "lora_path",
        ),
        (
            "/v1/unload_lora_adapter",
            json!({"lora_name": "c"}),
            404,
            "lora_name",
        ),
        (
            "/v1/unload_lora_adapter",
            json!({"lora_name": "a", "lora_int_id": 1}),
            400,
            "lora_int_id",
        ),
    ] {
        let (status, response) = post_json(s.http, path, body.clone()).await;
        assert_eq!(status, code, "{body}: {response}");
        assert_eq!(response["error"]["param"], json!(param), "{response}");
    }
    let engine = s.engine.clone();
    tokio::task::spawn_blocking(move || wait_idle(&engine))
        .await
        .unwrap();
}

/// An adapter unloaded while the engine still holds a request of it (the scheduler busy, the
/// request queued behind): that request runs it to the end (the scripted model fails any pass
/// naming an adapter it no longer holds), a new one is refused, and the engine ends idle with
/// no K/V leaked.
#[test]
fn an_unloaded_adapter_finishes_the_requests_it_has() {
    use common::scripted::{collect_tokens, reference_for, start_model};
    use engine::model::scripted::ScriptedModel;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let release = Arc::new(AtomicBool::new(false));
    let hold = release.clone();
    let hook = Box::new(move |_: &engine::model::ForwardBatch| {
        while !hold.load(Ordering::Acquire) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    });
    let model = ScriptedModel::new(50_000, 512)
        .with_adapters(1)
        .with_forward_hook(hook);
    let engine = start_model(model, 1024);
    let name = engine.adapters()[0].name.clone();
    let request = |adapter: Option<u32>| {
        let mut r = engine::handle::GenerateRequest::new(
            vec![100, 200, 300],
            engine::sampling::SamplingParams::greedy(40),
        );
        r.params.ignore_eos = true;
        r.namespace.adapter = adapter;
        r
    };
    // The first holds the scheduler in its first pass; the second waits behind it.
    let first = engine.submit(request(None)).unwrap();
    let second = engine.submit(request(Some(0))).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let unloaded = runtime.block_on(engine.unload_adapter(&name)).unwrap();
    assert_eq!(unloaded.name, name);
    assert!(engine.adapters().is_empty());
    assert!(engine.submit(request(Some(0))).is_err());
    release.store(true, Ordering::Release);
    assert_eq!(
        collect_tokens(first),
        reference_for(&[100, 200, 300], 40, None)
    );
    assert_eq!(
        collect_tokens(second),
        reference_for(&[100, 200, 300], 40, Some(0))
    );
    common::wait_idle(&engine);
    let again = runtime.block_on(engine.unload_adapter(&name)).err();
    assert!(matches!(
        again,
        Some(engine::handle::AdapterError::NotFound(_))
    ));
}
