//! Paged attention on the CPU over FlashInfer's CSR layout: the queries of request `b` are
//! rows `q_indptr[b]..q_indptr[b+1]`, its keys and values are the pool slots
//! `kv_indices[kv_indptr[b]..kv_indptr[b+1]]` in position order. Query `i` of a request with
//! `q_len` queries and `kv_len` keys sees the first `kv_len - (q_len - 1 - i)` keys (causal,
//! aligned at the end), so one kernel serves extend, decode and mixed batches. With a sliding
//! window of `w`, a query sees only the last `w` of those keys (itself included), as in
//! llama.cpp's standard SWA mask; with chunks of `c`, only the keys from the last multiple
//! of `c` up to itself (llama.cpp's chunked mask: key index = position).
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

/// What a layer does to its scores beyond causal masking and the `1/sqrt(d)` scale.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreRules {
    /// Each query sees at most its last `window` keys (sliding-window attention).
    pub window: Option<usize>,
    /// Each query sees only the keys of its own `chunk` of positions, from the last multiple
    /// of `chunk` up to itself (Llama 4's chunked attention).
    pub chunk: Option<usize>,
    /// Scores become `cap * tanh(score / cap)` before the softmax (Gemma 2's
    /// `attn_logit_softcapping`).
    pub softcap: Option<f32>,
    /// What `q . k` is multiplied by; `None`: `1/sqrt(head_dim)` (Granite declares its own,
    /// Gemma's 27B models use `1/sqrt(hidden / heads)`).
    pub scale: Option<f32>,
}

impl ScoreRules {
    /// Refuses a window or a chunk of 0 keys, and a cap or a scale that is not positive and
    /// finite.
    pub fn validate(&self) -> Result<(), KernelError> {
        if self.window == Some(0) || self.chunk == Some(0) {
            return Err(KernelError::Shape(
                "paged_attention: a sliding window or chunk of 0 keys".into(),
            ));
        }
        let bad = |v: &f32| !(v.is_finite() && *v > 0.0);
        if let Some(cap) = self.softcap.filter(bad) {
            return Err(KernelError::Shape(format!(
                "paged_attention: a soft cap of {cap}"
            )));
        }
        if let Some(scale) = self.scale.filter(bad) {
            return Err(KernelError::Shape(format!(
                "paged_attention: a score scale of {scale}"
            )));
        }
        Ok(())
    }

    /// The first key a query that sees `visible` keys (itself the last of them) may attend:
    /// the window's and the chunk's bounds, whichever is later.
    pub fn first_key(&self, visible: usize) -> usize {
        let windowed = visible.saturating_sub(self.window.unwrap_or(usize::MAX));
        match self.chunk {
            Some(chunk) => windowed.max(visible.saturating_sub(1) / chunk * chunk),
            None => windowed,
        }
    }

    /// The factor `q . k` is multiplied by for heads of `head_dim`.
    pub fn score_scale(&self, head_dim: usize) -> f32 {
        self.scale.unwrap_or(1.0 / (head_dim as f32).sqrt())
    }
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
    let rules = ScoreRules {
        window,
        ..ScoreRules::default()
    };
    paged_attention_with_rules(shape, rules, batch, q, k_cache, v_cache, out)
}

/// [`paged_attention`] under a layer's [`ScoreRules`] (window, chunks, soft-capping, scale).
pub fn paged_attention_with_rules(
    shape: &AttentionShape,
    rules: ScoreRules,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    v_cache: &LayerKv,
    out: &mut [f32],
) -> Result<(), KernelError> {
    paged_attention_with_sinks(shape, rules, None, batch, q, k_cache, v_cache, out)
}

/// [`paged_attention_with_rules`] where each head may have a sink (gpt-oss's
/// `attn_sinks`): a logit of its own that joins every query's softmax without a value, so
/// `out = sum_j e^(s_j) v_j / (e^sink + sum_j e^(s_j))`. `sinks` holds one per query head.
#[allow(clippy::too_many_arguments)]
pub fn paged_attention_with_sinks(
    shape: &AttentionShape,
    rules: ScoreRules,
    sinks: Option<&[f32]>,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    v_cache: &LayerKv,
    out: &mut [f32],
) -> Result<(), KernelError> {
    validate(shape, batch, q, k_cache, out)?;
    rules.validate()?;
    if let Some(sinks) = sinks {
        if sinks.len() != shape.num_heads || sinks.iter().any(|s| !s.is_finite()) {
            return Err(KernelError::Shape(format!(
                "paged_attention: {} sinks for {} heads, or one not finite",
                sinks.len(),
                shape.num_heads
            )));
        }
    }
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
            let min_from = rules.first_key(kv_len - (hi - first) + 1);
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
        .for_each(|(task, partial)| attend_block(shape, &rules, batch, &task, q, kv, partial));

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
                sinks,
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
    /// Each head's sink logit, where the layer has them.
    sinks: Option<&'a [f32]>,
}

/// `out = sum_s acc_s e^(m_s - M) / sum_s l_s e^(m_s - M)` per row and head, over the key
/// ranges in order (`M` the largest `m_s`). With one range the factor is exactly 1, so the
/// result is `acc / l`, bitwise. A head's sink joins as one more range with a sum of 1 and
/// nothing to add.
fn merge_splits(shape: &AttentionShape, input: &MergeInput<'_>, out: &mut [f32]) {
    let (heads, d) = (shape.num_heads, shape.head_dim);
    for r in 0..input.rows {
        for h in 0..heads {
            let state = |s: usize| (input.first_row + s * input.rows + r) * heads + h;
            let sink = input.sinks.map(|sinks| sinks[h]);
            let top = (0..input.splits)
                .map(|s| input.max[state(s)])
                .chain(sink)
                .fold(f32::NEG_INFINITY, f32::max);
            let dst = &mut out[(r * heads + h) * d..][..d];
            dst.fill(0.0);
            let mut total = sink.map_or(0.0, |sink| exp_approx(sink - top));
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
    rules: &ScoreRules,
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
    let from: Vec<usize> = visible.iter().map(|&v| rules.first_key(v)).collect();
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
        softcap: rules.softcap,
        scale: rules.score_scale(shape.head_dim),
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
mod tests;
