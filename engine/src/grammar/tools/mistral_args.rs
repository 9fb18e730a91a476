//! Mistral's later tool calls (tokenizer v11 on: Mistral Small 3.2, Magistral, Devstral,
//! Ministral 3): each call is `[TOOL_CALLS]`, the function's name, `[ARGS]` and its arguments
//! as a JSON object, after text or alone,
//!
//! ```text
//! Let me look.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}
//! ```
//!
//! Templates write a `[CALL_ID]` and the call's id between the name and `[ARGS]` in earlier
//! turns; reading skips it. The markers are control tokens in those vocabularies: the grammar
//! names them by id and the output text keeps them (`shown_control_tokens`). Where the
//! vocabulary has no such tokens, they are text.

use super::{ToolCall, ToolFunction};
use crate::grammar::structural_tag::{lark_string, regex_escape};
use crate::grammar::{compact, strict};
use crate::tokenizer::Tokenizer;
use serde_json::Value;

/// What opens each call.
pub(super) const CALL_OPEN: &str = "[TOOL_CALLS]";
/// What follows the name, before the arguments.
pub(super) const ARGS: &str = "[ARGS]";
/// What earlier turns write before a call's id (between the name and `[ARGS]`).
pub(super) const CALL_ID: &str = "[CALL_ID]";

/// The markers that are control tokens in `vocab`: the output text must show them.
pub(super) fn control_tokens(vocab: &Tokenizer) -> Vec<u32> {
    [CALL_OPEN, ARGS, CALL_ID]
        .into_iter()
        .filter_map(|marker| control_token(marker, vocab))
        .collect()
}

fn control_token(marker: &str, vocab: &Tokenizer) -> Option<u32> {
    vocab.token_id(marker).filter(|&id| vocab.is_special(id))
}

/// `marker` in a grammar: its control token, or its text.
fn lark_marker(marker: &str, vocab: &Tokenizer) -> String {
    match control_token(marker, vocab) {
        Some(id) => format!("<[{id}]>"),
        None => lark_string(marker),
    }
}

/// Calls of one of `calls`: alone (`auto` false), several when `parallel`; under `auto`
/// after free text, or `answer` (a JSON schema) instead of calls.
pub(super) fn grammar(
    calls: &[&ToolFunction],
    auto: bool,
    parallel: bool,
    answer: Option<Value>,
    vocab: &Tokenizer,
) -> String {
    let args = lark_marker(ARGS, vocab);
    let mut rules = String::new();
    let mut choices = Vec::with_capacity(calls.len());
    for (i, tool) in calls.iter().enumerate() {
        let schema = compact(&strict(&tool.parameters));
        rules.push_str(&format!(
            "fn_{i}: {} {args} %json {schema}\n",
            lark_string(&tool.name)
        ));
        choices.push(format!("fn_{i}"));
    }
    let open = lark_marker(CALL_OPEN, vocab);
    rules.push_str(&format!(
        "call: {open} function\nfunction: {}\n",
        choices.join(" | ")
    ));
    let calls = if parallel { "call+" } else { "call" };
    if !auto {
        return format!("start: {calls}\n{rules}");
    }
    // Beside an answer, text never starts with `{` (a space may lead, as SentencePiece
    // words carry one): the first character tells the answer from text.
    let (answer_choice, answer_rule, lead) = match answer {
        Some(answer) => (
            " | answer",
            format!("answer: %json {}\n", compact(&answer)),
            " ?[^{\\s]",
        ),
        None => ("", String::new(), ""),
    };
    // Text never holds the marker's text, so every call read is one the grammar checked.
    let marker = regex_escape(CALL_OPEN);
    if control_token(CALL_OPEN, vocab).is_some() {
        // The control token cannot be part of text: text ends where it comes.
        return format!(
            "start: {calls} | TEXT | TEXT {calls}{answer_choice}\n{answer_rule}\
             TEXT: /{lead}(.|\\n)*/ & ~/(.|\\n)*{marker}(.|\\n)*/\n{rules}"
        );
    }
    // The marker as text: calls are found lazily at the first one (a greedy text lexeme
    // would swallow it).
    let more = if parallel { " call*" } else { "" };
    let lead_text = match lead {
        "" => "(.|\\n)*".to_string(),
        lead => format!("({lead}(.|\\n)*)?"),
    };
    format!(
        "start: first_call{more} | TEXT{answer_choice}\n{answer_rule}\
         TEXT: /{lead}(.|\\n)*/ & ~/(.|\\n)*{marker}(.|\\n)*/\n\
         LEAD: /{lead_text}/\n\
         first_call: call_trigger function\ncall_trigger[lazy]: LEAD {open}\n{rules}"
    )
}

/// The content (the text before the first call) and the calls, when everything from the
/// first marker on is calls; else all of it is content.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    let none = || (text.to_string(), Vec::new());
    let Some(first) = text.find(CALL_OPEN) else {
        return none();
    };
    let mut calls = Vec::new();
    let mut rest = &text[first..];
    while !rest.is_empty() {
        let Some((call, after)) = rest.strip_prefix(CALL_OPEN).and_then(read_call) else {
            return none();
        };
        calls.push(call);
        rest = after.trim_start();
    }
    (text[..first].trim_end().to_string(), calls)
}

/// One call after its `[TOOL_CALLS]`: the name (an id after `[CALL_ID]` skipped), `[ARGS]`
/// and one JSON object; and the text after it.
fn read_call(body: &str) -> Option<(ToolCall, &str)> {
    let (head, arguments) = body.split_once(ARGS)?;
    let name = head.split(CALL_ID).next()?.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let mut values = serde_json::Deserializer::from_str(arguments).into_iter::<Value>();
    let value = values.next()?.ok()?;
    value.is_object().then(|| {
        let call = ToolCall {
            name: name.to_string(),
            arguments: value.to_string(),
        };
        (call, &arguments[values.byte_offset()..])
    })
}

/// Earlier calls as the model writes them.
pub(super) fn render_calls(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| {
            let arguments = super::arguments_json(c);
            format!("{CALL_OPEN}{}{ARGS}{arguments}", c.name)
        })
        .collect()
}

/// The tools and the call syntax, for a template without them.
pub(super) fn announcement(tools: &[ToolFunction]) -> String {
    let list: Vec<Value> = tools.iter().map(super::tool_json).collect();
    format!(
        "You may call these functions:\n{}\n\nTo call a function, write {CALL_OPEN}, its \
         name, {ARGS} and its arguments as a JSON object; one such group for each call, \
         after them nothing.",
        Value::Array(list)
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::*;

    #[test]
    fn calls_after_text_are_read_and_render_back() {
        let text = "Let me look.[TOOL_CALLS]weather[ARGS]{\"city\": \"Paris\"}\
                    [TOOL_CALLS]time[ARGS]{}";
        let both = vec![call("weather", r#"{"city":"Paris"}"#), call("time", "{}")];
        assert_eq!(parse(text), ("Let me look.".to_string(), both.clone()));
        assert_eq!(parse(&render_calls(&both)), (String::new(), both.clone()));
        // An earlier turn's id is skipped; a marker inside an argument is data.
        let with_id = "[TOOL_CALLS]weather[CALL_ID]a1B2c3D4e[ARGS]{\"city\": \"[ARGS]\"}\n";
        assert_eq!(
            parse(with_id).1,
            vec![call("weather", r#"{"city":"[ARGS]"}"#)]
        );
        // Anything but calls after the first marker leaves all of it text.
        for text in [
            "Sunny.",
            "[TOOL_CALLS]weather{\"city\": \"Paris\"}",
            "[TOOL_CALLS]weather[ARGS][1]",
            "[TOOL_CALLS][ARGS]{}",
            "[TOOL_CALLS]two words[ARGS]{}",
            "[TOOL_CALLS]weather[ARGS]{} and more",
            "[TOOL_CALLS]weather[ARGS]{\"city\": ",
        ] {
            assert_eq!(parse(text), (text.to_string(), Vec::new()), "{text}");
        }
    }

    /// The grammar walked token by token, with the markers as control tokens and as text:
    /// the calls it allows read back, and under `auto` text before them does too.
    #[test]
    fn the_grammar_writes_calls_that_read_back() {
        let control = crate::tokenizer::tests::small_tokenizer_with_controls(&[CALL_OPEN, ARGS]);
        let plain = crate::tokenizer::tests::small_tokenizer_with_controls(&[]);
        for (tok, marked) in [(control, true), (plain, false)] {
            let tok = std::sync::Arc::new(tok);
            assert_eq!(control_tokens(&tok).len(), if marked { 2 } else { 0 });
            let goal = "[TOOL_CALLS]f[ARGS]{\"a\":1}[TOOL_CALLS]g[ARGS]{}";
            for (auto, lead) in [(false, ""), (true, "Hi there."), (true, "")] {
                let text = walk(&tok, auto, &format!("{lead}{goal}"), marked).unwrap();
                assert_eq!(
                    text,
                    format!("{lead}{goal}"),
                    "marked {marked}, auto {auto}"
                );
                let expected = vec![call("f", r#"{"a":1}"#), call("g", "{}")];
                assert_eq!(parse(&text), (lead.to_string(), expected));
            }
            // Free text ends an `auto` output; the marker written as text in it is refused
            // where the marker is a control token (calls go through the grammar's checks).
            assert_eq!(walk(&tok, true, "Sunny.", marked).unwrap(), "Sunny.");
            if marked {
                let forged = walk(&tok, true, "Hi [TOOL_CALLS]f[ARGS]{}", false);
                assert!(forged.is_err(), "{forged:?}");
            }
        }
    }

    /// Writes `goal` through the grammar (with `as_tokens`, markers as their control tokens
    /// where `tok` has them); returns the output text, markers shown, or the text at which
    /// the next token was refused.
    fn walk(
        tok: &std::sync::Arc<Tokenizer>,
        auto: bool,
        goal: &str,
        as_tokens: bool,
    ) -> Result<String, String> {
        use crate::grammar::{GrammarLimits, Grammars, Step, ToolChoice};
        use crate::tokenizer::DecodeStream;
        let tool = |name: &str, schema: Value| ToolFunction {
            name: name.into(),
            description: None,
            parameters: schema,
        };
        let tools = [
            tool(
                "f",
                serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}},
                                   "required": ["a"]}),
            ),
            tool("g", serde_json::json!({"type": "object", "properties": {}})),
        ];
        let choice = if auto {
            ToolChoice::Auto
        } else {
            ToolChoice::Required
        };
        let spec = super::super::ToolFormat::MistralArgs
            .grammar(&tools, &choice, true, None, tok)
            .unwrap();
        let grammars = Grammars::new(tok.clone(), tok.vocab_size(), GrammarLimits::default());
        let mut constraint = grammars
            .compile(&spec, &radix::Namespace::global())
            .unwrap();
        let shown = control_tokens(tok);
        let allowed = |mask: &[u32], t: u32| (mask[t as usize / 32] >> (t % 32)) & 1 == 1;
        let mut output: Vec<u32> = Vec::new();
        let text = |output: &[u32]| {
            DecodeStream::showing(true, shown.clone())
                .step_all(tok, output)
                .unwrap()
        };
        loop {
            let written = text(&output);
            let rest = goal
                .strip_prefix(written.as_str())
                .unwrap_or_else(|| panic!("{written:?} is not a start of {goal:?}"));
            let mask = constraint.compute_mask().unwrap();
            if rest.is_empty() {
                let eos = tok.eos_token_id().unwrap();
                assert!(allowed(&mask, eos), "the output may end at {written:?}");
                return Ok(written);
            }
            // Text up to the next marker that is a control token, or that token.
            let marker = [CALL_OPEN, ARGS]
                .into_iter()
                .filter(|_| as_tokens)
                .filter_map(|m| Some((rest.find(m)?, control_token(m, tok)?)))
                .min();
            let next = match marker {
                Some((0, id)) => id,
                Some((at, _)) => tok.encode_without_bos_eos(&rest[..at], false).unwrap()[0],
                None => tok.encode_without_bos_eos(rest, false).unwrap()[0],
            };
            if !allowed(&mask, next) {
                return Err(written);
            }
            output.push(next);
            let (Step::Continue { forced } | Step::Done { forced }) =
                constraint.advance(next).unwrap();
            output.extend(forced);
        }
    }

    #[test]
    fn text_is_sent_up_to_a_marker() {
        assert_eq!(super::super::held_before("Hi [TOOL_CA", 0, CALL_OPEN), 3);
        assert_eq!(
            super::super::held_before("Hi[TOOL_CALLS]f", 0, CALL_OPEN),
            2
        );
        assert_eq!(super::super::held_before("Hi there", 0, CALL_OPEN), 8);
    }
}
