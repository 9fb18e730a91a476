//! What a pass computes from prompts besides logits, taken right after it (before the next
//! step is planned): embeddings (hidden states) and prompt scores, each given to its
//! request in the order its rows follow the batch's entries.

use super::entry::Entry;
use super::{Req, Scheduler};
use crate::io::TokenLogprob;
use crate::model::{ForwardBatch, ForwardModel, ModelError, ScoreRow};
use std::ops::Range;

/// Adds the score rows of `req`'s prompt positions `computed` (whose first token is batch
/// row `base`): each scores the prompt token after it, from the next one due (admission
/// left that one uncached). Returns how many, and the position of the first scored token.
pub(super) fn push_score_rows(
    batch: &mut ForwardBatch,
    req: &Req,
    base: usize,
    computed: Range<usize>,
) -> (usize, usize) {
    let (Some(next), Some(s)) = (req.next_scored(), &req.prompt_scores) else {
        return (0, 0);
    };
    let end = computed.end.min(req.input_ids.len() - 1);
    let first = computed.start.max(next - 1);
    for q in first..end {
        batch.score_rows.push(ScoreRow {
            row: (base + q - computed.start) as u32,
            target: req.input_ids[q + 1],
            top: s.top,
            given: s.given.clone(),
        });
    }
    (end.saturating_sub(first), first + 1)
}

impl<M: ForwardModel> Scheduler<M> {
    /// What the batch just run computed from its prompts besides logits: embeddings and
    /// prompt scores.
    pub(super) fn take_prompt_outputs(&mut self, entries: &[Entry]) -> Result<(), ModelError> {
        self.take_embeddings(entries)?;
        self.take_scores(entries)
    }

    /// Gives each scoring entry of the batch just run its scores (rows follow the
    /// entries), which continue its request's scores exactly.
    fn take_scores(&mut self, entries: &[Entry]) -> Result<(), ModelError> {
        if self.batch.score_rows.is_empty() {
            return Ok(());
        }
        let mut rest = self.model.scores()?;
        if rest.len() != self.batch.score_rows.len() {
            return Err(ModelError::Batch(format!(
                "{} scores for {} score rows",
                rest.len(),
                self.batch.score_rows.len()
            )));
        }
        for e in entries.iter().filter(|e| e.scores > 0) {
            let (mine, more) = rest.split_at(e.scores);
            rest = more;
            let Some(req) = self.running.get_mut(e.index) else {
                continue;
            };
            if req.next_scored() != Some(e.score_from) {
                return Err(ModelError::Batch(format!(
                    "prompt scores of {} from position {} do not continue its scores",
                    req.rid, e.score_from
                )));
            }
            if let Some(s) = req.prompt_scores.as_mut() {
                s.scores.extend(mine.iter().map(|m| TokenLogprob {
                    token_id: m.token,
                    logprob: m.logprob,
                    top: m.top.clone(),
                    given: m.given.clone(),
                }));
            }
        }
        Ok(())
    }

    /// Gives each embedding entry of the batch just run its row of the model's hidden
    /// states (rows follow the entries).
    fn take_embeddings(&mut self, entries: &[Entry]) -> Result<(), ModelError> {
        if self.batch.hidden_rows.is_empty() {
            return Ok(());
        }
        let hidden = self.model.hidden_states()?;
        let rows = self.batch.hidden_rows.len();
        if hidden.is_empty() || hidden.len() % rows != 0 {
            return Err(ModelError::Batch(format!(
                "{} hidden values for {rows} rows",
                hidden.len()
            )));
        }
        let width = hidden.len() / rows;
        let embedding_entries = entries.iter().filter(|e| e.embeds);
        for (e, row) in embedding_entries.zip(hidden.chunks_exact(width)) {
            if let Some(req) = self.running.get_mut(e.index) {
                req.embedding = Some(row.to_vec());
            }
        }
        Ok(())
    }
}
