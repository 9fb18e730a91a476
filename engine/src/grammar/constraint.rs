//! One request's grammar state: the mask before each sampled token, then the token consumed
//! and the tokens the grammar forces next (jump-forward).

use super::thinking_budget::ThinkingBudget;
use llguidance::Matcher;
use std::time::{Duration, Instant};

/// A grammar's error as clients see it (without the marker the parser adds in place of the
/// details it keeps to itself).
fn failed(e: impl std::fmt::Display) -> String {
    let e = e.to_string();
    format!(
        "the grammar failed: {}",
        e.trim_end_matches("<non-verbose/>").trim_end()
    )
}

/// What the grammar says after a sampled token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Go on; `forced` tokens follow without sampling (possibly none).
    Continue { forced: Vec<u32> },
    /// The grammar is complete after `forced` (possibly none): the request ends with "stop".
    Done { forced: Vec<u32> },
}

/// A compiled grammar at some point of a request's output. A clone goes on independently,
/// with a lexer of its own (its states, state limit and errors are not shared).
pub struct Constraint {
    matcher: Matcher,
    vocab_size: usize,
    /// How long the last mask took: the scheduler's estimate of what this request's
    /// grammar costs the next step it samples in.
    last_mask: Duration,
    /// Mask time not yet charged to the request's tenant (see [`Constraint::take_unbilled`]).
    unbilled: Duration,
    /// A thinking model's budget, when the request set one.
    budget: Option<ThinkingBudget>,
    /// Whether the answer after the thinking is free (no format asked for).
    free_answer: bool,
}

impl Clone for Constraint {
    fn clone(&self) -> Self {
        Self {
            matcher: self.matcher.deep_clone(),
            vocab_size: self.vocab_size,
            last_mask: self.last_mask,
            unbilled: Duration::ZERO,
            budget: self.budget.clone(),
            free_answer: self.free_answer,
        }
    }
}

impl std::fmt::Debug for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Constraint")
            .field("stopped", &self.matcher.is_stopped())
            .finish_non_exhaustive()
    }
}

impl Constraint {
    pub(super) fn new(matcher: Matcher, vocab_size: usize) -> Self {
        Self {
            matcher,
            vocab_size,
            last_mask: Duration::ZERO,
            unbilled: Duration::ZERO,
            budget: None,
            free_answer: false,
        }
    }

    pub(super) fn with_budget(mut self, budget: ThinkingBudget, free_answer: bool) -> Self {
        self.budget = Some(budget);
        self.free_answer = free_answer;
        self
    }

    /// Whether nothing is constrained from here: a thinking budget's block has ended and the
    /// answer is free. The scheduler then drops the constraint (its masks, its grammar
    /// turns), so the answer runs as an unconstrained request's does.
    pub fn is_free(&self) -> bool {
        self.free_answer && self.budget.as_ref().is_some_and(ThinkingBudget::ended)
    }

    /// Sets the logits of every token the grammar does not allow next to -inf (ids past the
    /// vocabulary too). The error is the grammar's (it admits no token, or failed).
    pub fn mask_logits(&mut self, logits: &mut [f32]) -> Result<(), String> {
        let mask = self.compute_mask()?;
        self.apply_mask(&mask, logits);
        Ok(())
    }

    /// The tokens allowed next, one bit each (token `i` is bit `i % 32` of word `i / 32`).
    /// Depends only on the tokens consumed so far: it may be computed while the forward pass
    /// that produces the logits runs.
    pub fn compute_mask(&mut self) -> Result<Vec<u32>, String> {
        let started = Instant::now();
        let mask = self.matcher.compute_mask();
        self.last_mask = started.elapsed();
        self.unbilled += self.last_mask;
        mask.map(|mask| mask.as_slice().to_vec()).map_err(failed)
    }

    /// Time the last [`Constraint::compute_mask`] took (zero before the first).
    pub fn last_mask_time(&self) -> Duration {
        self.last_mask
    }

    /// Mask time spent since the last call: what the scheduler charges the tenant.
    pub fn take_unbilled(&mut self) -> Duration {
        std::mem::take(&mut self.unbilled)
    }

    /// Tokens the grammar's masks cover (every later token is banned).
    pub fn vocab_size(&self) -> usize {
        self.vocab_size
    }

    /// Applies a mask from [`Constraint::compute_mask`] to a row of logits.
    pub fn apply_mask(&self, words: &[u32], logits: &mut [f32]) {
        let vocab = self.vocab_size.min(logits.len());
        let (inside, beyond) = logits.split_at_mut(vocab);
        beyond.fill(f32::NEG_INFINITY);
        // A word of the mask covers 32 tokens: most are all allowed or all banned.
        for (j, chunk) in inside.chunks_mut(32).enumerate() {
            match words.get(j).copied().unwrap_or(0) {
                u32::MAX => {}
                0 => chunk.fill(f32::NEG_INFINITY),
                word => {
                    for (bit, logit) in chunk.iter_mut().enumerate() {
                        if (word >> bit) & 1 == 0 {
                            *logit = f32::NEG_INFINITY;
                        }
                    }
                }
            }
        }
    }

    /// Consumes a sampled token (one the mask allowed) and the tokens it forces (those of a
    /// spent thinking budget's `</think>` too).
    pub fn advance(&mut self, token: u32) -> Result<Step, String> {
        self.matcher.consume_token(token).map_err(failed)?;
        if self.matcher.is_stopped() {
            return self.done(Vec::new());
        }
        let mut forced = self.matcher.consume_ff_tokens();
        let spent = self.budget.as_mut().and_then(|budget| {
            let output: Vec<u32> = std::iter::once(token)
                .chain(forced.iter().copied())
                .collect();
            budget.read(&output)
        });
        // Forced only where the grammar takes it: a block the count saw opened in text the
        // grammar read as the answer (a control-token tag spelled out) is left alone.
        let takes = |m: &mut Matcher, close: &[u32]| matches!(m.validate_tokens(close), Ok(n) if n == close.len());
        if let Some(close) = spent.filter(|close| takes(&mut self.matcher, close)) {
            self.matcher.consume_tokens(&close).map_err(failed)?;
            if let Some(budget) = self.budget.as_mut() {
                budget.read(&close);
            }
            forced.extend_from_slice(&close);
            forced.extend(self.matcher.consume_ff_tokens());
        }
        if let Some(e) = self.matcher.get_error() {
            return Err(failed(e));
        }
        if self.matcher.is_stopped() {
            return self.done(forced);
        }
        Ok(Step::Continue { forced })
    }

    fn done(&self, forced: Vec<u32>) -> Result<Step, String> {
        if self.matcher.stop_reason().is_ok() {
            Ok(Step::Done { forced })
        } else {
            Err(format!(
                "the grammar stopped: {}",
                self.matcher
                    .get_error()
                    .unwrap_or_else(|| format!("{:?}", self.matcher.stop_reason()))
            ))
        }
    }
}
