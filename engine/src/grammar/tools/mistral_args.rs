//! Mistral's later tool calls (tokenizer v11 on: Mistral Small 3.2, Magistral, Devstral,
//! Ministral 3): each call is `[TOOL_CALLS]`, the function's name, `[ARGS]` and its arguments
//! as a JSON object, after text or alone,
//!
//! ```text
//! Let me look.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}
//! ```
//!
//! Templates write a `[CALL_ID]` and the call's id (nine letters and digits) between the name
//! and `[ARGS]` in earlier turns, so a model may write one too: the grammar allows it and
//! reading skips it. The markers are control tokens in those vocabularies: the grammar
//! names them by id and the output text keeps them (`shown_control_tokens`). Where the
//! vocabulary has no such tokens, they are text.

use super::so_far::{arguments_so_far, CallSoFar};
use super::{answer_branch, control_token, lark_marker, ToolCall, ToolFunction};
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
    // Models trained on turns with ids may write one after the name, as those turns do.
    let mut rules = format!(
        "call_id: {} /[A-Za-z0-9]{{9}}/\n",
        lark_marker(CALL_ID, vocab)
    );
    let mut choices = Vec::with_capacity(calls.len());
    for (i, tool) in calls.iter().enumerate() {
        let schema = compact(&strict(&tool.parameters));
        rules.push_str(&format!(
            "fn_{i}: {} call_id? {args} %json {schema}\n",
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
    let (answer_choice, answer_rule, lead) = match answer_branch(answer) {
        Some((rule, lead)) => (" | answer", rule, lead),
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

/// The content and the calls: the text before the first call, then the calls read in turn;
/// what follows the last one read (an output cut short in a call) joins the content on a
/// line of its own. No call read: all of it is content.
pub(super) fn parse(text: &str) -> (String, Vec<ToolCall>) {
    let Some(first) = text.find(CALL_OPEN) else {
        return (text.to_string(), Vec::new());
    };
    let mut calls = Vec::new();
    let mut rest = &text[first..];
    while let Some((call, after)) = rest.strip_prefix(CALL_OPEN).and_then(read_call) {
        calls.push(call);
        rest = after.trim_start();
    }
    if calls.is_empty() {
        return (text.to_string(), calls);
    }
    let mut content = text[..first].trim_end().to_string();
    if !rest.is_empty() {
        if !content.is_empty() {
            content.push('\n');
        }
        content.push_str(rest.trim_end());
    }
    (content, calls)
}

/// The calls begun so far in an output being written: each once its name is whole (an id
/// or `[ARGS]` follows it).
pub(super) fn calls_so_far(text: &str) -> Vec<CallSoFar> {
    let mut calls = Vec::new();
    let Some(mut start) = text.find(CALL_OPEN) else {
        return calls;
    };
    loop {
        let body = &text[start + CALL_OPEN.len()..];
        let Some((head, arguments)) = body.split_once(ARGS) else {
            if let Some(name) = body
                .split_once(CALL_ID)
                .map(|(n, _)| n)
                .filter(|n| is_name(n))
            {
                calls.push(CallSoFar {
                    start,
                    name: name.to_string(),
                    arguments: String::new(),
                });
            }
            return calls;
        };
        let name = head.split(CALL_ID).next().unwrap_or_default();
        if !is_name(name) {
            return calls;
        }
        let Some((so_far, end)) = arguments_so_far(arguments) else {
            return calls;
        };
        calls.push(CallSoFar {
            start,
            name: name.to_string(),
            arguments: so_far,
        });
        let Some(rest) = end.map(|end| arguments[end..].trim_start()) else {
            return calls;
        };
        if !rest.starts_with(CALL_OPEN) {
            return calls;
        }
        start = text.len() - rest.len();
    }
}

/// A function's name as the chat API takes it (so no marker hides in one).
fn is_name(name: &str) -> bool {
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    !name.is_empty() && name.chars().all(name_char)
}

/// One call after its `[TOOL_CALLS]`: the name (an id after `[CALL_ID]` skipped), `[ARGS]`
/// and one JSON object; and the text after it.
fn read_call(body: &str) -> Option<(ToolCall, &str)> {
    let (head, arguments) = body.split_once(ARGS)?;
    let name = head.split(CALL_ID).next()?;
    if !is_name(name) {
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
    use crate::grammar::GrammarSpec;

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
        // No call read after the first marker leaves all of it text.
        for text in [
            "Sunny.",
            "[TOOL_CALLS]weather{\"city\": \"Paris\"}",
            "[TOOL_CALLS]weather[ARGS][1]",
            "[TOOL_CALLS][ARGS]{}",
            "[TOOL_CALLS]two words[ARGS]{}",
            "[TOOL_CALLS]f{}[TOOL_CALLS]g[ARGS]{}",
            "[TOOL_CALLS]weather[ARGS]{\"city\": ",
        ] {
            assert_eq!(parse(text), (text.to_string(), Vec::new()), "{text}");
        }
        // Calls read before a cut stay calls; the rest is content on a line of its own.
        let cut = "Look. [TOOL_CALLS]time[ARGS]{} [TOOL_CALLS]weather[ARGS]{\"ci";
        let rest = "Look.\n[TOOL_CALLS]weather[ARGS]{\"ci".to_string();
        assert_eq!(parse(cut), (rest, vec![call("time", "{}")]));
        let after = "[TOOL_CALLS]time[ARGS]{} and more";
        assert_eq!(parse(after), ("and more".into(), vec![call("time", "{}")]));
    }

    /// The grammar walked token by token, with the markers as control tokens and as text:
    /// the calls it allows read back, and under `auto` text before them does too.
    #[test]
    fn the_grammar_writes_calls_that_read_back() {
        let control =
            crate::tokenizer::tests::small_tokenizer_with_controls(&[CALL_OPEN, ARGS, CALL_ID]);
        let plain = crate::tokenizer::tests::small_tokenizer_with_controls(&[]);
        let one = "[TOOL_CALLS]f[ARGS]{\"a\":1}";
        let two = format!("{one}[TOOL_CALLS]g[ARGS]{{}}");
        let answer = GrammarSpec::JsonSchema(serde_json::json!({
            "type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}));
        for (tok, marked) in [(control, true), (plain, false)] {
            let tok = std::sync::Arc::new(tok);
            assert_eq!(control_tokens(&tok).len(), if marked { 3 } else { 0 });
            let shape = |auto, parallel, answer| Shape {
                tok: &tok,
                auto,
                parallel,
                answer,
                as_tokens: marked,
            };
            for (auto, lead) in [(false, ""), (true, "Hi there."), (true, "")] {
                let goal = format!("{lead}{two}");
                let text = shape(auto, true, None).walk(&goal).unwrap();
                assert_eq!(text, goal, "marked {marked}, auto {auto}");
                let expected = vec![call("f", r#"{"a":1}"#), call("g", "{}")];
                assert_eq!(parse(&text), (lead.to_string(), expected));
            }
            // An id after the name, as earlier turns write it, is allowed and skipped.
            let with_id = "[TOOL_CALLS]g[CALL_ID]a1B2c3D4e[ARGS]{}";
            assert_eq!(shape(false, true, None).walk(with_id).unwrap(), with_id);
            assert_eq!(parse(with_id).1, vec![call("g", "{}")]);
            assert!(shape(false, true, None)
                .walk("[TOOL_CALLS]g[CALL_ID]short[ARGS]{}")
                .is_err());
            // One call only, without `parallel`.
            for auto in [false, true] {
                assert_eq!(shape(auto, false, None).walk(one).unwrap(), one);
                assert!(shape(auto, false, None).walk(&two).is_err());
            }
            // Beside a JSON answer: the answer, calls, or text that does not start with `{`.
            let beside = shape(true, true, Some(&answer));
            assert_eq!(beside.walk("{\"x\":1}").unwrap(), "{\"x\":1}");
            assert_eq!(beside.walk(&two).unwrap(), two);
            assert_eq!(
                beside.walk(&format!("Hi.{one}")).unwrap(),
                format!("Hi.{one}")
            );
            assert!(beside.walk("{\"y\":1}").is_err());
            // Free text ends an `auto` output; the marker written as text in it is refused
            // where the marker is a control token (calls go through the grammar's checks).
            assert_eq!(shape(true, true, None).walk("Sunny.").unwrap(), "Sunny.");
            if marked {
                let forged = Shape {
                    as_tokens: false,
                    ..shape(true, true, None)
                };
                let forged = forged.walk("Hi [TOOL_CALLS]f[ARGS]{}");
                assert!(forged.is_err(), "{forged:?}");
            }
        }
    }

    /// A grammar to walk: `auto` or `required` over two tools, with `parallel` and `answer`;
    /// with `as_tokens`, markers are written as their control tokens where `tok` has them.
    #[derive(Clone, Copy)]
    struct Shape<'a> {
        tok: &'a std::sync::Arc<Tokenizer>,
        auto: bool,
        parallel: bool,
        answer: Option<&'a GrammarSpec>,
        as_tokens: bool,
    }

    impl Shape<'_> {
        /// Writes `goal` through the grammar; returns the output text, markers shown, or
        /// the text at which the next token (or the end) was refused.
        fn walk(&self, goal: &str) -> Result<String, String> {
            use crate::grammar::ToolChoice;
            let tok = self.tok;
            let tools = super::super::tests::walk_tools();
            let choice = if self.auto {
                ToolChoice::Auto
            } else {
                ToolChoice::Required
            };
            let spec = super::super::ToolFormat::MistralArgs
                .grammar(&tools, &choice, self.parallel, self.answer, tok)
                .unwrap();
            let markers: &[&str] = match self.as_tokens {
                true => &[CALL_OPEN, ARGS, CALL_ID],
                false => &[],
            };
            crate::grammar::walk::walk(tok, &spec, goal, markers, &control_tokens(tok))
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
