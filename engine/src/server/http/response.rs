//! Response bodies and stream chunks of the OpenAI API, as its clients parse them.

use super::logprobs::{ChatLogprobs, CompletionLogprobs};
use crate::handle::Usage;
use serde::Serialize;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Copy, Debug, Serialize)]
pub struct UsageOut {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    pub total_tokens: u32,
    pub prompt_tokens_details: PromptTokensDetails,
    /// Only for a thinking model's chat answers, whose thinking it counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens_details: Option<CompletionTokensDetails>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct CompletionTokensDetails {
    /// Output tokens of the thinking block (see `http::reasoning_tokens`).
    pub reasoning_tokens: u32,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct PromptTokensDetails {
    /// Prompt tokens whose K/V came from the prefix cache.
    pub cached_tokens: u32,
}

impl From<Usage> for UsageOut {
    fn from(u: Usage) -> Self {
        Self {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.prompt_tokens + u.completion_tokens,
            prompt_tokens_details: PromptTokensDetails {
                cached_tokens: u.cached_tokens,
            },
            completion_tokens_details: None,
        }
    }
}

impl UsageOut {
    /// With the reasoning tokens of every choice, where thinking is counted.
    pub fn with_reasoning(mut self, reasoning_tokens: Option<u32>) -> Self {
        self.completion_tokens_details =
            reasoning_tokens.map(|reasoning_tokens| CompletionTokensDetails { reasoning_tokens });
        self
    }
}

/// What every response and chunk of one request shares.
#[derive(Clone, Debug)]
pub struct ResponseMeta {
    pub id: String,
    pub created: u64,
    pub model: String,
}

impl ResponseMeta {
    pub fn new(prefix: &str, rid: &str, model: &str) -> Self {
        Self {
            id: format!("{prefix}-{rid}"),
            created: unix_now(),
            model: model.to_string(),
        }
    }
}

pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A `text_completion`: the whole response, or one stream chunk.
#[derive(Debug, Serialize)]
pub struct CompletionBody {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    pub choices: Vec<CompletionChoice>,
    /// Absent in stream chunks unless the client asked for usage; `null` in chunks then,
    /// except the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Option<UsageOut>>,
}

#[derive(Debug, Serialize)]
pub struct CompletionChoice {
    pub index: u32,
    pub text: String,
    pub logprobs: Option<CompletionLogprobs>,
    pub finish_reason: Option<&'static str>,
}

impl CompletionBody {
    pub fn new(
        meta: &ResponseMeta,
        choices: Vec<CompletionChoice>,
        usage: Option<Option<UsageOut>>,
    ) -> Self {
        Self {
            id: meta.id.clone(),
            object: "text_completion",
            created: meta.created,
            model: meta.model.clone(),
            choices,
            usage,
        }
    }
}

/// A `chat.completion` (whole response).
#[derive(Debug, Serialize)]
pub struct ChatBody {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    pub choices: Vec<ChatChoice>,
    pub usage: UsageOut,
}

#[derive(Debug, Serialize)]
pub struct ChatChoice {
    pub index: u32,
    pub message: ChatMessageOut,
    pub logprobs: Option<ChatLogprobs>,
    pub finish_reason: &'static str,
}

#[derive(Debug, Serialize)]
pub struct ChatMessageOut {
    pub role: &'static str,
    /// A reasoning model's thinking, when the server splits it out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    /// `null` when the turn is only tool calls.
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCallOut>>,
}

/// One call of a function in OpenAI's shape (`arguments` is JSON text).
#[derive(Debug, Serialize)]
pub struct ToolCallOut {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub function: FunctionCallOut,
}

#[derive(Debug, Serialize)]
pub struct FunctionCallOut {
    pub name: String,
    pub arguments: String,
}

/// A piece of a call in a stream delta, at its place among the choice's calls: the first
/// names the call (its id, type and function's name), each adds to its arguments' text.
#[derive(Debug, Serialize)]
pub struct ToolCallDelta {
    pub index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    pub function: FunctionDelta,
}

#[derive(Debug, Serialize)]
pub struct FunctionDelta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub arguments: String,
}

/// A `chat.completion.chunk` (one stream event).
#[derive(Debug, Serialize)]
pub struct ChatChunk {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    pub choices: Vec<ChatChunkChoice>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Option<UsageOut>>,
}

impl ChatChunk {
    pub fn new(
        meta: &ResponseMeta,
        choices: Vec<ChatChunkChoice>,
        usage: Option<Option<UsageOut>>,
    ) -> Self {
        Self {
            id: meta.id.clone(),
            object: "chat.completion.chunk",
            created: meta.created,
            model: meta.model.clone(),
            choices,
            usage,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ChatChunkChoice {
    pub index: u32,
    pub delta: Delta,
    pub logprobs: Option<ChatLogprobs>,
    pub finish_reason: Option<&'static str>,
}

#[derive(Debug, Default, Serialize)]
pub struct Delta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCallDelta>>,
}
