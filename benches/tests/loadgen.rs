//! loadgen end to end against an in-process radixserve on the real model, over gRPC and the
//! OpenAI-compatible HTTP API: the results file parses, counts add up (completed + errors ==
//! sent, output tokens == completed x the fixed output length), the prefix cache is hit on
//! shared prefixes and not on random prompts, multi-turn and multi-tenant runs, sweeps, and
//! the binary's errors for bad input.
//!
//! One engine serves both APIs (one model load); tests take turns so that cache flushes and
//! hit rates see only their own requests. Workloads are tiny: the whole file takes seconds.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use benches::loadgen::app;
use benches::loadgen::cli::Cli;
use benches::loadgen::metrics::Summary;
use benches::loadgen::report::{ResultFile, RunResult};
use clap::Parser;
use engine::handle::{EngineConfig, EngineHandle};
use engine::server::grpc::GrpcServer;
use engine::server::http::{self, HttpState};
use proto::v1 as pb;
use proto::v1::radix_serve_client::RadixServeClient;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The default model's path, fetched with `scripts/fetch-model.sh` if missing.
fn model_path() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("models/SmolLM2-135M-Instruct.Q4_1.gguf");
    if !path.exists() {
        let status = Command::new(root.join("scripts/fetch-model.sh"))
            .status()
            .expect("run scripts/fetch-model.sh");
        assert!(
            status.success(),
            "scripts/fetch-model.sh failed: the model is required"
        );
    }
    path
}

struct TestServer {
    grpc: SocketAddr,
    http: SocketAddr,
}

/// One engine behind both APIs, each served on its own runtime thread (outliving the tests'
/// runtimes) on an OS-assigned port.
fn server() -> &'static TestServer {
    static SERVER: OnceLock<TestServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let mut config = EngineConfig::new(model_path());
        config.kv_budget_bytes = 64 << 20;
        config.max_context_len = 1024;
        let engine = EngineHandle::start(config).unwrap();
        let grpc_engine = engine.clone();
        let grpc = spawn_listener(move |listener| async move {
            GrpcServer::ready(grpc_engine)
                .await
                .serve(listener, std::future::pending())
                .await
                .unwrap();
        });
        let http = spawn_listener(move |listener| async move {
            let state = HttpState::ready(engine, None);
            http::serve(listener, state, std::future::pending())
                .await
                .unwrap();
        });
        TestServer { grpc, http }
    })
}

fn spawn_listener<F, Fut>(serve: F) -> SocketAddr
where
    F: FnOnce(tokio::net::TcpListener) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
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
            serve(listener).await;
        });
    });
    rx.recv().unwrap()
}

/// Tests take turns on the shared server.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loadgen-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn flush_cache() {
    let mut client = RadixServeClient::connect(format!("http://{}", server().grpc))
        .await
        .unwrap();
    client
        .flush_cache(pb::FlushCacheRequest {
            all_namespaces: true,
            cache_salt: None,
        })
        .await
        .unwrap();
}

/// Runs loadgen in-process with `flags` (plus a tokenizer, no warm-up, no progress bar and a
/// results file); returns the file as parsed JSON and as loadgen's own type.
async fn loadgen(name: &str, flags: &[&str]) -> (Value, ResultFile) {
    let dir = scratch_dir(name);
    let output = dir.join("results.json");
    let tokenizer = model_path();
    let mut argv: Vec<String> = ["loadgen", "--warmup", "0", "--no-progress", "--tokenizer"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    argv.push(tokenizer.display().to_string());
    argv.extend(["--output".to_string(), output.display().to_string()]);
    argv.extend(flags.iter().map(|s| s.to_string()));
    let cli = Cli::try_parse_from(&argv).unwrap();
    let returned = app::run(&cli.run, argv).await.unwrap();
    let text = std::fs::read_to_string(&output).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let parsed = ResultFile::read(&output).unwrap();
    let sent = |file: &ResultFile| match file {
        ResultFile::Run(run) => vec![run.summary.sent],
        ResultFile::Sweep(sweep) => sweep.points.iter().map(|p| p.summary.sent).collect(),
    };
    assert_eq!(
        sent(&parsed),
        sent(&returned),
        "the file holds what the run returned"
    );
    let _ = std::fs::remove_dir_all(&dir);
    (json, parsed)
}

fn run_of(file: ResultFile) -> RunResult {
    match file {
        ResultFile::Run(run) => *run,
        ResultFile::Sweep(_) => panic!("expected a run, got a sweep"),
    }
}

/// completed + errors == sent == `sent`, no errors, every reply exactly `output_len` tokens.
fn assert_counts(summary: &Summary, sent: usize, output_len: u64) {
    assert_eq!(summary.sent, sent, "{summary:?}");
    assert_eq!(summary.completed + summary.errors, summary.sent);
    assert_eq!(summary.errors, 0, "errors: {:?}", summary.error_samples);
    assert_eq!(summary.output_tokens, summary.completed as u64 * output_len);
    assert!(summary.request_throughput > 0.0 && summary.output_token_throughput > 0.0);
    assert!(summary.ttft_ms.is_some() && summary.e2e_ms.is_some() && summary.tpot_ms.is_some());
    let itl = summary.itl_ms.unwrap();
    assert!(itl.count > 0 && itl.count as u64 <= summary.output_tokens);
}

fn grpc_url() -> String {
    format!("http://{}", server().grpc)
}

fn http_url() -> String {
    format!("http://{}", server().http)
}

const RANDOM: &[&str] = &[
    "--dataset",
    "random",
    "--num-prompts",
    "6",
    "--random-input-len",
    "48",
    "--random-output-len",
    "4",
    "--max-concurrency",
    "3",
];

const SHARED_PREFIX: &[&str] = &[
    "--dataset",
    "generated-shared-prefix",
    "--gsp-num-groups",
    "2",
    "--gsp-prompts-per-group",
    "3",
    "--gsp-system-prompt-len",
    "96",
    "--gsp-question-len",
    "16",
    "--gsp-output-len",
    "4",
    "--max-concurrency",
    "2",
];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_random_and_shared_prefix() {
    let _turn = SERIAL.lock().await;
    let url = grpc_url();
    let url = url.as_str();

    let (json, file) = loadgen(
        "grpc-random",
        &with(
            RANDOM,
            &["--backend", "grpc", "--url", url, "--flush-cache"],
        ),
    )
    .await;
    assert_eq!(json["kind"], "run");
    assert_eq!(json["summary"]["sent"], 6);
    assert_eq!(json["requests"].as_array().unwrap().len(), 6);
    let run = run_of(file);
    assert_counts(&run.summary, 6, 4);
    assert_eq!(
        run.summary.input_tokens,
        6 * 48,
        "server-counted prompts are exact"
    );
    assert_eq!(
        run.summary.cache_hit_rate,
        Some(0.0),
        "random prompts share nothing"
    );
    assert_eq!(run.setup.dataset, "random");
    assert!(!run.timeline.output_tokens_per_s.is_empty());

    let (_, file) = loadgen(
        "grpc-gsp",
        &with(
            SHARED_PREFIX,
            &["--backend", "grpc", "--url", url, "--flush-cache"],
        ),
    )
    .await;
    let run = run_of(file);
    assert_counts(&run.summary, 6, 4);
    let hit = run.summary.cache_hit_rate.unwrap();
    assert!(
        hit > 0.0,
        "shared prefixes are served from the cache: {hit}"
    );
    assert!(run
        .requests
        .iter()
        .all(|r| r.cached_tokens.unwrap() <= r.prompt_tokens));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sglang_protocol_random_and_shared_prefix() {
    let _turn = SERIAL.lock().await;
    let url = grpc_url();
    let url = url.as_str();
    let sglang = ["--backend", "sglang-grpc", "--url", url, "--flush-cache"];

    let (json, file) = loadgen("sglang-random", &with(RANDOM, &sglang)).await;
    assert_eq!(json["setup"]["backend"], "sglang-grpc");
    let run = run_of(file);
    assert_counts(&run.summary, 6, 4);
    assert_eq!(
        run.summary.input_tokens,
        6 * 48,
        "token ids are sent as they are"
    );
    assert_eq!(run.summary.cache_hit_rate, Some(0.0));
    assert_eq!(
        run.setup.model, "SmolLM2-135M-Instruct.Q4_1",
        "from GetModelInfo"
    );
    assert!(run
        .requests
        .iter()
        .all(|r| r.output_tokens == 4 && r.error.is_none()));

    let (_, file) = loadgen("sglang-gsp", &with(SHARED_PREFIX, &sglang)).await;
    let run = run_of(file);
    assert_counts(&run.summary, 6, 4);
    assert!(run.summary.cache_hit_rate.unwrap() > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_random_and_shared_prefix() {
    let _turn = SERIAL.lock().await;
    let url = http_url();
    let url = url.as_str();

    flush_cache().await;
    let (json, file) = loadgen(
        "http-random",
        &with(RANDOM, &["--backend", "openai", "--url", url]),
    )
    .await;
    assert_eq!(json["setup"]["backend"], "openai");
    let run = run_of(file);
    assert_counts(&run.summary, 6, 4);
    assert_eq!(run.summary.cache_hit_rate, Some(0.0));
    assert_eq!(
        run.setup.model, "SmolLM2-135M-Instruct.Q4_1",
        "from /v1/models"
    );

    flush_cache().await;
    let (_, file) = loadgen(
        "http-gsp",
        &with(SHARED_PREFIX, &["--backend", "openai", "--url", url]),
    )
    .await;
    let run = run_of(file);
    assert_counts(&run.summary, 6, 4);
    assert!(run.summary.cache_hit_rate.unwrap() > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multi_turn_and_multi_tenant() {
    let _turn = SERIAL.lock().await;
    let url = grpc_url();
    let url = url.as_str();

    // Turn 2 re-sends turn 1's prompt and reply: served from the cache.
    let (_, file) = loadgen(
        "multi-turn",
        &[
            "--url",
            url,
            "--flush-cache",
            "--dataset",
            "multi-turn",
            "--mt-num-conversations",
            "2",
            "--mt-turns",
            "2",
            "--mt-turn-len",
            "24",
            "--mt-output-len",
            "4",
            "--max-concurrency",
            "2",
        ],
    )
    .await;
    let run = run_of(file);
    assert_counts(&run.summary, 4, 4);
    assert!(run.summary.cache_hit_rate.unwrap() > 0.0);
    let second_turn = run.requests.iter().find(|r| r.turn == 1).unwrap();
    assert_eq!(
        second_turn.prompt_tokens,
        24 + 4 + 24,
        "history + reply + new message"
    );

    let (json, file) = loadgen(
        "multi-tenant",
        &[
            "--url",
            url,
            "--dataset",
            "multi-tenant",
            "--tenant",
            "alpha:key-alpha::1",
            "--tenant",
            "beta:key-beta::2",
            "--tenant-dataset",
            "random",
            "--num-prompts",
            "6",
            "--random-input-len",
            "32",
            "--random-output-len",
            "3",
            "--max-concurrency",
            "3",
        ],
    )
    .await;
    assert!(json["tenants"]["alpha"]["sent"].is_u64());
    let run = run_of(file);
    assert_counts(&run.summary, 6, 3);
    assert_eq!(run.tenants.len(), 2);
    assert_eq!(run.tenants["alpha"].sent, 2, "share 1 of 3");
    assert_eq!(run.tenants["beta"].sent, 4, "share 2 of 3");
    for tenant in run.tenants.values() {
        assert_counts(tenant, tenant.sent, 3);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sweep_runs_every_level_and_plots() {
    let _turn = SERIAL.lock().await;
    let url = grpc_url();
    let dir = scratch_dir("sweep-plots");
    let plots = dir.display().to_string();
    let (json, file) = loadgen(
        "sweep",
        &[
            "--url",
            &url,
            "--num-prompts",
            "3",
            "--random-input-len",
            "32",
            "--random-output-len",
            "2",
            "--sweep",
            "concurrency=1,3",
            "--plots",
            &plots,
        ],
    )
    .await;
    assert_eq!(json["kind"], "sweep");
    let ResultFile::Sweep(sweep) = file else {
        panic!("expected a sweep");
    };
    assert_eq!(sweep.points.len(), 2);
    assert_eq!(sweep.points[1].value, 3.0);
    for point in &sweep.points {
        assert_counts(&point.summary, 3, 2);
    }
    for name in ["sweep_throughput.svg", "sweep_ttft.svg"] {
        let svg = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("concurrency"),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The binary end to end: a run with plots against the server, `summarize` of its results,
/// and clear errors (no panic) for an unreachable server and a bad flag.
#[test]
fn binary_runs_summarizes_and_reports_bad_input() {
    let _turn = SERIAL.blocking_lock();
    let dir = scratch_dir("binary");
    let results = dir.join("run.json");
    let plots = dir.join("plots");
    let tokenizer = model_path();
    let loadgen = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_loadgen"));
        command.arg("--tokenizer").arg(&tokenizer);
        command
    };
    let out = loadgen()
        .args([
            "--url",
            &grpc_url(),
            "--num-prompts",
            "2",
            "--random-input-len",
            "16",
        ])
        .args(["--random-output-len", "2", "--warmup", "1", "--no-progress"])
        .arg("--output")
        .arg(&results)
        .arg("--plots")
        .arg(&plots)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let counts = stdout
        .lines()
        .find(|l| l.starts_with("Requests sent / completed / errors"));
    assert!(counts.unwrap().ends_with(" 2 / 2 / 0"), "{stdout}");
    for name in ["ttft_cdf.svg", "itl_cdf.svg", "throughput.svg"] {
        assert!(plots.join(name).exists(), "{name}");
    }

    let out = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .arg("summarize")
        .arg(&results)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        table.starts_with("| server |") && table.contains("| 2/2 |"),
        "{table}"
    );

    let out = loadgen()
        .args(["--url", "http://127.0.0.1:1", "--no-progress"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("cannot reach http://127.0.0.1:1"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    let out = loadgen()
        .args(["--backend", "openai", "--url", "http://127.0.0.1:1"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot reach"));

    let out = loadgen()
        .args(["--sweep", "concurrency=0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("--sweep"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
