//! One scheduler step: `prepare_for_decode` (retracting, see `retract`, when memory is short),
//! `get_new_batch_prefill`, `prepare_for_extend` for one mixed batch, `run_batch`, and result
//! processing.

use super::device_sampling::SampleResult;
use super::entry::{Entry, ExtendPlan, MAX_SCORE_ROWS_PER_STEP};
use super::prompt_outputs::push_score_rows;
use super::{ngram, phase_done, Req, Scheduler};
use crate::grammar::Constraint;
use crate::io::GenerateError;
use crate::metric_names as names;
use crate::model::{ForwardModel, ModelError};
use crate::sampling::{FinishReason, SampleOutput, Sampler};
use crate::tenants::TenantId;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Rows sampled per parallel task: a row (49,152 logits for the default model) takes tens of
/// microseconds, so small batches stay on the scheduler thread.
const ROWS_PER_TASK: usize = 8;

impl<M: ForwardModel> Scheduler<M> {
    pub(super) fn step(&mut self) {
        self.counters.steps += 1;
        let started = Instant::now();
        // Given tokens' logprobs come from the host sampler, which a launched batch does
        // not use: while a request asks for them, steps run unoverlapped (the batch in
        // flight collected first, so nothing is planned on its tokens).
        let overlap = self.config.overlap_schedule && !self.wants_given_logprobs();
        if !overlap {
            if let Some(flight) = self.flight.take() {
                self.collect(flight, started);
            }
        }
        self.reap_abandoned(started);
        // Their KV goes back now, outside the step's free group, not at the end of the
        // step: the decodes and admissions below may need it.
        self.release_done();
        self.cache.begin_free_group();
        // Before memory is set aside for the decodes: those that wait need none.
        self.grammar_turns();
        self.prepare_for_decode();
        self.get_new_batch_prefill();
        let entries = self.prepare_for_extend();
        let scheduled = phase_done("schedule", started);
        let computed = if overlap {
            self.run_overlapped(&entries, scheduled)
        } else if !entries.is_empty() {
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

    /// Whether a running or waiting request asks for given tokens' logprobs.
    fn wants_given_logprobs(&self) -> bool {
        let asks = |r: &Req| !r.params.token_ids_logprob.is_empty();
        self.running.iter().any(asks) || self.waiting.iter().any(asks)
    }

    /// Aborts requests whose client is gone, whose deadline passed, or that were aborted by id.
    fn reap_abandoned(&mut self, now: Instant) {
        // One pass keeping the queue's order: removing one by one would shift the rest of
        // the queue for each (a whole queue of 4,096 abandoned at once: millions of moves).
        let gone: Vec<Req> = self
            .waiting
            .extract_if(.., |r| r.is_abandoned(now))
            .collect();
        for req in gone {
            self.finish_aborted(req);
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
        self.reap_loading(now);
    }

    pub(super) fn finish_aborted(&mut self, mut req: Req) {
        if self.flight.is_some() {
            self.abandoned_in_flight.insert(req.seq);
        }
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
            let decoding = (0..self.running.len()).filter(|&i| self.decodes_next(i));
            for r in decoding.map(|i| &self.running[i]) {
                // What its next token takes from the free list: nothing while its last page
                // has room (counting a page for each would end or retract requests that fit).
                let need =
                    r.kv.as_ref()
                        .map_or(page, |kv| self.cache.slots_needed(kv, 1));
                *needs.entry(r.tenant).or_default() += need;
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
        let decoding = !self.running.is_empty();
        let decodes = |i: usize| {
            let req = &self.running[i];
            self.decodes_next(i) || (req.grammar_waiting && req.pending_tokens() == 1)
        };
        if decoding && (0..self.running.len()).all(decodes) {
            self.new_token_ratio = (self.new_token_ratio - self.config.new_token_ratio_decay)
                .max(self.config.min_new_token_ratio);
        }
    }

    /// Frees room for each tenant's decode slots (`needs`) from what that tenant may evict;
    /// returns a tenant that stays short.
    fn make_decode_room(&mut self, needs: &BTreeMap<TenantId, usize>) -> Option<TenantId> {
        let mut promised = 0;
        // A request decoding alone may evict any idle cache: nobody else is running, and
        // ending it short would cut its output for the sake of a cache.
        let alone = self.running.len() == 1;
        for (&tenant, &need) in needs {
            let free = self.cache.allocator().available().saturating_sub(promised);
            if free < need {
                self.evict_for(tenant, need - free);
            }
            if alone {
                self.evict_any_short(promised + need);
            }
            if self.cache.allocator().available().saturating_sub(promised) < need {
                return Some(tenant);
            }
            promised += need;
        }
        None
    }

    /// Chooses each running request's tokens for this step (all decodes, then prefill chunks
    /// within the budget), allocates their slots and builds the batch.
    fn prepare_for_extend(&mut self) -> Vec<Entry> {
        self.batch.clear();
        let order = self.extend_order();
        let mut plan = self.extend_plan();
        let mut entries = Vec::new();
        // A second pass only when grammar waits left the step empty (a prefill found no
        // room): then the waiting run, since they delay nobody.
        for pass in 0..2 {
            // No drafts in the second pass: the slots counted for decodes did not include
            // the waiting ones.
            plan.drafts = plan.speculate && pass == 0;
            for &i in &order {
                if let Some(entry) = self.plan_entry(i, &mut plan) {
                    entries.push(entry);
                }
            }
            let waiting = self.running.iter().any(|r| r.grammar_waiting);
            if pass > 0 || !entries.is_empty() || !waiting {
                break;
            }
            let step = self.counters.steps;
            for req in self.running.iter_mut().filter(|r| r.grammar_waiting) {
                req.grammar_waiting = false;
                req.grammar_turn = step;
            }
        }
        self.count_grammar_waits();
        entries
    }

    /// The running requests in the order they get this step's tokens. Decodes first: they
    /// never wait behind prefills. Prefill chunks then go to the tenant served least so far
    /// (its virtual token counter), so a light tenant's prompt is not queued behind a heavy
    /// tenant's backlog of long prompts.
    fn extend_order(&self) -> Vec<usize> {
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
        order
    }

    /// The step's budgets before any entry is planned.
    fn extend_plan(&self) -> ExtendPlan {
        // Overlap scheduling verifies no drafts: a draft needs the token before it.
        let overlap = self.config.overlap_schedule;
        let speculate = !overlap
            && self.config.speculative_draft_tokens > 0
            && self.running.len() <= self.config.speculative_max_batch;
        // Free slots the decodes of this step need: a draft may take only what the decodes
        // after it leave (admissions since prepare_for_decode may have taken some; drafts
        // then give way).
        let decode_slots: usize = if speculate {
            (0..self.running.len())
                .filter(|&i| self.decodes_next(i))
                .filter_map(|i| self.running[i].kv.as_ref())
                .map(|kv| self.cache.slots_needed(kv, 1))
                .sum()
        } else {
            0
        };
        ExtendPlan {
            prefill_budget: self.config.max_prefill_tokens,
            score_rows: MAX_SCORE_ROWS_PER_STEP,
            decode_slots,
            overlap,
            speculate,
            drafts: speculate,
        }
    }

    /// Plans running request `i`'s tokens of this step: allocates their slots and adds them
    /// to the batch. None when it sits the step out (a grammar wait, a token still being
    /// sampled, no budget or no room).
    fn plan_entry(&mut self, i: usize, plan: &mut ExtendPlan) -> Option<Entry> {
        if self.running[i].grammar_waiting {
            return None;
        }
        self.save_history_state(i);
        let pending = self.running[i].pending_tokens();
        // Its last token is still being sampled: it decodes on that future token or sits
        // this step out.
        let future = self.in_flight(i).is_some();
        if future && !(plan.overlap && self.future_decode_ok(i)) {
            return None;
        }
        let mut draft = if pending == 1 && plan.drafts {
            self.draft_for(i)
        } else {
            Vec::new()
        };
        let scoring = self.running[i].next_scored().is_some();
        let tokens = if future || pending == 1 {
            1 + draft.len()
        } else {
            let tokens = (pending.min(plan.prefill_budget)).min(self.config.chunked_prefill_size);
            let tokens = self.up_to_history(i, tokens);
            // Each scored token's logits row is vocabulary-wide: a step scores a bounded
            // number (the runner holds them all at once).
            if scoring {
                tokens.min(plan.score_rows)
            } else {
                tokens
            }
        };
        if tokens == 0 {
            return None;
        }
        // Room from what this tenant may evict (never for a draft: it uses free slots or is
        // dropped).
        let room = self.running[i]
            .kv
            .as_ref()
            .map(|kv| self.cache.slots_needed(kv, tokens - draft.len()))?;
        let alone = self.running.len() == 1 || self.running[i].may_evict_any;
        self.make_room_for(self.running[i].tenant, room, alone);
        let req = &mut self.running[i];
        let kv = req.kv.as_mut()?;
        // From free slots only: the global LRU could take a cache within its fair share.
        let mut tokens = tokens;
        if pending == 1 && plan.speculate {
            plan.decode_slots = plan
                .decode_slots
                .saturating_sub(self.cache.slots_needed(kv, 1));
            let free = self.cache.allocator().available();
            while !draft.is_empty()
                && free < self.cache.slots_needed(kv, tokens) + plan.decode_slots
            {
                draft.pop();
                tokens -= 1;
            }
        }
        if let Err(e) = self.cache.alloc_tokens_from_free(kv, tokens) {
            // No room for a draft: decode plainly.
            let plain = !draft.is_empty() && self.cache.alloc_tokens_from_free(kv, 1).is_ok();
            if !plain {
                // Memory went to earlier entries this step; try again next step.
                tracing::debug!(rid = %req.rid, "no slots this step: {e}");
                return None;
            }
            draft.clear();
            tokens = 1;
        }
        if pending > 1 {
            plan.prefill_budget -= tokens;
            if scoring {
                plan.score_rows = plan.score_rows.saturating_sub(tokens);
            }
        }
        let row = kv.row_index() as u32;
        let slots = self.cache.slots(kv);
        let start = slots.len() - tokens;
        let mut ids: Vec<u32> = if future {
            // A placeholder the launch replaces with the sampled token.
            vec![0]
        } else {
            (start..start + tokens - draft.len())
                .map(|p| req.token_at(p))
                .collect()
        };
        ids.extend_from_slice(&draft);
        let last = future || tokens - draft.len() == pending;
        // An embedding request's last prompt token gives its hidden state, not logits; a
        // request that only scores its prompt ends with it.
        let ends = last && req.prompt_only();
        let (samples, embeds) = (last && !ends, ends && req.embed);
        let base = self.batch.num_tokens();
        self.batch.push_request(
            row,
            &ids,
            start as u32,
            &slots[start..],
            slots,
            samples && draft.is_empty(),
        );
        self.batch.adapters.push(req.adapter);
        if embeds {
            self.batch
                .hidden_rows
                .push(self.batch.num_tokens() as u32 - 1);
        }
        let (scores, score_from) = if future {
            (0, 0)
        } else {
            push_score_rows(
                &mut self.batch,
                req,
                base,
                start..start + tokens - draft.len(),
            )
        };
        if !draft.is_empty() {
            // Every position's logits: the pending token's, then each draft token's.
            let end = self.batch.num_tokens() as u32;
            self.batch.logits_rows.extend(end - tokens as u32..end);
        }
        Some(Entry {
            index: i,
            start,
            tokens,
            samples,
            embeds,
            ends,
            scores,
            score_from,
            draft,
            future,
        })
    }

    /// The n-gram draft of decoding request `index`, if speculation pays for it: not for
    /// grammar-constrained requests (their masks follow each token), and never past the
    /// request's output budget or its row.
    fn draft_for(&self, index: usize) -> Vec<u32> {
        let req = &self.running[index];
        if req.constraint.is_some() || !req.drafts_pay() {
            return Vec::new();
        }
        let room = self
            .cache
            .req_to_token()
            .max_context_len()
            .saturating_sub(req.fill_len());
        let k = self
            .config
            .speculative_draft_tokens
            .min(req.remaining_new_tokens().saturating_sub(1))
            .min(room);
        ngram::draft(&req.fill_ids(), k)
    }

    /// Runs the batch and processes its logits; `since` starts the forward phase. Returns
    /// when the last phase it timed ended.
    fn run_batch(&mut self, entries: &[Entry], since: Instant) -> Instant {
        self.count_batch(entries);
        let vocab = self.model.vocab_size();
        let (samples, forwarded) = match self.forward_and_sample(entries, vocab, since) {
            Ok(done) => done,
            Err(e) => {
                tracing::error!("forward failed: {e}");
                self.fail_entries(entries, &format!("model error: {e}"));
                return Instant::now();
            }
        };
        self.process_results(entries, samples, forwarded)
    }

    /// Records each entry's sampled tokens (one result per sampling entry, in order),
    /// caches finished prefills, charges the tenants and finishes the requests that are
    /// done; `since` starts the sample phase, whose end is returned.
    pub(super) fn process_results(
        &mut self,
        entries: &[Entry],
        samples: Vec<SampleResult>,
        since: Instant,
    ) -> Instant {
        let mut samples = samples.into_iter();
        let mut finished = Vec::new();
        for e in entries {
            let tenant = self.running[e.index].tenant;
            if !e.decodes() {
                self.tenants.charge(tenant, e.tokens, 0);
            }
            if e.samples {
                self.bill_grammar(e.index);
            }
            if e.ends {
                // Its embedding or scores were taken after the pass: the request is done.
                let req = &mut self.running[e.index];
                if e.embeds && req.embedding.is_none() {
                    req.error = Some(GenerateError::Engine(
                        "no hidden state for the embedding".into(),
                    ));
                }
                req.finish = Some(FinishReason::Length);
                finished.push(e.index);
                continue;
            }
            if !e.samples {
                self.cache_progress(e.index);
                continue;
            }
            let Some(sampled) = samples.next() else {
                break; // one result per sampling entry: cannot happen
            };
            let sampled = match sampled {
                Ok(sampled) => sampled,
                Err(message) => {
                    // The request's grammar failed: it ends with the error, nobody else does.
                    let req = &mut self.running[e.index];
                    req.error = Some(GenerateError::Grammar(message));
                    req.finish = Some(FinishReason::Abort);
                    finished.push(e.index);
                    continue;
                }
            };
            if sampled.is_empty() {
                // No logits row for it (cannot happen): fail it rather than retry forever.
                let req = &mut self.running[e.index];
                req.error = Some(GenerateError::Engine(
                    "no logits for the request's next token".into(),
                ));
                req.finish = Some(FinishReason::Abort);
                finished.push(e.index);
                continue;
            }
            let mut recorded = 0;
            let mut done = false;
            for sample in sampled {
                recorded += 1;
                if self.record_sample(e.index, sample) {
                    done = true;
                    break;
                }
            }
            if e.decodes() {
                self.tenants.charge(tenant, 0, recorded);
            }
            if !e.draft.is_empty() {
                // Verified positions that gave no token (a request that finished mid-draft
                // had its whole draft computed too).
                let rejected = e.tokens.saturating_sub(recorded);
                self.tenants.charge_rejected_drafts(tenant, rejected);
                self.settle_draft(e, recorded);
            }
            if done {
                finished.push(e.index);
            } else if e.tokens > 1 && e.draft.is_empty() {
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
        phase_done("sample", since)
    }

    /// Runs the batch and samples each sampling entry: where the logits are when the model
    /// can ([`Self::forward_sampled_on_device`]), else on the host. One result per sampling
    /// entry, in order; also returns when the forward phase ended.
    fn forward_and_sample(
        &mut self,
        entries: &[Entry],
        vocab: usize,
        since: Instant,
    ) -> Result<(Vec<SampleResult>, Instant), ModelError> {
        if self.samples_on_device(entries) {
            return self.forward_sampled_on_device(entries, vocab, since);
        }
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
            let started = Instant::now();
            let forward = model.forward(batch, kv);
            let forward_time = started.elapsed();
            let masks = masks.map(|h| h.join().unwrap_or_default());
            (
                forward.map(|logits| (logits, forward_time)),
                masks.unwrap_or_default(),
            )
        });
        let (logits, forward_time) = forward?;
        self.forward_time = forward_time;
        self.logits_scratch.clear();
        self.logits_scratch.extend_from_slice(logits);
        self.take_prompt_outputs(entries)?;
        let forwarded = phase_done("forward", since);
        Ok((self.sample_rows(entries, vocab, &mut masks), forwarded))
    }

    /// Counts the batch's prefill and decode tokens, and records its size.
    pub(super) fn count_batch(&mut self, entries: &[Entry]) {
        let prefill: usize = entries
            .iter()
            .filter(|e| !e.decodes())
            .map(|e| e.tokens)
            .sum();
        self.counters.prefill_tokens += prefill as u64;
        self.counters.decode_tokens += (self.batch.num_tokens() - prefill) as u64;
        metrics::histogram!(names::BATCH_TOKENS).record(self.batch.num_tokens() as f64);
        metrics::histogram!(names::BATCH_REQUESTS).record(entries.len() as f64);
    }

    /// After a speculative decode that recorded `recorded` tokens: the pending token and the
    /// first `recorded - 1` draft tokens (those sampled as drafted) have valid K/V; the
    /// slots of the rest of the draft are given back.
    fn settle_draft(&mut self, e: &Entry, recorded: usize) {
        let accepted = recorded.saturating_sub(1);
        let req = &mut self.running[e.index];
        req.drafted = req.drafted.saturating_add(e.draft.len() as u32);
        req.accepted = req.accepted.saturating_add(accepted as u32);
        metrics::counter!(names::SPEC_DRAFTED).increment(e.draft.len() as u64);
        metrics::counter!(names::SPEC_ACCEPTED).increment(accepted as u64);
        self.counters.spec_draft_tokens += e.draft.len() as u64;
        self.counters.spec_accepted_tokens += accepted as u64;
        let Some(kv) = req.kv.as_mut() else {
            return;
        };
        if let Err(err) = self.cache.truncate_tail(kv, e.start + recorded) {
            tracing::error!(rid = %req.rid, "rejected draft slots: {err}");
        }
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
    ) -> Vec<SampleResult> {
        // Running index -> (its first logits row, its draft); rows follow the entries.
        let mut plan: Vec<Option<(usize, &[u32])>> = vec![None; self.running.len()];
        let mut rows = 0;
        for e in entries.iter().filter(|e| e.samples) {
            if let Some(p) = plan.get_mut(e.index) {
                *p = Some((rows, &e.draft));
                rows += 1 + e.draft.len();
            }
        }
        type Job<'a> = (
            usize,
            &'a [u32],
            &'a mut Sampler,
            Option<&'a mut Constraint>,
            Option<Result<Vec<u32>, String>>,
        );
        let mut jobs: Vec<Job> = self
            .running
            .iter_mut()
            .zip(&plan)
            .enumerate()
            .filter_map(|(i, (req, p))| {
                let (row, draft) = (*p)?;
                let mask = masks.get_mut(i).and_then(Option::take);
                Some((row, draft, &mut req.sampler, req.constraint.as_mut(), mask))
            })
            .collect();
        jobs.sort_unstable_by_key(|(row, ..)| *row);
        // Each job's rows, back to back in row order.
        let mut rest = &mut self.logits_scratch[..];
        let mut work = Vec::with_capacity(jobs.len());
        for job in jobs {
            let len = ((1 + job.1.len()) * vocab).min(rest.len());
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            work.push((job, mine));
        }
        let sample = |((_, draft, sampler, constraint, mask), logits): (Job, &mut [f32])| {
            if let Some(constraint) = constraint {
                let words = match mask {
                    Some(computed) => computed?,
                    None => constraint.compute_mask()?,
                };
                constraint.apply_mask(&words, logits);
                return Ok(vec![sampler.sample(logits)]);
            }
            Ok(verify(draft, sampler, logits, vocab))
        };
        // One task's worth runs here: handing it to the pool would only add a wake-up.
        if work.len() <= ROWS_PER_TASK {
            return work.into_iter().map(sample).collect();
        }
        work.into_par_iter()
            .with_min_len(ROWS_PER_TASK)
            .map(sample)
            .collect()
    }

    /// `cache_unfinished_req`: hands the request's computed pages to the tree.
    pub(super) fn cache_progress(&mut self, index: usize) {
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

    pub(super) fn fail_entries(&mut self, entries: &[Entry], message: &str) {
        self.fail_running(entries.iter().map(|e| e.index).collect(), message);
    }

    /// Ends the running requests at `indices` with `message`.
    pub(super) fn fail_running(&mut self, mut indices: Vec<usize>, message: &str) {
        indices.sort_unstable_by(|a, b| b.cmp(a));
        indices.dedup();
        for i in indices {
            let mut req = self.running.swap_remove(i);
            // The request's stream ends with the error; its KV is released like an abort.
            req.error = Some(GenerateError::Engine(message.to_string()));
            req.finish = Some(FinishReason::Abort);
            self.counters.aborted += 1;
            self.done.push_back(req);
        }
    }

    pub(super) fn abort_all(&mut self, why: &str) {
        self.stop_loading();
        // Every request it samples for ends here.
        self.drop_flight();
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

/// Samples the rows of one request in order, exactly as plain decoding would sample them
/// one step at a time (same random stream positions, same penalty history): row `j` holds
/// the logits after draft token `j` (row 0: after the pending token). Stops after the
/// first sample that differs from the draft, or after the row past the draft's end; every
/// sample taken is a token of the output.
fn verify(
    draft: &[u32],
    sampler: &mut Sampler,
    logits: &mut [f32],
    vocab: usize,
) -> Vec<SampleOutput> {
    let mut out = Vec::with_capacity(1 + draft.len());
    for (j, row) in logits.chunks_exact_mut(vocab).enumerate() {
        let sample = sampler.sample(row);
        let matches = draft.get(j) == Some(&sample.token);
        out.push(sample);
        if !matches {
            break;
        }
    }
    out
}
