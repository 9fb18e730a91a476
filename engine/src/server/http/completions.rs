//! `POST /v1/completions`: a text or token-id prompt, completed as is.

use super::error::ApiError;
use super::generate::{collect, parse_body, prompt_ids, submit};
use super::logprobs::CompletionLogprobsBuilder;
use super::params::{grammar_spec, sampling_params, stream_flags};
use super::protocol::{CompletionRequest, Prompt};
use super::response::{CompletionBody, CompletionChoice, ResponseMeta, UsageOut};
use super::sse::{sse_response, ChunkFormatter};
use super::HttpState;
use crate::handle::{Completion, EngineHandle, PromptInput, TokenLogprob};
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
    let engine = state.serving_engine()?;
    // Cheap refusals before parsing, rendering, tokenizing or compiling anything.
    engine.precheck(caller.tenant)?;
    let request: CompletionRequest = parse_body(engine, body?).await?;
    if request.echo == Some(true) {
        return Err(ApiError::invalid_param("echo", "echo is not supported"));
    }
    if request.suffix.as_deref().is_some_and(|s| !s.is_empty()) {
        return Err(ApiError::invalid_param("suffix", "suffix is not supported"));
    }
    if request.best_of.is_some_and(|n| n != 1) {
        return Err(ApiError::invalid_param("best_of", "best_of must be 1"));
    }
    let input_ids = prompt_ids(engine, prompt_input(request.prompt)?).await?;
    let sampling = &request.sampling;
    let params = sampling_params(
        sampling,
        sampling.max_tokens,
        DEFAULT_MAX_TOKENS,
        request.logprobs,
    )?;
    let (stream, include_usage) = stream_flags(sampling);
    let mut rx = submit(
        engine,
        &caller,
        input_ids,
        params,
        sampling.max_tokens.is_some(),
        sampling,
        grammar_spec(sampling)?,
    )
    .await?;
    let meta = ResponseMeta::new("cmpl", &rx.rid, &engine.model_info().name);
    let want_logprobs = request.logprobs.is_some();
    if stream {
        let formatter = CompletionChunks {
            engine: engine.clone(),
            meta,
            include_usage,
            logprobs: want_logprobs.then(CompletionLogprobsBuilder::default),
        };
        return Ok(sse_response(rx, formatter));
    }
    let out = collect(&mut rx).await?;
    let logprobs = want_logprobs
        .then(|| CompletionLogprobsBuilder::default().build(engine.tokenizer(), &out.logprobs));
    let choice = CompletionChoice {
        index: 0,
        text: out.text,
        logprobs,
        finish_reason: Some(out.completion.finish_reason.as_str()),
    };
    let usage = UsageOut::from(out.completion.usage);
    Ok(Json(CompletionBody::new(&meta, vec![choice], Some(Some(usage)))).into_response())
}

/// The prompt as sent: text (control tokens written in it count as such) or token ids.
fn prompt_input(prompt: Prompt) -> Result<PromptInput, ApiError> {
    let batch_of_one = || {
        ApiError::invalid_param(
            "prompt",
            "batched prompts are not supported: send one prompt per request",
        )
    };
    match prompt {
        Prompt::Text(text) => Ok(PromptInput::Text(text)),
        Prompt::Tokens(ids) => Ok(PromptInput::Tokens(ids)),
        Prompt::TextBatch(texts) => match <[String; 1]>::try_from(texts) {
            Ok([text]) => Ok(PromptInput::Text(text)),
            Err(_) => Err(batch_of_one()),
        },
        Prompt::TokenBatch(batch) => match <[Vec<u32>; 1]>::try_from(batch) {
            Ok([ids]) => Ok(PromptInput::Tokens(ids)),
            Err(_) => Err(batch_of_one()),
        },
    }
}

struct CompletionChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    include_usage: bool,
    logprobs: Option<CompletionLogprobsBuilder>,
}

impl CompletionChunks {
    fn body(&self, choices: Vec<CompletionChoice>, usage: Option<UsageOut>) -> String {
        let usage = self.include_usage.then_some(usage);
        serde_json::to_string(&CompletionBody::new(&self.meta, choices, usage)).unwrap_or_default()
    }
}

impl ChunkFormatter for CompletionChunks {
    fn chunk(&mut self, text: String, logprobs: &[TokenLogprob]) -> Option<String> {
        let logprobs = match self.logprobs.as_mut() {
            Some(builder) if !logprobs.is_empty() => {
                Some(builder.build(self.engine.tokenizer(), logprobs))
            }
            _ if text.is_empty() => return None,
            _ => None,
        };
        let choice = CompletionChoice {
            index: 0,
            text,
            logprobs,
            finish_reason: None,
        };
        Some(self.body(vec![choice], None))
    }

    fn finish(&mut self, completion: &Completion) -> Vec<String> {
        let choice = CompletionChoice {
            index: 0,
            text: String::new(),
            logprobs: None,
            finish_reason: Some(completion.finish_reason.as_str()),
        };
        let mut out = vec![self.body(vec![choice], None)];
        if self.include_usage {
            out.push(self.body(Vec::new(), Some(completion.usage.into())));
        }
        out
    }
}
