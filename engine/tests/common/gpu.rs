//! What the GPU tests share: the device (skipping clearly without one) and chat prompts.

use kernels::cuda::{default_include_paths, GpuContext, GpuOptions};
use std::path::PathBuf;

/// Device 0, or None after printing why the calling test is skipped (a failure when
/// [`gpu_required`]).
pub fn gpu(test: &str) -> Option<GpuContext> {
    let mut include_paths = default_include_paths();
    let cached = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../.cache/cuda-pip/nvidia/cuda_runtime/include");
    if include_paths.is_empty() && cached.join("cuda_fp16.h").is_file() {
        // The engine's own runner finds headers through this variable too.
        std::env::set_var("RADIXSERVE_CUDA_INCLUDE", &cached);
        include_paths.push(cached);
    }
    let options = GpuOptions {
        include_paths,
        ..GpuOptions::default()
    };
    match GpuContext::with_options(0, options) {
        Ok(gpu) => Some(gpu),
        Err(err) if gpu_required() => panic!("{test}: RADIXSERVE_REQUIRE_GPU is set: {err}"),
        Err(err) => {
            eprintln!("SKIPPED gpu test {test}: no usable CUDA device: {err}");
            None
        }
    }
}

/// A ChatML prompt (the default model's template) of one system and one user turn.
pub fn chat(tok: &engine::tokenizer::Tokenizer, system: &str, user: &str) -> Vec<u32> {
    let text = format!(
        "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    );
    tok.encode(&text, true).unwrap()
}

/// Set (by scripts/check-cuda.sh when it runs the GPU tests on the CUDA emulator, or by
/// hand on a GPU machine): a test that cannot open the device fails instead of skipping.
pub fn gpu_required() -> bool {
    std::env::var("RADIXSERVE_REQUIRE_GPU").is_ok_and(|v| !v.is_empty() && v != "0")
}
