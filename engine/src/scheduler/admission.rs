//! Admission: new requests join the waiting queue; each step `get_new_batch_prefill` moves
//! as many as fit into the running batch (SGLang's PrefillAdder).
//!
//! Memory budget: `free + evictable - reserved`, where `reserved` is what running requests may
//! still need: their uncomputed prompt tokens plus their remaining output budget scaled by
//! `new_token_ratio` (most requests stop well before `max_new_tokens`).

use super::policy::order_waiting;
use super::req::PromptScores;
use super::{Req, Scheduler};
use crate::io::{GenerateError, NewRequest};
use crate::model::ForwardModel;
use crate::sampling::{FinishReason, Sampler, StopChecker};
use crate::tenants::TenantId;
use crate::tokenizer::DecodeStream;
use std::collections::{BTreeMap, VecDeque};

/// What became of one waiting request this step.
enum Admission {
    Admitted {
        extend: usize,
    },
    /// Stays waiting; the tenant's next request may go.
    Later(Req),
    /// Stays waiting, and so does the rest of its tenant's queue this step.
    TenantBlocked(Req),
    /// Does not fit the memory left: stays waiting, and so do the rest of its tenant's
    /// queue and the tenants served after it this step (memory frees up for its turn).
    NoRoom(Req),
    /// Can never fit, even alone with every cache evicted (a retracted request whose
    /// prompt and output fill the pool): it ends with what it has.
    NeverFits(Req),
    /// Its prefix went from the pool to disk since it arrived: it waits for the read.
    Loading,
}

impl<M: ForwardModel> Scheduler<M> {
    pub(super) fn enqueue(&mut self, new: NewRequest) {
        let NewRequest {
            rid,
            request,
            tx,
            submitted_at,
        } = new;
        // Its adapter was unloaded on its way in: it ends before it touches anything.
        if let Some(error) = self.adapter_error(request.namespace.adapter) {
            tx.send(crate::io::GenerateEvent::Error(error));
            return;
        }
        // Released when the request ends (`stream_and_release`).
        let ns = self.cache.acquire_namespace(&request.namespace);
        let adapter = request.namespace.adapter;
        let tenant = request.tenant;
        let active = |r: &Req| r.tenant == tenant;
        let loading = self.loading_tenants().any(|t| t == tenant);
        if !loading && !self.waiting.iter().chain(&self.running).any(active) {
            // Becoming active: no credit for the time it was idle.
            let others: Vec<TenantId> = self
                .waiting
                .iter()
                .chain(&self.running)
                .map(|r| r.tenant)
                .chain(self.loading_tenants())
                .collect();
            // Its first prompt (up to two chunks) may run ahead of the others' backlog: a
            // tenant with sparse requests gets them answered promptly, and the advantage is
            // bounded per return from idle.
            let first_prompt = request
                .input_ids
                .len()
                .min(2 * self.config.chunked_prefill_size);
            let head_start = self.tenants.prefill_cost(tenant, first_prompt);
            self.tenants.lift(tenant, others, head_start);
        }
        let stop = StopChecker::new(&request.params, &self.eos_ids);
        let sampler =
            Sampler::new(&request.params, &request.input_ids).hold_stops(stop.stop_token_ids());
        let detok = DecodeStream::showing(
            request.params.skip_special_tokens,
            request.params.shown_control_tokens.clone(),
        );
        self.next_seq += 1;
        let top = request.params.logprobs.unwrap_or(0);
        let prompt_scores = (request.prompt_logprobs_from)
            .map(|from| PromptScores::new(from, top, &request.params.token_ids_logprob));
        let req = Req {
            seq: self.next_seq,
            rid,
            tenant: request.tenant,
            input_ids: request.input_ids,
            output_ids: Vec::new(),
            params: request.params,
            ns,
            adapter,
            kv: None,
            cached_tokens: None,
            admitted_prefix: 0,
            history_len: request.history_len.map(|n| n as usize),
            sampler,
            stop,
            detok,
            tx,
            submitted_at,
            first_token_at: None,
            last_token_at: None,
            deadline: request.deadline,
            retractions: 0,
            drafted: 0,
            accepted: 0,
            pending_ids: Vec::new(),
            pending_text: String::new(),
            pending_logprobs: Vec::new(),
            finish: None,
            error: None,
            constraint: request.constraint,
            embed: request.embed,
            embedding: None,
            prompt_scores,
            staged: None,
            disk_loads: 0,
            may_evict_any: false,
            grammar_turn: 0,
            grammar_waiting: false,
        };
        if let Some(req) = self.start_load(req) {
            self.waiting.push(req);
        }
    }

    /// Tokens the running requests may still claim: uncomputed prompt tokens in full, output
    /// budget (clipped: [`Req::planned_new_tokens`]) scaled by `new_token_ratio`.
    fn reserved_tokens(&self) -> usize {
        self.running
            .iter()
            .map(|r| {
                let output = (r.planned_new_tokens() as f64 * self.new_token_ratio) as usize;
                // At least the next token: a decode must never be starved by admission.
                r.pending_tokens().saturating_sub(1) + output.max(1)
            })
            .sum()
    }

    /// Moves waiting requests into the running batch while memory, rows and the per-step
    /// prefill budget allow. Across tenants the one with the smallest virtual token counter
    /// goes next; within a tenant, the scheduling policy's order. Returns how many were
    /// admitted.
    pub(super) fn get_new_batch_prefill(&mut self) -> usize {
        // A full batch admits nothing: skip ordering and moving the queue (with thousands
        // waiting behind a full batch, that was most of each step's host time).
        if self.waiting.is_empty() || self.batch_is_full() {
            return 0;
        }
        order_waiting(self.config.policy, &mut self.waiting, self.cache.tree());
        // Claimed by running requests and by those admitted in this call (not yet allocated).
        let mut reserved = self.reserved_tokens();
        // Prefill tokens promised by this call.
        let mut prefill_tokens = 0;
        let mut queues: BTreeMap<TenantId, VecDeque<usize>> = BTreeMap::new();
        for (i, r) in self.waiting.iter().enumerate() {
            queues.entry(r.tenant).or_default().push_back(i);
        }
        let mut slots: Vec<Option<Req>> = std::mem::take(&mut self.waiting)
            .into_iter()
            .map(Some)
            .collect();
        let mut admitted = 0;
        let mut promised: BTreeMap<TenantId, f64> = BTreeMap::new();
        let counter = |s: &Self, promised: &BTreeMap<TenantId, f64>, t: TenantId| {
            s.tenants.virtual_tokens(t) + promised.get(&t).copied().unwrap_or(0.0)
        };
        loop {
            if self.batch_is_full() {
                break;
            }
            let Some(tenant) = queues
                .iter()
                .filter(|(_, q)| !q.is_empty())
                .map(|(&t, _)| t)
                .min_by(|&a, &b| {
                    let (va, vb) = (counter(self, &promised, a), counter(self, &promised, b));
                    va.total_cmp(&vb).then(a.cmp(&b))
                })
            else {
                break;
            };
            // Prefill ahead of this tenant's next chunk: the pending prompts of running
            // requests served before it (see `prepare_for_extend`), and this call's.
            if prefill_tokens + self.prefill_ahead_of(tenant) >= self.config.max_prefill_tokens {
                queues.remove(&tenant);
                continue;
            }
            let Some(queue) = queues.get_mut(&tenant) else {
                break;
            };
            let Some(index) = queue.pop_front() else {
                continue;
            };
            let Some(req) = slots[index].take() else {
                continue;
            };
            match self.try_admit(req, &mut reserved, admitted == 0) {
                Admission::Admitted { extend } => {
                    prefill_tokens += extend;
                    admitted += 1;
                    // Counters are charged as tokens are computed; until then the admitted
                    // prompt counts here, so one call does not admit a single tenant's queue.
                    *promised.entry(tenant).or_default() +=
                        self.tenants.prefill_cost(tenant, extend);
                }
                Admission::Later(req) => slots[index] = Some(req),
                Admission::Loading => {}
                Admission::TenantBlocked(req) => {
                    // Nothing more of this tenant this step; others may still fit.
                    slots[index] = Some(req);
                    queues.remove(&tenant);
                }
                Admission::NeverFits(mut req) => {
                    let step = req.stop.abort();
                    req.pending_text.push_str(&step.text);
                    req.finish = Some(FinishReason::Length);
                    if req.embed || req.prompt_scores.is_some() {
                        // Nothing to cut short: an embedding or prompt scores need the
                        // whole prompt.
                        req.error = Some(GenerateError::Engine(
                            "the input does not fit the KV pool".into(),
                        ));
                    }
                    self.done.push_back(req);
                }
                Admission::NoRoom(req) => {
                    // Its turn came and memory was short: the tenants served after it wait
                    // too (as SGLang's PrefillAdder stops at the first request that does not
                    // fit), or a tenant whose requests are larger than others' would wait
                    // for ever while they take every slot that frees up. Holding back only
                    // its need was not enough: another tenant's budget counts its own cache,
                    // which this one may not evict within that tenant's fair share, so the
                    // other's small requests still fitted, step after step. Tenants served
                    // before it are those less served (a counter lifted on a return from
                    // idle only rises), so its turn comes back.
                    slots[index] = Some(req);
                    break;
                }
            }
        }
        self.waiting = slots.into_iter().flatten().collect();
        admitted
    }

    /// No request can join the batch: the running limit is reached or no row is free.
    fn batch_is_full(&self) -> bool {
        self.running.len() >= self.config.max_running_requests
            || self.cache.req_to_token().available_rows() == 0
    }

    /// Pending prefill tokens of running requests whose chunks go before `tenant`'s: those of
    /// tenants with a counter no larger than its own.
    fn prefill_ahead_of(&self, tenant: TenantId) -> usize {
        let own = self.tenants.virtual_tokens(tenant);
        self.running
            .iter()
            .filter(|r| self.tenants.virtual_tokens(r.tenant) <= own)
            .map(|r| r.pending_tokens())
            .filter(|&p| p > 1)
            .sum()
    }

    /// Admits `req` if its tenant's limits and the memory budget allow.
    fn try_admit(&mut self, mut req: Req, reserved: &mut usize, first: bool) -> Admission {
        let tenant = req.tenant;
        let limits = self.tenants.limits(tenant).cloned();
        let max_running = limits.as_ref().and_then(|l| l.max_running_requests);
        if let Some(max) = max_running {
            if self.running.iter().filter(|r| r.tenant == tenant).count() >= max {
                return Admission::TenantBlocked(req);
            }
        }
        if req.staged.is_none() && self.recurrent.is_none() {
            // Evicted (and spilled) while it waited: read it back rather than recompute.
            match self.start_load(req) {
                Some(back) => req = back,
                None => return Admission::Loading,
            }
        }
        let alone = self.running.is_empty() && first;
        if self.restore_staged(&mut req, alone) {
            // Its pages read from disk need room first: its turn holds the others back as
            // any request's does.
            return Admission::NoRoom(req);
        }
        let ids = req.fill_ids();
        // At least the last token is computed; prompt scores still due need the logits
        // of the token before each, so the cached prefix stops there.
        let full_key = (ids.len() - 1).min(req.next_scored().map_or(usize::MAX, |p| p - 1));
        // A model with recurrent state resumes only where a saved state ends.
        let (key_len, snapshot) = match self.saved_state(&req, &ids[..full_key]) {
            Some((id, len)) => (len, Some(id)),
            None if self.recurrent.is_some() => (0, None),
            None => (full_key, None),
        };
        let key = &ids[..key_len];
        let cached = self.cache.tree().prefix_len(req.ns, key).unwrap_or(0);
        // Only the part it may find cached is worth waiting for.
        let dedup = self.recurrent.is_none();
        if dedup && self.shares_uncached_prefix(&req, &ids[..=key_len], cached) {
            return Admission::Later(req);
        }
        let mut kv = match self.cache.admit(req.ns, key) {
            Ok(kv) => kv,
            Err(e) => {
                tracing::error!(rid = %req.rid, "admission failed: {e}");
                return Admission::TenantBlocked(req);
            }
        };
        if let Some(id) = snapshot {
            // The row resumes from the saved state; where that fails (or the tree lost some of
            // its tokens since the lookup), the request starts over without it.
            let row = kv.row_index() as u32;
            let restored = match kv.cached_len() == key_len {
                true => self.model.restore_recurrent(id, row),
                false => Err(crate::model::ModelError::Batch("tokens evicted".into())),
            };
            if let Err(e) = restored {
                tracing::warn!(rid = %req.rid, "not resuming from a saved state: {e}");
                self.undo_admit(&req, kv);
                kv = match self.cache.admit(req.ns, &[]) {
                    Ok(kv) => kv,
                    Err(e) => {
                        tracing::error!(rid = %req.rid, "admission failed: {e}");
                        return Admission::TenantBlocked(req);
                    }
                };
            }
        }
        // The budget is read after locking the prefix: locked tokens are no longer
        // evictable, so they cannot be promised to anyone else.
        let extend = ids.len() - kv.cached_len();
        let output = (req.planned_new_tokens() as f64 * self.new_token_ratio) as usize;
        let need = extend + output.max(1);
        if let Some(quota) = limits.as_ref().and_then(|l| l.kv_quota_tokens) {
            // A quota is a hard limit: the whole output budget counts, not an estimate.
            let quota_need = extend + req.remaining_new_tokens().max(1);
            if !self.fits_quota(tenant, quota, quota_need) {
                self.undo_admit(&req, kv);
                return Admission::TenantBlocked(req);
            }
        }
        // Alone, a request may take any idle cache, fair shares aside: another tenant's
        // protected cache would otherwise keep a prompt longer than the rest of the pool
        // waiting forever.
        let evictable = if alone {
            self.evictable_any()
        } else {
            self.evictable_for(tenant)
        };
        let room = self.cache.allocator().available() + evictable;
        let budget = room.saturating_sub(*reserved);
        // Alone, a request that fits the pool is admitted even if its output reservation
        // is pessimistic; otherwise it would wait forever.
        if need > budget && !(alone && extend < budget) {
            self.undo_admit(&req, kv);
            // Alone with every cache evictable, only what others hold back is missing.
            if alone && extend >= room {
                return Admission::NeverFits(req);
            }
            return Admission::NoRoom(req);
        }
        self.cache.record_admission(&kv, full_key);
        if req.cached_tokens.is_none() {
            req.cached_tokens = Some(kv.cached_len().min(req.input_ids.len()) as u32);
        }
        req.admitted_prefix = kv.cached_len();
        req.kv = Some(kv);
        req.may_evict_any = alone;
        *reserved += need;
        self.running.push(req);
        Admission::Admitted { extend }
    }

    /// Whether `tenant` can take `need` more tokens within `quota`, after evicting its own
    /// cached prefixes if that is what stands in the way.
    fn fits_quota(&mut self, tenant: TenantId, quota: usize, need: usize) -> bool {
        let held = |s: &Self| {
            s.cached_by_tenant()
                .get(tenant as usize)
                .copied()
                .unwrap_or(0)
                + s.running_footprint_of(tenant)
        };
        let over = (held(self) + need).saturating_sub(quota);
        if over > 0 {
            self.evict_own(tenant, over);
        }
        held(self) + need <= quota
    }

    /// For a model with recurrent state, the saved state `req` may resume from: its id and
    /// the tokens it holds, a beginning of `key`.
    fn saved_state(&mut self, req: &Req, key: &[u32]) -> Option<(u64, usize)> {
        let states = self.recurrent.as_mut()?;
        let tree = self.cache.tree();
        let ns = tree.namespace(req.ns)?.clone();
        let cached = |tokens: &[u32]| tree.prefix_len(req.ns, tokens).ok() == Some(tokens.len());
        let mut dropped = Vec::new();
        let found = states.lookup(&ns, key, cached, &mut dropped);
        for id in dropped {
            self.model.drop_recurrent(id);
        }
        found
    }

    fn undo_admit(&mut self, req: &Req, kv: pools::ReqKv) {
        if let Err(e) = self.cache.release_req(kv) {
            tracing::error!(rid = %req.rid, "undoing admission: {e}");
        }
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
