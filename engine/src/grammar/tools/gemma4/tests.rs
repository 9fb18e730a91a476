use super::super::tests::{call, walk_calls};
use super::*;
use crate::grammar::{GrammarSpec, ToolChoice, ToolFormat};
use serde_json::json;
use std::sync::Arc;

#[test]
fn calls_as_gemma4_writes_them_read_as_json() {
    // Strings keep their quotes, lines and tags; keys are bare; values nest.
    let text = "Let me look.\n<|tool_call>call:weather{city:<|\"|>São \"Paulo\"\n<tool_call|><|\"|>,days:3,units:[<|\"|>c<|\"|>,<|\"|>f<|\"|>],where:{lat:-1.5e3,exact:true,note:null}}<tool_call|><|tool_call>call:time{}<tool_call|>";
    let (content, calls) = parse(text);
    assert_eq!(content, "Let me look.");
    assert_eq!(
        calls,
        vec![
            call(
                "weather",
                r#"{"city":"São \"Paulo\"\n<tool_call|>","days":3,"units":["c","f"],"where":{"lat":-1.5e3,"exact":true,"note":null}}"#
            ),
            call("time", "{}"),
        ]
    );
    for call in &calls {
        serde_json::from_str::<Value>(&call.arguments).unwrap();
    }
    // Written back as the template writes them (keys sorted, case ignored), read again.
    let rendered = render_calls(&calls);
    assert!(
        rendered.starts_with("<|tool_call>call:weather{city:<|\"|>São"),
        "{rendered}"
    );
    assert!(rendered.contains("where:{exact:true,lat:-1500.0,note:null}"));
    let again: Vec<Value> = parse(&rendered)
        .1
        .iter()
        .map(|c| serde_json::from_str(&c.arguments).unwrap())
        .collect();
    let want: Vec<Value> = calls
        .iter()
        .map(|c| serde_json::from_str(&c.arguments).unwrap())
        .collect();
    assert_eq!(again, want);
    // As other servers read it: blank space, quoted keys, bare words as strings, Python's
    // spellings of true, false and None.
    let loose = "<|tool_call>call:note{ <|\"|>title<|\"|> : Hello there , n : 2 , ok: True, gone: None, list: [ a, 1 ] }<tool_call|>";
    assert_eq!(
        parse(loose).1,
        vec![call(
            "note",
            r#"{"title":"Hello there","n":2,"ok":true,"gone":null,"list":["a",1]}"#
        )]
    );
    // What is no call stays text.
    for text in [
        "Sunny.",
        "<|tool_call>weather{}<tool_call|>",
        "<|tool_call>call:two words{}<tool_call|>",
        "<|tool_call>call:weather{city:<|\"|>Paris<tool_call|>",
        "<|tool_call>call:weather{city}<tool_call|>",
        "<|tool_call>call:weather{a:1,}<tool_call|>",
        "<|tool_call>call:weather{a:1 b:{}}<tool_call|>",
        "<|tool_call>call:weather[1]<tool_call|>",
        "<|tool_call>call:weather{a:1}",
    ] {
        assert_eq!(parse(text), (text.to_string(), Vec::new()), "{text}");
    }
}

#[test]
fn a_hostile_nesting_is_refused_not_followed() {
    let deep = format!(
        "<|tool_call>call:f{{a:{}1{}}}<tool_call|>",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(parse(&deep).1, Vec::new());
    let fine = format!(
        "<|tool_call>call:f{{a:{}1{}}}<tool_call|>",
        "[".repeat(30),
        "]".repeat(30)
    );
    assert_eq!(parse(&fine).1.len(), 1);
}

#[test]
fn arguments_stream_as_they_are_written() {
    let text = "<|tool_call>call:note{n:12,body:<|\"|>line one\nline two<|\"|>}<tool_call|>";
    let args = |cut: &str| {
        let end = text.find(cut).unwrap();
        calls_so_far(&text[..end])[0].arguments.clone()
    };
    // A key once its colon is there; a number once something ends it; a string's text as
    // it comes, less what may be the start of its closing mark.
    assert_eq!(args(":12"), "{");
    assert_eq!(args("2,body"), "{\"n\":");
    assert_eq!(args(",body"), "{\"n\":");
    assert_eq!(args("ody"), "{\"n\":12,");
    assert_eq!(args(":<|"), "{\"n\":12,");
    assert_eq!(args("|\"|>line"), "{\"n\":12,\"body\":");
    assert_eq!(args("two"), "{\"n\":12,\"body\":\"line one\\nline ");
    assert_eq!(args("\"|>}"), "{\"n\":12,\"body\":\"line one\\nline two");
    assert_eq!(args("}<tool"), "{\"n\":12,\"body\":\"line one\\nline two\"");
    // The name goes once it is whole; what opens no call starts none.
    assert!(calls_so_far("<|tool_call>call:no").is_empty());
    assert_eq!(calls_so_far("Hi <|tool_call>call:note{")[0].start, 3);
    assert!(calls_so_far("<|tool_call>note{").is_empty());
}

/// The tools the schema walks offer: a closed object of every kind of value, an optional
/// enum and a recursive definition.
fn schema_tools() -> Vec<ToolFunction> {
    vec![ToolFunction {
        name: "plan".into(),
        description: None,
        parameters: json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "Count": {"type": "integer", "minimum": -5, "maximum": 100},
                "ratio": {"type": "number", "exclusiveMinimum": 0},
                "done": {"type": "boolean"},
                "mode": {"enum": ["fast", "slow"]},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "root": {"$ref": "#/$defs/node"},
                "maybe": {"type": ["integer", "null"]},
            },
            "required": ["title", "Count"],
            "$defs": {"node": {"type": "object", "properties": {
                "name": {"type": "string"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            }, "required": ["name"]}},
        }),
    }]
}

/// `goal` written through the grammar for `tools` (calls required, one) over a small plain
/// vocabulary.
fn walk_schema(tools: &[ToolFunction], goal: &str) -> Result<String, String> {
    let tok = Arc::new(crate::tokenizer::tests::small_tokenizer_with_controls(&[]));
    let spec = ToolFormat::Gemma4
        .grammar(tools, &ToolChoice::Required, false, None, &tok)
        .ok_or("no grammar")?;
    crate::grammar::walk::walk(&tok, &spec, goal, &[], &[])
}

#[test]
fn the_grammar_holds_arguments_to_their_schema_in_the_templates_order() {
    let tools = schema_tools();
    let call = |arguments: &str| format!("<|tool_call>call:plan{{{arguments}}}<tool_call|>");
    let q = |text: &str| format!("<|\"|>{text}<|\"|>");
    for arguments in [
        format!("Count:3,title:{}", q("A plan")),
        format!("Count:-1,title:{}", q("")),
        format!(
            "Count:0,done:false,maybe:null,mode:{},ratio:0.0025,root:{{kids:[{{name:{}}},{{kids:[],name:{}}}],name:{}}},tags:[{},{}],title:{}",
            q("slow"), q("b"), q("c"), q("a"), q("x"), q("y"), q("t \"q\"\n{}")
        ),
        format!("Count:1,maybe:7,title:{}", q("m")),
        format!("Count:1,maybe:None,title:{}", q("m")),
    ] {
        let goal = call(&arguments);
        assert_eq!(walk_schema(&tools, &goal).as_deref(), Ok(goal.as_str()));
        let (_, calls) = parse(&goal);
        assert_eq!(calls.len(), 1, "{goal}");
        serde_json::from_str::<Value>(&calls[0].arguments).unwrap();
    }
    for arguments in [
        // A required member missing, members out of the template's order, a member the
        // schema does not name, a value of the wrong type, one not in the enum, an empty
        // array where one item is the least, a definition's required member missing.
        format!("title:{}", q("A")),
        format!("title:{},Count:3", q("A")),
        format!("Count:3,title:{},extra:1", q("A")),
        format!("Count:{},title:{}", q("3"), q("A")),
        format!("Count:3.5,title:{}", q("A")),
        format!("Count:101,title:{}", q("A")),
        format!("Count:-6,title:{}", q("A")),
        format!("Count:1,ratio:0,title:{}", q("A")),
        format!("Count:3,mode:{},title:{}", q("medium"), q("A")),
        format!("Count:3,tags:[],title:{}", q("A")),
        format!("Count:3,root:{{kids:[]}},title:{}", q("A")),
        "Count:3,title:A".to_string(),
    ] {
        let goal = call(&arguments);
        assert!(walk_schema(&tools, &goal).is_err(), "{goal}");
    }
    // Keys that cannot be written bare are quoted, and read back as themselves; each tool's
    // references are its own.
    let odd = ToolFunction {
        name: "odd".into(),
        description: None,
        parameters: json!({"type": "object", "properties": {
            "ns:key": {"type": "integer"}, "n": {"$ref": "#/$defs/node"}},
            "required": ["ns:key", "n"], "$defs": {"node": {"type": "boolean"}}}),
    };
    let goal = "<|tool_call>call:odd{n:true,<|\"|>ns:key<|\"|>:1}<tool_call|>";
    let both = [tools[0].clone(), odd.clone()];
    let spec_walk = |tools: &[ToolFunction], goal: &str| {
        let tok = Arc::new(crate::tokenizer::tests::small_tokenizer_with_controls(&[]));
        let spec = ToolFormat::Gemma4
            .grammar(tools, &ToolChoice::Auto, false, None, &tok)
            .ok_or("no grammar")?;
        crate::grammar::walk::walk(&tok, &spec, goal, &[], &[])
    };
    assert_eq!(spec_walk(&both, goal).as_deref(), Ok(goal));
    let odd_call = super::super::tests::call("odd", r#"{"n":true,"ns:key":1}"#);
    assert_eq!(parse(goal).1, vec![odd_call]);
    assert_eq!(render_calls(&parse(goal).1), goal);
    let wrong =
        "<|tool_call>call:odd{n:{kids:[],name:<|\"|>a<|\"|>},<|\"|>ns:key<|\"|>:1}<tool_call|>";
    assert!(spec_walk(&both, wrong).is_err());
    // Without properties the arguments are any object.
    let open = ToolFunction {
        name: "any".into(),
        description: None,
        parameters: json!({"type": "object"}),
    };
    let goal = format!(
        "<|tool_call>call:any{{a:[1,{},{{b:null}}],c:true}}<tool_call|>",
        q("s")
    );
    assert_eq!(walk_schema(&[open], &goal).as_deref(), Ok(goal.as_str()));
}

/// The grammar walked token by token, its marks as text and as control tokens: the calls it
/// allows read back, and under `auto` the text before them does too.
#[test]
fn the_grammar_writes_calls_that_read_back() {
    let two = "<|tool_call>call:f{a:1}<tool_call|><|tool_call>call:g{}<tool_call|>";
    let one = "<|tool_call>call:f{a:1}<tool_call|>";
    let expected = vec![call("f", r#"{"a":1}"#), call("g", "{}")];
    let walk = |auto: bool, parallel: bool, answer: Option<&GrammarSpec>, goal: &str| {
        walk_calls(ToolFormat::Gemma4, (auto, parallel), answer, goal)
    };
    for (auto, lead) in [(false, ""), (true, "Hi there.\n"), (true, "")] {
        let goal = format!("{lead}{two}");
        assert_eq!(walk(auto, true, None, &goal).as_deref(), Ok(goal.as_str()));
        assert_eq!(parse(&goal), (lead.trim().to_string(), expected.clone()));
    }
    assert_eq!(walk(false, false, None, one).as_deref(), Ok(one));
    assert!(walk(false, false, None, two).is_err(), "one call only");
    for wrong in [
        "<|tool_call>call:f{a:<|\"|>1<|\"|>}<tool_call|>",
        "<|tool_call>call:f{}<tool_call|>",
        "<|tool_call>call:h{}<tool_call|>",
        "<|tool_call>call:f{a:1} <tool_call|>",
    ] {
        assert!(walk(false, true, None, wrong).is_err(), "{wrong}");
    }
    let answer = GrammarSpec::JsonSchema(json!({
        "type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}));
    assert_eq!(
        walk(true, true, Some(&answer), "{\"x\":1}").as_deref(),
        Ok("{\"x\":1}")
    );
    assert_eq!(walk(true, true, Some(&answer), two).as_deref(), Ok(two));
    assert_eq!(walk(true, true, None, "Sunny.").as_deref(), Ok("Sunny."));

    // Where the marks are control tokens the grammar names them, and the output shows them.
    let tok = Arc::new(crate::tokenizer::tests::small_tokenizer_with_controls(
        &MARKS,
    ));
    assert_eq!(control_tokens(&tok).len(), 3);
    let mut tools = super::super::tests::walk_tools().to_vec();
    tools.push(ToolFunction {
        name: "note".into(),
        description: None,
        parameters: json!({"type": "object", "properties": {"text": {"type": "string"}}}),
    });
    let walk_marked = |choice: ToolChoice, goal: &str, as_tokens: bool| {
        let spec = ToolFormat::Gemma4
            .grammar(&tools, &choice, true, None, &tok)
            .unwrap();
        let marks: &[&str] = if as_tokens { &MARKS } else { &[] };
        let shown = ToolFormat::Gemma4.shown_tokens(&tok);
        crate::grammar::walk::walk(&tok, &spec, goal, marks, &shown)
    };
    for (choice, goal) in [
        (ToolChoice::Required, two.to_string()),
        (ToolChoice::Auto, format!("Hi there.{two}")),
        (ToolChoice::Auto, "Sunny.".to_string()),
        (
            ToolChoice::Required,
            "<|tool_call>call:note{text:<|\"|>a {b}, c<|\"|>}<tool_call|>".to_string(),
        ),
    ] {
        let text = walk_marked(choice, &goal, true).unwrap();
        assert_eq!(text, goal);
        let calls = parse(&text).1;
        assert_eq!(calls.len(), goal.matches(CALL_OPEN).count(), "{goal}");
    }
    // The opening mark written as text is refused where it is a control token.
    let forged = walk_marked(ToolChoice::Auto, &format!("Hi {one}"), false);
    assert!(forged.is_err(), "{forged:?}");
}

#[test]
fn the_announcement_shows_the_call_shape() {
    let tools = super::super::tests::walk_tools();
    let text = ToolFormat::Gemma4.announcement(&tools);
    assert!(text.contains("<tools>\n{\"type\":\"function\""), "{text}");
    assert!(
        text.contains("<|tool_call>call:{function-name}{{arg-key-1}:{arg-value-1},"),
        "{text}"
    );
}
