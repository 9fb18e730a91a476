//! Tool calls as a section of marked calls, after text or alone: DeepSeek's and Kimi K2's,
//!
//! ```text
//! Sure.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
//! ```json
//! {"city": "Paris"}
//! ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>
//! ```
//!
//! (DeepSeek V3.1 and later; DeepSeek V3 and R1; Kimi K2, whose calls are numbered in the
//! output). The markers are control tokens in those vocabularies: the grammar names them by
//! id and the output text keeps them (`shown_control_tokens`); where the vocabulary has no
//! such tokens, they are text. Reading takes blank space around the markers and fences, and
//! a call without its `functions.` prefix, as other servers' parsers do.

use super::hermes::{ReadCall, ReadSoFar};
use super::so_far::{arguments_so_far, CallSoFar};
use super::{control_token, lark_marker, text_then_calls, ToolCall, ToolFunction};
use crate::grammar::structural_tag::lark_string;
use crate::grammar::{compact, strict};
use crate::tokenizer::Tokenizer;
use serde_json::Value;

/// One family's section: each call is `call_open`, `before_name`, the name (then `:N`, its
/// number, where `numbered`), `before_arguments`, a JSON object, `after_arguments` and
/// `call_close`; the calls are between `open` and `close`, `between` apart. (A format whose
/// calls are not JSON, MiniMax's, uses only `open`, `close` and the markers, with its own
/// grammar rules and readers: [`section_grammar`], [`parse_with`], [`calls_so_far_with`].)
pub(super) struct Section {
    pub open: &'static str,
    pub call_open: &'static str,
    pub before_name: &'static str,
    pub numbered: bool,
    pub before_arguments: &'static str,
    pub after_arguments: &'static str,
    pub call_close: &'static str,
    pub between: &'static str,
    pub close: &'static str,
    /// The markers (control tokens in the family's vocabulary).
    pub markers: &'static [&'static str],
}

const DS_OPEN: &str = "<｜tool▁calls▁begin｜>";
const DS_CALL_OPEN: &str = "<｜tool▁call▁begin｜>";
const DS_SEP: &str = "<｜tool▁sep｜>";
const DS_CALL_CLOSE: &str = "<｜tool▁call▁end｜>";
const DS_CLOSE: &str = "<｜tool▁calls▁end｜>";
const DS_MARKERS: &[&str] = &[DS_OPEN, DS_CALL_OPEN, DS_SEP, DS_CALL_CLOSE, DS_CLOSE];

/// DeepSeek V3.1 and later: the name, `<｜tool▁sep｜>` and the arguments.
pub(super) const DEEPSEEK: Section = Section {
    open: DS_OPEN,
    call_open: DS_CALL_OPEN,
    before_name: "",
    numbered: false,
    before_arguments: DS_SEP,
    after_arguments: "",
    call_close: DS_CALL_CLOSE,
    between: "",
    close: DS_CLOSE,
    markers: DS_MARKERS,
};

/// DeepSeek V3 and R1: the call's type, `<｜tool▁sep｜>`, the name and the arguments fenced
/// as JSON; calls a line apart.
pub(super) const DEEPSEEK_FENCED: Section = Section {
    before_name: "function<｜tool▁sep｜>",
    before_arguments: "\n```json\n",
    after_arguments: "\n```",
    between: "\n",
    ..DEEPSEEK
};

/// Kimi K2: `functions.NAME:N` (the call's number in the output), then the arguments.
pub(super) const KIMI_K2: Section = Section {
    open: "<|tool_calls_section_begin|>",
    call_open: "<|tool_call_begin|>",
    before_name: "functions.",
    numbered: true,
    before_arguments: "<|tool_call_argument_begin|>",
    after_arguments: "",
    call_close: "<|tool_call_end|>",
    between: "",
    close: "<|tool_calls_section_end|>",
    markers: &[
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
    ],
};

/// The markers of `s` that are control tokens in `vocab`: the output text must show them.
pub(super) fn control_tokens(s: &Section, vocab: &Tokenizer) -> Vec<u32> {
    s.markers
        .iter()
        .filter_map(|marker| control_token(marker, vocab))
        .collect()
}

/// `text` in a grammar: its markers as themselves (control tokens where `vocab` has them),
/// the text between them as strings.
fn lark_pieces(s: &Section, text: &str, vocab: &Tokenizer) -> String {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let next = s
            .markers
            .iter()
            .filter_map(|m| rest.find(m).map(|at| (at, *m)))
            .min();
        match next {
            Some((at, marker)) => {
                if at > 0 {
                    out.push(lark_string(&rest[..at]));
                }
                out.push(lark_marker(marker, vocab));
                rest = &rest[at + marker.len()..];
            }
            None => {
                out.push(lark_string(rest));
                rest = "";
            }
        }
    }
    out.join(" ")
}

/// Calls of one of `calls` in a section: alone (`auto` false), several when `parallel`;
/// under `auto` after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    s: &Section,
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> String {
    let piece = |text: &str| lark_pieces(s, text, vocab);
    let number = if s.numbered { " \":\" /[0-9]+/" } else { "" };
    let mut rules = String::new();
    let mut choices = Vec::with_capacity(calls.len());
    for (i, tool) in calls.iter().enumerate() {
        let schema = compact(&strict(&tool.parameters));
        let before = match s.before_name {
            "" => String::new(),
            text => format!("{} ", piece(text)),
        };
        let after = match s.after_arguments {
            "" => String::new(),
            text => format!(" {}", piece(text)),
        };
        rules.push_str(&format!(
            "fn_{i}: {before}{}{number} {} %json {schema}{after} {}\n",
            lark_string(&tool.name),
            piece(s.before_arguments),
            piece(s.call_close),
        ));
        choices.push(format!("fn_{i}"));
    }
    rules.push_str(&format!(
        "call: {} function\nfunction: {}\n",
        piece(s.call_open),
        choices.join(" | ")
    ));
    section_grammar(s, rules, auto, parallel, answer, vocab)
}

/// The grammar of a section of `s` whose calls are `rules`' `call`: one call (`auto`
/// false), several when `parallel`; under `auto` after free text, or `answer` (a JSON
/// schema) instead of the section.
pub(super) fn section_grammar(
    s: &Section,
    mut rules: String,
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> String {
    let piece = |text: &str| lark_pieces(s, text, vocab);
    let between = match s.between {
        "" => String::new(),
        text => format!("{}? ", piece(text)),
    };
    let more = if parallel {
        format!(" ({between}call)*")
    } else {
        String::new()
    };
    let (open, close) = (piece(s.open), piece(s.close));
    rules.push_str(&format!("rest: call{more} {close}\n"));
    if !auto {
        return format!("start: {open} rest\n{rules}");
    }
    text_then_calls(s.open, "rest", &rules, answer, vocab)
}

/// `text` after blank space and `marker` (blank space around it taken too), if it starts so;
/// a marker of blank space only is always there.
fn after_marker<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    match marker.trim() {
        "" => Some(text),
        core => text.trim_start().strip_prefix(core),
    }
}

/// The function's name in a call's head (what is between its opening and its arguments).
fn name_of<'a>(s: &Section, head: &'a str) -> Option<&'a str> {
    let head = head.trim();
    let head = head.strip_prefix(s.before_name.trim()).unwrap_or(head);
    let name = match s.numbered {
        true => {
            let (name, number) = head.rsplit_once(':')?;
            let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
            digits.then_some(name)?
        }
        false => head,
    };
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.';
    (!name.is_empty() && name.chars().all(name_char)).then_some(name)
}

/// A call's head and where its arguments start, once the head is whole.
fn head_and_arguments<'a>(s: &Section, body: &'a str) -> Option<(&'a str, &'a str)> {
    let marker = s.before_arguments.trim();
    let at = body.find(marker)?;
    Some((&body[..at], &body[at + marker.len()..]))
}

/// One call after its `call_open`: the name, the arguments (a JSON object) and the closing
/// marker; and the text after it.
fn read_call<'a>(s: &Section, body: &'a str) -> Option<(ToolCall, &'a str)> {
    let (head, arguments) = head_and_arguments(s, body)?;
    let name = name_of(s, head)?;
    let mut values = serde_json::Deserializer::from_str(arguments).into_iter::<Value>();
    let value = values.next()?.ok()?;
    let after = &arguments[values.byte_offset()..];
    let after = after_marker(after, s.after_arguments)?;
    let after = after_marker(after, s.call_close)?;
    value.is_object().then(|| {
        let call = ToolCall {
            name: name.to_string(),
            arguments: value.to_string(),
        };
        (call, after)
    })
}

/// The content and the calls: the text before the section, then its calls read in turn;
/// what follows the last one read and the section's end (an output cut short in a call)
/// joins the content on a line of its own. No call read: all of it is content.
pub(super) fn parse(text: &str, s: &Section) -> (String, Vec<ToolCall>) {
    parse_with(text, s, &|body| read_call(s, body))
}

/// [`parse`] for a section whose calls (each after its `call_open`) `read` reads.
pub(super) fn parse_with(text: &str, s: &Section, read: ReadCall<'_>) -> (String, Vec<ToolCall>) {
    let Some(first) = text.find(s.open) else {
        return (text.to_string(), Vec::new());
    };
    let mut calls = Vec::new();
    let mut rest = &text[first + s.open.len()..];
    while let Some((call, after)) = after_marker(rest, s.call_open).and_then(read) {
        calls.push(call);
        rest = after;
    }
    if calls.is_empty() {
        return (text.to_string(), calls);
    }
    let rest = after_marker(rest, s.close).unwrap_or(rest).trim();
    let mut content = text[..first].trim_end().to_string();
    if !rest.is_empty() {
        if !content.is_empty() {
            content.push('\n');
        }
        content.push_str(rest);
    }
    (content, calls)
}

/// The calls begun so far in an output being written: each once its name is whole (its
/// arguments' marker follows it).
pub(super) fn calls_so_far(text: &str, s: &Section) -> Vec<CallSoFar> {
    calls_so_far_with(text, s, &|body| json_call_so_far(s, body))
}

/// A call's name, its arguments so far and where it ends in `body` (after its `call_open`),
/// once its name is whole.
fn json_call_so_far(s: &Section, body: &str) -> Option<(String, String, Option<usize>)> {
    let (head, arguments) = head_and_arguments(s, body)?;
    let name = name_of(s, head)?;
    let (so_far, end) = arguments_so_far(arguments)?;
    let end = end
        .and_then(|end| after_marker(&arguments[end..], s.after_arguments))
        .and_then(|after| after_marker(after, s.call_close))
        .map(|after| body.len() - after.len());
    Some((name.to_string(), so_far, end))
}

/// [`calls_so_far`] for a section whose calls (each after its `call_open`) `read` reads.
pub(super) fn calls_so_far_with(text: &str, s: &Section, read: ReadSoFar<'_>) -> Vec<CallSoFar> {
    let mut calls = Vec::new();
    let Some(first) = text.find(s.open) else {
        return calls;
    };
    let mut at = first + s.open.len();
    loop {
        let rest = &text[at..];
        let Some(body) = after_marker(rest, s.call_open) else {
            return calls;
        };
        let start = if calls.is_empty() {
            first
        } else {
            text.len() - body.len() - s.call_open.trim().len()
        };
        let Some((name, arguments, end)) = read(body) else {
            return calls;
        };
        calls.push(CallSoFar {
            start,
            name,
            arguments,
        });
        match end {
            Some(end) => at = text.len() - body.len() + end,
            None => return calls,
        }
    }
}

/// Earlier calls as the model writes them.
pub(super) fn render_calls(calls: &[ToolCall], s: &Section) -> String {
    let rendered: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let number = if s.numbered {
                format!(":{i}")
            } else {
                String::new()
            };
            format!(
                "{}{}{}{number}{}{}{}{}",
                s.call_open,
                s.before_name,
                c.name,
                s.before_arguments,
                super::arguments_json(c),
                s.after_arguments,
                s.call_close
            )
        })
        .collect();
    format!("{}{}{}", s.open, rendered.join(s.between), s.close)
}

/// The tools and the call syntax, for a template without them (DeepSeek V3.1's own words
/// for its format).
pub(super) fn announcement(tools: &[ToolFunction], s: &Section) -> String {
    let mut text = String::from("## Tools\nYou have access to the following tools:\n");
    for tool in tools {
        text.push_str(&format!(
            "\n### {}\nDescription: {}\n\nParameters: {}\n",
            tool.name,
            tool.description.as_deref().unwrap_or(""),
            tool.parameters
        ));
    }
    let example = ToolCall {
        name: "tool_call_name".into(),
        arguments: "tool_call_arguments".into(),
    };
    let shape = render_calls(&[example], s).replace("null", "tool_call_arguments");
    text.push_str(&format!(
        "\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n{shape}\n\nWhere:\n- \
         `tool_call_name` must be an exact match to one of the available tools\n- \
         `tool_call_arguments` must be valid JSON that strictly follows the tool's \
         Parameters Schema\n- For multiple tool calls, write one call after another inside \
         the same block"
    ));
    text
}

#[cfg(test)]
mod tests;
