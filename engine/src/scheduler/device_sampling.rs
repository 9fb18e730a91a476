//! Sampling where the logits are: each sampling entry's sampler and grammar mask become a
//! row plan (`kernels::sampling`), the model runs the batch and samples it in one call
//! ([`ForwardModel::forward_sampled`]), and only the chosen tokens (with the log-probabilities
//! asked for) come back; each sampler then records its token as if it had drawn it.

use super::entry::Entry;
use super::{phase_done, Scheduler};
use crate::model::{ForwardModel, ModelError};
use crate::sampling::SampleOutput;
use kernels::sampling::{mask_words, RowPlan, SampledRow, SamplingBatch};
use std::time::{Duration, Instant};

/// One sampling entry's tokens, or the message its grammar failed with.
pub(super) type SampleResult = Result<Vec<SampleOutput>, String>;

impl<M: ForwardModel> Scheduler<M> {
    /// Whether this batch samples on the model's device: the model can, the configuration
    /// allows it, no entry verifies a speculative draft (verification samples a request's
    /// rows one after another, each depending on the last) and none asks for the
    /// log-probabilities of given tokens (the device reports only the top ones).
    pub(super) fn samples_on_device(&self, entries: &[Entry]) -> bool {
        let given = |e: &Entry| {
            e.samples
                && (self.running.get(e.index))
                    .is_some_and(|r| !r.params.token_ids_logprob.is_empty())
        };
        self.config.sample_on_device
            && self.model.samples_on_device()
            && entries.iter().all(|e| e.draft.is_empty() && !given(e))
    }

    /// Runs the batch and samples it on the model's device; one result per sampling entry,
    /// and when the phase ended.
    pub(super) fn forward_sampled_on_device(
        &mut self,
        entries: &[Entry],
        vocab: usize,
        since: Instant,
    ) -> Result<(Vec<SampleResult>, Instant), ModelError> {
        let (sampling, failed) = self.sampling_plans(entries, vocab)?;
        let rows = self
            .model
            .forward_sampled(&self.batch, &mut self.kv, &sampling)?;
        self.take_prompt_outputs(entries)?;
        // The masks were computed before the pass, not beside it: none of their time hides.
        self.forward_time = Duration::ZERO;
        let forwarded = phase_done("forward", since);
        if rows.len() != failed.len() {
            return Err(ModelError::Batch(format!(
                "{} sampled rows for {} sampling requests",
                rows.len(),
                failed.len()
            )));
        }
        Ok((self.accept_rows(entries, rows, failed), forwarded))
    }

    /// The plan of each sampling entry, in order (grammar masks computed here), each for
    /// the token after those its request has in flight; and per entry the message its
    /// grammar failed with, if it did (its row is computed and thrown away).
    pub(super) fn sampling_plans(
        &mut self,
        entries: &[Entry],
        vocab: usize,
    ) -> Result<(SamplingBatch, Vec<Option<String>>), ModelError> {
        let words = mask_words(vocab);
        let mut sampling = SamplingBatch::default();
        let mut failed: Vec<Option<String>> = Vec::new();
        for e in entries.iter().filter(|e| e.samples) {
            let req = &mut self.running[e.index];
            let mut mask_row = None;
            let mut failure = None;
            if let Some(constraint) = req.constraint.as_mut() {
                match constraint.compute_mask() {
                    Ok(mask) => {
                        mask_row = Some(sampling.masks.len() / words);
                        push_mask(&mut sampling.masks, &mask, constraint.vocab_size(), vocab);
                    }
                    Err(message) => failure = Some(message),
                }
            }
            let plan = if failure.is_some() {
                Some(RowPlan::default())
            } else {
                // A future decode plans the token after the one still being sampled.
                let ahead = u64::from(e.future);
                req.sampler
                    .device_plan(vocab, mask_row, ahead, &mut sampling.edits)
            };
            let Some(plan) = plan else {
                return Err(ModelError::Batch(format!(
                    "request {}: no sampling plan ahead of its unrecorded tokens",
                    req.rid
                )));
            };
            sampling.plans.push(plan);
            failed.push(failure);
        }
        Ok((sampling, failed))
    }

    /// Records each row's token in its request's sampler, in entry order.
    pub(super) fn accept_rows(
        &mut self,
        entries: &[Entry],
        rows: Vec<SampledRow>,
        failed: Vec<Option<String>>,
    ) -> Vec<SampleResult> {
        let sampling = entries.iter().filter(|e| e.samples);
        sampling
            .zip(rows.into_iter().zip(failed))
            .map(|(e, (row, failure))| {
                if let Some(message) = failure {
                    return Err(message);
                }
                self.running[e.index].sampler.accept(row.token);
                // (A batch with `token_ids_logprob` samples on the host.)
                Ok(vec![SampleOutput {
                    token: row.token,
                    logprob: row.logprob,
                    top: row.top,
                    given: Vec::new(),
                }])
            })
            .collect()
    }
}

/// Appends a grammar's mask over `vocab` tokens: its bits for the tokens it knows, and
/// every token past its vocabulary banned (as `Constraint::apply_mask` does on the host).
fn push_mask(masks: &mut Vec<u32>, mask: &[u32], grammar_vocab: usize, vocab: usize) {
    let start = masks.len();
    masks.resize(start + mask_words(vocab), 0);
    let known = grammar_vocab.min(vocab);
    for (j, word) in masks[start..].iter_mut().enumerate() {
        let first = j * 32;
        if first >= known {
            break;
        }
        let mut w = mask.get(j).copied().unwrap_or(0);
        if known - first < 32 {
            w &= (1u32 << (known - first)) - 1;
        }
        *word = w;
    }
}

#[cfg(test)]
mod tests {
    use super::push_mask;

    #[test]
    fn masks_ban_what_the_grammar_does_not_know() {
        let mut masks = vec![7];
        // A grammar over 40 tokens, all allowed, in a model of 70.
        push_mask(&mut masks, &[u32::MAX, u32::MAX], 40, 70);
        assert_eq!(masks, [7, u32::MAX, 0xff, 0]);
        // A grammar wider than the model is cut to it; a short mask bans the rest.
        let mut masks = Vec::new();
        push_mask(&mut masks, &[0b101], 100, 40);
        assert_eq!(masks, [0b101, 0]);
    }
}
