//! Outputs in OpenAI's harmony format (gpt-oss; see `tokenizer::harmony`), read as they
//! stream: each message's body goes to the thinking (`analysis`), to the answer (`final`,
//! and `commentary` to no one: a preamble the user sees), or, when the message has a
//! recipient (`to=functions.NAME`) and the request offered tools, to a call of that function
//! whose body is its JSON arguments. Headers and markers go nowhere. The whole output read at
//! once gives what its stream sent, put together.

use super::partial_json::compact_so_far;
use super::so_far::{CallPiece, CallSoFar, Pieces};
use super::{lark_marker, ToolCall, ToolFunction};
use crate::grammar::structural_tag::lark_string;
use crate::grammar::{compact, strict};
use crate::tokenizer::harmony::{header_channel, ANALYSIS, CALL, CHANNEL, CONSTRAIN, END};
use crate::tokenizer::harmony::{MARKERS, MAX_HEADER, MESSAGE, RETURN, START};
use crate::tokenizer::Tokenizer;
use serde_json::Value;

/// How much of a whole output [`read_whole`] gives the reader at a time.
const WHOLE_PIECE: usize = 4096;
/// The markers that end a body, consumed with it.
const ENDS: [&str; 3] = [END, CALL, RETURN];
/// The markers that start the next header, ending a body that was not ended.
const STARTS: [&str; 2] = [START, CHANNEL];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Body {
    Thinking,
    Content,
    Call,
}

/// One output's messages, read as the text comes.
#[derive(Debug)]
pub struct HarmonyReader {
    calls_allowed: bool,
    separate_thinking: bool,
    /// Text not yet let out: a header so far, or the tail of a body that may start a marker.
    pending: String,
    /// The body being read; `None` while reading a header.
    body: Option<Body>,
    /// The current call's body so far.
    call_text: String,
    /// The calls begun: their names and the arguments sent.
    calls: Vec<ToolCall>,
    /// Bytes of the output read before `pending`, and where each call's header starts.
    read: usize,
    call_starts: Vec<usize>,
}

impl HarmonyReader {
    /// A reader that makes calls of messages to a recipient when `calls_allowed` (the
    /// request offered tools; otherwise their bodies are text of the answer), and lets the
    /// thinking out apart (`separate_thinking`) or as answer text.
    pub fn new(calls_allowed: bool, separate_thinking: bool) -> Self {
        Self {
            calls_allowed,
            separate_thinking,
            pending: String::new(),
            body: None,
            call_text: String::new(),
            calls: Vec::new(),
            read: 0,
            call_starts: Vec::new(),
        }
    }

    /// What `text`, the output's next piece, lets out.
    pub fn push(&mut self, text: &str) -> Pieces {
        self.pending.push_str(text);
        let mut out = Pieces::default();
        self.read(&mut out, false);
        out
    }

    /// At the end of the output: what was held back, and the calls whole (as the pieces sent
    /// make them). A body cut short lets out what it has, a call its arguments as written; a
    /// header cut short goes nowhere.
    pub fn finish(mut self) -> (Pieces, Vec<ToolCall>) {
        let mut out = Pieces::default();
        self.read(&mut out, true);
        if self.body == Some(Body::Call) {
            self.end_call(&mut out);
        }
        (out, self.calls)
    }

    fn read(&mut self, out: &mut Pieces, at_end: bool) {
        loop {
            let Some(body) = self.body else {
                if self.pending.is_empty() {
                    return;
                }
                // A header starts with its marker: other text is the answer's, up to the
                // next marker (`marker_start` holds a marker's beginning back in the body).
                if !STARTS.iter().any(|m| self.pending.starts_with(m)) {
                    let cut_marker = STARTS.iter().any(|m| m.starts_with(self.pending.as_str()));
                    if cut_marker && !at_end {
                        return;
                    }
                    self.body = Some(Body::Content);
                    continue;
                }
                // Only the first bytes decide, so that any cut of the stream reads alike.
                let decided = MAX_HEADER + MESSAGE.len();
                match prefix(&self.pending, decided).find(MESSAGE) {
                    Some(at) if at <= MAX_HEADER => {
                        let header: String = self.take(at + MESSAGE.len());
                        self.body = Some(self.open(&header[..at], out));
                    }
                    _ if self.pending.len() >= decided => {
                        // Too long for a header: its text is the answer's, up to the next
                        // marker that may start one (past the one it starts with).
                        let lead = STARTS
                            .iter()
                            .find(|m| self.pending.starts_with(*m))
                            .map_or(0, |m| m.len());
                        let text = self.take(lead);
                        out.content.push_str(&text);
                        self.body = Some(Body::Content);
                    }
                    _ => return,
                }
                continue;
            };
            let first_marker = ENDS
                .iter()
                .chain(&STARTS)
                .filter_map(|m| self.pending.find(m).map(|at| (at, *m)))
                .min();
            let Some((at, marker)) = first_marker else {
                let keep = if at_end {
                    0
                } else {
                    marker_start(&self.pending)
                };
                let text = self.take(self.pending.len() - keep);
                self.emit(body, &text, out);
                return;
            };
            let text = self.take(at);
            self.emit(body, &text, out);
            if ENDS.contains(&marker) {
                self.take(marker.len());
            }
            if body == Body::Call {
                self.end_call(out);
            }
            self.body = None;
        }
    }

    /// The first `n` bytes of `pending`, read.
    fn take(&mut self, n: usize) -> String {
        self.read += n;
        self.pending.drain(..n).collect()
    }

    /// The body a message with `header` (read just now) has; a call's name goes out as it
    /// starts.
    fn open(&mut self, header: &str, out: &mut Pieces) -> Body {
        // Recipients other than the request's functions (gpt-oss's built-in `browser` and
        // `python` tools) are no calls of the client's.
        let function = recipient(header).and_then(|to| to.strip_prefix("functions."));
        match function.filter(|name| !name.is_empty()) {
            Some(name) if self.calls_allowed => {
                let start = self.read - header.len() - MESSAGE.len();
                self.call_starts.push(start);
                let name = name.to_string();
                out.calls.push(CallPiece {
                    index: self.calls.len(),
                    name: Some(name.clone()),
                    arguments: String::new(),
                });
                self.calls.push(ToolCall {
                    name,
                    arguments: String::new(),
                });
                self.call_text.clear();
                Body::Call
            }
            _ if header_channel(header) == Some(ANALYSIS) && self.separate_thinking => {
                Body::Thinking
            }
            _ => Body::Content,
        }
    }

    fn emit(&mut self, body: Body, text: &str, out: &mut Pieces) {
        match body {
            Body::Thinking => out.thinking.push_str(text),
            Body::Content => out.content.push_str(text),
            Body::Call => {
                self.call_text.push_str(text);
                let so_far = compact_so_far(&self.call_text);
                self.send_arguments(so_far, out);
            }
        }
    }

    /// The call's arguments whole: compact JSON where the body is JSON, else its text.
    fn end_call(&mut self, out: &mut Pieces) {
        let body = self.call_text.trim();
        let whole = serde_json::from_str::<Value>(body)
            .map_or_else(|_| body.to_string(), |v| v.to_string());
        self.send_arguments(whole, out);
        self.call_text.clear();
    }

    /// Sends what `arguments` add to those of the current call sent so far; arguments that
    /// do not continue them add nothing (the stream cannot take back what it sent).
    fn send_arguments(&mut self, arguments: String, out: &mut Pieces) {
        let index = self.calls.len().saturating_sub(1);
        let Some(call) = self.calls.last_mut() else {
            return;
        };
        let more = arguments.strip_prefix(call.arguments.as_str());
        if let Some(more) = more.filter(|m| !m.is_empty()) {
            out.calls.push(CallPiece {
                index,
                name: None,
                arguments: more.to_string(),
            });
            call.arguments = arguments;
        }
    }
}

/// The thinking, the answer and the calls of a whole output, read as [`HarmonyReader::new`]
/// says.
pub fn read_whole(
    text: &str,
    calls_allowed: bool,
    separate_thinking: bool,
) -> (String, String, Vec<ToolCall>) {
    let mut reader = HarmonyReader::new(calls_allowed, separate_thinking);
    // In pieces, as a stream comes: the reader then searches and drains short texts only.
    let mut pieces = Pieces::default();
    let mut rest = text;
    while !rest.is_empty() {
        let piece = prefix(rest, WHOLE_PIECE);
        let more = reader.push(piece);
        pieces.thinking.push_str(&more.thinking);
        pieces.content.push_str(&more.content);
        rest = &rest[piece.len()..];
    }
    let (rest, calls) = reader.finish();
    pieces.thinking.push_str(&rest.thinking);
    pieces.content.push_str(&rest.content);
    (pieces.thinking, pieces.content, calls)
}

/// The calls `text` (an output cut anywhere) has begun, each once its header is whole.
pub(super) fn calls_so_far(text: &str) -> Vec<CallSoFar> {
    let mut reader = HarmonyReader::new(true, true);
    reader.push(text);
    let starts = reader.call_starts.clone();
    reader
        .calls
        .into_iter()
        .zip(starts)
        .map(|(call, start)| CallSoFar {
            start,
            name: call.name,
            arguments: call.arguments,
        })
        .collect()
}

/// The grammar of an output that calls one of `calls` (several are not written: a harmony
/// turn ends at its call), after thinking or not; under `auto`, a `final` answer holding
/// `answer` (a JSON schema) instead, and without one no grammar. The markers are named by
/// their control tokens.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> Option<String> {
    if auto && answer.is_none() {
        // Free: the model writes its messages (preambles, thinking, calls) as trained.
        return None;
    }
    let [channel, message, constrain] =
        [CHANNEL, MESSAGE, CONSTRAIN].map(|m| lark_marker(m, vocab));
    let mut rules = thinking_rule(vocab);
    let mut choices = Vec::with_capacity(calls.len());
    for (i, tool) in calls.iter().enumerate() {
        let schema = compact(&strict(&tool.parameters));
        rules.push_str(&format!(
            "fn_{i}: {} \" \" {constrain} \"json\" {message} %json {schema}\n",
            lark_string(&tool.name)
        ));
        choices.push(format!("fn_{i}"));
    }
    rules.push_str(&format!(
        "call: {channel} \"commentary to=functions.\" function\nfunction: {}\n",
        choices.join(" | ")
    ));
    if !auto {
        return Some(format!("start: thinking? call\n{rules}"));
    }
    let schema = compact(&answer?);
    Some(format!(
        "start: thinking? (call | final)\nfinal: {channel} \"final\" {message} %json {schema}\n\
         {rules}"
    ))
}

/// The grammar of an answer that is JSON under `schema`, in a `final` message after
/// thinking or not (a response format for a harmony model).
pub fn answer_grammar(schema: &Value, vocab: &Tokenizer) -> String {
    let [channel, message] = [CHANNEL, MESSAGE].map(|m| lark_marker(m, vocab));
    format!(
        "start: thinking? final\nfinal: {channel} \"final\" {message} %json {}\n{}",
        compact(schema),
        thinking_rule(vocab)
    )
}

/// The thinking message, and the header of the message after it.
fn thinking_rule(vocab: &Tokenizer) -> String {
    let [channel, message, end, start] =
        [CHANNEL, MESSAGE, END, START].map(|m| lark_marker(m, vocab));
    format!(
        "thinking: {channel} \"{ANALYSIS}\" {message} THOUGHT {end} {start} \"assistant\"\n\
         THOUGHT: /(.|\\n)*/\n"
    )
}

/// The recipient a header names (`to=functions.get_weather`): in its role part or after
/// its channel.
fn recipient(header: &str) -> Option<&str> {
    let at = header.match_indices("to=").map(|(at, _)| at).find(|&at| {
        header[..at]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || c == '>')
    })?;
    let rest = &header[at + 3..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(rest.len());
    Some(&rest[..end]).filter(|to| !to.is_empty())
}

/// The longest start of `text` of at most `n` bytes (on a character boundary).
fn prefix(text: &str, n: usize) -> &str {
    let end = (0..=n.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    &text[..end]
}

/// Bytes at the end of `text` that may begin a marker.
fn marker_start(text: &str) -> usize {
    let longest = MARKERS.iter().map(|m| m.len()).max().unwrap_or(0);
    (1..longest.min(text.len() + 1))
        .rev()
        .filter(|&k| text.is_char_boundary(text.len() - k))
        .find(|&k| {
            MARKERS
                .iter()
                .any(|m| m.starts_with(&text[text.len() - k..]))
        })
        .unwrap_or(0)
}

/// Earlier calls as the model writes them, for a conversation's history.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| {
            format!(
                "{START}assistant to=functions.{}{CHANNEL}commentary json{MESSAGE}{}{CALL}",
                c.name, c.arguments
            )
        })
        .collect()
}

/// The tools in harmony's developer-message form, for a template that does not write them.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut text = String::from("# Tools\n\n## functions\n\nnamespace functions {\n\n");
    for tool in tools {
        if let Some(description) = &tool.description {
            text.push_str(&format!("// {description}\n"));
        }
        text.push_str(&format!(
            "type {} = (_: {}) => any;\n\n",
            tool.name,
            super::super::compact(&tool.parameters)
        ));
    }
    text.push_str("} // namespace functions");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const THOUGHT_THEN_CALL: &str = "<|channel|>analysis<|message|>Need the weather.<|end|>\
        <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json\
        <|message|>{\"city\": \"Paris\", \"days\": [1, 2]}";

    /// Reads `text` in pieces of `size` bytes (on character boundaries), putting the
    /// pieces together as a client would.
    fn streamed(text: &str, size: usize, calls_allowed: bool) -> (String, String, Vec<ToolCall>) {
        let mut reader = HarmonyReader::new(calls_allowed, true);
        let (mut thinking, mut content) = (String::new(), String::new());
        let mut calls: Vec<ToolCall> = Vec::new();
        let mut take = |p: Pieces| {
            thinking.push_str(&p.thinking);
            content.push_str(&p.content);
            for part in p.calls {
                if let Some(name) = part.name {
                    assert_eq!(part.index, calls.len());
                    calls.push(ToolCall {
                        name,
                        arguments: String::new(),
                    });
                }
                calls[part.index].arguments.push_str(&part.arguments);
            }
        };
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + size).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            take(reader.push(&text[at..end]));
            at = end;
        }
        let (rest, whole) = reader.finish();
        take(rest);
        assert_eq!(calls, whole, "the pieces make the calls");
        (thinking, content, calls)
    }

    #[test]
    fn thinking_and_a_call_are_read_apart_in_any_pieces() {
        let want = (
            "Need the weather.".to_string(),
            String::new(),
            vec![ToolCall {
                name: "get_weather".into(),
                arguments: json!({"city": "Paris", "days": [1, 2]}).to_string(),
            }],
        );
        assert_eq!(read_whole(THOUGHT_THEN_CALL, true, true), want);
        for size in [1, 2, 3, 7, 64] {
            assert_eq!(
                streamed(THOUGHT_THEN_CALL, size, true),
                want,
                "pieces of {size}"
            );
        }
    }

    #[test]
    fn the_final_channel_and_preambles_are_the_answer() {
        let text = "<|channel|>analysis<|message|>Think.<|end|><|start|>assistant\
            <|channel|>commentary<|message|>Checking. <|end|><|start|>assistant\
            <|channel|>final<|message|>It is <b>sunny</b> – 20°C.";
        for size in [1, 5, 1000] {
            let (thinking, content, calls) = streamed(text, size, true);
            assert_eq!(thinking, "Think.");
            assert_eq!(content, "Checking. It is <b>sunny</b> – 20°C.");
            assert!(calls.is_empty());
        }
    }

    #[test]
    fn the_recipient_may_come_in_the_role_and_calls_may_follow_each_other() {
        let text = "<|channel|>analysis<|message|>Two.<|end|>\
            <|start|>assistant to=functions.a<|channel|>commentary json<|message|>{}<|call|>\
            <|start|>assistant<|channel|>commentary to=functions.b <|constrain|>json\
            <|message|>{\"x\":1}<|call|>";
        let (_, content, calls) = read_whole(text, true, true);
        assert_eq!(content, "");
        let names: Vec<_> = calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(calls[1].arguments, "{\"x\":1}");
        assert_eq!(streamed(text, 3, true).2, calls);
    }

    #[test]
    fn cut_outputs_keep_what_they_wrote_and_unoffered_calls_are_text() {
        // Cut inside the call's arguments: the call keeps them as far as written.
        let cut = &THOUGHT_THEN_CALL[..THOUGHT_THEN_CALL.len() - 12];
        let (_, _, calls) = streamed(cut, 4, true);
        assert_eq!(calls[0].arguments, "{\"city\":\"Paris\",\"da");
        // Without tools offered, a call's body is answer text.
        let (thinking, content, calls) = read_whole(THOUGHT_THEN_CALL, false, true);
        assert_eq!(thinking, "Need the weather.");
        assert!(calls.is_empty());
        assert_eq!(content, "{\"city\": \"Paris\", \"days\": [1, 2]}");
        // Plain text without markers is the answer; a marker cut short is held, then let out.
        assert_eq!(
            streamed("Just text, no headers.", 4, true).1,
            "Just text, no headers."
        );
        let (_, content, _) = streamed("<|channel|>final<|message|>Hi <|en", 2, true);
        assert_eq!(content, "Hi <|en");
        // Thinking not separated joins the answer.
        let mut reader = HarmonyReader::new(false, false);
        let pieces =
            reader.push("<|channel|>analysis<|message|>A<|end|><|channel|>final<|message|>B");
        assert_eq!(
            (pieces.thinking.as_str(), pieces.content.as_str()),
            ("", "AB")
        );
    }

    #[test]
    fn what_no_header_can_be_is_content_read_alike_in_any_pieces() {
        // A header that never reaches `<|message|>` within its bound: its text is content,
        // however the stream is cut (this once looped forever).
        let filler = "word ".repeat(300);
        let long = format!(
            "<|channel|>final<|message|>Hi.<|end|><|start|>assistant{filler}<|channel|>x{filler}"
        );
        let whole = read_whole(&long, true, true);
        assert!(
            whole.1.starts_with("Hi.<|start|>assistantword word"),
            "{}",
            &whole.1[..40]
        );
        assert!(whole.1.ends_with("word "));
        for size in [1, 7, 100, 5000] {
            assert_eq!(streamed(&long, size, true), whole, "pieces of {size}");
        }
        // A `<|message|>` past the bound ends no header.
        let late = format!("<|channel|>final{filler}<|message|>tail");
        assert_eq!(read_whole(&late, true, true).1, late);
        // Text before a header is content, and so is a marker's start left at the end.
        assert_eq!(
            streamed("Sure!<|channel|>final<|message|>Hi", 2, true).1,
            "Sure!Hi"
        );
        assert_eq!(read_whole("Hi<|sta", true, true).1, "Hi<|sta");
        // A header cut short goes nowhere.
        assert_eq!(
            streamed("Hi<|end|><|start|>assistant<|chan", 3, true).1,
            "Hi"
        );
        // Plain text holding `<|` is content; a multibyte start does not split.
        let plain = "Use the <|x|> tag, café.";
        assert_eq!(streamed(plain, 3, true).1, plain);
        let wide = format!("é{}", "ü".repeat(700));
        assert_eq!(streamed(&wide, 5, true).1, wide);
        // Built-in tools' recipients make no calls of the client's functions.
        let builtin = "<|channel|>analysis to=python code<|message|>print(1)<|call|>";
        let (thinking, _, calls) = read_whole(builtin, true, true);
        assert!(calls.is_empty());
        assert_eq!(thinking, "print(1)");
    }

    #[test]
    fn recipients_and_marker_starts_are_found() {
        assert_eq!(recipient("assistant to=functions.f"), Some("functions.f"));
        assert_eq!(
            recipient("<|channel|>commentary to=functions.g <|constrain|>json"),
            Some("functions.g")
        );
        assert_eq!(recipient("<|channel|>commentary"), None);
        assert_eq!(recipient("<|channel|>final auto=x"), None);
        assert_eq!(marker_start("abc<|ca"), 4);
        assert_eq!(marker_start("abc<"), 1);
        assert_eq!(marker_start("abc|>"), 0);
        assert_eq!(
            render_calls(&[ToolCall {
                name: "f".into(),
                arguments: "{}".into()
            }]),
            "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
        );
    }
}
