//! The chat stream's chunks (`chat.completion.chunk`): a role delta, content deltas, then the
//! finish reason and usage. With tools, text that may start a call is held back; calls are
//! sent whole, one delta each, when the output ends (`finish_reason: "tool_calls"`).

use super::logprobs::chat_logprobs;
use super::response::{ChatChunk, ChatChunkChoice, Delta, ResponseMeta, UsageOut};
use super::sse::ChunkFormatter;
use super::tools::calls_out;
use crate::grammar::{parse_tool_calls, TOOL_CALL_OPEN as CALL_OPEN};
use crate::handle::{Completion, EngineHandle, TokenLogprob};

pub struct ChatChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    include_usage: bool,
    top: Option<usize>,
    /// Tool mode: everything generated so far, and how much of it was sent as content.
    tools: Option<ToolStream>,
}

#[derive(Default)]
struct ToolStream {
    text: String,
    sent: usize,
}

impl ToolStream {
    /// Content that can no longer be part of a call: up to the first `<tool_call>`, less a
    /// tail that could still become one.
    fn sendable(&mut self) -> String {
        // Only the text not yet sent can hold the first call: what was sent holds none.
        let from = self.sent;
        let end = match self.text.get(from..).and_then(|t| t.find(CALL_OPEN)) {
            Some(at) => from + at,
            None => {
                let len = self.text.len();
                (len.saturating_sub(CALL_OPEN.len() - 1)..len)
                    .filter(|&i| self.text.is_char_boundary(i))
                    .find(|&i| CALL_OPEN.starts_with(&self.text[i..]))
                    .unwrap_or(len)
            }
        };
        let out = self
            .text
            .get(self.sent..end)
            .unwrap_or_default()
            .to_string();
        self.sent = self.sent.max(end);
        out
    }
}

impl ChatChunks {
    pub fn new(
        engine: EngineHandle,
        meta: ResponseMeta,
        include_usage: bool,
        top: Option<usize>,
        with_tools: bool,
    ) -> Self {
        Self {
            engine,
            meta,
            include_usage,
            top,
            tools: with_tools.then(ToolStream::default),
        }
    }

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

    fn content(text: String) -> Delta {
        Delta {
            content: Some(text),
            ..Delta::default()
        }
    }
}

impl ChunkFormatter for ChatChunks {
    fn start(&mut self) -> Vec<String> {
        let delta = Delta {
            role: Some("assistant"),
            content: Some(String::new()),
            tool_calls: None,
        };
        vec![self.body(vec![Self::choice(delta, None)], None)]
    }

    fn chunk(&mut self, text: String, logprobs: &[TokenLogprob]) -> Option<String> {
        let text = match self.tools.as_mut() {
            Some(stream) => {
                stream.text.push_str(&text);
                stream.sendable()
            }
            None => text,
        };
        let logprobs = match self.top {
            Some(n) if !logprobs.is_empty() => {
                Some(chat_logprobs(self.engine.tokenizer(), logprobs, n))
            }
            _ if text.is_empty() => return None,
            _ => None,
        };
        let mut choice = Self::choice(Self::content(text), None);
        choice.logprobs = logprobs;
        Some(self.body(vec![choice], None))
    }

    fn finish(&mut self, completion: &Completion) -> Vec<String> {
        let mut reason = completion.finish_reason.as_str();
        let mut out = Vec::new();
        if let Some(stream) = self.tools.take() {
            let (_, calls) = parse_tool_calls(&stream.text);
            if calls.is_empty() {
                // No call after all: what was held back is content.
                let rest = stream.text.get(stream.sent..).unwrap_or_default();
                if !rest.is_empty() {
                    out.push(self.body(vec![Self::choice(Self::content(rest.into()), None)], None));
                }
            } else {
                if reason == "stop" {
                    reason = "tool_calls";
                }
                for call in calls_out(&self.meta.id, calls, true) {
                    let delta = Delta {
                        tool_calls: Some(vec![call]),
                        ..Delta::default()
                    };
                    out.push(self.body(vec![Self::choice(delta, None)], None));
                }
            }
        }
        out.push(self.body(vec![Self::choice(Delta::default(), Some(reason))], None));
        if self.include_usage {
            out.push(self.body(Vec::new(), Some(completion.usage.into())));
        }
        out
    }
}
