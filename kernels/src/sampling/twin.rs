//! The CPU twin of `kernels/cuda/sampling.cu`: each step below is one phase of the kernel,
//! with the same per-thread id ranges, the same f32 and f64 operations in the same order
//! and the same reduction tree. Change one, change the other.

use super::{edit_flags, thread_ids, LogitEdit, RowPlan, SampledRow, SamplingBatch, THREADS};
use crate::vector::{exp_approx, key_id, order_key};
use crate::KernelError;

/// Samples every row of `logits` (`rows * vocab`, scratch afterwards) by its plan.
pub fn sample_rows(
    logits: &mut [f32],
    vocab: usize,
    batch: &SamplingBatch,
) -> Result<Vec<SampledRow>, KernelError> {
    if vocab == 0 || !logits.len().is_multiple_of(vocab) {
        return Err(KernelError::Shape(format!(
            "{} logits are not rows of {vocab}",
            logits.len()
        )));
    }
    batch.validate(logits.len() / vocab, vocab)?;
    let mut weights = vec![0.0f32; vocab];
    Ok(logits
        .chunks_exact_mut(vocab)
        .zip(&batch.plans)
        .map(|(row, plan)| sample_row(row, &mut weights, plan, batch))
        .collect())
}

/// NaN becomes the lowest finite value and infinities the finite extremes, so `y - max`
/// is never NaN.
pub(crate) fn sanitize(x: f32) -> f32 {
    if x.is_nan() {
        f32::MIN
    } else {
        x.clamp(f32::MIN, f32::MAX)
    }
}

pub(crate) fn apply_edit(mut x: f32, e: &LogitEdit) -> f32 {
    if e.flags & edit_flags::REPETITION != 0 {
        x = if x > 0.0 { x / e.rep } else { x * e.rep };
    }
    if e.flags & edit_flags::SUBTRACT != 0 {
        x -= e.sub;
    }
    if e.flags & edit_flags::BIAS != 0 {
        x += e.bias;
    }
    if e.flags & edit_flags::BAN != 0 {
        x = f32::NEG_INFINITY;
    }
    x
}

/// The kernel's tree over per-thread partial sums (`block_reduce` with `AddOp`).
fn tree(mut partial: [f64; THREADS]) -> f64 {
    let mut stride = THREADS / 2;
    while stride > 0 {
        for t in 0..stride {
            partial[t] += partial[t + stride];
        }
        stride /= 2;
    }
    partial[0]
}

/// Per thread in id order, then [`tree`]: the sum of `term(i)` over the ids where it is
/// `Some`.
fn block_sum(vocab: usize, term: impl Fn(usize) -> Option<f64>) -> f64 {
    let mut partial = [0.0f64; THREADS];
    for (t, p) in partial.iter_mut().enumerate() {
        let mut acc = 0.0f64;
        for i in thread_ids(t, vocab) {
            if let Some(v) = term(i) {
                acc += v;
            }
        }
        *p = acc;
    }
    tree(partial)
}

/// The smallest bound in `lo..=hi` for which `reaches` holds, by bisection (`hi` itself
/// when it does not hold there). `reaches` must be monotone.
fn smallest_bound(mut lo: u64, mut hi: u64, reaches: impl Fn(u64) -> bool) -> u64 {
    if !reaches(hi) {
        return hi;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if reaches(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

fn sample_row(x: &mut [f32], w: &mut [f32], plan: &RowPlan, batch: &SamplingBatch) -> SampledRow {
    let vocab = x.len();
    // Phase 1: the grammar mask, then the edits.
    if let Ok(mask_row) = usize::try_from(plan.mask_row) {
        let words = super::mask_words(vocab);
        let mask = &batch.masks[mask_row * words..(mask_row + 1) * words];
        for (i, v) in x.iter_mut().enumerate() {
            if (mask[i / 32] >> (i % 32)) & 1 == 0 {
                *v = f32::NEG_INFINITY;
            }
        }
    }
    for e in &batch.edits[plan.edit_lo as usize..plan.edit_hi as usize] {
        x[e.id as usize] = apply_edit(x[e.id as usize], e);
    }
    // Phase 2: scale and sanitize; the maximum and the best key.
    for v in x.iter_mut() {
        *v = sanitize(*v * plan.scale);
    }
    let max = x.iter().fold(f32::MIN, |m, &v| if v > m { v } else { m });
    let key = |i: usize| order_key(x[i], i as u32);
    let best = (0..vocab).map(key).min().unwrap_or(u64::MAX);
    // Phase 3: weights and the normalizer, where anything needs them.
    let greedy = plan.greedy != 0;
    let z = if !greedy || plan.want_logprob != 0 || plan.n_top > 0 {
        for (wi, &v) in w.iter_mut().zip(x.iter()) {
            *wi = exp_approx((v - max) * plan.logprob_scale);
        }
        block_sum(vocab, |i| Some(f64::from(w[i])))
    } else {
        f64::NAN
    };
    let ln_z = z.ln();
    let logprob = |i: usize| (f64::from((x[i] - max) * plan.logprob_scale) - ln_z) as f32;
    // Phase 4: the token.
    let token = if greedy {
        key_id(best) as usize
    } else {
        draw(x, w, plan, best, z)
    };
    let chosen = if greedy && plan.want_logprob == 0 {
        f32::NAN
    } else {
        logprob(token)
    };
    // Phase 5: the top-n, one block minimum over the keys past the previous one each.
    let mut top = Vec::with_capacity(plan.n_top as usize);
    let mut previous: Option<u64> = None;
    for _ in 0..plan.n_top {
        let next = (0..vocab)
            .map(key)
            .filter(|&k| previous.is_none_or(|p| k > p))
            .min();
        let Some(next) = next else {
            break;
        };
        let id = key_id(next) as usize;
        top.push((id as u32, logprob(id)));
        previous = Some(next);
    }
    SampledRow {
        token: token as u32,
        logprob: chosen,
        top,
    }
}

/// The cuts and the draw of a sampled row; `best` is the key of its most likely token and
/// `z` the sum of all weights.
fn draw(y: &[f32], w: &[f32], plan: &RowPlan, best: u64, z: f64) -> usize {
    let vocab = y.len();
    let key = |i: usize| order_key(y[i], i as u32);
    let weight = |i: usize| f64::from(w[i]);
    let bound = cut_bound(y, w, plan, best, z);
    let min_p = plan.min_p;
    let survives = |i: usize| key(i) <= bound && (min_p <= 0.0 || w[i] >= min_p);
    // The walk: per-thread masses, then thread 0 finds the thread and walks its ids.
    let mut partial = [0.0f64; THREADS];
    let mut last = [usize::MAX; THREADS];
    for t in 0..THREADS {
        let mut acc = 0.0f64;
        for i in thread_ids(t, vocab) {
            if survives(i) {
                acc += weight(i);
                if w[i] > 0.0 {
                    last[t] = i;
                }
            }
        }
        partial[t] = acc;
    }
    let total = partial.iter().fold(0.0f64, |a, &p| a + p);
    let target = plan.uniform * total;
    let mut run = 0.0f64;
    for t in 0..THREADS {
        if partial[t] > 0.0 && run + partial[t] > target {
            let mut acc = run;
            for i in thread_ids(t, vocab) {
                if survives(i) {
                    acc += weight(i);
                    if acc > target {
                        return i;
                    }
                }
            }
            return last[t];
        }
        run += partial[t];
    }
    // Rounding put the target past the end: the last token with weight.
    last.iter()
        .rev()
        .find(|&&i| i != usize::MAX)
        .copied()
        .unwrap_or(key_id(best) as usize)
}

/// The top-k and top-p cuts: the survivors are the tokens whose key is at most the bound
/// returned (then min-p applies).
pub(crate) fn cut_bound(y: &[f32], w: &[f32], plan: &RowPlan, best: u64, z: f64) -> u64 {
    let vocab = y.len();
    let key = |i: usize| order_key(y[i], i as u32);
    let weight = |i: usize| f64::from(w[i]);
    // Top-k: the k-th best key bounds the candidates.
    let k = plan.top_k as usize;
    let top_k = k > 0 && k < vocab;
    let mut bound = u64::MAX;
    if top_k {
        bound = smallest_bound(best, u64::MAX, |b| {
            let count: usize = (0..THREADS)
                .map(|t| thread_ids(t, vocab).filter(|&i| key(i) <= b).count())
                .sum();
            count >= k
        });
    }
    // Top-p over the candidates' mass: the shortest best-first prefix reaching it.
    if plan.top_p < 1.0 {
        let total = if top_k {
            block_sum(vocab, |i| (key(i) <= bound).then(|| weight(i)))
        } else {
            z
        };
        let target = f64::from(plan.top_p) * total;
        bound = smallest_bound(best, bound, |b| {
            block_sum(vocab, |i| (key(i) <= b).then(|| weight(i))) >= target
        });
    }
    bound
}
