//! The chat stream's chunks (`chat.completion.chunk`): per choice a role delta, content
//! deltas (`reasoning_content` ones first when thinking is split out), then the finish
//! reason; usage once at the end. With tools, text that may start a call is held back; calls
//! are sent whole, one delta each, when the output ends (`finish_reason: "tool_calls"`).

use super::logprobs::chat_logprobs;
use super::reasoning::ReasoningStream;
use super::response::{ChatChunk, ChatChunkChoice, Delta, ResponseMeta, UsageOut};
use super::sse::{ChunkFormatter, Payload};
use super::tools::calls_out;
use crate::grammar::{ToolCall, ToolFormat, ToolFunction};
use crate::handle::{Completion, EngineHandle, TokenLogprob, Usage};
use crate::tokenizer::ReasoningTokens;
use std::sync::Arc;

/// How a chat stream is written.
#[derive(Clone, Debug)]
pub struct ChatStreamOptions {
    pub include_usage: bool,
    /// Top logprobs per token, when logprobs were asked for.
    pub top: Option<usize>,
    /// The format of the output's tool calls and the functions they call, when it may
    /// hold any.
    pub tools: Option<(ToolFormat, Arc<[ToolFunction]>)>,
    /// `Some(inside)` for a thinking model (`inside`: the prompt opened the block): usage
    /// counts its reasoning tokens.
    pub starts_thinking: Option<bool>,
    /// Whether the thinking is split out as `reasoning_content` (see `reasoning`).
    pub separate_reasoning: bool,
}

pub struct ChatChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    options: ChatStreamOptions,
    /// Per choice: what is held back from the thinking, the content and the calls.
    choices: Vec<ChoiceStream>,
    /// Per choice, for a thinking model.
    reasoning_tokens: Vec<ReasoningTokens>,
}

/// One choice's output on its way to deltas: thinking split out first, then calls.
pub(super) struct ChoiceStream {
    reasoning: Option<ReasoningStream>,
    tools: Option<ToolStream>,
}

impl ChoiceStream {
    pub(super) fn new(options: &ChatStreamOptions) -> Self {
        Self {
            reasoning: options
                .starts_thinking
                .filter(|_| options.separate_reasoning)
                .map(ReasoningStream::new),
            tools: options.tools.clone().map(ToolStream::new),
        }
    }

    /// The thinking and the content that `text` lets out now.
    pub(super) fn push(&mut self, text: String) -> (String, String) {
        let (thinking, answer) = match self.reasoning.as_mut() {
            Some(reasoning) => reasoning.push(&text),
            None => (String::new(), text),
        };
        let content = match self.tools.as_mut() {
            Some(tools) => {
                tools.text.push_str(&answer);
                tools.sendable()
            }
            None => answer,
        };
        (thinking, content)
    }

    /// At the end: the thinking and content held back, and the calls.
    pub(super) fn finish(self) -> (String, String, Vec<ToolCall>) {
        let (thinking, answer) = match self.reasoning {
            Some(reasoning) => reasoning.finish(),
            None => (String::new(), String::new()),
        };
        match self.tools {
            Some(mut tools) => {
                tools.text.push_str(&answer);
                let (content, calls) = tools.finish();
                (thinking, content, calls)
            }
            None => (thinking, answer, Vec::new()),
        }
    }
}

struct ToolStream {
    format: ToolFormat,
    /// The request's tools, which type the arguments of some formats.
    functions: Arc<[ToolFunction]>,
    text: String,
    sent: usize,
}

impl ToolStream {
    fn new((format, functions): (ToolFormat, Arc<[ToolFunction]>)) -> Self {
        Self {
            format,
            functions,
            text: String::new(),
            sent: 0,
        }
    }

    /// Content that can no longer be part of a call (see [`ToolFormat::held_from`]).
    fn sendable(&mut self) -> String {
        let end = self.format.held_from(&self.text, self.sent).max(self.sent);
        // Trailing whitespace waits for what follows: before a call it is trimmed, as the
        // unstreamed content trims it.
        let pending = self.text.get(self.sent..end).unwrap_or_default();
        let out = pending.trim_end().to_string();
        self.sent += out.len();
        out
    }

    /// At the end of the output: the content not yet sent and the calls. What was sent is
    /// a prefix of the unstreamed content ([`ToolFormat::parse`]: it stops before the first
    /// call and its trailing whitespace), so the rest of that content is what remains.
    fn finish(self) -> (String, Vec<ToolCall>) {
        let (content, calls) = self.format.parse(&self.text, &self.functions);
        (
            content.get(self.sent..).unwrap_or_default().to_string(),
            calls,
        )
    }
}

impl ChatChunks {
    pub fn new(engine: EngineHandle, meta: ResponseMeta, options: ChatStreamOptions) -> Self {
        Self {
            engine,
            meta,
            options,
            choices: Vec::new(),
            reasoning_tokens: Vec::new(),
        }
    }

    fn body(&self, choices: Vec<ChatChunkChoice>, usage: Option<UsageOut>) -> Payload {
        let usage = self.options.include_usage.then_some(usage);
        let chunk = ChatChunk::new(&self.meta, choices, usage);
        serde_json::to_string(&chunk).unwrap_or_default().into()
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
    fn start(&mut self, choices: u32) -> Vec<Payload> {
        let options = &self.options;
        self.choices
            .resize_with(choices as usize, || ChoiceStream::new(options));
        if let Some(inside) = options.starts_thinking {
            let count = ReasoningTokens::new(inside);
            self.reasoning_tokens = vec![count; choices as usize];
        }
        (0..choices)
            .map(|index| {
                let delta = Delta {
                    role: Some("assistant"),
                    content: Some(String::new()),
                    ..Delta::default()
                };
                self.body(vec![Self::choice(index, delta, None)], None)
            })
            .collect()
    }

    fn chunk(
        &mut self,
        index: u32,
        token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Vec<Payload> {
        if let Some(count) = self.reasoning_tokens.get_mut(index as usize) {
            count.add(token_ids, self.engine.tokenizer());
        }
        let (thinking, content) = match self.choices.get_mut(index as usize) {
            Some(choice) => choice.push(text),
            None => (String::new(), text),
        };
        let logprobs = match self.options.top {
            Some(n) if !logprobs.is_empty() => {
                Some(chat_logprobs(self.engine.tokenizer(), logprobs, n))
            }
            _ if thinking.is_empty() && content.is_empty() => return Vec::new(),
            _ => None,
        };
        let delta = Delta {
            reasoning_content: (!thinking.is_empty()).then_some(thinking),
            content: (!content.is_empty() || logprobs.is_some()).then_some(content),
            ..Delta::default()
        };
        let mut choice = Self::choice(index, delta, None);
        choice.logprobs = logprobs;
        vec![self.body(vec![choice], None)]
    }

    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<Payload> {
        let mut reason = completion.finish_reason.as_str();
        let mut out = Vec::new();
        let options = &self.options;
        let held = self
            .choices
            .get_mut(index as usize)
            .map(|choice| std::mem::replace(choice, ChoiceStream::new(options)).finish());
        if let Some((thinking, content, calls)) = held {
            if !calls.is_empty() && reason == "stop" {
                reason = "tool_calls";
            }
            if !thinking.is_empty() {
                let delta = Delta {
                    reasoning_content: Some(thinking),
                    ..Delta::default()
                };
                out.push(self.body(vec![Self::choice(index, delta, None)], None));
            }
            if !content.is_empty() {
                out.push(self.body(
                    vec![Self::choice(index, Self::content(content), None)],
                    None,
                ));
            }
            let format = self.options.tools.as_ref().map(|t| t.0).unwrap_or_default();
            for call in calls_out(format, &self.meta.id, index, calls, true) {
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

    fn usage(&mut self, usage: Usage) -> Option<Payload> {
        self.options.include_usage.then(|| {
            let reasoning = self.options.starts_thinking.is_some().then(|| {
                self.reasoning_tokens
                    .iter()
                    .map(ReasoningTokens::count)
                    .sum()
            });
            let usage = UsageOut::from(usage).with_reasoning(reasoning);
            self.body(Vec::new(), Some(usage))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thinking model's calls: the thinking split out first, the calls from the answer,
    /// streamed as a whole response has them.
    #[test]
    fn thinking_then_calls_stream_as_the_whole_response() {
        let text = "<think>\nweather needed \n</think>\n\nChecking. \n<tool_call>\n{\"name\": \"w\", \"arguments\": {}}\n</tool_call>";
        let options = ChatStreamOptions {
            include_usage: false,
            top: None,
            tools: Some((ToolFormat::Hermes, Arc::from([]))),
            starts_thinking: Some(false),
            separate_reasoning: true,
        };
        let (thinking, answer) = super::super::reasoning::split_reasoning(text, false);
        let (content, calls) = ToolFormat::Hermes.parse(&answer, &[]);
        for size in 1..=text.len() {
            let mut choice = ChoiceStream::new(&options);
            let (mut got_thinking, mut got_content) = (String::new(), String::new());
            for piece in text.as_bytes().chunks(size) {
                let (t, c) = choice.push(String::from_utf8(piece.to_vec()).unwrap());
                got_thinking.push_str(&t);
                got_content.push_str(&c);
            }
            let (t, c, got_calls) = choice.finish();
            got_thinking.push_str(&t);
            got_content.push_str(&c);
            assert_eq!(Some(got_thinking), thinking, "pieces of {size}");
            assert_eq!(got_content, content, "pieces of {size}");
            assert_eq!(got_calls, calls, "pieces of {size}");
        }
    }

    /// Streamed in pieces of every size, the content sent and the calls are those of the
    /// unstreamed response.
    #[test]
    fn streamed_content_and_calls_equal_the_unstreamed_ones() {
        let call = |name: &str| {
            format!("<tool_call>\n{{\"name\": \"{name}\", \"arguments\": {{}}}}\n</tool_call>")
        };
        let hermes = [
            format!("A \n{}\n B \n{}\nC", call("t"), call("u")),
            format!("  lead\t\n\n{}", call("t")),
            format!("{}  tail  ", call("t")),
            "no calls, trailing space  \n".to_string(),
            "almost <tool_cal".to_string(),
            "broken <tool_call> {".to_string(),
            format!("é ü \n{}", call("t")),
        ];
        let llama3 = [
            " {\"name\": \"t\", \"parameters\": {\"a\": \"{\"}}".to_string(),
            "{\"name\":\"t\",\"parameters\":{}}; {\"name\":\"u\",\"parameters\":{}}\n".to_string(),
            "Sunny, and { braces } later  \n".to_string(),
            "{\"not\": \"a call\"}".to_string(),
            "\n\n".to_string(),
        ];
        let mistral = [
            "[TOOL_CALLS] [{\"name\":\"t\",\"arguments\":{}}]".to_string(),
            " [TOOL_CALLS][{\"name\":\"t\",\"arguments\":{}}] \n".to_string(),
            "[1, 2] are numbers ".to_string(),
            "[TOOL_CALLS] not calls".to_string(),
            "Sun \n".to_string(),
            "\n".to_string(),
        ];
        let qwen_xml = [
            "Let me. \n<tool_call>\n<function=t>\n<parameter=a>\nx\n</parameter>\n</function>\n</tool_call>".to_string(),
            "<tool_call>\n<function=t>\n</function>\n</tool_call> after ".to_string(),
            "<tool_call>\n<function=t>\n<parameter=a>\ncut".to_string(),
            "almost <tool_c".to_string(),
        ];
        let granite = [
            "<|tool_call|>[{\"name\":\"t\",\"arguments\":{}}]".to_string(),
            "<|tool_ca".to_string(),
            "<b>bold</b> ".to_string(),
        ];
        let mistral_args = [
            "Let me look. [TOOL_CALLS]t[ARGS]{\"a\": 1}[TOOL_CALLS]u[ARGS]{}".to_string(),
            "[TOOL_CALLS]t[ARGS]{} [TOOL_CALLS]u[ARGS]{\"a\": ".to_string(),
            "almost [TOOL_CA".to_string(),
            "so [TOOL_CALLS] not a call ".to_string(),
        ];
        let phi4_mini = [
            "functools[{\"name\":\"t\",\"arguments\":{}}]".to_string(),
            " functool".to_string(),
            "<|tool_call|>[{\"name\":\"t\",\"arguments\":{}}]<|/tool_call|>".to_string(),
            "function tools ".to_string(),
        ];
        let cases = hermes
            .iter()
            .map(|t| (ToolFormat::Hermes, t))
            .chain(phi4_mini.iter().map(|t| (ToolFormat::Phi4Mini, t)))
            .chain(mistral_args.iter().map(|t| (ToolFormat::MistralArgs, t)))
            .chain(qwen_xml.iter().map(|t| (ToolFormat::QwenXml, t)))
            .chain(granite.iter().map(|t| (ToolFormat::Granite, t)))
            .chain(llama3.iter().map(|t| (ToolFormat::Llama3Json, t)))
            .chain(mistral.iter().map(|t| (ToolFormat::Mistral, t)));
        for (format, text) in cases {
            let (content, calls) = format.parse(text, &[]);
            for size in 1..=text.len() {
                let mut stream = ToolStream::new((format, Arc::from([])));
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
                assert_eq!(sent, content, "{format:?} {text:?} in pieces of {size}");
                assert_eq!(
                    streamed_calls, calls,
                    "{format:?} {text:?} in pieces of {size}"
                );
            }
        }
    }
}
