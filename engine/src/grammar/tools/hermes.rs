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
//! `<tool_call>` for `auto` (a lazy lexeme: text matches as little as it can).

use super::{compact, strict, GrammarSpec};
use serde_json::{json, Value};

/// What opens a call in the output (and triggers the call grammar under `auto`).
pub const TOOL_CALL_OPEN: &str = "<tool_call>";
const CALL_OPEN: &str = TOOL_CALL_OPEN;
const CALL_CLOSE: &str = "</tool_call>";

/// One function a model may call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolFunction {
    pub name: String,
    pub description: Option<String>,
    /// JSON schema of the arguments (an object schema).
    pub parameters: Value,
}

/// Whether and which tools the model must call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// No calls: plain text (the tools are not announced).
    None,
    /// Text, or calls after text.
    Auto,
    /// At least one call, nothing else.
    Required,
    /// One call of this function, nothing else.
    Function(String),
}

/// One call the model made: the function's name and its arguments as JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    pub name: String,
    pub arguments: String,
}

/// A tool as OpenAI's request and Hugging Face's templates give it.
pub fn tool_json(tool: &ToolFunction) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description.clone().unwrap_or_default(),
            "parameters": tool.parameters,
        }
    })
}

/// The system-prompt text announcing `tools` and the call format.
pub fn tools_prompt(tools: &[ToolFunction]) -> String {
    let mut out = String::from(
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
         You are provided with function signatures within <tools></tools> XML tags:\n<tools>",
    );
    for tool in tools {
        out.push('\n');
        out.push_str(&tool_json(tool).to_string());
    }
    out.push_str(
        "\n</tools>\n\nFor each function call, return a json object with function name and \
         arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
         {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
    );
    out
}

/// The grammar for `choice` over `tools` (`None` for [`ToolChoice::None`]). With
/// `parallel`, `required` admits several calls, and `auto` several after its text; without,
/// one call ends the output. `answer` (a JSON response format) makes `auto` either calls or
/// that JSON as the final answer (an agent's structured output); the other choices force
/// calls and ignore it.
pub fn tool_grammar(
    tools: &[ToolFunction],
    choice: &ToolChoice,
    parallel: bool,
    answer: Option<&GrammarSpec>,
) -> Option<GrammarSpec> {
    let call_schema = |tool: &ToolFunction| {
        json!({
            "type": "object",
            "properties": {
                "name": {"const": tool.name},
                "arguments": tool.parameters,
            },
            "required": ["name", "arguments"],
            "additionalProperties": false,
        })
    };
    let schema = match choice {
        ToolChoice::None => return None,
        ToolChoice::Function(name) => {
            let tool = tools.iter().find(|t| &t.name == name)?;
            call_schema(tool)
        }
        ToolChoice::Auto | ToolChoice::Required => {
            json!({"anyOf": tools.iter().map(call_schema).collect::<Vec<_>>()})
        }
    };
    let json = compact(&strict(&schema));
    let call = format!("call: \"{CALL_OPEN}\\n\" %json {json} \"\\n{CALL_CLOSE}\"\n");
    let answer = answer.and_then(GrammarSpec::json_schema);
    // Calls after free text, found lazily at their opening tag. Beside an answer, text
    // before a call never starts with `{`, so the first character already tells the answer
    // (JSON) from text leading to a call: an ever-growing text lexeme would otherwise never
    // let the answer end.
    let auto = |start: &str, lead: &str, answer: &str| {
        format!(
            "start: {start}\n{answer}tail: TEXT\nTEXT: /(.|\\n)*/\nLEAD: /{lead}/\n\
             lazy_call: call_trigger \"\\n\" %json {json} \"\\n{CALL_CLOSE}\"\n\
             call_trigger[lazy]: LEAD \"{CALL_OPEN}\"\n"
        )
    };
    let lark = match (choice, answer) {
        (ToolChoice::Auto, Some(answer)) => auto(
            if parallel {
                "lazy_call+ tail | answer"
            } else {
                "lazy_call | answer"
            },
            "([^{](.|\\n)*)?",
            &format!("answer: %json {}\n", compact(&answer)),
        ),
        (ToolChoice::Auto, None) => auto(
            if parallel {
                "lazy_call* tail"
            } else {
                "lazy_call | tail"
            },
            "(.|\\n)*",
            "",
        ),
        (ToolChoice::Required, _) if parallel => {
            format!("start: call (\"\\n\" call)*\n{call}")
        }
        _ => format!("start: call\n{call}"),
    };
    Some(GrammarSpec::Tools(lark))
}

/// Text with its tool calls taken out.
#[derive(Debug, PartialEq)]
pub struct SplitCalls {
    /// Where the first call starts (the text before it is content).
    pub first: usize,
    pub calls: Vec<ToolCall>,
    /// The text between and after the calls (a call that does not parse stays text), each
    /// piece trimmed, joined by newlines.
    pub after: String,
}

/// Splits `text` into content and calls; no calls when none parses. Each call's JSON is
/// read as one value, so a `</tool_call>` inside a string argument does not end it.
pub fn split_tool_calls(text: &str) -> SplitCalls {
    let none = || SplitCalls {
        first: text.len(),
        calls: Vec::new(),
        after: String::new(),
    };
    let Some(first) = text.find(CALL_OPEN) else {
        return none();
    };
    let mut calls = Vec::new();
    let mut pieces = Vec::new();
    let mut rest = &text[first..];
    while let Some(open) = rest.find(CALL_OPEN) {
        let body = &rest[open + CALL_OPEN.len()..];
        let mut values = serde_json::Deserializer::from_str(body).into_iter::<Value>();
        let Some(Ok(value)) = values.next() else {
            break;
        };
        let Some(after) = body[values.byte_offset()..]
            .trim_start()
            .strip_prefix(CALL_CLOSE)
        else {
            break;
        };
        let (Some(name), Some(arguments)) = (
            value.get("name").and_then(Value::as_str),
            value.get("arguments"),
        ) else {
            break;
        };
        pieces.push(&rest[..open]);
        calls.push(ToolCall {
            name: name.to_string(),
            arguments: arguments.to_string(),
        });
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
pub fn parse_tool_calls(text: &str) -> (String, Vec<ToolCall>) {
    let split = split_tool_calls(text);
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

/// The text of an earlier assistant turn's calls, for the conversation history.
pub fn render_tool_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| {
            let arguments: Value = serde_json::from_str(&c.arguments).unwrap_or(Value::Null);
            format!(
                "{CALL_OPEN}\n{}\n{CALL_CLOSE}",
                json!({"name": c.name, "arguments": arguments})
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Tool results as one user turn's text, each in `<tool_response>` tags (Hermes / Qwen).
pub fn render_tool_responses<'a>(results: impl IntoIterator<Item = &'a str>) -> String {
    results
        .into_iter()
        .map(|r| format!("<tool_response>\n{r}\n</tool_response>"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_parse_out_of_text_and_render_back() {
        let text = "Let me check.\n<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"name\":\"time\",\"arguments\":{}}\n</tool_call>";
        let (content, calls) = parse_tool_calls(text);
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
        let again = render_tool_calls(&calls);
        assert_eq!(parse_tool_calls(&again).1, calls);
        let tricky = "<tool_call>\n{\"name\":\"note\",\"arguments\":{\"text\":\"a </tool_call> b\"}}\n</tool_call>";
        assert_eq!(
            parse_tool_calls(tricky).1,
            vec![ToolCall {
                name: "note".into(),
                arguments: "{\"text\":\"a </tool_call> b\"}".into()
            }],
            "the closing tag inside a string is data"
        );
        // Text between and after the calls is content too; a call that does not parse
        // stays text.
        let (content, calls) = parse_tool_calls(
            "A\n<tool_call>\n{\"name\":\"t\",\"arguments\":{}}\n</tool_call>\n B \n<tool_call>\n{\"name\":\"u\",\"arguments\":{}}\n</tool_call>\nC <tool_call> cut",
        );
        assert_eq!(content, "A\nB\nC <tool_call> cut");
        assert_eq!(calls.len(), 2);
        let (content, calls) = parse_tool_calls("no calls <tool_call> broken");
        assert_eq!(
            (content.as_str(), calls.len()),
            ("no calls <tool_call> broken", 0)
        );
    }
}
