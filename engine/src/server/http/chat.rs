//! `POST /v1/chat/completions`: messages rendered with the model's chat template, then
//! generated like a completion.

use super::error::ApiError;
use super::generate::{collect, parse_body, prompt_ids, submit};
use super::logprobs::chat_logprobs;
use super::params::{sampling_params, stream_flags};
use super::protocol::{ChatCompletionRequest, ChatMessageIn, Content};
use super::response::{
    ChatBody, ChatChoice, ChatChunk, ChatChunkChoice, ChatMessageOut, Delta, ResponseMeta, UsageOut,
};
use super::sse::{sse_response, ChunkFormatter};
use super::HttpState;
use crate::handle::{Completion, EngineHandle, PromptInput, TokenLogprob};
use crate::tenants::Caller;
use crate::tokenizer::ChatMessage;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use std::sync::Arc;

pub async fn chat_completions(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let engine = state.serving_engine()?;
    let request: ChatCompletionRequest = parse_body(engine, body?).await?;
    let messages = request
        .messages
        .iter()
        .map(to_chat_message)
        .collect::<Result<Vec<_>, _>>()?;
    let input_ids = prompt_ids(engine, PromptInput::Chat(messages))
        .await
        .map_err(|e| rename_param(e, "prompt", "messages"))?;
    let top_logprobs = match (request.logprobs, request.top_logprobs) {
        (Some(true), top) => Some(top.unwrap_or(0)),
        (_, Some(n)) if n > 0 => {
            return Err(ApiError::invalid_param(
                "top_logprobs",
                "top_logprobs requires logprobs to be true",
            ))
        }
        _ => None,
    };
    let sampling = &request.sampling;
    // No default cap: the engine stops at the end of the context.
    let max_tokens = request.max_completion_tokens.or(sampling.max_tokens);
    let params = sampling_params(sampling, max_tokens, u32::MAX, top_logprobs)
        .map_err(|e| rename_param(e, "logprobs", "top_logprobs"))?;
    let (stream, include_usage) = stream_flags(sampling);
    let mut rx = submit(
        engine,
        &caller,
        input_ids,
        params,
        max_tokens.is_some(),
        sampling,
    )
    .await
    .map_err(|e| rename_param(e, "prompt", "messages"))?;
    let meta = ResponseMeta::new("chatcmpl", &rx.rid, &engine.model_info().name);
    let top = top_logprobs.map(|n| n as usize);
    if stream {
        let formatter = ChatChunks {
            engine: engine.clone(),
            meta,
            include_usage,
            top,
        };
        return Ok(sse_response(rx, formatter));
    }
    let out = collect(&mut rx).await?;
    let choice = ChatChoice {
        index: 0,
        message: ChatMessageOut {
            role: "assistant",
            content: out.text,
        },
        logprobs: top.map(|n| chat_logprobs(engine.tokenizer(), &out.logprobs, n)),
        finish_reason: out.completion.finish_reason.as_str(),
    };
    Ok(Json(ChatBody {
        id: meta.id,
        object: "chat.completion",
        created: meta.created,
        model: meta.model,
        choices: vec![choice],
        usage: out.completion.usage.into(),
    })
    .into_response())
}

fn rename_param(mut e: ApiError, from: &str, to: &str) -> ApiError {
    if e.param.as_deref() == Some(from) {
        e.param = Some(to.to_string());
    }
    e
}

fn to_chat_message(m: &ChatMessageIn) -> Result<ChatMessage, ApiError> {
    let content = match &m.content {
        None => String::new(),
        Some(Content::Text(text)) => text.clone(),
        Some(Content::Parts(parts)) => {
            let mut text = String::new();
            for part in parts {
                match (part.kind.as_str(), &part.text) {
                    ("text", Some(t)) => text.push_str(t),
                    (kind, _) => {
                        return Err(ApiError::invalid_param(
                            "messages",
                            format!("content parts of type {kind:?} are not supported (text only)"),
                        ))
                    }
                }
            }
            text
        }
    };
    Ok(ChatMessage::new(m.role.as_str(), content))
}

struct ChatChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    include_usage: bool,
    top: Option<usize>,
}

impl ChatChunks {
    fn body(&self, choices: Vec<ChatChunkChoice>, usage: Option<UsageOut>) -> String {
        let usage = self.include_usage.then_some(usage);
        serde_json::to_string(&ChatChunk::new(&self.meta, choices, usage)).unwrap_or_default()
    }

    fn choice(delta: Delta, finish_reason: Option<&'static str>) -> ChatChunkChoice {
        ChatChunkChoice {
            index: 0,
            delta,
            logprobs: None,
            finish_reason,
        }
    }
}

impl ChunkFormatter for ChatChunks {
    fn start(&mut self) -> Vec<String> {
        let delta = Delta {
            role: Some("assistant"),
            content: Some(String::new()),
        };
        vec![self.body(vec![Self::choice(delta, None)], None)]
    }

    fn chunk(&mut self, text: String, logprobs: &[TokenLogprob]) -> Option<String> {
        let logprobs = match self.top {
            Some(n) if !logprobs.is_empty() => {
                Some(chat_logprobs(self.engine.tokenizer(), logprobs, n))
            }
            _ if text.is_empty() => return None,
            _ => None,
        };
        let mut choice = Self::choice(
            Delta {
                role: None,
                content: Some(text),
            },
            None,
        );
        choice.logprobs = logprobs;
        Some(self.body(vec![choice], None))
    }

    fn finish(&mut self, completion: &Completion) -> Vec<String> {
        let reason = completion.finish_reason.as_str();
        let mut out = vec![self.body(vec![Self::choice(Delta::default(), Some(reason))], None)];
        if self.include_usage {
            out.push(self.body(Vec::new(), Some(completion.usage.into())));
        }
        out
    }
}
