//! The fused kernels against the separate ones they replace, bit for bit: residual add +
//! RMSNorm + cast, gate + cast, the per-head Q and K norms, RoPE on Q and K + the K/V store
//! (over one GEMM's merged rows and over three buffers); and one GEMM over stacked weights
//! against three. Needs a GPU: without a
//! driver or device each test prints "SKIPPED cuda test <name>: <reason>" and passes. Run
//! with `--features cuda` (scripts/check-cuda.sh).
#![cfg(feature = "cuda")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "cuda_common.rs"]
mod cuda_common;
#[path = "support/xorshift.rs"]
mod xorshift;

use cuda_common::gpu;
use half::f16;
use kernels::cuda::{
    CudaSlice, DeviceKvStorage, DeviceRope, DeviceSlots, Gate, GpuContext, NewRows, QkvRows,
    QkvShape,
};
use kernels::rope::{Rope, RopeStyle};
use pools::{KvDtype, KvLayout, LayerKv};
use xorshift::Rng;

/// The fused kernels give the bits of the separate ones: residual add + RMSNorm + cast
/// (with and without the add), and each gate + cast, with values past f16's range.
#[test]
fn fused_norm_and_gate_kernels_equal_the_separate_ones_bit_for_bit() {
    let Some(gpu) = gpu("fused_norm_and_gate") else {
        return;
    };
    let mut rng = Rng(19);
    let (rows, dim, ffn) = (9, 576, 1536);
    let x: Vec<f32> = rng.f32s(rows * dim).iter().map(|v| v * 300.0).collect();
    let (residual, weight) = (rng.f32s(rows * dim), rng.f32s(dim));
    let (dr, dw) = (gpu.upload(&residual).unwrap(), gpu.upload(&weight).unwrap());
    for add in [false, true] {
        let mut separate_x = gpu.upload(&x).unwrap();
        if add {
            gpu.add_in_place(&mut separate_x, &dr, rows * dim).unwrap();
        }
        let mut normed = gpu.zeros::<f32>(rows * dim).unwrap();
        gpu.rms_norm(&separate_x, &dw, 1e-5, &mut normed, rows)
            .unwrap();
        let mut want = gpu.zeros::<f16>(rows * dim).unwrap();
        gpu.cast_from_f32(&normed, &mut want, rows * dim).unwrap();

        let mut fused_x = gpu.upload(&x).unwrap();
        let mut got = gpu.zeros::<f16>(rows * dim).unwrap();
        gpu.add_rms_norm_f16(&mut fused_x, add.then_some(&dr), &dw, 1e-5, &mut got, rows)
            .unwrap();
        assert_eq!(gpu.download(&got).unwrap(), gpu.download(&want).unwrap());
        assert_eq!(
            gpu.download(&fused_x).unwrap(),
            gpu.download(&separate_x).unwrap()
        );
    }
    // Gates up to ~1e3 * 1e3: some products saturate in f16.
    let gate_up: Vec<f32> = rng
        .f32s(rows * 2 * ffn)
        .iter()
        .map(|v| v * 1000.0)
        .collect();
    let dg = gpu.upload(&gate_up).unwrap();
    for gate in [Gate::Silu, Gate::GeluTanh] {
        let mut act = gpu.zeros::<f32>(rows * ffn).unwrap();
        match gate {
            Gate::Silu => gpu.silu_mul(&dg, ffn, &mut act, rows).unwrap(),
            Gate::GeluTanh => gpu.gelu_tanh_mul(&dg, ffn, &mut act, rows).unwrap(),
        }
        let mut got = gpu.zeros::<f16>(rows * ffn).unwrap();
        gpu.gate_f16(gate, &dg, ffn, &mut got, rows).unwrap();
        let mut want = gpu.zeros::<f16>(rows * ffn).unwrap();
        gpu.cast_from_f32(&act, &mut want, rows * ffn).unwrap();
        let want = gpu.download(&want).unwrap();
        assert!(
            want.iter().any(|v| v.to_f32() == 65504.0),
            "no saturated value tested"
        );
        assert_eq!(gpu.download(&got).unwrap(), want, "{gate:?}");
    }
}

/// `[tokens, q | k | v]` rows from three row-major buffers: one GEMM's output over the
/// stacked weights.
fn merge_rows(q: &[f32], k: &[f32], v: &[f32], tokens: usize) -> Vec<f32> {
    let (q_len, kv_len) = (q.len() / tokens, k.len() / tokens);
    (0..tokens)
        .flat_map(|t| {
            [
                &q[t * q_len..(t + 1) * q_len],
                &k[t * kv_len..(t + 1) * kv_len],
                &v[t * kv_len..(t + 1) * kv_len],
            ]
            .concat()
        })
        .collect()
}

/// Q, K and V on the device in one of the two layouts the fused kernels read.
enum DeviceQkv {
    Merged(CudaSlice<f32>),
    Separate([CudaSlice<f32>; 3]),
}

impl DeviceQkv {
    fn upload(
        gpu: &GpuContext,
        q: &[f32],
        k: &[f32],
        v: &[f32],
        tokens: usize,
        merged: bool,
    ) -> Self {
        if merged {
            return Self::Merged(gpu.upload(&merge_rows(q, k, v, tokens)).unwrap());
        }
        Self::Separate([q, k, v].map(|x| gpu.upload(x).unwrap()))
    }

    fn rows(&mut self, gpu: &GpuContext, shape: QkvShape) -> QkvRows<'_> {
        match self {
            Self::Merged(qkv) => QkvRows::merged(gpu, qkv, shape).unwrap(),
            Self::Separate([q, k, v]) => QkvRows::separate(gpu, q, k, v, shape).unwrap(),
        }
    }

    /// Q, K and V back on the host as three row-major buffers.
    fn download(&self, gpu: &GpuContext, shape: QkvShape) -> [Vec<f32>; 3] {
        match self {
            Self::Separate(parts) => parts.each_ref().map(|p| gpu.download(p).unwrap()),
            Self::Merged(qkv) => {
                let rows = gpu.download(qkv).unwrap();
                let (q_len, kv_len) = (shape.q_len(), shape.kv_len());
                let part = |first: usize, width: usize| -> Vec<f32> {
                    rows.chunks(shape.merged_len())
                        .take(shape.tokens)
                        .flat_map(|r| r[first..first + width].to_vec())
                        .collect()
                };
                [
                    part(0, q_len),
                    part(q_len, kv_len),
                    part(q_len + kv_len, kv_len),
                ]
            }
        }
    }
}

/// The per-head Q and K norms in one launch give the bits of `rms_norm_in_place` over Q's
/// heads and over K's, reading merged rows and separate buffers, and leave V untouched.
#[test]
fn qk_norm_equals_the_two_head_norms_bit_for_bit() {
    let Some(gpu) = gpu("qk_norm") else {
        return;
    };
    let mut rng = Rng(37);
    let shape = QkvShape {
        tokens: 11,
        heads: 8,
        kv_heads: 2,
        head_dim: 128,
    };
    let t = shape.tokens;
    let (q, k, v) = (
        rng.f32s(t * shape.q_len()),
        rng.f32s(t * shape.kv_len()),
        rng.f32s(t * shape.kv_len()),
    );
    let (q_norm, k_norm) = (
        gpu.upload(&rng.f32s(shape.head_dim)).unwrap(),
        gpu.upload(&rng.f32s(shape.head_dim)).unwrap(),
    );
    let (mut want_q, mut want_k) = (gpu.upload(&q).unwrap(), gpu.upload(&k).unwrap());
    gpu.rms_norm_in_place(&mut want_q, &q_norm, 1e-6, t * shape.heads)
        .unwrap();
    gpu.rms_norm_in_place(&mut want_k, &k_norm, 1e-6, t * shape.kv_heads)
        .unwrap();
    let want = [
        gpu.download(&want_q).unwrap(),
        gpu.download(&want_k).unwrap(),
        v.clone(),
    ];
    for merged in [true, false] {
        let mut qkv = DeviceQkv::upload(&gpu, &q, &k, &v, t, merged);
        let rows = qkv.rows(&gpu, shape);
        gpu.qk_norm_in_place(&rows, &q_norm, &k_norm, 1e-6).unwrap();
        assert_eq!(qkv.download(&gpu, shape), want, "merged {merged}");
    }
}

/// RoPE on Q and K with the K/V store in one launch gives the bits of RoPE on each and
/// `set_kv`, in every pool dtype, with and without rotation, reading one GEMM's merged rows
/// (Q rotated into its own buffer) and three buffers (Q rotated in place); a padding slot
/// (-1) stores nothing.
#[test]
fn rope_and_store_equal_rope_then_set_kv_bit_for_bit() {
    let Some(gpu) = gpu("rope_and_store") else {
        return;
    };
    let mut rng = Rng(29);
    let (tokens, heads, kv_heads, head_dim, num_slots) = (7, 9, 3, 64, 50);
    let positions: Vec<u32> = (0..tokens).map(|_| rng.below(30_000) as u32).collect();
    // The last token is a padding row: refill pads the real slots with -1.
    let slots = [4, 0, 49, 17, 18, 3];
    let dpos = gpu.upload(&positions).unwrap();
    let cases = [
        (KvDtype::F32, Some((64, RopeStyle::Normal))),
        (KvDtype::F16, Some((64, RopeStyle::Neox))),
        (KvDtype::Bf16, Some((32, RopeStyle::Neox))),
        (KvDtype::F16, Some((32, RopeStyle::Normal))),
        (KvDtype::F32, None),
    ];
    for ((dtype, rope), merged) in cases
        .into_iter()
        .flat_map(|case| [(case, true), (case, false)])
    {
        let what = format!("{dtype:?} {rope:?} merged {merged}");
        let layout = KvLayout {
            num_layers: 2,
            num_kv_heads: kv_heads,
            head_dim,
            dtype,
            values_in_keys: false,
            other_rows: None,
        };
        // Position scaling and a pair scale that differ (an argument swap shows).
        let rope = rope.map(|(rot_dim, style)| {
            let cpu = Rope::new(head_dim, rot_dim, 500_000.0, style, 4.0).unwrap();
            DeviceRope::from_rope(&gpu, &cpu.with_mscale(1.25).unwrap()).unwrap()
        });
        let q = rng.f32s(tokens * heads * head_dim);
        let (k, v) = (
            rng.f32s(tokens * layout.row_len()),
            rng.f32s(tokens * layout.row_len()),
        );
        let mut out_cache_loc = DeviceSlots::with_capacity(&gpu, tokens, num_slots).unwrap();
        let mut staging = Vec::new();
        out_cache_loc
            .refill(&gpu, &slots, slots.len(), &mut staging)
            .unwrap();
        // The separate kernels, over the real rows only (the padding row dropped).
        let keep: Vec<usize> = (0..slots.len()).collect();
        let rows_of = |x: &[f32], width: usize| -> Vec<f32> {
            keep.iter()
                .flat_map(|&t| x[t * width..(t + 1) * width].to_vec())
                .collect()
        };
        let kept_pos: Vec<u32> = keep.iter().map(|&t| positions[t]).collect();
        let mut want = DeviceKvStorage::new(&gpu, layout, num_slots).unwrap();
        let mut want_q = gpu.upload(&rows_of(&q, heads * head_dim)).unwrap();
        let mut want_k = gpu.upload(&rows_of(&k, layout.row_len())).unwrap();
        let want_v = gpu.upload(&rows_of(&v, layout.row_len())).unwrap();
        let dpos_kept = gpu.upload(&kept_pos).unwrap();
        if let Some(rope) = &rope {
            rope.apply(&gpu, &mut want_q, heads, &dpos_kept, keep.len())
                .unwrap();
            rope.apply(&gpu, &mut want_k, kv_heads, &dpos_kept, keep.len())
                .unwrap();
        }
        want.set_kv(&gpu, 1, &out_cache_loc, &want_k, &want_v)
            .unwrap();
        // The fused kernel over every row, the padding one included.
        out_cache_loc
            .refill(&gpu, &slots, tokens, &mut staging)
            .unwrap();
        let mut got = DeviceKvStorage::new(&gpu, layout, num_slots).unwrap();
        let shape = QkvShape {
            tokens,
            heads,
            kv_heads,
            head_dim,
        };
        let mut qkv = DeviceQkv::upload(&gpu, &q, &k, &v, tokens, merged);
        let mut q_out = gpu.zeros::<f32>(tokens * shape.q_len()).unwrap();
        let rows = NewRows {
            qkv: qkv.rows(&gpu, shape),
            q_out: merged.then_some(&mut q_out),
            positions: &dpos,
            out_cache_loc: &out_cache_loc,
        };
        got.rope_and_set_kv(&gpu, 1, rope.as_ref(), rows).unwrap();
        let [read_q, read_k, read_v] = qkv.download(&gpu, shape);
        let got_q = if merged {
            // The merged rows are only read.
            assert_eq!((&read_q, &read_k, &read_v), (&q, &k, &v), "{what}");
            gpu.download(&q_out).unwrap()
        } else {
            read_q
        };
        assert_eq!(
            rows_of(&got_q, heads * head_dim),
            gpu.download(&want_q).unwrap(),
            "{what}: Q"
        );
        for layer in 0..2 {
            let (gk, gv) = got.layer(layer).unwrap();
            let (wk, wv) = want.layer(layer).unwrap();
            let bits = |x: &kernels::cuda::DeviceLayerKv| bits_of(&x.download(&gpu).unwrap());
            assert_eq!(bits(gk), bits(wk), "{what}: K, layer {layer}");
            assert_eq!(bits(gv), bits(wv), "{what}: V, layer {layer}");
        }
    }
}

/// One GEMM over the stacked Q, K and V weights gives the three GEMMs' outputs side by side
/// in each row, within f32 rounding of the f16 products (cuBLAS may sum in another order
/// for the wider matrix), for a decode-sized and a prefill-sized batch.
#[test]
fn one_gemm_over_stacked_weights_gives_the_three_outputs() {
    let Some(gpu) = gpu("stacked_gemm") else {
        return;
    };
    let mut rng = Rng(41);
    let (hidden, q_len, kv_len) = (576, 576, 192);
    let width = q_len + 2 * kv_len;
    let half = |x: Vec<f32>| x.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>();
    let w = gpu.upload(&half(rng.f32s(width * hidden))).unwrap();
    for tokens in [1, 3, 200] {
        let x = gpu.upload(&half(rng.f32s(tokens * hidden))).unwrap();
        let mut merged = gpu.zeros::<f32>(tokens * width).unwrap();
        gpu.gemm_f32_out(&x, &w, &mut merged, tokens, width, hidden)
            .unwrap();
        let mut parts = Vec::new();
        for (first, n) in [(0, q_len), (q_len, kv_len), (q_len + kv_len, kv_len)] {
            let rows = w.slice(first * hidden..(first + n) * hidden);
            let mut out = gpu.zeros::<f32>(tokens * n).unwrap();
            gpu.gemm_f32_out(&x, &rows, &mut out, tokens, n, hidden)
                .unwrap();
            parts.push(gpu.download(&out).unwrap());
        }
        let want = merge_rows(&parts[0], &parts[1], &parts[2], tokens);
        let got = gpu.download(&merged).unwrap();
        let worst = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).abs() / w.abs().max(1.0))
            .fold(0.0f32, f32::max);
        // Sums of 576 products of values in [-1, 1]: reordering moves them by ~1e-6.
        assert!(worst < 1e-4, "{tokens} tokens: worst difference {worst}");
        println!("{tokens} tokens: stacked vs three GEMMs, worst relative difference {worst:e}");
    }
}

/// A pool layer's values as bits (every dtype compared exactly).
fn bits_of(layer: &LayerKv) -> Vec<u32> {
    match layer {
        LayerKv::F32(b) => b.iter().map(|v| v.to_bits()).collect(),
        LayerKv::F16(b) => b.iter().map(|v| u32::from(v.to_bits())).collect(),
        LayerKv::Bf16(b) => b.iter().map(|v| u32::from(v.to_bits())).collect(),
    }
}
