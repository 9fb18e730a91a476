//! Paged attention on the CPU over FlashInfer's CSR layout: the queries of request `b` are
//! rows `q_indptr[b]..q_indptr[b+1]`, its keys and values are the pool slots
//! `kv_indices[kv_indptr[b]..kv_indptr[b+1]]` in position order. Query `i` of a request with
//! `q_len` queries and `kv_len` keys sees the first `kv_len - (q_len - 1 - i)` keys (causal,
//! aligned at the end), so one kernel serves extend, decode and mixed batches. With a sliding
//! window of `w`, a query sees only the last `w` of those keys (itself included), as in
//! llama.cpp's standard SWA mask.
//!
//! Every query's result is computed by the same sequence of operations whatever else is in
//! the batch (key tiles at fixed offsets, an online softmax with fixed-order sums, values
//! accumulated in key order; see `tile`): a request gives bitwise the same output alone or
//! batched, and a query the same output in a prefill chunk of any size. On AVX-512 CPUs
//! `tile_avx512` computes the scores with the same additions in a faster order of work.

mod tile;
#[cfg(target_arch = "x86_64")]
mod tile_avx512;

use crate::vector::exp_approx;
use crate::KernelError;
use half::{bf16, f16};
use pools::{LayerKv, SlotId};
use rayon::prelude::*;
use std::ops::Range;
use tile::{Block, Partial};

/// Head layout of the attention layer (grouped-query when `num_kv_heads < num_heads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionShape {
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
}

impl AttentionShape {
    fn q_row(&self) -> usize {
        self.num_heads * self.head_dim
    }

    fn kv_row(&self) -> usize {
        self.num_kv_heads * self.head_dim
    }
}

/// The batch's CSR metadata.
#[derive(Clone, Copy, Debug)]
pub struct PagedBatch<'a> {
    pub q_indptr: &'a [u32],
    pub kv_indptr: &'a [u32],
    pub kv_indices: &'a [SlotId],
}

/// Queries handled together: each K/V row is read once per block instead of once per query.
const QUERY_BLOCK: usize = 16;
/// Keys per split: a row's keys are processed in ranges of this many, each range a separate
/// task (so one long request's decode uses every core), then merged. Fixed, so a row's
/// result never depends on what else is in the batch.
const SPLIT_KEYS: usize = 1024;
const _: () = assert!(SPLIT_KEYS.is_multiple_of(tile::KEY_TILE));
/// The most keys a one-query task may have to be split over its K/V heads (see below).
const SPLIT_HEADS_MAX_KEYS: usize = 512;

#[derive(Clone)]
struct Task {
    request: usize,
    /// Query rows `first..last` of the batch.
    first: usize,
    last: usize,
    /// Key range `keys_from..keys_from + SPLIT_KEYS`.
    keys_from: usize,
    /// The K/V heads computed (all, but for the pieces of a split one-query task).
    kv_heads: Range<usize>,
}

/// `out[t] = softmax(q[t] K^T / sqrt(d)) V` for every query row `t` (`[tokens, heads * d]`).
pub fn paged_attention(
    shape: &AttentionShape,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    v_cache: &LayerKv,
    out: &mut [f32],
) -> Result<(), KernelError> {
    paged_attention_windowed(shape, None, batch, q, k_cache, v_cache, out)
}

/// [`paged_attention`] where each query sees at most its last `window` keys. Keys outside the
/// window add exact zeros (or are skipped whole), so a row's result is bitwise that of the
/// same row in any other batch.
pub fn paged_attention_windowed(
    shape: &AttentionShape,
    window: Option<usize>,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    v_cache: &LayerKv,
    out: &mut [f32],
) -> Result<(), KernelError> {
    validate(shape, batch, q, k_cache, out)?;
    if window == Some(0) {
        return Err(KernelError::Shape(
            "paged_attention: a sliding window of 0 keys".into(),
        ));
    }
    let window = window.unwrap_or(usize::MAX);
    let kv = KvPair::new(k_cache, v_cache)?;
    let (q_row, heads) = (shape.q_row(), shape.num_heads);
    // Tasks in order of query block, then key range: each block's tasks are consecutive.
    let mut tasks = Vec::new();
    for b in 0..batch.q_indptr.len() - 1 {
        let (lo, hi) = (batch.q_indptr[b] as usize, batch.q_indptr[b + 1] as usize);
        let kv_len = (batch.kv_indptr[b + 1] - batch.kv_indptr[b]) as usize;
        let mut first = lo;
        while first < hi {
            let last = (first + QUERY_BLOCK).min(hi);
            // The block's last query sees the most keys, its first the earliest one.
            let max_visible = kv_len - (hi - last);
            let min_from = (kv_len - (hi - first) + 1).saturating_sub(window);
            for split in min_from / SPLIT_KEYS..max_visible.div_ceil(SPLIT_KEYS) {
                tasks.push(Task {
                    request: b,
                    first,
                    last,
                    keys_from: split * SPLIT_KEYS,
                    kv_heads: 0..shape.num_kv_heads,
                });
            }
            first = last;
        }
    }
    let rows_of = |t: &Task| t.last - t.first;
    let total_rows: usize = tasks.iter().map(rows_of).sum();
    let mut acc = vec![0.0f32; total_rows * q_row];
    let mut max = vec![0.0f32; total_rows * heads];
    let mut sum = vec![0.0f32; total_rows * heads];
    let mut partials = Vec::with_capacity(tasks.len());
    let (mut acc_rest, mut max_rest, mut sum_rest) = (&mut acc[..], &mut max[..], &mut sum[..]);
    for t in &tasks {
        let rows = rows_of(t);
        let (a, a_tail) = acc_rest.split_at_mut(rows * q_row);
        let (m, m_tail) = max_rest.split_at_mut(rows * heads);
        let (s, s_tail) = sum_rest.split_at_mut(rows * heads);
        partials.push(Partial {
            acc: a,
            max: m,
            sum: s,
        });
        (acc_rest, max_rest, sum_rest) = (a_tail, m_tail, s_tail);
    }
    // Few tasks leave threads idle (one request decoding): a one-query task over few keys
    // then runs as one piece per K/V head. Each head's rows are computed alone either way, so
    // the split changes no result. Over many keys it would not pay: a piece reads one head's
    // part of each K/V row, and the prefetchers bring the whole rows in for every piece.
    let split_heads = tasks.len() < 2 * rayon::current_num_threads() && shape.num_kv_heads > 1;
    let group = shape.num_heads / shape.num_kv_heads;
    let keys_of = |t: &Task| {
        let b = t.request;
        (batch.kv_indptr[b + 1] - batch.kv_indptr[b]) as usize - t.keys_from
    };
    let mut pieces = Vec::with_capacity(tasks.len());
    for (task, partial) in tasks.iter().zip(partials) {
        if !(split_heads && rows_of(task) == 1 && keys_of(task) <= SPLIT_HEADS_MAX_KEYS) {
            pieces.push((task.clone(), partial));
            continue;
        }
        let d = shape.head_dim;
        let Partial { acc, max, sum } = partial;
        let heads = acc
            .chunks_mut(group * d)
            .zip(max.chunks_mut(group).zip(sum.chunks_mut(group)));
        for (g, (acc, (max, sum))) in heads.enumerate() {
            let piece = Task {
                kv_heads: g..g + 1,
                ..task.clone()
            };
            pieces.push((piece, Partial { acc, max, sum }));
        }
    }
    pieces
        .into_par_iter()
        .for_each(|(task, partial)| attend_block(shape, window, batch, &task, q, kv, partial));

    // Merge each block's key ranges, in order, into its rows of `out`.
    let mut blocks = Vec::new();
    let (mut task_at, mut row_at) = (0, 0);
    let mut out_rest = out;
    while task_at < tasks.len() {
        let t = &tasks[task_at];
        let splits = tasks[task_at..]
            .iter()
            .take_while(|u| u.request == t.request && u.first == t.first)
            .count();
        let rows = rows_of(t);
        let (dst, tail) = out_rest.split_at_mut(rows * q_row);
        out_rest = tail;
        blocks.push((row_at, rows, splits, dst));
        task_at += splits;
        row_at += rows * splits;
    }
    let (acc, max, sum) = (&acc[..], &max[..], &sum[..]);
    blocks
        .into_par_iter()
        .for_each(|(row_at, rows, splits, dst)| {
            let states = MergeInput {
                acc,
                max,
                sum,
                first_row: row_at,
                rows,
                splits,
            };
            merge_splits(shape, &states, dst);
        });
    Ok(())
}

/// The partial states of one query block: `splits` key ranges of `rows` rows each, stored
/// from row `first_row` of the partial buffers.
struct MergeInput<'a> {
    acc: &'a [f32],
    max: &'a [f32],
    sum: &'a [f32],
    first_row: usize,
    rows: usize,
    splits: usize,
}

/// `out = sum_s acc_s e^(m_s - M) / sum_s l_s e^(m_s - M)` per row and head, over the key
/// ranges in order (`M` the largest `m_s`). With one range the factor is exactly 1, so the
/// result is `acc / l`, bitwise.
fn merge_splits(shape: &AttentionShape, input: &MergeInput<'_>, out: &mut [f32]) {
    let (heads, d) = (shape.num_heads, shape.head_dim);
    for r in 0..input.rows {
        for h in 0..heads {
            let state = |s: usize| (input.first_row + s * input.rows + r) * heads + h;
            let top = (0..input.splits)
                .map(|s| input.max[state(s)])
                .fold(f32::NEG_INFINITY, f32::max);
            let dst = &mut out[(r * heads + h) * d..][..d];
            dst.fill(0.0);
            let mut total = 0.0f32;
            for s in 0..input.splits {
                let factor = exp_approx(input.max[state(s)] - top);
                total += input.sum[state(s)] * factor;
                let src = &input.acc[state(s) * d..][..d];
                dst.iter_mut().zip(src).for_each(|(o, &a)| *o += a * factor);
            }
            let inv = 1.0 / total;
            dst.iter_mut().for_each(|o| *o *= inv);
        }
    }
}

fn validate(
    shape: &AttentionShape,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    out: &[f32],
) -> Result<(), KernelError> {
    let bad = |m: String| Err(KernelError::Shape(format!("paged_attention: {m}")));
    if shape.num_kv_heads == 0
        || shape.head_dim == 0
        || !shape.num_heads.is_multiple_of(shape.num_kv_heads)
    {
        return bad(format!("{shape:?}"));
    }
    let n = batch.q_indptr.len();
    if n == 0 || batch.kv_indptr.len() != n {
        return bad(format!(
            "q_indptr {n} vs kv_indptr {} entries",
            batch.kv_indptr.len()
        ));
    }
    let tokens = batch.q_indptr[n - 1] as usize;
    if q.len() != tokens * shape.q_row() || out.len() != q.len() {
        return bad(format!(
            "{tokens} queries but q {} / out {} values",
            q.len(),
            out.len()
        ));
    }
    if batch.kv_indptr[n - 1] as usize != batch.kv_indices.len() {
        return bad("kv_indptr does not end at kv_indices.len()".into());
    }
    for b in 0..n - 1 {
        let q_len = batch.q_indptr[b + 1].checked_sub(batch.q_indptr[b]);
        let kv_len = batch.kv_indptr[b + 1].checked_sub(batch.kv_indptr[b]);
        match (q_len, kv_len) {
            (Some(ql), Some(kl)) if ql <= kl => {}
            _ => {
                return bad(format!(
                    "request {b}: query/KV ranges not monotone or q_len > kv_len"
                ))
            }
        }
    }
    let slots = cache_slots(k_cache, shape.kv_row());
    if let Some(s) = batch
        .kv_indices
        .iter()
        .find(|&&s| s < 0 || s as usize >= slots)
    {
        return bad(format!("kv index {s} outside the pool of {slots} slots"));
    }
    Ok(())
}

fn cache_slots(cache: &LayerKv, row: usize) -> usize {
    let len = match cache {
        LayerKv::F32(b) => b.len(),
        LayerKv::F16(b) => b.len(),
        LayerKv::Bf16(b) => b.len(),
    };
    len / row
}

/// Runs one task: its query rows over its range of the request's visible keys, for its
/// K/V heads.
fn attend_block(
    shape: &AttentionShape,
    window: usize,
    batch: &PagedBatch<'_>,
    task: &Task,
    q: &[f32],
    kv: KvPair<'_>,
    out: Partial<'_>,
) {
    let b = task.request;
    let q_start = batch.q_indptr[b] as usize;
    let q_len = batch.q_indptr[b + 1] as usize - q_start;
    let keys = &batch.kv_indices[batch.kv_indptr[b] as usize..batch.kv_indptr[b + 1] as usize];
    // Keys visible to each query of the block (causal, aligned at the end).
    let visible: Vec<usize> = (task.first..task.last)
        .map(|t| keys.len() - (q_len - 1 - (t - q_start)))
        .collect();
    let from: Vec<usize> = visible.iter().map(|v| v.saturating_sub(window)).collect();
    let q_row = shape.q_row();
    let block = Block {
        num_heads: shape.num_heads,
        num_kv_heads: shape.num_kv_heads,
        head_dim: shape.head_dim,
        queries: &q[task.first * q_row..task.last * q_row],
        visible: &visible,
        from: &from,
        kv: keys,
        keys_from: task.keys_from,
        keys_to: task.keys_from + SPLIT_KEYS,
        kv_heads: task.kv_heads.clone(),
    };
    match kv {
        KvPair::F32(k, v) => tile::attend_f32(&block, k, v, out),
        KvPair::F16(k, v) => tile::attend_f16(&block, k, v, out),
        KvPair::Bf16(k, v) => tile::attend_bf16(&block, k, v, out),
    }
}

/// K and V buffers of one dtype.
#[derive(Clone, Copy)]
enum KvPair<'a> {
    F32(&'a [f32], &'a [f32]),
    F16(&'a [f16], &'a [f16]),
    Bf16(&'a [bf16], &'a [bf16]),
}

impl<'a> KvPair<'a> {
    fn new(k: &'a LayerKv, v: &'a LayerKv) -> Result<Self, KernelError> {
        let pair = match (k, v) {
            (LayerKv::F32(k), LayerKv::F32(v)) if k.len() == v.len() => KvPair::F32(k, v),
            (LayerKv::F16(k), LayerKv::F16(v)) if k.len() == v.len() => KvPair::F16(k, v),
            (LayerKv::Bf16(k), LayerKv::Bf16(v)) if k.len() == v.len() => KvPair::Bf16(k, v),
            _ => {
                return Err(KernelError::Shape(
                    "paged_attention: K and V buffers differ in dtype or size".into(),
                ))
            }
        };
        Ok(pair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Straightforward reference: dense causal attention over one request's gathered K/V.
    fn reference(
        shape: &AttentionShape,
        q: &[f32],
        k: &[Vec<f32>],
        v: &[Vec<f32>],
        q_len: usize,
    ) -> Vec<f32> {
        reference_windowed(shape, usize::MAX, q, k, v, q_len)
    }

    /// The dense reference where each query sees its last `window` keys.
    fn reference_windowed(
        shape: &AttentionShape,
        window: usize,
        q: &[f32],
        k: &[Vec<f32>],
        v: &[Vec<f32>],
        q_len: usize,
    ) -> Vec<f32> {
        let (h, d) = (shape.num_heads, shape.head_dim);
        let group = h / shape.num_kv_heads;
        let mut out = vec![0.0f32; q_len * h * d];
        for i in 0..q_len {
            let vis = k.len() - (q_len - 1 - i);
            let from = vis.saturating_sub(window);
            for head in 0..h {
                let g = head / group;
                let qv = &q[(i * h + head) * d..][..d];
                let s: Vec<f64> = (from..vis)
                    .map(|j| {
                        qv.iter()
                            .zip(&k[j][g * d..][..d])
                            .map(|(a, b)| *a as f64 * *b as f64)
                            .sum::<f64>()
                            / (d as f64).sqrt()
                    })
                    .collect();
                let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = s.iter().map(|x| (x - m).exp()).collect();
                let z: f64 = e.iter().sum();
                for (j, ej) in (from..vis).zip(&e) {
                    for t in 0..d {
                        out[(i * h + head) * d + t] += (ej / z * v[j][g * d + t] as f64) as f32;
                    }
                }
            }
        }
        out
    }

    /// The rows of `buf` (`kv_row` values each) at `slots`, for the dense reference.
    fn gather_rows(slots: &[SlotId], buf: &[f32], kv_row: usize) -> Vec<Vec<f32>> {
        slots
            .iter()
            .map(|&s| buf[s as usize * kv_row..][..kv_row].to_vec())
            .collect()
    }

    pub(super) fn pseudo(seed: u32, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| {
                (((i as u32).wrapping_mul(2654435761) ^ seed.wrapping_mul(40503)) % 2000) as f32
                    / 1000.0
                    - 1.0
            })
            .collect()
    }

    #[test]
    fn extend_and_decode_match_the_dense_reference_and_each_other() {
        let shape = AttentionShape {
            num_heads: 6,
            num_kv_heads: 2,
            head_dim: 8,
        };
        let kv_row = 16;
        let slots = 64;
        let kbuf = pseudo(1, slots * kv_row);
        let vbuf = pseudo(2, slots * kv_row);
        let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
        // Request 0: 20 keys at scattered slots, 20 queries (a full prefill spanning 2 blocks);
        // request 1: 5 keys, 2 queries (extend over a cached prefix of 3).
        let kv0: Vec<SlotId> = (0..20).map(|i| (i * 3 + 1) % 64).collect();
        let kv1: Vec<SlotId> = vec![40, 2, 33, 7, 50];
        let q = pseudo(3, 22 * 48);
        let mut kv_indices = kv0.clone();
        kv_indices.extend(&kv1);
        let batch = PagedBatch {
            q_indptr: &[0, 20, 22],
            kv_indptr: &[0, 20, 25],
            kv_indices: &kv_indices,
        };
        let mut out = vec![0.0; q.len()];
        paged_attention(&shape, &batch, &q, &kc, &vc, &mut out).unwrap();
        let rows = |idx: &[SlotId], buf: &[f32]| gather_rows(idx, buf, kv_row);
        let want0 = reference(
            &shape,
            &q[..20 * 48],
            &rows(&kv0, &kbuf),
            &rows(&kv0, &vbuf),
            20,
        );
        let want1 = reference(
            &shape,
            &q[20 * 48..],
            &rows(&kv1, &kbuf),
            &rows(&kv1, &vbuf),
            2,
        );
        for (got, want) in out.iter().zip(want0.iter().chain(&want1)) {
            assert!((got - want).abs() < 1e-5, "{got} vs {want}");
        }
        // The last query of request 0, alone as a decode step, is bitwise the same.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, 20],
            kv_indices: &kv0,
        };
        let mut one = vec![0.0; 48];
        paged_attention(&shape, &solo, &q[19 * 48..20 * 48], &kc, &vc, &mut one).unwrap();
        assert_eq!(one, out[19 * 48..20 * 48]);
    }

    #[test]
    fn sliding_windows_match_the_dense_reference_and_are_batch_invariant() {
        // 2,500 keys: three key splits, the window (700) inside one, across one boundary, or
        // past the first split entirely; head sizes with a fixed and a run-time path.
        for (head_dim, window) in [
            (64, 700),
            (64, 13),
            (24, 700),
            (24, 1),
            (128, 5000),
            (256, 30),
        ] {
            let shape = AttentionShape {
                num_heads: 4,
                num_kv_heads: 2,
                head_dim,
            };
            let (kv_row, q_row, keys, q_len) = (2 * head_dim, 4 * head_dim, 2500, 40);
            let kbuf = pseudo(11, keys * kv_row);
            let vbuf = pseudo(12, keys * kv_row);
            let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
            let slots: Vec<SlotId> = (0..keys as SlotId).rev().collect();
            let q = pseudo(13, q_len * q_row);
            let batch = PagedBatch {
                q_indptr: &[0, q_len as u32],
                kv_indptr: &[0, keys as u32],
                kv_indices: &slots,
            };
            let mut out = vec![0.0; q.len()];
            paged_attention_windowed(&shape, Some(window), &batch, &q, &kc, &vc, &mut out).unwrap();
            let rows = |buf: &[f32]| gather_rows(&slots, buf, kv_row);
            let want = reference_windowed(&shape, window, &q, &rows(&kbuf), &rows(&vbuf), q_len);
            for (got, want) in out.iter().zip(&want) {
                assert!(
                    (got - want).abs() < 1e-4,
                    "d {head_dim} w {window}: {got} vs {want}"
                );
            }
            // The last query alone (a decode step) gives bitwise the same row.
            let solo = PagedBatch {
                q_indptr: &[0, 1],
                kv_indptr: &[0, keys as u32],
                kv_indices: &slots,
            };
            let mut one = vec![0.0; q_row];
            let last = &q[(q_len - 1) * q_row..];
            paged_attention_windowed(&shape, Some(window), &solo, last, &kc, &vc, &mut one)
                .unwrap();
            assert_eq!(one, out[(q_len - 1) * q_row..]);
        }
        let err = paged_attention_windowed(
            &AttentionShape {
                num_heads: 1,
                num_kv_heads: 1,
                head_dim: 8,
            },
            Some(0),
            &PagedBatch {
                q_indptr: &[0, 1],
                kv_indptr: &[0, 1],
                kv_indices: &[0],
            },
            &[0.0; 8],
            &LayerKv::F32(vec![0.0; 8]),
            &LayerKv::F32(vec![0.0; 8]),
            &mut [0.0; 8],
        );
        assert!(err.is_err());
    }

    #[test]
    fn long_contexts_in_every_dtype_match_the_reference_across_key_tiles() {
        // 9 heads over 3 K/V heads of 64 (SmolLM2's layer), 300 keys: 5 key tiles, the last
        // partial; 40 queries in 3 blocks of an extend over a cached prefix of 260.
        let shape = AttentionShape {
            num_heads: 9,
            num_kv_heads: 3,
            head_dim: 64,
        };
        let (kv_row, q_row, keys, q_len) = (192, 576, 300, 40);
        let slots = 400;
        let kv: Vec<SlotId> = (0..keys).map(|i| ((i * 7 + 3) % slots) as SlotId).collect();
        let q = pseudo(5, q_len * q_row);
        let (kf, vf) = (pseudo(6, slots * kv_row), pseudo(7, slots * kv_row));
        let caches = [
            (LayerKv::F32(kf.clone()), LayerKv::F32(vf.clone())),
            (
                LayerKv::F16(kf.iter().map(|&x| f16::from_f32(x)).collect()),
                LayerKv::F16(vf.iter().map(|&x| f16::from_f32(x)).collect()),
            ),
            (
                LayerKv::Bf16(kf.iter().map(|&x| bf16::from_f32(x)).collect()),
                LayerKv::Bf16(vf.iter().map(|&x| bf16::from_f32(x)).collect()),
            ),
        ];
        for (kc, vc) in &caches {
            let row_of = |cache: &LayerKv, s: SlotId| {
                let mut r = vec![0.0; kv_row];
                cache.read_row(kv_row, s, &mut r);
                r
            };
            let k_rows: Vec<Vec<f32>> = kv.iter().map(|&s| row_of(kc, s)).collect();
            let v_rows: Vec<Vec<f32>> = kv.iter().map(|&s| row_of(vc, s)).collect();
            let want = reference(&shape, &q, &k_rows, &v_rows, q_len);
            let batch = PagedBatch {
                q_indptr: &[0, q_len as u32],
                kv_indptr: &[0, keys as u32],
                kv_indices: &kv,
            };
            let mut out = vec![0.0; q.len()];
            paged_attention(&shape, &batch, &q, kc, vc, &mut out).unwrap();
            for (got, want) in out.iter().zip(&want) {
                assert!((got - want).abs() < 2e-5, "{got} vs {want}");
            }
            // Query 17 as a decode step over its own 278 visible keys (alone, it runs as one
            // piece per K/V head): bitwise the same.
            let solo = PagedBatch {
                q_indptr: &[0, 1],
                kv_indptr: &[0, 278],
                kv_indices: &kv[..278],
            };
            let mut one = vec![0.0; q_row];
            paged_attention(&shape, &solo, &q[17 * q_row..18 * q_row], kc, vc, &mut one).unwrap();
            assert_eq!(one, out[17 * q_row..18 * q_row]);
        }
    }

    #[test]
    fn contexts_longer_than_a_split_merge_to_the_reference_and_stay_batch_invariant() {
        // 2,500 keys: three key ranges per row (1,024 + 1,024 + 452); the extend's 20
        // queries straddle no boundary, decode rows of 1,024 and 1,025 keys do.
        let shape = AttentionShape {
            num_heads: 9,
            num_kv_heads: 3,
            head_dim: 64,
        };
        let (kv_row, q_row) = (192, 576);
        let slots = 3000;
        let kbuf = pseudo(11, slots * kv_row);
        let vbuf: Vec<f32> = pseudo(12, slots * kv_row).iter().map(|x| x * 3.0).collect();
        let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
        let kv0: Vec<SlotId> = (0..2500)
            .map(|i| ((i * 11 + 5) % slots) as SlotId)
            .collect();
        let kv1: Vec<SlotId> = kv0[..1024].to_vec();
        let kv2: Vec<SlotId> = kv0[..1025].to_vec();
        let q = pseudo(13, 22 * q_row);
        let mut kv_indices = kv0.clone();
        kv_indices.extend(&kv1);
        kv_indices.extend(&kv2);
        let batch = PagedBatch {
            q_indptr: &[0, 20, 21, 22],
            kv_indptr: &[0, 2500, 3524, 4549],
            kv_indices: &kv_indices,
        };
        let mut out = vec![0.0; q.len()];
        paged_attention(&shape, &batch, &q, &kc, &vc, &mut out).unwrap();
        let rows = |idx: &[SlotId], buf: &[f32]| gather_rows(idx, buf, kv_row);
        let mut want = reference(
            &shape,
            &q[..20 * q_row],
            &rows(&kv0, &kbuf),
            &rows(&kv0, &vbuf),
            20,
        );
        for (kv, at) in [(&kv1, 20), (&kv2, 21)] {
            let one = &q[at * q_row..(at + 1) * q_row];
            want.extend(reference(
                &shape,
                one,
                &rows(kv, &kbuf),
                &rows(kv, &vbuf),
                1,
            ));
        }
        for (got, want) in out.iter().zip(&want) {
            assert!((got - want).abs() < 2e-5, "{got} vs {want}");
        }
        // Query 5 of the extend alone, as a decode over its 2,486 visible keys.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, 2486],
            kv_indices: &kv0[..2486],
        };
        let mut one = vec![0.0; q_row];
        paged_attention(&shape, &solo, &q[5 * q_row..6 * q_row], &kc, &vc, &mut one).unwrap();
        assert_eq!(one, out[5 * q_row..6 * q_row]);
    }

    #[test]
    fn half_widening_is_exact_for_every_bit_pattern() {
        use tile::KvElem;
        let halves: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
        let mut got = vec![0.0f32; halves.len()];
        f16::widen(&halves, &mut got, false);
        for (h, g) in halves.iter().zip(&got) {
            let want = h.to_f32();
            assert!(
                g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                "f16 {:#06x}: {g} vs {want}",
                h.to_bits()
            );
        }
        let brains: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
        bf16::widen(&brains, &mut got, false);
        for (h, g) in brains.iter().zip(&got) {
            let want = h.to_f32();
            assert!(g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()));
        }
    }

    #[test]
    fn rejects_inconsistent_metadata() {
        let shape = AttentionShape {
            num_heads: 2,
            num_kv_heads: 1,
            head_dim: 4,
        };
        let c = LayerKv::F32(vec![0.0; 16]);
        let q = vec![0.0; 16];
        let mut out = vec![0.0; 16];
        let more_q_than_kv = PagedBatch {
            q_indptr: &[0, 2],
            kv_indptr: &[0, 1],
            kv_indices: &[1],
        };
        assert!(paged_attention(&shape, &more_q_than_kv, &q, &c, &c, &mut out).is_err());
        let out_of_pool = PagedBatch {
            q_indptr: &[0, 2],
            kv_indptr: &[0, 2],
            kv_indices: &[1, 4],
        };
        assert!(paged_attention(&shape, &out_of_pool, &q, &c, &c, &mut out).is_err());
    }
}
