//! Tool calls as Mistral's instruct models (v0.3, Nemo, Small) write them: a marker, then
//! every call in one JSON array, as the whole answer:
//!
//! ```text
//! [TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}]
//! ```
//!
//! `[TOOL_CALLS]` is a control token in those vocabularies: the grammar names it by id, and
//! since control tokens are left out of output text, reading takes a JSON array of calls at
//! the start of the output for calls (a text answer never starts with `[`, which the grammar
//! sees to). Where the vocabulary has no such token, the marker is text. Their templates
//! want call ids of nine letters and digits ([`call_id`]).

use super::{call_from_json, call_schema, ToolCall, ToolFunction};
use crate::grammar::{compact, strict};
use serde_json::{json, Value};

/// What opens the calls (a control token where the vocabulary has it).
pub(super) const MARKER: &str = "[TOOL_CALLS]";

/// The calls, one of `calls` each (several when `parallel`), after the marker (`marker`:
/// its control token's id; `None`: its text); under `auto` a text answer that does not
/// start with `[`, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    marker: Option<u32>,
) -> String {
    let schemas: Vec<Value> = calls.iter().map(|t| call_schema(t, "arguments")).collect();
    let one = json!({"anyOf": schemas});
    let array = match parallel {
        true => json!({"type": "array", "items": one, "minItems": 1}),
        false => json!({"type": "array", "items": one, "minItems": 1, "maxItems": 1}),
    };
    let array = compact(&strict(&array));
    let marker = match marker {
        Some(id) => format!("<[{id}]>"),
        None => format!("\"{MARKER}\""),
    };
    let calls = format!("calls: {marker} \" \"? %json {array}\n");
    match (auto, answer) {
        (false, _) => format!("start: calls\n{calls}"),
        (true, None) => format!("start: calls | TEXT\n{calls}{TEXT}"),
        (true, Some(answer)) => format!(
            "start: calls | answer | TEXT\n{calls}answer: %json {}\n{TEXT}",
            compact(&answer)
        ),
    }
}

/// A text answer: empty, or starting with neither `[` nor blank space (so it never reads as
/// calls whose marker was left out of the text), nor `{` (the JSON answer's start).
const TEXT: &str = "TEXT: /([^\\[{\\s](.|\\n)*)?/\n";

/// The calls when the output (trimmed, less the marker's text) is one JSON array of calls
/// and nothing else; else all of it is content.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    let trimmed = text.trim();
    let body = trimmed.strip_prefix(MARKER).unwrap_or(trimmed).trim_start();
    let none = || (text.to_string(), Vec::new());
    if !body.starts_with('[') {
        return none();
    }
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(body) else {
        return none();
    };
    let calls: Option<Vec<ToolCall>> = items
        .iter()
        .map(|item| call_from_json(item, &["arguments"]))
        .collect();
    match calls {
        Some(calls) if !calls.is_empty() => (String::new(), calls),
        _ => none(),
    }
}

/// The whole output is held while it may still be calls: until its first character that
/// is not blank space shows it is text (not `[`).
pub(super) fn held_from(text: &str) -> usize {
    let lead = text.trim_start();
    if lead.is_empty() || lead.starts_with('[') {
        0
    } else {
        text.len()
    }
}

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

/// Earlier calls as the model writes them.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    let list: Vec<Value> = calls
        .iter()
        .map(|c| json!({"name": c.name, "arguments": super::arguments_json(c)}))
        .collect();
    format!("{MARKER} {}", Value::Array(list))
}

/// A call id of nine letters and digits, as Mistral's templates insist on: `id` itself when
/// it is one, else derived from it (FNV-1a, in base 62), so a call and the result naming it
/// map alike.
pub(super) fn call_id(id: &str) -> String {
    if id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return id.to_string();
    }
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
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
    use super::super::tests::call;
    use super::*;

    #[test]
    fn an_array_of_calls_is_read_with_or_without_its_marker() {
        let weather = call("weather", r#"{"city":"Paris"}"#);
        let both = vec![weather.clone(), call("time", "{}")];
        let array = r#"[{"name": "weather", "arguments": {"city": "Paris"}}, {"name": "time", "arguments": {}}]"#;
        assert_eq!(parse(array), (String::new(), both.clone()));
        assert_eq!(parse(&format!(" {array}")).1, both, "marker skipped");
        assert_eq!(parse(&format!("[TOOL_CALLS] {array}\n")).1, both);
        assert_eq!(parse(&render_calls(&both)).1, both, "rendered back");
        for text in [
            "Sunny.",
            "[1, 2]",
            "[]",
            r#"[{"name": "weather", "arguments": {}}] and more"#,
            r#"[{"name": "weather"}]"#,
            r#"[{"name": "weather", "arguments": {"#,
        ] {
            assert_eq!(parse(text), (text.to_string(), Vec::new()), "{text}");
        }
    }

    #[test]
    fn output_is_held_until_it_cannot_be_calls() {
        for (text, held) in [("", 0), (" [", 0), ("[TOOL_CA", 0), ("Sun", 3), (" {", 2)] {
            assert_eq!(held_from(text), held, "{text:?}");
        }
    }

    /// Where `[TOOL_CALLS]` is a control token the grammar asks for that token first (not
    /// its text), and the output, decoded without control tokens, reads back as the calls.
    #[test]
    fn a_control_token_marker_is_written_as_the_token_and_read_without_it() {
        use crate::grammar::{GrammarLimits, GrammarSpec, Grammars, Step, ToolChoice, ToolFormat};
        let tok = std::sync::Arc::new(crate::tokenizer::tests::small_tokenizer_with_control(
            MARKER,
        ));
        let marker = tok.token_id(MARKER).unwrap();
        let tool = ToolFunction {
            name: "f".into(),
            description: None,
            parameters: json!({"type": "object", "properties": {}}),
        };
        let spec = ToolFormat::Mistral
            .grammar(&[tool], &ToolChoice::Required, false, None, &tok)
            .unwrap();
        let GrammarSpec::Tools(lark) = &spec else {
            panic!("{spec:?}")
        };
        assert!(lark.contains(&format!("<[{marker}]>")), "{lark}");
        let grammars = Grammars::new(tok.clone(), tok.vocab_size(), GrammarLimits::default());
        let mut constraint = grammars
            .compile(&spec, &radix::Namespace::global())
            .unwrap();
        let allowed = |mask: &[u32], t: u32| (mask[t as usize / 32] >> (t % 32)) & 1 == 1;
        let mask = constraint.compute_mask().unwrap();
        let bracket = tok.encode_without_bos_eos("[", false).unwrap()[0];
        assert!(allowed(&mask, marker) && !allowed(&mask, bracket));
        let goal = "[{\"name\":\"f\",\"arguments\":{}}]";
        let mut output = vec![marker];
        let mut step = constraint.advance(marker).unwrap();
        let text = loop {
            let (Step::Continue { forced } | Step::Done { forced }) = &step;
            output.extend(forced);
            let text = tok.decode(&output, true).unwrap();
            let rest = goal
                .strip_prefix(text.as_str())
                .unwrap_or_else(|| panic!("{text:?}"));
            if rest.is_empty() || matches!(step, Step::Done { .. }) {
                break text;
            }
            let next = tok.encode_without_bos_eos(rest, false).unwrap()[0];
            assert!(
                allowed(&constraint.compute_mask().unwrap(), next),
                "{rest:?}"
            );
            output.push(next);
            step = constraint.advance(next).unwrap();
        };
        assert_eq!(text, goal);
        assert_eq!(parse(&text).1, vec![call("f", "{}")]);
    }

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
