//! The kernels of one layer's plumbing against the CPU kernels, with the launch geometry the
//! launchers use: the KV index gather and table writes, the K/V store in every dtype,
//! RMSNorm, RoPE in both styles, the gates, the residual and bias adds, scale, soft cap, the
//! embedding gather and the casts. Mirrors tests/cuda_kernels.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{as_f32, max_rel_err, per_row, run, stride, Rng};
use cuda_emu::cu;
use half::{bf16, f16};
use kernels::kv_indices::{create_kv_indices, KvGather};
use kernels::rope::{Rope, RopeStyle};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv, SlotId};

#[test]
fn create_kv_indices_matches_the_cpu_gather() {
    let mut rng = Rng(1);
    let (rows, row_stride) = (8, 1500);
    let table: Vec<SlotId> = (0..rows * row_stride)
        .map(|_| rng.below(1 << 20) as SlotId)
        .collect();
    let req_pool_indices = [3u32, 7, 0, 5, 2];
    let kv_lens = [1200u32, 0, 1, 513, 64];
    let kv_start = [100u32, 9, 1499, 0, 700];
    for start in [None, Some(&kv_start[..])] {
        let g = KvGather {
            req_to_token: &table,
            row_stride,
            req_pool_indices: &req_pool_indices,
            kv_lens: &kv_lens,
            kv_start: start,
        };
        let (mut indptr, mut want) = (Vec::new(), Vec::new());
        create_kv_indices(&g, &mut indptr, &mut want).unwrap();
        let mut got = vec![-7; want.len()];
        let starts = start.map_or(std::ptr::null(), |s| s.as_ptr());
        let (t, r, i, o) = (
            table.as_ptr(),
            req_pool_indices.as_ptr(),
            indptr.as_ptr(),
            got.as_mut_ptr(),
        );
        run(per_row(req_pool_indices.len()), || unsafe {
            cu::create_kv_indices(t, row_stride as u32, r, i, starts, o)
        });
        assert_eq!(got, want);
    }
}

#[test]
fn req_to_token_cell_writes_match_the_cpu_scatter() {
    let mut rng = Rng(19);
    let cells_total = 6 * 1000;
    let mut want: Vec<SlotId> = (0..cells_total as SlotId).collect();
    let mut got = want.clone();
    let cells: Vec<u64> = rng
        .distinct(3000, cells_total)
        .into_iter()
        .map(|c| c as u64)
        .collect();
    let slots: Vec<SlotId> = (0..cells.len())
        .map(|_| rng.below(1 << 20) as SlotId)
        .collect();
    kernels::kv_indices::write_req_to_token(&mut want, &cells, &slots).unwrap();
    // A cell past the table is skipped by the kernel (the host refuses it before).
    let mut cells_past = cells.clone();
    cells_past.push(cells_total as u64);
    let mut slots_past = slots.clone();
    slots_past.push(1);
    let (g, c, s, n) = (
        got.as_mut_ptr(),
        cells_past.as_ptr(),
        slots_past.as_ptr(),
        cells_past.len(),
    );
    run(stride(n), || unsafe {
        cu::write_req_to_token(g, cells_total as u64, c, s, n as u64)
    });
    assert_eq!(got, want);
}

/// `store_kv` for the layer's dtype, into the pool's buffers.
fn store(
    layer: &mut LayerKv,
    v_layer: &mut LayerKv,
    slots: &[SlotId],
    k: &[f32],
    v: &[f32],
    row_len: usize,
    num_slots: usize,
) {
    let n = slots.len();
    let (s, kp, vp) = (slots.as_ptr(), k.as_ptr(), v.as_ptr());
    let args = (n as u32, row_len as u32, num_slots as u32);
    let cfg = stride(n * row_len);
    match (layer, v_layer) {
        (LayerKv::F32(kc), LayerKv::F32(vc)) => {
            let (kc, vc) = (kc.as_mut_ptr(), vc.as_mut_ptr());
            run(cfg, || unsafe {
                cu::store_kv_f32(s, kp, vp, kc, vc, args.0, args.1, args.2)
            })
        }
        (LayerKv::F16(kc), LayerKv::F16(vc)) => {
            let (kc, vc) = (kc.as_mut_ptr(), vc.as_mut_ptr());
            run(cfg, || unsafe {
                cu::store_kv_f16(s, kp, vp, kc, vc, args.0, args.1, args.2)
            })
        }
        (LayerKv::Bf16(kc), LayerKv::Bf16(vc)) => {
            let (kc, vc) = (kc.as_mut_ptr(), vc.as_mut_ptr());
            run(cfg, || unsafe {
                cu::store_kv_bf16(s, kp, vp, kc, vc, args.0, args.1, args.2)
            })
        }
        _ => panic!("K and V of different dtypes"),
    }
}

#[test]
fn store_kv_scatters_like_the_host_pool_in_every_dtype() {
    let mut rng = Rng(2);
    let num_slots = 300;
    for dtype in [KvDtype::F32, KvDtype::F16, KvDtype::Bf16] {
        let layout = KvLayout {
            num_layers: 1,
            num_kv_heads: 3,
            head_dim: 64,
            dtype,
        };
        let row_len = layout.row_len();
        let mut host = KvStorage::new(layout, num_slots).unwrap();
        let zeroed = || match dtype {
            KvDtype::F32 => LayerKv::F32(vec![0.0; num_slots * row_len]),
            KvDtype::F16 => LayerKv::F16(vec![f16::ZERO; num_slots * row_len]),
            KvDtype::Bf16 => LayerKv::Bf16(vec![bf16::ZERO; num_slots * row_len]),
        };
        let (mut k_dev, mut v_dev) = (zeroed(), zeroed());
        for n in [1, 257, 13] {
            let slots = rng.distinct(n, num_slots);
            let (k, v) = (rng.f32s(n * row_len), rng.f32s(n * row_len));
            host.set_kv(0, &slots, &k, &v).unwrap();
            // A slot outside the pool stores nothing.
            let mut bad = slots.clone();
            bad.push(-1);
            let (mut k2, mut v2) = (k.clone(), v.clone());
            k2.extend(rng.f32s(row_len));
            v2.extend(rng.f32s(row_len));
            store(&mut k_dev, &mut v_dev, &bad, &k2, &v2, row_len, num_slots);
        }
        let (hk, hv) = host.layer(0).unwrap();
        // Both sides round to nearest even: the pools agree bit for bit.
        assert_eq!(
            common::bits(&as_f32(&k_dev)),
            common::bits(&as_f32(hk)),
            "{dtype:?} K"
        );
        assert_eq!(
            common::bits(&as_f32(&v_dev)),
            common::bits(&as_f32(hv)),
            "{dtype:?} V"
        );
    }
}

#[test]
fn rms_norms_match_the_cpu() {
    let mut rng = Rng(5);
    for (rows, dim) in [(1, 576), (37, 576), (3, 4096), (5, 33)] {
        let (x, w) = (rng.f32s(rows * dim), rng.f32s(dim));
        let mut want = vec![0.0; x.len()];
        kernels::norm::rms_norm(&x, &w, 1e-5, &mut want).unwrap();
        let mut out = vec![f32::NAN; x.len()];
        let (xp, wp, op) = (x.as_ptr(), w.as_ptr(), out.as_mut_ptr());
        run(per_row(rows), || unsafe {
            cu::rms_norm(xp, wp, op, dim as u32, 1e-5)
        });
        let err = max_rel_err(&out, &want);
        assert!(err < 1e-5, "{rows} x {dim}: error {err}");
        // In place: the same bits.
        let mut inplace = x.clone();
        let ip = inplace.as_mut_ptr();
        run(per_row(rows), || unsafe {
            cu::rms_norm_inplace(ip, wp, dim as u32, 1e-5)
        });
        assert_eq!(
            common::bits(&inplace),
            common::bits(&out),
            "{rows} x {dim} in place"
        );
    }
}

/// `rope` over `x` ([tokens, heads * head_dim]) with the CPU table's parts.
fn emulated_rope(rope: &Rope, x: &mut [f32], heads: usize, positions: &[u32]) {
    let (head_dim, inv_freq, style, linear_factor, mscale) = rope.parts();
    let tokens = positions.len();
    let pairs = inv_freq.len();
    let neox = i32::from(style == RopeStyle::Neox);
    let (xp, pp, fp) = (x.as_mut_ptr(), positions.as_ptr(), inv_freq.as_ptr());
    let dims = (tokens as u32, heads as u32, head_dim as u32, pairs as u32);
    run(stride(tokens * heads * pairs), || unsafe {
        cu::rope(
            xp,
            pp,
            fp,
            dims.0,
            dims.1,
            dims.2,
            dims.3,
            neox,
            linear_factor,
            mscale,
        )
    });
}

#[test]
fn rope_matches_the_cpu_in_both_styles() {
    let mut rng = Rng(6);
    let (tokens, heads, head_dim) = (19, 9, 64);
    let positions: Vec<u32> = (0..tokens).map(|_| rng.below(8192) as u32).collect();
    let ropes = [
        (RopeStyle::Normal, 64, 1.0f32, 1.0f32),
        (RopeStyle::Neox, 64, 1.0, 1.0),
        (RopeStyle::Normal, 32, 4.0, 1.0),
        (RopeStyle::Neox, 48, 2.0, 1.0),
        (RopeStyle::Neox, 48, 1.0, 1.19),
    ];
    for (style, rot_dim, factor, mscale) in ropes {
        let rope = Rope::new(head_dim, rot_dim, 100000.0, style, factor).unwrap();
        let rope = if mscale != 1.0 {
            rope.with_mscale(mscale).unwrap()
        } else {
            rope
        };
        let x = rng.f32s(tokens * heads * head_dim);
        let mut want = x.clone();
        rope.apply(&mut want, heads, &positions).unwrap();
        let mut got = x.clone();
        emulated_rope(&rope, &mut got, heads, &positions);
        // The angle in f64 and each product rounded on its own, as the CPU computes them.
        let err = max_rel_err(&got, &want);
        assert!(
            err < 1e-6,
            "{style:?} rot {rot_dim} x{factor} mscale {mscale}: error {err}"
        );
    }
}

#[test]
fn gates_adds_scale_and_soft_cap_match_the_cpu() {
    let mut rng = Rng(7);
    let (rows, ffn) = (13, 1152);
    let gate_up: Vec<f32> = rng.f32s(rows * 2 * ffn).iter().map(|v| v * 12.0).collect();
    let g = gate_up.as_ptr();
    let mut want = vec![0.0; rows * ffn];
    let mut got = vec![f32::NAN; rows * ffn];
    let o = got.as_mut_ptr();
    kernels::activation::silu_mul(&gate_up, ffn, &mut want).unwrap();
    run(stride(rows * ffn), || unsafe {
        cu::silu_mul(g, o, rows as u32, ffn as u32)
    });
    assert!(max_rel_err(&got, &want) < 1e-5, "silu_mul");
    kernels::activation::gelu_mul(&gate_up, ffn, &mut want).unwrap();
    run(stride(rows * ffn), || unsafe {
        cu::gelu_tanh_mul(g, o, rows as u32, ffn as u32)
    });
    assert!(max_rel_err(&got, &want) < 1e-5, "gelu_tanh_mul");

    // Residual add over n values, leaving the tail alone: the same f32 additions.
    let n = 70_001;
    let (x, y) = (rng.f32s(n + 5), rng.f32s(n + 5));
    let mut want = x.clone();
    kernels::activation::add_in_place(&mut want[..n], &y[..n]).unwrap();
    let mut got = x.clone();
    let (xp, yp) = (got.as_mut_ptr(), y.as_ptr());
    run(stride(n), || unsafe { cu::add_inplace(xp, yp, n as u64) });
    assert_eq!(got, want, "add_inplace");

    // A bias over rows, leaving the rows past `rows` alone.
    let (rows, width) = (9, 320);
    let (x, bias) = (rng.f32s((rows + 1) * width), rng.f32s(width));
    let mut want = x.clone();
    for row in want[..rows * width].chunks_exact_mut(width) {
        row.iter_mut().zip(&bias).for_each(|(a, b)| *a += b);
    }
    let mut got = x.clone();
    let (xp, bp) = (got.as_mut_ptr(), bias.as_ptr());
    run(stride(rows * width), || unsafe {
        cu::add_bias(xp, bp, rows as u32, width as u32)
    });
    assert_eq!(got, want, "add_bias");

    // Scale and soft-cap over the first n values.
    let n = 10_007;
    let x: Vec<f32> = rng.f32s(n + 3).iter().map(|v| v * 80.0).collect();
    let mut got = x.clone();
    let xp = got.as_mut_ptr();
    run(stride(n), || unsafe {
        cu::scale_inplace(xp, 0.125, n as u64)
    });
    let scaled: Vec<f32> = x[..n].iter().map(|v| v * 0.125).collect();
    assert_eq!(got[..n], scaled[..], "scale_inplace");
    assert_eq!(got[n..], x[n..], "scale_inplace past n");
    let mut got = x.clone();
    let xp = got.as_mut_ptr();
    run(stride(n), || unsafe {
        cu::softcap_inplace(xp, 30.0, n as u64)
    });
    let capped: Vec<f32> = x[..n].iter().map(|v| 30.0 * (v / 30.0).tanh()).collect();
    assert!(max_rel_err(&got[..n], &capped) < 1e-5, "softcap_inplace");
    assert_eq!(got[n..], x[n..], "softcap_inplace past n");
}

#[test]
fn embedding_gathers_rows_exactly_and_zeroes_ids_past_the_table() {
    let mut rng = Rng(8);
    let (vocab, hidden) = (1000, 576);
    let table = rng.f32s(vocab * hidden);
    let mut ids: Vec<u32> = (0..40).map(|_| rng.below(vocab) as u32).collect();
    ids.push(vocab as u32);
    let want = |round: &dyn Fn(f32) -> f32| -> Vec<f32> {
        ids.iter()
            .flat_map(
                |&id| match table.get(id as usize * hidden..(id as usize + 1) * hidden) {
                    Some(row) => row.iter().map(|&v| round(v)).collect::<Vec<_>>(),
                    None => vec![0.0; hidden],
                },
            )
            .collect()
    };
    let mut out = vec![f32::NAN; ids.len() * hidden];
    let (ip, op, cfg) = (ids.as_ptr(), out.as_mut_ptr(), per_row(ids.len()));
    let (h, v) = (hidden as u32, vocab as u32);
    let t16: Vec<f16> = table.iter().map(|&v| f16::from_f32(v)).collect();
    let tp = t16.as_ptr();
    run(cfg, || unsafe { cu::embedding_f16(ip, tp, op, h, v) });
    assert_eq!(out, want(&|v| f16::from_f32(v).to_f32()), "f16");
    let tb: Vec<bf16> = table.iter().map(|&v| bf16::from_f32(v)).collect();
    let tp = tb.as_ptr();
    run(cfg, || unsafe { cu::embedding_bf16(ip, tp, op, h, v) });
    assert_eq!(out, want(&|v| bf16::from_f32(v).to_f32()), "bf16");
    let tp = table.as_ptr();
    run(cfg, || unsafe { cu::embedding_f32(ip, tp, op, h, v) });
    assert_eq!(out, want(&|v| v), "f32");
}

#[test]
fn casts_round_like_the_half_crate_and_f16_saturates() {
    let mut rng = Rng(9);
    let mut x: Vec<f32> = rng.f32s(10_000).iter().map(|v| v * 1000.0).collect();
    // Beyond f16's range: saturated to ±65504, never infinite.
    x.extend([65_519.0, 65_520.0, -1e5, 3e38, f32::INFINITY]);
    let n = x.len();
    let mut h = vec![f16::ZERO; n];
    let (xp, hp) = (x.as_ptr(), h.as_mut_ptr());
    run(stride(n), || unsafe { cu::cast_f32_f16(xp, hp, n as u64) });
    let want: Vec<f16> = x
        .iter()
        .map(|&v| f16::from_f32(v.clamp(-65_504.0, 65_504.0)))
        .collect();
    assert_eq!(h, want);
    let mut b = vec![bf16::ZERO; n];
    let bp = b.as_mut_ptr();
    run(stride(n), || unsafe { cu::cast_f32_bf16(xp, bp, n as u64) });
    let want_b: Vec<bf16> = x.iter().map(|&v| bf16::from_f32(v)).collect();
    assert_eq!(b, want_b);
    let mut back = vec![f32::NAN; n];
    let (bp, op) = (b.as_ptr(), back.as_mut_ptr());
    run(stride(n), || unsafe { cu::cast_bf16_f32(bp, op, n as u64) });
    assert_eq!(back, want_b.iter().map(|v| v.to_f32()).collect::<Vec<_>>());
    let (hp, op) = (h.as_ptr(), back.as_mut_ptr());
    run(stride(n), || unsafe { cu::cast_f16_f32(hp, op, n as u64) });
    assert_eq!(back, want.iter().map(|v| v.to_f32()).collect::<Vec<_>>());
}
