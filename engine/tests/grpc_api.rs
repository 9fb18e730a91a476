//! The gRPC API over the real model, through the generated tonic client: greedy output equal
//! to the engine's, chat input, special tokens, abort on cancel and on deadline (the engine is
//! left idle with nothing leaked), health, reflection, status codes of bad input, many
//! concurrent streams, prefix-cache hits and cache flushes.
//!
//! One server serves every test (one model load); the tests take turns so that the idle
//! checks see only their own requests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{
    normalized_embedding, EngineConfig, EngineHandle, GenerateEvent, GenerateRequest,
};
use engine::sampling::SamplingParams;
use engine::server::grpc::GrpcServer;
use engine::tokenizer::ChatMessage;
use proto::v1 as pb;
use proto::v1::embed_request::Input as EmbedInput;
use proto::v1::generate_request::Input;
use proto::v1::generate_response::Response;
use proto::v1::radix_serve_client::RadixServeClient;
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tonic::transport::Channel;
use tonic::{Code, Status, Streaming};

struct TestServer {
    addr: SocketAddr,
    engine: EngineHandle,
}

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Serves `server` on an OS-assigned port, on a runtime of its own that outlives each test's
/// runtime.
fn spawn_server(
    server: impl std::future::Future<Output = GrpcServer> + Send + 'static,
) -> SocketAddr {
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
            server
                .await
                .serve(listener, std::future::pending())
                .await
                .unwrap();
        });
    });
    rx.recv().unwrap()
}

fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let mut config = EngineConfig::new(common::model_path());
        config.kv_budget_bytes = 256 << 20;
        // A too-long prompt stays cheap to send.
        config.max_context_len = 2048;
        let engine = EngineHandle::start(config).unwrap();
        let addr = spawn_server(GrpcServer::ready(engine.clone()));
        TestServer { addr, engine }
    })
}

async fn channel(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

async fn client() -> RadixServeClient<Channel> {
    RadixServeClient::new(channel(server().addr).await)
}

fn text_request(text: &str, params: pb::SamplingParams) -> pb::GenerateRequest {
    pb::GenerateRequest {
        input: Some(Input::Text(text.into())),
        sampling_params: Some(params),
        ..Default::default()
    }
}

fn greedy(max_new_tokens: u32) -> pb::SamplingParams {
    pb::SamplingParams {
        temperature: Some(0.0),
        max_new_tokens: Some(max_new_tokens),
        ..Default::default()
    }
}

/// Everything a finished stream returned.
#[derive(Debug, Default)]
struct Collected {
    request_id: String,
    token_ids: Vec<u32>,
    text: String,
    logprobs: Vec<pb::TokenLogprob>,
    finished: Option<pb::GenerateFinished>,
}

async fn collect(mut stream: Streaming<pb::GenerateResponse>) -> Result<Collected, Status> {
    let mut out = Collected::default();
    while let Some(message) = stream.message().await? {
        assert!(out.finished.is_none(), "a message after `finished`");
        out.request_id = message.request_id;
        match message.response.expect("a response") {
            Response::Chunk(chunk) => {
                out.token_ids.extend(chunk.token_ids);
                out.text.push_str(&chunk.text);
                out.logprobs.extend(chunk.logprobs);
            }
            Response::Finished(finished) => out.finished = Some(finished),
        }
    }
    Ok(out)
}

async fn generate(request: pb::GenerateRequest) -> Result<Collected, Status> {
    let stream = client().await.generate(request).await?.into_inner();
    collect(stream).await
}

fn usage(collected: &Collected) -> pb::Usage {
    collected.finished.as_ref().unwrap().usage.unwrap()
}

/// The engine's own output for `ids`: (token ids, text).
async fn engine_output(ids: Vec<u32>, params: SamplingParams) -> (Vec<u32>, String) {
    let mut stream = server()
        .engine
        .submit(GenerateRequest::new(ids, params))
        .unwrap();
    let (mut ids, mut text) = (Vec::new(), String::new());
    while let Some(event) = stream.next().await {
        match event {
            GenerateEvent::Chunk {
                token_ids, text: t, ..
            } => {
                ids.extend(token_ids);
                text.push_str(&t);
            }
            GenerateEvent::Finished(_) => break,
            GenerateEvent::Error(e) => panic!("engine error: {e}"),
        }
    }
    (ids, text)
}

/// Waits until nothing runs, waits or is locked in the cache: a cancelled request leaked
/// nothing. (The scheduler also checks the full ownership rule at idle in debug builds.)
async fn wait_idle() {
    let start = Instant::now();
    loop {
        let info = server().engine.server_info();
        if info.running_requests == 0 && info.waiting_requests == 0 {
            assert_eq!(info.kv_protected_tokens, 0, "{info:?}");
            assert_eq!(
                info.kv_free_tokens + info.kv_evictable_tokens,
                info.kv_capacity_tokens,
                "{info:?}"
            );
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "engine not idle: {info:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn text_generation_matches_the_engine() {
    let _turn = SERIAL.lock().await;
    let prompt = "The three primary colors are";
    let mut params = greedy(16);
    params.logprobs = Some(2);
    let mut request = text_request(prompt, params);
    request.request_id = Some("grpc-text-1".into());
    let got = generate(request).await.unwrap();

    let ids = server().engine.tokenizer().encode(prompt, true).unwrap();
    let (want_ids, want_text) = engine_output(ids.clone(), SamplingParams::greedy(16)).await;
    assert_eq!(got.token_ids, want_ids);
    assert_eq!(got.text, want_text);
    assert!(!got.text.is_empty());
    assert_eq!(got.request_id, "grpc-text-1");
    let finished = got.finished.as_ref().unwrap();
    assert_ne!(finished.finish_reason(), pb::FinishReason::Unspecified);
    assert!(finished.ttft_s > 0.0 && finished.e2e_s >= finished.ttft_s);
    let u = usage(&got);
    assert_eq!(u.prompt_tokens as usize, ids.len());
    assert_eq!(u.completion_tokens as usize, got.token_ids.len());
    // Logprobs: one per token, the chosen token among the top 2 under greedy.
    assert_eq!(got.logprobs.len(), got.token_ids.len());
    for (lp, &id) in got.logprobs.iter().zip(&got.token_ids) {
        assert_eq!(lp.token_id, id);
        assert!(lp.logprob <= 0.0);
        assert_eq!(lp.top.len(), 2);
        assert_eq!(lp.top[0].token_id, id);
    }
    wait_idle().await;
}

#[tokio::test]
async fn n_samples_stream_by_index_with_seed_plus_index() {
    let _turn = SERIAL.lock().await;
    let prompt = "Once upon a time";
    let params = |seed: u64, n: Option<u32>| pb::SamplingParams {
        temperature: Some(1.0),
        seed: Some(seed),
        max_new_tokens: Some(10),
        n,
        ..Default::default()
    };
    let mut stream = client()
        .await
        .generate(text_request(prompt, params(11, Some(3))))
        .await
        .unwrap()
        .into_inner();
    let mut ids: [Vec<u32>; 3] = Default::default();
    let mut texts: [String; 3] = Default::default();
    let mut finished = [0; 3];
    while let Some(message) = stream.message().await.unwrap() {
        match message.response.unwrap() {
            Response::Chunk(chunk) => {
                let i = chunk.index as usize;
                assert_eq!(finished[i], 0, "a chunk of sample {i} after its finish");
                ids[i].extend(chunk.token_ids);
                texts[i].push_str(&chunk.text);
            }
            Response::Finished(f) => finished[f.index as usize] += 1,
        }
    }
    assert_eq!(finished, [1, 1, 1]);
    // Sample i is what a single request with seed 11 + i gives.
    for i in 0..3u64 {
        let alone = generate(text_request(prompt, params(11 + i, None)))
            .await
            .unwrap();
        assert_eq!(ids[i as usize], alone.token_ids, "sample {i}");
        assert_eq!(texts[i as usize], alone.text, "sample {i}");
    }
    assert!(
        ids[0] != ids[1] || ids[1] != ids[2],
        "three seeds, one output: {ids:?}"
    );
    let refused = generate(text_request(prompt, params(1, Some(17)))).await;
    assert_eq!(refused.err().map(|s| s.code()), Some(Code::InvalidArgument));
    wait_idle().await;
}

#[tokio::test]
async fn chat_input_equals_its_rendered_tokens() {
    let _turn = SERIAL.lock().await;
    let messages = vec![pb::ChatMessage {
        role: "user".into(),
        content: "What is the capital of France?".into(),
    }];
    let chat = generate(pb::GenerateRequest {
        input: Some(Input::Chat(pb::ChatInput {
            messages: messages.clone(),
        })),
        sampling_params: Some(greedy(8)),
        ..Default::default()
    })
    .await
    .unwrap();

    let engine = &server().engine;
    let rendered = engine
        .chat_template()
        .render(&[ChatMessage::user("What is the capital of France?")], true)
        .unwrap();
    let ids = engine
        .tokenizer()
        .encode_without_bos_eos(&rendered, true)
        .unwrap();
    let tokens = generate(pb::GenerateRequest {
        input: Some(Input::TokenIds(pb::TokenIds { ids: ids.clone() })),
        sampling_params: Some(greedy(8)),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(usage(&chat).prompt_tokens as usize, ids.len());
    assert!(!chat.token_ids.is_empty());
    assert_eq!(chat.token_ids, tokens.token_ids);
    assert_eq!(chat.text, tokens.text);
    // Same prompt twice: the second one found it in the cache.
    assert!(usage(&tokens).cached_tokens > 0);
    wait_idle().await;
}

#[tokio::test]
async fn special_tokens_are_kept_when_asked() {
    let _turn = SERIAL.lock().await;
    let messages = vec![pb::ChatMessage {
        role: "user".into(),
        content: "Say hello.".into(),
    }];
    let request = |skip: bool| pb::GenerateRequest {
        input: Some(Input::Chat(pb::ChatInput {
            messages: messages.clone(),
        })),
        // Past the end of the turn, so that control tokens are likely among the output.
        sampling_params: Some(pb::SamplingParams {
            ignore_eos: Some(true),
            ..greedy(40)
        }),
        skip_special_tokens: Some(skip),
        ..Default::default()
    };
    let tokenizer = server().engine.tokenizer();
    let skipped = generate(request(true)).await.unwrap();
    assert_eq!(
        skipped.text,
        tokenizer.decode(&skipped.token_ids, true).unwrap()
    );
    let kept = generate(request(false)).await.unwrap();
    assert_eq!(kept.token_ids, skipped.token_ids);
    assert_eq!(kept.text, tokenizer.decode(&kept.token_ids, false).unwrap());
    // The greedy continuation of this prompt runs past `<|im_end|>` into a new turn.
    assert_ne!(kept.text, skipped.text);
    wait_idle().await;
}

#[tokio::test]
async fn dropping_the_stream_aborts_the_request() {
    let _turn = SERIAL.lock().await;
    let aborted_before = server().engine.server_info().aborted_requests;
    let params = pb::SamplingParams {
        ignore_eos: Some(true),
        ..greedy(1500)
    };
    let mut client = client().await;
    let mut stream = client
        .generate(text_request("Once upon a time", params))
        .await
        .unwrap()
        .into_inner();
    let first = stream.message().await.unwrap().unwrap();
    assert!(matches!(first.response, Some(Response::Chunk(_))));
    drop(stream);
    drop(client);
    wait_idle().await;
    assert!(server().engine.server_info().aborted_requests > aborted_before);
}

#[tokio::test]
async fn abort_rpc_ends_the_stream_with_abort() {
    let _turn = SERIAL.lock().await;
    let mut request = text_request(
        "Write a long story about a dragon.",
        pb::SamplingParams {
            ignore_eos: Some(true),
            ..greedy(1500)
        },
    );
    request.request_id = Some("grpc-abort-me".into());
    let mut client = client().await;
    let mut stream = client.generate(request).await.unwrap().into_inner();
    stream.message().await.unwrap().unwrap();
    client
        .abort(pb::AbortRequest {
            request_id: "grpc-abort-me".into(),
        })
        .await
        .unwrap();
    let rest = collect(stream).await.unwrap();
    let finished = rest.finished.unwrap();
    assert_eq!(finished.finish_reason(), pb::FinishReason::Abort);
    assert!(finished.usage.unwrap().completion_tokens < 1500);
    wait_idle().await;
}

#[tokio::test]
async fn an_expired_deadline_aborts_the_request() {
    let _turn = SERIAL.lock().await;
    let mut request = tonic::Request::new(text_request(
        "Tell me everything about the ocean.",
        pb::SamplingParams {
            ignore_eos: Some(true),
            ..greedy(1500)
        },
    ));
    request.set_timeout(Duration::from_millis(50));
    let start = Instant::now();
    let result = match client().await.generate(request).await {
        Ok(response) => collect(response.into_inner()).await,
        Err(status) => Err(status),
    };
    let status = result.expect_err("the deadline must end the call");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
    wait_idle().await;
}

#[tokio::test]
async fn health_reports_serving() {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::health_client::HealthClient;
    use tonic_health::pb::HealthCheckRequest;

    let _turn = SERIAL.lock().await;
    let mut health = HealthClient::new(channel(server().addr).await);
    for service in ["", "radixserve.v1.RadixServe"] {
        let reply = health
            .check(HealthCheckRequest {
                service: service.into(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(reply.status(), ServingStatus::Serving, "{service:?}");
    }
}

#[tokio::test]
async fn a_loading_server_is_not_serving() {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::health_client::HealthClient;
    use tonic_health::pb::HealthCheckRequest;

    let addr = spawn_server(GrpcServer::loading());
    let mut health = HealthClient::new(channel(addr).await);
    let reply = health
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.status(), ServingStatus::NotServing);
    let mut client = RadixServeClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let status = client
        .generate(text_request("hi", greedy(1)))
        .await
        .expect_err("no engine yet");
    assert_eq!(status.code(), Code::Unavailable);
    assert!(status.message().contains("loading"), "{status:?}");
}

#[tokio::test]
async fn reflection_lists_the_services() {
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
    use tonic_reflection::pb::v1::ServerReflectionRequest;

    let _turn = SERIAL.lock().await;
    let mut reflection = ServerReflectionClient::new(channel(server().addr).await);
    let requests = [
        MessageRequest::ListServices(String::new()),
        MessageRequest::FileContainingSymbol("radixserve.v1.RadixServe".into()),
    ]
    .map(|message| ServerReflectionRequest {
        host: String::new(),
        message_request: Some(message),
    });
    let mut replies = reflection
        .server_reflection_info(futures_util::stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let Some(MessageResponse::ListServicesResponse(list)) =
        replies.message().await.unwrap().unwrap().message_response
    else {
        panic!("expected a service list");
    };
    let names: Vec<&str> = list.service.iter().map(|s| s.name.as_str()).collect();
    for want in ["radixserve.v1.RadixServe", "grpc.health.v1.Health"] {
        assert!(names.contains(&want), "{names:?}");
    }
    let Some(MessageResponse::FileDescriptorResponse(files)) =
        replies.message().await.unwrap().unwrap().message_response
    else {
        panic!("expected a file descriptor");
    };
    assert!(!files.file_descriptor_proto.is_empty());
}

#[tokio::test]
async fn bad_input_gets_invalid_argument() {
    let _turn = SERIAL.lock().await;
    let vocab = server().engine.model_info().vocab_size;
    let with = |params: pb::SamplingParams| text_request("Hello", params);
    let ids = |ids: Vec<u32>| pb::GenerateRequest {
        input: Some(Input::TokenIds(pb::TokenIds { ids })),
        ..Default::default()
    };
    let cases: Vec<(&str, pb::GenerateRequest, &str)> = vec![
        (
            "negative temperature",
            with(pb::SamplingParams {
                temperature: Some(-1.0),
                ..Default::default()
            }),
            "temperature",
        ),
        (
            "top_p above 1",
            with(pb::SamplingParams {
                top_p: Some(2.0),
                ..Default::default()
            }),
            "top_p",
        ),
        (
            "zero max_new_tokens",
            with(pb::SamplingParams {
                max_new_tokens: Some(0),
                ..Default::default()
            }),
            "max_new_tokens",
        ),
        (
            "too many logprobs",
            with(pb::SamplingParams {
                logprobs: Some(21),
                ..Default::default()
            }),
            "logprobs",
        ),
        ("empty text", text_request("", greedy(1)), "empty"),
        ("empty token ids", ids(Vec::new()), "empty"),
        ("prompt too long", ids(vec![42; 4096]), "4096 tokens"),
        (
            "unknown token id",
            ids(vec![1, 1_000_000_000]),
            "1000000000",
        ),
        (
            "missing input",
            pb::GenerateRequest::default(),
            "has no input",
        ),
        (
            "empty chat",
            pb::GenerateRequest {
                input: Some(Input::Chat(pb::ChatInput::default())),
                ..Default::default()
            },
            "chat.messages",
        ),
        (
            "stop token outside the vocabulary",
            with(pb::SamplingParams {
                stop_token_ids: vec![vocab as u32],
                ..Default::default()
            }),
            "stop token",
        ),
    ];
    let mut client = client().await;
    for (name, request, needle) in cases {
        let status = match client.generate(request).await {
            Ok(response) => collect(response.into_inner()).await.err(),
            Err(status) => Some(status),
        }
        .unwrap_or_else(|| panic!("{name}: accepted"));
        assert_eq!(status.code(), Code::InvalidArgument, "{name}: {status:?}");
        assert!(
            status.message().contains(needle),
            "{name}: {:?} does not mention {needle:?}",
            status.message()
        );
    }
    wait_idle().await;
}

#[tokio::test]
async fn many_concurrent_streams_complete() {
    let _turn = SERIAL.lock().await;
    let client = client().await;
    let tasks: Vec<_> = (0..64)
        .map(|i| {
            let mut client = client.clone();
            tokio::spawn(async move {
                let request = text_request(&format!("Request {i}: count from {i} to"), greedy(8));
                let stream = client.generate(request).await?.into_inner();
                collect(stream).await
            })
        })
        .collect();
    for task in tasks {
        let got = task.await.unwrap().unwrap();
        let finished = got.finished.expect("finished");
        assert_ne!(finished.finish_reason(), pb::FinishReason::Abort);
        let u = finished.usage.unwrap();
        assert!(u.completion_tokens >= 1 && u.completion_tokens <= 8);
        assert_eq!(u.completion_tokens as usize, got.token_ids.len());
    }
    wait_idle().await;
}

#[tokio::test]
async fn shared_prefixes_hit_the_cache_within_a_salt() {
    let _turn = SERIAL.lock().await;
    let prefix = "You are a helpful assistant who answers questions about geography, \
                  history and science with short, precise and friendly answers. "
        .repeat(4);
    let request = |question: &str, salt: &str| pb::GenerateRequest {
        cache_salt: Some(salt.into()),
        ..text_request(&format!("{prefix}Question: {question}"), greedy(2))
    };
    let first = generate(request("Where is Peru?", "prefix-test"))
        .await
        .unwrap();
    assert_eq!(usage(&first).cached_tokens, 0);
    let second = generate(request("Who was Newton?", "prefix-test"))
        .await
        .unwrap();
    let prompt_tokens = usage(&second).prompt_tokens;
    let cached = usage(&second).cached_tokens;
    assert!(
        cached > 0 && cached < prompt_tokens,
        "cached {cached} of {prompt_tokens}"
    );
    // Another salt shares nothing.
    let other = generate(request("Who was Newton?", "prefix-test-other"))
        .await
        .unwrap();
    assert_eq!(usage(&other).cached_tokens, 0);
    wait_idle().await;
}

#[tokio::test]
async fn flush_cache_returns_the_tokens_freed() {
    let _turn = SERIAL.lock().await;
    let mut request = text_request("A cache entry to flush away.", greedy(2));
    request.cache_salt = Some("flush-test".into());
    generate(request).await.unwrap();
    let mut client = client().await;
    let flush = |salt: Option<&str>, all: bool| pb::FlushCacheRequest {
        all_namespaces: all,
        cache_salt: salt.map(str::to_string),
    };
    let flushed = client
        .flush_cache(flush(Some("flush-test"), false))
        .await
        .unwrap()
        .into_inner()
        .flushed_tokens;
    assert!(flushed > 0);
    let again = client
        .flush_cache(flush(Some("flush-test"), false))
        .await
        .unwrap()
        .into_inner()
        .flushed_tokens;
    assert_eq!(again, 0);
    // The caller's flush without a salt takes every salt's cache with it.
    for salt in ["flush-test", "flush-test-2"] {
        let mut request = text_request("A cache entry to flush away.", greedy(2));
        request.cache_salt = Some(salt.into());
        generate(request).await.unwrap();
    }
    let flushed_tokens = |request| {
        let mut client = client.clone();
        async move {
            let response = client.flush_cache(request).await.unwrap();
            response.into_inner().flushed_tokens
        }
    };
    assert!(flushed_tokens(flush(None, false)).await >= 2 * flushed);
    assert_eq!(flushed_tokens(flush(Some("flush-test"), false)).await, 0);
    assert_eq!(flushed_tokens(flush(Some("flush-test-2"), false)).await, 0);
    client.flush_cache(flush(None, true)).await.unwrap();
    // The figures are published after the flush's reply: wait for them.
    let start = Instant::now();
    loop {
        let info = client
            .get_server_info(pb::GetServerInfoRequest {})
            .await
            .unwrap()
            .into_inner();
        if info.kv_evictable_tokens == 0 {
            assert_eq!(info.kv_free_tokens, info.kv_capacity_tokens);
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{info:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn model_and_server_info() {
    let _turn = SERIAL.lock().await;
    let mut client = client().await;
    let model = client
        .get_model_info(pb::GetModelInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(model.vocab_size, 49152);
    assert_eq!(model.num_layers, 30);
    assert_eq!(model.max_context_length, 2048);
    assert!(model.eos_token_ids.contains(&2));
    let info = client
        .get_server_info(pb::GetServerInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    assert!(info.kv_capacity_tokens > 0);
    assert!(!info.draining);
    assert!(info.uptime_s > 0.0);
    // Open serving: one tenant, everyone, with the engine-wide figures.
    assert_eq!(info.tenants.len(), 1);
    assert_eq!(info.tenants[0].tenant, "default");
    assert_eq!(info.tenants[0].weight, 1.0);
}

/// `Embed`: the engine's own embedding of the input (its last token's hidden state,
/// normalized), the same from text and from its token ids, cached the second time; a
/// prefix of it with `dimensions`; bad requests refused.
#[tokio::test]
async fn embed_gives_the_engines_embedding() {
    let _turn = SERIAL.lock().await;
    let engine = &server().engine;
    let text = "Radix trees share the prefixes of prompts between requests.";
    let ids = engine.tokenizer().encode(text, true).unwrap();
    let mut stream = engine
        .submit(GenerateRequest::embedding(ids.clone()))
        .unwrap();
    let hidden = loop {
        match stream.next().await.unwrap() {
            GenerateEvent::Finished(done) => break done.embedding.unwrap(),
            GenerateEvent::Chunk { token_ids, .. } => assert!(token_ids.is_empty()),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    };
    let want = normalized_embedding(&hidden, hidden.len());
    let embed = |input: EmbedInput, dimensions: Option<u32>| pb::EmbedRequest {
        input: Some(input),
        request_id: None,
        cache_salt: None,
        dimensions,
        lora_adapter: None,
    };
    let mut client = client().await;
    let from_text = client
        .embed(embed(EmbedInput::Text(text.into()), None))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(from_text.embedding, want);
    assert_eq!(from_text.prompt_tokens as usize, ids.len());
    let token_ids = EmbedInput::TokenIds(pb::TokenIds { ids: ids.clone() });
    let from_ids = client
        .embed(embed(token_ids.clone(), Some(16)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(from_ids.embedding, normalized_embedding(&hidden, 16));
    assert_eq!(from_ids.cached_tokens as usize, ids.len() - 1, "cached");
    for (request, what) in [
        (
            pb::EmbedRequest {
                input: None,
                request_id: None,
                cache_salt: None,
                dimensions: None,
                lora_adapter: None,
            },
            "input",
        ),
        (embed(token_ids.clone(), Some(0)), "dimensions"),
        (
            embed(EmbedInput::TokenIds(pb::TokenIds { ids: Vec::new() }), None),
            "empty",
        ),
    ] {
        let status = client.embed(request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(status.message().contains(what), "{status:?}");
    }
    wait_idle().await;
}
