//! The emulator itself: shuffles and barriers reduce like a GPU's, launches a GPU refuses are
//! refused, a divergent barrier and a write past the shared memory are caught, shared memory
//! starts poisoned, and f16/bf16 conversions round like the `half` crate.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Rng;
use cuda_emu::{cu, launch, EmuError, Launch};
use half::{bf16, f16};

#[test]
fn warp_shuffles_and_block_barriers_reduce_like_a_gpu() {
    for threads in [32u32, 96, 256, 1024] {
        let blocks = 3u32;
        let mut out = vec![0f32; blocks as usize];
        let mut lanes = vec![0f32; (blocks * threads) as usize];
        let (o, l) = (out.as_mut_ptr(), lanes.as_mut_ptr());
        unsafe { launch(Launch::linear(blocks, threads, 0), || cu::probe_sums(o, l)) }.unwrap();
        let n = threads as f32;
        assert_eq!(
            out,
            vec![n * (n + 1.0) / 2.0; blocks as usize],
            "{threads} threads"
        );
        for (i, &got) in lanes.iter().enumerate() {
            let first = (i as u32 % threads) / 32 * 32;
            let want: u32 = (first + 1..=first + 32).sum();
            assert_eq!(got, want as f32, "{threads} threads, thread {i}");
        }
    }
}

#[test]
fn launches_a_gpu_refuses_are_refused() {
    let bad = [
        Launch::linear(1, 0, 0),
        Launch::linear(0, 32, 0),
        Launch::linear(1, 1025, 0),
        Launch {
            grid_dim: (1, 1, 1),
            block_dim: (32, 32, 2),
            shared_mem_bytes: 0,
        },
        Launch::linear(1, 32, 48 * 1024 + 4),
        Launch {
            grid_dim: (1, 65_536, 1),
            block_dim: (32, 1, 1),
            shared_mem_bytes: 0,
        },
        Launch {
            grid_dim: (1, 1, 1),
            block_dim: (1, 1, 65),
            shared_mem_bytes: 0,
        },
    ];
    for cfg in bad {
        let got = unsafe { launch(cfg, || cu::probe_divergent(0)) };
        assert_eq!(got, Err(EmuError::BadLaunch(cfg)));
    }
}

#[test]
fn a_barrier_that_cannot_complete_is_caught() {
    for mode in [1, 2] {
        let got = unsafe { launch(Launch::linear(2, 64, 0), || cu::probe_divergent(mode)) };
        assert_eq!(
            got,
            Err(EmuError::DivergentBarrier { block: 0 }),
            "mode {mode}"
        );
    }
    // Warps that finish instead of reaching the block barrier do not hold it.
    unsafe { launch(Launch::linear(2, 64, 0), || cu::probe_divergent(0)) }.unwrap();
}

#[test]
fn writes_past_the_dynamic_shared_memory_are_caught() {
    let inside = unsafe { launch(Launch::linear(4, 32, 256), || cu::probe_shared_write(63)) };
    assert_eq!(inside, Ok(()));
    let past = unsafe { launch(Launch::linear(4, 32, 256), || cu::probe_shared_write(64)) };
    assert_eq!(past, Err(EmuError::SharedOverrun { block: 0 }));
}

#[test]
fn shared_memory_starts_poisoned() {
    let mut out = vec![0f32; 64];
    let o = out.as_mut_ptr();
    unsafe { launch(Launch::linear(1, 64, 256), || cu::probe_shared_read(o)) }.unwrap();
    assert!(out.iter().all(|v| v.is_nan()));
}

#[test]
fn static_shared_memory_is_poisoned_in_every_block() {
    let mut out = vec![0f32; 3 * 256];
    let o = out.as_mut_ptr();
    unsafe {
        launch(Launch::linear(3, 256, 0), || {
            cu::probe_static_shared_read(o)
        })
    }
    .unwrap();
    assert!(out.iter().all(|v| v.is_nan()));
}

#[test]
fn half_conversions_round_like_the_half_crate() {
    // Every f16 widens exactly.
    let all: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    let mut wide = vec![0f32; all.len()];
    let (src, dst, n) = (all.as_ptr(), wide.as_mut_ptr(), all.len() as u64);
    let cfg = Launch::linear(64, 256, 0);
    unsafe { launch(cfg, || cu::cast_f16_f32(src, dst, n)) }.unwrap();
    for (h, w) in all.iter().zip(&wide) {
        assert!(
            h.to_f32().to_bits() == w.to_bits() || (h.is_nan() && w.is_nan()),
            "{h:?}"
        );
    }
    // Narrowing, without the GEMM cast's saturation: store_kv's round to nearest even, over
    // values across and beyond both formats' ranges (ties included: multiples of 2^-24).
    let mut rng = Rng(41);
    let mut x: Vec<f32> = (0..60_000)
        .map(|_| {
            let bits = rng.next_u64() as u32;
            let v = f32::from_bits(bits & 0x7fff_ffff);
            let v = if v.is_nan() { 1.5 } else { v };
            let scale = 2f32.powi(rng.below(60) as i32 - 40);
            (v.fract() - 0.5) * scale
        })
        .collect();
    x.extend((0..2048).map(|i| i as f32 * 2f32.powi(-25)));
    x.extend([
        65_519.0,
        65_520.0,
        -65_536.0,
        1e-8,
        -3e-8,
        f32::INFINITY,
        0.0,
        -0.0,
    ]);
    let slots: Vec<i32> = (0..x.len() as i32).collect();
    let mut k16 = vec![f16::ZERO; x.len()];
    let mut v16 = vec![f16::ZERO; x.len()];
    let mut kb = vec![bf16::ZERO; x.len()];
    let mut vb = vec![bf16::ZERO; x.len()];
    let (s, xs, n) = (slots.as_ptr(), x.as_ptr(), x.len() as u32);
    let (k16p, v16p, kbp, vbp) = (
        k16.as_mut_ptr(),
        v16.as_mut_ptr(),
        kb.as_mut_ptr(),
        vb.as_mut_ptr(),
    );
    let cfg = Launch::linear(64, 256, 0);
    unsafe { launch(cfg, || cu::store_kv_f16(s, xs, xs, k16p, v16p, n, 1, n)) }.unwrap();
    unsafe { launch(cfg, || cu::store_kv_bf16(s, xs, xs, kbp, vbp, n, 1, n)) }.unwrap();
    for (i, &v) in x.iter().enumerate() {
        assert_eq!(k16[i].to_bits(), f16::from_f32(v).to_bits(), "f16 of {v:e}");
        assert_eq!(
            kb[i].to_bits(),
            bf16::from_f32(v).to_bits(),
            "bf16 of {v:e}"
        );
    }
}
