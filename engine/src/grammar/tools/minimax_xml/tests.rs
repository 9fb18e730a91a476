use super::super::tests::{call, typed_weather as weather, walk_calls, walk_tools};
use super::*;
use crate::grammar::{GrammarSpec, ToolFormat};
use serde_json::json;

#[test]
fn calls_as_minimax_writes_them_are_read_and_typed_by_their_schema() {
    let tools = [weather()];
    // The template's lines; a string keeps its inner lines and tags; a JSON value may hold
    // the end tag in a string.
    let text = "Let me look.\n<minimax:tool_call>\n<invoke name=\"weather\">\n<parameter name=\"city\">São\nPaulo <b></parameter>\n<parameter name=\"days\">3</parameter>\n<parameter name=\"units\">[\"c\", \"</parameter>\"]</parameter>\n</invoke>\n<invoke name=\"weather\"><parameter name=\"city\">12</parameter></invoke>\n</minimax:tool_call>";
    let (content, calls) = parse(text, &tools);
    assert_eq!(content, "Let me look.");
    assert_eq!(
        calls,
        vec![
            call(
                "weather",
                r#"{"city":"São\nPaulo <b>","days":3,"units":["c","</parameter>"]}"#
            ),
            call("weather", r#"{"city":"12"}"#),
        ]
    );
    let rendered = render_calls(&calls);
    assert!(rendered.starts_with(
        "<minimax:tool_call>\n<invoke name=\"weather\">\n<parameter name=\"city\">São\nPaulo <b></parameter>\n"
    ));
    assert_eq!(parse(&rendered, &tools), (String::new(), calls));
    // A call without arguments, an argument the schema does not name (text), text after.
    let bare = "<minimax:tool_call><invoke name=\"time\"></invoke><invoke name=\"weather\"><parameter name=\"x\">1</parameter></invoke></minimax:tool_call>\nDone.";
    assert_eq!(
        parse(bare, &tools),
        (
            "Done.".to_string(),
            vec![call("time", "{}"), call("weather", r#"{"x":"1"}"#)]
        )
    );
    for text in [
        "Sunny.",
        "<minimax:tool_call>\n<invoke name=\"two words\"></invoke>\n</minimax:tool_call>",
        "<minimax:tool_call>\n<invoke name=\"weather\">\n<parameter name=\"city\">Paris\n</invoke>",
        "<invoke name=\"weather\"><parameter name=\"city\">Paris</parameter></invoke>",
    ] {
        assert_eq!(
            parse(text, &tools),
            (text.to_string(), Vec::new()),
            "{text}"
        );
    }
}

#[test]
fn arguments_stream_as_they_come_and_a_cut_json_value_is_not_sent() {
    let tools = [weather()];
    let text =
        "Sure.\n<minimax:tool_call>\n<invoke name=\"weather\">\n<parameter name=\"city\">Par";
    let so_far = calls_so_far(text, &tools);
    assert_eq!(so_far.len(), 1);
    assert_eq!(so_far[0].start, text.find("<minimax").unwrap());
    assert_eq!(so_far[0].arguments, r#"{"city":"Par"#);
    let cut =
        "<minimax:tool_call><invoke name=\"weather\"><parameter name=\"units\">[\"</parameter>";
    assert_eq!(calls_so_far(cut, &tools)[0].arguments, "{");
    assert!(calls_so_far("<minimax:tool_call>\n<invoke name=\"weat", &tools).is_empty());
    let two = "<minimax:tool_call>\n<invoke name=\"weather\"></invoke>\n<invoke name=\"time\">";
    let names: Vec<String> = calls_so_far(two, &tools)
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["weather", "time"]);
}

/// The grammar walked token by token: the calls it allows read back, and under `auto` text
/// before them does too; values held to their schemas.
#[test]
fn the_grammar_writes_calls_that_read_back() {
    let tools = walk_tools();
    let walk = |auto: bool, parallel: bool, answer: Option<&GrammarSpec>, goal: &str| {
        walk_calls(ToolFormat::MiniMaxXml, (auto, parallel), answer, goal)
    };
    let lines = "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n</invoke>\n<invoke name=\"g\">\n</invoke>\n</minimax:tool_call>";
    let plain = "<minimax:tool_call><invoke name=\"f\"><parameter name=\"a\">1</parameter></invoke><invoke name=\"g\"></invoke></minimax:tool_call>";
    let expected = vec![call("f", r#"{"a":1}"#), call("g", "{}")];
    for two in [lines, plain] {
        for (auto, lead) in [(false, ""), (true, "Hi there.\n"), (true, "")] {
            let goal = format!("{lead}{two}");
            assert_eq!(walk(auto, true, None, &goal).as_deref(), Ok(goal.as_str()));
            assert_eq!(
                parse(&goal, &tools),
                (lead.trim().to_string(), expected.clone())
            );
        }
    }
    let one = "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n</invoke>\n</minimax:tool_call>";
    assert_eq!(walk(false, false, None, one).as_deref(), Ok(one));
    assert!(walk(false, false, None, plain).is_err(), "one call only");
    for wrong in [
        "<minimax:tool_call><invoke name=\"f\"><parameter name=\"a\">x</parameter></invoke></minimax:tool_call>",
        "<minimax:tool_call><invoke name=\"f\"></invoke></minimax:tool_call>",
        "<minimax:tool_call><invoke name=\"h\"></invoke></minimax:tool_call>",
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
fn the_announcement_shows_minimaxs_call_shape() {
    let text = ToolFormat::MiniMaxXml.announcement(&[weather()]);
    assert!(text.contains("<tools>\n<tool>{\""), "{text}");
    assert!(text.contains("\"name\":\"weather\""), "{text}");
    assert!(text.contains(
        "<minimax:tool_call>\n<invoke name=\"tool-name-1\">\n<parameter name=\"param-key-1\">param-value-1</parameter>"
    ));
}
