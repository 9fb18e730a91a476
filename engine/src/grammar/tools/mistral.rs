//! Tool calls as Mistral's instruct models (v0.3, Nemo, Small) write them: a marker, then
//! every call in one JSON array, as the whole answer:
//!
//! ```text
//! [TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}]
//! ```
//!
//! `[TOOL_CALLS]` is a control token in those vocabularies: the grammar names it by id, and
//! the request's output text keeps that one control token (`shown_control_token`), so reading
//! finds the marker as other servers' Mistral parsers do. Where the vocabulary has no such
//! token, the marker is text. Their templates want call ids of nine letters and digits
//! ([`call_id`]).

use super::{call_from_json, call_schema, ToolCall, ToolFunction};
use crate::grammar::{compact, strict};
use serde_json::{json, Value};

/// What opens the calls (a control token where the vocabulary has it).
pub(super) const MARKER: &str = "[TOOL_CALLS]";

/// The calls, one of `calls` each (several when `parallel`), after the marker (`marker`:
/// its control token's id; `None`: its text); under `auto` a text answer, or `answer` (a JSON
/// schema) instead of calls.
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
    let (marker, text_marker) = match marker {
        Some(id) => (format!("<[{id}]>"), false),
        None => (format!("\"{MARKER}\""), true),
    };
    let calls = format!("calls: {marker} \" \"? %json {array}\n");
    if !auto {
        return format!("start: calls\n{calls}");
    }
    // Text may not start where the other branches do: with the marker where it is text
    // (`[`), with the JSON answer (`{`). A space may lead (SentencePiece words carry one).
    let mut excluded = String::new();
    if text_marker {
        excluded.push_str("\\[");
    }
    let answer = match answer {
        Some(answer) => {
            excluded.push('{');
            format!("answer: %json {}\n", compact(&answer))
        }
        None => String::new(),
    };
    let start = match answer.is_empty() {
        true => "calls | TEXT",
        false => "calls | answer | TEXT",
    };
    let text = match excluded.is_empty() {
        true => "TEXT: /(.|\\n)*/\n".to_string(),
        false => format!("TEXT: /( ?[^{excluded}\\s](.|\\n)*)?/\n"),
    };
    format!("start: {start}\n{calls}{answer}{text}")
}

/// The calls when the output (trimmed) is the marker and one JSON array of calls and
/// nothing else; else all of it is content.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    let none = || (text.to_string(), Vec::new());
    let Some(body) = text.trim().strip_prefix(MARKER) else {
        return none();
    };
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

/// The whole output is held while it may still be calls: until what follows its leading
/// blank space is no longer the marker or a beginning of it.
pub(super) fn held_from(text: &str) -> usize {
    let lead = text.trim_start();
    if lead.starts_with(MARKER) || MARKER.starts_with(lead) {
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
    use super::super::tests::call;
    use super::*;

    #[test]
    fn the_marker_and_an_array_of_calls_are_read_as_calls() {
        let weather = call("weather", r#"{"city":"Paris"}"#);
        let both = vec![weather.clone(), call("time", "{}")];
        let array = r#"[{"name": "weather", "arguments": {"city": "Paris"}}, {"name": "time", "arguments": {}}]"#;
        assert_eq!(
            parse(&format!("[TOOL_CALLS] {array}\n")),
            (String::new(), both.clone())
        );
        assert_eq!(parse(&format!(" [TOOL_CALLS]{array}")).1, both);
        assert_eq!(parse(&render_calls(&both)).1, both, "rendered back");
        // Without the marker an array is text, as is a marker before anything but calls.
        for text in [
            "Sunny.",
            array,
            "[TOOL_CALLS] [1, 2]",
            "[TOOL_CALLS] []",
            r#"[TOOL_CALLS] [{"name": "weather", "arguments": {}}] and more"#,
            r#"[TOOL_CALLS] [{"name": "weather"}]"#,
            r#"[TOOL_CALLS] [{"name": "weather", "arguments": {"#,
        ] {
            assert_eq!(parse(text), (text.to_string(), Vec::new()), "{text}");
        }
    }

    #[test]
    fn output_is_held_until_it_cannot_be_calls() {
        for (text, held) in [
            ("", 0),
            (" [", 0),
            ("[TOOL_CA", 0),
            ("[TOOL_CALLS] [{", 0),
            ("[1", 2),
            ("Sun", 3),
            (" {", 2),
        ] {
            assert_eq!(held_from(text), held, "{text:?}");
        }
    }

    /// Where `[TOOL_CALLS]` is a control token the grammar asks for that token first (not
    /// its text), and the output, decoded showing that one control token, reads back as the
    /// calls.
    #[test]
    fn a_control_token_marker_is_written_as_the_token_and_read_back() {
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
        let shown = crate::tokenizer::DecodeStream::showing(true, Some(marker))
            .step_all(&tok, &output)
            .unwrap();
        assert_eq!(shown, format!("{MARKER}{goal}"));
        assert_eq!(parse(&shown).1, vec![call("f", "{}")]);
        assert_eq!(ToolFormat::Mistral.shown_token(&tok), Some(marker));
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
