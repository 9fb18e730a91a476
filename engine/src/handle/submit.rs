//! Admission at the handle: a request is validated and its output budget capped (the
//! context, the pool, its tenant's quota and burst), then it passes the engine's queue and
//! its tenant's queue and rate limits, and only then is it counted, debited and queued.
//! The same validation and caps give a group's cost before any of it is submitted.

use super::gate::{QueueLoad, TenantGate};
use super::{EngineHandle, GenerateRequest, RequestStream, SubmitError, MAX_SALT_BYTES};
use crate::io::{event_channel, AbortScope, Command, NewRequest};
use crate::tenants::TenantId;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tokio::sync::oneshot;

impl EngineHandle {
    /// Validates `request` and queues it. Errors say what is wrong; nothing is queued then.
    /// A request whose call an abort named before it was queued is not queued: its stream
    /// ends aborted; one named while it was being queued is aborted behind it.
    pub fn submit(&self, mut request: GenerateRequest) -> Result<RequestStream, SubmitError> {
        let inner = &self.inner;
        let call = request.call.take();
        if let Some(call) = call.as_ref().filter(|c| c.aborted()) {
            let prompt_tokens = u32::try_from(request.input_ids.len()).unwrap_or(u32::MAX);
            let mut stream = RequestStream::aborted_unsubmitted(call.rid().into(), prompt_tokens);
            stream.call = Some(call.clone());
            return Ok(stream);
        }
        if inner.shared.draining.load(Ordering::Acquire) {
            return Err(SubmitError::Unavailable("the server is draining".into()));
        }
        let (prompt_len, max_new_tokens) = self.validate(&request)?;
        request.params.max_new_tokens = max_new_tokens;
        // The global queue first, so a refusal by any check below counts nothing queued.
        let queued = inner.shared.queued.fetch_add(1, Ordering::AcqRel);
        if queued >= inner.max_queued {
            uncount_queued(&inner.shared.queued);
            return Err(SubmitError::ResourceExhausted(format!(
                "the request queue is full ({} waiting)",
                inner.max_queued
            )));
        }
        if let Err(e) = self.pass_tenant_limits(&mut request, prompt_len) {
            uncount_queued(&inner.shared.queued);
            return Err(e);
        }
        let rid = request.rid.clone().unwrap_or_else(|| self.new_rid());
        let tenant = request.tenant;
        let (tx, rx) = event_channel();
        let salted = request
            .namespace
            .salt
            .is_some()
            .then(|| request.namespace.clone());
        let new = NewRequest {
            rid: rid.clone(),
            request,
            tx,
            submitted_at: Instant::now(),
        };
        if inner.tx.send(Command::Submit(Box::new(new))).is_err() {
            if let Some(ns) = salted {
                inner.shared.salts.lock().withdraw(&ns);
            }
            return Err(SubmitError::Unavailable("the engine has stopped".into()));
        }
        if call.as_ref().is_some_and(|c| c.aborted()) {
            // Marked after the check above: its abort may have reached the scheduler first.
            self.abort_queued(&rid, AbortScope::Tenant(tenant));
        }
        Ok(RequestStream {
            rid,
            rx,
            front: None,
            shared_prompt_logprobs: None,
            call,
        })
    }

    /// Checks what needs no tenant: the prompt, the parameters, the context, the salt.
    /// Returns the prompt's length and the output budget capped to the context.
    fn validate(&self, request: &GenerateRequest) -> Result<(usize, u32), SubmitError> {
        let inner = &self.inner;
        let vocab = inner.model_info.vocab_size;
        let prompt_len = request.input_ids.len();
        if prompt_len == 0 {
            return Err(SubmitError::InvalidArgument("the prompt is empty".into()));
        }
        if let Some(&bad) = request.input_ids.iter().find(|&&t| t as usize >= vocab) {
            return Err(SubmitError::InvalidArgument(format!(
                "token id {bad} is outside the vocabulary of {vocab}"
            )));
        }
        if let Some(a) = request.namespace.adapter {
            let served = inner
                .adapters
                .read()
                .get(a as usize)
                .is_some_and(Option::is_some);
            if !served {
                return Err(SubmitError::InvalidArgument(format!(
                    "LoRA adapter {a} is not served"
                )));
            }
        }
        if let Some(salt) = &request.namespace.salt {
            if salt.len() > MAX_SALT_BYTES {
                return Err(SubmitError::InvalidArgument(format!(
                    "cache_salt has {} bytes; at most {MAX_SALT_BYTES} are allowed",
                    salt.len()
                )));
            }
        }
        // The prompt plus one more token must fit the context and the pool: a generation's
        // first output token, the step admission reserves past an embedding's prompt.
        let limit = inner.max_context_len.min(inner.kv_capacity);
        if prompt_len >= limit {
            return Err(SubmitError::InvalidArgument(format!(
                "the prompt has {prompt_len} tokens; at most {} fit (context {}, KV pool {})",
                limit - 1,
                inner.max_context_len,
                inner.kv_capacity
            )));
        }
        if request.embed {
            self.validate_embedding(request)?;
            return Ok((prompt_len, 0));
        }
        request
            .params
            .validate(vocab)
            .map_err(SubmitError::InvalidArgument)?;
        self.validate_prompt_logprobs(request)?;
        let max_new_tokens = fit_max_new_tokens(
            request,
            request.params.max_new_tokens,
            limit - prompt_len,
            "max_new_tokens: the prompt has {prompt} tokens and max_new_tokens is {max}; \
             together they exceed the context of {limit} tokens",
            limit,
        )?;
        Ok((prompt_len, max_new_tokens))
    }

    /// What [`Self::validate`] adds for an embedding request: the model computes embeddings
    /// and no grammar is asked for (nothing is generated).
    fn validate_embedding(&self, request: &GenerateRequest) -> Result<(), SubmitError> {
        self.embeddings_supported()?;
        if request.constraint.is_some() {
            return Err(SubmitError::InvalidArgument(
                "an embedding request takes no grammar".into(),
            ));
        }
        if request.prompt_logprobs_from.is_some() {
            return Err(SubmitError::InvalidArgument(
                "an embedding request takes no prompt log-probabilities".into(),
            ));
        }
        Ok(())
    }

    /// Prompt log-probabilities start inside the prompt and need a runner that scores
    /// tokens; only a request that asks for them may generate nothing (it scores its
    /// prompt).
    fn validate_prompt_logprobs(&self, request: &GenerateRequest) -> Result<(), SubmitError> {
        let Some(from) = request.prompt_logprobs_from else {
            if request.params.max_new_tokens == 0 {
                return Err(SubmitError::InvalidArgument(
                    "max_new_tokens must be at least 1 (0 only when the prompt's \
                     log-probabilities are asked for)"
                        .into(),
                ));
            }
            return Ok(());
        };
        // From the prompt's length on there is nothing to score: the answer is empty.
        let len = request.input_ids.len();
        if from as usize > len {
            return Err(SubmitError::InvalidArgument(format!(
                "prompt log-probabilities from position {from}: the prompt has {len} tokens"
            )));
        }
        if (from as usize).max(1) < len && !self.inner.scores_prompts {
            return Err(SubmitError::InvalidArgument(
                "this server's runner does not compute prompt log-probabilities".into(),
            ));
        }
        if request.params.max_new_tokens == 0 && request.constraint.is_some() {
            return Err(SubmitError::InvalidArgument(
                "a request that generates nothing takes no grammar".into(),
            ));
        }
        Ok(())
    }

    /// The refusals that need no prompt: a draining engine, a full queue, a tenant at its
    /// queue limit or with an empty token bucket. Servers call it before the costly work of
    /// building a prompt or compiling a grammar; `submit` checks everything again exactly.
    pub fn precheck(&self, tenant: TenantId) -> Result<(), SubmitError> {
        // The smallest request costs one token.
        self.precheck_tokens(tenant, (1, true), 1)
    }

    /// Whether every request of a group (the choices of one response, all of one tenant)
    /// is valid, and whether their tokens together fit the tenant's rate limit now, before
    /// any of them is submitted. Takes nothing; answers what the group would take (what a
    /// failed grammar compile for it costs). A group whose tokens exceed the burst can
    /// never pass: invalid, not "later".
    pub fn precheck_group(
        &self,
        requests: &[GenerateRequest],
        n: u32,
    ) -> Result<usize, SubmitError> {
        let Some(tenant) = requests.first().map(|r| r.tenant) else {
            return Ok(0);
        };
        let mut tokens = 0usize;
        for request in requests {
            tokens = tokens.saturating_add(self.admission_cost(request)? * n as usize);
        }
        // Queued at once: every request when each has one sample (a batch of prompts or of
        // embedding inputs); with more, a prompt's first sample, then its others once it
        // runs. More than the queues hold could never all be queued: invalid, not "later".
        let at_once = if n == 1 {
            requests.len()
        } else {
            n as usize - 1
        };
        let limit = (self.inner.gate.lock().max_queued(tenant))
            .map_or(self.inner.max_queued, |t| t.min(self.inner.max_queued));
        if at_once > limit {
            return Err(SubmitError::InvalidArgument(format!(
                "{at_once} requests at once are more than the {limit} this tenant may queue; \
                 send fewer inputs or choices per request"
            )));
        }
        let count = requests.len() * n as usize;
        let output = requests.iter().any(|r| !r.embed);
        self.precheck_tokens(tenant, (count, output), tokens)?;
        Ok(tokens)
    }

    /// [`EngineHandle::precheck`] for `count` requests costing `tokens` together (`output`:
    /// they generate). The queue limits are checked for the next request only: a group's
    /// requests are queued one after the other, and its later samples once its first is
    /// running.
    fn precheck_tokens(
        &self,
        tenant: TenantId,
        (count, output): (usize, bool),
        tokens: usize,
    ) -> Result<(), SubmitError> {
        let inner = &self.inner;
        if inner.shared.draining.load(Ordering::Acquire) {
            return Err(SubmitError::Unavailable("the server is draining".into()));
        }
        if inner.shared.queued.load(Ordering::Acquire) >= inner.max_queued {
            return Err(SubmitError::ResourceExhausted(format!(
                "the request queue is full ({} waiting)",
                inner.max_queued
            )));
        }
        let waiting = inner
            .shared
            .tenant_queued
            .lock()
            .get(tenant as usize)
            .copied()
            .unwrap_or(0);
        let queue = QueueLoad {
            tenant: waiting,
            total: inner.shared.queued.load(Ordering::Acquire),
            capacity: inner.max_queued,
        };
        inner
            .gate
            .lock()
            .check_group(tenant, queue, (count, output), tokens, Instant::now())
    }

    /// What `request` will take from its tenant's rate limit when submitted (its prompt and
    /// its capped output budget), or why `submit` would refuse it.
    pub fn admission_cost(&self, request: &GenerateRequest) -> Result<usize, SubmitError> {
        let (prompt_len, max) = self.validate(request)?;
        let max = cap_for_tenant(&self.inner.gate.lock(), request, prompt_len, max)?;
        Ok(prompt_len + max as usize)
    }

    /// The tenant's quota, queue and rate limits, and the salt caps, checked under one lock;
    /// only a request that passes them all is counted and debited.
    fn pass_tenant_limits(
        &self,
        request: &mut GenerateRequest,
        prompt_len: usize,
    ) -> Result<(), SubmitError> {
        let inner = &self.inner;
        let mut gate = inner.gate.lock();
        let max = request.params.max_new_tokens;
        request.params.max_new_tokens = cap_for_tenant(&gate, request, prompt_len, max)?;
        let cost = prompt_len + request.params.max_new_tokens as usize;
        let now = Instant::now();
        let mut tenant_queued = inner.shared.tenant_queued.lock();
        let t = request.tenant as usize;
        if tenant_queued.len() <= t {
            tenant_queued.resize(t + 1, 0);
        }
        let queue = QueueLoad {
            tenant: tenant_queued[t],
            // Counted up for this request already.
            total: inner
                .shared
                .queued
                .load(Ordering::Acquire)
                .saturating_sub(1),
            capacity: inner.max_queued,
        };
        gate.check(request.tenant, queue, cost, now)?;
        if request.namespace.salt.is_some() {
            let replaced = inner.shared.salts.lock().enter(&request.namespace)?;
            if let Some(namespace) = replaced {
                // Its cache goes; the tree then reclaims it. Nobody waits for the answer.
                let (reply, _) = oneshot::channel();
                let _ = inner.tx.send(Command::Flush {
                    namespace: Some(namespace),
                    exact: true,
                    reply,
                });
            }
        }
        gate.take(request.tenant, cost, now);
        // Counted up here, set exactly by the scheduler at every step.
        tenant_queued[t] += 1;
        Ok(())
    }
}

/// `request`'s output budget `max` capped to its tenant's quota (and a default budget to
/// its burst), once its minimum is checked against the capped budget.
fn cap_for_tenant(
    gate: &TenantGate,
    request: &GenerateRequest,
    prompt_len: usize,
    mut max: u32,
) -> Result<u32, SubmitError> {
    if let Some(quota) = gate.kv_quota(request.tenant) {
        // Prompt and output must fit the tenant's quota, or it would wait forever.
        if prompt_len >= quota {
            return Err(SubmitError::InvalidArgument(format!(
                "the prompt has {prompt_len} tokens; the tenant's kv_quota_tokens is {quota}"
            )));
        }
        max = fit_max_new_tokens(
            request,
            max,
            quota - prompt_len,
            "max_new_tokens: the prompt has {prompt} tokens and max_new_tokens is {max}; \
             together they exceed the tenant's kv_quota_tokens of {limit}",
            quota,
        )?;
    }
    if let Some(burst) = gate.burst(request.tenant) {
        // A default budget is what fits the burst; an explicit one is checked as it is.
        if !request.max_new_tokens_explicit {
            let room = (burst as usize).saturating_sub(prompt_len).max(1);
            let room = u32::try_from(room).unwrap_or(u32::MAX);
            max = max.min(room);
        }
    }
    // Checked after every cap: a minimum the capped budget cannot reach would silently
    // keep end-of-sequence and stop strings out of the whole output.
    let min = request.params.min_new_tokens;
    if min > max {
        return Err(SubmitError::InvalidArgument(format!(
            "min_new_tokens ({min}) is more than the {max} tokens this prompt can generate \
             (the context, the KV pool or the tenant's limits)"
        )));
    }
    Ok(max)
}

/// `request`'s output budget `max` within `room` tokens: a default is clamped to it, an
/// explicit value that does not fit is refused. `message` names `{prompt}`, `{max}` and
/// `{limit}`.
fn fit_max_new_tokens(
    request: &GenerateRequest,
    max: u32,
    room: usize,
    message: &str,
    limit: usize,
) -> Result<u32, SubmitError> {
    if request.max_new_tokens_explicit && max as usize > room {
        return Err(SubmitError::InvalidArgument(
            message
                .replace("{prompt}", &request.input_ids.len().to_string())
                .replace("{max}", &max.to_string())
                .replace("{limit}", &limit.to_string()),
        ));
    }
    Ok(max.min(room.min(u32::MAX as usize) as u32))
}

/// Takes back a submission's count. Saturating: the scheduler may have set the count from
/// its queue in between, and a wrapped count would refuse everything.
fn uncount_queued(queued: &AtomicUsize) {
    let _ = queued.fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| {
        Some(q.saturating_sub(1))
    });
}
