//! Structured outputs on the real model: generated JSON schemas (every output parses and
//! validates with an independent validator), regexes (full match with the `regex` crate),
//! a Lark and a GBNF grammar, jump-forward (fewer steps than tokens), `logit_bias`, and bad
//! grammars refused on both APIs while the server keeps running.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::process::Rng;
use common::servers::{post_json, post_sse, serve, streamed_calls, Servers};
use engine::grammar::GrammarSpec;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest, PromptInput};
use engine::sampling::{FinishReason, SamplingParams, StopMatch};
use engine::tokenizer::ChatMessage;
use proto::v1 as pb;
use proto::v1::generate_request::Input;
use proto::v1::radix_serve_client::RadixServeClient;
use radix::Namespace;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn config() -> EngineConfig {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 256 << 20;
    config.max_context_len = 2048;
    config.scheduler.max_running_requests = 32;
    config
}

fn servers() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| serve(config()))
}

fn chat_ids(engine: &EngineHandle, ask: &str) -> Vec<u32> {
    engine
        .build_prompt_now(PromptInput::chat(vec![ChatMessage::user(ask)]))
        .unwrap()
}

struct Output {
    text: String,
    finish: FinishReason,
    tokens: u32,
}

/// Runs every request at once and returns their outputs in order.
fn run_all(engine: &EngineHandle, requests: Vec<GenerateRequest>) -> Vec<Output> {
    let streams: Vec<_> = requests
        .into_iter()
        .map(|r| engine.submit(r).unwrap())
        .collect();
    streams
        .into_iter()
        .map(|mut stream| {
            let mut text = String::new();
            loop {
                match stream.blocking_next() {
                    Some(GenerateEvent::Chunk { text: piece, .. }) => text.push_str(&piece),
                    Some(GenerateEvent::Finished(c)) => {
                        return Output {
                            text,
                            finish: c.finish_reason,
                            tokens: c.usage.completion_tokens,
                        }
                    }
                    other => panic!("{other:?} after {text:?}"),
                }
            }
        })
        .collect()
}

fn constrained(
    engine: &EngineHandle,
    prompt: Vec<u32>,
    spec: &GrammarSpec,
    params: SamplingParams,
) -> GenerateRequest {
    let mut request = GenerateRequest::new(prompt, params);
    request.constraint = Some(
        engine
            .compile_grammar_now(spec, &Namespace::global())
            .unwrap(),
    );
    request
}

const WORDS: &[&str] = &["red", "green", "blue", "cat", "dog", "paris", "rome", "tea"];

/// A random schema: nested objects, bounded arrays, enums, integer ranges, strings with a
/// length bound or a pattern or a format, required and optional keys.
fn schema(rng: &mut Rng, depth: u32) -> Value {
    let count = 1 + rng.below(3);
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for i in 0..count {
        let name = format!("{}_{i}", WORDS[rng.below(WORDS.len() as u64) as usize]);
        let kind = rng.below(if depth < 2 { 8 } else { 7 });
        let property = match kind {
            0 => {
                let lo = rng.below(50) as i64 - 20;
                json!({"type": "integer", "minimum": lo, "maximum": lo + 1 + rng.below(100) as i64})
            }
            1 => json!({"type": "string", "maxLength": 1 + rng.below(12)}),
            2 => json!({"type": "boolean"}),
            3 => {
                let n = 2 + rng.below(3) as usize;
                let values: Vec<&str> = (0..n)
                    .map(|k| WORDS[(k * 3 + i as usize) % WORDS.len()])
                    .collect();
                json!({"enum": values})
            }
            4 => json!({
                "type": "array",
                "items": {"type": "integer", "minimum": 0, "maximum": 99},
                "minItems": rng.below(2),
                "maxItems": 2 + rng.below(3)
            }),
            5 => json!({"type": "string", "pattern": "^[a-z]{2,6}$"}),
            6 => json!({"type": "string", "format": "date"}),
            _ => schema(rng, depth + 1),
        };
        if rng.below(3) != 0 {
            required.push(json!(name.clone()));
        }
        properties.insert(name, property);
    }
    let mut s = json!({"type": "object", "properties": properties, "required": required});
    if rng.below(2) == 0 {
        s["additionalProperties"] = json!(false);
    }
    s
}

fn assert_valid(schema: &Value, out: &Output, what: &str) {
    let value: Value = serde_json::from_str(&out.text).unwrap_or_else(|e| {
        panic!(
            "{what}: not JSON ({e}), finish {:?}: {:?}\nschema {schema}",
            out.finish, out.text
        )
    });
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: {value} breaks {schema}: {errors:?}"
    );
    assert_eq!(
        out.finish,
        FinishReason::Stop(StopMatch::Grammar),
        "{what}: {:?}",
        out.text
    );
}

#[test]
fn two_hundred_generated_schemas_validate_greedy_and_sampled() {
    let engine = &servers().engine;
    let prompt = chat_ids(engine, "Describe something as a JSON object.");
    let mut rng = Rng(20261124);
    let schemas: Vec<Value> = (0..200).map(|_| schema(&mut rng, 0)).collect();
    for (temperature, label) in [(0.0f32, "greedy"), (1.0, "sampled")] {
        for (chunk_index, chunk) in schemas.chunks(32).enumerate() {
            let requests = chunk
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let params = SamplingParams {
                        temperature,
                        seed: Some((chunk_index * 32 + i) as u64),
                        max_new_tokens: 400,
                        ..SamplingParams::default()
                    };
                    constrained(
                        engine,
                        prompt.clone(),
                        &GrammarSpec::JsonSchema(s.clone()),
                        params,
                    )
                })
                .collect();
            for (i, out) in run_all(engine, requests).iter().enumerate() {
                assert_valid(
                    &chunk[i],
                    out,
                    &format!("{label} schema {}", chunk_index * 32 + i),
                );
            }
        }
    }
    common::wait_idle(engine);
}

#[test]
fn regexes_lark_and_gbnf_constrain_the_whole_output() {
    let engine = &servers().engine;
    let prompt = chat_ids(engine, "Give me an answer.");
    let regexes = [
        r"[0-9]{3}-[0-9]{4}",
        r"(yes|no|maybe)",
        r"[A-Z][a-z]{2,8} [A-Z][a-z]{2,8}",
        r"20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9])",
        r"[a-z]{1,8}@[a-z]{1,8}\.(com|org)",
    ];
    let arithmetic_lark = "start: expr\nexpr: term ((\"+\" | \"-\") term)*\nterm: NUMBER | \"(\" expr \")\"\nNUMBER: /[1-9][0-9]{0,2}/\n";
    let arithmetic_gbnf = "root ::= expr\nexpr ::= term ((\"+\" | \"-\") term)*\nterm ::= [1-9] [0-9]? | \"(\" expr \")\"";
    let mut specs: Vec<GrammarSpec> = regexes
        .iter()
        .map(|r| GrammarSpec::Regex(r.to_string()))
        .collect();
    specs.push(GrammarSpec::Lark(arithmetic_lark.into()));
    specs.push(GrammarSpec::Ebnf(arithmetic_gbnf.into()));
    let mut requests = Vec::new();
    for spec in &specs {
        for seed in 0..4u64 {
            let params = SamplingParams {
                temperature: if seed == 0 { 0.0 } else { 1.0 },
                seed: Some(seed),
                max_new_tokens: 48,
                ..SamplingParams::default()
            };
            requests.push(constrained(engine, prompt.clone(), spec, params));
        }
    }
    let outputs = run_all(engine, requests);
    let arithmetic = regex::Regex::new(r"^[0-9+\-()]+$").unwrap();
    for (i, out) in outputs.iter().enumerate() {
        let spec = &specs[i / 4];
        match spec {
            GrammarSpec::Regex(rx) => {
                let full = regex::Regex::new(&format!("^(?:{rx})$")).unwrap();
                assert!(full.is_match(&out.text), "{rx}: {:?}", out.text);
                assert_eq!(
                    out.finish,
                    FinishReason::Stop(StopMatch::Grammar),
                    "{:?}",
                    out.text
                );
            }
            _ if out.finish == FinishReason::Length => {
                // An expression may go on until the budget; what there is must still parse so far.
                assert!(arithmetic.is_match(&out.text), "{:?}", out.text);
            }
            _ => {
                assert!(arithmetic.is_match(&out.text), "{:?}", out.text);
                let balance = out.text.chars().fold(0i32, |b, c| match c {
                    '(' => b + 1,
                    ')' => b - 1,
                    _ => b,
                });
                assert_eq!(balance, 0, "{:?}", out.text);
                assert!(!out.text.ends_with(['+', '-', '(']), "{:?}", out.text);
            }
        }
    }
    common::wait_idle(engine);
}

#[test]
fn forced_keys_jump_forward_in_fewer_steps_than_tokens() {
    let engine = &servers().engine;
    let schema = json!({
        "type": "object",
        "properties": {
            "the_name_of_the_capital_city_of_the_country": {"enum": ["Paris", "Rome"]},
            "is_this_city_larger_than_one_million_people": {"type": "boolean"},
            "number_of_letters_in_the_name_of_the_city": {"type": "integer", "minimum": 1, "maximum": 9}
        },
        "required": [
            "the_name_of_the_capital_city_of_the_country",
            "is_this_city_larger_than_one_million_people",
            "number_of_letters_in_the_name_of_the_city"
        ],
        "additionalProperties": false
    });
    let prompt = chat_ids(engine, "What is the capital of France?");
    common::wait_idle(engine);
    let before = engine.server_info().scheduler_steps;
    let request = constrained(
        engine,
        prompt,
        &GrammarSpec::JsonSchema(schema.clone()),
        SamplingParams::greedy(200),
    );
    let out = run_all(engine, vec![request]).remove(0);
    let steps = engine.server_info().scheduler_steps - before;
    assert_valid(&schema, &out, "jump-forward");
    println!("{} tokens in {steps} steps: {:?}", out.tokens, out.text);
    assert!(
        (steps as f64) < out.tokens as f64 * 0.5,
        "{steps} steps for {} tokens",
        out.tokens
    );
    common::wait_idle(engine);
}

#[test]
fn logit_bias_moves_the_greedy_choice() {
    let engine = &servers().engine;
    let prompt = chat_ids(engine, "Say hello.");
    let plain = run_all(
        engine,
        vec![GenerateRequest::new(
            prompt.clone(),
            SamplingParams::greedy(1),
        )],
    );
    let first = engine
        .tokenizer()
        .encode_without_bos_eos(&plain[0].text, false)
        .unwrap()[0];
    let mut banned = SamplingParams::greedy(1);
    banned.logit_bias = vec![(first, -100.0)];
    let mut forced = SamplingParams::greedy(3);
    let target = engine
        .tokenizer()
        .encode_without_bos_eos(" zebra", false)
        .unwrap()[0];
    forced.logit_bias = vec![(target, 100.0)];
    let outs = run_all(
        engine,
        vec![
            GenerateRequest::new(prompt.clone(), banned),
            GenerateRequest::new(prompt, forced),
        ],
    );
    assert_ne!(outs[0].text, plain[0].text);
    assert!(outs[1].text.starts_with(" zebra"), "{:?}", outs[1].text);
    common::wait_idle(engine);
}

async fn post(path: &str, body: Value) -> (u16, Value) {
    post_json(servers().http, path, body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_apis_take_constraints_and_refuse_bad_ones_by_name() {
    let person = json!({
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 10}, "age": {"type": "integer", "minimum": 0, "maximum": 120}},
        "required": ["name", "age"],
        "additionalProperties": false
    });
    let (status, body) = post(
        "/v1/chat/completions",
        json!({
            "messages": [{"role": "user", "content": "Invent a person."}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "person", "schema": person, "strict": true}},
            "max_tokens": 100, "temperature": 0
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let content: Value =
        serde_json::from_str(body["choices"][0]["message"]["content"].as_str().unwrap()).unwrap();
    assert!(
        content["age"].is_i64() && content["name"].is_string(),
        "{content}"
    );
    assert_eq!(body["choices"][0]["finish_reason"], "stop");
    let (status, body) = post(
        "/v1/completions",
        json!({"prompt": "The answer:", "response_format": {"type": "json_object"}, "max_tokens": 60, "temperature": 0}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let text = body["choices"][0]["text"].as_str().unwrap();
    if body["choices"][0]["finish_reason"] == "stop" {
        assert!(
            serde_json::from_str::<Value>(text).unwrap().is_object(),
            "{text}"
        );
    }
    let (status, body) = post(
        "/v1/completions",
        json!({"prompt": "Pick:", "regex": "(left|right)", "max_tokens": 5}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(["left", "right"].contains(&body["choices"][0]["text"].as_str().unwrap()));
    for (body, param) in [
        (
            json!({"prompt": "x", "response_format": {"type": "json_schema", "json_schema": {"schema": {"type": "integer", "minimum": "a"}}}}),
            "response_format",
        ),
        (
            json!({"prompt": "x", "response_format": {"type": "xml"}}),
            "response_format",
        ),
        (json!({"prompt": "x", "regex": "(unclosed"}), "regex"),
        (
            json!({"prompt": "x", "lark": "start: nothing_defined"}),
            "lark",
        ),
        (json!({"prompt": "x", "ebnf": "root ::= \"a"}), "ebnf"),
        (
            json!({"prompt": "x", "regex": "a", "lark": "start: \"a\""}),
            "response_format",
        ),
        (
            json!({"prompt": "x", "logit_bias": {"5": 101}}),
            "logit_bias",
        ),
        (
            json!({"prompt": "x", "logit_bias": {"abc": 1}}),
            "logit_bias",
        ),
        (
            json!({"prompt": "x", "logit_bias": {"999999": 1}}),
            "logit_bias",
        ),
        // Parameters are checked before the grammar is compiled: a bad one is named even
        // beside a grammar that would not compile.
        (
            json!({"prompt": "x", "regex": "(unclosed", "top_p": 2}),
            "top_p",
        ),
        (
            json!({"prompt": "x", "lark": "start: nothing_defined", "max_tokens": 100000}),
            "max_tokens",
        ),
    ] {
        let (status, reply) = post("/v1/completions", body.clone()).await;
        assert_eq!(status, 400, "{body}: {reply}");
        assert_eq!(reply["error"]["param"], param, "{body}: {reply}");
    }
    // A tool whose schema does not compile: the error names `tools`, which the client sent,
    // not the grammar built from them.
    let tools = json!([{"type": "function", "function": {"name": "f", "parameters":
        {"type": "object", "properties": {"a": {"type": "string", "pattern": "(unclosed"}}}}}]);
    let body = json!({"messages": [{"role": "user", "content": "x"}], "tools": tools,
                      "tool_choice": "required"});
    let (status, reply) = post("/v1/chat/completions", body).await;
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["error"]["param"], "tools", "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("tools: "), "{message}");
    let mut client = RadixServeClient::connect(format!("http://{}", servers().grpc))
        .await
        .unwrap();
    let request = |params: pb::SamplingParams| pb::GenerateRequest {
        input: Some(Input::Text("Answer:".into())),
        sampling_params: Some(params),
        ..Default::default()
    };
    let mut stream = client
        .generate(request(pb::SamplingParams {
            regex: Some("[0-9]{4}".into()),
            temperature: Some(0.0),
            max_new_tokens: Some(10),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let mut text = String::new();
    while let Some(message) = stream.message().await.unwrap() {
        if let Some(pb::generate_response::Response::Chunk(chunk)) = message.response {
            text.push_str(&chunk.text);
        }
    }
    assert!(
        regex::Regex::new("^[0-9]{4}$").unwrap().is_match(&text),
        "{text:?}"
    );
    let status = client
        .generate(request(pb::SamplingParams {
            json_schema: Some("{\"type\": 5}".into()),
            ..Default::default()
        }))
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    let status = client
        .generate(request(pb::SamplingParams {
            regex: Some("(unclosed".into()),
            top_p: Some(2.0),
            ..Default::default()
        }))
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains("top_p"), "{status:?}");
    let engine = servers().engine.clone();
    tokio::task::spawn_blocking(move || common::wait_idle(&engine))
        .await
        .unwrap();
}

fn weather_tools() -> Value {
    json!([
        {"type": "function", "function": {
            "name": "get_weather",
            "description": "The weather in a city",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "maxLength": 20},
                    "unit": {"enum": ["celsius", "fahrenheit"]}
                },
                "required": ["city", "unit"]
            }
        }},
        {"type": "function", "function": {
            "name": "get_time",
            "parameters": {"type": "object", "properties": {"zone": {"type": "string", "maxLength": 10}}, "required": ["zone"]}
        }}
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_calls_follow_their_schemas_in_full_and_streamed_responses() {
    let tools = weather_tools();
    let schemas: Vec<Value> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["parameters"].clone())
        .collect();
    let ask = |choice: Value, stream: bool| {
        json!({
            "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
            "tools": tools, "tool_choice": choice, "temperature": 0, "max_tokens": 120,
            "stream": stream
        })
    };
    for choice in [
        json!("required"),
        json!({"type": "function", "function": {"name": "get_time"}}),
    ] {
        let (status, body) = post("/v1/chat/completions", ask(choice.clone(), false)).await;
        assert_eq!(status, 200, "{body}");
        let choice0 = &body["choices"][0];
        assert_eq!(choice0["finish_reason"], "tool_calls", "{body}");
        let call = &choice0["message"]["tool_calls"][0];
        assert_eq!(call["type"], "function");
        let name = call["function"]["name"].as_str().unwrap();
        if choice.is_object() {
            assert_eq!(name, "get_time");
        }
        let schema = &schemas[if name == "get_weather" { 0 } else { 1 }];
        let arguments: Value =
            serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
        let validator = jsonschema::validator_for(schema).unwrap();
        assert!(
            validator.is_valid(&arguments),
            "{arguments} breaks {schema}"
        );
        // Streamed, the deltas make the same calls, in order, each arriving as it is
        // written: its name first, then its arguments in pieces.
        let events = post_sse(servers().http, "/v1/chat/completions", ask(choice, true)).await;
        let streamed = streamed_calls(&events);
        let full = choice0["message"]["tool_calls"].as_array().unwrap();
        assert_eq!(streamed.len(), full.len(), "{events:?}");
        for ((s, deltas), f) in streamed.iter().zip(full) {
            assert_eq!(s["function"], f["function"]);
            let arguments = f["function"]["arguments"].as_str().unwrap();
            assert!(
                arguments == "{}" || *deltas > 2,
                "{deltas} deltas: {events:?}"
            );
        }
        let last = events.last().unwrap();
        assert_eq!(last["choices"][0]["finish_reason"], "tool_calls");
    }
    // Auto: text, or a well-formed call.
    let (status, body) = post("/v1/chat/completions", ask(json!("auto"), false)).await;
    assert_eq!(status, 200, "{body}");
    let message = &body["choices"][0]["message"];
    if let Some(calls) = message.get("tool_calls") {
        let arguments = calls[0]["function"]["arguments"].as_str().unwrap();
        assert!(serde_json::from_str::<Value>(arguments)
            .unwrap()
            .is_object());
    } else {
        assert!(message["content"].is_string(), "{body}");
    }
    // Auto beside a JSON response format (an agent's structured final answer): calls, or
    // content in that format. Several samples, so that both kinds are likely to be seen.
    let report = json!({"type": "object", "properties": {"summary": {"type": "string"}},
                        "required": ["summary"]});
    let mut agent = ask(json!("auto"), false);
    agent["temperature"] = json!(1.0);
    agent["seed"] = json!(7);
    agent["n"] = json!(4);
    agent["response_format"] = json!({"type": "json_schema",
        "json_schema": {"name": "report", "schema": report}});
    let (status, body) = post("/v1/chat/completions", agent).await;
    assert_eq!(status, 200, "{body}");
    let validator = jsonschema::validator_for(&report).unwrap();
    for choice in body["choices"].as_array().unwrap() {
        let message = &choice["message"];
        match message.get("tool_calls") {
            Some(calls) => {
                assert_eq!(choice["finish_reason"], "tool_calls", "{choice}");
                for call in calls.as_array().unwrap() {
                    let arguments = call["function"]["arguments"].as_str().unwrap();
                    let arguments: Value = serde_json::from_str(arguments).unwrap();
                    assert!(arguments.is_object(), "{choice}");
                }
            }
            None if choice["finish_reason"] == "stop" => {
                let answer: Value =
                    serde_json::from_str(message["content"].as_str().unwrap()).unwrap();
                assert!(validator.is_valid(&answer), "{answer} breaks {report}");
            }
            // Cut by max_tokens: neither is complete.
            None => assert_eq!(choice["finish_reason"], "length", "{choice}"),
        }
    }
    // A regex, or an answer that is not an object, beside tools cannot be: 400 naming
    // tool_choice.
    let mut regex = ask(json!("auto"), false);
    regex["regex"] = json!("[a-z]+");
    let mut list = ask(json!("auto"), false);
    list["response_format"] = json!({"type": "json_schema",
        "json_schema": {"name": "list", "schema": {"type": "array"}}});
    for body in [regex, list] {
        let (status, reply) = post("/v1/chat/completions", body).await;
        assert_eq!(
            (status, reply["error"]["param"].as_str()),
            (400, Some("tool_choice")),
            "{reply}"
        );
    }
    // A conversation that carries a call and its result goes on.
    let (status, body) = post(
        "/v1/chat/completions",
        json!({
            "messages": [
                {"role": "user", "content": "Weather in Rome?"},
                {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                  "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\",\"unit\":\"celsius\"}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "21 degrees, sunny"}
            ],
            "tools": tools, "tool_choice": "none", "temperature": 0, "max_tokens": 20
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["choices"][0]["message"]["content"].is_string());
    for (body, param) in [
        (
            ask(
                json!({"type": "function", "function": {"name": "nope"}}),
                false,
            ),
            "tool_choice",
        ),
        (ask(json!("sometimes"), false), "tool_choice"),
        (
            json!({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "bad name!"}}]}),
            "tools",
        ),
    ] {
        let (status, reply) = post("/v1/chat/completions", body.clone()).await;
        assert_eq!(
            (status, reply["error"]["param"].as_str()),
            (400, Some(param)),
            "{reply}"
        );
    }
}

/// A pool too small for every constrained request at once: decode retracts some, which come
/// back later with their output and grammar state; every output still validates.
#[test]
fn constrained_requests_survive_retraction() {
    let mut config = EngineConfig::new(common::model_path());
    // About 600 tokens of f32 K/V (46,080 bytes per token).
    config.kv_budget_bytes = 600 * 46_080;
    config.max_context_len = 512;
    config.scheduler.max_running_requests = 16;
    // Optimistic admission: the outputs outgrow their reservations and decode runs short.
    config.scheduler.init_new_token_ratio = 0.05;
    config.scheduler.min_new_token_ratio = 0.05;
    // Every decode each step, however long the masks take on a loaded machine: the pool
    // runs short at the same point each run.
    config.scheduler.grammar_mask_budget = None;
    let engine = EngineHandle::start(config).unwrap();
    let schema = json!({
        "type": "object",
        "properties": {
            "story": {"type": "string", "pattern": "^[A-Za-z ,.]{100,140}$"},
            "mood": {"enum": ["happy", "sad"]}
        },
        "required": ["story", "mood"]
    });
    let spec = GrammarSpec::JsonSchema(schema.clone());
    let requests = (0..16u64)
        .map(|seed| {
            let prompt = chat_ids(&engine, &format!("Tell story number {seed}."));
            let params = SamplingParams {
                temperature: 1.0,
                seed: Some(seed),
                max_new_tokens: 300,
                ..SamplingParams::default()
            };
            constrained(&engine, prompt, &spec, params)
        })
        .collect();
    let outputs = run_all(&engine, requests);
    for (i, out) in outputs.iter().enumerate() {
        assert_valid(&schema, out, &format!("request {i}"));
    }
    assert!(
        engine.server_info().retractions > 0,
        "the pool was never short"
    );
    common::wait_idle(&engine);
}
