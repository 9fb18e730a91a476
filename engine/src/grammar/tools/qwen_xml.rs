//! Tool calls as Qwen3-Coder writes them: each call in `<tool_call>` tags (as Hermes), its
//! body XML-like, one parameter per block, its value as text:
//!
//! ```text
//! <tool_call>
//! <function=get_weather>
//! <parameter=city>
//! Paris
//! </parameter>
//! <parameter=days>
//! 3
//! </parameter>
//! </function>
//! </tool_call>
//! ```
//!
//! A string parameter's value is its raw text (it may span lines; it cannot hold
//! `</parameter>`; its `enum`, `const` and length bounds hold); any other value is JSON valid against the parameter's schema. The
//! grammar writes the parameters in the schema's order, the required ones always; reading
//! types each value by its schema as other servers' Qwen3-Coder parsers do (one newline
//! trimmed on each side, JSON where the schema is not a string's).

use super::hermes::{parse_tagged, tagged_calls, tagged_so_far};
use super::partial_json::{value_reach, Reach};
use super::so_far::CallSoFar;
use super::{ToolCall, ToolFunction};
use crate::grammar::structural_tag::lark_string as literal;
use crate::grammar::{compact, strict};
use serde_json::{Map, Value};

const FUNCTION_OPEN: &str = "<function=";
const FUNCTION_CLOSE: &str = "</function>";
const PARAMETER_OPEN: &str = "<parameter=";
pub(super) const PARAMETER_CLOSE: &str = "</parameter>";

/// The tags of a call's function and parameters, where formats with XML-like parameters
/// differ (Qwen3-Coder's `<function=NAME>`, MiniMax's `<invoke name="NAME">`); every one
/// ends a value at `</parameter>`.
pub(super) struct Markup {
    /// Before the function's name, and after it.
    pub function_open: &'static str,
    pub name_close: &'static str,
    pub function_close: &'static str,
    /// Before a parameter's name, and after it.
    pub parameter_open: &'static str,
    pub key_close: &'static str,
}

/// Qwen3-Coder's tags.
const QWEN: Markup = Markup {
    function_open: FUNCTION_OPEN,
    name_close: ">",
    function_close: FUNCTION_CLOSE,
    parameter_open: PARAMETER_OPEN,
    key_close: ">",
};

/// Calls of one of `calls` in `<tool_call>` tags: alone (`auto` false), several when
/// `parallel`; under `auto` after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
) -> String {
    let mut rules = calls_rules(calls, &qwen_syntax, "xml_call");
    // A raw value holds anything but `</parameter>` (lines and other tags too), which ends
    // it (as every reader of the format ends it at the first one).
    rules.push_str(&raw_rule("raw_value", &value_end(), "<\\/parameter>"));
    tagged_calls("xml_call", &rules, auto, parallel, answer)
}

/// How a format with XML-like arguments lays out one call, for the grammar Qwen3-Coder's,
/// GLM's and MiniMax's formats share (each part a grammar expression unless said otherwise).
pub(super) struct ArgSyntax {
    /// Prefix of the call's rules (`{prefix}{index}`), one per format in a grammar.
    pub prefix: &'static str,
    /// The function's name with its markup, before the arguments.
    pub open: String,
    /// After the arguments.
    pub close: String,
    /// Before and after an argument's key, up to its value.
    pub key_open: String,
    pub key_close: String,
    /// A string's raw value with its end.
    pub raw: String,
    /// What follows a listed string or a JSON value.
    pub value_end: String,
    /// Regexes: a value's end (its tag and the blank space the format keeps), and its tag.
    pub end_regex: &'static str,
    pub tag_regex: &'static str,
    /// What follows a length-bounded string's lexeme (which holds its end).
    pub after_bounded: &'static str,
}

/// The rules of a call of each of `calls`, laid out as `syntax` gives each function's name,
/// and the rule `{choice}`: one of them.
pub(super) fn calls_rules(
    calls: &[&ToolFunction],
    syntax: &dyn Fn(&str) -> ArgSyntax,
    choice: &str,
) -> String {
    let mut rules = String::new();
    let mut functions = Vec::new();
    for (index, tool) in calls.iter().enumerate() {
        let syntax = syntax(&tool.name);
        functions.push(format!("{}{index}", syntax.prefix));
        rules.push_str(&call_rules(index, tool, &syntax));
    }
    rules.push_str(&format!("{choice}: {}\n", functions.join(" | ")));
    rules
}

/// The lazy rule `name` of a raw value: any text holding no `tag` (a regex), then `end` (a
/// grammar expression: the value's end, which holds the tag).
pub(super) fn raw_rule(name: &str, end: &str, tag: &str) -> String {
    let text = name.to_uppercase();
    format!("{name}[lazy]: {text} {end}\n{text}: /(.|\\n)*/ & ~/(.|\\n)*{tag}(.|\\n)*/\n")
}

/// A call's arguments as the XML-like formats write them: each key with its value's text,
/// a string's raw, any other value's JSON.
pub(super) fn argument_texts(call: &ToolCall) -> Vec<(String, String)> {
    let Value::Object(arguments) = super::arguments_json(call) else {
        return Vec::new();
    };
    arguments
        .into_iter()
        .map(|(key, value)| match value {
            Value::String(text) => (key, text),
            other => (key, other.to_string()),
        })
        .collect()
}

/// The rule `{prefix}{index}` of one call of `tool` laid out as `syntax` says, and the rules
/// of its arguments: in the schema's order, the required ones always.
pub(super) fn call_rules(index: usize, tool: &ToolFunction, syntax: &ArgSyntax) -> String {
    let ArgSyntax {
        prefix: p,
        open,
        close,
        key_open,
        key_close,
        ..
    } = syntax;
    let schema = strict(&tool.parameters);
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
            return format!("{p}{index}: {open} {close}\n");
        }
        // No parameters named (a combination of schemas, a `$ref`, an object open to any
        // keys): any names, raw values.
        let key = format!("{}KEY{index}", p.to_uppercase());
        return format!(
            "{p}{index}: {open} {p}{index}_any* {close}\n\
             {p}{index}_any: {key_open} {key} {key_close} {}\n\
             {key}: /[A-Za-z0-9_.\\-]+/\n",
            syntax.raw
        );
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let definitions = definitions(&schema);
    let mut sequence = Vec::new();
    let mut rules = String::new();
    for (slot, (key, property)) in properties.iter().enumerate() {
        let rule = format!("{p}{index}_p{slot}");
        let value_end = &syntax.value_end;
        let value = match ValueKind::of(property) {
            ValueKind::Text(Some(choices)) => {
                let choices: Vec<String> = choices.iter().map(|c| literal(c)).collect();
                format!("({}) {value_end}", choices.join(" | "))
            }
            ValueKind::Text(None) => match length_bounds(property) {
                None => syntax.raw.clone(),
                // `minLength` / `maxLength` (in characters) bound its own raw text: one
                // lexeme up to and with its end, the only end tag it holds.
                Some(bounds) => {
                    let text = format!("{}VALUE{index}_{slot}", p.to_uppercase());
                    let (end, tag) = (syntax.end_regex, syntax.tag_regex);
                    rules.push_str(&format!(
                        "{text}: /(.|\\n){bounds}{end}/ & ~/(.|\\n)*{tag}(.|\\n)*{tag}(.|\\n)*/\n"
                    ));
                    format!("{text}{}", syntax.after_bounded)
                }
            },
            ValueKind::Json => {
                let mut property = property.clone();
                if let Some(map) = property.as_object_mut() {
                    for (key, defs) in &definitions {
                        map.entry(key.to_string())
                            .or_insert_with(|| (*defs).clone());
                    }
                }
                format!("%json {} {value_end}", compact(&property))
            }
        };
        let head = format!("{key_open} {} {key_close}", literal(key));
        rules.push_str(&format!("{rule}: {head} {value}\n"));
        let optional = !required.contains(&key.as_str());
        sequence.push(if optional { format!("{rule}?") } else { rule });
    }
    format!("{p}{index}: {open} {} {close}\n{rules}", sequence.join(" "))
}

/// Qwen3-Coder's layout of a call of `name`.
fn qwen_syntax(name: &str) -> ArgSyntax {
    ArgSyntax {
        prefix: "f",
        open: literal(&format!("{FUNCTION_OPEN}{name}>\n")),
        close: literal(FUNCTION_CLOSE),
        key_open: literal(PARAMETER_OPEN),
        key_close: literal(">\n"),
        raw: "raw_value".into(),
        value_end: value_end(),
        end_regex: "\\n<\\/parameter>\\n",
        tag_regex: "<\\/parameter>",
        after_bounded: "",
    }
}

/// The length bounds of a string's schema as a regex repetition (`{min,max}`), where it
/// has any the grammar keeps: up to 1,024 characters (each one a lexer state), not for a
/// nullable string (whose `null` they would forbid), not where none can hold (min > max).
fn length_bounds(schema: &Value) -> Option<String> {
    const MOST: u64 = 1024;
    if schema.get("type").and_then(Value::as_array).is_some() {
        return None;
    }
    let bound = |key| {
        schema
            .get(key)
            .and_then(Value::as_u64)
            .filter(|&n| n <= MOST)
    };
    match (bound("minLength").filter(|&n| n > 0), bound("maxLength")) {
        (None, None) => None,
        (Some(min), Some(max)) if min > max => None,
        (min, Some(max)) => Some(format!("{{{},{max}}}", min.unwrap_or(0))),
        (Some(min), None) => Some(format!("{{{min},}}")),
    }
}

/// The root's definitions (`$defs`, `definitions`), which a parameter's schema may refer
/// to: its own grammar needs them beside it. (A reference to another part of the root,
/// `#/properties/…`, does not resolve there.)
fn definitions(schema: &Value) -> Vec<(&'static str, &Value)> {
    ["$defs", "definitions"]
        .into_iter()
        .filter_map(|key| schema.get(key).map(|defs| (key, defs)))
        .collect()
}

/// What ends every value: `</parameter>` on a line of its own, then a new line.
fn value_end() -> String {
    literal(&format!("\n{PARAMETER_CLOSE}\n"))
}

/// How a parameter's value is written.
#[derive(Debug, PartialEq)]
pub(super) enum ValueKind {
    /// Raw text: a string's schema (or one with no type, as other servers read it), one of
    /// the given strings where it lists them.
    Text(Option<Vec<String>>),
    /// JSON valid against the schema.
    Json,
}

impl ValueKind {
    pub(super) fn of(schema: &Value) -> Self {
        let strings = |values: &Value| -> Option<Vec<String>> {
            values
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect()
        };
        if let Some(value) = schema.get("const") {
            return match value.as_str() {
                Some(text) => Self::Text(Some(vec![text.to_string()])),
                None => Self::Json,
            };
        }
        let choices = schema.get("enum").map(strings);
        let texts = match schema.get("type") {
            Some(Value::String(kind)) => kind == "string",
            Some(Value::Array(kinds)) => kinds.iter().all(|k| k == "string" || k == "null"),
            Some(_) => false,
            None => {
                let structured = ["anyOf", "oneOf", "allOf", "$ref", "properties", "items"];
                !structured.iter().any(|k| schema.get(k).is_some())
            }
        };
        match (texts, choices) {
            (true, None) => Self::Text(None),
            (true, Some(Some(choices))) if !choices.is_empty() => Self::Text(Some(choices)),
            _ => Self::Json,
        }
    }
}

/// The content and the calls of a model's output; each value typed by the schema of its
/// parameter among `tools`.
pub(super) fn parse(text: &str, tools: &[ToolFunction]) -> (String, Vec<ToolCall>) {
    parse_tagged(text, &|body| read_call(body, tools, &QWEN))
}

/// The calls begun so far in an output being written: each once its function's name is
/// whole, its arguments growing by whole parameters, and a string's text as it comes.
pub(super) fn calls_so_far(text: &str, tools: &[ToolFunction]) -> Vec<CallSoFar> {
    tagged_so_far(text, &|body| call_so_far(body, tools, &QWEN))
}

/// The call at the start of `body` as far as it is written in `markup`: its name once
/// whole, its arguments so far (whole parameters, and a string's text as it comes), and
/// where it ends in `body`, if it does.
pub(super) fn call_so_far(
    body: &str,
    tools: &[ToolFunction],
    markup: &Markup,
) -> Option<(String, String, Option<usize>)> {
    let (name, read, after) = read_call_so_far(body, tools, true, markup)?;
    let stopped = match after {
        Ok(after) => {
            let end = body.len() - after.len();
            return Some((name.to_string(), Value::Object(read).to_string(), Some(end)));
        }
        Err(stopped) => stopped,
    };
    let begun =
        string_so_far(stopped, tools, name, markup).filter(|(key, _)| !read.contains_key(key));
    let first = read.is_empty();
    let mut arguments = Value::Object(read).to_string();
    arguments.pop();
    if let Some((key, text)) = begun {
        if !first {
            arguments.push(',');
        }
        let quoted = Value::String(text).to_string();
        arguments.push_str(&format!(
            "{}:{}",
            Value::String(key),
            &quoted[..quoted.len() - 1]
        ));
    }
    Some((name.to_string(), arguments, None))
}

/// The parameter being written at the start of `text` (where reading a call of `name`
/// stopped), when its value is a string whatever it holds (so its text can go out as it
/// comes): its name and its text so far, less a tail that may be the start of its end.
fn string_so_far(
    text: &str,
    tools: &[ToolFunction],
    name: &str,
    markup: &Markup,
) -> Option<(String, String)> {
    let properties = tools
        .iter()
        .find(|t| t.name == name)
        .and_then(|t| t.parameters.get("properties"))
        .and_then(Value::as_object);
    let (key, raw) = text
        .strip_prefix(markup.parameter_open)?
        .split_once(markup.key_close)?;
    // A key holding the tag's end in the schema could still be longer than the one read.
    if raw.contains(PARAMETER_CLOSE)
        || properties.is_some_and(|p| p.keys().any(|k| k.contains(markup.key_close)))
    {
        return None;
    }
    let schema = properties.and_then(|p| p.get(key));
    let nullable = schema
        .and_then(|s| s.get("type"))
        .and_then(Value::as_array)
        .is_some_and(|kinds| kinds.iter().any(|k| k == "null"));
    if nullable || schema.is_some_and(|s| ValueKind::of(s) == ValueKind::Json) {
        return None;
    }
    // One newline after the tag and one before the end are the format's, not the value's.
    let raw = match raw.strip_prefix('\n') {
        Some(rest) => rest,
        None if raw.is_empty() => return None,
        None => raw,
    };
    let ends = ["\n</parameter>", PARAMETER_CLOSE];
    let held = (raw.len().saturating_sub(ends[0].len())..=raw.len())
        .filter(|&i| raw.is_char_boundary(i))
        .find(|&i| ends.iter().any(|end| end.starts_with(&raw[i..])))
        .unwrap_or(raw.len());
    Some((key.to_string(), raw[..held].to_string()))
}

/// The call at the start of `body` (after its `<tool_call>`) in `markup`, and the text
/// after it.
pub(super) fn read_call<'a>(
    body: &'a str,
    tools: &[ToolFunction],
    markup: &Markup,
) -> Option<(ToolCall, &'a str)> {
    let (name, arguments, after) = read_call_so_far(body, tools, false, markup)?;
    let call = ToolCall {
        name: name.to_string(),
        arguments: Value::Object(arguments).to_string(),
    };
    Some((call, after.ok()?))
}

/// A call's function name, its parameters read so far, and the text after its
/// `</function>` once there is one (else where reading stopped).
type CallRead<'a> = (&'a str, Map<String, Value>, Result<&'a str, &'a str>);

/// The call at the start of `body` as far as it is written (`so_far`: the output goes on);
/// `None` until the name is whole or where it is no name. A parameter written twice keeps
/// its first value (a stream has sent that one).
fn read_call_so_far<'a>(
    body: &'a str,
    tools: &[ToolFunction],
    so_far: bool,
    markup: &Markup,
) -> Option<CallRead<'a>> {
    let rest = body.trim_start().strip_prefix(markup.function_open)?;
    let (name, mut rest) = rest.split_once(markup.name_close)?;
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '<' || c == '"') {
        return None;
    }
    let properties = tools
        .iter()
        .find(|t| t.name == name)
        .and_then(|t| t.parameters.get("properties"))
        .and_then(Value::as_object);
    let mut arguments = Map::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(markup.function_close) {
            return Some((name, arguments, Ok(after)));
        }
        let Some((key, value, after)) = read_parameter(rest, properties, so_far, markup) else {
            return Some((name, arguments, Err(rest)));
        };
        arguments.entry(key).or_insert(value);
        rest = after;
    }
}

/// The parameter at the start of `text`: its name, its value typed by `properties`, and
/// the text after it; `None` where it is not whole (or not a parameter). `so_far`: the
/// output goes on, so a JSON value not yet whole is not read as text up to a
/// `</parameter>` inside one of its strings.
fn read_parameter<'a>(
    text: &'a str,
    properties: Option<&Map<String, Value>>,
    so_far: bool,
    markup: &Markup,
) -> Option<(String, Value, &'a str)> {
    let head = text.strip_prefix(markup.parameter_open)?;
    let close = markup.key_close;
    // A key the schema names may hold the tag's end: the longest one that fits comes first.
    let known = properties.and_then(|p| {
        p.keys()
            .filter(|k| {
                head.strip_prefix(k.as_str())
                    .is_some_and(|r| r.starts_with(close))
            })
            .max_by_key(|k| k.len())
    });
    let (key, after) = match known {
        Some(key) => (key.as_str(), &head[key.len() + close.len()..]),
        None => head.split_once(close)?,
    };
    let schema = properties.and_then(|p| p.get(key));
    let json = schema.is_some_and(|s| ValueKind::of(s) == ValueKind::Json);
    if so_far && json {
        // Not read until what it is is settled: the value whole and its end tag after it,
        // or text that cannot be that.
        match value_reach(after, 0) {
            Reach::Cut => return None,
            Reach::Ends(end) => {
                let tail = after[end..].trim_start();
                if tail.len() < PARAMETER_CLOSE.len() && PARAMETER_CLOSE.starts_with(tail) {
                    return None;
                }
            }
            Reach::Bad => {}
        }
    }
    let (value, after) = match read_json(after, schema) {
        Some(read) => read,
        None => {
            let end = after.find(PARAMETER_CLOSE)?;
            let raw = &after[..end];
            let raw = raw.strip_prefix('\n').unwrap_or(raw);
            let raw = raw.strip_suffix('\n').unwrap_or(raw);
            (typed(raw, schema), &after[end + PARAMETER_CLOSE.len()..])
        }
    };
    Some((key.to_string(), value, after))
}

/// A JSON value (of a parameter whose schema is not a string's) read as one value up to
/// its `</parameter>`, so that a string inside it may hold that tag; `None` where the text
/// is not that.
fn read_json<'a>(text: &'a str, schema: Option<&Value>) -> Option<(Value, &'a str)> {
    if ValueKind::of(schema?) != ValueKind::Json {
        return None;
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = values.next()?.ok()?;
    let after = text[values.byte_offset()..]
        .trim_start()
        .strip_prefix(PARAMETER_CLOSE)?;
    Some((value, after))
}

/// A value's text as its schema types it: a string's as it is (`null` where the schema
/// admits null), any other as JSON (Python's `True`, `False` and `None` too, which Qwen's
/// template writes for earlier calls); text that does not parse, and a value of a
/// parameter the schema does not name, stay strings.
pub(super) fn typed(raw: &str, schema: Option<&Value>) -> Value {
    let text = || Value::String(raw.to_string());
    let Some(schema) = schema else {
        return text();
    };
    let nullable = match schema.get("type") {
        Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "null"),
        _ => false,
    };
    if let ValueKind::Text(_) = ValueKind::of(schema) {
        return match raw.trim() {
            "null" | "None" if nullable => Value::Null,
            _ => text(),
        };
    }
    let trimmed = raw.trim();
    serde_json::from_str(trimmed).unwrap_or_else(|_| match trimmed {
        "True" => Value::Bool(true),
        "False" => Value::Bool(false),
        "None" => Value::Null,
        _ => text(),
    })
}

/// The tools and the call syntax, for a template without them (in Qwen3-Coder's words).
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut out = String::from("# Tools\n\nYou have access to the following functions:\n\n<tools>");
    for tool in tools {
        out.push('\n');
        out.push_str(&super::tool_json(tool).to_string());
    }
    out.push_str(
        "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format \
         with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n\
         <parameter=example_parameter_1>\nvalue_1\n</parameter>\n\
         <parameter=example_parameter_2>\nThis is the value for the second parameter\n\
         that can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>",
    );
    out
}

/// Earlier calls as the model writes them: strings raw, other values as JSON.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|call| {
            let mut out = format!("<tool_call>\n{FUNCTION_OPEN}{}>\n", call.name);
            for (key, value) in argument_texts(call) {
                out.push_str(&format!(
                    "{PARAMETER_OPEN}{key}>\n{value}\n{PARAMETER_CLOSE}\n"
                ));
            }
            out.push_str(&format!("{FUNCTION_CLOSE}\n</tool_call>"));
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::*;
    use serde_json::json;

    fn weather() -> ToolFunction {
        ToolFunction {
            name: "weather".into(),
            description: None,
            parameters: json!({
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                    "metric": {"type": "boolean"},
                    "note": {"type": ["string", "null"]},
                    "where": {"type": "object", "properties": {"lat": {"type": "number"}}},
                },
                "required": ["city"],
            }),
        }
    }

    #[test]
    fn values_are_typed_by_their_schema() {
        let text = "Checking.\n<tool_call>\n<function=weather>\n<parameter=city>\n123\n</parameter>\n\
            <parameter=days>\n3\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n\
            <parameter=note>\nnull\n</parameter>\n<parameter=where>\n{\"lat\": 48.8}\n</parameter>\n\
            </function>\n</tool_call>";
        let (content, calls) = parse(text, &[weather()]);
        assert_eq!(content, "Checking.");
        let arguments: Value = serde_json::from_str(&calls[0].arguments).unwrap();
        assert_eq!(
            arguments,
            json!({"city": "123", "days": 3, "metric": true, "note": null, "where": {"lat": 48.8}})
        );
        assert_eq!(calls[0].name, "weather");
    }

    #[test]
    fn a_string_keeps_its_lines_and_tags_and_loses_one_newline_each_side() {
        let text = "<tool_call>\n<function=write>\n<parameter=body>\n\n  a\n</function> b\n\n\
            </parameter>\n<parameter=extra>\n7\n</parameter>\n</function>\n</tool_call>";
        let tools = [ToolFunction {
            name: "write".into(),
            description: None,
            parameters: json!({"type": "object", "properties": {"body": {"type": "string"}}}),
        }];
        let (_, calls) = parse(text, &tools);
        let arguments: Value = serde_json::from_str(&calls[0].arguments).unwrap();
        // A parameter the schema does not name stays a string.
        assert_eq!(
            arguments,
            json!({"body": "\n  a\n</function> b\n", "extra": "7"})
        );
    }

    /// What the grammar lets through reads back: a JSON value holding `</parameter>` in a
    /// string, a key holding `>`.
    #[test]
    fn json_values_and_keys_read_whole() {
        let tools = [ToolFunction {
            name: "f".into(),
            description: None,
            parameters: json!({"type": "object", "properties": {
                "list": {"type": "array", "items": {"type": "string"}},
                "a>b": {"type": "string"},
                "a": {"type": "integer"},
            }}),
        }];
        let text = "<tool_call>\n<function=f>\n<parameter=list>\n[\"x\\n</parameter>\\n\"]\n</parameter>\n\
            <parameter=a>b>\nkept\n</parameter>\n<parameter=a>\n5\n</parameter>\n</function>\n</tool_call>";
        let (_, calls) = parse(text, &tools);
        let arguments: Value = serde_json::from_str(&calls[0].arguments).unwrap();
        assert_eq!(
            arguments,
            json!({"list": ["x\n</parameter>\n"], "a>b": "kept", "a": 5})
        );
    }

    #[test]
    fn output_that_is_not_a_call_is_content() {
        for text in [
            "Plain text.",
            "<tool_call>\n{\"name\":\"weather\",\"arguments\":{}}\n</tool_call>",
            "<tool_call>\n<function=weather>\n<parameter=city>\nParis\n</function>\n</tool_call>",
            "<tool_call>\n<function=weather>\n</function>",
            "<tool_call>\n<function=we ather>\n</function>\n</tool_call>",
        ] {
            assert_eq!(
                parse(text, &[weather()]),
                (text.to_string(), Vec::new()),
                "{text}"
            );
        }
    }

    #[test]
    fn rendered_calls_read_back_the_same() {
        let calls = vec![
            call(
                "weather",
                r#"{"city":"Paris","days":3,"where":{"lat":1.5}}"#,
            ),
            call("weather", r#"{"city":"Rome"}"#),
        ];
        let text = render_calls(&calls);
        assert!(text.starts_with("<tool_call>\n<function=weather>\n<parameter=city>\nParis\n"));
        assert_eq!(parse(&text, &[weather()]), (String::new(), calls));
    }

    #[test]
    fn length_bounds_are_kept_where_a_grammar_can_count_them() {
        let bounds = |schema: Value| length_bounds(&schema);
        assert_eq!(bounds(json!({"maxLength": 3})).as_deref(), Some("{0,3}"));
        assert_eq!(bounds(json!({"minLength": 2})).as_deref(), Some("{2,}"));
        assert_eq!(
            bounds(json!({"minLength": 2, "maxLength": 5})).as_deref(),
            Some("{2,5}")
        );
        for schema in [
            json!({"minLength": 0}),
            json!({"minLength": 5, "maxLength": 2}),
            json!({"maxLength": 5000}),
            json!({"type": ["string", "null"], "maxLength": 3}),
        ] {
            assert_eq!(bounds(schema.clone()), None, "{schema}");
        }
    }

    #[test]
    fn value_kinds_follow_the_schema() {
        let kind = |schema: Value| ValueKind::of(&schema);
        assert_eq!(kind(json!({"type": "string"})), ValueKind::Text(None));
        assert_eq!(kind(json!({"description": "any"})), ValueKind::Text(None));
        assert_eq!(
            kind(json!({"enum": ["a", "b"]})),
            ValueKind::Text(Some(vec!["a".into(), "b".into()]))
        );
        assert_eq!(
            kind(json!({"const": "x"})),
            ValueKind::Text(Some(vec!["x".into()]))
        );
        for json in [
            json!({"type": "integer"}),
            json!({"enum": ["a", 1]}),
            json!({"type": ["string", "integer"]}),
            json!({"anyOf": [{"type": "string"}]}),
            json!({"items": {}}),
        ] {
            assert_eq!(kind(json.clone()), ValueKind::Json, "{json}");
        }
    }
}
