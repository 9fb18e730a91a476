//! The grammars of the tool-call formats (Llama 3's bare JSON, Mistral's and Granite's
//! marked arrays, Qwen3-Coder's XML-like parameters) and of SGLang's structural tags, fed
//! token by token with the default model's vocabulary.

use crate::grammars::{admits, feed, get_time, grammars, may_end, only_the_end};
use engine::grammar::{GrammarLimits, GrammarSpec, Step, ToolChoice, ToolFormat, ToolFunction};
use radix::Namespace;
use serde_json::json;

/// Llama 3's format: the whole answer is one bare JSON call. Under `auto` the first
/// character decides (a `{` starts the call, or the JSON answer beside a response format;
/// anything else is text); `required` admits only the call, and one call ends the output
/// whatever `parallel` says (the Llama 3 templates render one call per turn).
#[test]
fn llama3_tool_grammars_take_one_bare_json_call_or_text() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let tools = [get_time()];
    let call = "{\"name\":\"get_time\",\"parameters\":{\"zone\":\"UTC\"}}";
    let compile = |choice: &ToolChoice, answer: Option<&GrammarSpec>| {
        let spec = ToolFormat::Llama3Json
            .grammar(&tools, choice, true, answer, &tok)
            .unwrap();
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    let mut constraint = compile(&ToolChoice::Auto, None);
    let step = feed(&tok, &mut constraint, call);
    assert!(only_the_end(&tok, &mut constraint, &step), "one call");
    let mut constraint = compile(&ToolChoice::Auto, None);
    let step = feed(&tok, &mut constraint, "It is noon {here}.");
    assert!(may_end(&tok, &mut constraint, &step), "text");
    // JSON that is not a call is refused without an answer format, admitted with one.
    let mut constraint = compile(&ToolChoice::Auto, None);
    feed(&tok, &mut constraint, "{\"");
    assert!(!admits(&tok, &mut constraint, "city"));
    let answer = GrammarSpec::JsonSchema(json!({
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]
    }));
    let mut constraint = compile(&ToolChoice::Auto, Some(&answer));
    let step = feed(&tok, &mut constraint, "{\"city\":\"Paris\"}");
    assert!(may_end(&tok, &mut constraint, &step), "the answer");
    // Any object for `json_object`; a schema's `$defs` resolve at its own root.
    let step = feed(
        &tok,
        &mut compile(&ToolChoice::Auto, Some(&GrammarSpec::JsonObject)),
        "{\"a\":1}",
    );
    assert!(matches!(step, Step::Continue { .. } | Step::Done { .. }));
    let nested = GrammarSpec::JsonSchema(json!({
        "type": "object", "properties": {"pet": {"$ref": "#/$defs/Pet"}}, "required": ["pet"],
        "$defs": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}},
                          "required": ["name"]}}
    }));
    let mut constraint = compile(&ToolChoice::Auto, Some(&nested));
    let step = feed(&tok, &mut constraint, "{\"pet\":{\"name\":\"Rex\"}}");
    assert!(may_end(&tok, &mut constraint, &step), "a nested answer");
    let mut constraint = compile(&ToolChoice::Required, Some(&answer));
    assert!(!admits(&tok, &mut constraint, "It"));
    let step = feed(&tok, &mut constraint, call);
    assert!(
        only_the_end(&tok, &mut constraint, &step),
        "required: one call"
    );
}

/// Mistral's format: `[TOOL_CALLS]` (text in this vocabulary) and an array of calls, or
/// under `auto` text that does not start with the marker; a second call in the array only
/// with parallel calls.
#[test]
fn mistral_tool_grammars_take_an_array_of_calls_or_text() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let tools = [get_time()];
    let call = "{\"name\":\"get_time\",\"arguments\":{\"zone\":\"UTC\"}}";
    let compile = |parallel: bool| {
        let spec = ToolFormat::Mistral
            .grammar(&tools, &ToolChoice::Auto, parallel, None, &tok)
            .unwrap();
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    // One call: its closing `]` is forced and the output ends.
    let mut constraint = compile(false);
    let step = feed(&tok, &mut constraint, &format!("[TOOL_CALLS] [{call}"));
    assert!(only_the_end(&tok, &mut constraint, &step));
    let mut constraint = compile(true);
    let step = feed(&tok, &mut constraint, &format!("[TOOL_CALLS] [{call}"));
    assert!(!may_end(&tok, &mut constraint, &step));
    let step = feed(&tok, &mut constraint, &format!(",{call}]"));
    assert!(only_the_end(&tok, &mut constraint, &step));
    let mut constraint = compile(true);
    let step = feed(&tok, &mut constraint, "It is noon [UTC].");
    assert!(may_end(&tok, &mut constraint, &step), "text");
    // Text may start with `[`, only not with the marker (after blank space too).
    let mut constraint = compile(true);
    let step = feed(&tok, &mut constraint, "[1, 2] are numbers");
    assert!(may_end(&tok, &mut constraint, &step), "text");
    let mut constraint = compile(true);
    feed(&tok, &mut constraint, "  [TOOL_CALLS");
    assert!(
        !admits(&tok, &mut constraint, "]"),
        "the marker after blank space"
    );
}

/// Qwen3-Coder's format: parameters in XML-like blocks, a string's value raw text (lines
/// and other tags too, up to its `</parameter>` on a line of its own), any other value JSON
/// of its schema; the required parameters always, in the schema's order.
#[test]
fn qwen_xml_tool_grammars_take_raw_strings_and_typed_values() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let tools = [ToolFunction {
        name: "note".into(),
        description: None,
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "count": {"type": "integer"},
                "tone": {"enum": ["calm", "loud"]},
            },
            "required": ["text", "count"],
        }),
    }];
    let compile = |choice: &ToolChoice| {
        let spec = ToolFormat::QwenXml
            .grammar(&tools, choice, true, None, &tok)
            .unwrap();
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    let open = "<tool_call>\n<function=note>\n<parameter=text>\n";
    let call = format!(
        "{open}Line one </b>\n<parameter=x> two\n</parameter>\n<parameter=count>\n12\n</parameter>\n\
         <parameter=tone>\ncalm\n</parameter>\n</function>\n</tool_call>"
    );
    let mut constraint = compile(&ToolChoice::Required);
    let step = feed(&tok, &mut constraint, &call);
    assert!(may_end(&tok, &mut constraint, &step));
    // The integer is JSON; the enum one of its strings; the required count not skipped.
    let mut constraint = compile(&ToolChoice::Required);
    feed(
        &tok,
        &mut constraint,
        &format!("{open}a\n</parameter>\n<parameter=count>\n"),
    );
    assert!(!admits(&tok, &mut constraint, "x"));
    assert!(admits(&tok, &mut constraint, "7"));
    let mut constraint = compile(&ToolChoice::Required);
    feed(
        &tok,
        &mut constraint,
        &format!("{open}a\n</parameter>\n<parameter=count>\n1\n</parameter>\n<parameter=tone>\n"),
    );
    assert!(!admits(&tok, &mut constraint, "quiet"));
    let mut constraint = compile(&ToolChoice::Required);
    feed(&tok, &mut constraint, &format!("{open}a\n</parameter>\n"));
    assert!(!admits(&tok, &mut constraint, "</function>"));
    // `</parameter>` ends a raw value, on a line of its own: not after text on its line.
    let mut constraint = compile(&ToolChoice::Required);
    feed(&tok, &mut constraint, &format!("{open}Paris</parameter"));
    assert!(!admits(&tok, &mut constraint, ">"));
    // A string's `minLength` and `maxLength` bound its raw text.
    let bounded = |bounds: serde_json::Value| {
        let mut id = serde_json::json!({"type": "string"});
        id.as_object_mut()
            .unwrap()
            .extend(bounds.as_object().unwrap().clone());
        let tool = ToolFunction {
            name: "code".into(),
            description: None,
            parameters: serde_json::json!({"type": "object", "properties": {"id": id},
                                           "required": ["id"]}),
        };
        let spec = ToolFormat::QwenXml
            .grammar(&[tool], &ToolChoice::Required, false, None, &tok)
            .unwrap();
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    let open = "<tool_call>\n<function=code>\n<parameter=id>\n";
    let mut constraint = bounded(serde_json::json!({"minLength": 2}));
    feed(&tok, &mut constraint, &format!("{open}a\n</parameter"));
    assert!(!admits(&tok, &mut constraint, ">"), "under minLength");
    // At its most characters the rest of the call is forced.
    let mut constraint = bounded(serde_json::json!({"maxLength": 3}));
    let (Step::Continue { forced } | Step::Done { forced }) =
        feed(&tok, &mut constraint, &format!("{open}abc"));
    let forced = tok.decode(&forced, false).unwrap();
    assert_eq!(
        forced, "\n</parameter>\n</function>\n</tool_call>",
        "over maxLength"
    );
    // Under `auto`, text first, then the call.
    let mut constraint = compile(&ToolChoice::Auto);
    let step = feed(&tok, &mut constraint, &format!("Noting it.\n{call}"));
    assert!(may_end(&tok, &mut constraint, &step));
}

/// SGLang's structural tags: free text in which a trigger must go on into one of its tags
/// (its JSON held to the schema), in the original form and xgrammar's; free text inside a
/// tag ends at its end.
#[test]
fn structural_tags_hold_the_text_after_each_trigger() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let compile = |tag: serde_json::Value| {
        let lark = engine::grammar::structural_tag::lark(&tag).unwrap();
        grammars
            .compile(&GrammarSpec::StructuralTag(lark), &Namespace::global())
            .unwrap()
    };
    let city = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}},
                                  "required": ["city"]});
    let legacy = serde_json::json!({
        "structures": [{"begin": "<function=weather>", "schema": city, "end": "</function>"}],
        "triggers": ["<function="],
    });
    let mut constraint = compile(legacy.clone());
    let step = feed(
        &tok,
        &mut constraint,
        "Checking. <function=weather>{\"city\":\"Paris\"}</function> Done.",
    );
    assert!(may_end(&tok, &mut constraint, &step), "text, a tag, text");
    let mut constraint = compile(legacy.clone());
    let step = feed(&tok, &mut constraint, "No call at all.");
    assert!(may_end(&tok, &mut constraint, &step), "text alone");
    let mut constraint = compile(legacy);
    // After the trigger the only tag's name (and its JSON's start) is forced.
    let Step::Continue { forced } = feed(&tok, &mut constraint, "Hi <function=") else {
        panic!("ended at the trigger");
    };
    let forced = tok.decode(&forced, false).unwrap();
    assert!(forced.starts_with("weather>{"), "{forced:?}");

    // xgrammar's `at_least_one`: the output starts with a tag; `stop_after_first`: it ends
    // after one. Text holds no trigger, nor what `excludes` lists.
    let tags = |at_least_one: bool, stop_after_first: bool| {
        compile(serde_json::json!({"type": "structural_tag", "format": {
        "type": "triggered_tags", "triggers": ["[[", "<c|"], "excludes": ["STOP"],
        "at_least_one": at_least_one, "stop_after_first": stop_after_first,
        "tags": [
            {"begin": "[[call]]", "content": {"type": "json_schema", "json_schema": city},
             "end": "[[/call]]"},
            {"begin": "<c|x>", "content": {"type": "regex", "pattern": "a/b"}, "end": "</c>"},
        ]}}))
    };
    let call = "[[call]]{\"city\":\"Rome\"}[[/call]]";
    let mut constraint = tags(true, true);
    assert!(
        !admits(&tok, &mut constraint, "Sure"),
        "no text before the first tag"
    );
    let step = feed(&tok, &mut constraint, call);
    assert!(
        only_the_end(&tok, &mut constraint, &step),
        "one tag, then the end"
    );
    let mut constraint = tags(true, false);
    let step = feed(
        &tok,
        &mut constraint,
        &format!("{call} then <c|x>a/b</c> done"),
    );
    assert!(
        may_end(&tok, &mut constraint, &step),
        "tags and text after the first"
    );
    let mut constraint = tags(false, false);
    let step = feed(&tok, &mut constraint, "Text with no tag");
    assert!(may_end(&tok, &mut constraint, &step));
    assert!(!admits(&tok, &mut constraint, "STOP"), "an excluded word");
    let mut constraint = tags(false, true);
    let step = feed(&tok, &mut constraint, &format!("Sure. {call}"));
    assert!(
        only_the_end(&tok, &mut constraint, &step),
        "the end after one tag"
    );

    // Tags with a separator, at least one.
    let listed = serde_json::json!({"type": "structural_tag", "format": {
        "type": "tags_with_separator", "separator": ",", "at_least_one": true,
        "tags": [{"begin": "<n>", "content": {"type": "regex", "pattern": "[0-9]+"},
                  "end": "</n>"}]}});
    let mut constraint = compile(listed.clone());
    assert!(!admits(&tok, &mut constraint, "x"));
    let step = feed(&tok, &mut constraint, "<n>1</n>,<n>22</n>");
    assert!(may_end(&tok, &mut constraint, &step));
    assert!(admits(&tok, &mut constraint, ","));

    // Free text deeper in a tag, and triggered tags in one, end at the tag's end.
    let nested = serde_json::json!({"type": "structural_tag", "format": {
    "type": "tag", "begin": "<r>", "end": "</r>", "content": {"type": "sequence", "elements": [
        {"type": "const_string", "value": "x"},
        {"type": "triggered_tags", "triggers": ["<f="], "tags": [
            {"begin": "<f=a>", "content": {"type": "const_string", "value": "1"},
             "end": "</f>"}]},
    ]}}});
    let mut constraint = compile(nested.clone());
    let step = feed(&tok, &mut constraint, "<r>x text <f=a>1</f> more</r>");
    assert!(
        only_the_end(&tok, &mut constraint, &step),
        "the tag's end ends it"
    );
    let mut constraint = compile(nested);
    let (Step::Continue { forced } | Step::Done { forced }) =
        feed(&tok, &mut constraint, "<r>x <f=");
    let forced = tok.decode(&forced, false).unwrap();
    assert!(
        forced.starts_with("a>1</f"),
        "a trigger inside goes on into its tag: {forced:?}"
    );

    let free = serde_json::json!({"type": "structural_tag", "format": {"type": "sequence",
    "elements": [
        {"type": "tag", "begin": "<note>", "content": {"type": "any_text"}, "end": "</note>"},
        {"type": "const_string", "value": "!"},
    ]}});
    let mut constraint = compile(free);
    let step = feed(&tok, &mut constraint, "<note>any <b>text</b></note>!");
    assert!(only_the_end(&tok, &mut constraint, &step));
}

/// Granite's format where `<|tool_call|>` is text (this vocabulary): under `auto` a text
/// answer may start with `<`, only not with the marker.
#[test]
fn granite_tool_grammars_keep_only_the_marker_out_of_text() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let compile = || {
        let spec = ToolFormat::Granite
            .grammar(&[get_time()], &ToolChoice::Auto, false, None, &tok)
            .unwrap();
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    let mut constraint = compile();
    let step = feed(&tok, &mut constraint, "<b>Noon</b>");
    assert!(may_end(&tok, &mut constraint, &step));
    let call = "[{\"name\":\"get_time\",\"arguments\":{\"zone\":\"UTC\"}}";
    let mut constraint = compile();
    let step = feed(&tok, &mut constraint, &format!("<|tool_call|>{call}"));
    assert!(only_the_end(&tok, &mut constraint, &step));
    let mut constraint = compile();
    feed(&tok, &mut constraint, " <|tool_call|");
    assert!(
        !admits(&tok, &mut constraint, ">"),
        "the marker after a space"
    );
}
