//! The Responses API's objects as its clients parse them: the `response` (whole, and in the
//! stream's lifecycle events), its output items and its usage.

use super::super::logprobs::ChatTokenLogprob;
use super::super::response::unix_now;
use super::request::ResponsesRequest;
use crate::handle::Usage;
use crate::sampling::FinishReason;
use serde::Serialize;
use serde_json::{json, Value};

/// What every `response` object of one request shares: its ids, and the request's settings
/// as the response echoes them.
#[derive(Clone, Debug)]
pub struct ResponseShell {
    pub id: String,
    /// The first choice's request id: the output items' ids derive from it.
    rid: String,
    created_at: u64,
    model: String,
    settings: serde_json::Map<String, Value>,
}

impl ResponseShell {
    pub fn new(rid: &str, model: &str, request: &ResponsesRequest) -> Self {
        let rest = |field: &str, default: Value| {
            request
                .rest
                .get(field)
                .filter(|v| !v.is_null())
                .cloned()
                .unwrap_or(default)
        };
        let settings = json!({
            "background": false,
            "instructions": request.instructions,
            "max_output_tokens": request.max_output_tokens,
            "max_tool_calls": null,
            "metadata": request.metadata.clone().unwrap_or_else(|| json!({})),
            "parallel_tool_calls": request.parallel_tool_calls.unwrap_or(true),
            "previous_response_id": null,
            "reasoning": request.reasoning.clone().unwrap_or_else(|| json!({"effort": null, "summary": null})),
            // Nothing is kept: a later request cannot refer to this one.
            "store": false,
            "temperature": rest("temperature", json!(1.0)),
            "text": request.text.clone().unwrap_or_else(|| json!({"format": {"type": "text"}})),
            "tool_choice": request.tool_choice.clone().unwrap_or_else(|| json!("auto")),
            "tools": request.tools.clone().unwrap_or_default(),
            "top_logprobs": request.top_logprobs.unwrap_or(0),
            "top_p": rest("top_p", json!(1.0)),
            "truncation": "disabled",
            "user": request.user,
        });
        Self {
            id: format!("resp_{rid}"),
            rid: rid.to_string(),
            created_at: unix_now(),
            model: model.to_string(),
            settings: match settings {
                Value::Object(map) => map,
                _ => serde_json::Map::new(),
            },
        }
    }

    pub fn reasoning_id(&self) -> String {
        format!("rs_{}", self.rid)
    }

    pub fn message_id(&self) -> String {
        format!("msg_{}", self.rid)
    }

    pub fn call_item_id(&self, index: usize) -> String {
        format!("fc_{}_{index}", self.rid)
    }

    /// The `response` object: in progress (no output yet), or ended with `status`.
    pub fn object(
        &self,
        status: &Status,
        output: &[OutputItem],
        usage: Option<ResponseUsage>,
    ) -> Value {
        let mut object = self.settings.clone();
        let fields = [
            ("id", json!(self.id)),
            ("object", json!("response")),
            ("created_at", json!(self.created_at)),
            ("model", json!(self.model)),
            ("status", json!(status.name())),
            ("error", Value::Null),
            ("incomplete_details", status.details()),
            ("output", json!(output)),
            ("usage", json!(usage)),
        ];
        object.extend(fields.map(|(k, v)| (k.to_string(), v)));
        Value::Object(object)
    }
}

/// Where a response stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    InProgress,
    Completed,
    /// Ended by the token limit or the end of the context.
    Incomplete,
    /// Ended by an error (only a stream reports one in a response).
    Failed,
}

impl Status {
    pub fn of(finish: &FinishReason) -> Self {
        match finish.as_str() {
            "length" => Self::Incomplete,
            _ => Self::Completed,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
            Self::Incomplete => "incomplete",
            Self::Failed => "failed",
        }
    }

    fn details(&self) -> Value {
        match self {
            Self::Incomplete => json!({"reason": "max_output_tokens"}),
            _ => Value::Null,
        }
    }
}

/// One item of a response's output.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OutputItem {
    /// A thinking model's thinking, in full (no summary is made).
    Reasoning {
        id: String,
        summary: Vec<Value>,
        content: Vec<ReasoningText>,
        status: &'static str,
    },
    Message {
        id: String,
        status: &'static str,
        role: &'static str,
        content: Vec<OutputText>,
    },
    FunctionCall {
        id: String,
        call_id: String,
        name: String,
        /// JSON text.
        arguments: String,
        status: &'static str,
    },
}

impl OutputItem {
    pub fn reasoning(id: String, content: Vec<ReasoningText>, status: &'static str) -> Self {
        Self::Reasoning {
            id,
            summary: Vec::new(),
            content,
            status,
        }
    }

    pub fn message(id: String, content: Vec<OutputText>, status: &'static str) -> Self {
        Self::Message {
            id,
            status,
            role: "assistant",
            content,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct ReasoningText {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
}

impl ReasoningText {
    pub fn new(text: String) -> Self {
        Self {
            kind: "reasoning_text",
            text,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct OutputText {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
    pub annotations: Vec<Value>,
    /// Per token, when `message.output_text.logprobs` was included.
    pub logprobs: Vec<ChatTokenLogprob>,
}

impl OutputText {
    pub fn new(text: String, logprobs: Vec<ChatTokenLogprob>) -> Self {
        Self {
            kind: "output_text",
            text,
            annotations: Vec::new(),
            logprobs,
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct ResponseUsage {
    pub input_tokens: u32,
    pub input_tokens_details: InputTokensDetails,
    pub output_tokens: u32,
    pub output_tokens_details: OutputTokensDetails,
    pub total_tokens: u32,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct InputTokensDetails {
    /// Prompt tokens whose K/V came from the prefix cache.
    pub cached_tokens: u32,
    /// Always 0: caching costs nothing to write here.
    pub cache_write_tokens: u32,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct OutputTokensDetails {
    /// Output tokens of the thinking block (0 for a model that does not think).
    pub reasoning_tokens: u32,
}

impl ResponseUsage {
    pub fn new(usage: Usage, reasoning_tokens: Option<u32>) -> Self {
        Self {
            input_tokens: usage.prompt_tokens,
            input_tokens_details: InputTokensDetails {
                cached_tokens: usage.cached_tokens,
                cache_write_tokens: 0,
            },
            output_tokens: usage.completion_tokens,
            output_tokens_details: OutputTokensDetails {
                reasoning_tokens: reasoning_tokens.unwrap_or(0),
            },
            total_tokens: usage.prompt_tokens + usage.completion_tokens,
        }
    }
}
