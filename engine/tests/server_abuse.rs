//! Both servers under abuse: huge bodies, thousands of idle connections, streams nobody
//! reads, oversized parameters, and randomly generated requests (proptest) on both APIs.
//! Every answer must be a 2xx or a 4xx in the API's error shape, never a 5xx, a hang or a
//! dropped connection, `/health` must keep answering, and the KV ownership invariant must
//! hold afterwards. The engine runs the scripted model with the real tokenizer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
#[path = "server_abuse/randomized.rs"]
mod randomized;

use engine::gguf::GgufFile;
use engine::handle::{EngineConfig, EngineHandle};
use engine::model::scripted::ScriptedModel;
use engine::server::connections::ConnectionLimits;
use engine::server::grpc::GrpcServer;
use engine::server::http::{self, HttpState};
use engine::tokenizer::{ChatTemplate, Tokenizer};
use proptest::prelude::*;
use proto::v1 as pb;
use proto::v1::generate_request::Input;
use proto::v1::radix_serve_client::RadixServeClient;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const HEADER_TIMEOUT: Duration = Duration::from_secs(2);

struct Servers {
    http: SocketAddr,
    grpc: SocketAddr,
    engine: EngineHandle,
}

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn engine() -> EngineHandle {
    let file = GgufFile::open(common::model_path()).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tok).unwrap();
    let model = ScriptedModel::new(tok.vocab_size(), 1024);
    let info = model.model_info(tok.stop_token_ids());
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 16384 * 16;
    config.scheduler.max_running_requests = 128;
    EngineHandle::start_with_model(model, tok, template, info, &config).unwrap()
}

/// Both servers on one single-worker runtime (the worst case for a blocked worker), with a
/// short header timeout so idle connections are closed within the test.
fn servers() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| {
        common::process::raise_fd_limit();
        let engine = engine();
        let limits = ConnectionLimits {
            max_connections: 4096,
            header_read_timeout: HEADER_TIMEOUT,
            max_streams_per_connection: 64,
            idle_timeout: HEADER_TIMEOUT,
            ..ConnectionLimits::default()
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let served = engine.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let http_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let grpc_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send((
                    http_listener.local_addr().unwrap(),
                    grpc_listener.local_addr().unwrap(),
                ))
                .unwrap();
                let grpc = GrpcServer::ready(served.clone()).await;
                let grpc = tokio::spawn(grpc.serve_with_limits(
                    grpc_listener,
                    limits,
                    std::future::pending(),
                ));
                let state = HttpState::ready(served, None);
                http::serve_with_limits(http_listener, state, limits, std::future::pending())
                    .await
                    .unwrap();
                let _ = grpc.await;
            });
        });
        let (http, grpc) = rx.recv().unwrap();
        Servers { http, grpc, engine }
    })
}

fn url(path: &str) -> String {
    format!("http://{}{path}", servers().http)
}

/// `/health`'s status and how long it took.
async fn health() -> (u16, Duration) {
    let started = Instant::now();
    let response = reqwest::Client::new()
        .get(url("/health"))
        .timeout(Duration::from_secs(20))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), started.elapsed())
}

async fn post(path: &str, body: String) -> (u16, String) {
    let response = reqwest::Client::new()
        .post(url(path))
        .header("content-type", "application/json")
        .body(body)
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// A short completion answers 200 with text.
async fn assert_a_normal_request_completes() {
    let body = json!({"prompt": "hello there", "max_tokens": 4}).to_string();
    let (status, text) = post("/v1/completions", body).await;
    assert_eq!(status, 200, "{text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["usage"]["completion_tokens"], 4, "{value}");
}

async fn wait_idle() {
    let engine = servers().engine.clone();
    tokio::task::spawn_blocking(move || common::wait_idle(&engine))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_streams_answer_while_huge_prompts_arrive() {
    let _turn = SERIAL.lock().await;
    let huge = json!({"prompt": "lorem ipsum ".repeat(2_600_000), "max_tokens": 4}).to_string();
    assert!(huge.len() > 30_000_000 && huge.len() < 32 << 20);
    let big: Vec<_> = (0..2)
        .map(|_| tokio::spawn(post("/v1/completions", huge.clone())))
        .collect();
    let stream_body = json!({"prompt": "a short one", "max_tokens": 8, "stream": true});
    let short = tokio::spawn(post("/v1/completions", stream_body.to_string()));
    let mut worst = Duration::ZERO;
    for _ in 0..10 {
        let (status, took) = health().await;
        assert_eq!(status, 200);
        worst = worst.max(took);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    println!("slowest /health while 2 x 30 MB prompts arrived: {worst:?}");
    assert!(worst < Duration::from_secs(2), "/health took {worst:?}");
    let (status, text) = short.await.unwrap();
    assert_eq!(status, 200);
    assert!(text.trim_end().ends_with("data: [DONE]"), "{text}");
    for request in big {
        let (status, text) = request.await.unwrap();
        assert_eq!(status, 400, "{}", &text[..text.len().min(300)]);
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["error"]["param"], "prompt", "{value}");
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("at most 1023 fit"),
            "{value}"
        );
    }
    wait_idle().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_and_unread_streams_do_not_stop_the_server() {
    // It measures the process's memory: alone in a process.
    if !common::process::in_own_process(
        module_path!(),
        "idle_connections_and_unread_streams_do_not_stop_the_server",
    ) {
        return;
    }
    let _turn = SERIAL.lock().await;
    servers();
    let rss_before = common::process::rss_bytes();
    let mut idle = Vec::with_capacity(2000);
    for _ in 0..2000 {
        idle.push(TcpStream::connect(servers().http).await.unwrap());
    }
    let (status, took) = health().await;
    assert_eq!(status, 200);
    println!("/health with 2,000 idle connections open: {took:?}");
    assert_a_normal_request_completes().await;
    // 500 streaming requests whose responses nobody reads.
    let mut unread = Vec::with_capacity(500);
    for i in 0..500 {
        let body =
            json!({"prompt": format!("story {i}"), "max_tokens": 200, "stream": true}).to_string();
        let mut tcp = TcpStream::connect(servers().http).await.unwrap();
        let request = format!(
            "POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        unread.push(tcp);
    }
    for _ in 0..5 {
        let (status, took) = health().await;
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(2), "/health took {took:?}");
    }
    assert_a_normal_request_completes().await;
    let grown = common::process::rss_bytes().saturating_sub(rss_before);
    println!("RSS growth with 2,000 idle connections and 500 unread streams: {grown} B");
    assert!(grown < 256 << 20, "memory grew by {grown} bytes");
    // The idle connections sent nothing: the server closes them after the header timeout.
    tokio::time::sleep(HEADER_TIMEOUT + Duration::from_millis(500)).await;
    let mut closed = 0;
    for tcp in idle.iter_mut().take(50) {
        let mut byte = [0u8; 1];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut byte)).await {
            closed += 1;
        }
    }
    assert_eq!(closed, 50, "idle connections must be closed by the server");
    drop(unread);
    wait_idle().await;
}

/// Another HTTP server on the shared engine, with `limits`: its address and its task.
async fn spawn_http(
    limits: ConnectionLimits,
) -> (SocketAddr, tokio::task::JoinHandle<std::io::Result<()>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = HttpState::ready(servers().engine.clone(), None);
    let server = tokio::spawn(http::serve_with_limits(
        listener,
        state,
        limits,
        std::future::pending(),
    ));
    (addr, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_at_its_connection_cap_closes_new_connections_at_once() {
    let _turn = SERIAL.lock().await;
    let (addr, server) = spawn_http(ConnectionLimits {
        max_connections: 4,
        header_read_timeout: Duration::from_secs(1),
        max_streams_per_connection: 4,
        ..ConnectionLimits::default()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_millis(900), extra.read(&mut byte)).await;
    assert!(
        matches!(read, Ok(Ok(0)) | Ok(Err(_))),
        "the fifth connection was not closed at once: {read:?}"
    );
    assert!(started.elapsed() < Duration::from_millis(900));
    // Once the silent ones time out (1 s), the server takes requests again.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        match reqwest::get(format!("http://{addr}/health")).await {
            Ok(response) => {
                assert_eq!(response.status().as_u16(), 200);
                break;
            }
            Err(e) => assert!(Instant::now() < deadline, "never served again: {e}"),
        }
    }
    server.abort();
}

/// Another gRPC server on the shared engine, with `limits`: its address and its task.
async fn spawn_grpc(limits: ConnectionLimits) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = GrpcServer::ready(servers().engine.clone()).await;
    let task = tokio::spawn(async move {
        server
            .serve_with_limits(listener, limits, std::future::pending())
            .await
            .unwrap();
    });
    (addr, task)
}

/// An HTTP/2 request to `path` whose body starts with `first` and then trickles a byte
/// every 300 ms: its response (headers) and how long it took to come.
async fn h2_trickled(
    addr: SocketAddr,
    path: &str,
    content_type: &str,
    first: &'static [u8],
) -> (axum::http::Response<h2::RecvStream>, Duration) {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let request = axum::http::Request::post(format!("http://{addr}{path}"))
        .header("content-type", content_type)
        .header("te", "trailers")
        .body(())
        .unwrap();
    let (response, mut body) = client.send_request(request, false).unwrap();
    body.send_data(axum::body::Bytes::from_static(first), false)
        .unwrap();
    let trickle = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if body
                .send_data(axum::body::Bytes::from_static(b" "), false)
                .is_err()
            {
                return;
            }
        }
    });
    let started = Instant::now();
    let response = tokio::time::timeout(Duration::from_secs(20), response)
        .await
        .expect("no answer to a trickled body within 20 s")
        .unwrap();
    trickle.abort();
    (response, started.elapsed())
}

/// Headers, then bodies that trickle: the server answers once the body deadline has passed
/// (HTTP/1 and HTTP/2: 408 in the API's error shape, the HTTP/1 connection closed; gRPC:
/// DEADLINE_EXCEEDED), so that such clients cannot hold connection slots or streams. A
/// large body sent at a steady pace earns more time than the base timeout and is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickled_request_body_is_cut_off_and_a_steady_one_is_served() {
    let _turn = SERIAL.lock().await;
    let timeout = Duration::from_secs(1);
    let limits = ConnectionLimits {
        body_read_timeout: timeout,
        ..ConnectionLimits::default()
    };
    let (http_addr, http_server) = spawn_http(limits).await;
    let (grpc_addr, grpc_server) = spawn_grpc(limits).await;

    // HTTP/1: the headers promise 1,000 bytes; a byte follows every 300 ms.
    let (mut reader, mut writer) = TcpStream::connect(http_addr).await.unwrap().into_split();
    writer
        .write_all(
            b"POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
              content-length: 1000\r\n\r\n{",
        )
        .await
        .unwrap();
    let started = Instant::now();
    let trickle = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if writer.write_all(b" ").await.is_err() {
                return;
            }
        }
    });
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), reader.read_to_end(&mut answer))
        .await
        .expect("the HTTP/1 connection stayed open")
        .unwrap();
    trickle.abort();
    let took = started.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within"), "{answer}");
    assert!(
        took >= timeout && took < Duration::from_secs(10),
        "{took:?}"
    );

    // HTTP/2: the same, on a stream.
    let (response, took) =
        h2_trickled(http_addr, "/v1/completions", "application/json", b"{").await;
    assert_eq!(response.status().as_u16(), 408);
    assert!(
        took >= timeout && took < Duration::from_secs(10),
        "{took:?}"
    );

    // gRPC: the message's prefix promises 1,000 bytes.
    let (response, took) = h2_trickled(
        grpc_addr,
        "/radixserve.v1.RadixServe/Generate",
        "application/grpc",
        &[0, 0, 0, 3, 232],
    )
    .await;
    let status = match response.headers().get("grpc-status") {
        Some(status) => status.clone(),
        None => response
            .into_body()
            .trailers()
            .await
            .unwrap()
            .and_then(|t| t.get("grpc-status").cloned())
            .expect("no grpc-status"),
    };
    assert_eq!(status, (tonic::Code::DeadlineExceeded as i32).to_string());
    assert!(
        took >= timeout && took < Duration::from_secs(10),
        "{took:?}"
    );

    // 48 KiB in three parts 0.8 s apart: 1.6 s in all, past the base second, but each part
    // earns one more.
    let body =
        json!({"prompt": "steady", "max_tokens": 2, "padding": "x".repeat(48 << 10)}).to_string();
    let mut tcp = TcpStream::connect(http_addr).await.unwrap();
    let head = format!(
        "POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    for (i, part) in body.as_bytes().chunks(body.len().div_ceil(3)).enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(800)).await;
        }
        tcp.write_all(part).await.unwrap();
    }
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), tcp.read_to_end(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    http_server.abort();
    grpc_server.abort();
    wait_idle().await;
}

/// Reads HTTP/2 frames from `tcp` until the response headers of stream 1 arrive.
async fn read_h2_response_headers(tcp: &mut TcpStream) {
    loop {
        let mut header = [0u8; 9];
        tcp.read_exact(&mut header).await.unwrap();
        let len = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
        let mut payload = vec![0u8; len];
        tcp.read_exact(&mut payload).await.unwrap();
        let stream = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff;
        // HEADERS (type 1) on stream 1: the answer to our request.
        if header[3] == 1 && stream == 1 {
            return;
        }
    }
}

/// An HTTP/2 connection that asks `GET /health` (prior knowledge, no TLS) and then stays
/// open, answering nothing, as a client that keeps its connection for later.
async fn h2_health_then_idle(addr: SocketAddr) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let mut out = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    // An empty SETTINGS frame.
    out.extend([0, 0, 0, 4, 0, 0, 0, 0, 0]);
    // HEADERS on stream 1, END_STREAM | END_HEADERS: :method GET, :scheme http (static
    // table 2 and 6), :path "/health" and :authority "x" as literals on names 4 and 1.
    let mut block = vec![0x82, 0x86, 0x04, 7];
    block.extend(b"/health");
    block.extend([0x01, 1, b'x']);
    out.extend([0, 0, block.len() as u8, 1, 0x05, 0, 0, 0, 1]);
    out.extend(block);
    tcp.write_all(&out).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), read_h2_response_headers(&mut tcp))
        .await
        .expect("no HTTP/2 response");
    tcp
}

/// Reads (and drops) what `tcp` receives until the server closes it; how long that took.
async fn until_closed(tcp: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 256];
    loop {
        match tokio::time::timeout_at((started + limit).into(), tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => continue,
            Err(_) => return None,
        }
    }
}

/// HTTP/2 connections that keep no request open are closed after the idle timeout (the
/// header timeout guards only a connection's first bytes): a client cannot hold the
/// server's connection slots with connections it does not use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_http2_connections_are_closed_and_free_their_slots() {
    let _turn = SERIAL.lock().await;
    let idle = Duration::from_secs(1);
    let (addr, server) = spawn_http(ConnectionLimits {
        max_connections: 4,
        idle_timeout: idle,
        ..ConnectionLimits::default()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(h2_health_then_idle(addr).await);
    }
    // Every slot is taken: a fifth connection is closed at once.
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let refused = until_closed(&mut extra, Duration::from_millis(500)).await;
    assert!(refused.is_some(), "the fifth connection was served");
    for tcp in &mut held {
        let closed = until_closed(tcp, idle * 5).await;
        assert!(
            closed.is_some(),
            "an idle HTTP/2 connection stayed open past {:?}",
            idle * 5
        );
    }
    // The slots are free again. A stream read slowly, longer than the idle timeout, is a
    // request in flight: its HTTP/2 connection stays open until it ends. (600 tokens of
    // events are more than HTTP/2's 64 KiB window: the server cannot finish the body
    // before the client reads it.)
    let client = reqwest::Client::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let body = json!({"prompt": "slow reader", "max_tokens": 600, "ignore_eos": true,
                      "stream": true});
    let mut response = client
        .post(format!("http://{addr}/v1/completions"))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    let mut text = String::new();
    let first = response.chunk().await.unwrap().unwrap();
    text.push_str(&String::from_utf8_lossy(&first));
    tokio::time::sleep(idle * 3).await;
    while let Some(chunk) = response.chunk().await.unwrap() {
        text.push_str(&String::from_utf8_lossy(chunk.as_ref()));
    }
    assert!(text.trim_end().ends_with("data: [DONE]"), "{text}");
    assert!(text.len() > 64 << 10, "{} bytes of events", text.len());
    server.abort();
}

/// The parameter an HTTP error names, with its status.
async fn error_of(path: &str, body: Value) -> (u16, String, String) {
    let (status, text) = post(path, body.to_string()).await;
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let param = value["error"]["param"].as_str().unwrap_or("").to_string();
    let message = value["error"]["message"].as_str().unwrap().to_string();
    (status, param, message)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_parameters_get_400_naming_them_on_both_apis() {
    let _turn = SERIAL.lock().await;
    let cases = [
        (
            json!({"prompt": "x", "stop": vec!["s"; 65]}),
            "stop",
            "at most 64",
        ),
        (
            json!({"prompt": "x", "stop": ["y".repeat(300)]}),
            "stop",
            "at most 256",
        ),
        (
            json!({"prompt": "x", "stop": vec!["z".repeat(200); 30]}),
            "stop",
            "at most 4096",
        ),
        (
            json!({"prompt": "x", "stop_token_ids": vec![5; 257]}),
            "stop_token_ids",
            "at most 256",
        ),
        (
            json!({"prompt": "x", "cache_salt": "s".repeat(300)}),
            "cache_salt",
            "at most 256",
        ),
        (
            json!({"prompt": "x", "max_tokens": 5000}),
            "max_tokens",
            "exceed the context of 1024",
        ),
    ];
    for (body, param, needle) in cases {
        let (status, got, message) = error_of("/v1/completions", body.clone()).await;
        assert_eq!((status, got.as_str()), (400, param), "{body}: {message}");
        assert!(message.contains(needle), "{message}");
    }
    let (status, param, message) = error_of(
        "/v1/chat/completions",
        json!({"messages": [{"role": "wizard", "content": "hi"}]}),
    )
    .await;
    assert_eq!((status, param.as_str()), (400, "messages"), "{message}");
    // Omitted, max_tokens still means "until the context is full".
    let (status, text) = post(
        "/v1/chat/completions",
        json!({"messages": [{"role": "user", "content": "hi"}], "stop": ["\u{1}"], "max_tokens": null})
            .to_string(),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let mut client = RadixServeClient::connect(format!("http://{}", servers().grpc))
        .await
        .unwrap();
    let status = client
        .generate(pb::GenerateRequest {
            input: Some(Input::Text("x".into())),
            sampling_params: Some(pb::SamplingParams {
                stop: vec!["s".into(); 65],
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().contains("at most 64"), "{status:?}");
    wait_idle().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_caller_is_refused_before_its_body_is_read_into_a_prompt() {
    let _turn = SERIAL.lock().await;
    let engine = engine();
    let mut limits = engine::tenants::TenantLimits::unlimited("default");
    limits.max_queued_requests = Some(0);
    engine.set_tenant_limits(vec![limits]);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(http::serve(
        listener,
        HttpState::ready(engine.clone(), None),
        std::future::pending(),
    ));
    let client = reqwest::Client::new();
    let huge = json!({"prompt": "lorem ipsum ".repeat(2_000_000)}).to_string();
    for body in ["{ not json".to_string(), huge] {
        let response = client
            .post(format!("http://{addr}/v1/completions"))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        // Not 400 (bad JSON, prompt too long): the tenant's queue limit answers first.
        assert_eq!(response.status().as_u16(), 429);
        let value: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("max_queued_requests is 0"),
            "{value}"
        );
    }
    server.abort();
    engine.shutdown(Duration::ZERO);
}
