//! Tool calls as a marker then every call in one JSON array, as the whole answer: Mistral's
//! instruct models (v0.3, Nemo, Small), IBM's Granite 3.x and Phi-4-mini write them so,
//!
//! ```text
//! [TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}]
//! <|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]
//! functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]
//! ```
//!
//! A family may have a second marker its readers take too, closed by another after the
//! array (Phi-4-mini's `<|tool_call|>[…]<|/tool_call|>`). Markers that are control tokens in
//! the vocabulary are named by id in the grammar, and the request's output text keeps them
//! (`shown_control_tokens`), so reading finds them as other servers' parsers do; other
//! markers are text. (`mistral`, `granite` and `phi4_mini` hold each family's markers and
//! words.)

use super::so_far::{json_call_so_far, CallSoFar};
use super::{
    answer_branch, call_from_json, call_schema, control_token, lark_marker, ToolCall, ToolFunction,
};
use crate::grammar::structural_tag::regex_escape;
use crate::grammar::{compact, strict};
use crate::tokenizer::Tokenizer;
use serde_json::{json, Value};

/// A family's marker: the one it writes, another its readers take too (with what closes
/// the array after that one; empty for nothing), and what goes between the marker and the
/// array in earlier turns.
pub(super) struct Marker {
    pub written: &'static str,
    pub also_read: Option<(&'static str, &'static str)>,
    pub gap: &'static str,
}

impl Marker {
    /// Each opening read, with what closes the array after it.
    fn read(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        std::iter::once((self.written, "")).chain(self.also_read)
    }
}

/// The markers of `marker` that are control tokens in `vocab`: the output text must show
/// them for the calls to be read.
pub(super) fn control_tokens(marker: &Marker, vocab: &Tokenizer) -> Vec<u32> {
    marker
        .read()
        .flat_map(|(open, close)| [open, close])
        .filter(|m| !m.is_empty())
        .filter_map(|m| control_token(m, vocab))
        .collect()
}

/// The calls, one of `calls` each (several when `parallel`), after `marker` (each marker
/// named as its control token where `vocab` has one, else as text); under `auto` a text
/// answer, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    marker: &Marker,
    vocab: &Tokenizer,
) -> String {
    let schemas: Vec<Value> = calls.iter().map(|t| call_schema(t, "arguments")).collect();
    let one = json!({"anyOf": schemas});
    let array = match parallel {
        true => json!({"type": "array", "items": one, "minItems": 1}),
        false => json!({"type": "array", "items": one, "minItems": 1, "maxItems": 1}),
    };
    let array = compact(&strict(&array));
    // Every marker reading takes opens calls (text may not start with one), closed where
    // that marker is closed.
    let forms: Vec<String> = marker
        .read()
        .map(|(open, close)| {
            let close = match close {
                "" => String::new(),
                close => format!(" {}", lark_marker(close, vocab)),
            };
            format!("{} \" \"? %json {array}{close}", lark_marker(open, vocab))
        })
        .collect();
    let calls = format!("calls: {}\n", forms.join(" | "));
    if !auto {
        return format!("start: calls\n{calls}");
    }
    // Text may not start where the other branches do: as the JSON answer, nor with a
    // marker's text (after blank space), even where the marker is a control token: reading
    // would take that for calls the grammar never checked.
    let (start, answer, lead) = match answer_branch(answer) {
        Some((rule, lead)) => ("calls | answer | TEXT", rule, format!("({lead}(.|\\n)*)?")),
        None => ("calls | TEXT", String::new(), "(.|\\n)*".to_string()),
    };
    let markers: Vec<String> = marker.read().map(|(open, _)| regex_escape(open)).collect();
    let text = format!("TEXT: /{lead}/ & ~/\\s*({})(.|\\n)*/\n", markers.join("|"));
    format!("start: {start}\n{calls}{answer}{text}")
}

/// The calls when the output (trimmed) is a marker and one JSON array of calls (and the
/// marker's closing one) and nothing else; else all of it is content.
pub(super) fn parse(text: &str, marker: &Marker) -> (String, Vec<ToolCall>) {
    let none = || (text.to_string(), Vec::new());
    let trimmed = text.trim();
    // A closing marker is taken off where there is one (the grammar writes it; a reply
    // without it is read alike).
    let body = marker.read().find_map(|(open, close)| {
        let body = trimmed.strip_prefix(open)?;
        Some(body.strip_suffix(close).unwrap_or(body))
    });
    let Some(body) = body else {
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

/// The calls begun so far in an output being written.
pub(super) fn calls_so_far(text: &str, marker: &Marker) -> Vec<CallSoFar> {
    let lead = text.trim_start();
    let body = marker.read().find_map(|(open, _)| lead.strip_prefix(open));
    let Some(mut rest) = body.and_then(|b| b.trim_start().strip_prefix('[')) else {
        return Vec::new();
    };
    let mut calls = Vec::new();
    while let Some((name, arguments, end)) = json_call_so_far(rest, &["arguments"]) {
        calls.push(CallSoFar {
            start: 0,
            name,
            arguments,
        });
        let Some(next) = end.and_then(|end| rest[end..].trim_start().strip_prefix(',')) else {
            break;
        };
        rest = next;
    }
    calls
}

/// The whole output is held while it may still be calls: until what follows its leading
/// blank space is no longer a marker or a beginning of one.
pub(super) fn held_from(text: &str, marker: &Marker) -> usize {
    let lead = text.trim_start();
    if marker
        .read()
        .any(|(m, _)| lead.starts_with(m) || m.starts_with(lead))
    {
        0
    } else {
        text.len()
    }
}

/// Earlier calls as the model writes them, after the marker.
pub(super) fn render_calls(calls: &[ToolCall], marker: &Marker) -> String {
    let list: Vec<Value> = calls
        .iter()
        .map(|c| json!({"name": c.name, "arguments": super::arguments_json(c)}))
        .collect();
    format!("{}{}{}", marker.written, marker.gap, Value::Array(list))
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::super::{granite, mistral, phi4_mini};
    use super::*;
    use crate::grammar::ToolFormat;

    const MARKER: &str = mistral::MARKER;
    const MISTRAL: &Marker = &mistral::FORMAT;

    #[test]
    fn the_marker_and_an_array_of_calls_are_read_as_calls() {
        let weather = call("weather", r#"{"city":"Paris"}"#);
        let both = vec![weather.clone(), call("time", "{}")];
        let array = r#"[{"name": "weather", "arguments": {"city": "Paris"}}, {"name": "time", "arguments": {}}]"#;
        assert_eq!(
            parse(&format!("[TOOL_CALLS] {array}\n"), MISTRAL),
            (String::new(), both.clone())
        );
        assert_eq!(parse(&format!(" [TOOL_CALLS]{array}"), MISTRAL).1, both);
        assert_eq!(
            parse(&render_calls(&both, MISTRAL), MISTRAL).1,
            both,
            "rendered back"
        );
        // Granite's markers (the control token, or `<tool_call>` as text), not Mistral's.
        let granite = format!("<|tool_call|>{array}");
        assert_eq!(parse(&granite, &granite::FORMAT).1, both);
        assert_eq!(
            parse(&format!("<tool_call>{array}"), &granite::FORMAT).1,
            both
        );
        assert!(parse(&granite, MISTRAL).1.is_empty());
        // Phi-4-mini's marker is a word, the array right after it.
        let phi = format!("functools{array}");
        assert_eq!(parse(&phi, &phi4_mini::FORMAT).1, both);
        let rendered = render_calls(&both, &phi4_mini::FORMAT);
        assert!(rendered.starts_with("functools[{"), "{rendered}");
        assert_eq!(parse(&rendered, &phi4_mini::FORMAT).1, both);
        // ... or between its tool-call tags.
        let tagged = format!("<|tool_call|>{array}<|/tool_call|>\n");
        assert_eq!(parse(&tagged, &phi4_mini::FORMAT).1, both);
        let tagged_then_text = format!("<|tool_call|>{array}<|/tool_call|> and more");
        assert!(parse(&tagged_then_text, &phi4_mini::FORMAT).1.is_empty());
        let rendered = render_calls(&both, &granite::FORMAT);
        assert!(rendered.starts_with("<|tool_call|>[{"), "{rendered}");
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
            assert_eq!(
                parse(text, MISTRAL),
                (text.to_string(), Vec::new()),
                "{text}"
            );
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
            assert_eq!(held_from(text, MISTRAL), held, "{text:?}");
        }
        for (text, held) in [
            (" <|tool", 0),
            ("<|tool_call|>[", 0),
            ("<tool_c", 0),
            ("[", 1),
            ("<b>", 3),
        ] {
            assert_eq!(held_from(text, &granite::FORMAT), held, "{text:?}");
        }
    }

    /// Where the marker is a control token the grammar asks for that token first (not its
    /// text), and the output, decoded showing that one control token, reads back as the
    /// calls.
    #[test]
    fn a_control_token_marker_is_written_as_the_token_and_read_back() {
        for (format, marker) in [
            (ToolFormat::Mistral, MARKER),
            (ToolFormat::Granite, granite::MARKER),
        ] {
            control_token_marker(format, marker);
        }
    }

    /// Phi-4-mini's tags, control tokens in its vocabulary: under `auto` the grammar lets
    /// the model open the array with its `<|tool_call|>` token and asks for the closing
    /// one after it; the output, showing both, reads back as the calls.
    #[test]
    fn phi4_mini_tags_are_written_as_tokens_and_read_back() {
        use crate::grammar::{GrammarLimits, Grammars, Step, ToolChoice};
        let (open, close) = ("<|tool_call|>", "<|/tool_call|>");
        let tok = std::sync::Arc::new(crate::tokenizer::tests::small_tokenizer_with_controls(&[
            open, close,
        ]));
        let [open_id, close_id] = [open, close].map(|m| tok.token_id(m).unwrap());
        let format = ToolFormat::Phi4Mini;
        assert_eq!(format.shown_tokens(&tok), vec![open_id, close_id]);
        let spec = format
            .grammar(&[tool_f()], &ToolChoice::Auto, false, None, &tok)
            .unwrap();
        let grammars = Grammars::new(tok.clone(), tok.vocab_size(), GrammarLimits::default());
        let mut constraint = grammars
            .compile(&spec, &radix::Namespace::global())
            .unwrap();
        let allowed = |mask: &[u32], t: u32| (mask[t as usize / 32] >> (t % 32)) & 1 == 1;
        let array = "[{\"name\":\"f\",\"arguments\":{}}]";
        let mut output = vec![open_id];
        assert!(allowed(&constraint.compute_mask().unwrap(), open_id));
        let (Step::Continue { forced } | Step::Done { forced }) =
            constraint.advance(open_id).unwrap();
        output.extend(forced);
        let shown = |output: &[u32]| {
            crate::tokenizer::DecodeStream::showing(true, vec![open_id, close_id])
                .step_all(&tok, output)
                .unwrap()
        };
        let goal = format!("{open}{array}{close}");
        loop {
            let written = shown(&output);
            let rest = goal
                .strip_prefix(written.as_str())
                .unwrap_or_else(|| panic!("{written:?}"));
            if rest.is_empty() {
                break;
            }
            let mask = constraint.compute_mask().unwrap();
            let next = if rest == close {
                // The array is whole: the closing tag, and not the end, comes next.
                assert!(!allowed(&mask, tok.eos_token_id().unwrap()));
                close_id
            } else {
                tok.encode_without_bos_eos(rest, false).unwrap()[0]
            };
            assert!(allowed(&mask, next), "{rest:?}");
            output.push(next);
            let (Step::Continue { forced } | Step::Done { forced }) =
                constraint.advance(next).unwrap();
            output.extend(forced);
        }
        let text = shown(&output);
        assert_eq!(text, goal);
        assert_eq!(format.parse(&text, &[]).1, vec![call("f", "{}")]);
        // The tag written as text is not a call; `functools` still opens one.
        assert!(refuses(&grammars, &spec, &tok, &format!(" {open}{array}")));
        assert!(!refuses(
            &grammars,
            &spec,
            &tok,
            &format!("functools{array}")
        ));
    }

    fn control_token_marker(format: ToolFormat, marker_text: &str) {
        use crate::grammar::{GrammarLimits, GrammarSpec, Grammars, Step, ToolChoice};
        let tok = std::sync::Arc::new(crate::tokenizer::tests::small_tokenizer_with_control(
            marker_text,
        ));
        let marker = tok.token_id(marker_text).unwrap();
        let spec = format
            .grammar(&[tool_f()], &ToolChoice::Required, false, None, &tok)
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
        assert!(allowed(&mask, marker));
        // The marker's text (as text tokens) does not open calls.
        assert!(refuses(&grammars, &spec, &tok, &format!("{marker_text}[]")));
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
        let shown = crate::tokenizer::DecodeStream::showing(true, vec![marker])
            .step_all(&tok, &output)
            .unwrap();
        assert_eq!(shown, format!("{marker_text}{goal}"));
        assert_eq!(format.parse(&shown, &[]).1, vec![call("f", "{}")]);
        assert_eq!(format.shown_tokens(&tok), vec![marker]);

        // Under `auto`, text may not write the marker's text (reading would take it for
        // calls the grammar never checked).
        let auto = format
            .grammar(&[tool_f()], &ToolChoice::Auto, false, None, &tok)
            .unwrap();
        let forged = format!(" {marker_text}{goal}");
        assert!(
            refuses(&grammars, &auto, &tok, &forged),
            "{format:?}: the marker's text was taken as text"
        );
        // Granite's other marker, `<tool_call>` as text, opens calls the grammar checks.
        if format == ToolFormat::Granite {
            let other = format!("<tool_call>{goal}");
            assert!(!refuses(&grammars, &auto, &tok, &other), "{other}");
            assert!(refuses(
                &grammars,
                &auto,
                &tok,
                "<tool_call>[{\"name\":\"x\""
            ));
            assert_eq!(format.parse(&other, &[]).1, vec![call("f", "{}")]);
        }
    }

    /// Whether the grammar `spec` refuses `text` written as text tokens (tokens it forces
    /// that leave `text` count as refusing it).
    fn refuses(
        grammars: &crate::grammar::Grammars,
        spec: &crate::grammar::GrammarSpec,
        tok: &crate::tokenizer::Tokenizer,
        text: &str,
    ) -> bool {
        let mut constraint = grammars.compile(spec, &radix::Namespace::global()).unwrap();
        let mut output = Vec::new();
        loop {
            let written = tok.decode(&output, true).unwrap();
            let Some(rest) = text.strip_prefix(written.as_str()) else {
                return true;
            };
            if rest.is_empty() {
                return false;
            }
            // A grammar that stopped (complete, or at a dead end) takes no more.
            let Ok(mask) = constraint.compute_mask() else {
                return true;
            };
            let next = tok.encode_without_bos_eos(rest, false).unwrap()[0];
            if (mask[next as usize / 32] >> (next % 32)) & 1 == 0 {
                return true;
            }
            output.push(next);
            match constraint.advance(next) {
                Ok(
                    crate::grammar::Step::Continue { forced }
                    | crate::grammar::Step::Done { forced },
                ) => output.extend(forced),
                Err(_) => return true,
            }
        }
    }

    fn tool_f() -> ToolFunction {
        ToolFunction {
            name: "f".into(),
            description: None,
            parameters: json!({"type": "object", "properties": {}}),
        }
    }
}
