//! The chat stream's chunks (`chat.completion.chunk`): per choice a role delta, content
//! deltas (`reasoning_content` ones first when thinking is split out), then the finish
//! reason; usage once at the end. With tools, text that may start a call is held back, and
//! each call goes out as it is written: a delta with its id and name once the name is whole,
//! then deltas adding to its arguments (compact JSON, whole when the call is); text between
//! or after calls follows at the end (`finish_reason: "tool_calls"`).

use super::logprobs::chat_logprobs;
use super::reasoning::ReasoningStream;
use super::response::{ChatChunk, ChatChunkChoice, Delta, ResponseMeta, UsageOut};
use super::sse::{ChunkFormatter, Payload};
use super::tools::call_delta;
use crate::grammar::{CallPiece, HarmonyReader, Pieces, ToolCall, ToolFormat, ToolFunction};
use crate::handle::{Completion, EngineHandle, TokenLogprob, Usage};
use crate::tokenizer::{ReasoningTokens, Thinking};
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
    /// How a thinking model's output starts (its tags, and whether the prompt opened the
    /// block): usage counts its reasoning tokens.
    pub starts_thinking: Option<Thinking>,
    /// Whether the thinking is split out as `reasoning_content` (see `reasoning`).
    pub separate_reasoning: bool,
    /// The output is harmony messages (gpt-oss): read by `HarmonyReader`, not by
    /// `starts_thinking` and the tool format.
    pub harmony: bool,
    /// A harmony model's `analysis` messages are reasoning (not `--reasoning-parser none`):
    /// usage counts their tokens.
    pub harmony_reasoning: bool,
}

impl ChatStreamOptions {
    /// A counter of each choice's reasoning tokens, for a thinking model.
    pub fn reasoning_count(&self) -> Option<ReasoningTokens> {
        match self.harmony {
            true => self.harmony_reasoning.then(ReasoningTokens::harmony),
            false => self.starts_thinking.map(ReasoningTokens::new),
        }
    }
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

/// What a choice's output lets out at its end, and its calls whole (as the pieces sent
/// make them).
#[derive(Debug, Default)]
pub(super) struct ChoiceEnd {
    pub pieces: Pieces,
    pub calls: Vec<ToolCall>,
    /// Whether the output cut short a call the stream began (see `ToolStream::finish`).
    pub cut_call: bool,
}

/// One choice's output on its way to deltas: thinking split out first, then calls; or its
/// harmony messages read.
pub(super) struct ChoiceStream {
    reasoning: Option<ReasoningStream>,
    tools: Option<ToolStream>,
    harmony: Option<HarmonyReader>,
    /// Whether calls go out as they are written, or whole at the end.
    calls_as_written: bool,
}

impl ChoiceStream {
    /// A stream whose calls go out as they are written (`calls_as_written`) or whole at
    /// the end, as the unstreamed reply reads them.
    pub(super) fn new(options: &ChatStreamOptions, calls_as_written: bool) -> Self {
        if options.harmony {
            let reader = HarmonyReader::new(options.tools.is_some(), options.separate_reasoning);
            return Self {
                reasoning: None,
                tools: None,
                harmony: Some(reader),
                calls_as_written,
            };
        }
        Self {
            harmony: None,
            reasoning: options
                .starts_thinking
                .filter(|_| options.separate_reasoning)
                .map(ReasoningStream::new),
            tools: options.tools.clone().map(ToolStream::new),
            calls_as_written,
        }
    }

    /// The thinking, the content and the pieces of calls that `text` lets out now.
    pub(super) fn push(&mut self, text: String) -> Pieces {
        if let Some(reader) = self.harmony.as_mut() {
            let mut pieces = reader.push(&text);
            if !self.calls_as_written {
                pieces.calls.clear();
            }
            return pieces;
        }
        let (thinking, answer) = match self.reasoning.as_mut() {
            Some(reasoning) => reasoning.push(&text),
            None => (String::new(), text),
        };
        let (content, calls) = match self.tools.as_mut() {
            Some(tools) => {
                tools.text.push_str(&answer);
                let content = tools.sendable();
                let calls = match self.calls_as_written {
                    true => tools.pieces(),
                    false => Vec::new(),
                };
                (content, calls)
            }
            None => (answer, Vec::new()),
        };
        Pieces {
            thinking,
            content,
            calls,
        }
    }

    /// At the end: the thinking, content and calls held back.
    pub(super) fn finish(self) -> ChoiceEnd {
        if let Some(reader) = self.harmony {
            let (mut pieces, calls) = reader.finish();
            if !self.calls_as_written {
                // Each call whole, as the unstreamed reply has it.
                pieces.calls = calls
                    .iter()
                    .enumerate()
                    .map(|(index, call)| CallPiece {
                        index,
                        name: Some(call.name.clone()),
                        arguments: call.arguments.clone(),
                    })
                    .collect();
            }
            // A harmony call ends the output (`<|call|>`, which the text does not show).
            return ChoiceEnd {
                pieces,
                calls,
                cut_call: false,
            };
        }
        let (thinking, answer) = match self.reasoning {
            Some(reasoning) => reasoning.finish(),
            None => (String::new(), String::new()),
        };
        match self.tools {
            Some(mut tools) => {
                tools.text.push_str(&answer);
                let (content, pieces, cut_call) = tools.finish();
                ChoiceEnd {
                    pieces: Pieces {
                        thinking,
                        content,
                        calls: pieces,
                    },
                    calls: tools.calls,
                    cut_call,
                }
            }
            None => ChoiceEnd {
                pieces: Pieces {
                    thinking,
                    content: answer,
                    calls: Vec::new(),
                },
                calls: Vec::new(),
                cut_call: false,
            },
        }
    }
}

struct ToolStream {
    format: ToolFormat,
    /// The request's tools, which type the arguments of some formats.
    functions: Arc<[ToolFunction]>,
    text: String,
    /// Bytes of `text` sent as content.
    sent: usize,
    /// The calls begun in the stream: their names and the arguments sent so far.
    calls: Vec<ToolCall>,
}

impl ToolStream {
    fn new((format, functions): (ToolFormat, Arc<[ToolFunction]>)) -> Self {
        Self {
            format,
            functions,
            text: String::new(),
            sent: 0,
            calls: Vec::new(),
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

    /// The calls held text has begun so far, as pieces not yet sent. (Calls start after
    /// the content sent.)
    fn pieces(&mut self) -> Vec<CallPiece> {
        if self.sent == self.text.len() {
            return Vec::new();
        }
        let so_far = self.calls_so_far();
        self.advance(so_far.into_iter().map(|c| (c.name, c.arguments)))
    }

    fn calls_so_far(&self) -> Vec<crate::grammar::CallSoFar> {
        let held = self.text.get(self.sent..).unwrap_or_default();
        self.format.calls_so_far(held, &self.functions)
    }

    /// The pieces that bring the calls sent up to `calls` (names and arguments so far, in
    /// order). Arguments that do not continue those sent add nothing (a key written twice
    /// in a call: its whole arguments keep the last value, in the first one's place).
    fn advance(&mut self, calls: impl IntoIterator<Item = (String, String)>) -> Vec<CallPiece> {
        let mut pieces = Vec::new();
        for (index, (name, arguments)) in calls.into_iter().enumerate() {
            let Some(sent) = self.calls.get_mut(index) else {
                self.calls.push(ToolCall {
                    name: name.clone(),
                    arguments: arguments.clone(),
                });
                pieces.push(CallPiece {
                    index,
                    name: Some(name),
                    arguments,
                });
                continue;
            };
            let more = arguments.strip_prefix(sent.arguments.as_str());
            if let Some(more) = more.filter(|m| !m.is_empty()) {
                pieces.push(CallPiece {
                    index,
                    name: None,
                    arguments: more.to_string(),
                });
                sent.arguments = arguments;
            }
        }
        pieces
    }

    /// At the end of the output: the content not yet sent, the pieces of calls not yet
    /// sent (`calls` then holds them whole), and whether a call was cut short. What was
    /// sent is a prefix of the unstreamed content ([`ToolFormat::parse`]: it stops before
    /// the first call and its trailing whitespace), so the rest of that content is what
    /// remains. An output cut short in a call the
    /// stream began keeps that call, its arguments as far as they were written; the content
    /// is then what the text before that call holds.
    fn finish(&mut self) -> (String, Vec<CallPiece>, bool) {
        let (content, calls) = self.format.parse(&self.text, &self.functions);
        let cut_call = calls.len() < self.calls.len();
        let (content, whole) = if !cut_call {
            let whole: Vec<(String, String)> =
                calls.into_iter().map(|c| (c.name, c.arguments)).collect();
            (content, whole)
        } else {
            let so_far = self.calls_so_far();
            let cut = so_far
                .get(calls.len())
                .map_or(self.text.len(), |call| self.sent + call.start);
            // Text before a call ends trimmed, as in the unstreamed content.
            let (content, _) = self.format.parse(&self.text[..cut], &self.functions);
            let content = content.trim_end().to_string();
            let mut whole: Vec<(String, String)> =
                calls.into_iter().map(|c| (c.name, c.arguments)).collect();
            let begun = so_far.into_iter().skip(whole.len());
            whole.extend(begun.map(|c| (c.name, c.arguments)));
            (content, whole)
        };
        let content = content.get(self.sent..).unwrap_or_default().to_string();
        let pieces = self.advance(whole);
        (content, pieces, cut_call)
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

    /// A delta of `pieces` of choice `index`'s calls.
    fn calls_delta(&self, index: u32, pieces: Vec<CallPiece>) -> Delta {
        let format = self.options.tools.as_ref().map(|t| t.0).unwrap_or_default();
        let calls = pieces
            .into_iter()
            .map(|piece| call_delta(format, &self.meta.id, index, piece))
            .collect();
        Delta {
            tool_calls: Some(calls),
            ..Delta::default()
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
            .resize_with(choices as usize, || ChoiceStream::new(options, true));
        if let Some(count) = options.reasoning_count() {
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
        let pieces = match self.choices.get_mut(index as usize) {
            Some(choice) => choice.push(text),
            None => Pieces {
                content: text,
                ..Pieces::default()
            },
        };
        let mut logprobs = match self.options.top {
            Some(n) if !logprobs.is_empty() => {
                Some(chat_logprobs(self.engine.tokenizer(), logprobs, n))
            }
            _ => None,
        };
        let mut out = Vec::new();
        let Pieces {
            thinking,
            content,
            calls,
        } = pieces;
        let text = !thinking.is_empty() || !content.is_empty();
        if text || (logprobs.is_some() && calls.is_empty()) {
            let delta = Delta {
                reasoning_content: (!thinking.is_empty()).then_some(thinking),
                content: (!content.is_empty() || logprobs.is_some()).then_some(content),
                ..Delta::default()
            };
            let mut choice = Self::choice(index, delta, None);
            choice.logprobs = logprobs.take();
            out.push(self.body(vec![choice], None));
        }
        if !calls.is_empty() {
            let mut choice = Self::choice(index, self.calls_delta(index, calls), None);
            choice.logprobs = logprobs;
            out.push(self.body(vec![choice], None));
        }
        out
    }

    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<Payload> {
        let mut reason = completion.finish_reason.as_str();
        let mut out = Vec::new();
        let options = &self.options;
        let held = self
            .choices
            .get_mut(index as usize)
            .map(|choice| std::mem::replace(choice, ChoiceStream::new(options, true)).finish());
        if let Some(end) = held {
            // A call a stop string cut short keeps the reason `stop`.
            if !end.calls.is_empty() && !end.cut_call && reason == "stop" {
                reason = "tool_calls";
            }
            let Pieces {
                thinking,
                content,
                calls,
            } = end.pieces;
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
            for piece in calls {
                let delta = self.calls_delta(index, vec![piece]);
                out.push(self.body(vec![Self::choice(index, delta, None)], None));
            }
        }
        let end = Self::choice(index, Delta::default(), Some(reason));
        out.push(self.body(vec![end], None));
        out
    }

    fn usage(&mut self, usage: Usage) -> Option<Payload> {
        self.options.include_usage.then(|| {
            let reasoning = self.options.reasoning_count().is_some().then(|| {
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

    fn call(name: &str, arguments: &str) -> ToolCall {
        ToolCall {
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    /// A thinking model's calls: the thinking split out first, the calls from the answer,
    /// streamed as a whole response has them.
    #[test]
    fn thinking_then_calls_stream_as_the_whole_response() {
        let text = "<think>\nweather needed \n</think>\n\nChecking. \n<tool_call>\n{\"name\": \"w\", \"arguments\": {}}\n</tool_call>";
        let options = ChatStreamOptions {
            include_usage: false,
            top: None,
            tools: Some((ToolFormat::Hermes, Arc::from([]))),
            starts_thinking: Some(Thinking {
                tags: crate::tokenizer::ThinkTags::XML,
                inside: false,
            }),
            separate_reasoning: true,
            harmony: false,
            harmony_reasoning: false,
        };
        let thinking = options.starts_thinking.unwrap();
        let (thinking, answer) = super::super::reasoning::split_reasoning(text, thinking);
        let (content, calls) = ToolFormat::Hermes.parse(&answer, &[]);
        for size in 1..=text.len() {
            let mut choice = ChoiceStream::new(&options, true);
            let mut got = Streamed::default();
            for piece in text.as_bytes().chunks(size) {
                got.add(choice.push(String::from_utf8(piece.to_vec()).unwrap()));
            }
            let end = choice.finish();
            got.add(end.pieces);
            assert_eq!(Some(got.thinking), thinking, "pieces of {size}");
            assert_eq!(got.content, content, "pieces of {size}");
            assert_eq!(got.calls, calls, "pieces of {size}");
            assert_eq!(end.calls, calls, "pieces of {size}");
        }
    }

    /// What a stream's pieces put together make, as a client puts them together.
    #[derive(Default)]
    struct Streamed {
        thinking: String,
        content: String,
        calls: Vec<ToolCall>,
        /// How many pieces each call came in.
        pieces: Vec<usize>,
        cut_call: bool,
    }

    impl Streamed {
        fn add(&mut self, pieces: Pieces) {
            self.thinking.push_str(&pieces.thinking);
            self.content.push_str(&pieces.content);
            for piece in pieces.calls {
                match piece.name {
                    Some(name) => {
                        assert_eq!(piece.index, self.calls.len(), "calls start in order");
                        self.calls.push(ToolCall {
                            name,
                            arguments: piece.arguments,
                        });
                        self.pieces.push(1);
                    }
                    None => {
                        self.calls[piece.index].arguments.push_str(&piece.arguments);
                        self.pieces[piece.index] += 1;
                    }
                }
            }
        }
    }

    /// `text` streamed in pieces of `size` bytes (whole characters) through a stream of
    /// `format`'s calls.
    fn stream(format: ToolFormat, tools: &[ToolFunction], text: &str, size: usize) -> Streamed {
        let mut stream = ToolStream::new((format, Arc::from(tools)));
        let mut got = Streamed::default();
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + size).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            stream.text.push_str(&text[at..end]);
            let content = stream.sendable();
            let calls = stream.pieces();
            got.add(Pieces {
                content,
                calls,
                ..Pieces::default()
            });
            at = end;
        }
        let (content, calls, cut_call) = stream.finish();
        got.add(Pieces {
            content,
            calls,
            ..Pieces::default()
        });
        assert_eq!(
            stream.calls, got.calls,
            "the calls whole are those the pieces make"
        );
        got.cut_call = cut_call;
        got
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
            "{\"name\": \"Alice\", \"age\": 3}".to_string(),
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
            "almost <tool_c".to_string(),
        ];
        let granite = [
            "<|tool_call|>[{\"name\":\"t\",\"arguments\":{}}]".to_string(),
            "<|tool_ca".to_string(),
            "<b>bold</b> ".to_string(),
        ];
        let mistral_args = [
            "Let me look. [TOOL_CALLS]t[ARGS]{\"a\": 1}[TOOL_CALLS]u[ARGS]{}".to_string(),
            "almost [TOOL_CA".to_string(),
            "so [TOOL_CALLS] not a call ".to_string(),
        ];
        let phi4_mini = [
            "functools[{\"name\":\"t\",\"arguments\":{}}]".to_string(),
            " functool".to_string(),
            "<|tool_call|>[{\"name\":\"t\",\"arguments\":{}}]<|/tool_call|>".to_string(),
            "function tools ".to_string(),
        ];
        let sectioned = [
            (ToolFormat::DeepSeekV31, "Look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>t<｜tool▁sep｜>{\"a\": 1}<｜tool▁call▁end｜><｜tool▁call▁begin｜>u<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>".to_string()),
            (ToolFormat::DeepSeekV31, "almost <｜tool▁calls".to_string()),
            (ToolFormat::DeepSeekV31, "so <｜tool▁calls▁begin｜> not a call ".to_string()),
            (ToolFormat::DeepSeekV3, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>t\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>".to_string()),
            (ToolFormat::GlmXml, "Look.\n<tool_call>t\n<arg_key>a</arg_key>\n<arg_value>x y</arg_value>\n</tool_call>\n<tool_call>u</tool_call>".to_string()),
            (ToolFormat::GlmXml, "almost <tool_ca".to_string()),
            (ToolFormat::MiniMaxXml, "Look.\n<minimax:tool_call>\n<invoke name=\"t\">\n<parameter name=\"a\">x y</parameter>\n</invoke>\n<invoke name=\"u\"></invoke>\n</minimax:tool_call>".to_string()),
            (ToolFormat::MiniMaxXml, "almost <minimax:tool_".to_string()),
            (ToolFormat::Gemma4, "Look.\n<|tool_call>call:t{a:<|\"|>x <tool_call|> y<|\"|>,n:[1,2.5]}<tool_call|><|tool_call>call:u{}<tool_call|>".to_string()),
            (ToolFormat::Gemma4, "almost <|tool_ca".to_string()),
            (ToolFormat::Gemma4, "so <|tool_call> not a call ".to_string()),
            (ToolFormat::KimiK2, "Hi <|tool_calls_section_begin|><|tool_call_begin|>functions.t:0<|tool_call_argument_begin|>{\"a\": [1]}<|tool_call_end|><|tool_calls_section_end|>".to_string()),
        ];
        let cases = hermes
            .iter()
            .map(|t| (ToolFormat::Hermes, t))
            .chain(sectioned.iter().map(|(f, t)| (*f, t)))
            .chain(phi4_mini.iter().map(|t| (ToolFormat::Phi4Mini, t)))
            .chain(mistral_args.iter().map(|t| (ToolFormat::MistralArgs, t)))
            .chain(qwen_xml.iter().map(|t| (ToolFormat::QwenXml, t)))
            .chain(granite.iter().map(|t| (ToolFormat::Granite, t)))
            .chain(llama3.iter().map(|t| (ToolFormat::Llama3Json, t)))
            .chain(mistral.iter().map(|t| (ToolFormat::Mistral, t)));
        for (format, text) in cases {
            let (content, calls) = format.parse(text, &[]);
            for size in 1..=text.len() {
                let got = stream(format, &[], text, size);
                assert_eq!(
                    got.content, content,
                    "{format:?} {text:?} in pieces of {size}"
                );
                assert_eq!(got.calls, calls, "{format:?} {text:?} in pieces of {size}");
                assert!(!got.cut_call, "{format:?} {text:?} in pieces of {size}");
            }
        }
    }

    /// A call goes out as it is written: its arguments in several pieces, the first before
    /// the call ends.
    #[test]
    fn arguments_stream_as_they_are_written() {
        let text = "Sure.\n<tool_call>\n{\"name\": \"note\", \"arguments\": {\"text\": \"a b c d\", \"n\": 2}}\n</tool_call>";
        let got = stream(ToolFormat::Hermes, &[], text, 4);
        assert_eq!(got.content, "Sure.");
        assert_eq!(got.calls, vec![call("note", r#"{"text":"a b c d","n":2}"#)]);
        assert!(got.pieces[0] > 5, "{:?}", got.pieces);
        // Held text that turns out to start no call is content at the end.
        let got = stream(ToolFormat::Hermes, &[], "x <tool_call> y", 3);
        assert_eq!(
            (got.content.as_str(), got.calls.len()),
            ("x <tool_call> y", 0)
        );
    }

    /// An output cut short in a call the stream began (the token limit) keeps that call,
    /// its arguments as far as they were written; the content is the text before it.
    #[test]
    fn a_call_cut_short_stays_a_call() {
        let tools = [ToolFunction {
            name: "t".into(),
            description: None,
            parameters: serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        }];
        let cases = [
            (
                ToolFormat::MistralArgs,
                "Look. [TOOL_CALLS]t[ARGS]{} [TOOL_CALLS]u[ARGS]{\"a\": \"x",
                "Look.",
                vec![call("t", "{}"), call("u", r#"{"a":"x"#)],
            ),
            (
                ToolFormat::QwenXml,
                "A\n<tool_call>\n<function=t>\n<parameter=a>\nx\n</parameter>\n<parameter=b>\ncut",
                "A",
                vec![call("t", r#"{"a":"x","b":"cut"#)],
            ),
            (
                ToolFormat::Hermes,
                "<tool_call>\n{\"name\": \"t\", \"arguments\": {}}\n</tool_call> B \n<tool_call>\n{\"name\": \"u\", \"arguments\": {\"a\": [1,",
                "B",
                vec![call("t", "{}"), call("u", r#"{"a":[1,"#)],
            ),
            (
                ToolFormat::Mistral,
                "[TOOL_CALLS] [{\"name\": \"t\", \"arguments\": {}}, {\"name\": \"u\", \"arguments\": {\"a",
                "",
                vec![call("t", "{}"), call("u", "{\"a")],
            ),
        ];
        for (format, text, content, calls) in cases {
            for size in 1..=text.len() {
                let got = stream(format, &tools, text, size);
                assert_eq!(got.content, content, "{format:?} in pieces of {size}");
                assert_eq!(got.calls, calls, "{format:?} in pieces of {size}");
                assert!(got.cut_call, "{format:?} in pieces of {size}");
            }
        }
    }
}
