//! Tool calls in the Hermes / Qwen format, which chat templates without a tool syntax of
//! their own (SmolLM2's ChatML) can carry as text:
//!
//! ```text
//! <tool_call>
//! {"name": "get_weather", "arguments": {"city": "Paris"}}
//! </tool_call>
//! ```
//!
//! The tools are announced in the system prompt; the output is constrained by a Lark grammar
//! whose calls are JSON validated against each function's parameter schema: only calls for
//! `required` or a named function, or free text that may turn into calls after the trigger
//! `<tool_call>` for `auto` (a lazy lexeme: text matches as little as it can). The tags,
//! the grammar around them and the reading of their content are shared with Qwen3-Coder's
//! XML-like bodies (`qwen_xml`): [`tagged_calls`], [`parse_tagged`].

use super::so_far::CallSoFar;
use super::{call_from_json, call_schema, ToolCall, ToolFunction};
use crate::grammar::{compact, strict};
use serde_json::{json, Value};

/// What opens a call in the output (and triggers the call grammar under `auto`).
const CALL_OPEN: &str = "<tool_call>";
const CALL_CLOSE: &str = "</tool_call>";

/// The tags around each call of a format that writes its calls one by one between tags.
pub(super) struct Tags {
    pub open: &'static str,
    pub close: &'static str,
}

/// Hermes' tags, which Qwen3-Coder's and GLM's formats share.
const TAGS: Tags = Tags {
    open: CALL_OPEN,
    close: CALL_CLOSE,
};

/// The system-prompt text announcing `tools` and the call format.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let mut out = tools_block(tools);
    out.push_str(
        "\n</tools>\n\nFor each function call, return a json object with function name and \
         arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
         {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
    );
    out
}

/// `tools` as JSON lines in `<tools>` tags after a heading, as Qwen's and GLM's templates
/// announce them (the call syntax follows).
pub(super) fn tools_block(tools: &[ToolFunction]) -> String {
    let mut out = String::from(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n<tools>",
    );
    for tool in tools {
        out.push('\n');
        out.push_str(&super::tool_json(tool).to_string());
    }
    out
}

/// Calls of one of `calls`: alone (`auto` false), several when `parallel`; under `auto`
/// after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
) -> String {
    let schemas: Vec<Value> = calls.iter().map(|t| call_schema(t, "arguments")).collect();
    let json = compact(&strict(&json!({"anyOf": schemas})));
    tagged_calls(&format!("%json {json}"), "", auto, parallel, answer)
}

/// The grammar of calls in `<tool_call>` tags, each tag on a line of its own around `body`
/// (a grammar expression, whose rules `rules` holds): alone (`auto` false), several when
/// `parallel`; under `auto` after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn tagged_calls(
    body: &str,
    rules: &str,
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
) -> String {
    let line = "\"\\n\"";
    tagged_calls_padded(body, rules, auto, parallel, answer, ["", line, line, line])
}

/// [`tagged_calls`] with `padding` (grammar expressions): what may come before the first
/// call of an output that is all calls, after the opening tag, before the closing one, and
/// between calls.
pub(super) fn tagged_calls_padded(
    body: &str,
    rules: &str,
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    padding: [&str; 4],
) -> String {
    let [lead, after_open, before_close, between] = padding;
    let close = format!("{before_close} \"{CALL_CLOSE}\"");
    let call = format!("call: \"{CALL_OPEN}\" {after_open} {body} {close}\n{rules}");
    if !auto {
        return match parallel {
            true => format!("start: {lead} call ({between} call)*\n{call}"),
            false => format!("start: {lead} call\n{call}"),
        };
    }
    // Calls after free text, found lazily at their opening tag. Beside an answer, text
    // before a call never starts with `{`, so the first character already tells the answer
    // (JSON) from text leading to a call: an ever-growing text lexeme would otherwise never
    // let the answer end.
    let (start, lead, answer) = match (answer, parallel) {
        (Some(answer), parallel) => (
            if parallel {
                "lazy_call+ tail | answer"
            } else {
                "lazy_call | answer"
            },
            "([^{](.|\\n)*)?",
            format!("answer: %json {}\n", compact(&answer)),
        ),
        (None, true) => ("lazy_call* tail", "(.|\\n)*", String::new()),
        (None, false) => ("lazy_call | tail", "(.|\\n)*", String::new()),
    };
    format!(
        "start: {start}\n{answer}tail: TEXT\nTEXT: /(.|\\n)*/\nLEAD: /{lead}/\n\
         lazy_call: call_trigger {after_open} {body} {close}\n\
         call_trigger[lazy]: LEAD \"{CALL_OPEN}\"\n{rules}"
    )
}

/// Text with its tool calls taken out.
#[derive(Debug, PartialEq)]
struct SplitCalls {
    /// Where the first call starts (the text before it is content).
    first: usize,
    calls: Vec<ToolCall>,
    /// The text between and after the calls (a call that does not parse stays text), each
    /// piece trimmed, joined by newlines.
    after: String,
}

/// One call read from the start of the text after its `<tool_call>`, and the text after it.
pub(super) type ReadCall<'r> = &'r dyn Fn(&str) -> Option<(ToolCall, &str)>;

/// A call's JSON, read as one value, so a `</tool_call>` inside a string argument does not
/// end it.
fn read_json_call(body: &str) -> Option<(ToolCall, &str)> {
    let mut values = serde_json::Deserializer::from_str(body).into_iter::<Value>();
    let value = values.next()?.ok()?;
    let call = call_from_json(&value, &["arguments"])?;
    Some((call, &body[values.byte_offset()..]))
}

/// Splits `text` into content and calls in `tags` (each read by `read_call`); no calls when
/// none parses.
fn split(text: &str, tags: &Tags, read_call: ReadCall<'_>) -> SplitCalls {
    let none = || SplitCalls {
        first: text.len(),
        calls: Vec::new(),
        after: String::new(),
    };
    let Some(first) = text.find(tags.open) else {
        return none();
    };
    let mut calls = Vec::new();
    let mut pieces = Vec::new();
    let mut rest = &text[first..];
    while let Some(open) = rest.find(tags.open) {
        let body = &rest[open + tags.open.len()..];
        let Some((call, after)) = read_call(body) else {
            break;
        };
        let Some(after) = after.trim_start().strip_prefix(tags.close) else {
            break;
        };
        pieces.push(&rest[..open]);
        calls.push(call);
        rest = after;
    }
    if calls.is_empty() {
        return none();
    }
    pieces.push(rest);
    let after = pieces
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    SplitCalls {
        first,
        calls,
        after,
    }
}

/// The content (the text around the calls: before the first, then between and after them
/// on lines of their own) and the calls of a model's output.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    parse_tagged(text, &read_json_call)
}

/// [`parse`] for calls in `<tool_call>` tags whose body `read_call` reads.
pub(super) fn parse_tagged(text: &str, read_call: ReadCall<'_>) -> (String, Vec<ToolCall>) {
    parse_in_tags(text, &TAGS, read_call)
}

/// [`parse`] for calls in `tags` whose body `read_call` reads.
pub(super) fn parse_in_tags(
    text: &str,
    tags: &Tags,
    read_call: ReadCall<'_>,
) -> (String, Vec<ToolCall>) {
    let split = split(text, tags, read_call);
    if split.calls.is_empty() {
        return (text.to_string(), split.calls);
    }
    let mut content = text[..split.first].trim_end().to_string();
    if !split.after.is_empty() {
        if !content.is_empty() {
            content.push('\n');
        }
        content.push_str(&split.after);
    }
    (content, split.calls)
}

/// The calls begun so far in an output being written.
pub(super) fn calls_so_far(text: &str) -> Vec<CallSoFar> {
    tagged_so_far(text, &|body| {
        super::so_far::json_call_so_far(body, &["arguments"])
    })
}

/// A call's name, its arguments so far and where it ends (if it does) in the body after
/// its `<tool_call>`; `None` until its name is whole.
pub(super) type ReadSoFar<'r> = &'r dyn Fn(&str) -> Option<(String, String, Option<usize>)>;

/// [`calls_so_far`] for calls in `<tool_call>` tags whose body `read` reads.
pub(super) fn tagged_so_far(text: &str, read: ReadSoFar<'_>) -> Vec<CallSoFar> {
    so_far_in_tags(text, &TAGS, read)
}

/// [`calls_so_far`] for calls in `tags` whose body `read` reads.
pub(super) fn so_far_in_tags(text: &str, tags: &Tags, read: ReadSoFar<'_>) -> Vec<CallSoFar> {
    let mut calls = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find(tags.open) {
        let start = from + open;
        let body = start + tags.open.len();
        let Some((name, arguments, end)) = read(&text[body..]) else {
            break;
        };
        calls.push(CallSoFar {
            start,
            name,
            arguments,
        });
        let Some(end) = end else {
            break;
        };
        let after = text[body + end..].trim_start();
        let Some(rest) = after.strip_prefix(tags.close) else {
            break;
        };
        from = text.len() - rest.len();
    }
    calls
}

/// Up to the first `<tool_call>` after `sent`, less a tail that could still become one.
pub(super) fn held_from(text: &str, sent: usize) -> usize {
    super::held_before(text, sent, CALL_OPEN)
}

/// The text of an earlier assistant turn's calls, for the conversation history.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| {
            let call = json!({"name": c.name, "arguments": super::arguments_json(c)});
            format!("{CALL_OPEN}\n{call}\n{CALL_CLOSE}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_parse_out_of_text_and_render_back() {
        let text = "Let me check.\n<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"name\":\"time\",\"arguments\":{}}\n</tool_call>";
        let (content, calls) = parse(text);
        assert_eq!(content, "Let me check.");
        assert_eq!(
            calls,
            vec![
                ToolCall {
                    name: "weather".into(),
                    arguments: "{\"city\":\"Paris\"}".into()
                },
                ToolCall {
                    name: "time".into(),
                    arguments: "{}".into()
                }
            ]
        );
        let again = render_calls(&calls);
        assert_eq!(parse(&again).1, calls);
        let tricky = "<tool_call>\n{\"name\":\"note\",\"arguments\":{\"text\":\"a </tool_call> b\"}}\n</tool_call>";
        assert_eq!(
            parse(tricky).1,
            vec![ToolCall {
                name: "note".into(),
                arguments: "{\"text\":\"a </tool_call> b\"}".into()
            }],
            "the closing tag inside a string is data"
        );
        // Text between and after the calls is content too; a call that does not parse
        // stays text.
        let (content, calls) = parse(
            "A\n<tool_call>\n{\"name\":\"t\",\"arguments\":{}}\n</tool_call>\n B \n<tool_call>\n{\"name\":\"u\",\"arguments\":{}}\n</tool_call>\nC <tool_call> cut",
        );
        assert_eq!(content, "A\nB\nC <tool_call> cut");
        assert_eq!(calls.len(), 2);
        let (content, calls) = parse("no calls <tool_call> broken");
        assert_eq!(
            (content.as_str(), calls.len()),
            ("no calls <tool_call> broken", 0)
        );
    }
}
