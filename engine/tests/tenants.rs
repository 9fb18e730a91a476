//! Multi-tenant serving over the real model, through both protocols: API keys (missing,
//! wrong, revoked, removed by a reload), cache isolation between tenants and sharing within a
//! group, per-tenant statistics and flushes, the KV quota, the queue and rate limits.
//!
//! One engine serves every test, behind one gRPC and one HTTP server sharing one tenant
//! registry; the tests take turns so that the idle checks see only their own requests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{EngineConfig, EngineHandle};
use engine::server::grpc::GrpcServer;
use engine::server::http::{self, HttpState};
use engine::tenants::{hash_api_key, TenantRegistry, TenantsFile};
use proto::v1 as pb;
use proto::v1::generate_request::Input;
use proto::v1::generate_response::Response;
use proto::v1::radix_serve_client::RadixServeClient;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tonic::transport::Channel;
use tonic::{Code, Status};

/// The KV quota of tenant "quota", in tokens.
const QUOTA: usize = 400;

fn tenants_toml(with_beta: bool) -> String {
    let key = |k: &str| hash_api_key(k).to_string();
    let mut text = format!(
        r#"
[[tenant]]
name = "alpha"
api_keys = ["{alpha}"]
revoked_keys = ["{alpha_old}"]

[[tenant]]
name = "gamma"
api_keys = ["{gamma}"]
cache_scope = "common"

[[tenant]]
name = "delta"
api_keys = ["{delta}"]
cache_scope = "common"

[[tenant]]
name = "quota"
api_keys = ["{quota}"]
kv_quota_tokens = {QUOTA}

[[tenant]]
name = "limited"
api_keys = ["{limited}"]
max_running_requests = 1
max_queued_requests = 1

[[tenant]]
name = "metered"
api_keys = ["{metered}"]
token_rate_limit = 1
token_rate_burst = 200

[[tenant]]
name = "grouped"
api_keys = ["{grouped}"]
max_queued_requests = 4
token_rate_limit = 1
token_rate_burst = 200

[[tenant]]
name = "compiler"
api_keys = ["{compiler}"]
token_rate_limit = 1
token_rate_burst = 200

[[tenant]]
name = "ops"
api_keys = ["{ops}"]
admin = true
"#,
        alpha = key("alpha-key"),
        alpha_old = key("alpha-old"),
        gamma = key("gamma-key"),
        delta = key("delta-key"),
        quota = key("quota-key"),
        limited = key("limited-key"),
        metered = key("metered-key"),
        grouped = key("grouped-key"),
        compiler = key("compiler-key"),
        ops = key("ops-key"),
    );
    if with_beta {
        text.push_str(&format!(
            "\n[[tenant]]\nname = \"beta\"\napi_keys = [\"{}\"]\n",
            key("beta-key")
        ));
    }
    text
}

struct TestServer {
    grpc: SocketAddr,
    http: String,
    engine: EngineHandle,
    tenants: Arc<TenantRegistry>,
}

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let file = TenantsFile::parse(&tenants_toml(true)).unwrap();
        let tenants = Arc::new(TenantRegistry::from_file(&file).unwrap());
        let mut config = EngineConfig::new(common::model_path());
        config.kv_budget_bytes = 256 << 20;
        config.max_context_len = 2048;
        let engine = EngineHandle::start(config).unwrap();
        engine.set_tenant_limits(tenants.limits());
        let (tx, rx) = std::sync::mpsc::channel();
        let (engine2, tenants2) = (engine.clone(), tenants.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let grpc_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let http_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send((
                    grpc_listener.local_addr().unwrap(),
                    http_listener.local_addr().unwrap(),
                ))
                .unwrap();
                let grpc = GrpcServer::loading_with_tenants(tenants2.clone()).await;
                grpc.set_engine(engine2.clone()).await;
                let state = HttpState::loading_with_tenants(None, tenants2);
                state.set_engine(engine2);
                tokio::spawn(http::serve(http_listener, state, std::future::pending()));
                grpc.serve(grpc_listener, std::future::pending())
                    .await
                    .unwrap();
            });
        });
        let (grpc, http) = rx.recv().unwrap();
        TestServer {
            grpc,
            http: format!("http://{http}"),
            engine,
            tenants,
        }
    })
}

async fn client() -> RadixServeClient<Channel> {
    let channel = Channel::from_shared(format!("http://{}", server().grpc))
        .unwrap()
        .connect()
        .await
        .unwrap();
    RadixServeClient::new(channel)
}

/// `message` with `authorization: Bearer <key>` when a key is given.
fn authed<T>(message: T, key: Option<&str>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Some(key) = key {
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {key}").parse().unwrap());
    }
    request
}

fn greedy_request(text: &str, max_new_tokens: u32, salt: Option<&str>) -> pb::GenerateRequest {
    pb::GenerateRequest {
        input: Some(Input::Text(text.into())),
        sampling_params: Some(pb::SamplingParams {
            temperature: Some(0.0),
            max_new_tokens: Some(max_new_tokens),
            ignore_eos: Some(true),
            ..Default::default()
        }),
        cache_salt: salt.map(str::to_string),
        ..Default::default()
    }
}

/// Generates over gRPC as `key`; returns the finished message's usage.
async fn generate(key: &str, request: pb::GenerateRequest) -> Result<pb::Usage, Status> {
    let mut stream = client()
        .await
        .generate(authed(request, Some(key)))
        .await?
        .into_inner();
    while let Some(message) = stream.message().await? {
        if let Some(Response::Finished(done)) = message.response {
            return Ok(done.usage.expect("usage"));
        }
    }
    panic!("the stream ended without `finished`");
}

async fn server_info(key: &str) -> pb::GetServerInfoResponse {
    client()
        .await
        .get_server_info(authed(pb::GetServerInfoRequest {}, Some(key)))
        .await
        .unwrap()
        .into_inner()
}

async fn post_completion(key: Option<&str>, body: Value) -> (u16, Value) {
    call(reqwest::Method::POST, "/v1/completions", key, Some(body)).await
}

/// The status and JSON answer (`Null` if none) of `method path` with `body`, as `key`.
async fn call(
    method: reqwest::Method,
    path: &str,
    key: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, format!("{}{path}", server().http));
    if let Some(body) = body {
        request = (request.header("content-type", "application/json")).body(body.to_string());
    }
    if let Some(key) = key {
        request = request.header("authorization", format!("Bearer {key}"));
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Waits until the engine is idle and checks that no KV slot leaked.
async fn assert_idle() {
    for _ in 0..400 {
        let info = server().engine.server_info();
        if info.waiting_requests == 0 && info.running_requests == 0 {
            assert_eq!(info.kv_protected_tokens, 0, "a lock outlived its request");
            assert_eq!(
                info.kv_free_tokens + info.kv_evictable_tokens,
                info.kv_capacity_tokens,
                "every slot is free or cached: {info:?}"
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the engine did not go idle");
}

/// A prompt of about `words` distinct words, different for each `seed`.
fn prompt(seed: &str, words: usize) -> String {
    (0..words)
        .map(|i| format!("{seed}{}", i * 7 % 13))
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test]
async fn missing_wrong_and_revoked_keys_are_refused_on_both_protocols() {
    let _turn = SERIAL.lock().await;
    let request = || greedy_request("Hello", 2, None);
    for (key, want) in [
        (None, "missing API key"),
        (Some("nope"), "invalid API key"),
        (Some("alpha-old"), "revoked"),
    ] {
        let err = client()
            .await
            .generate(authed(request(), key))
            .await
            .unwrap_err();
        assert_eq!(err.code(), Code::Unauthenticated, "{key:?}: {err:?}");
        assert!(err.message().contains(want), "{key:?}: {}", err.message());
        let err = client()
            .await
            .get_server_info(authed(pb::GetServerInfoRequest {}, key))
            .await
            .unwrap_err();
        assert_eq!(err.code(), Code::Unauthenticated);
        let (status, body) =
            post_completion(key, json!({"prompt": "Hello", "max_tokens": 2})).await;
        assert_eq!(status, 401, "{key:?}: {body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(want), "{key:?}: {body}");
    }
    assert!(generate("alpha-key", request()).await.is_ok());
    let (status, _) = post_completion(
        Some("alpha-key"),
        json!({"prompt": "Hello", "max_tokens": 2}),
    )
    .await;
    assert_eq!(status, 200);
    // The health probe needs no key.
    let health = reqwest::get(format!("{}/health", server().http))
        .await
        .unwrap();
    assert_eq!(health.status().as_u16(), 200);

    // A reload that drops tenant beta refuses its key from the next request on.
    assert!(generate("beta-key", request()).await.is_ok());
    let tenants = &server().tenants;
    tenants
        .reload(&TenantsFile::parse(&tenants_toml(false)).unwrap())
        .unwrap();
    let err = generate("beta-key", request()).await.unwrap_err();
    assert_eq!(err.code(), Code::Unauthenticated);
    let (status, _) = post_completion(
        Some("beta-key"),
        json!({"prompt": "Hello", "max_tokens": 2}),
    )
    .await;
    assert_eq!(status, 401);
    tenants
        .reload(&TenantsFile::parse(&tenants_toml(true)).unwrap())
        .unwrap();
    assert!(generate("beta-key", request()).await.is_ok());
    assert_idle().await;
}

#[tokio::test]
async fn tenants_never_hit_each_others_cache_but_groups_share() {
    let _turn = SERIAL.lock().await;
    let secret = prompt("isolation", 60);
    let first = generate("alpha-key", greedy_request(&secret, 2, None))
        .await
        .unwrap();
    assert_eq!(first.cached_tokens, 0);
    let again = generate("alpha-key", greedy_request(&secret, 2, None))
        .await
        .unwrap();
    assert!(
        again.cached_tokens as usize + 1 >= again.prompt_tokens as usize,
        "alpha hits its own cache: {again:?}"
    );
    // Beta sends alpha's exact prompt: no hit, on either protocol.
    let beta = generate("beta-key", greedy_request(&secret, 2, None))
        .await
        .unwrap();
    assert_eq!(beta.cached_tokens, 0, "beta must not see alpha's prefix");
    let (status, body) = post_completion(
        Some("gamma-key"),
        json!({"prompt": secret, "max_tokens": 2}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["usage"]["prompt_tokens_details"]["cached_tokens"], 0);
    // A client salt narrows alpha's own namespace.
    let salted = generate("alpha-key", greedy_request(&secret, 2, Some("s1")))
        .await
        .unwrap();
    assert_eq!(salted.cached_tokens, 0);

    // Gamma and delta opted into the group "common": they share.
    let shared = prompt("group", 60);
    let g = generate("gamma-key", greedy_request(&shared, 2, None))
        .await
        .unwrap();
    assert_eq!(g.cached_tokens, 0);
    let d = generate("delta-key", greedy_request(&shared, 2, None))
        .await
        .unwrap();
    assert!(
        d.cached_tokens as usize + 1 >= d.prompt_tokens as usize,
        "delta hits gamma's prefix in the group: {d:?}"
    );
    assert_eq!(
        generate("alpha-key", greedy_request(&shared, 2, None))
            .await
            .unwrap()
            .cached_tokens,
        0,
        "the group's cache is not alpha's"
    );

    // Statistics: a tenant sees only itself, an administrator everyone.
    let own = server_info("beta-key").await.tenants;
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].tenant, "beta");
    assert!(own[0].cached_tokens > 0 && own[0].prefill_tokens > 0);
    let all = server_info("ops-key").await.tenants;
    let names: Vec<&str> = all.iter().map(|t| t.tenant.as_str()).collect();
    for name in ["alpha", "beta", "gamma", "delta", "ops"] {
        assert!(names.contains(&name), "{names:?}");
    }
    let alpha = all.iter().find(|t| t.tenant == "alpha").unwrap();
    assert!(alpha.cache_hit_tokens > 0 && alpha.cached_tokens > 0);

    // Flushes: a tenant flushes only its own namespace; everything needs an administrator.
    let flushed = client()
        .await
        .flush_cache(authed(pb::FlushCacheRequest::default(), Some("beta-key")))
        .await
        .unwrap()
        .into_inner();
    assert!(flushed.flushed_tokens > 0);
    let again = generate("alpha-key", greedy_request(&secret, 2, None))
        .await
        .unwrap();
    assert!(
        again.cached_tokens > 0,
        "beta's flush left alpha's cache alone"
    );
    // The group's cache is shared: neither member may flush it, salted or not.
    for salt in [None, Some("s1")] {
        let request = pb::FlushCacheRequest {
            cache_salt: salt.map(str::to_string),
            ..Default::default()
        };
        let err = client()
            .await
            .flush_cache(authed(request, Some("gamma-key")))
            .await
            .unwrap_err();
        assert_eq!(err.code(), Code::PermissionDenied, "{err:?}");
    }
    let d = generate("delta-key", greedy_request(&shared, 2, None))
        .await
        .unwrap();
    assert!(
        d.cached_tokens as usize + 1 >= d.prompt_tokens as usize,
        "gamma's refused flush left the group's cache: {d:?}"
    );
    let all_namespaces = pb::FlushCacheRequest {
        all_namespaces: true,
        ..Default::default()
    };
    let err = client()
        .await
        .flush_cache(authed(all_namespaces.clone(), Some("alpha-key")))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::PermissionDenied);
    client()
        .await
        .flush_cache(authed(all_namespaces, Some("ops-key")))
        .await
        .unwrap();
    assert_idle().await;
    // The snapshot is published right after the flush; give it that moment.
    let mut evictable = u64::MAX;
    for _ in 0..100 {
        evictable = server_info("ops-key").await.kv_evictable_tokens;
        if evictable == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        evictable, 0,
        "an administrator's flush empties every namespace"
    );
}

#[tokio::test]
async fn a_tenant_at_its_kv_quota_queues_while_others_proceed() {
    let _turn = SERIAL.lock().await;
    // Each quota request holds ~150 prompt + 40 output tokens: two fit in 400, not three.
    let quota_jobs: Vec<_> = (0..4)
        .map(|i| {
            tokio::spawn(generate(
                "quota-key",
                greedy_request(&prompt(&format!("q{i}x"), 70), 40, None),
            ))
        })
        .collect();
    let other_jobs: Vec<_> = (0..4)
        .map(|i| {
            tokio::spawn(generate(
                "beta-key",
                greedy_request(&prompt(&format!("b{i}y"), 70), 40, None),
            ))
        })
        .collect();
    let mut saw_quota_waiting_while_beta_ran = false;
    let mut max_quota_running = 0;
    loop {
        let info = server_info("ops-key").await;
        let get = |name: &str| info.tenants.iter().find(|t| t.tenant == name).cloned();
        let (q, b) = (get("quota").unwrap(), get("beta").unwrap());
        assert!(
            q.running_kv_tokens + q.cached_tokens <= QUOTA as u64,
            "quota tenant holds {} + {} tokens",
            q.running_kv_tokens,
            q.cached_tokens
        );
        max_quota_running = max_quota_running.max(q.running_requests);
        if q.waiting_requests > 0 && b.running_requests > 0 {
            saw_quota_waiting_while_beta_ran = true;
        }
        if quota_jobs
            .iter()
            .chain(&other_jobs)
            .all(|j| j.is_finished())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for job in quota_jobs.into_iter().chain(other_jobs) {
        let usage = job.await.unwrap().unwrap();
        assert_eq!(usage.completion_tokens, 40);
    }
    assert!(saw_quota_waiting_while_beta_ran);
    assert!((1..=2).contains(&max_quota_running), "{max_quota_running}");
    // At rest the tenant's cache is trimmed back to its quota.
    let q = server_info("quota-key").await.tenants[0].clone();
    assert!(q.cached_tokens <= QUOTA as u64, "{q:?}");
    // A request that can never fit the quota is refused, not queued forever.
    let err = generate("quota-key", greedy_request(&prompt("huge", 300), 4, None))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument, "{err:?}");
    assert!(
        err.message().contains("kv_quota_tokens"),
        "{}",
        err.message()
    );
    assert_idle().await;
}

#[tokio::test]
async fn queue_and_rate_limits_answer_resource_exhausted_naming_the_limit() {
    let _turn = SERIAL.lock().await;
    // "limited" runs one request and queues one: of six sent at once some are refused (each
    // long enough to still run while the others connect, one by one).
    let jobs: Vec<_> = (0..6)
        .map(|i| {
            tokio::spawn(generate(
                "limited-key",
                greedy_request(&prompt(&format!("l{i}"), 20), 200, None),
            ))
        })
        .collect();
    let (mut ok, mut refused) = (0, 0);
    for job in jobs {
        match job.await.unwrap() {
            Ok(_) => ok += 1,
            Err(e) => {
                assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
                assert!(
                    e.message().contains("max_queued_requests"),
                    "{}",
                    e.message()
                );
                refused += 1;
            }
        }
    }
    assert!(ok >= 1 && refused >= 1, "ok {ok}, refused {refused}");

    // "metered" may submit 200 prompt + output tokens, then 1 per second.
    let small = || greedy_request("Count to three:", 60, None);
    let mut accepted = 0;
    let err = loop {
        match generate("metered-key", small()).await {
            Ok(_) => accepted += 1,
            Err(e) => break e,
        }
        assert!(accepted < 5, "the rate limit never applied");
    };
    assert!(accepted >= 1, "the burst admits the first requests");
    assert_eq!(err.code(), Code::ResourceExhausted, "{err:?}");
    assert!(
        err.message().contains("token rate limit"),
        "{}",
        err.message()
    );
    let (status, body) = post_completion(
        Some("metered-key"),
        json!({"prompt": "Count to three:", "max_tokens": 60}),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("token rate limit"));
    // Other tenants are not affected.
    assert!(generate("alpha-key", small()).await.is_ok());
    assert_idle().await;
}

/// The choices of one response (`n`, or a batch of prompts) pass a tenant's rate limit
/// together or not at all: a group that can never fit the burst is invalid (400, not
/// "retry later"), a group with an invalid prompt is refused before any of it runs, and a
/// refused group takes nothing from the tenant's token bucket.
#[tokio::test]
async fn the_choices_of_one_response_pass_the_tenant_limits_together() {
    let _turn = SERIAL.lock().await;
    let key = Some("grouped-key");
    let refusals = [
        // Four choices of ~65 tokens each: more than the burst of 200 together, not alone.
        (
            json!({"prompt": "Count to three:", "max_tokens": 60, "n": 4, "temperature": 1.0}),
            &["4 choices", "token_rate_burst"][..],
        ),
        // A valid prompt (its two samples would be ~46 tokens) beside one outside the
        // vocabulary: nothing may run or be charged for the first.
        (
            json!({"prompt": [[100, 200, 300], [999_999]], "max_tokens": 20, "n": 2,
                   "temperature": 1.0}),
            &["outside the vocabulary"][..],
        ),
    ];
    for (request, named) in refusals {
        let (status, body) = post_completion(key, request).await;
        assert_eq!(status, 400, "{body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(named.iter().all(|m| message.contains(m)), "{message}");
    }
    // Nothing was taken: three choices of ~60 tokens need nearly the whole burst.
    let (status, body) = post_completion(
        key,
        json!({"prompt": "Count to three:", "max_tokens": 55, "n": 3, "temperature": 1.0,
               "ignore_eos": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["choices"].as_array().map(Vec::len), Some(3), "{body}");
    assert_eq!(body["usage"]["completion_tokens"], 165, "{body}");
    assert_idle().await;
}

/// A grammar that fails to compile costs its tenant what the request would have taken:
/// compiling is the costly part, and refused compiles must not bypass the rate limit.
#[tokio::test]
async fn a_grammar_that_fails_to_compile_is_charged_to_the_rate_limit() {
    let _turn = SERIAL.lock().await;
    let key = Some("compiler-key");
    // ~5 prompt tokens + 150: charged although refused.
    let (status, body) = post_completion(
        key,
        json!({"prompt": "Count to three:", "max_tokens": 150, "regex": "(unclosed"}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "regex", "{body}");
    // ~105 tokens no longer fit what is left of the burst of 200 (it refills at 1/s).
    let (status, body) =
        post_completion(key, json!({"prompt": "Count to three:", "max_tokens": 100})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("token rate limit"), "{message}");
    // What is left still admits a small request.
    let (status, body) =
        post_completion(key, json!({"prompt": "Count to three:", "max_tokens": 20})).await;
    assert_eq!(status, 200, "{body}");
    assert_idle().await;
}

/// Loading and unloading LoRA adapters reads files on the server and changes what every
/// tenant is served: administrators only.
#[tokio::test]
async fn only_administrators_load_and_unload_lora_adapters() {
    let _turn = SERIAL.lock().await;
    let post = |path: &'static str, key: &'static str, body: Value| async move {
        let response = reqwest::Client::new()
            .post(format!("{}{path}", server().http))
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {key}"))
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        response.status().as_u16()
    };
    let load = json!({"lora_name": "x", "lora_path": "/nonexistent"});
    let unload = json!({"lora_name": "x"});
    for path in ["/load_lora_adapter", "/v1/load_lora_adapter"] {
        assert_eq!(post(path, "alpha-key", load.clone()).await, 403, "{path}");
    }
    for path in ["/unload_lora_adapter", "/v1/unload_lora_adapter"] {
        assert_eq!(post(path, "alpha-key", unload.clone()).await, 403, "{path}");
    }
    // An administrator reaches the engine: the file is not there, the adapter not served.
    assert_eq!(post("/v1/load_lora_adapter", "ops-key", load).await, 400);
    assert_eq!(
        post("/v1/unload_lora_adapter", "ops-key", unload).await,
        404
    );
}

/// SGLang's `/abort_request`, `/flush_cache` and `/server_info` follow the tenant rules: a
/// tenant's aborts (by id or all) end only its own requests, a group member may not flush the
/// group's cache, and only an administrator sees the engine's activity.
#[tokio::test]
async fn sglang_admin_endpoints_reach_only_the_callers_own() {
    let _turn = SERIAL.lock().await;
    let generate = |rid: &'static str, tokens: u32| {
        let body = json!({"text": "Count:", "rid": rid,
            "sampling_params": {"temperature": 0, "max_new_tokens": tokens, "ignore_eos": true}});
        tokio::spawn(call(
            reqwest::Method::POST,
            "/generate",
            Some("alpha-key"),
            Some(body),
        ))
    };
    let finish = |answer: &Value| answer["meta_info"]["finish_reason"]["type"].clone();
    let abort = |key: &'static str, body: Value| {
        call(
            reqwest::Method::POST,
            "/abort_request",
            Some(key),
            Some(body),
        )
    };
    let wait_running = || async {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while server().engine.server_info().running_requests == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the request never ran"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    let alphas = generate("shared-id", 200);
    wait_running().await;
    assert_eq!(abort("gamma-key", json!({"rid": "shared-id"})).await.0, 200);
    assert_eq!(abort("gamma-key", json!({"abort_all": true})).await.0, 200);
    let (status, answer) = alphas.await.unwrap();
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        finish(&answer),
        json!("length"),
        "another tenant ended it: {answer}"
    );
    let alphas = generate("shared-id", 900);
    wait_running().await;
    assert_eq!(abort("alpha-key", json!({"abort_all": true})).await.0, 200);
    assert_eq!(finish(&alphas.await.unwrap().1), json!("abort"));
    // An administrator's abort_all ends every tenant's.
    let alphas = generate("shared-id", 900);
    wait_running().await;
    assert_eq!(abort("ops-key", json!({"abort_all": true})).await.0, 200);
    assert_eq!(finish(&alphas.await.unwrap().1), json!("abort"));

    let flush = |key: &'static str| call(reqwest::Method::POST, "/flush_cache", Some(key), None);
    assert_eq!(
        flush("gamma-key").await.0,
        403,
        "gamma shares its group's cache"
    );
    assert_eq!(flush("alpha-key").await.0, 200);
    let info = |key: &'static str| call(reqwest::Method::GET, "/server_info", Some(key), None);
    let (status, alpha) = info("alpha-key").await;
    assert_eq!((status, &alpha["internal_states"]), (200, &json!([])));
    let (_, ops) = info("ops-key").await;
    assert_eq!(ops["internal_states"].as_array().unwrap().len(), 1, "{ops}");
    assert_eq!(
        call(reqwest::Method::GET, "/server_info", None, None)
            .await
            .0,
        401
    );
    assert_idle().await;
}
