//! radixserve's CUDA kernels, executed on the CPU.
//!
//! `build.rs` compiles every source of `kernels/cuda/` as C++ against a small prelude
//! (`include/emu.h`) that maps the CUDA language onto a fiber scheduler (`src/runtime.cpp`):
//! a launch runs its blocks one after another, each block's threads as fibers that switch at
//! `__syncthreads`, `__syncwarp` and warp shuffles. So the kernels' own index math, barriers,
//! shared memory and rounding run in CI, on machines without a GPU, and the tests in `tests/`
//! compare them with the CPU kernels and twins the GPU tests use. What it does not cover: the
//! launch wrappers' cudarc calls, cuBLAS, and timing. Floating-point functions (`expf`,
//! `tanhf`, `sincos`) come from the C library, not CUDA's, so only the kernels whose results
//! are specified bit for bit (sampling, the fused kernels against the separate ones, copies
//! and conversions) are compared exactly. The emulator never fuses a multiply and an add
//! (`-ffp-contract=off`), where NVRTC may: its bit-for-bit results hold on a GPU for the
//! kernels written with rounding intrinsics (sampling, RoPE) and, for the others, as far as
//! NVRTC contracts the fused and the separate kernels alike, which the GPU tests check.
//! Races: fibers run in thread order on even blocks and in reverse on odd ones, so a read
//! missing its barrier shows in one of them. Shared memory, static and dynamic, is poisoned
//! at each block's start (build.rs adds the call after each `__shared__` declaration), so a
//! read before any write shows too.

pub mod cu;
mod entry;
mod error;

pub use entry::EntryPoint;
pub use error::EmuError;
use std::ffi::c_void;

/// A kernel launch's geometry, as in `cudarc::driver::LaunchConfig`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub grid_dim: (u32, u32, u32),
    pub block_dim: (u32, u32, u32),
    pub shared_mem_bytes: u32,
}

impl Launch {
    /// A 1-D launch of `blocks` blocks of `threads` threads.
    pub fn linear(blocks: u32, threads: u32, shared_mem_bytes: u32) -> Self {
        Launch {
            grid_dim: (blocks, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes,
        }
    }
}

extern "C" {
    fn emu_launch(
        gx: u32,
        gy: u32,
        gz: u32,
        bx: u32,
        by: u32,
        bz: u32,
        shared_bytes: usize,
        body: extern "C" fn(*mut c_void),
        ctx: *mut c_void,
        failed_block: *mut u32,
    ) -> i32;
}

extern "C" fn call_kernel<F: Fn()>(ctx: *mut c_void) {
    // SAFETY: `ctx` is the `&F` that `launch` passes, alive for the whole launch.
    let kernel = unsafe { &*(ctx as *const F) };
    kernel();
}

/// Runs `kernel` (a call of one of [`cu`]' entry points) as every thread of the grid.
///
/// # Safety
/// `kernel` must call a kernel with arguments that are valid for it: pointers to buffers as
/// large as the kernel reads and writes for this geometry, as on a GPU. It runs on fiber
/// stacks of 256 KiB, on several threads at once (blocks run in parallel, as on a GPU: a
/// kernel entry point called with plain arguments is fine), and must not unwind.
pub unsafe fn launch<F: Fn()>(cfg: Launch, kernel: F) -> Result<(), EmuError> {
    let (gx, gy, gz) = cfg.grid_dim;
    let (bx, by, bz) = cfg.block_dim;
    let mut failed = 0u32;
    // SAFETY: the runtime calls `call_kernel::<F>` with `ctx` only during this call.
    let rc = unsafe {
        emu_launch(
            gx,
            gy,
            gz,
            bx,
            by,
            bz,
            cfg.shared_mem_bytes as usize,
            call_kernel::<F>,
            &kernel as *const F as *mut c_void,
            &mut failed,
        )
    };
    match rc {
        0 => Ok(()),
        1 => Err(EmuError::BadLaunch(cfg)),
        2 => Err(EmuError::DivergentBarrier { block: failed }),
        _ => Err(EmuError::SharedOverrun { block: failed }),
    }
}
