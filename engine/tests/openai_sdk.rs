//! The OpenAI Python SDK (the client most users have) against a live server on the real
//! model: tool calls with `tool_choice` required and named, their streamed deltas, a
//! JSON-schema `response_format`, embeddings, and continuations scored as evaluation
//! harnesses score them (`echo` with logprobs). The SDK is installed into
//! `.cache/openai-sdk` when missing (`scripts/fetch-openai-sdk.sh`); the checks are in
//! `tests/python/openai_sdk_tools.py`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{EngineConfig, EngineHandle};
use engine::server::http::{self, HttpState};
use std::path::Path;
use std::process::Command;

#[test]
fn the_openai_sdk_gets_valid_tool_calls_and_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fetched = Command::new(root.join("scripts/fetch-openai-sdk.sh"))
        .output()
        .unwrap();
    assert!(
        fetched.status.success(),
        "installing the SDK failed: {}",
        String::from_utf8_lossy(&fetched.stderr)
    );
    let sdk = String::from_utf8(fetched.stdout)
        .unwrap()
        .trim()
        .to_string();
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 128 << 20;
    config.max_context_len = 2048;
    let engine = EngineHandle::start(config).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let served = engine.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            http::serve(
                listener,
                HttpState::ready(served, None),
                std::future::pending(),
            )
            .await
            .unwrap();
        });
    });
    let addr = rx.recv().unwrap();
    let output = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/openai_sdk_tools.py"))
        .arg(format!("http://{addr}"))
        .env("PYTHONPATH", &sdk)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("openai SDK checks passed"), "{stdout}");
    common::wait_idle(&engine);
}
