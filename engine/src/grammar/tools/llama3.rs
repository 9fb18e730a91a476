//! Tool calls as Llama 3.1 to 3.3 write them: the whole answer is one JSON object,
//!
//! ```text
//! {"name": "get_weather", "parameters": {"city": "Paris"}}
//! ```
//!
//! Their templates announce the tools themselves (in the first user turn) and render one
//! call per assistant turn (they refuse a turn of several), so the grammar writes one call.
//! Under `auto` the first character decides: `{` starts the call, anything else is a text
//! answer. Reading is lenient as other servers' Llama parsers are: a leading
//! `<|python_tag|>`, `arguments` for `parameters` and several calls joined by `;` are read.

use super::{call_from_json, call_schema, ToolCall, ToolFunction};
use crate::grammar::{compact, strict};
use serde_json::{json, Value};

/// The token Llama 3 writes before a call to a built-in tool.
const PYTHON_TAG: &str = "<|python_tag|>";

/// One call of one of `calls`; under `auto` a text answer that does not start with `{`, or
/// `answer` (a JSON schema) instead of the call.
pub(super) fn grammar(calls: &[&ToolFunction], auto: bool, answer: Option<Value>) -> String {
    let mut schemas: Vec<Value> = calls.iter().map(|t| call_schema(t, "parameters")).collect();
    schemas.extend(answer.filter(|_| auto));
    let json = compact(&strict(&json!({"anyOf": schemas})));
    if auto {
        // Text may not start with `{` or blank space: the first character tells a call
        // (or the answer) from text.
        format!("start: call | TEXT\ncall: %json {json}\nTEXT: /([^{{\\s](.|\\n)*)?/\n")
    } else {
        format!("start: call\ncall: %json {json}\n")
    }
}

/// The calls when the output (trimmed, less a leading `<|python_tag|>`) is calls separated
/// by `;` and nothing else; else all of it is content.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    let trimmed = text.trim();
    let body = trimmed
        .strip_prefix(PYTHON_TAG)
        .unwrap_or(trimmed)
        .trim_start();
    if !body.starts_with('{') {
        return (text.to_string(), Vec::new());
    }
    let mut calls = Vec::new();
    let mut rest = body;
    loop {
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        let call = match values.next() {
            Some(Ok(value)) => call_from_json(&value, &["parameters", "arguments"]),
            _ => None,
        };
        let Some(call) = call else {
            return (text.to_string(), Vec::new());
        };
        calls.push(call);
        let after = rest[values.byte_offset()..].trim_start();
        match after.strip_prefix(';') {
            Some(next) if !next.trim().is_empty() => rest = next.trim_start(),
            Some(_) => break,
            None if after.is_empty() => break,
            None => return (text.to_string(), Vec::new()),
        }
    }
    (String::new(), calls)
}

/// The whole output is held while it may still be a call: until its first character that
/// is not blank space shows it is text (not `{`).
pub(super) fn held_from(text: &str) -> usize {
    let lead = text.trim_start();
    let may_call = lead.is_empty()
        || lead.starts_with('{')
        || lead.starts_with(PYTHON_TAG)
        || PYTHON_TAG.starts_with(lead);
    if may_call {
        0
    } else {
        text.len()
    }
}

/// The Llama 3.1 template's own words for custom tools, for a template that lacks them.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut out = String::from(
        "Given the following functions, please respond with a JSON for a function call with \
         its proper arguments that best answers the given prompt.\n\nRespond in the format \
         {\"name\": function name, \"parameters\": dictionary of argument name and its \
         value}. Do not use variables.",
    );
    for tool in tools {
        out.push_str("\n\n");
        out.push_str(&super::tool_json(tool).to_string());
    }
    out
}

/// Earlier calls as the model writes them, separated by `; `.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| json!({"name": c.name, "parameters": super::arguments_json(c)}).to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::*;

    #[test]
    fn a_json_answer_is_a_call_and_text_is_content() {
        let weather = call("weather", r#"{"city":"Paris"}"#);
        let read = |text: &str| parse(text);
        assert_eq!(
            read(r#"{"name": "weather", "parameters": {"city": "Paris"}}"#),
            (String::new(), vec![weather.clone()])
        );
        // Other servers' leniencies: the python tag, `arguments`, `;` between calls.
        assert_eq!(
            read(r#"<|python_tag|>{"name":"weather","arguments":{"city":"Paris"}}"#).1,
            vec![weather.clone()]
        );
        let two = r#" {"name":"weather","parameters":{"city":"Paris"}}; {"name":"time","parameters":{}} "#;
        assert_eq!(read(two).1, vec![weather.clone(), call("time", "{}")]);
        // Anything else is content, whole: text, JSON that is not a call, a call with
        // text after it, a call cut short.
        for text in [
            "It is sunny.",
            r#"{"city": "Paris"}"#,
            r#"{"name":"weather","parameters":{}} and more"#,
            r#"{"name":"weather","parameters":{"#,
            r#"{"name":"weather","parameters":"Paris"}"#,
        ] {
            assert_eq!(read(text), (text.to_string(), Vec::new()), "{text}");
        }
        // What is rendered back reads as the same calls.
        let calls = vec![weather, call("time", "{}")];
        assert_eq!(read(&render_calls(&calls)).1, calls);
    }

    #[test]
    fn output_is_held_until_it_cannot_be_a_call() {
        for (text, held) in [
            ("", 0),
            ("  \n", 0),
            ("{\"na", 0),
            (" {", 0),
            ("<|pyth", 0),
            ("<|python_tag|>{", 0),
            ("Sunny", 5),
            (" <b>", 4),
        ] {
            assert_eq!(held_from(text), held, "{text:?}");
        }
    }
}
