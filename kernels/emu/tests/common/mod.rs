//! Helpers of the emulated-kernel tests: deterministic inputs, the error measure the GPU
//! tests use, and pool contents as f32.
#![allow(dead_code)]

#[path = "../../../tests/support/compare.rs"]
mod compare;
#[path = "../../../tests/support/xorshift.rs"]
mod xorshift;

#[allow(unused_imports)] // not every test binary compares floats
pub use compare::max_rel_err;
use pools::LayerKv;
pub use xorshift::Rng;

pub fn as_f32(layer: &LayerKv) -> Vec<f32> {
    match layer {
        LayerKv::F32(b) => b.clone(),
        LayerKv::F16(b) => b.iter().map(|v| v.to_f32()).collect(),
        LayerKv::Bf16(b) => b.iter().map(|v| v.to_f32()).collect(),
    }
}

/// The bits of every value, so that NaNs and signed zeros compare too.
pub fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// Runs one emulated launch; the calling test sizes every buffer for it, as for a GPU.
pub fn run(cfg: cuda_emu::Launch, kernel: impl Fn()) {
    // SAFETY: see above; the kernels never unwind.
    unsafe { cuda_emu::launch(cfg, kernel) }.unwrap();
}

/// A grid-stride launch over `total` elements, as the launchers' `stride_launch`.
pub fn stride(total: usize) -> cuda_emu::Launch {
    use kernels::cuda_index::{stride_blocks, ELEMENTWISE_THREADS};
    cuda_emu::Launch::linear(
        stride_blocks(total, ELEMENTWISE_THREADS),
        ELEMENTWISE_THREADS,
        0,
    )
}

/// One block of ROW_THREADS per row, as the launchers' `row_launch`.
pub fn per_row(rows: usize) -> cuda_emu::Launch {
    use kernels::cuda_index::ROW_THREADS;
    cuda_emu::Launch::linear(rows as u32, ROW_THREADS, 0)
}
