//! The attention kernels (`attention_gqa`, `attention_partial`, `attention_merge`) against
//! the CPU's paged attention, with the launch geometry and split plans the CUDA launcher
//! uses (`kernels::cuda_index`): decode, extend, mixed and prefill batches, every K/V dtype,
//! one split and several, sliding windows and soft caps. Mirrors tests/cuda_kernels.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{max_rel_err, Rng};
use cuda_emu::{cu, launch, Launch};
use half::{bf16, f16};
use kernels::attention::{paged_attention_with_rules, AttentionShape, PagedBatch, ScoreRules};
use kernels::cuda_index::{
    attention_geometry, gqa_fits, max_visible, split_plan, SplitPlan, ATTN_THREADS,
};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv, SlotId};

const DTYPES: [KvDtype; 3] = [KvDtype::F32, KvDtype::F16, KvDtype::Bf16];

type AttentionKernel<T> = unsafe extern "C" fn(
    *const f32,
    *const T,
    *const T,
    *const u32,
    *const u32,
    *const i32,
    u32,
    u32,
    u32,
    u32,
    u32,
    f32,
    u32,
    u32,
    f32,
    *mut f32,
    *mut f32,
    *mut f32,
);

/// The kernels' launches for one layer, as `GpuContext::paged_attention_into` makes them:
/// the attention kernel over `plan`'s splits, then the merge when there are several.
fn emulated_attention<T>(
    kernel: AttentionKernel<T>,
    (shape, rules, plan): (&AttentionShape, ScoreRules, SplitPlan),
    batch: &PagedBatch,
    q: &[f32],
    (k, v): (&[T], &[T]),
) -> Vec<f32> {
    let (heads, kv_heads, d) = (shape.num_heads, shape.num_kv_heads, shape.head_dim);
    let rows = *batch.q_indptr.last().unwrap() as usize;
    let splits = plan.num_splits as usize;
    let geometry = attention_geometry(shape, rows as u32, plan.num_splits);
    assert_eq!(geometry.grouped, gqa_fits(heads, kv_heads, d));
    // NaN everywhere: a value the kernels fail to write shows.
    let mut out = vec![f32::NAN; rows * heads * d];
    let mut acc = vec![f32::NAN; rows * heads * splits * d];
    let mut ml = vec![f32::NAN; rows * heads * splits * 2];
    let window = rules
        .window
        .map_or(u32::MAX, |w| u32::try_from(w).unwrap_or(u32::MAX));
    let num_slots = (k.len() / (kv_heads * d)) as u32;
    let o = out.as_mut_ptr();
    // One split: no partial buffers, as the launcher passes none.
    let (a, m) = if splits > 1 {
        (acc.as_mut_ptr(), ml.as_mut_ptr())
    } else {
        (std::ptr::null_mut(), std::ptr::null_mut())
    };
    let cfg = Launch {
        grid_dim: geometry.grid,
        block_dim: (geometry.threads, 1, 1),
        shared_mem_bytes: geometry.shared_bytes as u32,
    };
    let call = || unsafe {
        kernel(
            q.as_ptr(),
            k.as_ptr(),
            v.as_ptr(),
            batch.q_indptr.as_ptr(),
            batch.kv_indptr.as_ptr(),
            batch.kv_indices.as_ptr(),
            (batch.q_indptr.len() - 1) as u32,
            heads as u32,
            kv_heads as u32,
            d as u32,
            num_slots,
            rules.score_scale(d),
            plan.chunk,
            window,
            rules.softcap.unwrap_or(0.0),
            o,
            a,
            m,
        )
    };
    unsafe { launch(cfg, call) }.unwrap();
    if splits > 1 {
        let cfg = Launch {
            grid_dim: (rows as u32, heads as u32, 1),
            block_dim: (ATTN_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        let merge =
            || unsafe { cu::attention_merge(a, m, o, heads as u32, d as u32, plan.num_splits) };
        unsafe { launch(cfg, merge) }.unwrap();
    }
    out
}

/// The grouped or per-head kernel for the pool's dtype, run over `plan`.
fn attention(
    (shape, rules, plan): (&AttentionShape, ScoreRules, SplitPlan),
    batch: &PagedBatch,
    q: &[f32],
    (k, v): (&LayerKv, &LayerKv),
) -> Vec<f32> {
    let grouped = gqa_fits(shape.num_heads, shape.num_kv_heads, shape.head_dim);
    let how = (shape, rules, plan);
    match (k, v) {
        (LayerKv::F32(k), LayerKv::F32(v)) => {
            let f: AttentionKernel<f32> = if grouped {
                cu::attention_gqa_f32
            } else {
                cu::attention_partial_f32
            };
            emulated_attention(f, how, batch, q, (k, v))
        }
        (LayerKv::F16(k), LayerKv::F16(v)) => {
            let f: AttentionKernel<f16> = if grouped {
                cu::attention_gqa_f16
            } else {
                cu::attention_partial_f16
            };
            emulated_attention(f, how, batch, q, (k, v))
        }
        (LayerKv::Bf16(k), LayerKv::Bf16(v)) => {
            let f: AttentionKernel<bf16> = if grouped {
                cu::attention_gqa_bf16
            } else {
                cu::attention_partial_bf16
            };
            emulated_attention(f, how, batch, q, (k, v))
        }
        _ => panic!("K and V of different dtypes"),
    }
}

/// A one-layer pool of random K/V rows at every slot.
fn random_pool(
    rng: &mut Rng,
    dtype: KvDtype,
    num_slots: usize,
    shape: &AttentionShape,
) -> KvStorage {
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads: shape.num_kv_heads,
        head_dim: shape.head_dim,
        dtype,
        values_in_keys: false,
        other_rows: None,
    };
    let mut pool = KvStorage::new(layout, num_slots).unwrap();
    let all: Vec<SlotId> = (0..num_slots as SlotId).collect();
    let n = num_slots * layout.row_len();
    pool.set_kv(0, &all, &rng.f32s(n), &rng.f32s(n)).unwrap();
    pool
}

/// CSR metadata for requests of (q_len, kv_len) over random distinct slots.
fn random_batch(rng: &mut Rng, lens: &[(u32, u32)], num_slots: usize) -> [Vec<u32>; 3] {
    let (mut q_indptr, mut kv_indptr) = (vec![0u32], vec![0u32]);
    let mut kv_indices = Vec::new();
    for &(q, kv) in lens {
        q_indptr.push(q_indptr.last().unwrap() + q);
        kv_indptr.push(kv_indptr.last().unwrap() + kv);
        kv_indices.extend(
            rng.distinct(kv as usize, num_slots)
                .iter()
                .map(|&s| s as u32),
        );
    }
    [q_indptr, kv_indptr, kv_indices]
}

/// Runs the kernels over `batch` under each plan the launcher may pick (its default, one
/// split, `splits` fixed splits, `splits` per-row runs) and checks each against `want`.
fn assert_every_plan(
    (shape, rules): (&AttentionShape, ScoreRules),
    batch: &PagedBatch,
    q: &[f32],
    kv: (&LayerKv, &LayerKv),
    want: &[f32],
    (splits, what): (u32, &str),
) {
    let rows = *batch.q_indptr.last().unwrap() as usize;
    let max_vis = max_visible(batch.q_indptr, batch.kv_indptr);
    let plans = [
        split_plan(shape, rows, max_vis),
        SplitPlan::single(max_vis),
        SplitPlan::with_splits(max_vis, splits),
        SplitPlan::per_row(splits),
    ];
    for plan in plans {
        let got = attention((shape, rules, plan), batch, q, kv);
        let err = max_rel_err(&got, want);
        assert!(
            err < 2e-4,
            "{shape:?} {rules:?} {what} {plan:?}: error {err}"
        );
    }
}

#[test]
fn paged_attention_matches_the_cpu_for_decode_extend_and_split_k() {
    let mut rng = Rng(3);
    // SmolLM2's shape and an MHA shape with an odd head_dim take the grouped kernel (16-byte
    // K loads for the first; element by element for the second's f16/bf16); a group of 8
    // with head_dim 160 takes the per-head kernel.
    let shapes = [(9, 3, 64), (8, 8, 20), (16, 2, 160)].map(|(h, kv, d)| AttentionShape {
        num_heads: h,
        num_kv_heads: kv,
        head_dim: d,
    });
    assert!(gqa_fits(9, 3, 64) && gqa_fits(8, 8, 20) && !gqa_fits(16, 2, 160));
    let num_slots = 3000;
    let cases: [&[(u32, u32)]; 2] = [
        // Decode: a small batch over long contexts, where the default plan splits.
        &[(1, 1100), (1, 2049), (1, 1)],
        // Mixed: decode, empty, extend over a cached prefix, prefill spanning tiles.
        &[(1, 300), (0, 0), (5, 205), (40, 130)],
    ];
    for (shape, dtype) in shapes.iter().flat_map(|s| DTYPES.map(|d| (s, d))) {
        let pool = random_pool(&mut rng, dtype, num_slots, shape);
        let kv = pool.layer(0).unwrap();
        for lens in cases {
            let [q_indptr, kv_indptr, kv_indices] = random_batch(&mut rng, lens, num_slots);
            let kv_indices: Vec<SlotId> = kv_indices.iter().map(|&s| s as SlotId).collect();
            let batch = PagedBatch {
                q_indptr: &q_indptr,
                kv_indptr: &kv_indptr,
                kv_indices: &kv_indices,
            };
            let rows = *q_indptr.last().unwrap() as usize;
            let q = rng.f32s(rows * shape.num_heads * shape.head_dim);
            let rules = ScoreRules::default();
            let mut want = vec![0.0; q.len()];
            paged_attention_with_rules(shape, rules, &batch, &q, kv.0, kv.1, &mut want).unwrap();
            let what = format!("{dtype:?} {lens:?}");
            assert_every_plan((shape, rules), &batch, &q, kv, &want, (5, &what));
        }
    }
}

#[test]
fn windowed_and_capped_attention_matches_the_cpu_for_decode_extend_and_split_k() {
    let mut rng = Rng(31);
    // The grouped kernel (Qwen-like) and the per-head one (Gemma 3's head_dim of 256).
    let shapes = [(8, 2, 64), (4, 1, 256)].map(|(h, kv, d)| AttentionShape {
        num_heads: h,
        num_kv_heads: kv,
        head_dim: d,
    });
    assert!(gqa_fits(8, 2, 64) && !gqa_fits(4, 1, 256));
    let num_slots = 3000;
    let lens: &[(u32, u32)] = &[(1, 1500), (20, 300), (7, 7), (1, 1)];
    for shape in &shapes {
        let pool = random_pool(&mut rng, KvDtype::F16, num_slots, shape);
        let kv = pool.layer(0).unwrap();
        let [q_indptr, kv_indptr, kv_indices] = random_batch(&mut rng, lens, num_slots);
        let kv_indices: Vec<SlotId> = kv_indices.iter().map(|&s| s as SlotId).collect();
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
        let windows = [1usize, 16, 129, 1024].map(|w| ScoreRules {
            window: Some(w),
            ..ScoreRules::default()
        });
        let capped = [
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
        ];
        for rules in windows.into_iter().chain(capped) {
            let mut want = vec![0.0; q.len()];
            paged_attention_with_rules(shape, rules, &batch, &q, kv.0, kv.1, &mut want).unwrap();
            assert_every_plan((shape, rules), &batch, &q, kv, &want, (7, "f16"));
        }
    }
}

#[test]
fn slots_outside_the_pool_are_masked_not_read() {
    // A padding row's -1 and a slot past the pool score nothing: the output is the attention
    // over the valid keys alone.
    let mut rng = Rng(33);
    let shape = AttentionShape {
        num_heads: 9,
        num_kv_heads: 3,
        head_dim: 64,
    };
    let per_head = AttentionShape {
        num_heads: 16,
        num_kv_heads: 2,
        head_dim: 160,
    };
    for shape in [shape, per_head] {
        let num_slots = 400;
        let pool = random_pool(&mut rng, KvDtype::F32, num_slots, &shape);
        let kv = pool.layer(0).unwrap();
        let valid: Vec<SlotId> = rng.distinct(200, num_slots);
        let mut with_bad = valid.clone();
        with_bad.splice(50..50, [-1, num_slots as SlotId, -1]);
        let q = rng.f32s(shape.num_heads * shape.head_dim);
        let rules = ScoreRules::default();
        let mut want = vec![0.0; q.len()];
        let good = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, valid.len() as u32],
            kv_indices: &valid,
        };
        paged_attention_with_rules(&shape, rules, &good, &q, kv.0, kv.1, &mut want).unwrap();
        let kv_indptr = [0, with_bad.len() as u32];
        let bad = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &kv_indptr,
            kv_indices: &with_bad,
        };
        assert_every_plan((&shape, rules), &bad, &q, kv, &want, (3, "masked"));
    }
}

#[test]
fn a_padded_graph_decode_step_gives_the_real_rows_the_cpu_outputs() {
    // A decode step as a CUDA graph replays it (DecodeMeta, graphs.rs): 3 requests padded
    // to a bucket of 8, each padding row attending to one key of req_to_token row 0; the
    // slots gathered on the device by create_kv_indices; the per-row plan recorded for the
    // pool's longest context.
    let mut rng = Rng(35);
    let shape = AttentionShape {
        num_heads: 9,
        num_kv_heads: 3,
        head_dim: 64,
    };
    let (num_slots, table_rows, row_stride, bucket) = (3000, 6, 2048, 8);
    let pool = random_pool(&mut rng, KvDtype::F16, num_slots, &shape);
    let kv = pool.layer(0).unwrap();
    let table: Vec<SlotId> = (0..table_rows * row_stride)
        .map(|_| rng.below(num_slots) as SlotId)
        .collect();
    let (rows, kv_lens) = ([2u32, 5, 1], [1500u32, 7, 300]);
    let mut pool_rows = rows.to_vec();
    pool_rows.resize(bucket, 0);
    let mut kv_indptr = vec![0u32];
    for b in 0..bucket {
        let len = kv_lens.get(b).copied().unwrap_or(1);
        kv_indptr.push(kv_indptr[b] + len);
    }
    // Room for every row at the longest context, as DecodeMeta allocates it.
    let mut kv_indices = vec![-1 as SlotId; bucket * row_stride];
    let (t, r, i, o) = (
        table.as_ptr(),
        pool_rows.as_ptr(),
        kv_indptr.as_ptr(),
        kv_indices.as_mut_ptr(),
    );
    let gather =
        || unsafe { cu::create_kv_indices(t, row_stride as u32, r, i, std::ptr::null(), o) };
    unsafe {
        launch(
            Launch::linear(bucket as u32, kernels::cuda_index::ROW_THREADS, 0),
            gather,
        )
    }
    .unwrap();
    let q_indptr: Vec<u32> = (0..=bucket as u32).collect();
    let q = rng.f32s(bucket * shape.num_heads * shape.head_dim);
    let plan = SplitPlan::per_row(split_plan(&shape, bucket, row_stride as u32).num_splits);
    assert!(plan.num_splits > 1, "{plan:?}: the step should split");
    let padded = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let got = attention((&shape, ScoreRules::default(), plan), &padded, &q, kv);

    // The CPU over the real requests alone, their slots read from the table.
    let real = rows.len();
    let slots: Vec<SlotId> = rows
        .iter()
        .zip(kv_lens)
        .flat_map(|(&row, len)| table[row as usize * row_stride..][..len as usize].to_vec())
        .collect();
    let real_indptr = kv_indptr[..=real].to_vec();
    let batch = PagedBatch {
        q_indptr: &q_indptr[..=real],
        kv_indptr: &real_indptr,
        kv_indices: &slots,
    };
    let width = shape.num_heads * shape.head_dim;
    let mut want = vec![0.0; real * width];
    let rules = ScoreRules::default();
    paged_attention_with_rules(
        &shape,
        rules,
        &batch,
        &q[..real * width],
        kv.0,
        kv.1,
        &mut want,
    )
    .unwrap();
    let err = max_rel_err(&got[..real * width], &want);
    assert!(err < 2e-4, "{plan:?}: error {err}");
    assert!(
        got.iter().all(|v| v.is_finite()),
        "padding rows wrote no NaN"
    );
}
