//! The fused kernels against the separate ones they replace, bit for bit: residual add +
//! RMSNorm + cast, gate + cast, RoPE on Q and K + the K/V store. Needs a GPU: without a
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
use kernels::cuda::{DeviceKvStorage, DeviceRope, DeviceSlots, Gate, NewRows};
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

/// RoPE on Q and K with the K/V store in one launch gives the bits of RoPE on each and
/// `set_kv`, in every pool dtype, with and without rotation, and a padding slot (-1) stores
/// nothing.
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
    for (dtype, rope) in [
        (KvDtype::F32, Some((64, RopeStyle::Normal))),
        (KvDtype::F16, Some((64, RopeStyle::Neox))),
        (KvDtype::Bf16, Some((32, RopeStyle::Neox))),
        (KvDtype::F16, Some((32, RopeStyle::Normal))),
        (KvDtype::F32, None),
    ] {
        let layout = KvLayout {
            num_layers: 2,
            num_kv_heads: kv_heads,
            head_dim,
            dtype,
        };
        let rope = rope.map(|(rot_dim, style)| {
            let cpu = Rope::new(head_dim, rot_dim, 500_000.0, style, 1.0).unwrap();
            DeviceRope::from_rope(&gpu, &cpu).unwrap()
        });
        let q = rng.f32s(tokens * heads * head_dim);
        let (k, v) = (
            rng.f32s(tokens * layout.row_len()),
            rng.f32s(tokens * layout.row_len()),
        );
        let (dk, dv) = (gpu.upload(&k).unwrap(), gpu.upload(&v).unwrap());
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
        let mut got_q = gpu.upload(&q).unwrap();
        let rows = NewRows {
            tokens,
            q: &mut got_q,
            heads,
            k: &dk,
            v: &dv,
            positions: &dpos,
            out_cache_loc: &out_cache_loc,
        };
        got.rope_and_set_kv(&gpu, 1, rope.as_ref(), rows).unwrap();
        let got_q = gpu.download(&got_q).unwrap();
        assert_eq!(
            rows_of(&got_q, heads * head_dim),
            gpu.download(&want_q).unwrap()
        );
        for layer in 0..2 {
            let (gk, gv) = got.layer(layer).unwrap();
            let (wk, wv) = want.layer(layer).unwrap();
            let bits = |x: &kernels::cuda::DeviceLayerKv| bits_of(&x.download(&gpu).unwrap());
            assert_eq!(bits(gk), bits(wk), "{dtype:?} K, layer {layer}");
            assert_eq!(bits(gv), bits(wv), "{dtype:?} V, layer {layer}");
        }
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
