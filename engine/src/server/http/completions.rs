//! `POST /v1/completions`: text or token-id prompts (one, or a batch), completed as they are,
//! `n` choices each.

use super::error::ApiError;
use super::generate::{accept, check_choice_count, collect_all, submit_choices, ChoiceSpec};
use super::logprobs::CompletionLogprobsBuilder;
use super::params::{grammar_spec, samples_per_prompt, sampling_params, stream_flags};
use super::protocol::{prompt_inputs, CompletionRequest};
use super::response::{CompletionBody, CompletionChoice, ResponseMeta, UsageOut};
use super::sse::{sse_response, ChunkFormatter, Payload};
use super::HttpState;
use crate::handle::{response_usage, Completion, EngineHandle, TokenLogprob, Usage};
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use std::sync::Arc;

/// OpenAI's default `max_tokens` for completions.
const DEFAULT_MAX_TOKENS: u32 = 16;

pub async fn completions(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, CompletionRequest) = accept(&state, &caller, body).await?;
    if request.echo == Some(true) {
        return Err(ApiError::invalid_param("echo", "echo is not supported"));
    }
    if request.suffix.as_deref().is_some_and(|s| !s.is_empty()) {
        return Err(ApiError::invalid_param("suffix", "suffix is not supported"));
    }
    if request.best_of.is_some_and(|n| n != 1) {
        return Err(ApiError::invalid_param("best_of", "best_of must be 1"));
    }
    let sampling = &request.sampling;
    // Every parameter check before the prompts are built: a batch of many prompts costs
    // tokenizing, and a request refused anyway should not.
    let params = sampling_params(
        sampling,
        sampling.max_tokens,
        DEFAULT_MAX_TOKENS,
        request.logprobs,
    )?;
    let skip_special = params.skip_special_tokens;
    let samples = samples_per_prompt(sampling)?;
    let (stream, include_usage) = stream_flags(sampling)?;
    let grammar = grammar_spec(sampling)?;
    let inputs = prompt_inputs(request.prompt, "prompt")?;
    check_choice_count(inputs.len(), samples)?;
    let prompts = engine
        .build_prompts(inputs, caller.tenant)
        .await
        .map_err(ApiError::from)?;
    let prompt_count = prompts.len();
    let spec = ChoiceSpec {
        params,
        max_tokens_explicit: sampling.max_tokens.is_some(),
        fields: sampling,
        grammar,
        samples,
    };
    let mut streams = submit_choices(engine, &caller, prompts, spec).await?;
    let rid = streams.first().map(|s| s.rid.clone()).unwrap_or_default();
    let meta = ResponseMeta::new("cmpl", &rid, &engine.model_info().name);
    let want_logprobs = request.logprobs.is_some();
    let n = samples as usize;
    if stream {
        let formatter = CompletionChunks {
            engine: engine.clone(),
            meta,
            include_usage,
            logprobs: want_logprobs.then(|| {
                std::iter::repeat_with(|| CompletionLogprobsBuilder::new(skip_special))
                    .take(prompt_count * n)
                    .collect()
            }),
        };
        return Ok(sse_response(streams, n, formatter));
    }
    let outs = collect_all(&mut streams).await?;
    let usages: Vec<_> = outs.iter().map(|o| o.completion.usage).collect();
    let choices = outs
        .into_iter()
        .enumerate()
        .map(|(i, out)| CompletionChoice {
            index: i as u32,
            logprobs: want_logprobs.then(|| {
                CompletionLogprobsBuilder::new(skip_special)
                    .build(engine.tokenizer(), &out.logprobs)
            }),
            finish_reason: Some(out.completion.finish_reason.as_str()),
            text: out.text,
        })
        .collect();
    debug_assert_eq!(usages.len(), prompt_count * n);
    let usage = UsageOut::from(response_usage(&usages, n));
    Ok(Json(CompletionBody::new(&meta, choices, Some(Some(usage)))).into_response())
}

struct CompletionChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    include_usage: bool,
    /// Each choice's logprobs builder (its own text offsets), when logprobs are asked for.
    logprobs: Option<Vec<CompletionLogprobsBuilder>>,
}

impl CompletionChunks {
    fn body(&self, choices: Vec<CompletionChoice>, usage: Option<UsageOut>) -> Payload {
        let usage = self.include_usage.then_some(usage);
        let body = CompletionBody::new(&self.meta, choices, usage);
        serde_json::to_string(&body).unwrap_or_default().into()
    }
}

impl ChunkFormatter for CompletionChunks {
    fn chunk(
        &mut self,
        index: u32,
        _token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Vec<Payload> {
        let builder = self
            .logprobs
            .as_mut()
            .and_then(|builders| builders.get_mut(index as usize));
        let logprobs = match builder {
            Some(builder) if !logprobs.is_empty() => {
                Some(builder.build(self.engine.tokenizer(), logprobs))
            }
            _ if text.is_empty() => return Vec::new(),
            _ => None,
        };
        let choice = CompletionChoice {
            index,
            text,
            logprobs,
            finish_reason: None,
        };
        vec![self.body(vec![choice], None)]
    }

    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<Payload> {
        let choice = CompletionChoice {
            index,
            text: String::new(),
            logprobs: None,
            finish_reason: Some(completion.finish_reason.as_str()),
        };
        vec![self.body(vec![choice], None)]
    }

    fn usage(&mut self, usage: Usage) -> Option<Payload> {
        self.include_usage
            .then(|| self.body(Vec::new(), Some(usage.into())))
    }
}
