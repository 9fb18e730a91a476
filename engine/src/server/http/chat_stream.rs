//! The chat stream's chunks (`chat.completion.chunk`): per choice a role delta, content
//! deltas, then the finish reason; usage once at the end. With tools, text that may start a call is held back; calls are
//! sent whole, one delta each, when the output ends (`finish_reason: "tool_calls"`).

use super::logprobs::chat_logprobs;
use super::response::{ChatChunk, ChatChunkChoice, Delta, ResponseMeta, UsageOut};
use super::sse::ChunkFormatter;
use super::tools::calls_out;
use crate::grammar::{split_tool_calls, ToolCall, TOOL_CALL_OPEN as CALL_OPEN};
use crate::handle::{Completion, EngineHandle, TokenLogprob, Usage};

pub struct ChatChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    include_usage: bool,
    top: Option<usize>,
    /// Tool mode: per choice, everything generated so far and how much of it was sent as
    /// content.
    tools: Option<Vec<ToolStream>>,
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
        // Trailing whitespace waits for what follows: before a call it is trimmed, as the
        // unstreamed content trims it.
        let pending = self.text.get(self.sent..end).unwrap_or_default();
        let out = pending.trim_end().to_string();
        self.sent += out.len();
        out
    }

    /// At the end of the output: the content not yet sent (what was held back, the text
    /// between and after the calls) and the calls, so that all the content sent equals the
    /// content of an unstreamed response ([`crate::grammar::parse_tool_calls`]).
    fn finish(self) -> (String, Vec<ToolCall>) {
        let split = split_tool_calls(&self.text);
        if split.calls.is_empty() {
            // No call after all: what was held back is content.
            let rest = self.text.get(self.sent..).unwrap_or_default();
            return (rest.to_string(), split.calls);
        }
        let before = &self.text[..split.first];
        let mut rest = before
            .get(self.sent..)
            .unwrap_or_default()
            .trim_end()
            .to_string();
        if !split.after.is_empty() {
            if !before.trim_end().is_empty() {
                rest.push('\n');
            }
            rest.push_str(&split.after);
        }
        (rest, split.calls)
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
            tools: with_tools.then(Vec::new),
        }
    }

    fn body(&self, choices: Vec<ChatChunkChoice>, usage: Option<UsageOut>) -> String {
        let usage = self.include_usage.then_some(usage);
        serde_json::to_string(&ChatChunk::new(&self.meta, choices, usage)).unwrap_or_default()
    }

    fn choice(index: u32, delta: Delta, finish_reason: Option<&'static str>) -> ChatChunkChoice {
        ChatChunkChoice {
            index,
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
    fn start(&mut self, choices: u32) -> Vec<String> {
        if let Some(tools) = self.tools.as_mut() {
            tools.resize_with(choices as usize, ToolStream::default);
        }
        (0..choices)
            .map(|index| {
                let delta = Delta {
                    role: Some("assistant"),
                    content: Some(String::new()),
                    tool_calls: None,
                };
                self.body(vec![Self::choice(index, delta, None)], None)
            })
            .collect()
    }

    fn chunk(&mut self, index: u32, text: String, logprobs: &[TokenLogprob]) -> Option<String> {
        let stream = self
            .tools
            .as_mut()
            .and_then(|tools| tools.get_mut(index as usize));
        let text = match stream {
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
        let mut choice = Self::choice(index, Self::content(text), None);
        choice.logprobs = logprobs;
        Some(self.body(vec![choice], None))
    }

    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<String> {
        let mut reason = completion.finish_reason.as_str();
        let mut out = Vec::new();
        let stream = self
            .tools
            .as_mut()
            .and_then(|tools| tools.get_mut(index as usize))
            .map(std::mem::take);
        if let Some(stream) = stream {
            let (rest, calls) = stream.finish();
            if !calls.is_empty() && reason == "stop" {
                reason = "tool_calls";
            }
            if !rest.is_empty() {
                out.push(self.body(vec![Self::choice(index, Self::content(rest), None)], None));
            }
            for call in calls_out(&self.meta.id, index, calls, true) {
                let delta = Delta {
                    tool_calls: Some(vec![call]),
                    ..Delta::default()
                };
                out.push(self.body(vec![Self::choice(index, delta, None)], None));
            }
        }
        let end = Self::choice(index, Delta::default(), Some(reason));
        out.push(self.body(vec![end], None));
        out
    }

    fn usage(&mut self, usage: Usage) -> Option<String> {
        self.include_usage
            .then(|| self.body(Vec::new(), Some(usage.into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::parse_tool_calls;

    /// Streamed in pieces of every size, the content sent and the calls are those of the
    /// unstreamed response.
    #[test]
    fn streamed_content_and_calls_equal_the_unstreamed_ones() {
        let call = |name: &str| {
            format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": {{}}}}\n</tool_call>")
        };
        let texts = [
            format!("A \n{}\n B \n{}\nC", call("t"), call("u")),
            format!("  lead\t\n\n{}", call("t")),
            format!("{}  tail  ", call("t")),
            "no calls, trailing space  \n".to_string(),
            "almost <tool_cal".to_string(),
            "broken <tool_call> {".to_string(),
            format!("é ü \n{}", call("t")),
        ];
        for text in &texts {
            let (content, calls) = parse_tool_calls(text);
            for size in 1..=text.len() {
                let mut stream = ToolStream::default();
                let mut sent = String::new();
                let mut at = 0;
                while at < text.len() {
                    let mut end = (at + size).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    stream.text.push_str(&text[at..end]);
                    sent.push_str(&stream.sendable());
                    at = end;
                }
                let (rest, streamed_calls) = stream.finish();
                sent.push_str(&rest);
                assert_eq!(sent, content, "{text:?} in pieces of {size}");
                assert_eq!(streamed_calls, calls, "{text:?} in pieces of {size}");
            }
        }
    }
}
