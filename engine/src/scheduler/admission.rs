//! Admission: new requests join the waiting queue; each step `get_new_batch_prefill` moves
//! as many as fit into the running batch (SGLang's PrefillAdder).
//!
//! Memory budget: `free + evictable - reserved`, where `reserved` is what running requests may
//! still need: their uncomputed prompt tokens plus their remaining output budget scaled by
//! `new_token_ratio` (most requests stop well before `max_new_tokens`).

use super::policy::order_waiting;
use super::{Req, Scheduler};
use crate::handle::shared::NewRequest;
use crate::model::ForwardModel;
use crate::sampling::{Sampler, StopChecker};
use crate::tokenizer::DecodeStream;

impl<M: ForwardModel> Scheduler<M> {
    pub(super) fn enqueue(&mut self, new: NewRequest) {
        let NewRequest {
            rid,
            request,
            tx,
            submitted_at,
        } = new;
        let ns = self.cache.namespace_id(&request.namespace);
        let sampler = Sampler::new(&request.params, &request.input_ids);
        let stop = StopChecker::new(&request.params, &self.eos_ids);
        self.next_seq += 1;
        self.waiting.push(Req {
            seq: self.next_seq,
            rid,
            tenant: request.tenant,
            input_ids: request.input_ids,
            output_ids: Vec::new(),
            params: request.params,
            ns,
            kv: None,
            cached_tokens: None,
            sampler,
            stop,
            detok: DecodeStream::new(true),
            tx,
            submitted_at,
            first_token_at: None,
            last_token_at: None,
            deadline: request.deadline,
            retractions: 0,
            pending_ids: Vec::new(),
            pending_text: String::new(),
            pending_logprobs: Vec::new(),
            finish: None,
        });
    }

    /// Tokens the running requests may still claim: uncomputed prompt tokens in full, output
    /// budget scaled by `new_token_ratio`.
    fn reserved_tokens(&self) -> usize {
        self.running
            .iter()
            .map(|r| {
                let output = (r.remaining_new_tokens() as f64 * self.new_token_ratio) as usize;
                // At least the next token: a decode must never be starved by admission.
                r.pending_tokens().saturating_sub(1) + output.max(1)
            })
            .sum()
    }

    /// Moves waiting requests into the running batch while memory, rows and the per-step
    /// prefill budget allow. Returns how many were admitted.
    pub(super) fn get_new_batch_prefill(&mut self) -> usize {
        if self.waiting.is_empty() {
            return 0;
        }
        order_waiting(self.config.policy, &mut self.waiting, self.cache.tree());
        // Claimed by running requests and by those admitted in this call (not yet allocated).
        let mut reserved = self.reserved_tokens();
        // Prefill tokens already promised to running requests this step.
        let mut prefill_tokens: usize = self
            .running
            .iter()
            .map(|r| r.pending_tokens())
            .filter(|&p| p > 1)
            .sum();
        let mut admitted = 0;
        let mut i = 0;
        while i < self.waiting.len() {
            if self.running.len() >= self.config.max_running_requests
                || self.cache.req_to_token().available_rows() == 0
                || prefill_tokens >= self.config.max_prefill_tokens
            {
                break;
            }
            let req = &self.waiting[i];
            let ids = req.fill_ids();
            let key = &ids[..ids.len() - 1];
            let cached = self.cache.tree().prefix_len(req.ns, key).unwrap_or(0);
            if self.shares_uncached_prefix(req, &ids, cached) {
                i += 1;
                continue;
            }
            let mut req = self.waiting.remove(i);
            let kv = match self.cache.admit(req.ns, key) {
                Ok(kv) => kv,
                Err(e) => {
                    tracing::error!(rid = %req.rid, "admission failed: {e}");
                    self.waiting.insert(i, req);
                    break;
                }
            };
            // The budget is read after locking the prefix: locked tokens are no longer
            // evictable, so they cannot be promised to anyone else.
            let extend = ids.len() - kv.cached_len();
            let output = (req.remaining_new_tokens() as f64 * self.new_token_ratio) as usize;
            let need = extend + output.max(1);
            let budget = self
                .cache
                .available_with_eviction()
                .saturating_sub(reserved);
            let alone = self.running.is_empty() && admitted == 0;
            // Alone, a request that fits the pool is admitted even if its output reservation
            // is pessimistic; otherwise it would wait forever.
            if need > budget && !(alone && extend < budget) {
                if let Err(e) = self.cache.release_req(kv) {
                    tracing::error!(rid = %req.rid, "undoing admission: {e}");
                }
                self.waiting.insert(i, req);
                break;
            }
            if req.cached_tokens.is_none() {
                req.cached_tokens = Some(kv.cached_len().min(req.input_ids.len()) as u32);
            }
            req.kv = Some(kv);
            reserved += need;
            prefill_tokens += extend;
            admitted += 1;
            self.running.push(req);
        }
        admitted
    }

    /// In-batch prefix dedup: does `req` share at least `dedup_min_tokens` not-yet-cached
    /// tokens with a running request whose prefill is still under way? Then it waits, and
    /// finds that prefix in the tree once computed.
    fn shares_uncached_prefix(&self, req: &Req, ids: &[u32], cached: usize) -> bool {
        let threshold = cached + self.config.dedup_min_tokens;
        if ids.len() <= threshold {
            return false;
        }
        self.running
            .iter()
            .any(|r| r.ns == req.ns && r.pending_tokens() > 1 && common_prefix(ids, r) > threshold)
    }
}

/// Length of the common prefix of `ids` and `r`'s prompt-then-output tokens.
fn common_prefix(ids: &[u32], r: &Req) -> usize {
    let n = ids.len().min(r.fill_len());
    (0..n).take_while(|&i| ids[i] == r.token_at(i)).count()
}
