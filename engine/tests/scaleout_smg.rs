//! Scale-out with the real gateway: two radixserve replicas behind smg (installed pinned by
//! `scripts/fetch-smg.sh`) in gRPC mode, the gateway holding no model files (its tokenizer
//! comes from the workers' `GetTokenizer`) and routing by their KV events
//! (`scripts/scaleout.py`): greedy chat and completion answers through the gateway equal a
//! replica's own, streamed and not, with the same usage; killing one replica under load
//! loses at most the requests it had in flight, and restarted it serves again.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;
use std::process::Command;

fn gateway() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fetched = Command::new(root.join("scripts/fetch-smg.sh"))
        .output()
        .unwrap();
    assert!(
        fetched.status.success(),
        "installing smg failed: {}",
        String::from_utf8_lossy(&fetched.stderr)
    );
    String::from_utf8(fetched.stdout)
        .unwrap()
        .trim()
        .to_string()
}

/// One cluster at a time: they share the machine's cores.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn scaleout(subcommand: &str, policy: &str, marker: &str) {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = Command::new("python3")
        .arg(root.join("scripts/scaleout.py"))
        .arg(subcommand)
        .args(["--smg", &gateway()])
        .args(["--radixserve", env!("CARGO_BIN_EXE_radixserve")])
        .arg("--model")
        .arg(common::model_path())
        .args(["--replicas", "2", "--mode", "grpc", "--policy", policy])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(marker), "{stdout}\n{stderr}");
}

#[test]
fn answers_through_smg_in_grpc_mode_equal_the_replicas_own() {
    scaleout("check", "cache_aware", "scaleout checks passed");
}

#[test]
fn a_killed_replica_loses_only_its_own_requests_and_comes_back() {
    scaleout("failover", "round_robin", "scaleout failover passed");
}
