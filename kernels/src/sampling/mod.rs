//! Sampling a batch of logits rows where the logits are: the plan of each row (penalties as
//! per-token edits, grammar mask, temperature, top-k, top-p, min-p, the request's uniform
//! draw, log-probabilities wanted) and what comes back (the token, its log-probability, the
//! top-n). The CUDA kernel `kernels/cuda/sampling.cu` runs it on the device; [`twin`] runs
//! the very same steps on the CPU, in the same order and with the same arithmetic, so the
//! twin's result is the kernel's result bit for bit (log-probabilities up to `log`'s last
//! ulp) and the twin's tests hold for the kernel.
//!
//! One row is one block of [`THREADS`] threads. Thread `t` owns the contiguous ids
//! `t * c .. (t + 1) * c` with `c = ceil(vocab / THREADS)`; sums are taken per thread in id
//! order in f64, then over threads in a fixed tree, so a row's result depends only on the
//! row and its plan, never on the batch.
//!
//! Semantics, as the host sampler's (`engine::sampling::Sampler`): the grammar mask and
//! the edits (repetition penalty, frequency/presence penalty, logit bias, banned tokens)
//! first; then `y = sanitize(x * scale)`; greedy rows take the best token. Other rows weigh
//! each token `w = exp(y - max)` and keep the `top_k` best (by value, then lower id), then
//! the smallest best-first prefix of those holding `top_p` of their mass, then the tokens
//! with `w >= min_p`; the draw walks the survivors in id order to `uniform * mass`. Only
//! the walk's order differs from the host sampler (which walks best first), so the
//! distribution is the same, not the token for a given draw.

pub mod twin;

#[cfg(test)]
mod tests;

use crate::KernelError;

/// Threads per row (one block).
pub const THREADS: usize = 256;
/// Most top-n log-probabilities per row (the API's limit).
pub const MAX_TOP: usize = 20;

/// What an edit does, applied in this order (the host sampler's).
pub mod edit_flags {
    /// `x = x > 0 ? x / rep : x * rep` (repetition penalty).
    pub const REPETITION: u32 = 1;
    /// `x -= sub` (frequency and presence penalties).
    pub const SUBTRACT: u32 = 2;
    /// `x += bias` (logit bias).
    pub const BIAS: u32 = 4;
    /// `x = -inf` (a stop token held back by `min_new_tokens`).
    pub const BAN: u32 = 8;
}

/// One token's edit; a row's edits name distinct tokens, so they apply in parallel.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LogitEdit {
    pub id: u32,
    pub flags: u32,
    pub rep: f32,
    pub sub: f32,
    pub bias: f32,
}

/// How one row is sampled. `#[repr(C)]`: uploaded as is.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowPlan {
    /// The request's draw for this token, in [0, 1).
    pub uniform: f64,
    /// Multiplies the edited logits before anything else (1 / temperature; 1 for greedy).
    pub scale: f32,
    /// Multiplies `y - max` inside the log-softmax of reported log-probabilities (a greedy
    /// request's temperature; 1 otherwise).
    pub logprob_scale: f32,
    /// 1 (or more): off.
    pub top_p: f32,
    /// 0: off.
    pub min_p: f32,
    /// 0 or at least the vocabulary: off.
    pub top_k: u32,
    /// Non-zero: the best token, no draw.
    pub greedy: u32,
    /// Top-n log-probabilities wanted (at most [`MAX_TOP`]).
    pub n_top: u32,
    /// Non-zero: the chosen token's log-probability is wanted (else NaN for greedy rows).
    pub want_logprob: u32,
    /// The row's edits: `edits[edit_lo..edit_hi]`.
    pub edit_lo: u32,
    pub edit_hi: u32,
    /// The row's grammar mask in `masks` (bit set: allowed), or -1 for none.
    pub mask_row: i32,
    pub reserved: u32,
}

impl Default for RowPlan {
    fn default() -> Self {
        Self {
            uniform: 0.0,
            scale: 1.0,
            logprob_scale: 1.0,
            top_p: 1.0,
            min_p: 0.0,
            top_k: 0,
            greedy: 1,
            n_top: 0,
            want_logprob: 0,
            edit_lo: 0,
            edit_hi: 0,
            mask_row: -1,
            reserved: 0,
        }
    }
}

/// The plans of a batch of rows, their edits back to back, and their grammar masks
/// (`mask_words(vocab)` words per mask).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SamplingBatch {
    pub plans: Vec<RowPlan>,
    pub edits: Vec<LogitEdit>,
    pub masks: Vec<u32>,
}

/// Words of one grammar mask over `vocab` tokens.
pub fn mask_words(vocab: usize) -> usize {
    vocab.div_ceil(32)
}

/// The chosen token of one row, its log-probability (NaN when a greedy row did not ask),
/// and the `n_top` best tokens with theirs, best first (ties: lower id first).
#[derive(Clone, Debug, PartialEq)]
pub struct SampledRow {
    pub token: u32,
    pub logprob: f32,
    pub top: Vec<(u32, f32)>,
}

impl SamplingBatch {
    /// The checks the twin and the launcher make before touching memory: one plan per row,
    /// edit ranges inside `edits` naming tokens of the vocabulary, masks that exist, the
    /// cuts within range.
    pub fn validate(&self, rows: usize, vocab: usize) -> Result<(), KernelError> {
        let bad = |m: String| Err(KernelError::Shape(m));
        if self.plans.len() != rows {
            return bad(format!(
                "{} sampling plans for {rows} rows",
                self.plans.len()
            ));
        }
        if vocab == 0 || vocab > u32::MAX as usize {
            return bad(format!("a vocabulary of {vocab} tokens"));
        }
        let words = mask_words(vocab);
        if !self.masks.len().is_multiple_of(words) {
            return bad(format!(
                "masks of {} words, not rows of {words}",
                self.masks.len()
            ));
        }
        let masks = self.masks.len() / words;
        for (r, p) in self.plans.iter().enumerate() {
            let (lo, hi) = (p.edit_lo as usize, p.edit_hi as usize);
            if lo > hi || hi > self.edits.len() {
                return bad(format!("row {r}: edits {lo}..{hi} of {}", self.edits.len()));
            }
            let edits = &self.edits[lo..hi];
            if let Some(e) = edits.iter().find(|e| e.id as usize >= vocab) {
                return bad(format!("row {r}: edit of token {} outside {vocab}", e.id));
            }
            if !edits_are_distinct(edits) {
                return bad(format!("row {r}: two edits of one token"));
            }
            if p.mask_row >= 0 && p.mask_row as usize >= masks {
                return bad(format!("row {r}: mask {} of {masks}", p.mask_row));
            }
            if p.n_top as usize > MAX_TOP {
                return bad(format!("row {r}: {} top log-probabilities", p.n_top));
            }
            let finite = p.scale.is_finite() && p.logprob_scale.is_finite();
            if !finite || !(0.0..1.0).contains(&p.uniform) || p.top_p.is_nan() || p.min_p.is_nan() {
                return bad(format!("row {r}: plan out of range: {p:?}"));
            }
        }
        Ok(())
    }
}

/// The ids thread `t` owns in a row of `vocab`.
pub(crate) fn thread_ids(t: usize, vocab: usize) -> std::ops::Range<usize> {
    let per = vocab.div_ceil(THREADS);
    (t * per).min(vocab)..((t + 1) * per).min(vocab)
}

/// Whether `edits` name distinct tokens (the kernel applies them in parallel, one thread
/// each).
pub fn edits_are_distinct(edits: &[LogitEdit]) -> bool {
    let mut ids: Vec<u32> = edits.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    ids.windows(2).all(|w| w[0] != w[1])
}
