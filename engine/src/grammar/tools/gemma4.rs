//! Tool calls as Gemma 4 writes them: each call between `<|tool_call>` and `<tool_call|>`,
//! `call:` and the function's name, then its arguments in Gemma 4's own syntax (bare keys,
//! strings between `<|"|>` marks: [`value`]), after text or alone:
//!
//! ```text
//! <|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>
//! ```
//!
//! The model then writes `<|tool_response>`, which ends its turn (the results come back in
//! it). The grammar holds the arguments to their schema ([`schema`]); reading turns them into
//! JSON, and a stream sends them as they are written. The marks are user-defined tokens in
//! Gemma 4's vocabulary, text in its output; where a vocabulary makes them control tokens,
//! the grammar names them by id and the output keeps them.

mod schema;
mod value;

use super::hermes::{parse_in_tags, so_far_in_tags, tools_block, Tags};
use super::so_far::CallSoFar;
use super::{control_token, lark_marker, text_then_calls, ToolCall, ToolFunction};
use crate::grammar::structural_tag::lark_string as literal;
use crate::tokenizer::Tokenizer;
use serde_json::Value;
use value::Stop;

/// What opens a call (and triggers the call grammar under `auto`).
pub(super) const CALL_OPEN: &str = "<|tool_call>";
const CALL_CLOSE: &str = "<tool_call|>";
/// What comes between the opening mark and the function's name.
const CALL_HEAD: &str = "call:";
const TAGS: Tags = Tags {
    open: CALL_OPEN,
    close: CALL_CLOSE,
};

/// The marks of the format (control tokens in some vocabularies).
const MARKS: [&str; 3] = [CALL_OPEN, CALL_CLOSE, value::QUOTE];

/// The marks that are control tokens in `vocab`: the output text must show them.
pub(super) fn control_tokens(vocab: &Tokenizer) -> Vec<u32> {
    MARKS
        .iter()
        .filter_map(|mark| control_token(mark, vocab))
        .collect()
}

/// Calls of one of `calls`: alone (`auto` false), several when `parallel`; under `auto`
/// after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> String {
    let (open, close) = (
        lark_marker(CALL_OPEN, vocab),
        lark_marker(CALL_CLOSE, vocab),
    );
    let quote = lark_marker(value::QUOTE, vocab);
    let mut arguments = schema::Rules::new(&quote);
    let mut functions = Vec::with_capacity(calls.len());
    for tool in calls {
        let body = arguments.arguments(&tool.parameters);
        functions.push(format!("{} {body}", literal(&tool.name)));
    }
    let mut rules = format!(
        "body: {} function {close}\nfunction: {}\ncall: {open} body\n{}{}",
        literal(CALL_HEAD),
        functions.join(" | "),
        arguments.text,
        schema::shared_rules(&quote, control_token(value::QUOTE, vocab).is_some()),
    );
    let more = if parallel { " call*" } else { "" };
    if !auto {
        return format!("start: call{more}\n{rules}");
    }
    rules.push_str(&format!("after_open: body{more}\n"));
    text_then_calls(CALL_OPEN, "after_open", &rules, answer, vocab)
}

/// The content (the text around the calls) and the calls of a model's output.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    parse_in_tags(text, &TAGS, &read_call)
}

/// The call at the start of `body` (after its `<|tool_call>`) and the text after it.
fn read_call(body: &str) -> Option<(ToolCall, &str)> {
    let (name, arguments) = name_and_arguments(body)?;
    let (json, after) = value::read_arguments(arguments);
    let after = after.ok()?;
    // The JSON a stream sent is the call's, as long as it is JSON.
    serde_json::from_str::<Value>(&json).ok()?;
    let call = ToolCall {
        name: name.to_string(),
        arguments: json,
    };
    Some((call, after))
}

/// The calls begun so far in an output being written: each once its function's name is
/// whole, its arguments as far as they are written.
pub(super) fn calls_so_far(text: &str) -> Vec<CallSoFar> {
    so_far_in_tags(text, &TAGS, &|body| {
        let (name, arguments) = name_and_arguments(body)?;
        let (json, after) = value::read_arguments(arguments);
        let end = match after {
            Ok(after) => Some(body.len() - after.len()),
            Err(Stop::Cut) => None,
            Err(Stop::Bad) => return None,
        };
        Some((name.to_string(), json, end))
    })
}

/// A call's function name and the text from its arguments' `{` on, once the name is whole.
fn name_and_arguments(body: &str) -> Option<(&str, &str)> {
    let head = body.trim_start().strip_prefix(CALL_HEAD)?;
    let brace = head.find('{')?;
    let name = head[..brace].trim();
    let name_char = |c: char| c.is_alphanumeric() || "_-.:".contains(c);
    (!name.is_empty() && name.chars().all(name_char)).then_some((name, &head[brace..]))
}

/// Up to the first `<|tool_call>` after `sent`, less a tail that could still become one.
pub(super) fn held_from(text: &str, sent: usize) -> usize {
    super::held_before(text, sent, CALL_OPEN)
}

/// The tools and the call syntax, for a template without them.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut out = tools_block(tools);
    out.push_str(
        "\n</tools>\n\nFor each function call, write <|tool_call>call:{function-name}\
         {{arg-key-1}:{arg-value-1},{arg-key-2}:{arg-value-2},...}<tool_call|>, keys bare, \
         each string between <|\"|> marks, numbers, true, false, null, [lists] and {objects} \
         as they are.",
    );
    out
}

/// Earlier calls as the model writes them.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|call| {
            let mut out = format!("{CALL_OPEN}{CALL_HEAD}{}", call.name);
            match super::arguments_json(call) {
                arguments @ Value::Object(_) => value::write(&arguments, &mut out),
                _ => out.push_str("{}"),
            }
            out.push_str(CALL_CLOSE);
            out
        })
        .collect()
}

#[cfg(test)]
mod tests;
