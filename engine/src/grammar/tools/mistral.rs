//! Mistral's tool calls (v0.3, Nemo, Small): `[TOOL_CALLS]` and a JSON array of calls (see
//! `marked_array`), call ids of nine letters and digits ([`call_id`]), which their templates
//! insist on.

use super::marked_array::Marker;
use super::ToolFunction;
use serde_json::Value;

/// What opens the calls (a control token where the vocabulary has it).
pub(super) const MARKER: &str = "[TOOL_CALLS]";

/// The marker as written and read; a space before the array in earlier turns.
pub(super) const FORMAT: Marker = Marker {
    written: MARKER,
    also_read: None,
    gap: " ",
};

/// The tools and the call syntax, for a template without them.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let list: Vec<Value> = tools.iter().map(super::tool_json).collect();
    format!(
        "You may call these functions:\n{}\n\nTo call functions, answer with {MARKER} and a \
         JSON list of calls, each {{\"name\": function name, \"arguments\": its arguments}}, \
         and nothing else.",
        Value::Array(list)
    )
}

/// A call id of nine letters and digits, as Mistral's templates insist on: `id` itself when
/// it is one, else derived from its hash (in base 62), so a call and the result naming it
/// map alike.
pub(super) fn call_id(id: &str) -> String {
    if id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return id.to_string();
    }
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut hash = std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, id);
    (0..9)
        .map(|_| {
            let digit = DIGITS[(hash % 62) as usize];
            hash /= 62;
            char::from(digit)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ids_are_nine_letters_and_digits() {
        assert_eq!(call_id("a1B2c3D4e"), "a1B2c3D4e");
        let ids: Vec<String> = ["call_1", "call_2", "chatcmpl-x_0_0", "", "a1B2c3D4e5"]
            .iter()
            .map(|id| call_id(id))
            .collect();
        for id in &ids {
            assert!(
                id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric()),
                "{id}"
            );
        }
        let mut distinct = ids.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
        assert_eq!(call_id("call_1"), ids[0], "the same id maps alike");
    }
}
