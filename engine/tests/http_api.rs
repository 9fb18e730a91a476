//! The OpenAI-compatible HTTP API over the real model, through a plain HTTP client: greedy
//! output equal to the engine's, SSE framing, usage with cached tokens, `/metrics`, errors in
//! OpenAI's shape, and abort on client disconnect.
//!
//! One server serves every test (one model load); the tests take turns so that counters and
//! the idle check see only their own requests. The metrics test runs in a process of its own,
//! since the recorder is the process's and every server in it records there.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
#[path = "http_api/echo.rs"]
mod echo;
#[path = "http_api/embeddings.rs"]
mod embeddings;
#[path = "http_api/native.rs"]
mod native;
#[path = "http_api/prometheus.rs"]
mod prometheus;
#[path = "http_api/responses.rs"]
mod responses;
#[path = "http_api/score.rs"]
mod score;
#[path = "http_api/sglang_admin.rs"]
mod sglang_admin;
#[path = "http_api/special_tokens.rs"]
mod special_tokens;
#[path = "http_api/tokenize.rs"]
mod tokenize;

use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::sampling::SamplingParams;
use engine::server::http::{self, HttpState};
use engine::server::metrics;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

struct TestServer {
    base: String,
    engine: EngineHandle,
}

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Starts `state`'s server on an OS-assigned port, on a runtime of its own that outlives
/// each test's runtime.
fn spawn_server(state: Arc<HttpState>) -> String {
    let (tx, rx) = std::sync::mpsc::channel::<SocketAddr>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            http::serve(listener, state, std::future::pending())
                .await
                .unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let prometheus = metrics::install().unwrap();
        let mut config = EngineConfig::new(common::model_path());
        // Small pool and context: quick to allocate, and a too-long prompt is cheap to build.
        config.kv_budget_bytes = 64 << 20;
        config.max_context_len = 1024;
        let engine = EngineHandle::start(config).unwrap();
        let base = spawn_server(HttpState::ready(engine.clone(), Some(prometheus)));
        TestServer { base, engine }
    })
}

async fn post(path: &str, body: &str) -> (u16, String) {
    let response = reqwest::Client::new()
        .post(format!("{}{path}", server().base))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

async fn post_json(path: &str, body: Value) -> (u16, Value) {
    let (status, text) = post(path, &body.to_string()).await;
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, value)
}

async fn get(base: &str, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("{base}{path}")).await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The `data:` payloads of an SSE body, in order (keep-alive comments skipped).
fn sse_data(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter_map(|event| {
            event
                .lines()
                .find_map(|line| line.strip_prefix("data: ").or(line.strip_prefix("data:")))
                .map(|d| d.trim().to_string())
        })
        .collect()
}

/// The engine's own greedy completion of `prompt`.
async fn engine_text(prompt: &str, max_tokens: u32) -> String {
    let engine = &server().engine;
    let ids = engine.tokenizer().encode(prompt, true).unwrap();
    let mut stream = engine
        .submit(GenerateRequest::new(
            ids,
            SamplingParams::greedy(max_tokens),
        ))
        .unwrap();
    let mut text = String::new();
    while let Some(event) = stream.next().await {
        match event {
            GenerateEvent::Chunk { text: t, .. } => text.push_str(&t),
            GenerateEvent::Finished(_) => return text,
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
    panic!("stream ended without Finished")
}

fn assert_openai_error(status: u16, body: &Value, want_status: u16, param: Option<&str>) {
    assert_eq!(status, want_status, "{body}");
    let error = &body["error"];
    assert!(
        error["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    assert!(error["type"].is_string(), "{body}");
    assert!(
        error.get("code").is_some() && error.get("param").is_some(),
        "{body}"
    );
    if let Some(param) = param {
        assert_eq!(error["param"], param, "{body}");
    }
}

#[tokio::test]
async fn completions_match_the_engine_with_and_without_streaming() {
    let _turn = SERIAL.lock().await;
    let prompt = "The capital of France is";
    let expected = engine_text(prompt, 8).await;
    assert!(!expected.is_empty());

    let request = json!({
        "model": "anything", "prompt": prompt, "max_tokens": 8, "temperature": 0,
        "some_unknown_field": {"ignored": true},
    });
    let (status, body) = post_json("/v1/completions", request.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["object"], "text_completion");
    assert_eq!(body["choices"][0]["text"], expected.as_str());
    assert_eq!(body["choices"][0]["finish_reason"], "length");
    let usage = &body["usage"];
    assert_eq!(usage["completion_tokens"], 8);
    let prompt_tokens = server()
        .engine
        .tokenizer()
        .encode(prompt, true)
        .unwrap()
        .len();
    assert_eq!(usage["prompt_tokens"], prompt_tokens);
    assert_eq!(usage["total_tokens"], prompt_tokens + 8);
    assert!(usage["prompt_tokens_details"]["cached_tokens"].is_u64());
    assert!(
        usage.get("completion_tokens_details").is_none(),
        "no thinking: {usage}"
    );

    // The same prompt as token ids, streamed.
    let ids = server().engine.tokenizer().encode(prompt, true).unwrap();
    let mut streamed = request;
    streamed["prompt"] = json!(ids);
    streamed["stream"] = json!(true);
    let (status, body) = post("/v1/completions", &streamed.to_string()).await;
    assert_eq!(status, 200, "{body}");
    let data = sse_data(&body);
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["text"].as_str())
        .collect();
    assert_eq!(text, expected);
    let last = chunks.last().unwrap();
    assert_eq!(last["choices"][0]["finish_reason"], "length");
    assert!(chunks.iter().all(|c| c.get("usage").is_none()));
}

#[tokio::test]
async fn chat_completions_stream_ends_with_usage_and_done() {
    let _turn = SERIAL.lock().await;
    let messages = json!([
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]},
    ]);
    let request = json!({"messages": messages, "max_completion_tokens": 10, "temperature": 0});
    let (status, body) = post_json("/v1/chat/completions", request.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["object"], "chat.completion");
    let content = body["choices"][0]["message"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(body["choices"][0]["message"]["role"], "assistant");
    assert!(!content.is_empty());
    let usage = body["usage"].clone();

    let mut streamed = request;
    streamed["stream"] = json!(true);
    streamed["stream_options"] = json!({"include_usage": true});
    streamed["logprobs"] = json!(true);
    streamed["top_logprobs"] = json!(2);
    let (status, text) = post("/v1/chat/completions", &streamed.to_string()).await;
    assert_eq!(status, 200, "{text}");
    let data = sse_data(&text);
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert!(chunks
        .iter()
        .all(|c| c["object"] == "chat.completion.chunk"));
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let streamed_content: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(streamed_content, content);
    // Logprobs: one entry per generated token, each with two candidates.
    let entries: Vec<&Value> = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["logprobs"]["content"].as_array())
        .flatten()
        .collect();
    assert_eq!(
        entries.len() as u64,
        usage["completion_tokens"].as_u64().unwrap()
    );
    assert!(entries
        .iter()
        .all(|e| e["top_logprobs"].as_array().unwrap().len() == 2
            && e["logprob"].as_f64().unwrap() <= 0.0
            && e["bytes"].is_array()));
    // The usage chunk comes last, with no choices; every other chunk has `usage: null`.
    let (usage_chunk, rest) = chunks.split_last().unwrap();
    assert_eq!(usage_chunk["choices"], json!([]));
    assert_eq!(
        usage_chunk["usage"]["completion_tokens"],
        usage["completion_tokens"]
    );
    assert_eq!(
        usage_chunk["usage"]["prompt_tokens"],
        usage["prompt_tokens"]
    );
    assert!(rest.iter().all(|c| c["usage"].is_null()));
    assert!(rest.last().unwrap()["choices"][0]["finish_reason"].is_string());
}

/// The text of a single-choice completion of `prompt` with `params` merged in.
async fn one_choice(prompt: &str, params: Value) -> String {
    let mut body = json!({"prompt": prompt, "max_tokens": 8});
    body.as_object_mut()
        .unwrap()
        .extend(params.as_object().unwrap().clone());
    let (status, body) = post_json("/v1/completions", body).await;
    assert_eq!(status, 200, "{body}");
    body["choices"][0]["text"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn n_samples_and_batched_prompts_share_prompts_and_follow_the_seed_contract() {
    let _turn = SERIAL.lock().await;
    let prompts = [
        "The capital of France is",
        "Once upon a time, a small robot",
    ];
    // Seeded: choice i of prompt p is what a single request with seed 7 + i gives.
    let (status, body) = post_json(
        "/v1/completions",
        json!({"prompt": prompts, "n": 2, "max_tokens": 8, "temperature": 1.0, "seed": 7}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let choices = body["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 4, "{body}");
    let mut completion_tokens = 0;
    for (i, choice) in choices.iter().enumerate() {
        assert_eq!(choice["index"], i, "{body}");
        let (p, sample) = (i / 2, i % 2);
        let alone = one_choice(prompts[p], json!({"temperature": 1.0, "seed": 7 + sample})).await;
        assert_eq!(choice["text"], alone, "choice {i} of {body}");
        completion_tokens += 8;
    }
    assert_ne!(
        choices[0]["text"], choices[1]["text"],
        "two seeds, two samples: {body}"
    );
    // Each prompt is counted once; every choice's output is counted.
    let ids = |p: &str| server().engine.tokenizer().encode(p, true).unwrap().len();
    let usage = &body["usage"];
    assert_eq!(
        usage["prompt_tokens"],
        ids(prompts[0]) + ids(prompts[1]),
        "{body}"
    );
    assert_eq!(usage["completion_tokens"], completion_tokens, "{body}");

    // Greedy samples all equal the engine's own completion; the prompt is computed once.
    let long = "A long shared instruction for every sample. ".repeat(12);
    let (status, body) = post_json(
        "/v1/completions",
        json!({"prompt": long, "n": 3, "max_tokens": 6, "temperature": 0}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let want = engine_text(&long, 6).await;
    for choice in body["choices"].as_array().unwrap() {
        assert_eq!(choice["text"], want, "{body}");
    }
    let prompt_tokens = body["usage"]["prompt_tokens"].as_u64().unwrap();
    assert_eq!(prompt_tokens, ids(&long) as u64);
    common::wait_idle(&server().engine);
}

#[tokio::test]
async fn min_tokens_keeps_the_end_of_sequence_out_until_reached() {
    let _turn = SERIAL.lock().await;
    let chat = |extra: Value| {
        let mut body = json!({
            "messages": [{"role": "user", "content": "Say hi"}],
            "max_tokens": 60, "temperature": 0,
        });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let (status, free) = post_json("/v1/chat/completions", chat(json!({}))).await;
    assert_eq!(status, 200, "{free}");
    assert_eq!(free["choices"][0]["finish_reason"], "stop", "{free}");
    let k = free["usage"]["completion_tokens"].as_u64().unwrap();
    let (status, held) =
        post_json("/v1/chat/completions", chat(json!({"min_tokens": k + 3}))).await;
    assert_eq!(status, 200, "{held}");
    assert!(
        held["usage"]["completion_tokens"].as_u64().unwrap() >= k + 3,
        "{held}"
    );
    let (free_text, held_text) = (
        free["choices"][0]["message"]["content"].as_str().unwrap(),
        held["choices"][0]["message"]["content"].as_str().unwrap(),
    );
    assert!(
        held_text.starts_with(free_text),
        "{free_text:?} / {held_text:?}"
    );
    let (status, body) = post_json("/v1/chat/completions", chat(json!({"min_tokens": 61}))).await;
    assert_openai_error(status, &body, 400, Some("min_tokens"));
    common::wait_idle(&server().engine);
}

#[tokio::test]
async fn streamed_chat_choices_carry_their_index_and_usage_comes_once() {
    let _turn = SERIAL.lock().await;
    let request = json!({
        "messages": [{"role": "user", "content": "Name a color."}],
        "n": 2, "max_tokens": 6, "temperature": 0, "stream": true,
        "stream_options": {"include_usage": true},
    });
    let (status, text) = post("/v1/chat/completions", &request.to_string()).await;
    assert_eq!(status, 200, "{text}");
    let data = sse_data(&text);
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let mut content = [String::new(), String::new()];
    let mut roles = [0, 0];
    let mut finishes = [0, 0];
    let mut usages = Vec::new();
    for chunk in &chunks {
        if chunk["usage"].is_object() {
            usages.push(chunk["usage"].clone());
        }
        for choice in chunk["choices"].as_array().unwrap() {
            let i = choice["index"].as_u64().unwrap() as usize;
            if choice["delta"]["role"] == "assistant" {
                roles[i] += 1;
            }
            if let Some(piece) = choice["delta"]["content"].as_str() {
                content[i].push_str(piece);
            }
            if choice["finish_reason"].is_string() {
                finishes[i] += 1;
            }
        }
    }
    assert_eq!((roles, finishes), ([1, 1], [1, 1]), "{text}");
    assert_eq!(content[0], content[1], "greedy samples agree: {text}");
    assert!(!content[0].is_empty(), "{text}");
    assert_eq!(usages.len(), 1, "usage comes once, at the end: {text}");
    let (status, single) = post_json(
        "/v1/chat/completions",
        json!({"messages": [{"role": "user", "content": "Name a color."}],
               "max_tokens": 6, "temperature": 0}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(single["choices"][0]["message"]["content"], content[0]);
    assert_eq!(usages[0]["prompt_tokens"], single["usage"]["prompt_tokens"]);
    assert_eq!(
        usages[0]["completion_tokens"],
        2 * single["usage"]["completion_tokens"].as_u64().unwrap()
    );
    common::wait_idle(&server().engine);
}

/// Each streamed choice counts its own `text_offset`s from 0, and they match the choice's
/// text, in the stream and in the whole response alike.
#[tokio::test]
async fn completion_text_offsets_follow_each_choices_own_text() {
    let _turn = SERIAL.lock().await;
    let request = |stream: bool| {
        json!({"prompt": "The capital of France is", "n": 2, "max_tokens": 8,
               "logprobs": 1, "temperature": 0, "ignore_eos": true, "stream": stream})
    };
    let (status, text) = post("/v1/completions", &request(true).to_string()).await;
    assert_eq!(status, 200, "{text}");
    let data = sse_data(&text);
    let mut tokens: [Vec<String>; 2] = Default::default();
    let mut offsets: [Vec<u64>; 2] = Default::default();
    let mut texts = [String::new(), String::new()];
    for d in data.iter().filter(|d| *d != "[DONE]") {
        let chunk: Value = serde_json::from_str(d).unwrap();
        for choice in chunk["choices"].as_array().unwrap() {
            let i = choice["index"].as_u64().unwrap() as usize;
            texts[i].push_str(choice["text"].as_str().unwrap_or_default());
            let Some(lp) = choice["logprobs"].as_object() else {
                continue;
            };
            for (token, offset) in lp["tokens"]
                .as_array()
                .unwrap()
                .iter()
                .zip(lp["text_offset"].as_array().unwrap())
            {
                tokens[i].push(token.as_str().unwrap().to_string());
                offsets[i].push(offset.as_u64().unwrap());
            }
        }
    }
    let (status, whole) = post_json("/v1/completions", request(false)).await;
    assert_eq!(status, 200, "{whole}");
    for i in 0..2 {
        assert_eq!(tokens[i].len(), 8, "{text}");
        assert_eq!(tokens[i].concat(), texts[i], "the tokens spell the text");
        // Independently: each offset is the characters of the text before the token.
        let want: Vec<u64> = (0..8)
            .map(|j| tokens[i][..j].concat().chars().count() as u64)
            .collect();
        assert_eq!(offsets[i], want, "choice {i}: {text}");
        let lp = &whole["choices"][i]["logprobs"];
        assert_eq!(lp["text_offset"], json!(want), "choice {i}: {whole}");
    }
    common::wait_idle(&server().engine);
}

#[tokio::test]
async fn a_shared_long_prefix_is_reported_as_cached() {
    let _turn = SERIAL.lock().await;
    let prefix = "Radix caches keep the keys and values of shared prompt prefixes. ".repeat(16);
    let prefix_tokens = server()
        .engine
        .tokenizer()
        .encode(&prefix, true)
        .unwrap()
        .len();
    assert!(prefix_tokens >= 180, "{prefix_tokens}");
    let ask = |question: &str| json!({"prompt": format!("{prefix}{question}"), "max_tokens": 2, "temperature": 0});
    let (status, first) = post_json("/v1/completions", ask("First question:")).await;
    assert_eq!(status, 200, "{first}");
    let (status, second) = post_json("/v1/completions", ask("Second question:")).await;
    assert_eq!(status, 200, "{second}");
    let cached = second["usage"]["prompt_tokens_details"]["cached_tokens"]
        .as_u64()
        .unwrap();
    assert!(
        cached as usize >= prefix_tokens - 2,
        "cached {cached} of {prefix_tokens}"
    );

    // Another salt is another namespace: nothing shared.
    let mut salted = ask("Second question:");
    salted["cache_salt"] = json!("tenant-secret");
    let (status, body) = post_json("/v1/completions", salted).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["usage"]["prompt_tokens_details"]["cached_tokens"], 0);
}

#[tokio::test]
async fn models_and_health() {
    let _turn = SERIAL.lock().await;
    let (status, text) = get(&server().base, "/v1/models").await;
    assert_eq!(status, 200, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["object"], "list");
    assert_eq!(
        body["data"][0]["id"],
        server().engine.model_info().name.as_str()
    );
    assert_eq!(body["data"][0]["object"], "model");
    // One model by its id (the SDK's `models.retrieve`); 404 for any other.
    let name = server().engine.model_info().name.clone();
    let (status, text) = get(&server().base, &format!("/v1/models/{name}")).await;
    assert_eq!(status, 200, "{text}");
    let model: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(model, body["data"][0]);
    let (status, text) = get(&server().base, "/v1/models/another-model").await;
    assert_eq!(status, 404, "{text}");
    let error: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(error["error"]["code"], "model_not_found", "{text}");
    assert_eq!(get(&server().base, "/health").await.0, 200);

    // A server whose model is still loading: 503 until the engine is set.
    let state = HttpState::loading(None);
    let loading = spawn_server(state.clone());
    assert_eq!(get(&loading, "/health").await.0, 503);
    let (status, text) = get(&loading, "/v1/models").await;
    assert_eq!(status, 503, "{text}");
    assert!(state.set_engine(server().engine.clone()));
    assert_eq!(get(&loading, "/health").await.0, 200);
    assert_eq!(get(&loading, "/metrics").await.0, 404);
}

#[tokio::test]
async fn bad_requests_get_openai_errors() {
    let _turn = SERIAL.lock().await;
    let (status, text) = post("/v1/completions", "{\"prompt\": \"hi\",").await;
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_openai_error(status, &body, 400, None);
    assert_eq!(body["error"]["type"], "invalid_request_error");

    let (status, text) = post("/v1/chat/completions", "{\"messages\": 3}").await;
    assert_openai_error(status, &serde_json::from_str(&text).unwrap(), 400, None);

    // 65 prompts, the first too long for the context.
    let too_many: Vec<String> = std::iter::once("hello ".repeat(1500))
        .chain(std::iter::repeat_n("a".to_string(), 64))
        .collect();
    let cases = [
        (json!({"prompt": "hi", "temperature": -1}), "temperature"),
        (json!({"prompt": "hi", "n": 17}), "n"),
        (json!({"prompt": "hi", "n": 0}), "n"),
        (json!({"prompt": "", "max_tokens": 2}), "prompt"),
        (json!({"prompt": "hi", "top_p": 0}), "top_p"),
        (json!({"prompt": "hi", "max_tokens": 0}), "max_tokens"),
        (json!({"prompt": "hi", "logprobs": 21}), "logprobs"),
        (json!({"prompt": []}), "prompt"),
        (json!({"prompt": ["a", "b", "c", "d", "e"], "n": 16}), "n"),
        (json!({"prompt": [999_999]}), "prompt"),
        (json!({"prompt": "hello ".repeat(1500)}), "prompt"),
        // Too many choices is found before any prompt is built (the first is too long).
        (json!({ "prompt": too_many }), "n"),
        (
            json!({"prompt": "hi", "stream_options": {"include_usage": true}}),
            "stream_options",
        ),
        // Other servers' extensions that ask for what this one does not do.
        (
            json!({"prompt": "hi", "use_beam_search": true}),
            "use_beam_search",
        ),
        (
            json!({"prompt": "hi", "include_stop_str_in_output": true}),
            "include_stop_str_in_output",
        ),
        (json!({"prompt": "hi", "typical_p": 0.5}), "typical_p"),
        (
            json!({"prompt": "hi", "allowed_token_ids": [1, 2]}),
            "allowed_token_ids",
        ),
        (
            json!({"prompt": "hi", "guided_choice": []}),
            "guided_choice",
        ),
        (
            json!({"prompt": "hi", "guided_choice": ["a"], "regex": "b"}),
            "response_format",
        ),
    ];
    for (request, param) in cases {
        let (status, body) = post_json("/v1/completions", request).await;
        assert_openai_error(status, &body, 400, Some(param));
    }
    let chat_cases = [
        (json!({"messages": []}), "messages"),
        (
            json!({"messages": [{"role": "user", "content": "hi"}], "n": 20}),
            "n",
        ),
        (
            json!({"messages": [{"role": "user", "content": "hi"}], "top_logprobs": 2}),
            "top_logprobs",
        ),
        (
            json!({"messages": [{"role": "user", "content": "hi"}],
                   "functions": [{"name": "f", "parameters": {"type": "object"}}]}),
            "functions",
        ),
        (
            json!({"messages": [{"role": "user", "content": "hi"}], "function_call": "auto"}),
            "function_call",
        ),
        // The default budget is what the context leaves: a minimum beyond it is refused,
        // not turned into an output that ignores end-of-sequence and stop strings.
        (
            json!({"messages": [{"role": "user", "content": "hi"}], "min_tokens": 100_000}),
            "min_tokens",
        ),
    ];
    for (request, param) in chat_cases {
        let (status, body) = post_json("/v1/chat/completions", request).await;
        assert_openai_error(status, &body, 400, Some(param));
    }
    let (status, text) = get(&server().base, "/v1/nothing-here").await;
    assert_openai_error(status, &serde_json::from_str(&text).unwrap(), 404, None);
    let (status, text) = get(&server().base, "/v1/completions").await;
    assert_openai_error(status, &serde_json::from_str(&text).unwrap(), 405, None);
}

#[tokio::test]
async fn a_full_queue_answers_429() {
    let _turn = SERIAL.lock().await;
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 8 << 20;
    config.scheduler.max_queued_requests = 0;
    let engine = EngineHandle::start(config).unwrap();
    let base = spawn_server(HttpState::ready(engine.clone(), None));
    let response = reqwest::Client::new()
        .post(format!("{base}/v1/completions"))
        .body(json!({"prompt": "hi", "max_tokens": 1}).to_string())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_openai_error(status, &body, 429, None);
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");
    engine.shutdown(Duration::ZERO);
}

#[tokio::test]
async fn a_client_that_disconnects_mid_stream_aborts_its_request() {
    let _turn = SERIAL.lock().await;
    let engine = &server().engine;
    let aborted_before = engine.server_info().aborted_requests;
    let request = json!({
        "prompt": "Tell me a very long story.", "max_tokens": 600, "ignore_eos": true,
        "temperature": 0, "stream": true,
    });
    let client = reqwest::Client::new();
    let mut response = client
        .post(format!("{}/v1/completions", server().base))
        .body(request.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let first = response.chunk().await.unwrap().unwrap();
    assert!(first.starts_with(b"data: "), "{first:?}");
    drop(response);
    drop(client);

    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let info = engine.server_info();
        if info.running_requests == 0
            && info.waiting_requests == 0
            && info.kv_protected_tokens == 0
            && info.aborted_requests > aborted_before
        {
            assert_eq!(
                info.kv_free_tokens + info.kv_evictable_tokens,
                info.kv_capacity_tokens
            );
            break;
        }
        assert!(Instant::now() < deadline, "engine not idle: {info:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The choices of a non-streaming request are read together: the engine runs them together,
/// and one left unread while another was read piled up its events, which with long outputs
/// got it aborted as a client that stopped reading (`MAX_UNREAD_EVENTS`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_choices_of_a_non_streaming_request_are_read_together() {
    use engine::model::scripted::ScriptedModel;
    let model = ScriptedModel::new(50_000, 16_384);
    let engine = common::scripted::start_model_with(model, 16_384, |config| {
        config.max_context_len = 16_384;
        config.scheduler.speculative_draft_tokens = 0;
    });
    let servers = common::servers::serve_engine(engine);
    let want = engine::io::MAX_UNREAD_EVENTS + 100;
    let body = json!({"prompt": [1000, 1001, 1002], "max_tokens": want, "n": 2,
                      "ignore_eos": true, "temperature": 0});
    let (status, answer) = common::servers::post_json(servers.http, "/v1/completions", body).await;
    assert_eq!(status, 200, "{answer}");
    for choice in answer["choices"].as_array().unwrap() {
        assert_eq!(choice["finish_reason"], "length", "{choice}");
    }
    assert_eq!(answer["usage"]["completion_tokens"], json!(2 * want));
    servers.engine.shutdown(Duration::from_secs(1));
}
