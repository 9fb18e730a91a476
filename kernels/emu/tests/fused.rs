//! The fused kernels against the separate ones they replace, bit for bit, all emulated:
//! residual add + RMSNorm + cast, gate + cast, the per-head Q and K norms, and RoPE on Q and
//! K + the K/V store, over one GEMM's merged `[q | k | v]` rows and over three buffers.
//! Mirrors tests/cuda_fused.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{bits, per_row, run, stride, Rng};
use cuda_emu::cu;
use half::{bf16, f16};
use kernels::cuda_index::{RopeStoreShape, ROW_THREADS};
use kernels::rope::{Rope, RopeStyle};
use pools::SlotId;

#[test]
fn fused_norm_and_gate_kernels_equal_the_separate_ones_bit_for_bit() {
    let mut rng = Rng(19);
    let (rows, dim, ffn) = (9, 576, 1536);
    let x: Vec<f32> = rng.f32s(rows * dim).iter().map(|v| v * 300.0).collect();
    let (residual, weight) = (rng.f32s(rows * dim), rng.f32s(dim));
    let (r, w, n) = (residual.as_ptr(), weight.as_ptr(), rows * dim);
    for add in [false, true] {
        let mut separate_x = x.clone();
        let sx = separate_x.as_mut_ptr();
        if add {
            run(stride(n), || unsafe { cu::add_inplace(sx, r, n as u64) });
        }
        let mut normed = vec![f32::NAN; n];
        let np = normed.as_mut_ptr();
        run(per_row(rows), || unsafe {
            cu::rms_norm(sx, w, np, dim as u32, 1e-5)
        });
        let mut want = vec![f16::ZERO; n];
        let wp = want.as_mut_ptr();
        run(stride(n), || unsafe { cu::cast_f32_f16(np, wp, n as u64) });

        let mut fused_x = x.clone();
        let mut got = vec![f16::ZERO; n];
        let (fx, gp) = (fused_x.as_mut_ptr(), got.as_mut_ptr());
        let res = if add { r } else { std::ptr::null() };
        run(per_row(rows), || unsafe {
            cu::add_rms_norm_f16(fx, res, w, gp, dim as u32, 1e-5)
        });
        assert_eq!(got, want, "add {add}");
        assert_eq!(bits(&fused_x), bits(&separate_x), "add {add}");
    }
    // Gates up to ~1e3 * 1e3: some products saturate in f16.
    let gate_up: Vec<f32> = rng
        .f32s(rows * 2 * ffn)
        .iter()
        .map(|v| v * 1000.0)
        .collect();
    let (g, m) = (gate_up.as_ptr(), rows * ffn);
    type Gate = unsafe extern "C" fn(*const f32, *mut f32, u32, u32);
    type GateF16 = unsafe extern "C" fn(*const f32, *mut f16, u32, u32);
    let gates: [(Gate, GateF16); 2] = [
        (cu::silu_mul, cu::silu_mul_f16),
        (cu::gelu_tanh_mul, cu::gelu_tanh_mul_f16),
    ];
    for (i, (gate, gate_f16)) in gates.into_iter().enumerate() {
        let mut act = vec![f32::NAN; m];
        let ap = act.as_mut_ptr();
        run(stride(m), || unsafe {
            gate(g, ap, rows as u32, ffn as u32)
        });
        let mut want = vec![f16::ZERO; m];
        let wp = want.as_mut_ptr();
        run(stride(m), || unsafe { cu::cast_f32_f16(ap, wp, m as u64) });
        assert!(
            want.iter().any(|v| v.to_f32() == 65504.0),
            "no saturated value tested"
        );
        let mut got = vec![f16::ZERO; m];
        let gp = got.as_mut_ptr();
        run(stride(m), || unsafe {
            gate_f16(g, gp, rows as u32, ffn as u32)
        });
        assert_eq!(got, want, "gate {i}");
    }
}

/// Q, K and V of `tokens` rows as one GEMM's merged `[q | k | v]` rows, or as three buffers.
struct Qkv {
    merged: bool,
    buffers: [Vec<f32>; 3],
    q_len: usize,
    kv_len: usize,
}

impl Qkv {
    fn new(q: &[f32], k: &[f32], v: &[f32], tokens: usize, merged: bool) -> Self {
        let (q_len, kv_len) = (q.len() / tokens, k.len() / tokens);
        let buffers = if merged {
            let rows = (0..tokens)
                .flat_map(|t| {
                    [
                        &q[t * q_len..][..q_len],
                        &k[t * kv_len..][..kv_len],
                        &v[t * kv_len..][..kv_len],
                    ]
                    .concat()
                })
                .collect();
            [rows, Vec::new(), Vec::new()]
        } else {
            [q.to_vec(), k.to_vec(), v.to_vec()]
        };
        Qkv {
            merged,
            buffers,
            q_len,
            kv_len,
        }
    }

    /// (q, q_stride, k, v, kv_stride) as QkvRows hands them to the kernels.
    fn rows(&mut self) -> (*mut f32, u32, *mut f32, *mut f32, u32) {
        let (q_len, kv_len) = (self.q_len, self.kv_len);
        if self.merged {
            let stride = (q_len + 2 * kv_len) as u32;
            let base = self.buffers[0].as_mut_ptr();
            // SAFETY: offsets inside the first row of the merged buffer.
            unsafe {
                (
                    base,
                    stride,
                    base.add(q_len),
                    base.add(q_len + kv_len),
                    stride,
                )
            }
        } else {
            let [q, k, v] = &mut self.buffers;
            (
                q.as_mut_ptr(),
                q_len as u32,
                k.as_mut_ptr(),
                v.as_mut_ptr(),
                kv_len as u32,
            )
        }
    }

    /// Q, K and V as three row-major buffers.
    fn parts(&self) -> [Vec<f32>; 3] {
        if !self.merged {
            return self.buffers.clone();
        }
        let (q_len, kv_len) = (self.q_len, self.kv_len);
        let width = q_len + 2 * kv_len;
        let part = |first: usize, len: usize| -> Vec<f32> {
            self.buffers[0]
                .chunks(width)
                .flat_map(|r| r[first..first + len].to_vec())
                .collect()
        };
        [
            part(0, q_len),
            part(q_len, kv_len),
            part(q_len + kv_len, kv_len),
        ]
    }
}

#[test]
fn qk_norm_equals_the_two_head_norms_bit_for_bit() {
    let mut rng = Rng(37);
    let (tokens, heads, kv_heads, head_dim) = (11, 8, 2, 128);
    let (q, k, v) = (
        rng.f32s(tokens * heads * head_dim),
        rng.f32s(tokens * kv_heads * head_dim),
        rng.f32s(tokens * kv_heads * head_dim),
    );
    let (q_norm, k_norm) = (rng.f32s(head_dim), rng.f32s(head_dim));
    let (qn, kn) = (q_norm.as_ptr(), k_norm.as_ptr());
    let (mut want_q, mut want_k) = (q.clone(), k.clone());
    let (wq, wk) = (want_q.as_mut_ptr(), want_k.as_mut_ptr());
    run(per_row(tokens * heads), || unsafe {
        cu::rms_norm_inplace(wq, qn, head_dim as u32, 1e-6)
    });
    run(per_row(tokens * kv_heads), || unsafe {
        cu::rms_norm_inplace(wk, kn, head_dim as u32, 1e-6)
    });
    for merged in [true, false] {
        let mut qkv = Qkv::new(&q, &k, &v, tokens, merged);
        let (qp, q_stride, kp, _, kv_stride) = qkv.rows();
        let dims = (heads as u32, kv_heads as u32, head_dim as u32);
        run(per_row(tokens * (heads + kv_heads)), || unsafe {
            cu::qk_norm_inplace(
                qp, q_stride, kp, kv_stride, qn, kn, dims.0, dims.1, dims.2, 1e-6,
            )
        });
        let [got_q, got_k, got_v] = qkv.parts();
        assert_eq!(bits(&got_q), bits(&want_q), "merged {merged}: Q");
        assert_eq!(bits(&got_k), bits(&want_k), "merged {merged}: K");
        assert_eq!(bits(&got_v), bits(&v), "merged {merged}: V untouched");
    }
    assert_eq!(ROW_THREADS % 32, 0, "block reductions need whole warps");
}

/// A pool layer of one dtype: the buffers the store kernels write, compared by f32 bits.
enum Pool {
    F32(Vec<f32>, Vec<f32>),
    F16(Vec<f16>, Vec<f16>),
    Bf16(Vec<bf16>, Vec<bf16>),
}

impl Pool {
    fn new(dtype: usize, len: usize) -> Pool {
        match dtype {
            0 => Pool::F32(vec![0.0; len], vec![0.0; len]),
            1 => Pool::F16(vec![f16::ZERO; len], vec![f16::ZERO; len]),
            _ => Pool::Bf16(vec![bf16::ZERO; len], vec![bf16::ZERO; len]),
        }
    }

    fn bits(&self) -> [Vec<u32>; 2] {
        match self {
            Pool::F32(k, v) => [bits(k), bits(v)],
            Pool::F16(k, v) => [k, v].map(|x| x.iter().map(|h| h.to_f32().to_bits()).collect()),
            Pool::Bf16(k, v) => [k, v].map(|x| x.iter().map(|h| h.to_f32().to_bits()).collect()),
        }
    }
}

#[test]
fn rope_and_store_equal_rope_then_store_kv_bit_for_bit() {
    let mut rng = Rng(29);
    let (tokens, heads, kv_heads, head_dim, num_slots) = (7, 9, 3, 64, 50);
    let (q_len, kv_len) = (heads * head_dim, kv_heads * head_dim);
    let positions: Vec<u32> = (0..tokens).map(|_| rng.below(30_000) as u32).collect();
    // The last token is a padding row (-1): it stores nothing.
    let slots: [SlotId; 7] = [4, 0, 49, 17, 18, 3, -1];
    let cases = [
        (0, Some((64, RopeStyle::Normal))),
        (1, Some((64, RopeStyle::Neox))),
        (2, Some((32, RopeStyle::Neox))),
        (1, Some((32, RopeStyle::Normal))),
        (0, None),
    ];
    for ((dtype, rope), merged) in cases.into_iter().flat_map(|c| [(c, true), (c, false)]) {
        let what = format!("dtype {dtype} {rope:?} merged {merged}");
        // Position scaling and a pair scale that differ (an argument swap shows).
        let rope = rope.map(|(rot_dim, style)| {
            Rope::new(head_dim, rot_dim, 500_000.0, style, 4.0)
                .unwrap()
                .with_mscale(1.25)
                .unwrap()
        });
        let (q, k, v) = (
            rng.f32s(tokens * q_len),
            rng.f32s(tokens * kv_len),
            rng.f32s(tokens * kv_len),
        );
        let (pp, sp) = (positions.as_ptr(), slots.as_ptr());
        // The separate kernels: RoPE on Q and on K, then the store.
        let (mut want_q, mut want_k) = (q.clone(), k.clone());
        if let Some(rope) = &rope {
            let (_, inv_freq, style, linear, mscale) = rope.parts();
            let neox = i32::from(style == RopeStyle::Neox);
            let pairs = inv_freq.len() as u32;
            for (x, n_heads) in [(&mut want_q, heads), (&mut want_k, kv_heads)] {
                let (xp, fp) = (x.as_mut_ptr(), inv_freq.as_ptr());
                let d = (tokens as u32, n_heads as u32, head_dim as u32);
                run(stride(tokens * n_heads * pairs as usize), || unsafe {
                    cu::rope(xp, pp, fp, d.0, d.1, d.2, pairs, neox, linear, mscale)
                });
            }
        }
        let mut want = Pool::new(dtype, num_slots * kv_len);
        let (kp, vp) = (want_k.as_ptr(), v.as_ptr());
        let n = (tokens as u32, kv_len as u32, num_slots as u32);
        let cfg = stride(tokens * kv_len);
        match &mut want {
            Pool::F32(kc, vc) => {
                let (kc, vc) = (kc.as_mut_ptr(), vc.as_mut_ptr());
                run(cfg, || unsafe {
                    cu::store_kv_f32(sp, kp, vp, kc, vc, n.0, n.1, n.2)
                })
            }
            Pool::F16(kc, vc) => {
                let (kc, vc) = (kc.as_mut_ptr(), vc.as_mut_ptr());
                run(cfg, || unsafe {
                    cu::store_kv_f16(sp, kp, vp, kc, vc, n.0, n.1, n.2)
                })
            }
            Pool::Bf16(kc, vc) => {
                let (kc, vc) = (kc.as_mut_ptr(), vc.as_mut_ptr());
                run(cfg, || unsafe {
                    cu::store_kv_bf16(sp, kp, vp, kc, vc, n.0, n.1, n.2)
                })
            }
        }

        // The fused kernel, as rope_and_set_kv launches it.
        let mut qkv = Qkv::new(&q, &k, &v, tokens, merged);
        let (qp, q_stride, kp, vp, kv_stride) = qkv.rows();
        let mut q_out = vec![f32::NAN; tokens * q_len];
        let (q_out_p, q_out_stride) = if merged {
            (q_out.as_mut_ptr(), q_len as u32)
        } else {
            (qp, q_stride)
        };
        let (inv_freq, neox, linear, mscale, pairs) = match &rope {
            Some(r) => {
                let (_, f, style, linear, mscale) = r.parts();
                (
                    f.as_ptr(),
                    style == RopeStyle::Neox,
                    linear,
                    mscale,
                    f.len(),
                )
            }
            None => (std::ptr::null(), false, 1.0, 1.0, 0),
        };
        let shape = RopeStoreShape {
            tokens,
            heads,
            kv_heads,
            head_dim,
            pairs,
            neox,
            copy_q: merged,
        };
        let d = [tokens, heads, kv_heads, head_dim, pairs].map(|x| x as u32);
        let (neox, copy_q) = (i32::from(neox), i32::from(merged));
        let mut got = Pool::new(dtype, num_slots * kv_len);
        macro_rules! fused {
            ($kernel:path, $kc:expr, $vc:expr) => {{
                let (kc, vc) = ($kc.as_mut_ptr(), $vc.as_mut_ptr());
                run(stride(shape.items()), || unsafe {
                    $kernel(
                        qp,
                        q_stride,
                        q_out_p,
                        q_out_stride,
                        kp,
                        vp,
                        kv_stride,
                        pp,
                        inv_freq,
                        sp,
                        kc,
                        vc,
                        d[0],
                        d[1],
                        d[2],
                        d[3],
                        d[4],
                        neox,
                        copy_q,
                        linear,
                        mscale,
                        num_slots as u32,
                    )
                })
            }};
        }
        match &mut got {
            Pool::F32(kc, vc) => fused!(cu::rope_store_kv_f32, kc, vc),
            Pool::F16(kc, vc) => fused!(cu::rope_store_kv_f16, kc, vc),
            Pool::Bf16(kc, vc) => fused!(cu::rope_store_kv_bf16, kc, vc),
        }
        let [read_q, read_k, read_v] = qkv.parts();
        let got_q = if merged {
            // The merged rows are only read.
            assert_eq!(
                [bits(&read_q), bits(&read_k), bits(&read_v)],
                [bits(&q), bits(&k), bits(&v)],
                "{what}"
            );
            q_out
        } else {
            read_q
        };
        assert_eq!(bits(&got_q), bits(&want_q), "{what}: Q");
        assert_eq!(got.bits(), want.bits(), "{what}: K and V");
    }
}
