//! Tool calls as GLM-4.5 and later write them: each call in `<tool_call>` tags (as Hermes),
//! the function's name, then one `<arg_key>` / `<arg_value>` pair per argument:
//!
//! ```text
//! <tool_call>get_weather
//! <arg_key>city</arg_key>
//! <arg_value>Paris</arg_value>
//! <arg_key>days</arg_key>
//! <arg_value>3</arg_value>
//! </tool_call>
//! ```
//!
//! (GLM-4.7 writes the same without the line breaks; the grammar lets the model write them
//! or not.) As in Qwen3-Coder's format a string's value is its raw text (it cannot hold
//! `</arg_value>`) and any other value JSON valid against its schema; the grammar writes
//! the arguments in the schema's order, the required ones always, and reading types each
//! value by its schema. A stream sends each argument once its value is whole.

use super::hermes::{parse_tagged, tagged_calls_padded, tagged_so_far, tools_block};
use super::partial_json::{value_reach, Reach};
use super::qwen_xml::{argument_texts, calls_rules, raw_rule, typed, ArgSyntax, ValueKind};
use super::so_far::CallSoFar;
use super::{ToolCall, ToolFunction};
use crate::grammar::structural_tag::lark_string as literal;
use serde_json::{Map, Value};

const KEY_OPEN: &str = "<arg_key>";
const KEY_CLOSE: &str = "</arg_key>";
const VALUE_OPEN: &str = "<arg_value>";
const VALUE_CLOSE: &str = "</arg_value>";
const CALL_CLOSE: &str = "</tool_call>";

/// Calls of one of `calls` in `<tool_call>` tags: alone (`auto` false), several when
/// `parallel`; under `auto` after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
) -> String {
    let mut rules = calls_rules(calls, &glm_syntax, "glm_call");
    // A raw value holds anything but `</arg_value>`, which ends it.
    rules.push_str(&raw_rule(
        "glm_raw",
        &literal(VALUE_CLOSE),
        "<\\/arg_value>",
    ));
    // GLM-4.5 and 4.6 write a line break before each call, GLM-4.7 none.
    let line = "\"\\n\"?";
    tagged_calls_padded(
        "glm_call",
        &rules,
        auto,
        parallel,
        answer,
        [line, "", line, line],
    )
}

/// GLM's layout of a call of `name`: line breaks after the name, the key and the value
/// optional (GLM-4.5 and 4.6 write them, GLM-4.7 not).
fn glm_syntax(name: &str) -> ArgSyntax {
    let line = "\"\\n\"?";
    ArgSyntax {
        prefix: "g",
        open: format!("{} {line}", literal(name)),
        close: String::new(),
        key_open: literal(KEY_OPEN),
        key_close: format!("{} {line} {}", literal(KEY_CLOSE), literal(VALUE_OPEN)),
        raw: format!("glm_raw {line}"),
        value_end: format!("{} {line}", literal(VALUE_CLOSE)),
        end_regex: "<\\/arg_value>",
        tag_regex: "<\\/arg_value>",
        after_bounded: " \"\\n\"?",
    }
}

/// The content and the calls of a model's output; each value typed by the schema of its
/// argument among `tools`.
pub(super) fn parse(text: &str, tools: &[ToolFunction]) -> (String, Vec<ToolCall>) {
    parse_tagged(text, &|body| read_call(body, tools))
}

/// The calls begun so far in an output being written: each once its function's name is
/// whole, its arguments growing by whole pairs.
pub(super) fn calls_so_far(text: &str, tools: &[ToolFunction]) -> Vec<CallSoFar> {
    tagged_so_far(text, &|body| {
        let (name, read, after) = read_call_so_far(body, tools, true)?;
        let mut arguments = Value::Object(read).to_string();
        match after {
            Ok(after) => Some((name.to_string(), arguments, Some(body.len() - after.len()))),
            Err(_) => {
                // More may come: the object stays open.
                arguments.pop();
                Some((name.to_string(), arguments, None))
            }
        }
    })
}

/// The call at the start of `body` (after its `<tool_call>`) and the text after it.
fn read_call<'a>(body: &'a str, tools: &[ToolFunction]) -> Option<(ToolCall, &'a str)> {
    let (name, arguments, after) = read_call_so_far(body, tools, false)?;
    let call = ToolCall {
        name: name.to_string(),
        arguments: Value::Object(arguments).to_string(),
    };
    Some((call, after.ok()?))
}

/// A call's function name, its arguments read so far, and the text after its last pair once
/// the call is whole (else where reading stopped).
type CallRead<'a> = (&'a str, Map<String, Value>, Result<&'a str, &'a str>);

/// The call at the start of `body` as far as it is written (`so_far`: the output goes on);
/// `None` until the name is whole or where it is no name. An argument written twice keeps
/// its first value (a stream has sent that one).
fn read_call_so_far<'a>(
    body: &'a str,
    tools: &[ToolFunction],
    so_far: bool,
) -> Option<CallRead<'a>> {
    let lead = body.trim_start();
    let end = lead.find(['<', '\n'])?;
    let name = lead[..end].trim_end();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let properties = tools
        .iter()
        .find(|t| t.name == name)
        .and_then(|t| t.parameters.get("properties"))
        .and_then(Value::as_object);
    let mut arguments = Map::new();
    let mut rest = &lead[end..];
    loop {
        let next = rest.trim_start();
        if !next.starts_with(KEY_OPEN) {
            // The call ends here, unless the output may still be writing a pair or its end.
            let undecided = !next.starts_with(CALL_CLOSE)
                && (KEY_OPEN.starts_with(next) || CALL_CLOSE.starts_with(next));
            if so_far && undecided {
                return Some((name, arguments, Err(next)));
            }
            return Some((name, arguments, Ok(rest)));
        }
        let Some((key, value, after)) = read_pair(next, properties, so_far) else {
            return Some((name, arguments, Err(next)));
        };
        arguments.entry(key).or_insert(value);
        rest = after;
    }
}

/// The pair at the start of `text`: its key, its value typed by `properties`, and the text
/// after it; `None` where it is not whole. `so_far`: the output goes on, so a JSON value
/// not yet whole is not read as text up to an `</arg_value>` inside one of its strings.
fn read_pair<'a>(
    text: &'a str,
    properties: Option<&Map<String, Value>>,
    so_far: bool,
) -> Option<(String, Value, &'a str)> {
    let (key, after) = text.strip_prefix(KEY_OPEN)?.split_once(KEY_CLOSE)?;
    let key = key.trim();
    let after = after.trim_start().strip_prefix(VALUE_OPEN)?;
    let schema = properties.and_then(|p| p.get(key));
    if schema.is_some_and(|s| ValueKind::of(s) == ValueKind::Json) {
        let mut values = serde_json::Deserializer::from_str(after).into_iter::<Value>();
        if let Some(Ok(value)) = values.next() {
            let tail = after[values.byte_offset()..].trim_start();
            if let Some(rest) = tail.strip_prefix(VALUE_CLOSE) {
                return Some((key.to_string(), value, rest));
            }
        }
        if so_far && value_reach(after, 0) == Reach::Cut {
            return None;
        }
    }
    let end = after.find(VALUE_CLOSE)?;
    let value = typed(&after[..end], schema);
    Some((key.to_string(), value, &after[end + VALUE_CLOSE.len()..]))
}

/// The tools and the call syntax, for a template without them (in GLM's words).
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut out = tools_block(tools);
    out.push_str(
        "\n</tools>\n\nFor each function call, output the function name and arguments within \
         the following XML format:\n<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n\
         <arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n\
         <arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>",
    );
    out
}

/// Earlier calls as the model writes them: strings raw, other values as JSON.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|call| {
            let mut out = format!("<tool_call>{}\n", call.name);
            for (key, value) in argument_texts(call) {
                out.push_str(&format!(
                    "{KEY_OPEN}{key}{KEY_CLOSE}\n{VALUE_OPEN}{value}{VALUE_CLOSE}\n"
                ));
            }
            out.push_str(CALL_CLOSE);
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
