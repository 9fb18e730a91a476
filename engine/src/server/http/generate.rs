//! What both generation endpoints share: submitting in the caller's namespace, and reading a
//! request's whole output for non-streaming responses.

use super::error::ApiError;
use super::protocol::SamplingFields;
use super::HttpState;
use crate::grammar::GrammarSpec;
use crate::handle::{
    Completion, EngineHandle, GenerateEvent, GenerateRequest, RequestStream, TokenLogprob,
};
use crate::io::Call;
use crate::sampling::SamplingParams;
use crate::tenants::Caller;
use axum::extract::rejection::BytesRejection;
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// Bodies up to this size are parsed in place; larger ones on the engine's bounded pool.
const INLINE_PARSE_BYTES: usize = 64 << 10;

/// Parses a JSON request body without holding an async worker for a large one (in the
/// caller's turn on the bounded pool).
pub async fn parse_body<T: DeserializeOwned + Send + 'static>(
    engine: &EngineHandle,
    caller: &Caller,
    body: axum::body::Bytes,
) -> Result<T, ApiError> {
    if body.len() <= INLINE_PARSE_BYTES {
        return super::protocol::parse_json(&body);
    }
    engine
        .run_bounded(caller.tenant, move || super::protocol::parse_json(&body))
        .await?
}

/// The engine and the parsed body of a generation request, after the cheap refusals (a
/// server not serving, the caller's tenant over its limits) that come before parsing,
/// rendering, tokenizing or compiling anything.
pub async fn accept<'a, T: DeserializeOwned + Send + 'static>(
    state: &'a HttpState,
    caller: &Caller,
    body: Result<axum::body::Bytes, BytesRejection>,
) -> Result<(&'a EngineHandle, T), ApiError> {
    let engine = state.serving_engine()?;
    engine.precheck(caller.tenant)?;
    let request = parse_body(engine, caller, body?).await?;
    Ok((engine, request))
}

/// Most choices of one response (prompts x samples): each is a request of its own.
pub const MAX_CHOICES: usize = 64;

/// The number of choices of `prompts` prompts with `samples` samples each, if allowed.
/// Servers check it before building the prompts, so that a request for too many choices
/// costs no tokenizing.
pub fn check_choice_count(prompts: usize, samples: u32) -> Result<usize, ApiError> {
    let choices = prompts.saturating_mul(samples as usize);
    if choices > MAX_CHOICES {
        return Err(ApiError::invalid_param(
            "n",
            format!(
                "{prompts} prompts x n = {samples} asks for {choices} choices; at most \
                 {MAX_CHOICES} are allowed"
            ),
        ));
    }
    Ok(choices)
}

/// What every choice of a response shares.
pub struct ChoiceSpec<'a> {
    pub params: SamplingParams,
    pub max_tokens_explicit: bool,
    pub fields: &'a SamplingFields,
    pub grammar: Option<GrammarSpec>,
    /// Samples of each prompt (`n`).
    pub samples: u32,
    /// Prompt log-probabilities from this position (each sample gets its own), at most
    /// each prompt's length (`u32::MAX`: none scored, the prompt alone computed).
    pub prompt_logprobs_from: Option<u32>,
    /// The prompt's history length (see `GenerateRequest::history_len`).
    pub history_len: Option<u32>,
    /// Each prompt's registered call (`EngineHandle::open_call`), opened before its prompt
    /// was built; none: the engine names and registers them at submission.
    pub calls: Vec<Arc<Call>>,
    /// The LoRA adapter every choice runs (`None`: the base model).
    pub adapter: Option<u32>,
}

/// Queues `spec.samples` samples of each prompt for `caller`, prompt by prompt (choice `i`
/// is sample `i % n` of prompt `i / n`), all or nothing ([`EngineHandle::submit_group`]):
/// each prompt is computed once and its samples share it through the prefix cache.
pub async fn submit_choices(
    engine: &EngineHandle,
    caller: &Caller,
    prompts: Vec<Vec<u32>>,
    spec: ChoiceSpec<'_>,
) -> Result<Vec<RequestStream>, ApiError> {
    check_choice_count(prompts.len(), spec.samples)?;
    let mut namespace = caller.namespace_for(spec.fields.cache_salt.as_deref());
    // Another adapter computes other K/V: its requests share a cache only among themselves.
    namespace.adapter = spec.adapter;
    let mut requests: Vec<GenerateRequest> = prompts
        .into_iter()
        .enumerate()
        .map(|(i, input_ids)| {
            let mut request = GenerateRequest::new(input_ids, spec.params.clone());
            if let Some(call) = spec.calls.get(i) {
                request.attach_call(call.clone());
            }
            request.max_new_tokens_explicit = spec.max_tokens_explicit;
            let len = u32::try_from(request.input_ids.len()).unwrap_or(u32::MAX);
            request.prompt_logprobs_from = spec.prompt_logprobs_from.map(|from| from.min(len));
            request.history_len = spec.history_len;
            request.namespace = namespace.clone();
            request.tenant = caller.tenant;
            request
        })
        .collect();
    if let Some(grammar) = spec.grammar {
        // Bad parameters and the tenant's limits refuse the choices before the costly
        // compile (once: the prompts share one grammar, each sample gets its own state).
        let cost = engine.precheck_group(&requests, spec.samples)?;
        // Their ids taken first: an abort by one while the grammar compiles ends it unrun.
        engine.open_calls(&mut requests)?;
        let param = grammar.param();
        let constraint = engine
            .compile_grammar(grammar, namespace, caller.tenant, cost)
            .await
            .map_err(|e| ApiError::from(e).with_param(param))?;
        for request in &mut requests {
            request.constraint = Some(constraint.clone());
        }
    }
    Ok(engine.submit_group(requests, spec.samples).await?)
}

/// A request's whole output.
#[derive(Debug)]
pub struct Collected {
    pub text: String,
    pub token_ids: Vec<u32>,
    pub logprobs: Vec<TokenLogprob>,
    /// The prompt's log-probabilities, when asked for.
    pub prompt_logprobs: Vec<TokenLogprob>,
    pub completion: Completion,
}

/// Reads every choice's stream to its end, all at once: the engine runs them together, and
/// a stream left unread while another is read would pile up its events (and be aborted
/// once too many wait, see `io::MAX_UNREAD_EVENTS`).
pub async fn collect_all(streams: &mut [RequestStream]) -> Result<Vec<Collected>, ApiError> {
    futures_util::future::try_join_all(streams.iter_mut().map(|s| collect_as(s, false))).await
}

/// [`collect_all`], an aborted choice answering what it had (SGLang's native answer, which
/// its callers read after `/abort_request`) rather than failing the response.
pub async fn collect_all_partial(
    streams: &mut [RequestStream],
) -> Result<Vec<Collected>, ApiError> {
    futures_util::future::try_join_all(streams.iter_mut().map(|s| collect_as(s, true))).await
}

/// Reads `stream` to its end; `keep_aborted`: an aborted request answers what it generated.
/// If the client goes away meanwhile, the handler's future is dropped with the stream in it,
/// which aborts the request.
async fn collect_as(stream: &mut RequestStream, keep_aborted: bool) -> Result<Collected, ApiError> {
    let mut text = String::new();
    let mut all_ids = Vec::new();
    let mut all_logprobs = Vec::new();
    let mut all_prompt_logprobs = Vec::new();
    loop {
        match stream.next().await {
            Some(GenerateEvent::Chunk {
                token_ids,
                text: piece,
                logprobs,
                prompt_logprobs,
                ..
            }) => {
                text.push_str(&piece);
                all_ids.extend(token_ids);
                all_logprobs.extend(logprobs);
                all_prompt_logprobs.extend(prompt_logprobs);
            }
            Some(GenerateEvent::Finished(completion))
                if completion.finish_reason.is_abort() && !keep_aborted =>
            {
                return Err(aborted());
            }
            Some(GenerateEvent::Finished(completion)) => {
                return Ok(Collected {
                    text,
                    token_ids: all_ids,
                    logprobs: all_logprobs,
                    prompt_logprobs: all_prompt_logprobs,
                    completion,
                })
            }
            Some(GenerateEvent::Error(error)) => return Err(error.into()),
            None => return Err(ApiError::unavailable("the engine stopped")),
        }
    }
}

/// What a client of the OpenAI doors whose request the engine aborted gets (a shutdown's
/// grace period ended, or the request was aborted by id): unavailable, so that it retries,
/// not an answer cut short. SGLang's native `/generate` answers what was generated instead,
/// with finish reason `abort`, as SGLang does (its callers read it after `/abort_request`).
pub fn aborted() -> ApiError {
    ApiError::unavailable(
        "the request was aborted before it finished (the server may be shutting down); retry it",
    )
}
