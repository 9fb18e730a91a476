//! Which LoRA adapters each tenant may run (the tenants file's `lora_adapters`): a tenant runs
//! and sees only those; to it, any other adapter is one not served, on the OpenAI doors and
//! over gRPC, and its errors name no adapter it may not run. A pattern ending in `*` covers
//! adapters loaded later too.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::lora::ADAPTERS;
use crate::lora_serving::{config_with_adapters, fibonacci_prompt, greedy_body};

use common::servers::{serve_tenants, Servers};
use engine::handle::EngineHandle;
use engine::tenants::{hash_api_key, TenantRegistry, TenantsFile};
use proto::v1 as pb;
use proto::v1::radix_serve_client::RadixServeClient;
use serde_json::{json, Value};
use std::sync::Arc;

fn tenants() -> Arc<TenantRegistry> {
    let key = |k: &str| hash_api_key(k).to_string();
    let text = format!(
        r#"
[[tenant]]
name = "one"
api_keys = ["{one}"]
lora_adapters = ["{a}"]

[[tenant]]
name = "family"
api_keys = ["{family}"]
lora_adapters = ["smollm2_*"]

[[tenant]]
name = "none"
api_keys = ["{none}"]
lora_adapters = []

[[tenant]]
name = "ops"
api_keys = ["{ops}"]
admin = true
"#,
        one = key("one-key"),
        family = key("family-key"),
        none = key("none-key"),
        ops = key("ops-key"),
        a = ADAPTERS[0],
    );
    let file = TenantsFile::parse(&text).unwrap();
    Arc::new(TenantRegistry::from_file(&file).unwrap())
}

async fn call(
    s: &Servers,
    method: &str,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let client = reqwest::Client::new();
    let url = format!("http://{}{path}", s.http);
    let request = match body {
        Some(body) => (client.post(url))
            .header("content-type", "application/json")
            .body(body.to_string()),
        None => client.request(method.parse().unwrap(), url),
    };
    let response = (request.header("authorization", format!("Bearer {key}")))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap())
}

/// The ids `/v1/models` lists to the holder of `key`.
async fn model_ids(s: &Servers, key: &str) -> Vec<String> {
    let (status, models) = call(s, "GET", "/v1/models", key, None).await;
    assert_eq!(status, 200, "{models}");
    (models["data"].as_array().unwrap().iter())
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect()
}

async fn grpc(s: &Servers) -> RadixServeClient<tonic::transport::Channel> {
    RadixServeClient::connect(format!("http://{}", s.grpc))
        .await
        .unwrap()
}

fn authed<T>(message: T, key: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    (request.metadata_mut()).insert("authorization", format!("Bearer {key}").parse().unwrap());
    request
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tenants_run_and_see_only_the_adapters_they_may() {
    let s = tokio::task::spawn_blocking(|| {
        serve_tenants(
            EngineHandle::start(config_with_adapters()).unwrap(),
            tenants(),
        )
    })
    .await
    .unwrap();
    let base = s.engine.model_info().name.clone();
    let (a, b) = (ADAPTERS[0], ADAPTERS[1]);
    let prompt = fibonacci_prompt();
    let complete = |key: &'static str, body: Value| {
        let s = &s;
        async move { call(s, "POST", "/v1/completions", key, Some(body)).await }
    };

    assert_eq!(model_ids(&s, "one-key").await, [base.as_str(), a]);
    assert_eq!(model_ids(&s, "family-key").await, [base.as_str(), a, b]);
    assert_eq!(model_ids(&s, "none-key").await, [base.as_str()]);
    assert_eq!(model_ids(&s, "ops-key").await, [base.as_str(), a, b]);

    // "one" runs a, and b is to it no model at all, by any name.
    let (status, response) = complete("one-key", greedy_body(Some(a), &prompt, json!({}))).await;
    assert_eq!(
        (status, response["model"].as_str()),
        (200, Some(a)),
        "{response}"
    );
    let (_, by_family) = complete("family-key", greedy_body(Some(a), &prompt, json!({}))).await;
    assert_eq!(
        response["choices"][0]["text"],
        by_family["choices"][0]["text"]
    );
    // Refused exactly as an adapter never loaded is (the name it sent echoed), so the
    // answer tells nothing of b.
    for (model, lora_path, code, param) in [
        (Some(b.to_string()), None, 404, "model"),
        (Some(format!("{base}:{b}")), None, 404, "model"),
        (None, Some(b), 400, "lora_path"),
    ] {
        let body = |b: &str| {
            let model = model.as_ref().map(|m| m.replace(ADAPTERS[1], b));
            let extra = lora_path.map_or(json!({}), |_| json!({"lora_path": b}));
            greedy_body(model.as_deref(), &prompt, extra)
        };
        let (status, response) = complete("one-key", body(b)).await;
        assert_eq!(status, code, "{response}");
        assert_eq!(response["error"]["param"], json!(param), "{response}");
        let (_, never_loaded) = complete("one-key", body("nope")).await;
        assert_eq!(
            response.to_string().replace(b, "nope"),
            never_loaded.to_string()
        );
    }
    let (status, response) = call(&s, "GET", &format!("/v1/models/{b}"), "one-key", None).await;
    assert_eq!(status, 404, "{response}");
    let (status, response) = call(
        &s,
        "POST",
        "/v1/embeddings",
        "one-key",
        Some(json!({"input": "hi", "model": b})),
    )
    .await;
    assert_eq!(status, 404, "{response}");
    let (status, _) = call(
        &s,
        "POST",
        "/generate",
        "one-key",
        Some(json!({"text": "hi", "lora_path": b})),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = complete("none-key", greedy_body(Some(a), &prompt, json!({}))).await;
    assert_eq!(status, 404);
    let (status, _) = complete("none-key", greedy_body(Some(&base), &prompt, json!({}))).await;
    assert_eq!(status, 200, "the base model is everyone's");

    // Over gRPC too: the model info lists only a, and b is refused as not loaded.
    let mut client = grpc(&s).await;
    let info = (client
        .get_model_info(authed(pb::GetModelInfoRequest {}, "one-key"))
        .await)
        .unwrap()
        .into_inner();
    assert_eq!(info.lora_adapters, [a]);
    let generate = |adapter: &str| pb::GenerateRequest {
        input: Some(pb::generate_request::Input::Text("hi".into())),
        sampling_params: Some(pb::SamplingParams {
            max_new_tokens: Some(2),
            ..Default::default()
        }),
        lora_adapter: Some(adapter.into()),
        ..Default::default()
    };
    let status = client
        .generate(authed(generate(b), "one-key"))
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().starts_with("lora_adapter"), "{status:?}");
    let never_loaded = (client.generate(authed(generate("nope"), "one-key")).await)
        .err()
        .unwrap();
    assert_eq!(status.message().replace(b, "nope"), never_loaded.message());
    let mut stream = (client.generate(authed(generate(b), "family-key")).await)
        .unwrap()
        .into_inner();
    while stream.message().await.unwrap().is_some() {}

    // An adapter loaded while serving is the family's at once (its pattern covers the name),
    // and still not "one"'s.
    let path = common::family_model_path(a).display().to_string();
    let load = json!({"lora_name": "smollm2_new", "lora_path": path});
    let (status, loaded) = call(&s, "POST", "/v1/load_lora_adapter", "ops-key", Some(load)).await;
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(
        model_ids(&s, "family-key").await,
        [base.as_str(), a, b, "smollm2_new"]
    );
    assert_eq!(model_ids(&s, "one-key").await, [base.as_str(), a]);
    let (status, _) = complete(
        "family-key",
        greedy_body(Some("smollm2_new"), &prompt, json!({})),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = complete(
        "one-key",
        greedy_body(Some("smollm2_new"), &prompt, json!({})),
    )
    .await;
    assert_eq!(status, 404);

    let engine = s.engine.clone();
    tokio::task::spawn_blocking(move || common::wait_idle(&engine))
        .await
        .unwrap();
}

/// A malformed `lora_adapters` entry stops the tenants file from loading, naming the tenant
/// and the field.
#[test]
fn a_malformed_adapter_list_is_refused() {
    let key = hash_api_key("k").to_string();
    for bad in [r#"[""]"#, r#"["a*b"]"#, r#"["ok", "**"]"#, r#""a""#] {
        let text =
            format!("[[tenant]]\nname = \"t\"\napi_keys = [\"{key}\"]\nlora_adapters = {bad}\n");
        let refused =
            TenantsFile::parse(&text).and_then(|f| TenantRegistry::from_file(&f).map(|_| ()));
        let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("lora_adapters"), "{bad}: {message}");
        if bad.starts_with('[') {
            assert!(message.starts_with("tenant \"t\""), "{bad}: {message}");
        }
    }
}
