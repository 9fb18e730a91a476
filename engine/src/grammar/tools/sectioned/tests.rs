use super::super::tests::call;
use super::*;
use crate::grammar::{GrammarSpec, ToolChoice, ToolFormat};

const FORMATS: [(ToolFormat, &Section); 3] = [
    (ToolFormat::DeepSeekV31, &DEEPSEEK),
    (ToolFormat::DeepSeekV3, &DEEPSEEK_FENCED),
    (ToolFormat::KimiK2, &KIMI_K2),
];

/// Two calls as each family's templates write them.
fn two_calls(s: &Section) -> String {
    render_calls(
        &[call("weather", r#"{"city":"Paris"}"#), call("time", "{}")],
        s,
    )
}

#[test]
fn calls_as_the_templates_write_them_are_read() {
    let both = vec![call("weather", r#"{"city":"Paris"}"#), call("time", "{}")];
    // The exact text of DeepSeek V3.1's, R1's and Kimi K2's templates.
    let v31 = "Sure.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let r1 = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let kimi = "Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_call_begin|>functions.time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
    assert_eq!(parse(v31, &DEEPSEEK), ("Sure.".into(), both.clone()));
    assert_eq!(parse(r1, &DEEPSEEK_FENCED), (String::new(), both.clone()));
    assert_eq!(parse(kimi, &KIMI_K2), ("Sure.".into(), both.clone()));
    for (format, s) in FORMATS {
        assert_eq!(
            parse(&two_calls(s), s),
            (String::new(), both.clone()),
            "{format:?}"
        );
        // The format's parse is this one.
        assert_eq!(format.parse(&two_calls(s), &[]).1, both, "{format:?}");
    }
    // Rendered back as written, the arguments compact.
    let compact = |text: &str| text.replace("\"city\": ", "\"city\":");
    assert_eq!(
        render_calls(&both, &DEEPSEEK),
        compact(&v31["Sure.".len()..])
    );
    assert_eq!(render_calls(&both, &DEEPSEEK_FENCED), compact(r1));
    assert_eq!(
        render_calls(&both, &KIMI_K2),
        compact(&kimi["Sure.".len()..])
    );
    // Blank space around the markers and fences, a Kimi call without its prefix, a marker's
    // text inside an argument.
    let loose = "<｜tool▁calls▁begin｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>time\n```json\n{}```\n<｜tool▁call▁end｜>";
    assert_eq!(parse(loose, &DEEPSEEK_FENCED).1, vec![call("time", "{}")]);
    let bare = "<|tool_calls_section_begin|><|tool_call_begin|>time:0<|tool_call_argument_begin|>{\"a\": \"<|tool_call_end|>\"}<|tool_call_end|>";
    assert_eq!(
        parse(bare, &KIMI_K2).1,
        vec![call("time", r#"{"a":"<|tool_call_end|>"}"#)]
    );
}

#[test]
fn what_is_no_call_is_content_and_a_cut_call_stays_text() {
    for text in [
        "Sunny.",
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>weather{\"city\": \"Paris\"}<｜tool▁call▁end｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>two words<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>weather<｜tool▁sep｜>[1]<｜tool▁call▁end｜>",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>weather<｜tool▁sep｜>{}",
    ] {
        assert_eq!(parse(text, &DEEPSEEK), (text.to_string(), Vec::new()), "{text}");
    }
    // Kimi's calls carry their number.
    let unnumbered = "<|tool_calls_section_begin|><|tool_call_begin|>functions.time<|tool_call_argument_begin|>{}<|tool_call_end|>";
    assert!(parse(unnumbered, &KIMI_K2).1.is_empty());
    // Calls read before a cut stay calls; the rest is content on a line of its own.
    let cut = "Look. <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁call▁begin｜>weather<｜tool▁sep｜>{\"ci";
    let (content, calls) = parse(cut, &DEEPSEEK);
    assert_eq!(calls, vec![call("time", "{}")]);
    assert_eq!(
        content,
        "Look.\n<｜tool▁call▁begin｜>weather<｜tool▁sep｜>{\"ci"
    );
}

#[test]
fn text_is_sent_up_to_the_sections_marker() {
    let format = ToolFormat::DeepSeekV31;
    assert_eq!(format.held_from("Hi <｜tool▁calls", 0), 3);
    assert_eq!(format.held_from("Hi<｜tool▁calls▁begin｜><", 0), 2);
    assert_eq!(format.held_from("Hi there", 0), 8);
    assert_eq!(ToolFormat::KimiK2.held_from("a <|tool_calls_sec", 0), 2);
}

/// The grammar walked token by token, with the markers as control tokens and as text: the
/// calls it allows read back, and under `auto` text before them does too.
#[test]
fn the_grammar_writes_calls_that_read_back() {
    let answer = GrammarSpec::JsonSchema(serde_json::json!({
        "type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}));
    for (format, s) in FORMATS {
        let control = crate::tokenizer::tests::small_tokenizer_with_controls(s.markers);
        let plain = crate::tokenizer::tests::small_tokenizer_with_controls(&[]);
        let one = render_calls(&[call("f", r#"{"a":1}"#)], s);
        let two = render_calls(&[call("f", r#"{"a":1}"#), call("g", "{}")], s);
        for (tok, marked) in [(control, true), (plain, false)] {
            let tok = std::sync::Arc::new(tok);
            assert_eq!(control_tokens(s, &tok).len(), if marked { 5 } else { 0 });
            let walk_as = |as_tokens, auto, parallel, answer, goal: &str| {
                walk(format, &tok, as_tokens, auto, parallel, answer, goal)
            };
            let walk =
                |auto, parallel, answer, goal: &str| walk_as(marked, auto, parallel, answer, goal);
            // The small test vocabulary has no tokens to write DeepSeek's `｜` as text where
            // the grammar does not force it: its markers as text are walked under `required`
            // only.
            let free = marked || s.open.is_ascii();
            for (auto, lead) in [(false, ""), (true, "Hi there."), (true, "")] {
                if auto && !free {
                    continue;
                }
                let goal = format!("{lead}{two}");
                let text = walk(auto, true, None, &goal)
                    .unwrap_or_else(|e| panic!("{format:?} marked {marked} auto {auto}: {e}"));
                assert_eq!(text, goal, "{format:?} marked {marked}, auto {auto}");
                let expected = vec![call("f", r#"{"a":1}"#), call("g", "{}")];
                assert_eq!(parse(&text, s), (lead.to_string(), expected));
            }
            // One call only, without `parallel`; arguments held to the schema.
            for auto in [false, true].into_iter().filter(|&auto| free || !auto) {
                assert_eq!(walk(auto, false, None, &one).unwrap(), one);
                assert!(walk(auto, false, None, &two).is_err(), "{format:?}");
            }
            let wrong = render_calls(&[call("f", r#"{"a":"x"}"#)], s);
            assert!(walk(false, true, None, &wrong).is_err(), "{format:?}");
            if !free {
                continue;
            }
            // Beside a JSON answer: the answer, calls, or text that does not start with `{`.
            assert_eq!(
                walk(true, true, Some(&answer), "{\"x\":1}").unwrap(),
                "{\"x\":1}"
            );
            assert_eq!(walk(true, true, Some(&answer), &two).unwrap(), two);
            assert!(walk(true, true, Some(&answer), "{\"y\":1}").is_err());
            assert_eq!(walk(true, true, None, "Sunny.").unwrap(), "Sunny.");
            if marked {
                // The opening marker written as text is refused where it is a control token.
                let forged = walk_as(false, true, true, None, &format!("Hi {one}"));
                assert!(forged.is_err(), "{format:?} {forged:?}");
            }
        }
    }
}

/// Writes `goal` through `format`'s grammar over tools `f` (an integer `a`) and `g`;
/// returns the output text, markers shown, or the text at which the next token (or the end)
/// was refused. With `as_tokens`, markers are written as their control tokens.
fn walk(
    format: ToolFormat,
    tok: &std::sync::Arc<Tokenizer>,
    as_tokens: bool,
    auto: bool,
    parallel: bool,
    answer: Option<&GrammarSpec>,
    goal: &str,
) -> Result<String, String> {
    let tools = super::super::tests::walk_tools();
    let choice = if auto {
        ToolChoice::Auto
    } else {
        ToolChoice::Required
    };
    let spec = format
        .grammar(&tools, &choice, parallel, answer, tok)
        .unwrap();
    let section = format.section().unwrap();
    let markers: &[&str] = if as_tokens { section.markers } else { &[] };
    crate::grammar::walk::walk(tok, &spec, goal, markers, &format.shown_tokens(tok))
}

#[test]
fn the_announcement_shows_the_call_shape() {
    let tools = [ToolFunction {
        name: "weather".into(),
        description: Some("The weather.".into()),
        parameters: serde_json::json!({"type": "object"}),
    }];
    let text = ToolFormat::DeepSeekV31.announcement(&tools);
    assert!(
        text.contains("### weather\nDescription: The weather."),
        "{text}"
    );
    assert!(text.contains("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜><｜tool▁calls▁end｜>"), "{text}");
}
