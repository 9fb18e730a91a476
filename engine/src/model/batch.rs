//! The batch a forward pass consumes, in FlashInfer/SGLang layout: one row per token being
//! computed (several per request in extend, one in decode), CSR ranges per request.

use super::ModelError;
use crate::sampling::{score_row, SampleOutput};
use pools::SlotId;
use std::sync::Arc;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ForwardBatch {
    /// Token ids being computed, requests back to back.
    pub input_ids: Vec<u32>,
    /// Position of each token in its request.
    pub positions: Vec<u32>,
    /// KV slot each token's K/V is written to.
    pub out_cache_loc: Vec<SlotId>,
    /// `[requests + 1]`: request `b` computes tokens `q_indptr[b]..q_indptr[b+1]`.
    pub q_indptr: Vec<u32>,
    /// `[requests + 1]`: request `b` attends to `kv_indices[kv_indptr[b]..kv_indptr[b+1]]`
    /// (its cached prefix and the new tokens, in position order).
    pub kv_indptr: Vec<u32>,
    pub kv_indices: Vec<SlotId>,
    /// `[requests]`: each request's `req_to_token` row (a runner that mirrors the table on
    /// its device updates it by row).
    pub req_pool_indices: Vec<u32>,
    /// Token rows whose logits are wanted (usually each request's last token).
    pub logits_rows: Vec<u32>,
    /// Token rows whose final hidden state (after the output norm, before the head) is
    /// wanted: the last prompt token of an embedding request.
    pub hidden_rows: Vec<u32>,
    /// Token rows whose logits score a known next token (prompt log-probabilities).
    pub score_rows: Vec<ScoreRow>,
    /// `[requests]` or empty: the LoRA adapter each request runs (`None`: the base model);
    /// empty, every request runs the base model.
    pub adapters: Vec<Option<u32>>,
}

/// A token row whose logits score the token that follows it in the prompt: the model
/// reduces them to `target`'s log-probability, the `top` most likely tokens and those of
/// `given`, so no vocabulary-wide row leaves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRow {
    pub row: u32,
    pub target: u32,
    pub top: u32,
    /// The request's `token_ids_logprob`.
    pub given: Arc<[u32]>,
}

impl ScoreRow {
    /// Its score under `logits` (its row's; scratch afterwards), as a sample of its target
    /// would report it.
    pub fn score(&self, logits: &mut [f32]) -> SampleOutput {
        score_row(logits, self.target, self.top as usize, &self.given)
    }
}

impl ForwardBatch {
    pub fn num_tokens(&self) -> usize {
        self.input_ids.len()
    }

    /// Whether some request runs a LoRA adapter.
    pub fn uses_adapters(&self) -> bool {
        self.adapters.iter().any(Option::is_some)
    }

    pub fn num_requests(&self) -> usize {
        self.q_indptr.len().saturating_sub(1)
    }

    /// Each request's KV length (its cached prefix and new tokens).
    pub fn kv_lens(&self) -> impl Iterator<Item = u32> + '_ {
        self.kv_indptr.windows(2).map(|w| w[1] - w[0])
    }

    /// The checks every runner makes before touching memory: lengths agree, token ids are
    /// in the vocabulary, CSR ranges are monotone and cover the batch, each request computes
    /// no more tokens than it attends to, logits rows exist.
    pub fn validate(&self, vocab_size: usize) -> Result<(), ModelError> {
        let t = self.num_tokens();
        let bad = |m: String| Err(ModelError::Batch(m));
        if t == 0 {
            return bad("empty batch".into());
        }
        if self.positions.len() != t || self.out_cache_loc.len() != t {
            return bad(format!(
                "{t} tokens, {} positions, {} cache locations",
                self.positions.len(),
                self.out_cache_loc.len()
            ));
        }
        if let Some(&id) = self.input_ids.iter().find(|&&id| id as usize >= vocab_size) {
            return bad(format!(
                "token id {id} outside the vocabulary of {vocab_size}"
            ));
        }
        if let Some(&r) = self.logits_rows.iter().find(|&&r| r as usize >= t) {
            return bad(format!("logits row {r} outside the batch of {t} tokens"));
        }
        if let Some(&r) = self.hidden_rows.iter().find(|&&r| r as usize >= t) {
            return bad(format!("hidden row {r} outside the batch of {t} tokens"));
        }
        if let Some(s) = self.score_rows.iter().find(|s| s.row as usize >= t) {
            return bad(format!(
                "score row {} outside the batch of {t} tokens",
                s.row
            ));
        }
        if let Some(s) = (self.score_rows.iter()).find(|s| s.target as usize >= vocab_size) {
            return bad(format!(
                "scored token {} outside the vocabulary of {vocab_size}",
                s.target
            ));
        }
        let n = self.q_indptr.len();
        if !self.adapters.is_empty() && self.adapters.len() + 1 != n {
            return bad(format!(
                "{} adapters for {} requests",
                self.adapters.len(),
                n.saturating_sub(1)
            ));
        }
        if n < 2 || self.kv_indptr.len() != n || self.req_pool_indices.len() != n - 1 {
            return bad(format!(
                "{} q ranges, {} KV ranges, {} rows",
                n.saturating_sub(1),
                self.kv_indptr.len().saturating_sub(1),
                self.req_pool_indices.len()
            ));
        }
        if self.q_indptr[0] != 0 || self.q_indptr[n - 1] as usize != t {
            return bad("q_indptr does not cover the batch".into());
        }
        if self.kv_indptr[0] != 0 || self.kv_indptr[n - 1] as usize != self.kv_indices.len() {
            return bad("kv_indptr does not cover kv_indices".into());
        }
        for b in 0..n - 1 {
            let q = self.q_indptr[b + 1].checked_sub(self.q_indptr[b]);
            let kv = self.kv_indptr[b + 1].checked_sub(self.kv_indptr[b]);
            match (q, kv) {
                (Some(q), Some(kv)) if q <= kv => {}
                _ => {
                    return bad(format!(
                        "request {b}: ranges not monotone or q_len > kv_len"
                    ))
                }
            }
        }
        Ok(())
    }

    pub fn clear(&mut self) {
        self.input_ids.clear();
        self.positions.clear();
        self.out_cache_loc.clear();
        self.q_indptr.clear();
        self.kv_indptr.clear();
        self.kv_indices.clear();
        self.req_pool_indices.clear();
        self.logits_rows.clear();
        self.hidden_rows.clear();
        self.score_rows.clear();
        self.adapters.clear();
    }

    /// Appends the request in `req_to_token` row `row`: `new_ids` computed at positions
    /// `start..`, writing K/V at `out_cache_loc`, attending to `kv_slots` (all of the
    /// request's slots, new ones last). With `want_logits` the last new token's logits are
    /// produced.
    pub fn push_request(
        &mut self,
        row: u32,
        new_ids: &[u32],
        start: u32,
        out_cache_loc: &[SlotId],
        kv_slots: &[SlotId],
        want_logits: bool,
    ) {
        if self.q_indptr.is_empty() {
            self.q_indptr.push(0);
            self.kv_indptr.push(0);
        }
        self.req_pool_indices.push(row);
        self.input_ids.extend_from_slice(new_ids);
        self.positions.extend(start..start + new_ids.len() as u32);
        self.out_cache_loc.extend_from_slice(out_cache_loc);
        self.q_indptr.push(self.input_ids.len() as u32);
        self.kv_indices.extend_from_slice(kv_slots);
        self.kv_indptr.push(self.kv_indices.len() as u32);
        if want_logits && !new_ids.is_empty() {
            self.logits_rows.push(self.input_ids.len() as u32 - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_requests() -> ForwardBatch {
        let mut b = ForwardBatch::default();
        b.push_request(1, &[5, 6, 7], 0, &[10, 11, 12], &[10, 11, 12], true);
        b.push_request(0, &[8], 4, &[20], &[1, 2, 3, 4, 20], true);
        b
    }

    #[test]
    fn a_well_formed_batch_passes_and_each_broken_invariant_is_named() {
        let ok = two_requests();
        assert_eq!(ok.req_pool_indices, [1, 0]);
        assert_eq!(ok.logits_rows, [2, 3]);
        ok.validate(100).unwrap();
        type Break = fn(&mut ForwardBatch);
        let broken: [(&str, Break); 10] = [
            ("outside the vocabulary", |b| b.input_ids[0] = 100),
            ("positions", |b| {
                b.positions.pop();
            }),
            ("logits row", |b| b.logits_rows.push(4)),
            ("hidden row", |b| b.hidden_rows.push(4)),
            ("score row", |b| {
                b.score_rows.push(ScoreRow {
                    row: 4,
                    target: 0,
                    top: 0,
                    given: Arc::from([]),
                })
            }),
            ("scored token", |b| {
                b.score_rows.push(ScoreRow {
                    row: 0,
                    target: 100,
                    top: 0,
                    given: Arc::from([]),
                })
            }),
            ("rows", |b| {
                b.req_pool_indices.pop();
            }),
            ("q_indptr", |b| b.q_indptr[2] = 3),
            ("kv_indptr", |b| {
                b.kv_indices.pop();
            }),
            ("q_len > kv_len", |b| b.kv_indptr[1] = 2),
        ];
        for (what, breaks) in broken {
            let mut b = ok.clone();
            breaks(&mut b);
            let err = b.validate(100).unwrap_err().to_string();
            assert!(err.contains(what), "{what}: {err}");
        }
        assert!(ForwardBatch::default()
            .validate(100)
            .unwrap_err()
            .to_string()
            .contains("empty"));
    }
}
