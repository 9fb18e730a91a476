//! What abuse costs everyone else, with the scripted model standing in for the forward pass
//! (needs the default model's GGUF for the tokenizer: `scripts/fetch-model.sh`).
//!
//! - `abuse/salt_churn`: time for an unrelated tenant's batch of 64 requests (32 prompt + 64
//!   output tokens each) before and after another tenant sent 100,000 requests with distinct
//!   `cache_salt`s; the churn's live namespaces and resident memory are printed.
//! - `abuse/connections`: `/health` round trips on a fresh connection each, with nothing
//!   else open, beside 2,000 idle connections, and beside 500 streams nobody reads.
//! - `abuse/grammars`: time for an unrelated tenant's batch of 16 requests (32 prompt + 32
//!   output tokens each) alone, and while another tenant keeps 8 requests running under an
//!   ambiguous Lark grammar (masks of milliseconds to tens of milliseconds), with the
//!   default grammar mask budget per tenant and without one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use engine::gguf::GgufFile;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::model::scripted::ScriptedModel;
use engine::sampling::SamplingParams;
use engine::server::connections::ConnectionLimits;
use engine::server::http::{self, HttpState};
use engine::tenants::TenantLimits;
use engine::tokenizer::{ChatTemplate, Tokenizer};
use radix::{CacheScope, Namespace};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;

const BATCH: usize = 64;
const SALTED_REQUESTS: u32 = 100_000;
/// Bytes per token of the scripted model's KV: K and V of 2 f32 each.
const SCRIPTED_BYTES_PER_TOKEN: usize = 16;

fn start() -> EngineHandle {
    start_with(|_| {})
}

/// [`start`], with `configure` changing the engine's configuration first.
fn start_with(configure: impl FnOnce(&mut EngineConfig)) -> EngineHandle {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/SmolLM2-135M-Instruct.Q4_1.gguf");
    let file = GgufFile::open(&path)
        .expect("the default model is needed for its tokenizer: run scripts/fetch-model.sh");
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tok).unwrap();
    let model = ScriptedModel::new(tok.vocab_size(), 512);
    let info = model.model_info(tok.stop_token_ids());
    let mut config = EngineConfig::new(path);
    config.kv_budget_bytes = 65536 * SCRIPTED_BYTES_PER_TOKEN;
    config.scheduler.max_running_requests = 256;
    config.scheduler.max_prefill_tokens = 4096;
    configure(&mut config);
    let engine = EngineHandle::start_with_model(model, tok, template, info, &config).unwrap();
    engine.set_tenant_limits(vec![
        TenantLimits::unlimited("unrelated"),
        TenantLimits::unlimited("salty"),
    ]);
    engine
}

fn drain(engine: &EngineHandle, requests: Vec<GenerateRequest>) {
    let streams: Vec<_> = requests
        .into_iter()
        .map(|r| engine.submit(r).unwrap())
        .collect();
    for mut stream in streams {
        while let Some(event) = stream.blocking_next() {
            if let GenerateEvent::Error(e) = event {
                panic!("{e}");
            }
        }
    }
}

/// Tenant 0's batch: distinct 32-token prompts, 64 tokens out each.
fn unrelated_batch(engine: &EngineHandle, round: u32) -> Duration {
    unrelated_requests(engine, round, BATCH as u32, 64)
}

/// Tenant 0's `count` requests: distinct 32-token prompts, `out` tokens out each.
fn unrelated_requests(engine: &EngineHandle, round: u32, count: u32, out: u32) -> Duration {
    let params = SamplingParams {
        max_new_tokens: out,
        ignore_eos: true,
        ..SamplingParams::greedy(out)
    };
    let requests = (0..count)
        .map(|i| {
            let ids = (0..32u32)
                .map(|p| 100 + (round * 7919 + i * 104_729 + p * 31) % 40_000)
                .collect();
            let mut r = GenerateRequest::new(ids, params.clone());
            r.namespace = Namespace::scoped(CacheScope::Tenant(0));
            r
        })
        .collect();
    let started = Instant::now();
    drain(engine, requests);
    started.elapsed()
}

/// Tenant 1 sends `SALTED_REQUESTS` short requests, each with a salt of its own.
fn churn_salts(engine: &EngineHandle) {
    let started = Instant::now();
    for wave in 0..SALTED_REQUESTS / 250 {
        let requests = (0..250u32)
            .map(|i| {
                let n = wave * 250 + i;
                let mut r =
                    GenerateRequest::new(vec![300 + n % 500, 7, 9], SamplingParams::greedy(2));
                r.tenant = 1;
                r.namespace = Namespace::scoped(CacheScope::Tenant(1)).with_salt(format!("s{n}"));
                r
            })
            .collect();
        drain(engine, requests);
    }
    let info = engine.server_info();
    println!(
        "{SALTED_REQUESTS} salted requests in {:.1} s; live namespaces {} (salted {}); RSS {} MiB",
        started.elapsed().as_secs_f64(),
        info.cache_namespaces,
        info.salted_namespaces,
        rss_bytes() >> 20
    );
}

fn rss_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn salt_churn(c: &mut Criterion) {
    let engine = start();
    let mut g = c.benchmark_group("abuse/salt_churn");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(10));
    let mut round = 0;
    let mut bench = |g: &mut criterion::BenchmarkGroup<_>, name: &str| {
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        round += 1;
                        unrelated_batch(&engine, round)
                    })
                    .sum()
            })
        });
    };
    bench(&mut g, "unrelated_batch_64/before");
    churn_salts(&engine);
    bench(&mut g, "unrelated_batch_64/after_100k_salts");
    g.finish();
    engine.shutdown(Duration::ZERO);
}

/// Raises the open-file limit to the hard limit (thousands of sockets).
fn raise_fd_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain libc calls on a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max.min(65536);
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// The HTTP server with default limits on a one-worker runtime of its own.
fn serve(engine: EngineHandle) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let state = HttpState::ready(engine, None);
            http::serve_with_limits(
                listener,
                state,
                ConnectionLimits::default(),
                std::future::pending(),
            )
            .await
            .unwrap();
        });
    });
    rx.recv().unwrap()
}

fn connections(c: &mut Criterion) {
    raise_fd_limit();
    let engine = start();
    let addr = serve(engine.clone());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let url = format!("http://{addr}/health");
    let mut g = c.benchmark_group("abuse/connections");
    g.sample_size(30);
    let bench = |g: &mut criterion::BenchmarkGroup<_>, name: &str| {
        g.bench_function(name, |b| {
            b.iter(|| {
                runtime.block_on(async {
                    // A fresh client: a new connection each time, as a probe would open.
                    let status = reqwest::Client::new()
                        .get(&url)
                        .send()
                        .await
                        .unwrap()
                        .status();
                    assert!(status.is_success());
                })
            })
        });
    };
    bench(&mut g, "health/alone");
    let idle: Vec<_> = runtime.block_on(async {
        let mut idle = Vec::with_capacity(2000);
        for _ in 0..2000 {
            idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
        }
        idle
    });
    bench(&mut g, "health/beside_2000_idle_connections");
    let unread: Vec<_> = runtime.block_on(async {
        let mut unread = Vec::with_capacity(500);
        for i in 0..500 {
            let body =
                format!("{{\"prompt\": \"story {i}\", \"max_tokens\": 400, \"stream\": true}}");
            let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
            let request = format!(
                "POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\n\r\n{body}",
                body.len()
            );
            tcp.write_all(request.as_bytes()).await.unwrap();
            unread.push(tcp);
        }
        unread
    });
    bench(&mut g, "health/beside_500_unread_streams");
    println!(
        "RSS with 2,000 idle connections and 500 unread streams: {} MiB",
        rss_bytes() >> 20
    );
    g.finish();
    drop((idle, unread));
    engine.shutdown(Duration::ZERO);
}

/// An ambiguous grammar: each mask walks thousands of Earley items, more as the output grows.
const AMBIGUOUS_LARK: &str = "start: e\ne: e e | e \" \" e | /[a-z]+/ | /[a-z]/ | \"\"";

/// Keeps `running` requests of tenant 1 under [`AMBIGUOUS_LARK`] going until `stop` is set
/// (each ends at 200 tokens or when its grammar gives up, and another takes its place).
fn costly_grammars(
    engine: &EngineHandle,
    running: usize,
    stop: &std::sync::atomic::AtomicBool,
) -> u32 {
    use std::sync::atomic::Ordering;
    let spec = engine::grammar::GrammarSpec::Lark(AMBIGUOUS_LARK.into());
    let namespace = Namespace::scoped(CacheScope::Tenant(1));
    let started = std::sync::atomic::AtomicU32::new(0);
    std::thread::scope(|scope| {
        for _ in 0..running {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let n = started.fetch_add(1, Ordering::Relaxed);
                    let ids = (0..8u32)
                        .map(|p| 100 + (n * 7919 + p * 31) % 40_000)
                        .collect();
                    let mut r = GenerateRequest::new(ids, SamplingParams::greedy(200));
                    r.params.ignore_eos = true;
                    r.tenant = 1;
                    r.namespace = namespace.clone();
                    r.constraint = Some(engine.compile_grammar_now(&spec, &namespace).unwrap());
                    let mut stream = engine.submit(r).unwrap();
                    while stream.blocking_next().is_some() {}
                }
            });
        }
    });
    started.into_inner()
}

fn grammars(c: &mut Criterion) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut g = c.benchmark_group("abuse/grammars");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    let cases = [
        ("alone", 0, Some(Duration::from_millis(5))),
        (
            "beside_8_costly/default_mask_budget",
            8,
            Some(Duration::from_millis(5)),
        ),
        ("beside_8_costly/no_mask_budget", 8, None),
    ];
    for (name, costly, budget) in cases {
        let engine = start_with(|config| config.scheduler.grammar_mask_budget = budget);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let hostile = scope.spawn(|| costly_grammars(&engine, costly, &stop));
            // Let the costly requests reach their expensive masks.
            std::thread::sleep(Duration::from_secs(2));
            let mut round = 0;
            g.bench_function(format!("unrelated_batch_16/{name}"), |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            round += 1;
                            unrelated_requests(&engine, round, 16, 32)
                        })
                        .sum()
                })
            });
            stop.store(true, Ordering::Relaxed);
            let started = hostile.join().unwrap_or(0);
            let info = engine.server_info();
            println!(
                "{name}: {started} costly requests started, {} constrained decodes waited a step",
                info.grammar_waits
            );
        });
        engine.shutdown(Duration::ZERO);
    }
    g.finish();
}

criterion_group!(benches, salt_churn, connections, grammars);
criterion_main!(benches);
