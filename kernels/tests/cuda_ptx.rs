//! Compiles every CUDA source with NVRTC for compute_80/compute_90 (PTX) and sm_80/sm_90
//! (CUBIN, which also runs NVRTC's assembler), and checks that each launch wrapper's kernel
//! is in the PTX. Needs only the NVRTC library and the CUDA headers, no GPU. Skipped when
//! NVRTC is absent, unless RADIXSERVE_REQUIRE_NVRTC is set (scripts/check-cuda.sh sets it).
#![cfg(feature = "cuda")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "cuda_common.rs"]
mod cuda_common;

use kernels::cuda::{compile_module, nvrtc_available, nvrtc_version, CompileTarget, Module};
use std::time::Instant;

const TARGETS: [CompileTarget; 4] = [
    CompileTarget::Ptx { arch: 80 },
    CompileTarget::Ptx { arch: 90 },
    CompileTarget::Cubin { arch: 80 },
    CompileTarget::Cubin { arch: 90 },
];

#[test]
fn every_cuda_source_compiles_for_sm80_and_sm90() {
    let required = std::env::var_os("RADIXSERVE_REQUIRE_NVRTC").is_some();
    let include = cuda_common::include_paths();
    let missing = if !nvrtc_available() {
        Some("the NVRTC library (libnvrtc.so) could not be loaded")
    } else if include.is_empty() {
        Some("no directory with cuda_fp16.h (set RADIXSERVE_CUDA_INCLUDE or CUDA_HOME)")
    } else {
        None
    };
    if let Some(reason) = missing {
        assert!(!required, "RADIXSERVE_REQUIRE_NVRTC is set but {reason}");
        eprintln!("SKIPPED cuda_ptx: {reason}");
        return;
    }
    let (major, minor) = nvrtc_version().unwrap();
    println!("NVRTC {major}.{minor}, headers from {include:?}");

    // Two threads: the check runs on 2-core machines and NVRTC is thread-safe.
    let jobs: Vec<(Module, CompileTarget)> = Module::ALL
        .iter()
        .flat_map(|&m| TARGETS.iter().map(move |&t| (m, t)))
        .collect();
    let half = jobs.len() / 2;
    let results: Vec<(Module, CompileTarget, Result<String, String>)> =
        std::thread::scope(|scope| {
            let run = |chunk: &[(Module, CompileTarget)]| {
                chunk
                    .iter()
                    .map(|&(module, target)| (module, target, check(module, target, &include)))
                    .collect::<Vec<_>>()
            };
            let (first, second) = jobs.split_at(half);
            let other = scope.spawn(move || run(second));
            let mut all = run(first);
            all.extend(other.join().unwrap());
            all
        });

    let mut failures = 0;
    for (module, target, result) in &results {
        let file = format!("{}.cu", module.name());
        match result {
            Ok(summary) => println!("ok    {file:<15} {:<18} {summary}", target.to_string()),
            Err(err) => {
                failures += 1;
                println!("FAIL  {file:<15} {:<18} {err}", target.to_string());
            }
        }
    }
    assert_eq!(
        failures,
        0,
        "{failures} of {} compilations failed",
        results.len()
    );
}

/// Compiles one source for one target; for PTX also finds every declared entry point.
fn check(
    module: Module,
    target: CompileTarget,
    include: &[std::path::PathBuf],
) -> Result<String, String> {
    let start = Instant::now();
    let image = compile_module(module, target, include).map_err(|e| e.to_string())?;
    if let CompileTarget::Ptx { .. } = target {
        let ptx = String::from_utf8_lossy(&image);
        for name in module.entry_points() {
            if !ptx.contains(&format!(".entry {name}(")) {
                return Err(format!("kernel {name} missing from the PTX"));
            }
        }
    }
    Ok(format!(
        "{:>7} bytes {:>5} ms",
        image.len(),
        start.elapsed().as_millis()
    ))
}
