//! `POST /v1/responses`: OpenAI's Responses API over the chat path. The request is read as
//! the chat request it asks for (`request`); the output comes back as items (`body`): the
//! thinking as a reasoning item, the text as a message, each call as a function call; whole,
//! or streamed as typed events (`stream`). Nothing is stored, so nothing refers back to an
//! earlier response: the client sends the whole conversation, as on chat.

mod body;
mod request;
mod stream;

use super::chat::{rename_param, start_chat};
use super::error::ApiError;
use super::generate::{accept, collect_all};
use super::logprobs::{chat_logprobs, ChatTokenLogprob};
use super::sse::sse_response;
use super::tools::calls_out;
use super::HttpState;
use crate::grammar::{ToolCall, ToolFormat};
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use body::{OutputItem, OutputText, ReasoningText, ResponseShell, ResponseUsage, Status};
use request::ResponsesRequest;
use std::sync::Arc;
use stream::ResponseEvents;

pub async fn responses(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, ResponsesRequest) = accept(&state, &caller, body).await?;
    let chat = request.to_chat()?;
    let mut run = start_chat(engine, &caller, &chat)
        .await
        .map_err(responses_param)?;
    let shell = ResponseShell::new(&run.rid, &run.model, &request);
    if run.stream {
        let events = ResponseEvents::new(engine.clone(), shell, &run);
        return Ok(sse_response(run.streams, run.samples, events));
    }
    let mut outs = collect_all(&mut run.streams).await?;
    let reasoning_tokens = run.reasoning_tokens(engine, &outs);
    // One choice: `n` is refused (see `request`).
    let Some(out) = outs.pop() else {
        return Err(ApiError::internal("the request produced no output"));
    };
    // The text's logprobs: the thinking's tokens come first, and are left out.
    let thinking = reasoning_tokens.unwrap_or(0) as usize;
    let text_logprobs = out.logprobs.get(thinking..).unwrap_or_default();
    let logprobs = (run.options.top)
        .map(|n| chat_logprobs(engine.tokenizer(), text_logprobs, n).content)
        .unwrap_or_default();
    let status = Status::of(&out.completion.finish_reason);
    let answer = run.answer(out.text);
    let output = Output {
        reasoning: answer.reasoning.unwrap_or_default(),
        text: answer.content.unwrap_or_default(),
        logprobs,
        calls: answer.calls,
    };
    let usage = ResponseUsage::new(out.completion.usage, reasoning_tokens);
    let items = output.items(&shell, run.tool_format(), status);
    Ok(Json(shell.object(&status, &items, Some(usage))).into_response())
}

/// An error of the chat path naming the field a Responses request calls otherwise.
fn responses_param(error: ApiError) -> ApiError {
    let renamed = [
        ("messages", "input"),
        ("prompt", "input"),
        ("response_format", "text.format"),
        ("max_completion_tokens", "max_output_tokens"),
        ("max_tokens", "max_output_tokens"),
        ("logprobs", "include"),
    ];
    match renamed
        .iter()
        .find(|(chat, _)| error.param.as_deref() == Some(chat))
    {
        Some((chat, responses)) => rename_param(error, chat, responses),
        None => error,
    }
}

/// One output, read: what its items are made of.
#[derive(Debug, Default)]
struct Output {
    reasoning: String,
    text: String,
    /// The text's: the thinking's tokens left out.
    logprobs: Vec<ChatTokenLogprob>,
    calls: Vec<ToolCall>,
}

impl Output {
    /// Its items, in order: the thinking, if any; the text, if any, or an empty message when
    /// there is nothing else; each call. In a response the token limit cut, the last of the
    /// thinking and the text is `incomplete`.
    fn items(self, shell: &ResponseShell, format: ToolFormat, status: Status) -> Vec<OutputItem> {
        let mut items = Vec::new();
        let cut = status == Status::Incomplete;
        let message = !self.text.is_empty() || (self.reasoning.is_empty() && self.calls.is_empty());
        if !self.reasoning.is_empty() {
            let content = vec![ReasoningText::new(self.reasoning)];
            let done = item_status(cut && !message);
            items.push(OutputItem::reasoning(shell.reasoning_id(), content, done));
        }
        if message {
            let content = vec![OutputText::new(self.text, self.logprobs)];
            items.push(OutputItem::message(
                shell.message_id(),
                content,
                item_status(cut),
            ));
        }
        items.extend(call_items(shell, format, self.calls));
        items
    }
}

/// The status of an item the token limit did or did not cut.
fn item_status(cut: bool) -> &'static str {
    if cut {
        "incomplete"
    } else {
        "completed"
    }
}

/// The function call items of `calls`, with ids in `format`'s shape.
fn call_items(shell: &ResponseShell, format: ToolFormat, calls: Vec<ToolCall>) -> Vec<OutputItem> {
    let calls = calls_out(format, &shell.id, 0, calls);
    (calls.into_iter().enumerate())
        .map(|(i, call)| OutputItem::FunctionCall {
            id: shell.call_item_id(i),
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
            status: "completed",
        })
        .collect()
}
