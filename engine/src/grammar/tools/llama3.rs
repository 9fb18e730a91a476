//! Tool calls as Llama 3.1 to 3.3 write them: the whole answer is one JSON object,
//!
//! ```text
//! {"name": "get_weather", "parameters": {"city": "Paris"}}
//! ```
//!
//! Their templates announce the tools themselves (in the first user turn) and render one
//! call per assistant turn (they refuse a turn of several), so the grammar writes one call.
//! Under `auto` the first character decides: `{` starts the call (or the JSON answer beside
//! a response format), anything else is a text answer. Reading is lenient as other servers'
//! Llama parsers are: `arguments` for `parameters` and several calls joined by `;` are read.
//! (`<|python_tag|>`, which Llama writes before calls to its built-in tools, is a control
//! token: the grammar never asks for it and output text leaves it out.)

use super::so_far::{json_call_so_far, CallSoFar};
use super::{call_from_json, call_schema, ToolCall, ToolFunction};
use crate::grammar::{compact, strict};
use serde_json::{json, Value};

/// One call of one of `calls`; under `auto` a text answer that does not start with `{`, or
/// `answer` (a JSON schema, its own grammar so that its `$defs` stay at its root) instead of
/// the call.
pub(super) fn grammar(calls: &[&ToolFunction], auto: bool, answer: Option<Value>) -> String {
    let schemas: Vec<Value> = calls.iter().map(|t| call_schema(t, "parameters")).collect();
    let json = compact(&strict(&json!({"anyOf": schemas})));
    let call = format!("call: %json {json}\n");
    if !auto {
        return format!("start: call\n{call}");
    }
    // Text may not start with `{` or blank space: the first character tells a call (or the
    // answer) from text.
    let text = "TEXT: /([^{\\s](.|\\n)*)?/\n";
    match answer {
        Some(answer) => format!(
            "start: call | answer | TEXT\n{call}answer: %json {}\n{text}",
            compact(&answer)
        ),
        None => format!("start: call | TEXT\n{call}{text}"),
    }
}

/// The calls when the output (trimmed) is calls separated by `;` and nothing else; else all
/// of it is content.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    let body = text.trim();
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

/// The calls begun so far in an output being written.
pub(super) fn calls_so_far(text: &str) -> Vec<CallSoFar> {
    let mut calls = Vec::new();
    let mut at = text.len() - text.trim_start().len();
    let keys = ["parameters", "arguments"];
    while let Some((name, arguments, end)) = json_call_so_far(&text[at..], &keys) {
        calls.push(CallSoFar {
            start: 0,
            name,
            arguments,
        });
        let Some(end) = end else {
            break;
        };
        let Some(next) = text[at + end..].trim_start().strip_prefix(';') else {
            break;
        };
        at = text.len() - next.len();
    }
    calls
}

/// The whole output is held while it may still be a call: until its first character that
/// is not blank space shows it is text (not `{`).
pub(super) fn held_from(text: &str) -> usize {
    let lead = text.trim_start();
    if lead.is_empty() || lead.starts_with('{') {
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
        // Other servers' leniencies: `arguments`, `;` between calls.
        assert_eq!(
            read(r#"{"name":"weather","arguments":{"city":"Paris"}}"#).1,
            vec![weather.clone()]
        );
        let two = r#" {"name":"weather","parameters":{"city":"Paris"}}; {"name":"time","parameters":{}} "#;
        assert_eq!(read(two).1, vec![weather.clone(), call("time", "{}")]);
        // Anything else is content, whole: text, JSON that is not a call, a call with
        // text after it, a call cut short.
        for text in [
            "It is sunny.",
            r#"{"city": "Paris"}"#,
            r#"<|python_tag|>{"name":"weather","parameters":{}}"#,
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
            ("<|python_tag|>{", 15),
            ("Sunny", 5),
            (" <b>", 4),
        ] {
            assert_eq!(held_from(text), held, "{text:?}");
        }
    }
}
