//! IBM Granite 3.x's tool calls: `<|tool_call|>` and a JSON array of calls, as the whole
//! answer (see `marked_array`).

use super::marked_array::Marker;
use super::ToolFunction;
use serde_json::Value;

/// What opens the calls (a control token in Granite's vocabulary).
pub(super) const MARKER: &str = "<|tool_call|>";

/// The marker as written and read (later Granite models write `<tool_call>` as text, which
/// other servers' Granite parsers read too); the array follows it directly.
pub(super) const FORMAT: Marker = Marker {
    written: MARKER,
    also_read: Some(("<tool_call>", "")),
    gap: "",
};

/// The tools and the call syntax in Granite's own words, for a template without them
/// (some of Granite's templates announce the tools but render no calls).
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let list: Vec<Value> = tools.iter().map(super::tool_json).collect();
    format!(
        "You are a helpful AI assistant with access to the following tools. When a tool is \
         required to answer the user's query, respond only with {MARKER} followed by a JSON \
         list of tools used. If a tool does not exist in the provided list of tools, notify \
         the user that you do not have the ability to fulfill the request.\n\n{}",
        Value::Array(list)
    )
}
