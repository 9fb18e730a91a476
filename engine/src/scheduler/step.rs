//! One scheduler step: `prepare_for_decode` (with retraction), `get_new_batch_prefill`,
//! `prepare_for_extend` for one mixed batch, `run_batch`, and result processing.

use super::{Req, Scheduler};
use crate::grammar::Constraint;
use crate::metric_names as names;
use crate::metric_names::STEP_PHASE;
use crate::model::ForwardModel;
use crate::sampling::{FinishReason, SampleOutput, Sampler};
use crate::tenants::TenantId;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Rows sampled per parallel task: a row (49,152 logits for the default model) takes tens of
/// microseconds, so small batches stay on the scheduler thread.
const ROWS_PER_TASK: usize = 8;

/// Records the time since `since` as step phase `phase`; returns now.
fn phase_done(phase: &'static str, since: Instant) -> Instant {
    let now = Instant::now();
    metrics::histogram!(STEP_PHASE, "phase" => phase).record((now - since).as_secs_f64());
    now
}

/// What one running request contributes to the batch.
struct Entry {
    /// Index into `running`.
    index: usize,
    /// Tokens computed this step.
    tokens: usize,
    /// Whether this finishes the request's pending tokens, so its logits are sampled.
    samples: bool,
}

impl<M: ForwardModel> Scheduler<M> {
    pub(super) fn step(&mut self) {
        self.counters.steps += 1;
        let started = Instant::now();
        self.cache.begin_free_group();
        self.reap_abandoned(started);
        self.prepare_for_decode();
        self.get_new_batch_prefill();
        let entries = self.prepare_for_extend();
        let scheduled = phase_done("schedule", started);
        let computed = if !entries.is_empty() {
            self.run_batch(&entries, scheduled)
        } else {
            if !self.running.is_empty() {
                // Every running request is mid-prefill and the pool is exhausted: give way.
                self.retract_one();
            }
            scheduled
        };
        self.stream_and_release();
        self.cache.end_free_group();
        self.sync_salts();
        phase_done("output", computed);
    }

    /// Aborts requests whose client is gone, whose deadline passed, or that were aborted by id.
    fn reap_abandoned(&mut self, now: Instant) {
        let mut i = 0;
        while i < self.waiting.len() {
            if self.waiting[i].is_abandoned(now) {
                let req = self.waiting.remove(i);
                self.finish_aborted(req);
            } else {
                i += 1;
            }
        }
        let mut i = 0;
        while i < self.running.len() {
            if self.running[i].is_abandoned(now) {
                let req = self.running.swap_remove(i);
                self.finish_aborted(req);
            } else {
                i += 1;
            }
        }
    }

    fn finish_aborted(&mut self, mut req: Req) {
        let step = req.stop.abort();
        req.pending_text.push_str(&step.text);
        req.finish = Some(FinishReason::Abort);
        self.counters.aborted += 1;
        self.done.push_back(req);
    }

    /// Makes sure every decoding request can get its next slot this step, each tenant's from
    /// free slots and what that tenant may evict (fair share, see `tenant_kv`); if one is
    /// left short, retracts a request (of the tenant most above its share, else of the short
    /// tenant itself) back to the waiting queue, its computed prefix left in the tree.
    fn prepare_for_decode(&mut self) {
        loop {
            let page = self.cache.page_size();
            let mut needs: BTreeMap<TenantId, usize> = BTreeMap::new();
            for r in self.running.iter().filter(|r| r.pending_tokens() == 1) {
                // Worst case a fresh page per request.
                *needs.entry(r.tenant).or_default() += page;
            }
            let Some(short) = self.make_decode_room(&needs) else {
                break;
            };
            if self.running.len() == 1 {
                // Alone and out of memory: nothing to give way to. End it with what it has.
                let mut req = self.running.remove(0);
                let step = req.stop.abort();
                req.pending_text.push_str(&step.text);
                req.finish = Some(FinishReason::Length);
                self.done.push_back(req);
                break;
            }
            self.retract_for(short);
        }
        if self.running.iter().all(|r| r.pending_tokens() == 1) {
            self.new_token_ratio = (self.new_token_ratio - self.config.new_token_ratio_decay)
                .max(self.config.min_new_token_ratio);
        }
    }

    /// Frees room for each tenant's decode slots (`needs`) from what that tenant may evict;
    /// returns a tenant that stays short.
    fn make_decode_room(&mut self, needs: &BTreeMap<TenantId, usize>) -> Option<TenantId> {
        let mut promised = 0;
        for (&tenant, &need) in needs {
            let free = self.cache.allocator().available().saturating_sub(promised);
            if free < need {
                self.evict_for(tenant, need - free);
            }
            if self.cache.allocator().available().saturating_sub(promised) < need {
                return Some(tenant);
            }
            promised += need;
        }
        None
    }

    /// Retracts one request because `short` cannot get its decode slots: one of the tenant
    /// holding the most KV above its fair share, or, when no tenant is above it, one of
    /// `short`'s own (it may not take from tenants within their share).
    fn retract_for(&mut self, short: TenantId) {
        let capacity = self.cache.allocator().capacity();
        let cached = self.cached_by_tenant();
        let mut tenants: Vec<TenantId> = self.running.iter().map(|r| r.tenant).collect();
        tenants.sort_unstable();
        tenants.dedup();
        let excess = |s: &Self, t: TenantId| {
            let held = cached.get(t as usize).copied().unwrap_or(0) + s.running_kv_of(t);
            held as i64 - s.tenants.fair_share(t, capacity) as i64
        };
        let most_over = tenants
            .iter()
            .map(|&t| (excess(self, t), t))
            .max()
            .filter(|&(over, _)| over > 0)
            .map(|(_, t)| t);
        let victim_tenant = most_over.unwrap_or(short);
        self.retract_one_where(|r| r.tenant == victim_tenant);
    }

    /// Retracts the running request with the fewest generated tokens (then the longest
    /// prompt, then the newest): it loses the least work.
    fn retract_one(&mut self) {
        self.retract_one_where(|_| true);
    }

    /// [`Self::retract_one`] among the running requests `eligible` accepts.
    fn retract_one_where(&mut self, eligible: impl Fn(&Req) -> bool) {
        let victim = (0..self.running.len())
            .filter(|&i| eligible(&self.running[i]))
            .min_by_key(|&i| {
                let r = &self.running[i];
                (
                    r.output_ids.len(),
                    std::cmp::Reverse(r.input_ids.len()),
                    std::cmp::Reverse(r.seq),
                )
            });
        if let Some(i) = victim {
            let req = self.running.swap_remove(i);
            self.retract(req);
        }
    }

    fn retract(&mut self, mut req: Req) {
        if let Some(kv) = req.kv.take() {
            let len = kv.kv_len();
            let ids = req.fill_ids();
            if let Err(e) = self.cache.cache_finished_req(kv, &ids[..len]) {
                tracing::error!(rid = %req.rid, "retraction: {e}");
            }
        }
        req.retractions += 1;
        self.counters.retractions += 1;
        metrics::counter!(names::RETRACTIONS).increment(1);
        // Retraction means admission was too optimistic: reserve more from now on.
        self.new_token_ratio = (self.new_token_ratio + 0.3).min(1.0);
        self.waiting.push(req);
    }

    /// Chooses each running request's tokens for this step (all decodes, then prefill chunks
    /// within the budget), allocates their slots and builds the batch.
    fn prepare_for_extend(&mut self) -> Vec<Entry> {
        self.batch.clear();
        let mut entries = Vec::new();
        let mut prefill_budget = self.config.max_prefill_tokens;
        // Decodes first: they never wait behind prefills. Prefill chunks then go to the
        // tenant served least so far (its virtual token counter), so a light tenant's prompt
        // is not queued behind a heavy tenant's backlog of long prompts.
        let mut order: Vec<usize> = (0..self.running.len()).collect();
        let key = |r: &Req| {
            (
                r.pending_tokens() > 1,
                self.tenants.virtual_tokens(r.tenant),
                r.seq,
            )
        };
        order.sort_by(|&a, &b| {
            let (ka, kb) = (key(&self.running[a]), key(&self.running[b]));
            ka.0.cmp(&kb.0)
                .then(ka.1.total_cmp(&kb.1))
                .then(ka.2.cmp(&kb.2))
        });
        for i in order {
            let pending = self.running[i].pending_tokens();
            let tokens = if pending == 1 {
                1
            } else {
                pending
                    .min(prefill_budget)
                    .min(self.config.chunked_prefill_size)
            };
            if tokens == 0 {
                continue;
            }
            // Room from what this tenant may evict.
            let page = self.cache.page_size();
            self.make_room_for(self.running[i].tenant, tokens.div_ceil(page) * page + page);
            let req = &mut self.running[i];
            let Some(kv) = req.kv.as_mut() else {
                continue;
            };
            // From free slots only: the global LRU could take a cache within its fair share.
            if let Err(e) = self.cache.alloc_tokens_from_free(kv, tokens) {
                // Memory went to earlier entries this step; try again next step.
                tracing::debug!(rid = %req.rid, "no slots this step: {e}");
                continue;
            }
            if pending > 1 {
                prefill_budget -= tokens;
            }
            let row = kv.row_index() as u32;
            let slots = self.cache.slots(kv);
            let start = slots.len() - tokens;
            let ids: Vec<u32> = (start..start + tokens).map(|p| req.token_at(p)).collect();
            let samples = tokens == pending;
            self.batch
                .push_request(row, &ids, start as u32, &slots[start..], slots, samples);
            entries.push(Entry {
                index: i,
                tokens,
                samples,
            });
        }
        entries
    }

    /// Runs the batch and processes its logits; `since` starts the forward phase. Returns
    /// when the last phase it timed ended.
    fn run_batch(&mut self, entries: &[Entry], since: Instant) -> Instant {
        let prefill: usize = entries
            .iter()
            .filter(|e| !(e.tokens == 1 && e.samples))
            .map(|e| e.tokens)
            .sum();
        self.counters.prefill_tokens += prefill as u64;
        self.counters.decode_tokens += (self.batch.num_tokens() - prefill) as u64;
        metrics::histogram!(names::BATCH_TOKENS).record(self.batch.num_tokens() as f64);
        metrics::histogram!(names::BATCH_REQUESTS).record(entries.len() as f64);
        let vocab = self.model.vocab_size();
        // Grammar masks depend only on the tokens so far: computed beside the forward pass.
        let constrained: Vec<usize> = entries
            .iter()
            .filter(|e| e.samples && self.running[e.index].constraint.is_some())
            .map(|e| e.index)
            .collect();
        let (model, kv, batch, running) = (
            &mut self.model,
            &mut self.kv,
            &self.batch,
            &mut self.running,
        );
        let (forward, mut masks) = std::thread::scope(|scope| {
            let masks = (!constrained.is_empty()).then(|| {
                scope.spawn(|| {
                    let mut masks = vec![None; running.len()];
                    for &i in &constrained {
                        if let Some(c) = running.get_mut(i).and_then(|r| r.constraint.as_mut()) {
                            masks[i] = Some(c.compute_mask());
                        }
                    }
                    masks
                })
            });
            let forward = model.forward(batch, kv);
            let masks = masks.map(|h| h.join().unwrap_or_default());
            (forward, masks.unwrap_or_default())
        });
        let logits = match forward {
            Ok(l) => l,
            Err(e) => {
                tracing::error!("forward failed: {e}");
                self.fail_entries(entries, &format!("model error: {e}"));
                return Instant::now();
            }
        };
        self.logits_scratch.clear();
        self.logits_scratch.extend_from_slice(logits);
        let forwarded = phase_done("forward", since);
        let mut samples = self.sample_rows(entries, vocab, &mut masks).into_iter();
        let mut finished = Vec::new();
        for e in entries {
            let tenant = self.running[e.index].tenant;
            if e.tokens == 1 && e.samples {
                self.tenants.charge(tenant, 0, 1);
            } else {
                self.tenants.charge(tenant, e.tokens, 0);
            }
            if !e.samples {
                self.cache_progress(e.index);
                continue;
            }
            let Some(sample) = samples.next() else {
                break; // one sample per sampling entry: cannot happen
            };
            let sample = match sample {
                Ok(sample) => sample,
                Err(message) => {
                    // The request's grammar failed: it ends with the error, nobody else does.
                    let req = &mut self.running[e.index];
                    req.error = Some(message);
                    req.finish = Some(FinishReason::Abort);
                    finished.push(e.index);
                    continue;
                }
            };
            if self.record_sample(e.index, sample) {
                finished.push(e.index);
            } else if e.tokens > 1 {
                // A finished prefill: put the prompt in the tree for requests that share it.
                self.cache_progress(e.index);
            }
        }
        finished.sort_unstable_by(|a, b| b.cmp(a));
        for i in finished {
            let req = self.running.swap_remove(i);
            self.counters.finished += 1;
            self.done.push_back(req);
        }
        phase_done("sample", forwarded)
    }

    /// Samples one token for each entry of `entries` that samples, from the logits rows in
    /// `logits_scratch` (one row per such entry, in order), the rows in parallel: each
    /// request's sampler and grammar are its own (RNG, penalties, mask), so the result does
    /// not depend on the threads. A grammar that fails fails only its own row. `masks` holds
    /// grammar masks computed beside the forward pass, by running index.
    fn sample_rows(
        &mut self,
        entries: &[Entry],
        vocab: usize,
        masks: &mut [Option<Result<Vec<u32>, String>>],
    ) -> Vec<Result<SampleOutput, String>> {
        // Running index -> logits row.
        let mut row_of = vec![usize::MAX; self.running.len()];
        let mut rows = 0;
        for e in entries.iter().filter(|e| e.samples) {
            if let Some(r) = row_of.get_mut(e.index) {
                *r = rows;
                rows += 1;
            }
        }
        type Job<'a> = (
            usize,
            &'a mut Sampler,
            Option<&'a mut Constraint>,
            Option<Result<Vec<u32>, String>>,
        );
        let mut jobs: Vec<Job> = self
            .running
            .iter_mut()
            .zip(&row_of)
            .enumerate()
            .filter(|(_, (_, &row))| row != usize::MAX)
            .map(|(i, (req, &row))| {
                let mask = masks.get_mut(i).and_then(Option::take);
                (row, &mut req.sampler, req.constraint.as_mut(), mask)
            })
            .collect();
        jobs.sort_unstable_by_key(|(row, ..)| *row);
        jobs.into_par_iter()
            .zip(self.logits_scratch.par_chunks_exact_mut(vocab))
            .with_min_len(ROWS_PER_TASK)
            .map(|((_, sampler, constraint, mask), logits)| {
                if let Some(constraint) = constraint {
                    let words = match mask {
                        Some(computed) => computed?,
                        None => constraint.compute_mask()?,
                    };
                    constraint.apply_mask(&words, logits);
                }
                Ok(sampler.sample(logits))
            })
            .collect()
    }

    /// `cache_unfinished_req`: hands the request's computed pages to the tree.
    fn cache_progress(&mut self, index: usize) {
        let req = &mut self.running[index];
        let len = req.kv_len();
        let ids: Vec<u32> = (0..len).map(|p| req.token_at(p)).collect();
        let Some(kv) = req.kv.as_mut() else {
            return;
        };
        if let Err(e) = self.cache.cache_unfinished_req(kv, &ids) {
            tracing::error!(rid = %req.rid, "cache_unfinished_req: {e}");
        }
    }

    fn fail_entries(&mut self, entries: &[Entry], message: &str) {
        let mut idx: Vec<usize> = entries.iter().map(|e| e.index).collect();
        idx.sort_unstable_by(|a, b| b.cmp(a));
        for i in idx {
            let mut req = self.running.swap_remove(i);
            // The request's stream ends with the error; its KV is released like an abort.
            req.error = Some(message.to_string());
            req.finish = Some(FinishReason::Abort);
            self.counters.aborted += 1;
            self.done.push_back(req);
        }
    }

    pub(super) fn abort_all(&mut self, why: &str) {
        tracing::info!(
            "aborting {} requests: {why}",
            self.waiting.len() + self.running.len()
        );
        let all: Vec<Req> = self
            .waiting
            .drain(..)
            .chain(self.running.drain(..))
            .collect();
        for req in all {
            self.finish_aborted(req);
        }
        self.stream_and_release();
        self.sync_salts();
    }
}
