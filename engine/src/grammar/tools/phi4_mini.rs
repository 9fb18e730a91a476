//! Phi-4-mini's tool calls: `functools` and a JSON array of calls, as the whole answer (see
//! `marked_array`),
//!
//! ```text
//! functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]
//! ```
//!
//! Its template takes the tools as JSON text in the system turn's `tools` field
//! ([`tools_field`]) and renders no calls: earlier calls are written back as this text.
//! The model also writes the array between its `<|tool_call|>` and `<|/tool_call|>` control
//! tokens (as function-calling benchmarks found); that form is read, and allowed, too.

use super::marked_array::Marker;
use super::ToolFunction;
use serde_json::{json, Value};

/// What opens the calls: plain text in Phi-4-mini's vocabulary.
pub(super) const MARKER: &str = "functools";

/// The array follows the marker directly; or it stands between the model's tool-call tags.
pub(super) const FORMAT: Marker = Marker {
    written: MARKER,
    also_read: Some(("<|tool_call|>", "<|/tool_call|>")),
    gap: "",
};

/// The tools as the system turn's `tools` field holds them: a JSON list of
/// `{"name", "description", "parameters"}`.
pub fn tools_field(tools: &[ToolFunction]) -> String {
    let list: Vec<Value> = tools
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "description": t.description.clone().unwrap_or_default(),
                "parameters": t.parameters,
            })
        })
        .collect();
    Value::Array(list).to_string()
}

/// How to call, beside the tools in the system turn's field: the template says nothing of
/// it, so the system turn's words do.
pub const CALL_SYNTAX: &str = "To call functions, answer with functools and a JSON list of \
    calls, each {\"name\": function name, \"arguments\": its arguments as JSON}, and nothing \
    else.";

/// The tools and the call syntax, for a template that takes no tools field.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    format!(
        "You have these tools:\n{}\n\n{CALL_SYNTAX}",
        tools_field(tools)
    )
}
