//! The HTTP and gRPC servers of an engine, on a runtime of their own, for tests that call
//! them as clients do.

use engine::handle::{EngineConfig, EngineHandle};
use engine::server::grpc::GrpcServer;
use engine::server::http::{self, HttpState};
use engine::tenants::TenantRegistry;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;

pub struct Servers {
    pub engine: EngineHandle,
    pub http: SocketAddr,
    pub grpc: SocketAddr,
}

/// Both servers of an engine started from `config`, on their own runtime.
pub fn serve(config: EngineConfig) -> Servers {
    serve_engine(EngineHandle::start(config).unwrap())
}

/// Both servers of `engine`, on their own runtime.
pub fn serve_engine(engine: EngineHandle) -> Servers {
    serve_registry(engine, Arc::new(TenantRegistry::open()))
}

/// Both servers of `engine` for the tenants of `tenants` (whose limits the engine takes).
pub fn serve_tenants(engine: EngineHandle, tenants: Arc<TenantRegistry>) -> Servers {
    engine.set_tenant_limits(tenants.limits());
    serve_registry(engine, tenants)
}

fn serve_registry(engine: EngineHandle, tenants: Arc<TenantRegistry>) -> Servers {
    let (tx, rx) = std::sync::mpsc::channel();
    let served = engine.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let h = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let g = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send((h.local_addr().unwrap(), g.local_addr().unwrap()))
                .unwrap();
            let grpc = GrpcServer::loading_with_tenants(tenants.clone()).await;
            grpc.set_engine(served.clone()).await;
            tokio::spawn(grpc.serve(g, std::future::pending()));
            let state = HttpState::loading_with_tenants(None, tenants);
            state.set_engine(served);
            http::serve(h, state, std::future::pending()).await.unwrap();
        });
    });
    let (http, grpc) = rx.recv().unwrap();
    Servers { engine, http, grpc }
}

/// POSTs `body` as JSON to the HTTP server at `http` and reads the streamed answer: its
/// SSE `data:` payloads (after an `event:` line, where events are named), `[DONE]` left out.
pub async fn post_sse(http: SocketAddr, path: &str, body: Value) -> Vec<Value> {
    let text = reqwest::Client::new()
        .post(format!("http://{http}{path}"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.split("\n\n")
        .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("data: ")))
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")))
        .collect()
}

/// The tool calls of a streamed chat response's choice 0, put together from its deltas as
/// OpenAI's clients do, in order, each with the number of deltas it came in. A call's first
/// delta holds its index, id, type and name; later ones only add to its arguments.
pub fn streamed_calls(events: &[Value]) -> Vec<(Value, usize)> {
    let mut calls: Vec<(Value, usize)> = Vec::new();
    let deltas = events
        .iter()
        .filter_map(|e| e["choices"][0]["delta"]["tool_calls"].as_array())
        .flatten();
    for delta in deltas {
        let index = delta["index"].as_u64().unwrap() as usize;
        let arguments = delta["function"]["arguments"].as_str().unwrap();
        if index == calls.len() {
            assert_eq!(delta["type"], "function", "{delta}");
            assert!(delta["id"].is_string() && delta["function"]["name"].is_string());
            calls.push((delta.clone(), 1));
            continue;
        }
        assert!(delta.get("id").is_none() && delta["function"].get("name").is_none());
        let (call, count) = &mut calls[index];
        let whole = format!(
            "{}{arguments}",
            call["function"]["arguments"].as_str().unwrap()
        );
        call["function"]["arguments"] = Value::String(whole);
        *count += 1;
    }
    calls
}

/// The tool the tool-call tests offer: `get_weather` with a `unit` (`c` or `f`) and 1 to
/// 7 `days`, both required.
pub fn weather_tool() -> Value {
    serde_json::json!({"type": "function", "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {
            "unit": {"enum": ["c", "f"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 7}
        }, "required": ["unit", "days"]}
    }})
}

/// `body` (a chat request) streamed: it must stream exactly the one call `whole` (the same
/// request's unstreamed call) and end for its tool call. Returns the stream's events.
pub async fn assert_streams_the_call(http: SocketAddr, body: &Value, whole: &Value) -> Vec<Value> {
    let mut streamed = body.clone();
    streamed["stream"] = Value::Bool(true);
    let events = post_sse(http, "/v1/chat/completions", streamed).await;
    let calls = streamed_calls(&events);
    assert_eq!(calls.len(), 1, "{events:?}");
    let (call, _) = &calls[0];
    assert_eq!(call["function"]["name"], whole["function"]["name"]);
    assert_eq!(
        call["function"]["arguments"],
        whole["function"]["arguments"]
    );
    let last = events
        .iter()
        .rev()
        .find(|e| !e["choices"][0]["finish_reason"].is_null());
    assert_eq!(last.unwrap()["choices"][0]["finish_reason"], "tool_calls");
    events
}

/// POSTs `body` as JSON to the HTTP server at `http`; the status and the JSON answer.
pub async fn post_json(http: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("http://{http}{path}"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, value)
}

/// A Responses API output without the parts that differ from request to request (item
/// and call ids), to compare two responses' items.
pub fn without_ids(items: &Value) -> Value {
    let mut items = items.clone();
    for item in items.as_array_mut().unwrap() {
        let item = item.as_object_mut().unwrap();
        item.remove("id");
        item.remove("call_id");
    }
    items
}
