use super::super::tests::{call, typed_weather as weather, walk_calls, walk_tools};
use super::*;
use crate::grammar::{GrammarSpec, ToolFormat};
use serde_json::json;

#[test]
fn calls_as_glm_writes_them_are_read_and_typed_by_their_schema() {
    let tools = [weather()];
    // GLM-4.5/4.6's lines, then GLM-4.7's without them; a string keeps its lines and tags.
    let text = "Let me look.\n<tool_call>weather\n<arg_key>city</arg_key>\n<arg_value>São\nPaulo <b></arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n<arg_key>units</arg_key>\n<arg_value>[\"c\", \"</arg_value>\"]</arg_value>\n</tool_call>\n<tool_call>weather<arg_key>city</arg_key><arg_value>12</arg_value></tool_call>";
    let (content, calls) = parse(text, &tools);
    assert_eq!(content, "Let me look.");
    assert_eq!(
        calls,
        vec![
            call(
                "weather",
                r#"{"city":"São\nPaulo <b>","days":3,"units":["c","</arg_value>"]}"#
            ),
            call("weather", r#"{"city":"12"}"#),
        ]
    );
    assert_eq!(
        parse(&render_calls(&calls), &tools).1,
        calls,
        "rendered back"
    );
    // A call without arguments, and an argument the schema does not name (text).
    let bare = "<tool_call>time</tool_call> <tool_call>weather<arg_key>x</arg_key><arg_value>1</arg_value></tool_call>";
    assert_eq!(
        parse(bare, &tools).1,
        vec![call("time", "{}"), call("weather", r#"{"x":"1"}"#)]
    );
    for text in [
        "Sunny.",
        "<tool_call>two words</tool_call>",
        "<tool_call>weather<arg_key>city</arg_key>Paris</tool_call>",
        "<tool_call>weather<arg_key>city</arg_key><arg_value>Paris",
    ] {
        assert_eq!(
            parse(text, &tools),
            (text.to_string(), Vec::new()),
            "{text}"
        );
    }
}

#[test]
fn arguments_stream_once_whole_and_a_cut_one_is_not_sent() {
    let tools = [weather()];
    let text = "<tool_call>weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3";
    let so_far = calls_so_far(text, &tools);
    assert_eq!(so_far.len(), 1);
    assert_eq!(so_far[0].arguments, r#"{"city":"Paris""#);
    // A JSON value holding the end tag in a string is not read as text up to it.
    let cut = "<tool_call>weather<arg_key>units</arg_key><arg_value>[\"</arg_value>";
    assert_eq!(calls_so_far(cut, &tools)[0].arguments, "{");
    // The name goes once it is whole.
    assert!(calls_so_far("<tool_call>weat", &tools).is_empty());
    assert_eq!(
        calls_so_far("<tool_call>weather\n", &tools)[0].name,
        "weather"
    );
}

/// The grammar walked token by token: the calls it allows read back, and under `auto` text
/// before them does too; values held to their schemas.
#[test]
fn the_grammar_writes_calls_that_read_back() {
    let tools = walk_tools();
    let walk = |auto: bool, parallel: bool, answer: Option<&GrammarSpec>, goal: &str| {
        walk_calls(ToolFormat::GlmXml, (auto, parallel), answer, goal)
    };
    let newlines = "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>\n<tool_call>g\n</tool_call>";
    let plain = "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call><tool_call>g</tool_call>";
    let expected = vec![call("f", r#"{"a":1}"#), call("g", "{}")];
    for two in [newlines, plain] {
        for (auto, lead) in [(false, ""), (true, "Hi there.\n"), (true, "")] {
            let goal = format!("{lead}{two}");
            assert_eq!(walk(auto, true, None, &goal).as_deref(), Ok(goal.as_str()));
            let content = lead.trim().to_string();
            assert_eq!(parse(&goal, &tools), (content, expected.clone()));
        }
    }
    let one = "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>";
    assert_eq!(walk(false, false, None, one).as_deref(), Ok(one));
    // GLM-4.5 and 4.6 write a line break before a call: a forced one may start with it.
    let broken = format!("\n{one}");
    assert_eq!(walk(false, false, None, &broken), Ok(broken.clone()));
    assert!(walk(false, false, None, plain).is_err(), "one call only");
    for wrong in [
        "<tool_call>f<arg_key>a</arg_key><arg_value>x</arg_value></tool_call>",
        "<tool_call>f</tool_call>",
        "<tool_call>h</tool_call>",
    ] {
        assert!(walk(false, true, None, wrong).is_err(), "{wrong}");
    }
    let answer = GrammarSpec::JsonSchema(json!({
        "type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}));
    assert_eq!(
        walk(true, true, Some(&answer), "{\"x\":1}").as_deref(),
        Ok("{\"x\":1}")
    );
    assert_eq!(walk(true, true, None, "Sunny.").as_deref(), Ok("Sunny."));
}

#[test]
fn the_announcement_shows_glms_call_shape() {
    let text = ToolFormat::GlmXml.announcement(&[weather()]);
    assert!(text.contains("<tools>\n{\"type\":\"function\""), "{text}");
    assert!(text.contains("<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>"));
}
