//! A request's life inside the scheduler.

use super::tier::StagedKv;
use crate::grammar::Constraint;
use crate::io::{EventSender, GenerateError, TokenLogprob};
use crate::sampling::{FinishReason, Sampler, SamplingParams, StopChecker};
use crate::tokenizer::DecodeStream;
use pools::ReqKv;
use radix::NsId;
use std::time::Instant;

/// The most output tokens admission plans for per request (SGLang's
/// `CLIP_MAX_NEW_TOKENS_ESTIMATION`).
const MAX_PLANNED_NEW_TOKENS: usize = 4096;

/// One request: its tokens, its KV state while running, and its output stream.
pub struct Req {
    /// Scheduler-unique, increasing with arrival (FCFS order).
    pub seq: u64,
    pub rid: String,
    /// Tenant index, for per-tenant fairness and quotas.
    pub tenant: u32,
    pub input_ids: Vec<u32>,
    pub output_ids: Vec<u32>,
    pub params: SamplingParams,
    pub ns: NsId,
    /// The LoRA adapter it runs (its namespace's), `None`: the base model.
    pub adapter: Option<u32>,
    /// KV state while the request holds a row (running); `None` while waiting.
    pub kv: Option<ReqKv>,
    /// Prompt tokens served from the cache at first admission (reported as `cached_tokens`).
    pub cached_tokens: Option<u32>,
    /// Tokens cached when it was last admitted. What it put into the tree since is its
    /// tenant's while it runs, also in a shared namespace that nobody owns (see `tenant_kv`).
    pub admitted_prefix: usize,
    /// Where to save its recurrent state for the conversation's next turn (the prompt's
    /// history), until it is saved or passed.
    pub history_len: Option<usize>,
    pub sampler: Sampler,
    pub stop: StopChecker,
    pub detok: DecodeStream,
    pub tx: EventSender,
    pub submitted_at: Instant,
    pub first_token_at: Option<Instant>,
    pub last_token_at: Option<Instant>,
    pub deadline: Option<Instant>,
    /// Times this request was retracted for memory; raises its priority on requeue.
    pub retractions: u32,
    /// Tokens and logprobs produced this step, sent as one chunk.
    pub pending_ids: Vec<u32>,
    pub pending_text: String,
    pub pending_logprobs: Vec<TokenLogprob>,
    pub finish: Option<FinishReason>,
    /// Set when the request failed (its grammar, or the model): its stream ends with this
    /// error instead of `Finished`.
    pub error: Option<GenerateError>,
    /// The grammar its output must match, if any.
    pub constraint: Option<Constraint>,
    /// An embedding request: its last prompt token's hidden state is its whole output.
    pub embed: bool,
    /// That hidden state, once computed (it ends the request).
    pub embedding: Option<Vec<f32>>,
    /// Its prompt log-probabilities, if it asked for them, until they are sent (with its
    /// first chunk).
    pub prompt_scores: Option<PromptScores>,
    /// Speculative draft tokens proposed and accepted so far (drafting stops for a
    /// request whose drafts are mostly wrong).
    pub drafted: u32,
    pub accepted: u32,
    /// K/V of prompt pages read back from the disk tier, put into the pool at admission.
    pub staged: Option<StagedKv>,
    /// Disk reads this request waited for.
    pub disk_loads: u8,
    /// Admitted while nothing else ran, on a budget that counted every idle cache: its
    /// allocations may evict any cache, other tenants' protected ones last.
    pub may_evict_any: bool,
    /// The step it last sampled under its grammar in: a tenant's constrained requests take
    /// turns longest-waiting first when their masks exceed its budget.
    pub grammar_turn: u64,
    /// It sits this step out: its tenant's grammar mask credit is spent (set each step by
    /// `Scheduler::grammar_turns`).
    pub grammar_waiting: bool,
}

/// A request's prompt log-probabilities as they are computed, chunk by chunk. Scores of
/// positions already computed survive a retraction: the prefix the request finds cached
/// again stops before the first position still to score.
pub struct PromptScores {
    /// First scored position (at least 1: the first token has nothing before it).
    pub from: usize,
    /// Most likely alternatives given with each score.
    pub top: u32,
    /// Tokens scored at every position besides (`token_ids_logprob`).
    pub given: std::sync::Arc<[u32]>,
    pub scores: Vec<TokenLogprob>,
}

impl PromptScores {
    pub fn new(from: u32, top: u32, given: &[u32]) -> Self {
        Self {
            from: (from as usize).max(1),
            top,
            given: given.into(),
            scores: Vec::new(),
        }
    }
}

impl Req {
    /// The prompt position to score next, while prompt log-probabilities are still due.
    pub fn next_scored(&self) -> Option<usize> {
        let s = self.prompt_scores.as_ref()?;
        let next = s.from + s.scores.len();
        (next < self.input_ids.len()).then_some(next)
    }

    /// Its prompt scores, once all are computed and its whole prompt is (never before its
    /// first chunk of K/V); then the request is done with them: nothing is scored again,
    /// and a retraction may find its whole prompt cached.
    pub fn take_computed_prompt_scores(&mut self) -> Option<Vec<TokenLogprob>> {
        let ready = self.prompt_scores.is_some()
            && self.next_scored().is_none()
            && self.kv_len() >= self.input_ids.len();
        ready
            .then(|| self.prompt_scores.take().map(|s| s.scores))
            .flatten()
    }

    /// Whether the request ends with its prompt: an embedding, or a request that only
    /// scores its prompt.
    pub fn prompt_only(&self) -> bool {
        self.embed || self.params.max_new_tokens == 0
    }

    /// Prompt followed by the output so far: the tokens the model must have seen.
    pub fn fill_len(&self) -> usize {
        self.input_ids.len() + self.output_ids.len()
    }

    pub fn fill_ids(&self) -> Vec<u32> {
        let mut ids = Vec::with_capacity(self.fill_len());
        ids.extend_from_slice(&self.input_ids);
        ids.extend_from_slice(&self.output_ids);
        ids
    }

    /// Token `i` of the prompt-then-output sequence.
    pub fn token_at(&self, i: usize) -> u32 {
        match i.checked_sub(self.input_ids.len()) {
            None => self.input_ids[i],
            Some(j) => self.output_ids[j],
        }
    }

    /// Tokens with K/V in the pool.
    pub fn kv_len(&self) -> usize {
        self.kv.as_ref().map_or(0, ReqKv::kv_len)
    }

    /// Tokens still to compute before the next sample.
    pub fn pending_tokens(&self) -> usize {
        self.fill_len() - self.kv_len()
    }

    /// Output tokens still allowed: what admission reserves memory for.
    pub fn remaining_new_tokens(&self) -> usize {
        (self.params.max_new_tokens as usize).saturating_sub(self.output_ids.len())
    }

    /// The output budget admission plans for (before `new_token_ratio`): the remaining
    /// budget, clipped as SGLang clips its estimate, so that requests with the whole
    /// context as their budget (no `max_tokens`) do not each hold back thousands of slots
    /// they almost never use. Retraction covers the rare one that does.
    pub fn planned_new_tokens(&self) -> usize {
        self.remaining_new_tokens().min(MAX_PLANNED_NEW_TOKENS)
    }

    /// Whether drafts still pay for this request: until 16 were tried, or while at least
    /// a quarter of them were accepted.
    pub fn drafts_pay(&self) -> bool {
        self.drafted < 16 || self.accepted * 4 >= self.drafted
    }

    /// The client hung up (or stopped reading: see [`EventSender::reader_gone`]) or the
    /// deadline passed.
    pub fn is_abandoned(&self, now: Instant) -> bool {
        self.tx.reader_gone() || self.deadline.is_some_and(|d| now >= d)
    }
}
