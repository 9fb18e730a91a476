//! Every CUDA kernel against its CPU reference on random inputs. Needs a GPU: without a
//! driver or device each test prints "SKIPPED cuda test <name>: <reason>" and passes.
//! Run with `--features cuda`; NVRTC must be loadable (see scripts/check-cuda.sh).
#![cfg(feature = "cuda")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "cuda_common.rs"]
mod cuda_common;
#[path = "support/xorshift.rs"]
mod xorshift;

use cuda_common::{gpu, gpu_required, max_rel_err};
use half::{bf16, f16};
use kernels::attention::{paged_attention, AttentionShape, PagedBatch, ScoreRules};
use kernels::cuda::{
    CudaError, DeviceAttentionBatch, DeviceKvStorage, DeviceReqToToken, DeviceRope, DeviceSlots,
    GpuContext,
};
use kernels::cuda_index::{gqa_fits, max_visible, SplitPlan};
use kernels::kv_indices::{create_kv_indices, KvGather};
use kernels::rope::{Rope, RopeStyle};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv, SlotId};
use xorshift::Rng;

const DTYPES: [KvDtype; 3] = [KvDtype::F32, KvDtype::F16, KvDtype::Bf16];

fn as_f32(layer: &LayerKv) -> Vec<f32> {
    match layer {
        LayerKv::F32(b) => b.clone(),
        LayerKv::F16(b) => b.iter().map(|v| v.to_f32()).collect(),
        LayerKv::Bf16(b) => b.iter().map(|v| v.to_f32()).collect(),
    }
}

#[test]
fn create_kv_indices_matches_the_cpu_gather() {
    let Some(gpu) = gpu("create_kv_indices") else {
        return;
    };
    let mut rng = Rng(1);
    let (rows, row_stride) = (8, 1500);
    let table: Vec<SlotId> = (0..rows * row_stride)
        .map(|_| rng.below(1 << 20) as SlotId)
        .collect();
    let mut dev_table = DeviceReqToToken::new(&gpu, rows, row_stride).unwrap();
    dev_table.write(&gpu, 0, 0, &table).unwrap();
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
        let dev = gpu
            .create_kv_indices(&dev_table, &req_pool_indices, &kv_lens, start)
            .unwrap();
        assert_eq!(dev.kv_indptr_host, indptr);
        assert_eq!(gpu.download(&dev.kv_indptr).unwrap(), indptr);
        assert_eq!(gpu.download(&dev.kv_indices).unwrap(), want);
    }
    let too_long = gpu.create_kv_indices(&dev_table, &[0], &[1501], None);
    assert!(matches!(too_long, Err(CudaError::Shape(_))));
}

#[test]
fn store_kv_scatters_like_the_host_pool_in_every_dtype() {
    let Some(gpu) = gpu("store_kv") else {
        return;
    };
    let mut rng = Rng(2);
    let num_slots = 300;
    for dtype in DTYPES {
        let layout = KvLayout {
            num_layers: 2,
            num_kv_heads: 3,
            head_dim: 64,
            dtype,
            values_in_keys: false,
            other_rows: None,
        };
        let row_len = layout.row_len();
        let mut host = KvStorage::new(layout, num_slots).unwrap();
        let mut dev = DeviceKvStorage::new(&gpu, layout, num_slots).unwrap();
        for (layer, n) in [(0, 1), (1, 257), (1, 13)] {
            let slots = rng.distinct(n, num_slots);
            let (k, v) = (rng.f32s(n * row_len), rng.f32s(n * row_len));
            host.set_kv(layer, &slots, &k, &v).unwrap();
            let dev_slots = DeviceSlots::upload(&gpu, &slots, num_slots).unwrap();
            let (dk, dv) = (gpu.upload(&k).unwrap(), gpu.upload(&v).unwrap());
            dev.set_kv(&gpu, layer, &dev_slots, &dk, &dv).unwrap();
        }
        for layer in 0..2 {
            let (hk, hv) = host.layer(layer).unwrap();
            let (dk, dv) = dev.layer(layer).unwrap();
            // Both sides round to nearest even: the pools agree bit for bit.
            assert_eq!(
                as_f32(&dk.download(&gpu).unwrap()),
                as_f32(hk),
                "{dtype:?} K"
            );
            assert_eq!(
                as_f32(&dv.download(&gpu).unwrap()),
                as_f32(hv),
                "{dtype:?} V"
            );
        }
    }
    assert!(DeviceSlots::upload(&gpu, &[300], 300).is_err());
}

/// A pool with random K/V at every slot, on the host and (a copy) on the device.
fn random_pool(
    gpu: &GpuContext,
    rng: &mut Rng,
    dtype: KvDtype,
    num_slots: usize,
) -> (KvStorage, DeviceKvStorage) {
    random_pool_of(gpu, rng, dtype, num_slots, (3, 64))
}

/// A one-layer pool of `num_kv_heads` x `head_dim` random K/V rows, on the host and the device.
fn random_pool_of(
    gpu: &GpuContext,
    rng: &mut Rng,
    dtype: KvDtype,
    num_slots: usize,
    (num_kv_heads, head_dim): (usize, usize),
) -> (KvStorage, DeviceKvStorage) {
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads,
        head_dim,
        dtype,
        values_in_keys: false,
        other_rows: None,
    };
    let mut host = KvStorage::new(layout, num_slots).unwrap();
    let all: Vec<SlotId> = (0..num_slots as SlotId).collect();
    let n = num_slots * layout.row_len();
    host.set_kv(0, &all, &rng.f32s(n), &rng.f32s(n)).unwrap();
    let dev = DeviceKvStorage::upload(gpu, &host).unwrap();
    (host, dev)
}

/// CSR metadata for requests of (q_len, kv_len) over random distinct slots.
fn random_batch(
    rng: &mut Rng,
    lens: &[(u32, u32)],
    num_slots: usize,
) -> (Vec<u32>, Vec<u32>, Vec<SlotId>) {
    let (mut q_indptr, mut kv_indptr) = (vec![0u32], vec![0u32]);
    let mut kv_indices = Vec::new();
    for &(q, kv) in lens {
        q_indptr.push(q_indptr.last().unwrap() + q);
        kv_indptr.push(kv_indptr.last().unwrap() + kv);
        kv_indices.extend(rng.distinct(kv as usize, num_slots));
    }
    (q_indptr, kv_indptr, kv_indices)
}

#[test]
fn paged_attention_matches_the_cpu_for_decode_extend_and_split_k() {
    let Some(gpu) = gpu("paged_attention") else {
        return;
    };
    let mut rng = Rng(3);
    // SmolLM2's shape and an MHA shape with an odd head_dim take the grouped kernel (16-byte
    // K loads for the first; the second loads element by element for f16/bf16); a group of
    // 8 with head_dim 160 takes the per-head kernel.
    let shapes = [(9, 3, 64), (8, 8, 20), (16, 2, 160)].map(|(h, kv, d)| AttentionShape {
        num_heads: h,
        num_kv_heads: kv,
        head_dim: d,
    });
    assert!(gqa_fits(9, 3, 64) && gqa_fits(8, 8, 20) && !gqa_fits(16, 2, 160));
    let num_slots = 5000;
    let cases: [&[(u32, u32)]; 3] = [
        // Decode: a small batch over long contexts, where the default plan splits.
        &[(1, 3000), (1, 4097), (1, 1)],
        // Mixed: decode, empty, extend over a cached prefix, prefill spanning tiles.
        &[(1, 700), (0, 0), (5, 305), (150, 150)],
        // One long prefill.
        &[(600, 600)],
    ];
    for (shape, dtype) in shapes.iter().flat_map(|s| DTYPES.map(|d| (s, d))) {
        let q_row = shape.num_heads * shape.head_dim;
        let pool_shape = (shape.num_kv_heads, shape.head_dim);
        let (host, dev) = random_pool_of(&gpu, &mut rng, dtype, num_slots, pool_shape);
        let (hk, hv) = host.layer(0).unwrap();
        let (dk, dv) = dev.layer(0).unwrap();
        for lens in cases {
            let (q_indptr, kv_indptr, kv_indices) = random_batch(&mut rng, lens, num_slots);
            let batch = PagedBatch {
                q_indptr: &q_indptr,
                kv_indptr: &kv_indptr,
                kv_indices: &kv_indices,
            };
            let rows = *q_indptr.last().unwrap() as usize;
            let q = rng.f32s(rows * q_row);
            let mut want = vec![0.0; q.len()];
            paged_attention(shape, &batch, &q, hk, hv, &mut want).unwrap();

            let dev_batch = DeviceAttentionBatch::upload(&gpu, &batch, num_slots).unwrap();
            let dq = gpu.upload(&q).unwrap();
            let max_vis = max_visible(&q_indptr, &kv_indptr);
            let plans = [
                dev_batch.default_plan(shape),
                SplitPlan::single(max_vis),
                SplitPlan::with_splits(max_vis, 5),
                SplitPlan::per_row(5),
            ];
            for plan in plans {
                let mut out = gpu.zeros::<f32>(q.len()).unwrap();
                gpu.paged_attention_with_plan(
                    shape,
                    ScoreRules::default(),
                    &dev_batch,
                    &dq,
                    dk,
                    dv,
                    &mut out,
                    plan,
                )
                .unwrap();
                let got = gpu.download(&out).unwrap();
                let err = max_rel_err(&got[..want.len()], &want);
                assert!(
                    err < 2e-4,
                    "{shape:?} {dtype:?} {lens:?} {plan:?}: error {err}"
                );
            }
        }
    }
}

#[test]
fn attention_over_device_built_kv_indices_matches_the_cpu() {
    let Some(gpu) = gpu("attention_from_req_to_token") else {
        return;
    };
    let mut rng = Rng(4);
    let shape = AttentionShape {
        num_heads: 9,
        num_kv_heads: 3,
        head_dim: 64,
    };
    let num_slots = 2000;
    let (host, dev) = random_pool(&gpu, &mut rng, KvDtype::Bf16, num_slots);
    let (rows, row_stride) = (4, 1024);
    let table: Vec<SlotId> = (0..rows * row_stride)
        .map(|_| rng.below(num_slots) as SlotId)
        .collect();
    let mut dev_table = DeviceReqToToken::new(&gpu, rows, row_stride).unwrap();
    dev_table.write(&gpu, 0, 0, &table).unwrap();
    let (req_pool_indices, kv_lens, q_lens) = ([2u32, 0, 3], [900u32, 17, 1], [1u32, 4, 1]);
    let g = KvGather {
        req_to_token: &table,
        row_stride,
        req_pool_indices: &req_pool_indices,
        kv_lens: &kv_lens,
        kv_start: None,
    };
    let (mut kv_indptr, mut kv_indices) = (Vec::new(), Vec::new());
    create_kv_indices(&g, &mut kv_indptr, &mut kv_indices).unwrap();
    let mut q_indptr = vec![0u32];
    q_lens
        .iter()
        .for_each(|l| q_indptr.push(q_indptr.last().unwrap() + l));
    let q = rng.f32s(*q_indptr.last().unwrap() as usize * 576);
    let batch = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let (hk, hv) = host.layer(0).unwrap();
    let mut want = vec![0.0; q.len()];
    paged_attention(&shape, &batch, &q, hk, hv, &mut want).unwrap();

    let kv = gpu
        .create_kv_indices(&dev_table, &req_pool_indices, &kv_lens, None)
        .unwrap();
    let dev_batch = DeviceAttentionBatch::from_kv_indices(&gpu, &q_indptr, kv).unwrap();
    let (dk, dv) = dev.layer(0).unwrap();
    let dq = gpu.upload(&q).unwrap();
    let mut out = gpu.zeros::<f32>(q.len()).unwrap();
    gpu.paged_attention(&shape, &dev_batch, &dq, dk, dv, &mut out)
        .unwrap();
    let err = max_rel_err(&gpu.download(&out).unwrap(), &want);
    assert!(err < 2e-4, "error {err}");
}

#[test]
fn rms_norm_matches_the_cpu() {
    let Some(gpu) = gpu("rms_norm") else {
        return;
    };
    let mut rng = Rng(5);
    for (rows, dim) in [(1, 576), (37, 576), (3, 4096), (5, 33)] {
        let (x, w) = (rng.f32s(rows * dim), rng.f32s(dim));
        let mut want = vec![0.0; x.len()];
        kernels::norm::rms_norm(&x, &w, 1e-5, &mut want).unwrap();
        let (dx, dw) = (gpu.upload(&x).unwrap(), gpu.upload(&w).unwrap());
        let mut out = gpu.zeros::<f32>(x.len()).unwrap();
        gpu.rms_norm(&dx, &dw, 1e-5, &mut out, rows).unwrap();
        let err = max_rel_err(&gpu.download(&out).unwrap(), &want);
        assert!(err < 1e-5, "{rows} x {dim}: error {err}");
    }
}

#[test]
fn rope_matches_the_cpu_in_both_styles() {
    let Some(gpu) = gpu("rope") else {
        return;
    };
    let mut rng = Rng(6);
    let (tokens, heads, head_dim) = (19, 9, 64);
    let positions: Vec<u32> = (0..tokens).map(|_| rng.below(8192) as u32).collect();
    let dpos = gpu.upload(&positions).unwrap();
    for (style, rot_dim, factor) in [
        (RopeStyle::Normal, 64, 1.0f32),
        (RopeStyle::Neox, 64, 1.0),
        (RopeStyle::Normal, 32, 4.0),
        (RopeStyle::Neox, 48, 2.0),
    ] {
        let x = rng.f32s(tokens * heads * head_dim);
        let mut want = x.clone();
        Rope::new(head_dim, rot_dim, 100000.0, style, factor)
            .unwrap()
            .apply(&mut want, heads, &positions)
            .unwrap();
        let rope = DeviceRope::new(&gpu, head_dim, rot_dim, 100000.0, style, factor).unwrap();
        let mut dx = gpu.upload(&x).unwrap();
        rope.apply(&gpu, &mut dx, heads, &dpos, tokens).unwrap();
        let err = max_rel_err(&gpu.download(&dx).unwrap(), &want);
        assert!(err < 1e-5, "{style:?} rot {rot_dim}: error {err}");
    }
    // LongRoPE's pair scale, on a partial rotation: the device copy of the CPU table.
    let cpu = Rope::new(head_dim, 48, 10000.0, RopeStyle::Neox, 1.0)
        .unwrap()
        .with_mscale(1.19)
        .unwrap();
    let x = rng.f32s(tokens * heads * head_dim);
    let mut want = x.clone();
    cpu.apply(&mut want, heads, &positions).unwrap();
    let mut dx = gpu.upload(&x).unwrap();
    DeviceRope::from_rope(&gpu, &cpu)
        .unwrap()
        .apply(&gpu, &mut dx, heads, &dpos, tokens)
        .unwrap();
    let err = max_rel_err(&gpu.download(&dx).unwrap(), &want);
    assert!(err < 1e-5, "mscale: error {err}");
}

#[test]
fn silu_mul_matches_the_cpu() {
    let Some(gpu) = gpu("silu_mul") else {
        return;
    };
    let mut rng = Rng(7);
    let (rows, ffn) = (23, 1536);
    let gate_up: Vec<f32> = rng.f32s(rows * 2 * ffn).iter().map(|v| v * 8.0).collect();
    let mut want = vec![0.0; rows * ffn];
    kernels::activation::silu_mul(&gate_up, ffn, &mut want).unwrap();
    let dg = gpu.upload(&gate_up).unwrap();
    let mut out = gpu.zeros::<f32>(want.len()).unwrap();
    gpu.silu_mul(&dg, ffn, &mut out, rows).unwrap();
    let err = max_rel_err(&gpu.download(&out).unwrap(), &want);
    assert!(err < 1e-5, "error {err}");
}

#[test]
fn add_in_place_matches_the_cpu_and_leaves_the_tail_alone() {
    let Some(gpu) = gpu("add_inplace") else {
        return;
    };
    let mut rng = Rng(17);
    let n = 70_001;
    let (x, y) = (rng.f32s(n + 5), rng.f32s(n + 5));
    let mut want = x.clone();
    kernels::activation::add_in_place(&mut want[..n], &y[..n]).unwrap();
    let (mut dx, dy) = (gpu.upload(&x).unwrap(), gpu.upload(&y).unwrap());
    gpu.add_in_place(&mut dx, &dy, n).unwrap();
    // Exactly the same f32 additions; the 5 values past n are untouched.
    assert_eq!(gpu.download(&dx).unwrap(), want);
}

#[test]
fn req_to_token_cell_writes_match_the_cpu_scatter() {
    let Some(gpu) = gpu("write_req_to_token") else {
        return;
    };
    let mut rng = Rng(19);
    let (rows, row_stride) = (6, 1000);
    let mut want: Vec<SlotId> = (0..rows * row_stride).map(|i| i as SlotId).collect();
    let mut dev = DeviceReqToToken::new(&gpu, rows, row_stride).unwrap();
    dev.write(&gpu, 0, 0, &want).unwrap();
    let cells: Vec<u64> = rng
        .distinct(3000, rows * row_stride)
        .into_iter()
        .map(|c| c as u64)
        .collect();
    let slots: Vec<SlotId> = (0..cells.len())
        .map(|_| rng.below(1 << 20) as SlotId)
        .collect();
    kernels::kv_indices::write_req_to_token(&mut want, &cells, &slots).unwrap();
    dev.write_cells(&gpu, &cells, &slots).unwrap();
    assert_eq!(gpu.download(dev.table()).unwrap(), want);
    let past = dev.write_cells(&gpu, &[(rows * row_stride) as u64], &[1]);
    assert!(matches!(past, Err(CudaError::Shape(_))));
}

#[test]
fn embedding_gathers_rows_of_half_tables_exactly() {
    let Some(gpu) = gpu("embedding") else {
        return;
    };
    let mut rng = Rng(8);
    let (vocab, hidden) = (1000, 576);
    let table = rng.f32s(vocab * hidden);
    let ids: Vec<u32> = (0..40).map(|_| rng.below(vocab) as u32).collect();
    let dids = gpu.upload(&ids).unwrap();
    let want = |round: &dyn Fn(f32) -> f32| -> Vec<f32> {
        ids.iter()
            .flat_map(|&id| {
                table[id as usize * hidden..][..hidden]
                    .iter()
                    .map(|&v| round(v))
            })
            .collect()
    };
    let mut out = gpu.zeros::<f32>(ids.len() * hidden).unwrap();
    let t16: Vec<f16> = table.iter().map(|&v| f16::from_f32(v)).collect();
    gpu.embedding(
        &dids,
        ids.len(),
        &gpu.upload(&t16).unwrap(),
        hidden,
        &mut out,
    )
    .unwrap();
    assert_eq!(
        gpu.download(&out).unwrap(),
        want(&|v| f16::from_f32(v).to_f32())
    );
    let tb16: Vec<bf16> = table.iter().map(|&v| bf16::from_f32(v)).collect();
    gpu.embedding(
        &dids,
        ids.len(),
        &gpu.upload(&tb16).unwrap(),
        hidden,
        &mut out,
    )
    .unwrap();
    assert_eq!(
        gpu.download(&out).unwrap(),
        want(&|v| bf16::from_f32(v).to_f32())
    );
    gpu.embedding(
        &dids,
        ids.len(),
        &gpu.upload(&table).unwrap(),
        hidden,
        &mut out,
    )
    .unwrap();
    assert_eq!(gpu.download(&out).unwrap(), want(&|v| v));
}

#[test]
fn casts_round_like_the_half_crate_and_f16_saturates() {
    let Some(gpu) = gpu("cast") else {
        return;
    };
    let mut rng = Rng(9);
    let mut x: Vec<f32> = rng.f32s(10_000).iter().map(|v| v * 1000.0).collect();
    // Beyond f16's range: saturated to ±65504, never infinite.
    x.extend([65_519.0, 65_520.0, -1e5, 3e38, f32::INFINITY]);
    let dx = gpu.upload(&x).unwrap();
    let mut h = gpu.zeros::<f16>(x.len()).unwrap();
    gpu.cast_from_f32(&dx, &mut h, x.len()).unwrap();
    let want: Vec<f16> = x
        .iter()
        .map(|&v| f16::from_f32(v.clamp(-65_504.0, 65_504.0)))
        .collect();
    assert_eq!(gpu.download(&h).unwrap(), want);
    assert!(want.iter().all(|v| v.is_finite()));
    let mut b = gpu.zeros::<bf16>(x.len()).unwrap();
    gpu.cast_from_f32(&dx, &mut b, x.len()).unwrap();
    let want_b: Vec<bf16> = x.iter().map(|&v| bf16::from_f32(v)).collect();
    assert_eq!(gpu.download(&b).unwrap(), want_b);
    let mut back = gpu.zeros::<f32>(x.len()).unwrap();
    gpu.cast_to_f32(&b, &mut back, x.len()).unwrap();
    let want_back: Vec<f32> = want_b.iter().map(|v| v.to_f32()).collect();
    assert_eq!(gpu.download(&back).unwrap(), want_back);
}

/// `x W^T` in f64 from the rounded operands.
fn gemm_reference(x: &[f32], w: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let dot: f64 = (0..k)
                .map(|t| x[i * k + t] as f64 * w[j * k + t] as f64)
                .sum();
            out[i * n + j] = dot as f32;
        }
    }
    out
}

#[test]
fn cublas_gemm_computes_x_times_w_transposed() {
    let Some(gpu) = gpu("gemm") else {
        return;
    };
    let mut rng = Rng(10);
    for (m, n, k) in [(1, 576, 576), (7, 33, 70), (64, 1536, 576)] {
        let (x, w) = (rng.f32s(m * k), rng.f32s(n * k));
        let (x16, w16): (Vec<f16>, Vec<f16>) = (
            x.iter().map(|&v| f16::from_f32(v)).collect(),
            w.iter().map(|&v| f16::from_f32(v)).collect(),
        );
        let xr: Vec<f32> = x16.iter().map(|v| v.to_f32()).collect();
        let wr: Vec<f32> = w16.iter().map(|v| v.to_f32()).collect();
        let want = gemm_reference(&xr, &wr, m, n, k);
        let (dx, dw) = (gpu.upload(&x16).unwrap(), gpu.upload(&w16).unwrap());
        let mut out32 = gpu.zeros::<f32>(m * n).unwrap();
        match gpu.gemm_f32_out(&dx, &dw, &mut out32, m, n, k) {
            Err(CudaError::LibraryMissing(lib)) => {
                assert!(
                    !gpu_required(),
                    "RADIXSERVE_REQUIRE_GPU is set: {lib} is missing"
                );
                eprintln!("SKIPPED cuda test gemm: {lib} could not be loaded");
                return;
            }
            other => other.unwrap(),
        }
        let err = max_rel_err(&gpu.download(&out32).unwrap(), &want);
        assert!(err < 1e-3, "f16 -> f32 {m}x{n}x{k}: error {err}");
        let mut out16 = gpu.zeros::<f16>(m * n).unwrap();
        gpu.gemm_f16(&dx, &dw, &mut out16, m, n, k).unwrap();
        let got: Vec<f32> = gpu
            .download(&out16)
            .unwrap()
            .iter()
            .map(|v| v.to_f32())
            .collect();
        let err = max_rel_err(&got, &want);
        assert!(err < 4e-3, "f16 {m}x{n}x{k}: error {err}");

        let (xb, wb): (Vec<bf16>, Vec<bf16>) = (
            x.iter().map(|&v| bf16::from_f32(v)).collect(),
            w.iter().map(|&v| bf16::from_f32(v)).collect(),
        );
        let xr: Vec<f32> = xb.iter().map(|v| v.to_f32()).collect();
        let wr: Vec<f32> = wb.iter().map(|v| v.to_f32()).collect();
        let want = gemm_reference(&xr, &wr, m, n, k);
        let (dx, dw) = (gpu.upload(&xb).unwrap(), gpu.upload(&wb).unwrap());
        let mut outb = gpu.zeros::<bf16>(m * n).unwrap();
        gpu.gemm_bf16(&dx, &dw, &mut outb, m, n, k).unwrap();
        let got: Vec<f32> = gpu
            .download(&outb)
            .unwrap()
            .iter()
            .map(|v| v.to_f32())
            .collect();
        let err = max_rel_err(&got, &want);
        assert!(err < 2e-2, "bf16 {m}x{n}x{k}: error {err}");
    }
}

#[test]
fn windowed_and_capped_attention_matches_the_cpu_for_decode_extend_and_split_k() {
    let Some(gpu) = gpu("windowed_and_capped_attention") else {
        return;
    };
    let mut rng = Rng(31);
    // The grouped kernel (Qwen-like) and the per-head one (Gemma 3's head_dim of 256).
    let shapes = [(8, 2, 64), (4, 1, 256)].map(|(h, kv, d)| AttentionShape {
        num_heads: h,
        num_kv_heads: kv,
        head_dim: d,
    });
    assert!(gqa_fits(8, 2, 64) && !gqa_fits(4, 1, 256));
    let num_slots = 5000;
    let lens: &[(u32, u32)] = &[(1, 3000), (40, 300), (7, 7), (1, 1)];
    for shape in &shapes {
        let pool_shape = (shape.num_kv_heads, shape.head_dim);
        let (host, dev) = random_pool_of(&gpu, &mut rng, KvDtype::F16, num_slots, pool_shape);
        let (hk, hv) = host.layer(0).unwrap();
        let (dk, dv) = dev.layer(0).unwrap();
        let (q_indptr, kv_indptr, kv_indices) = random_batch(&mut rng, lens, num_slots);
        let batch = PagedBatch {
            q_indptr: &q_indptr,
            kv_indptr: &kv_indptr,
            kv_indices: &kv_indices,
        };
        let rows = *q_indptr.last().unwrap() as usize;
        // Scaled up so raw scores reach a few times the soft cap.
        let q: Vec<f32> = rng
            .f32s(rows * shape.num_heads * shape.head_dim)
            .iter()
            .map(|x| x * 12.0)
            .collect();
        let dev_batch = DeviceAttentionBatch::upload(&gpu, &batch, num_slots).unwrap();
        let dq = gpu.upload(&q).unwrap();
        let max_vis = max_visible(&q_indptr, &kv_indptr);
        let rules = [1usize, 16, 129, 1024]
            .map(|w| ScoreRules {
                window: Some(w),
                ..ScoreRules::default()
            })
            .into_iter()
            .chain([
                ScoreRules {
                    softcap: Some(5.0),
                    ..ScoreRules::default()
                },
                ScoreRules {
                    window: Some(129),
                    softcap: Some(5.0),
                    scale: Some(0.02),
                    chunk: None,
                },
            ]);
        for rule in rules {
            let mut want = vec![0.0; q.len()];
            kernels::attention::paged_attention_with_rules(
                shape, rule, &batch, &q, hk, hv, &mut want,
            )
            .unwrap();
            for plan in [
                dev_batch.default_plan(shape),
                SplitPlan::single(max_vis),
                SplitPlan::with_splits(max_vis, 7),
                SplitPlan::per_row(7),
            ] {
                let mut out = gpu.zeros::<f32>(q.len()).unwrap();
                gpu.paged_attention_with_plan(shape, rule, &dev_batch, &dq, dk, dv, &mut out, plan)
                    .unwrap();
                let err = max_rel_err(&gpu.download(&out).unwrap()[..want.len()], &want);
                assert!(err < 2e-4, "{shape:?} {rule:?} {plan:?}: error {err}");
            }
        }
    }
    // A window of 0 keys is refused, as on the CPU.
    let shape = &shapes[0];
    let (_, dev) = random_pool_of(&gpu, &mut rng, KvDtype::F16, 16, (2, 64));
    let (dk, dv) = dev.layer(0).unwrap();
    let (q_indptr, kv_indptr, kv_indices) = random_batch(&mut rng, &[(1, 4)], 16);
    let batch = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let dev_batch = DeviceAttentionBatch::upload(&gpu, &batch, 16).unwrap();
    let dq = gpu.zeros::<f32>(8 * 64).unwrap();
    let mut out = gpu.zeros::<f32>(8 * 64).unwrap();
    let zero = ScoreRules {
        window: Some(0),
        ..ScoreRules::default()
    };
    let err = gpu.paged_attention_with_rules(shape, zero, &dev_batch, &dq, dk, dv, &mut out);
    assert!(matches!(err, Err(CudaError::Shape(_))), "{err:?}");
}

#[test]
fn family_kernels_match_the_cpu() {
    let Some(gpu) = gpu("family_kernels") else {
        return;
    };
    let mut rng = Rng(32);
    // GeGLU's gate, over gates large enough to saturate tanh.
    let (rows, ffn) = (13, 1152);
    let gate_up: Vec<f32> = rng.f32s(rows * 2 * ffn).iter().map(|v| v * 12.0).collect();
    let mut want = vec![0.0; rows * ffn];
    kernels::activation::gelu_mul(&gate_up, ffn, &mut want).unwrap();
    let dg = gpu.upload(&gate_up).unwrap();
    let mut out = gpu.zeros::<f32>(want.len()).unwrap();
    gpu.gelu_tanh_mul(&dg, ffn, &mut out, rows).unwrap();
    let err = max_rel_err(&gpu.download(&out).unwrap(), &want);
    assert!(err < 1e-5, "gelu_tanh_mul: error {err}");

    // A bias over rows, leaving the rows past `rows` alone.
    let (rows, width) = (9, 320);
    let (x, bias) = (rng.f32s((rows + 1) * width), rng.f32s(width));
    let mut want = x.clone();
    for row in want[..rows * width].chunks_exact_mut(width) {
        row.iter_mut().zip(&bias).for_each(|(a, b)| *a += b);
    }
    let (mut dx, db) = (gpu.upload(&x).unwrap(), gpu.upload(&bias).unwrap());
    gpu.add_bias(&mut dx, &db, rows).unwrap();
    assert_eq!(gpu.download(&dx).unwrap(), want, "add_bias");

    // Scale and soft-cap, over the first n values.
    let n = 10_007;
    let x: Vec<f32> = rng.f32s(n + 3).iter().map(|v| v * 80.0).collect();
    let mut dx = gpu.upload(&x).unwrap();
    gpu.scale_in_place(&mut dx, 0.125, n).unwrap();
    let scaled: Vec<f32> = x[..n].iter().map(|v| v * 0.125).collect();
    let got = gpu.download(&dx).unwrap();
    assert_eq!(got[..n], scaled[..], "scale_in_place");
    assert_eq!(got[n..], x[n..], "scale_in_place past n");
    let mut dx = gpu.upload(&x).unwrap();
    gpu.softcap_in_place(&mut dx, 30.0, n).unwrap();
    let capped: Vec<f32> = x[..n].iter().map(|v| 30.0 * (v / 30.0).tanh()).collect();
    let err = max_rel_err(&gpu.download(&dx).unwrap()[..n], &capped);
    assert!(err < 1e-5, "softcap_in_place: error {err}");

    // Per-head RMSNorm in place: rows of one head each, as the CPU norms them.
    let (tokens, heads, head_dim) = (11, 4, 256);
    let (x, w) = (rng.f32s(tokens * heads * head_dim), rng.f32s(head_dim));
    let mut want = vec![0.0; x.len()];
    kernels::norm::rms_norm(&x, &w, 1e-6, &mut want).unwrap();
    let (mut dx, dw) = (gpu.upload(&x).unwrap(), gpu.upload(&w).unwrap());
    gpu.rms_norm_in_place(&mut dx, &dw, 1e-6, tokens * heads)
        .unwrap();
    let err = max_rel_err(&gpu.download(&dx).unwrap(), &want);
    assert!(err < 1e-5, "rms_norm_in_place: error {err}");
}
