//! Helpers shared by the CUDA tests (included with `#[path]`): where NVRTC finds
//! `cuda_fp16.h`, the device (or the reason there is none), and the largest relative error.
//! Deterministic random inputs: `support/xorshift.rs`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]
#![cfg(feature = "cuda")]

use kernels::cuda::{default_include_paths, GpuContext, GpuOptions};
use std::path::PathBuf;

/// `default_include_paths()`, else the headers of the `nvidia-cuda-runtime-cu12` wheel that
/// scripts/check-cuda.sh installs under the workspace's `.cache/`.
pub fn include_paths() -> Vec<PathBuf> {
    let mut paths = default_include_paths();
    let cached = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../.cache/cuda-pip/nvidia/cuda_runtime/include");
    if paths.is_empty() && cached.join("cuda_fp16.h").is_file() {
        paths.push(cached);
    }
    paths
}

/// Device 0, or None after printing why the calling test is skipped (a failure when
/// [`gpu_required`]).
pub fn gpu(test: &str) -> Option<GpuContext> {
    let options = GpuOptions {
        include_paths: include_paths(),
        ..GpuOptions::default()
    };
    match GpuContext::with_options(0, options) {
        Ok(gpu) => Some(gpu),
        Err(err) if gpu_required() => panic!("{test}: RADIXSERVE_REQUIRE_GPU is set: {err}"),
        Err(err) => {
            eprintln!("SKIPPED cuda test {test}: no usable CUDA device: {err}");
            None
        }
    }
}

#[path = "support/compare.rs"]
mod compare;
#[allow(unused_imports)] // not every test binary compares floats
pub use compare::max_rel_err;

/// Set (by scripts/check-cuda.sh when it runs the GPU tests on the CUDA emulator, or by
/// hand on a GPU machine): a test that cannot open the device fails instead of skipping.
pub fn gpu_required() -> bool {
    std::env::var("RADIXSERVE_REQUIRE_GPU").is_ok_and(|v| !v.is_empty() && v != "0")
}
