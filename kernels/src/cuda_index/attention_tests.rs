//! The attention twins run as CPU loops over every block, warp and split, against the CPU
//! kernel: which request a row belongs to, how split plans cut the keys, and the online
//! softmax of `attention_partial` and `attention_gqa` with and without split-K.
use super::tests::xorshift::Rng;
use super::*;
use crate::attention::{paged_attention, AttentionShape, PagedBatch};
use pools::LayerKv;

#[test]
fn split_plans_cover_every_visible_key_exactly_once() {
    for max_vis in [0u32, 1, 127, 128, 255, 256, 257, 1000, 8192, 100_000] {
        for plan in [
            SplitPlan::single(max_vis),
            SplitPlan::with_splits(max_vis, 3),
            SplitPlan::with_splits(max_vis, 1000),
            SplitPlan::for_batch(1, 9, max_vis),
            SplitPlan::for_batch(4, 32, max_vis),
            SplitPlan::for_batch(512, 9, max_vis),
            SplitPlan::per_row(1),
            SplitPlan::per_row(7),
            SplitPlan::per_row(MAX_SPLITS),
        ] {
            assert!(plan.num_splits >= 1 && plan.num_splits <= MAX_SPLITS);
            // A per-row plan (chunk 0) covers whatever each row sees; the others cover the
            // longest row with no split wholly past it.
            if plan.chunk != 0 {
                assert!(
                    plan.num_splits as u64 * plan.chunk as u64 >= max_vis as u64,
                    "{plan:?}"
                );
                assert!(
                    ((plan.num_splits - 1) * plan.chunk) < max_vis.max(1),
                    "{plan:?}"
                );
            }
            // A request whose last query sees `vis <= max_vis` keys, with and without a
            // sliding window: the splits cover the window's keys once, in order.
            for (vis, window) in [0, 1, max_vis / 2, max_vis]
                .into_iter()
                .flat_map(|v| [u32::MAX, 1, 100, 300].map(|w| (v, w)))
            {
                let q_indptr = [0u32, 1];
                let kv_indptr = [0u32, vis.max(1)];
                let first = vis.max(1).saturating_sub(window) as usize;
                let mut next = first;
                for split in 0..plan.num_splits {
                    let blk = attention_block(
                        &q_indptr,
                        &kv_indptr,
                        (4, 2),
                        (plan.chunk, window, plan.num_splits),
                        (0, 3, split),
                    );
                    assert_eq!(blk.kv_head, 1);
                    assert!(blk.key_lo <= blk.key_hi);
                    if blk.key_lo < blk.key_hi {
                        assert_eq!(blk.key_lo, next, "{plan:?} window {window}");
                        next = blk.key_hi;
                    }
                }
                assert_eq!(next, vis.max(1) as usize);
            }
        }
    }
    // A per-row plan spreads each row's own keys: 2,000 keys over 8 splits of 256, 100 keys
    // in the first split alone.
    let spans = |vis: u32| -> Vec<(usize, usize)> {
        (0..8)
            .map(|split| {
                let blk =
                    attention_block(&[0, 1], &[0, vis], (4, 2), (0, u32::MAX, 8), (0, 0, split));
                (blk.key_lo, blk.key_hi)
            })
            .filter(|(lo, hi)| lo < hi)
            .collect()
    };
    assert_eq!(spans(2000).len(), 8);
    assert_eq!(spans(2000)[0], (0, 256));
    assert_eq!(spans(2000)[7], (1792, 2000));
    assert_eq!(spans(100), vec![(0, 100)]);
    assert_eq!(row_chunk(300, 5000, 8), 300);
    // Small decode batches split; big batches and short contexts do not.
    assert!(SplitPlan::for_batch(2, 9, 8192).num_splits > 1);
    assert_eq!(SplitPlan::for_batch(64, 9, 8192).num_splits, 1);
    assert_eq!(SplitPlan::for_batch(2, 9, 200).num_splits, 1);
}

/// The twins above restate these lines of the CUDA sources; a change to one of them must
/// come with the matching change here (and the tests then check it).
#[test]
fn find_request_skips_empty_requests() {
    let q_indptr = [0u32, 2, 2, 3, 3, 7];
    let owners: Vec<usize> = (0..7).map(|r| find_request(&q_indptr, r)).collect();
    assert_eq!(owners, vec![0, 0, 2, 4, 4, 4, 4]);
    assert_eq!(find_request(&[0, 5], 4), 0);
}

/// One online-softmax state over keys: running max, sum and unnormalized output.
struct SoftmaxState {
    m: f32,
    l: f32,
    acc: Vec<f32>,
}

/// K and V rows of one layer as the twins read them.
struct KvRows<'a> {
    k: &'a [f32],
    v: &'a [f32],
    kv_row: usize,
    /// Offset of the KV head in a row.
    off: usize,
}

impl SoftmaxState {
    fn new(d: usize) -> Self {
        Self {
            m: f32::NEG_INFINITY,
            l: 0.0,
            acc: vec![0.0; d],
        }
    }

    /// One tile of keys (`None`: masked) against the pre-scaled query `qv`, as one step of
    /// the kernels' online softmax.
    fn absorb(&mut self, qv: &[f32], slots: &[Option<usize>], kv: &KvRows<'_>) {
        let (d, row, off) = (qv.len(), kv.kv_row, kv.off);
        let scores: Vec<f32> = slots
            .iter()
            .map(|s| {
                s.map_or(f32::NEG_INFINITY, |s| {
                    (0..d).map(|i| qv[i] * kv.k[s * row + off + i]).sum()
                })
            })
            .collect();
        let m_new = scores.iter().fold(self.m, |a, &b| a.max(b));
        if m_new == f32::NEG_INFINITY {
            return;
        }
        let p: Vec<f32> = scores
            .iter()
            .map(|&s| {
                if s == f32::NEG_INFINITY {
                    0.0
                } else {
                    (s - m_new).exp()
                }
            })
            .collect();
        let corr = (self.m - m_new).exp();
        self.l = self.l * corr + p.iter().sum::<f32>();
        for (i, a) in self.acc.iter_mut().enumerate() {
            *a *= corr;
            for (t, s) in slots.iter().enumerate() {
                if let Some(s) = s {
                    *a += p[t] * kv.v[s * row + off + i];
                }
            }
        }
        self.m = m_new;
    }
}

/// The slots of keys `first..first + n` of a block (`None` outside the pool: masked).
fn tile_slots(
    batch: &PagedBatch<'_>,
    kv_lo: usize,
    first: usize,
    n: usize,
    num_slots: usize,
) -> Vec<Option<usize>> {
    (0..n)
        .map(|t| {
            let s = batch.kv_indices[kv_lo + first + t];
            (s >= 0 && (s as usize) < num_slots).then_some(s as usize)
        })
        .collect()
}

/// Merges the splits' partial states of every (row, head) into `out` (`attention_merge`).
fn merge_splits(
    part_ml: &[(f32, f32)],
    part_acc: &[f32],
    out: &mut [f32],
    d: usize,
    splits: usize,
) {
    for (o, row_head) in out.chunks_exact_mut(d).zip(0..) {
        let first = row_head * splits;
        merge_partials(
            &part_ml[first..first + splits],
            &part_acc[first * d..(first + splits) * d],
            o,
        );
    }
}

/// Runs `attention_partial` and `attention_merge` block by block on the CPU: the twins'
/// indices, tiles of `ATTN_THREADS` keys and the kernel's online softmax.
fn simulate_attention(
    shape: &AttentionShape,
    window: u32,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    plan: SplitPlan,
) -> Vec<f32> {
    let (heads, d) = (shape.num_heads, shape.head_dim);
    let kv_row = shape.num_kv_heads * d;
    let num_slots = k.len() / kv_row;
    let rows = *batch.q_indptr.last().unwrap() as usize;
    let splits = plan.num_splits as usize;
    let scale = 1.0 / (d as f32).sqrt();
    let mut part_acc = vec![0.0f32; rows * heads * splits * d];
    let mut part_ml = vec![(0.0f32, 0.0f32); rows * heads * splits];
    let mut out = vec![0.0f32; rows * heads * d];
    for row in 0..rows {
        for head in 0..heads {
            for split in 0..splits {
                let blk = attention_block(
                    batch.q_indptr,
                    batch.kv_indptr,
                    (heads as u32, shape.num_kv_heads as u32),
                    (plan.chunk, window, plan.num_splits),
                    (row as u32, head as u32, split as u32),
                );
                let qv: Vec<f32> = q[(row * heads + head) * d..][..d]
                    .iter()
                    .map(|x| x * scale)
                    .collect();
                let kv = KvRows {
                    k,
                    v,
                    kv_row,
                    off: blk.kv_head * d,
                };
                let mut st = SoftmaxState::new(d);
                for tile in (blk.key_lo..blk.key_hi).step_by(ATTN_THREADS as usize) {
                    let n = (ATTN_THREADS as usize).min(blk.key_hi - tile);
                    st.absorb(&qv, &tile_slots(batch, blk.kv_lo, tile, n, num_slots), &kv);
                }
                if splits == 1 {
                    let inv = if st.l > 0.0 { 1.0 / st.l } else { 0.0 };
                    for (o, a) in out[(row * heads + head) * d..][..d].iter_mut().zip(&st.acc) {
                        *o = a * inv;
                    }
                } else {
                    let p = part_index(row, head, split, heads, splits);
                    part_acc[p * d..][..d].copy_from_slice(&st.acc);
                    part_ml[p] = (st.m, st.l);
                }
            }
        }
    }
    if splits > 1 {
        merge_splits(&part_ml, &part_acc, &mut out, d, splits);
    }
    out
}

/// Runs `attention_gqa` (and `attention_merge`) block by block and warp by warp on the CPU:
/// the twins' indices, each warp's 32-key tiles, the per-warp online softmax and the merge of
/// the warps' states.
fn simulate_gqa_attention(
    shape: &AttentionShape,
    window: u32,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    plan: SplitPlan,
) -> Vec<f32> {
    let (heads, kv_heads, d) = (shape.num_heads, shape.num_kv_heads, shape.head_dim);
    assert!(gqa_fits(heads, kv_heads, d));
    let group = heads / kv_heads;
    let kv_row = kv_heads * d;
    let num_slots = k.len() / kv_row;
    let rows = *batch.q_indptr.last().unwrap() as usize;
    let splits = plan.num_splits as usize;
    let scale = 1.0 / (d as f32).sqrt();
    let mut part_acc = vec![0.0f32; rows * heads * splits * d];
    let mut part_ml = vec![(0.0f32, 0.0f32); rows * heads * splits];
    let mut out = vec![0.0f32; rows * heads * d];
    for row in 0..rows {
        for kv_head in 0..kv_heads {
            let head0 = kv_head * group;
            let qvs: Vec<Vec<f32>> = (0..group)
                .map(|g| {
                    q[(row * heads + head0 + g) * d..][..d]
                        .iter()
                        .map(|x| x * scale)
                        .collect()
                })
                .collect();
            for split in 0..splits {
                let blk = attention_block(
                    batch.q_indptr,
                    batch.kv_indptr,
                    (heads as u32, kv_heads as u32),
                    (plan.chunk, window, plan.num_splits),
                    (row as u32, head0 as u32, split as u32),
                );
                assert_eq!(blk.kv_head, kv_head);
                let kv = KvRows {
                    k,
                    v,
                    kv_row,
                    off: kv_head * d,
                };
                // warps[w][g]
                let warps: Vec<Vec<SoftmaxState>> = (0..GQA_WARPS)
                    .map(|warp| {
                        let mut states: Vec<SoftmaxState> =
                            (0..group).map(|_| SoftmaxState::new(d)).collect();
                        for (tile, n) in gqa_warp_tiles(blk.key_lo, blk.key_hi, warp) {
                            let slots = tile_slots(batch, blk.kv_lo, tile, n, num_slots);
                            for (st, qv) in states.iter_mut().zip(&qvs) {
                                st.absorb(qv, &slots, &kv);
                            }
                        }
                        states
                    })
                    .collect();
                for g in 0..group {
                    let ml: Vec<(f32, f32)> = warps.iter().map(|w| (w[g].m, w[g].l)).collect();
                    let acc: Vec<f32> = warps.iter().flat_map(|w| w[g].acc.clone()).collect();
                    let head = head0 + g;
                    if splits == 1 {
                        merge_partials(&ml, &acc, &mut out[(row * heads + head) * d..][..d]);
                    } else {
                        let p = part_index(row, head, split, heads, splits);
                        part_ml[p] = combine_states(&ml, &acc, &mut part_acc[p * d..][..d]);
                    }
                }
            }
        }
    }
    if splits > 1 {
        merge_splits(&part_ml, &part_acc, &mut out, d, splits);
    }
    out
}

/// CSR metadata for requests of `q_lens` queries over `kv_lens` keys in distinct random slots.
fn csr(
    rng: &mut Rng,
    q_lens: &[u32],
    kv_lens: &[u32],
    num_slots: usize,
) -> (Vec<u32>, Vec<u32>, Vec<SlotId>) {
    let mut q_indptr = vec![0u32];
    let mut kv_indptr = vec![0u32];
    for (ql, kl) in q_lens.iter().zip(kv_lens) {
        q_indptr.push(q_indptr.last().unwrap() + ql);
        kv_indptr.push(kv_indptr.last().unwrap() + kl);
    }
    let kv_indices = rng.distinct(*kv_indptr.last().unwrap() as usize, num_slots);
    (q_indptr, kv_indptr, kv_indices)
}

#[test]
fn gqa_warp_tiles_cover_a_block_range_once() {
    for (lo, hi) in [
        (0usize, 0usize),
        (0, 1),
        (5, 37),
        (0, 128),
        (100, 1000),
        (256, 513),
    ] {
        let mut hits = vec![0u8; hi];
        for warp in 0..GQA_WARPS {
            for (tile, n) in gqa_warp_tiles(lo, hi, warp) {
                assert!((1..=32).contains(&n));
                for h in &mut hits[tile..tile + n] {
                    *h += 1;
                }
            }
        }
        assert!(hits[..lo].iter().all(|&h| h == 0));
        assert!(hits[lo..].iter().all(|&h| h == 1), "{lo}..{hi}");
    }
}

#[test]
fn simulated_attention_matches_the_cpu_kernel_with_and_without_split_k() {
    let mut rng = Rng(21);
    let shape = AttentionShape {
        num_heads: 6,
        num_kv_heads: 2,
        head_dim: 8,
    };
    let (num_slots, kv_row) = (1200, 16);
    let (k, v) = (rng.f32s(num_slots * kv_row), rng.f32s(num_slots * kv_row));
    // A decode row over 700 keys, an empty request, an extend of 5 over a prefix of 300,
    // and a prefill of 3.
    let q_lens = [1u32, 0, 5, 3];
    let kv_lens = [700u32, 0, 305, 3];
    let (q_indptr, kv_indptr, kv_indices) = csr(&mut rng, &q_lens, &kv_lens, num_slots);
    let batch = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let rows = *q_indptr.last().unwrap() as usize;
    let q = rng.f32s(rows * 48);
    let mut want = vec![0.0; q.len()];
    let (kc, vc) = (LayerKv::F32(k.clone()), LayerKv::F32(v.clone()));
    paged_attention(&shape, &batch, &q, &kc, &vc, &mut want).unwrap();
    let max_vis = max_visible(&q_indptr, &kv_indptr);
    assert_eq!(max_vis, 700);
    for plan in [
        SplitPlan::single(max_vis),
        SplitPlan::with_splits(max_vis, 3),
        SplitPlan::with_splits(max_vis, 64),
        SplitPlan::for_batch(rows, shape.num_heads, max_vis),
        SplitPlan::for_batch(rows, shape.num_kv_heads, max_vis),
    ] {
        let per_head = simulate_attention(&shape, u32::MAX, &batch, &q, &k, &v, plan);
        let grouped = simulate_gqa_attention(&shape, u32::MAX, &batch, &q, &k, &v, plan);
        for (got, kernel) in [(per_head, "attention_partial"), (grouped, "attention_gqa")] {
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() < 1e-5, "{kernel} {plan:?}: {g} vs {w}");
            }
        }
    }
}

#[test]
fn simulated_windowed_attention_matches_the_cpu_kernel_with_and_without_split_k() {
    let mut rng = Rng(22);
    let shape = AttentionShape {
        num_heads: 4,
        num_kv_heads: 2,
        head_dim: 8,
    };
    let (num_slots, kv_row) = (1500, 16);
    let (k, v) = (rng.f32s(num_slots * kv_row), rng.f32s(num_slots * kv_row));
    // A decode row over 900 keys, an extend of 40 over a prefix of 260 (its rows' windows
    // start at different keys), and a prefill of 7 shorter than the window.
    let q_lens = [1u32, 40, 7];
    let kv_lens = [900u32, 300, 7];
    let (q_indptr, kv_indptr, kv_indices) = csr(&mut rng, &q_lens, &kv_lens, num_slots);
    let batch = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let rows = *q_indptr.last().unwrap() as usize;
    let q = rng.f32s(rows * 32);
    let (kc, vc) = (LayerKv::F32(k.clone()), LayerKv::F32(v.clone()));
    let max_vis = max_visible(&q_indptr, &kv_indptr);
    for window in [1usize, 30, 129, 512] {
        let mut want = vec![0.0; q.len()];
        crate::attention::paged_attention_windowed(
            &shape,
            Some(window),
            &batch,
            &q,
            &kc,
            &vc,
            &mut want,
        )
        .unwrap();
        for plan in [
            SplitPlan::single(max_vis),
            SplitPlan::with_splits(max_vis, 4),
            SplitPlan::for_batch(rows, shape.num_kv_heads, max_vis),
        ] {
            let w = window as u32;
            let per_head = simulate_attention(&shape, w, &batch, &q, &k, &v, plan);
            let grouped = simulate_gqa_attention(&shape, w, &batch, &q, &k, &v, plan);
            for (got, kernel) in [(per_head, "attention_partial"), (grouped, "attention_gqa")] {
                for (g, want) in got.iter().zip(&want) {
                    assert!(
                        (g - want).abs() < 1e-5,
                        "{kernel} window {window} {plan:?}: {g} vs {want}"
                    );
                }
            }
        }
    }
}
