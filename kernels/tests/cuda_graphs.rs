//! CUDA graphs over fixed buffers: a recorded decode attention replays over metadata
//! rewritten between replays, against the CPU kernel; padding slots write nothing. Needs a
//! GPU: without a driver or device each test prints "SKIPPED cuda test <name>: <reason>" and
//! passes. Run with `--features cuda` (scripts/check-cuda.sh).
#![cfg(feature = "cuda")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "cuda_common.rs"]
mod cuda_common;
#[path = "support/xorshift.rs"]
mod xorshift;

use cuda_common::{gpu, max_rel_err};
use kernels::attention::{paged_attention, AttentionShape, PagedBatch, ScoreRules};
use kernels::cuda::{
    split_plan, AttentionLayer, CudaError, DecodeMeta, DeviceKvStorage, DeviceReqToToken,
    DeviceSlots, SplitParts,
};
use kernels::cuda_index::SplitPlan;
use kernels::kv_indices::{create_kv_indices, KvGather};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv, SlotId};
use xorshift::Rng;

/// Decode steps of (row, kv_len) requests, run one after another through one graph.
const STEPS: [&[(u32, u32)]; 3] = [
    &[(2, 900), (0, 17), (5, 1)],
    &[
        (1, 1024),
        (3, 300),
        (4, 2),
        (5, 64),
        (0, 511),
        (2, 7),
        (3, 1000),
        (1, 1),
    ],
    &[(4, 33)],
];

#[test]
fn decode_attention_replays_from_a_graph_over_rewritten_metadata() {
    let Some(gpu) = gpu("decode_attention_replays_from_a_graph") else {
        return;
    };
    let mut rng = Rng(11);
    let shape = AttentionShape {
        num_heads: 9,
        num_kv_heads: 3,
        head_dim: 64,
    };
    let q_row = shape.num_heads * shape.head_dim;
    let (num_slots, rows, stride, bucket) = (3000, 6, 1024, 8);
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads: 3,
        head_dim: 64,
        dtype: KvDtype::Bf16,
        values_in_keys: false,
        other_rows: None,
    };
    let mut host = KvStorage::new(layout, num_slots).unwrap();
    let all: Vec<SlotId> = (0..num_slots as SlotId).collect();
    let n = num_slots * layout.row_len();
    host.set_kv(0, &all, &rng.f32s(n), &rng.f32s(n)).unwrap();
    let dev = DeviceKvStorage::upload(&gpu, &host).unwrap();
    let table: Vec<SlotId> = (0..rows * stride)
        .map(|_| rng.below(num_slots) as SlotId)
        .collect();
    let mut dev_table = DeviceReqToToken::new(&gpu, rows, stride).unwrap();
    dev_table.write(&gpu, 0, 0, &table).unwrap();

    let mut meta = DecodeMeta::new(&gpu, bucket, stride).unwrap();
    // The engine's graph plan: the split count of the longest row the buffers hold, each
    // row cutting its own keys into that many runs.
    let plan = SplitPlan::per_row(split_plan(&shape, bucket, stride as u32).num_splits);
    assert!(plan.num_splits > 1, "{plan:?}");
    let parts = SplitParts::new(&gpu, bucket, &shape, plan).unwrap();
    let mut q = gpu.zeros::<f32>(bucket * q_row).unwrap();
    let mut out = gpu.zeros::<f32>(bucket * q_row).unwrap();
    let (dk, dv) = dev.layer(0).unwrap();
    let layer = AttentionLayer {
        shape: &shape,
        rules: ScoreRules::default(),
        k_cache: dk,
        v_cache: dv,
    };

    let mut graph = None;
    for (step, reqs) in STEPS.iter().enumerate() {
        let pool_rows: Vec<u32> = reqs.iter().map(|r| r.0).collect();
        let kv_lens: Vec<u32> = reqs.iter().map(|r| r.1).collect();
        meta.write(&gpu, &dev_table, &pool_rows, &kv_lens, bucket)
            .unwrap();
        let q_host = rng.f32s(bucket * q_row);
        gpu.upload_into(&q_host, &mut q).unwrap();
        if graph.is_none() {
            let recorded = gpu
                .capture(|| -> Result<(), CudaError> {
                    meta.gather(&gpu, &dev_table, bucket)?;
                    gpu.paged_attention_into(
                        &layer,
                        meta.meta(bucket),
                        &q,
                        &mut out,
                        plan,
                        Some(&parts),
                    )
                })
                .unwrap();
            // Recording runs nothing.
            assert!(gpu.download(&out).unwrap().iter().all(|&v| v == 0.0));
            graph = Some(recorded);
        }
        graph.as_ref().unwrap().replay().unwrap();

        // The CPU kernel over the same requests, unpadded.
        let g = KvGather {
            req_to_token: &table,
            row_stride: stride,
            req_pool_indices: &pool_rows,
            kv_lens: &kv_lens,
            kv_start: None,
        };
        let (mut kv_indptr, mut kv_indices) = (Vec::new(), Vec::new());
        create_kv_indices(&g, &mut kv_indptr, &mut kv_indices).unwrap();
        let q_indptr: Vec<u32> = (0..=reqs.len() as u32).collect();
        let batch = PagedBatch {
            q_indptr: &q_indptr,
            kv_indptr: &kv_indptr,
            kv_indices: &kv_indices,
        };
        let real = reqs.len() * q_row;
        let (hk, hv) = host.layer(0).unwrap();
        let mut want = vec![0.0; real];
        paged_attention(&shape, &batch, &q_host[..real], hk, hv, &mut want).unwrap();
        let got = gpu.download(&out).unwrap();
        let err = max_rel_err(&got[..real], &want);
        assert!(err < 2e-4, "step {step}: error {err}");
        // Padding rows see one key of row 0: finite outputs, never read.
        assert!(got[real..].iter().all(|v| v.is_finite()), "step {step}");
    }
}

#[test]
fn padding_slots_write_nothing_and_refills_are_checked() {
    let Some(gpu) = gpu("padding_slots_write_nothing") else {
        return;
    };
    let mut rng = Rng(12);
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads: 2,
        head_dim: 8,
        dtype: KvDtype::F32,
        values_in_keys: false,
        other_rows: None,
    };
    let (num_slots, row_len) = (40, layout.row_len());
    let mut host = KvStorage::new(layout, num_slots).unwrap();
    let mut dev = DeviceKvStorage::new(&gpu, layout, num_slots).unwrap();
    let mut slots = DeviceSlots::with_capacity(&gpu, 8, num_slots).unwrap();
    let mut staging = Vec::new();
    for written in [&[5, 7][..], &[1, 2, 3, 4, 5, 6, 7, 39], &[0]] {
        slots.refill(&gpu, written, 8, &mut staging).unwrap();
        assert_eq!(slots.len(), 8);
        let (k, v) = (rng.f32s(8 * row_len), rng.f32s(8 * row_len));
        let real = written.len() * row_len;
        host.set_kv(0, written, &k[..real], &v[..real]).unwrap();
        let (dk, dv) = (gpu.upload(&k).unwrap(), gpu.upload(&v).unwrap());
        dev.set_kv(&gpu, 0, &slots, &dk, &dv).unwrap();
        let (hk, _) = host.layer(0).unwrap();
        let LayerKv::F32(want) = hk else {
            unreachable!()
        };
        let LayerKv::F32(got) = dev.layer(0).unwrap().0.download(&gpu).unwrap() else {
            unreachable!()
        };
        assert_eq!(&got, want, "after writing {written:?}");
    }
    for (bad, len) in [(&[40][..], 8), (&[-1], 8), (&[1, 2], 1), (&[1], 9)] {
        assert!(
            slots.refill(&gpu, bad, len, &mut staging).is_err(),
            "{bad:?} padded to {len}"
        );
    }
}
