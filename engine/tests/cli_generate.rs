//! The `radixserve` binary: `generate` prints only the completion; `serve` drains on SIGTERM
//! (in-flight requests finish, `/health` stops answering 200) and exits 0.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::http::{free_port, http};
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::sampling::SamplingParams;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_radixserve");

/// The engine's own greedy completion, for comparison with the binary's stdout.
fn engine_text(prompt: &str, max_tokens: u32) -> String {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 64 << 20;
    let engine = EngineHandle::start(config).unwrap();
    let ids = engine.tokenizer().encode(prompt, true).unwrap();
    let mut stream = engine
        .submit(GenerateRequest::new(
            ids,
            SamplingParams::greedy(max_tokens),
        ))
        .unwrap();
    let mut text = String::new();
    loop {
        match stream.blocking_next().unwrap() {
            GenerateEvent::Chunk { text: t, .. } => text.push_str(&t),
            GenerateEvent::Finished(_) => break,
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
    engine.shutdown(Duration::ZERO);
    text
}

#[test]
fn generate_prints_only_the_generated_text() {
    let model = common::model_path();
    let prompt = "The capital of France is";
    let output = Command::new(BIN)
        .args(["generate", "--model"])
        .arg(&model)
        .args([
            "--prompt",
            prompt,
            "--max-tokens",
            "4",
            "--temperature",
            "0",
        ])
        .env("RUST_LOG", "info")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("Paris"), "{stdout:?}");
    assert_eq!(stdout, format!("{}\n", engine_text(prompt, 4)));
    // The logs went to stderr.
    assert!(stderr.contains("done"), "{stderr}");
}

/// `radixserve serve <args>` fails at once; returns its stderr.
fn serve_fails(args: &[&std::ffi::OsStr]) -> String {
    let output = Command::new(BIN).arg("serve").args(args).output().unwrap();
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn serve_refuses_bad_tenants_files_and_missing_models() {
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    let stderr = serve_fails(&[os("--tenants-config"), os("no/such/tenants.toml")]);
    assert!(
        stderr.contains("tenants file") && stderr.contains("cannot read"),
        "{stderr}"
    );

    let dir = std::env::temp_dir().join(format!("radixserve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tenants.toml");
    let key = engine::tenants::hash_api_key("k");
    let tenant = |rest: &str| format!("[[tenant]]\nname = \"a\"\napi_keys = [\"{key}\"]\n{rest}\n");
    std::fs::write(&file, tenant("weight = -1")).unwrap();
    let stderr = serve_fails(&[os("--tenants-config"), file.as_os_str()]);
    assert!(
        stderr.contains("weight must be a positive number"),
        "{stderr}"
    );

    // Keyless SGLang calls never act as an administrator.
    std::fs::write(&file, tenant("admin = true")).unwrap();
    let stderr = serve_fails(&[
        os("--sglang-tenant"),
        os("a"),
        os("--tenants-config"),
        file.as_os_str(),
    ]);
    assert!(
        stderr.contains("--sglang-tenant \"a\" is an administrator"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    let stderr = serve_fails(&[os("--model"), os("no/such/model.gguf")]);
    assert!(stderr.contains("not found"), "{stderr}");
}

#[test]
fn hash_key_prints_the_stored_form_of_a_key() {
    // SHA-256("abc"), FIPS 180-2 appendix B.1.
    let want = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n";
    let output = Command::new(BIN)
        .args(["hash-key", "abc"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap(), want);
    // From standard input, so the key stays out of the shell history.
    let mut child = Command::new(BIN)
        .arg("hash-key")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"abc\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), want);
}

fn wait_exit(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("radixserve did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_drains_and_exits_zero_on_sigterm() {
    let model = common::model_path();
    let port = free_port();
    let grace_secs = 60;
    let mut child = Command::new(BIN)
        .arg("serve")
        .arg("--model")
        .arg(&model)
        .args(["--http-port", &port.to_string()])
        .args(["--grpc-port", &free_port().to_string()])
        .args(["--kv-budget-mb", "64", "--max-context-len", "1024"])
        .args(["--shutdown-grace-secs", &grace_secs.to_string()])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();

    let deadline = Instant::now() + Duration::from_secs(60);
    while http(port, "GET", "/health", "").map(|r| r.0) != Some(200) {
        assert!(Instant::now() < deadline, "/health never answered 200");
        assert!(
            child.try_wait().unwrap().is_none(),
            "radixserve exited early"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // A request in flight when the signal comes finishes within the grace period. It is
    // long enough (800 tokens; repeated text drafts fast) to still run while the server is
    // probed below.
    let in_flight = std::thread::spawn(move || {
        let body = r#"{"prompt": "Once upon a time", "max_tokens": 800, "ignore_eos": true,
                       "temperature": 0}"#;
        http(port, "POST", "/v1/completions", body)
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while !metrics_show_running(port) {
        assert!(Instant::now() < deadline, "the request never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let signalled = Instant::now();
    // SAFETY: kill(2) on our own child's pid; no memory is involved.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(rc, 0);
    std::thread::sleep(Duration::from_millis(100));
    // Still listening while the request finishes, but no longer healthy nor taking requests.
    let (status, _) = http(port, "GET", "/health", "").expect("listening while draining");
    assert_eq!(status, 503, "/health while draining");
    let (status, body) = http(port, "POST", "/v1/completions", r#"{"prompt": "hi"}"#).unwrap();
    assert_eq!(status, 503, "{body}");

    let status = wait_exit(&mut child, Duration::from_secs(grace_secs + 10));
    assert!(status.success(), "{status:?}");
    assert!(signalled.elapsed() < Duration::from_secs(grace_secs));
    let (status, body) = in_flight.join().unwrap().expect("in-flight response");
    assert_eq!(status, 200, "{body}");
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["usage"]["completion_tokens"], 800, "{body}");
    assert_eq!(body["choices"][0]["finish_reason"], "length");
}

/// Whether `/metrics` shows a running request.
fn metrics_show_running(port: u16) -> bool {
    http(port, "GET", "/metrics", "").is_some_and(|(_, text)| {
        text.lines().any(|l| {
            l.strip_prefix("radixserve_running_requests ")
                .and_then(|v| v.trim().parse::<f64>().ok())
                .is_some_and(|v| v >= 1.0)
        })
    })
}

#[test]
fn sighup_never_ends_a_server_without_tenants_or_while_loading() {
    let model = common::model_path();
    let port = free_port();
    let mut child = Command::new(BIN)
        .arg("serve")
        .arg("--model")
        .arg(&model)
        .args(["--http-port", &port.to_string()])
        .args(["--grpc-port", &free_port().to_string()])
        .args(["--kv-budget-mb", "64", "--max-context-len", "1024"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let hangup = |child: &Child| {
        // SAFETY: kill(2) on our own child's pid; no memory is involved.
        let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGHUP) };
        assert_eq!(rc, 0);
    };
    // As soon as the HTTP server answers (503 while the model loads, or 200 already).
    let deadline = Instant::now() + Duration::from_secs(60);
    while http(port, "GET", "/health", "").is_none() {
        assert!(Instant::now() < deadline, "the server never listened");
        assert!(child.try_wait().unwrap().is_none(), "exited early");
        std::thread::sleep(Duration::from_millis(10));
    }
    hangup(&child);
    while http(port, "GET", "/health", "").map(|r| r.0) != Some(200) {
        assert!(Instant::now() < deadline, "/health never answered 200");
        assert!(
            child.try_wait().unwrap().is_none(),
            "SIGHUP while loading ended the server"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    hangup(&child);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "SIGHUP without a tenants file ended the server"
    );
    assert_eq!(http(port, "GET", "/health", "").map(|r| r.0), Some(200));
    // SAFETY: as above.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert!(wait_exit(&mut child, Duration::from_secs(30)).success());
}
