//! Sampling, streaming and the end of requests (`process_batch_result_*`, `cache_finished_req`).

use super::{Req, Scheduler};
use crate::grammar::{Constraint, Step};
use crate::io::{Completion, GenerateError, GenerateEvent, TenantInfo, TokenLogprob, Usage};
use crate::metric_names as names;
use crate::model::{ForwardModel, KvPool};
use crate::sampling::{FinishReason, SampleOutput, StopMatch};
use std::time::Instant;

impl<M: ForwardModel> Scheduler<M> {
    /// Records the token sampled for running request `index` and its text. Returns whether
    /// the request is finished.
    pub(super) fn record_sample(&mut self, index: usize, out: SampleOutput) -> bool {
        let first = self.running[index].first_token_at.is_none();
        let tenant = first.then(|| self.tenant_label(self.running[index].tenant));
        let req = &mut self.running[index];
        let now = Instant::now();
        if let Some(tenant) = tenant {
            req.first_token_at = Some(now);
            metrics::histogram!(names::TTFT, "tenant" => tenant)
                .record((now - req.submitted_at).as_secs_f64());
        } else if let Some(last) = req.last_token_at {
            metrics::histogram!(names::INTER_TOKEN).record((now - last).as_secs_f64());
        }
        req.last_token_at = Some(now);
        // The grammar first: it may fail, force the next tokens or end the request.
        let grammar = req.constraint.as_mut().map(|c| c.advance(out.token));
        let logprob = req.params.logprobs.is_some().then_some(TokenLogprob {
            token_id: out.token,
            logprob: out.logprob,
            top: out.top,
            given: out.given,
        });
        if self.push_output_token(index, out.token, logprob) {
            return true;
        }
        let (forced, done) = match grammar {
            None => return false,
            Some(Err(message)) => {
                let req = &mut self.running[index];
                req.error = Some(GenerateError::Grammar(message));
                req.finish = Some(FinishReason::Abort);
                return true;
            }
            Some(Ok(Step::Continue { forced })) => (forced, false),
            Some(Ok(Step::Done { forced })) => (forced, true),
        };
        let with_logprobs = self.running[index].params.logprobs.is_some();
        for token in forced {
            self.running[index].sampler.observe(token);
            // Forced: the only token the grammar allowed, so its probability is 1.
            let given = &self.running[index].params.token_ids_logprob;
            let logprob = with_logprobs.then(|| TokenLogprob {
                token_id: token,
                logprob: 0.0,
                top: vec![(token, 0.0)],
                given: forced_given(given, token),
            });
            if self.push_output_token(index, token, logprob) {
                return true;
            }
        }
        if !done
            && self.running[index]
                .constraint
                .as_ref()
                .is_some_and(Constraint::is_free)
        {
            // A thinking budget's free answer: unconstrained from here, its last masks
            // charged first.
            self.bill_grammar(index);
            self.running[index].constraint = None;
        }
        if done {
            let req = &mut self.running[index];
            let step = req.stop.end(FinishReason::Stop(StopMatch::Grammar));
            req.pending_text.push_str(&step.text);
            req.finish = step.finish;
        }
        done
    }

    /// Appends one output token (sampled or forced by a grammar): its text through the
    /// detokenizer and the stop checker. Returns whether the request is finished.
    fn push_output_token(
        &mut self,
        index: usize,
        token: u32,
        logprob: Option<TokenLogprob>,
    ) -> bool {
        let req = &mut self.running[index];
        req.output_ids.push(token);
        req.pending_ids.push(token);
        req.pending_logprobs.extend(logprob);
        let delta = match req.detok.step(&self.tokenizer, token) {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(rid = %req.rid, "detokenize: {e}");
                String::new()
            }
        };
        let step = req.stop.push(token, &delta);
        req.pending_text.push_str(&step.text);
        if let Some(reason) = step.finish {
            req.finish = Some(reason);
            return true;
        }
        if req.fill_len() >= self.cache.req_to_token().max_context_len() {
            let step = req.stop.abort();
            req.pending_text.push_str(&step.text);
            req.finish = Some(FinishReason::Length);
            return true;
        }
        false
    }

    /// Sends this step's chunks, then finishes the requests in `done`.
    pub(super) fn stream_and_release(&mut self) {
        for req in &mut self.running {
            flush_chunk(req);
        }
        self.release_done();
    }

    /// Finishes the requests in `done`: their KV goes to the tree (`cache_finished_req`),
    /// and their stream gets its last text and the final event.
    pub(super) fn release_done(&mut self) {
        while let Some(mut req) = self.done.pop_front() {
            if let Some(rest) = req.detok_finish() {
                req.pending_text.push_str(&rest);
            }
            flush_chunk(&mut req);
            if let Some(kv) = req.kv.take() {
                if req.error.is_some() {
                    // A failed step may have left K/V unwritten: none of it goes to the tree.
                    if let Err(e) = self.cache.release_req(kv) {
                        tracing::error!(rid = %req.rid, "release_req: {e}");
                    }
                } else {
                    let len = kv.kv_len();
                    let ids: Vec<u32> = (0..len).map(|p| req.token_at(p)).collect();
                    self.save_state(&req, &kv, &ids);
                    if let Err(e) = self.cache.cache_finished_req(kv, &ids) {
                        tracing::error!(rid = %req.rid, "cache_finished_req: {e}");
                    }
                    self.trim_to_quota(req.tenant);
                }
            }
            self.release_namespace(req.ns);
            let reason = req.finish.take().unwrap_or(FinishReason::Abort);
            let aborted = reason == FinishReason::Abort;
            let now = Instant::now();
            let outcome = match reason {
                FinishReason::Abort => "abort",
                _ if req.embed && req.error.is_none() => "embedding",
                FinishReason::Length => "length",
                FinishReason::Stop(_) => "stop",
            };
            let tenant = self.tenant_label(req.tenant);
            metrics::counter!(names::REQUESTS, "outcome" => outcome, "tenant" => tenant.clone())
                .increment(1);
            metrics::counter!(names::PROMPT_TOKENS, "tenant" => tenant.clone())
                .increment(req.input_ids.len() as u64);
            metrics::counter!(names::CACHED_TOKENS, "tenant" => tenant.clone())
                .increment(req.cached_tokens.unwrap_or(0) as u64);
            metrics::counter!(names::GENERATED_TOKENS, "tenant" => tenant.clone())
                .increment(req.output_ids.len() as u64);
            metrics::histogram!(names::E2E, "tenant" => tenant)
                .record((now - req.submitted_at).as_secs_f64());
            self.count_adapter_request(&req, outcome);
            let completion = Completion {
                finish_reason: reason,
                usage: Usage {
                    prompt_tokens: req.input_ids.len() as u32,
                    cached_tokens: req.cached_tokens.unwrap_or(0),
                    completion_tokens: req.output_ids.len() as u32,
                },
                ttft_s: req
                    .first_token_at
                    .map_or(0.0, |t| (t - req.submitted_at).as_secs_f64()),
                e2e_s: (now - req.submitted_at).as_secs_f64(),
                spec_draft_tokens: req.drafted,
                spec_accepted_tokens: req.accepted,
                embedding: req.embedding.take().filter(|_| !aborted),
            };
            // A closed stream means the client left; the request is over either way.
            let last = match req.error.take() {
                Some(message) => GenerateEvent::Error(message),
                None => GenerateEvent::Finished(completion),
            };
            req.tx.send(last);
        }
    }

    /// Ends a finished request's hold on its namespace, telling the salt registry.
    fn release_namespace(&mut self, ns: radix::NsId) {
        let salted = self
            .cache
            .tree()
            .namespace(ns)
            .filter(|n| n.salt.is_some())
            .cloned();
        let reclaimed = self.cache.release_namespace(ns);
        if let Some(namespace) = salted {
            self.shared.salts.lock().leave(&namespace, !reclaimed);
        }
    }

    /// Tells the salt registry which salted namespaces the tree reclaimed (by eviction,
    /// flush or a request's end); run after every batch of tree changes.
    pub(super) fn sync_salts(&mut self) {
        let reclaimed = self.cache.take_reclaimed_namespaces();
        if reclaimed.is_empty() {
            return;
        }
        let mut salts = self.shared.salts.lock();
        for ns in &reclaimed {
            salts.reclaimed(ns);
        }
    }

    /// Publishes load and cache figures for `GetServerInfo` and the metrics gauges.
    pub(crate) fn publish(&self) {
        let tree = self.cache.tree();
        let stats = tree.stats();
        let alloc = self.cache.allocator();
        let mut info = self.shared.info.lock();
        info.waiting_requests = self.waiting.len() + self.loading_count();
        info.running_requests = self.running.len();
        info.max_running_requests = self.config.max_running_requests;
        info.recurrent_bytes_per_request = self.model.recurrent_state_bytes();
        info.recurrent_saved_states = self.saved_states();
        info.kv_capacity_tokens = alloc.capacity();
        info.kv_free_tokens = alloc.available() + alloc.pending();
        info.kv_evictable_tokens = tree.evictable_size();
        info.kv_protected_tokens = tree.protected_size();
        info.kv_bytes_per_token = self.kv.bytes_per_token();
        let (sliding, all) = self.model.sliding_window_share();
        info.kv_sliding_bytes_per_token = info.kv_bytes_per_token * sliding / all.max(1);
        info.kv_sliding_cached_bytes = ((info.kv_evictable_tokens + info.kv_protected_tokens)
            * info.kv_sliding_bytes_per_token) as u64;
        metrics::gauge!(names::KV_SLIDING_CACHED_BYTES).set(info.kv_sliding_cached_bytes as f64);
        info.page_size = self.cache.page_size();
        info.cache_queried_tokens = stats.queried_tokens;
        info.cache_hit_tokens = stats.hit_tokens;
        info.finished_requests = self.counters.finished;
        info.aborted_requests = self.counters.aborted;
        info.retractions = self.counters.retractions;
        info.overlapped_decodes = self.counters.overlapped_decodes;
        info.grammar_waits = self.counters.grammar_waits;
        info.graph_replays = self.model.graph_replays();
        info.spec_draft_tokens = self.counters.spec_draft_tokens;
        info.spec_accepted_tokens = self.counters.spec_accepted_tokens;
        info.uptime_s = self.started_at.elapsed().as_secs_f64();
        self.publish_disk(&mut info);
        self.shared
            .queued
            .store(info.waiting_requests, std::sync::atomic::Ordering::Relaxed);
        metrics::gauge!(names::QUEUE_LENGTH).set(self.waiting.len() as f64);
        metrics::gauge!(names::RUNNING_REQUESTS).set(self.running.len() as f64);
        metrics::gauge!(names::KV_SLOTS, "state" => "free").set(info.kv_free_tokens as f64);
        metrics::gauge!(names::KV_SLOTS, "state" => "evictable")
            .set(info.kv_evictable_tokens as f64);
        metrics::gauge!(names::KV_SLOTS, "state" => "protected")
            .set(info.kv_protected_tokens as f64);
        metrics::gauge!(names::KV_SLOTS, "state" => "used").set(
            (info.kv_capacity_tokens - info.kv_free_tokens.min(info.kv_capacity_tokens)) as f64,
        );
        metrics::counter!(names::EVICTED_TOKENS).absolute(stats.evicted_tokens);
        info.cache_namespaces = tree.namespace_count();
        info.scheduler_steps = self.counters.steps;
        info.salted_namespaces = self.shared.salts.lock().len();
        metrics::gauge!(names::CACHE_NAMESPACES).set(info.cache_namespaces as f64);
        metrics::gauge!(names::CACHE_SALTS).set(info.salted_namespaces as f64);
        info.tenants = self.tenant_infos();
        let mut tenant_queued = self.shared.tenant_queued.lock();
        tenant_queued.clear();
        tenant_queued.extend(info.tenants.iter().map(|t| t.waiting_requests));
        for t in &info.tenants {
            let name = t.name.clone();
            metrics::gauge!(names::TENANT_WAITING, "tenant" => name.clone())
                .set(t.waiting_requests as f64);
            metrics::gauge!(names::TENANT_RUNNING, "tenant" => name.clone())
                .set(t.running_requests as f64);
            metrics::gauge!(names::TENANT_CACHED_TOKENS, "tenant" => name.clone())
                .set(t.cached_tokens as f64);
            metrics::gauge!(names::TENANT_VIRTUAL_TOKENS, "tenant" => name).set(t.virtual_tokens);
        }
    }

    /// The metrics label of a tenant: its configured name.
    /// The per-adapter counters of an ended request that ran a LoRA adapter.
    fn count_adapter_request(&self, req: &Req, outcome: &'static str) {
        let Some(id) = req.adapter else {
            return;
        };
        let adapter =
            (self.adapter_names.get(id as usize).cloned()).unwrap_or_else(|| id.to_string());
        metrics::counter!(names::LORA_REQUESTS, "adapter" => adapter.clone(), "outcome" => outcome)
            .increment(1);
        metrics::counter!(names::LORA_PROMPT_TOKENS, "adapter" => adapter.clone())
            .increment(req.input_ids.len() as u64);
        metrics::counter!(names::LORA_GENERATED_TOKENS, "adapter" => adapter)
            .increment(req.output_ids.len() as u64);
    }

    fn tenant_label(&self, tenant: u32) -> String {
        self.tenants
            .limits(tenant)
            .map_or_else(|| tenant.to_string(), |l| l.name.to_string())
    }

    /// Every known tenant's load, cache and service.
    fn tenant_infos(&self) -> Vec<TenantInfo> {
        let cached = self.cached_by_tenant();
        let mut infos: Vec<TenantInfo> = self
            .tenants
            .all()
            .iter()
            .enumerate()
            .map(|(i, t)| TenantInfo {
                name: t.limits.name.to_string(),
                cached_tokens: cached.get(i).copied().unwrap_or(0),
                running_kv_tokens: self.running_kv_of(i as u32),
                prefill_tokens: t.prefill_tokens,
                decode_tokens: t.decode_tokens,
                virtual_tokens: t.virtual_tokens,
                weight: t.limits.weight,
                ..TenantInfo::default()
            })
            .collect();
        // Requests reading their pages from disk wait too (and count in the queue limits).
        let waiting = self.waiting.iter().map(|r| r.tenant);
        for tenant in waiting.chain(self.loading_tenants()) {
            if let Some(info) = infos.get_mut(tenant as usize) {
                info.waiting_requests += 1;
            }
        }
        for r in &self.running {
            if let Some(info) = infos.get_mut(r.tenant as usize) {
                info.running_requests += 1;
            }
        }
        for (scope, hits) in self.cache.tree().scope_hits() {
            let owner = match scope {
                radix::CacheScope::Tenant(t) => t as usize,
                radix::CacheScope::Global => 0,
                radix::CacheScope::Group(_) => continue,
            };
            if let Some(info) = infos.get_mut(owner) {
                info.cache_queried_tokens += hits.queried_tokens;
                info.cache_hit_tokens += hits.hit_tokens;
            }
        }
        infos
    }
}

/// Sends the tokens and text a request produced this step, if any, and its prompt
/// log-probabilities once they are all computed (in the first chunk after that).
fn flush_chunk(req: &mut Req) {
    let prompt_logprobs = req.take_computed_prompt_scores();
    if req.pending_ids.is_empty() && req.pending_text.is_empty() && prompt_logprobs.is_none() {
        return;
    }
    let event = GenerateEvent::Chunk {
        token_ids: std::mem::take(&mut req.pending_ids),
        text: std::mem::take(&mut req.pending_text),
        logprobs: std::mem::take(&mut req.pending_logprobs),
        cached_tokens: req.cached_tokens.unwrap_or(0),
        prompt_logprobs: prompt_logprobs.unwrap_or_default(),
    };
    // A failed send means the client left: the next step's reaper aborts the request.
    req.tx.send(event);
}

impl Req {
    /// Text held by the detokenizer at the end (an incomplete character), if any, passed
    /// through the stop checker's rules is not needed: it is only ever a replacement char.
    fn detok_finish(&mut self) -> Option<String> {
        let rest = self.detok.finish();
        (!rest.is_empty() && !matches!(self.finish, Some(FinishReason::Stop(_)))).then_some(rest)
    }
}

/// The `token_ids_logprob` values at a position the grammar forced to `token`: certain
/// for it, impossible for the others.
fn forced_given(ids: &[u32], token: u32) -> Vec<(u32, f32)> {
    (ids.iter())
        .map(|&i| (i, if i == token { 0.0 } else { f32::NEG_INFINITY }))
        .collect()
}
