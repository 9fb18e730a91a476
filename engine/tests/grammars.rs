//! The grammar compiler on the real model's vocabulary, without the model: compiled grammars
//! are cached per cache namespace (tenant or group, and salt), a full cache drops what the
//! scope holding the most used least recently, a grammar that fails in one request does not
//! fail the next one that uses the cached grammar, and the tool grammar admits one call or
//! several as `parallel_tool_calls` says. Then on a server: a grammar failing part-way is the
//! client's error on both APIs, and vLLM's names for constraints work as ours.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::process::Rng;
use common::servers::{post_json, serve};
use engine::gguf::GgufFile;
use engine::grammar::{
    Constraint, GrammarLimits, GrammarSpec, Grammars, Step, ToolChoice, ToolFormat, ToolFunction,
};
use engine::handle::EngineConfig;
use engine::tokenizer::{ThinkTags, Thinking, Tokenizer};
use proto::v1 as pb;
use proto::v1::generate_request::Input;
use proto::v1::radix_serve_client::RadixServeClient;
use radix::{CacheScope, Namespace};
use serde_json::{json, Value};
use std::sync::Arc;

pub(crate) fn grammars(limits: GrammarLimits) -> (Arc<Tokenizer>, Grammars) {
    let file = GgufFile::open(common::model_path()).unwrap();
    let tok = Arc::new(Tokenizer::from_gguf_metadata(file.metadata()).unwrap());
    let grammars = Grammars::new(tok.clone(), tok.vocab_size(), limits);
    (tok, grammars)
}

fn tenant(id: u32) -> Namespace {
    Namespace::scoped(CacheScope::Tenant(id))
}

/// Lowercase-letter tokens the mask allows, cycling with `rng`.
fn a_lowercase_token(tok: &Tokenizer, mask: &[u32], rng: &mut Rng) -> Option<u32> {
    let allowed: Vec<u32> = (0..tok.vocab_size() as u32)
        .filter(|&t| {
            mask.get(t as usize / 32)
                .is_some_and(|w| (w >> (t % 32)) & 1 == 1)
        })
        .filter(|&t| {
            let text = tok.decode(&[t], false).unwrap_or_default();
            !text.is_empty() && text.bytes().all(|b| b.is_ascii_lowercase())
        })
        .collect();
    (!allowed.is_empty()).then(|| allowed[rng.below(allowed.len() as u64) as usize])
}

/// A request whose grammar fails (here: it needs more lexer states than allowed) fails
/// alone: neither a request running the same cached grammar at the same time nor the next
/// one to compile it shares its lexer, its state count or its error.
#[test]
fn a_grammar_that_fails_in_one_request_still_works_for_the_next() {
    let limits = GrammarLimits {
        max_lexer_states: 300,
        ..GrammarLimits::default()
    };
    let (tok, grammars) = grammars(limits);
    // Whether the 13th letter from the end is an `a`: a DFA of 2^13 states.
    let spec = GrammarSpec::Regex("[a-z]*a[a-z]{12}".into());
    let mut rng = Rng(7);
    // The first compile fills the cache; the two requests below both come from it.
    grammars.compile(&spec, &Namespace::global()).unwrap();
    let mut first = grammars.compile(&spec, &Namespace::global()).unwrap();
    let mut beside = grammars.compile(&spec, &Namespace::global()).unwrap();
    let mut steps = 0;
    let error = loop {
        match first.compute_mask() {
            Err(e) => break e,
            Ok(mask) => {
                let token = a_lowercase_token(&tok, &mask, &mut rng).unwrap();
                first.advance(token).unwrap();
                steps += 1;
                assert!(steps < 500, "the lexer never reached its state limit");
            }
        }
    };
    println!("failed after {steps} tokens: {error}");
    assert!(error.ends_with("too many states: 300 >= 300"), "{error}");
    assert!(steps > 3, "the limit leaves room for a few tokens");
    let mut next = grammars.compile(&spec, &Namespace::global()).unwrap();
    for constraint in [&mut beside, &mut next] {
        for _ in 0..3 {
            let mask = constraint.compute_mask().unwrap();
            let token = a_lowercase_token(&tok, &mask, &mut rng).unwrap();
            constraint.advance(token).unwrap();
        }
    }
}

/// Compiled grammars are cached per cache namespace: another tenant's compile of the same
/// grammar is a miss, and so is the same tenant's under another salt (how long a compile
/// takes must not tell a tenant, or a user its salt separates, what others ran).
#[test]
fn grammars_are_cached_per_cache_namespace() {
    let (_, grammars) = grammars(GrammarLimits::default());
    let spec = GrammarSpec::Regex("(yes|no)".into());
    let salted = |id, salt: &str| tenant(id).with_salt(salt);
    let order = [
        (tenant(1), 1),
        (tenant(1), 1),
        (tenant(2), 2),
        (salted(1, "alice"), 3),
        (salted(1, "alice"), 3),
        (salted(1, "bob"), 4),
        (Namespace::scoped(CacheScope::Group(1)), 5),
    ];
    for (namespace, cached) in order {
        grammars.compile(&spec, &namespace).unwrap();
        assert_eq!(grammars.cached_count(), cached, "after {namespace:?}");
        assert!(grammars.holds(&spec, &namespace));
    }
    assert!(!grammars.holds(&spec, &salted(2, "alice")));
}

/// A full cache makes room in the scope holding the most: a tenant that compiles grammar
/// after grammar replaces its own, and the grammars of a tenant within its share stay.
#[test]
fn a_full_grammar_cache_drops_from_the_scope_holding_the_most() {
    let limits = GrammarLimits {
        max_cached: 4,
        ..GrammarLimits::default()
    };
    let (_, grammars) = grammars(limits);
    let regex = |i: usize| GrammarSpec::Regex(format!("(yes|no){{{i}}}"));
    for i in 1..=2 {
        grammars.compile(&regex(i), &tenant(1)).unwrap();
    }
    // Tenant 2 cycles through ten grammars under different salts: same scope.
    for i in 10..20 {
        let namespace = tenant(2).with_salt(format!("user{i}"));
        grammars.compile(&regex(i), &namespace).unwrap();
        assert_eq!(grammars.cached_count(), (i - 7).min(4));
    }
    for i in 1..=2 {
        assert!(grammars.holds(&regex(i), &tenant(1)), "tenant 1 lost {i}");
    }
    for i in 18..20 {
        let namespace = tenant(2).with_salt(format!("user{i}"));
        assert!(grammars.holds(&regex(i), &namespace), "tenant 2 lost {i}");
    }
    // Tenant 1 over its share: it replaces its own least recently used grammar.
    grammars.compile(&regex(3), &tenant(1)).unwrap();
    assert_eq!(grammars.cached_count(), 4);
    let tenant_one: Vec<bool> = (1..=3)
        .map(|i| grammars.holds(&regex(i), &tenant(1)))
        .collect();
    assert_eq!(tenant_one, [false, true, true]);
    for i in 18..20 {
        let namespace = tenant(2).with_salt(format!("user{i}"));
        assert!(grammars.holds(&regex(i), &namespace), "tenant 2 lost {i}");
    }
}

/// Feeds `text` through `constraint` token by token (each allowed by the mask, forced tokens
/// taken as they come, even past the end of `text`) and returns the last step.
pub(crate) fn feed(tok: &Tokenizer, constraint: &mut Constraint, text: &str) -> Step {
    let mut rest = text.to_string();
    let mut last = None;
    while !rest.is_empty() {
        let ids = tok.encode_without_bos_eos(&rest, false).unwrap();
        let token = ids[0];
        let mask = constraint.compute_mask().unwrap();
        assert!(
            (mask[token as usize / 32] >> (token % 32)) & 1 == 1,
            "the grammar refuses {:?} before {rest:?}",
            tok.decode(&[token], false).unwrap()
        );
        let piece = tok.decode(&[token], false).unwrap();
        rest = rest.strip_prefix(piece.as_str()).unwrap().to_string();
        let step = constraint.advance(token).unwrap();
        let (Step::Continue { forced } | Step::Done { forced }) = &step;
        let forced = tok.decode(forced, false).unwrap();
        // Forced text may run past the end of `text`.
        rest = match rest.strip_prefix(forced.as_str()) {
            Some(after) => after.to_string(),
            None if forced.starts_with(rest.as_str()) => String::new(),
            None => panic!("forced {forced:?} where {rest:?} follows"),
        };
        last = Some(step);
    }
    last.unwrap()
}

/// Whether the grammar admits nothing but the end of the output now.
pub(crate) fn only_the_end(tok: &Tokenizer, constraint: &mut Constraint, step: &Step) -> bool {
    if matches!(step, Step::Done { .. }) {
        return true;
    }
    let mask = constraint.compute_mask().unwrap();
    let allowed: Vec<u32> = (0..tok.vocab_size() as u32)
        .filter(|&t| (mask[t as usize / 32] >> (t % 32)) & 1 == 1)
        .collect();
    allowed == [tok.eos_token_id().unwrap()]
}

/// A tool with one required string argument, and a call of it.
pub(crate) fn get_time() -> ToolFunction {
    ToolFunction {
        name: "get_time".into(),
        description: None,
        parameters: serde_json::json!({
            "type": "object",
            "properties": {"zone": {"type": "string"}},
            "required": ["zone"]
        }),
    }
}

const GET_TIME_CALL: &str =
    "<tool_call>\n{\"name\":\"get_time\",\"arguments\":{\"zone\":\"UTC\"}}\n</tool_call>";

/// `tool_choice: auto` with `parallel_tool_calls: false` admits one call and then the end;
/// with parallel calls a second one may follow.
#[test]
fn the_auto_tool_grammar_admits_a_second_call_only_in_parallel() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let tools = [get_time()];
    let call = GET_TIME_CALL;
    let text = format!("Let me look.{call}");
    for parallel in [false, true] {
        let spec = ToolFormat::Hermes
            .grammar(&tools, &ToolChoice::Auto, parallel, None, &tok)
            .unwrap();
        let mut constraint = grammars.compile(&spec, &Namespace::global()).unwrap();
        let step = feed(&tok, &mut constraint, &text);
        assert_eq!(
            only_the_end(&tok, &mut constraint, &step),
            !parallel,
            "parallel: {parallel}"
        );
        if parallel {
            let step = feed(&tok, &mut constraint, &format!("\n{call}"));
            assert!(matches!(step, Step::Continue { .. }));
        }
    }
}

/// Whether the grammar lets the output end now.
pub(crate) fn may_end(tok: &Tokenizer, constraint: &mut Constraint, step: &Step) -> bool {
    if matches!(step, Step::Done { .. }) {
        return true;
    }
    let eos = tok.eos_token_id().unwrap();
    let mask = constraint.compute_mask().unwrap();
    (mask[eos as usize / 32] >> (eos % 32)) & 1 == 1
}

/// `tool_choice: auto` beside a JSON response format (an agent with tools and a structured
/// final answer): the output is calls, or the answer in that format. The answer may end the
/// output, text leading to a call may, but free text alone may not.
#[test]
fn auto_tools_beside_a_json_format_admit_calls_or_the_answer() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let tools = [get_time()];
    let answer = GrammarSpec::JsonSchema(serde_json::json!({
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"]
    }));
    let call = GET_TIME_CALL;
    for parallel in [false, true] {
        let spec = ToolFormat::Hermes
            .grammar(&tools, &ToolChoice::Auto, parallel, Some(&answer), &tok)
            .unwrap();
        let fresh = || grammars.compile(&spec, &Namespace::global()).unwrap();
        let mut constraint = fresh();
        let step = feed(&tok, &mut constraint, "{\"city\":\"Paris\"}");
        assert!(may_end(&tok, &mut constraint, &step), "the answer");
        let mut constraint = fresh();
        let step = feed(&tok, &mut constraint, &format!("Let me look.{call}"));
        assert!(may_end(&tok, &mut constraint, &step), "a call");
        let mut constraint = fresh();
        let step = feed(&tok, &mut constraint, "Let me look.");
        assert!(
            !may_end(&tok, &mut constraint, &step),
            "text alone, parallel: {parallel}"
        );
        // `required` forces calls whatever the format says.
        let spec = ToolFormat::Hermes
            .grammar(&tools, &ToolChoice::Required, parallel, Some(&answer), &tok)
            .unwrap();
        let mut constraint = grammars.compile(&spec, &Namespace::global()).unwrap();
        let step = feed(&tok, &mut constraint, call);
        assert!(may_end(&tok, &mut constraint, &step));
    }
}

/// Whether the grammar admits the first token of `text` next.
pub(crate) fn admits(tok: &Tokenizer, constraint: &mut Constraint, text: &str) -> bool {
    let token = tok.encode_without_bos_eos(text, false).unwrap()[0];
    let mask = constraint.compute_mask().unwrap();
    (mask[token as usize / 32] >> (token % 32)) & 1 == 1
}

/// A reasoning model's grammar: thinking is free text up to the first `</think>`, then a
/// blank line and the answer's grammar, whole. With the block opened by the prompt the
/// output starts in it; otherwise it may open the output or be left out.
#[test]
fn a_grammar_after_thinking_leaves_the_thinking_free_and_holds_the_answer() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let city = GrammarSpec::JsonSchema(serde_json::json!({
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"]
    }));
    let answer = "{\"city\":\"Paris\"}";
    let after = |inside, answer: &GrammarSpec| {
        let spec = GrammarSpec::AfterThinking {
            thinking: xml(inside),
            budget: None,
            answer: Box::new(answer.clone()),
        };
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    let mut constraint = after(true, &city);
    let step = feed(
        &tok,
        &mut constraint,
        &format!("Paris, {{surely}}.\n</think>\n\n{answer}"),
    );
    assert!(
        may_end(&tok, &mut constraint, &step),
        "thinking then the answer"
    );
    // Before `</think>` an answer is still thinking: the output may not end.
    let mut constraint = after(true, &city);
    let step = feed(&tok, &mut constraint, answer);
    assert!(
        !may_end(&tok, &mut constraint, &step),
        "an answer inside the thinking"
    );
    // After it, at most a blank line, then only the answer.
    let mut constraint = after(true, &city);
    feed(&tok, &mut constraint, "Hmm</think>");
    assert!(admits(&tok, &mut constraint, "\n"));
    assert!(admits(&tok, &mut constraint, "{"));
    assert!(!admits(&tok, &mut constraint, "Well"));
    let mut constraint = after(true, &city);
    let step = feed(&tok, &mut constraint, &format!("Hmm</think>\n{answer}"));
    assert!(may_end(&tok, &mut constraint, &step), "one newline");

    for text in [
        answer.to_string(),
        format!("<think>hmm</think>\n\n{answer}"),
    ] {
        let mut constraint = after(false, &city);
        let step = feed(&tok, &mut constraint, &text);
        assert!(may_end(&tok, &mut constraint, &step), "{text:?}");
    }

    // Calls forced by `tool_choice: required` come after the thinking too.
    let required = ToolFormat::Hermes
        .grammar(&[get_time()], &ToolChoice::Required, false, None, &tok)
        .unwrap();
    let mut constraint = after(true, &required);
    let step = feed(
        &tok,
        &mut constraint,
        &format!("The time.</think>\n\n{GET_TIME_CALL}"),
    );
    assert!(may_end(&tok, &mut constraint, &step));
}

/// A thinking budget: once the thinking has taken its tokens, `</think>` is forced (then the
/// answer follows, free when no format was asked for); a thinking that ends sooner is free to; a budget of 0 closes the
/// block at once.
#[test]
fn a_thinking_budget_closes_the_thinking_when_spent() {
    let (tok, grammars) = grammars(GrammarLimits::default());
    let thinking = "Paris is the";
    let budget = tok.encode_without_bos_eos(thinking, false).unwrap().len() as u32;
    assert!(budget > 1);
    let city = GrammarSpec::Regex("[A-Z][a-z]+\\.".into());
    let after = |budget| {
        let spec = GrammarSpec::AfterThinking {
            thinking: xml(true),
            budget: Some(budget),
            answer: Box::new(city.clone()),
        };
        grammars.compile(&spec, &Namespace::global()).unwrap()
    };
    let mut constraint = after(budget);
    // The budget's last token forces `</think>` at once.
    let step = feed(&tok, &mut constraint, thinking);
    let (Step::Continue { forced } | Step::Done { forced }) = &step;
    assert_eq!(tok.decode(forced, false).unwrap(), "</think>");
    assert!(
        !admits(&tok, &mut constraint, " capital"),
        "the budget is spent"
    );
    let step = feed(&tok, &mut constraint, "\n\nParis.");
    assert!(may_end(&tok, &mut constraint, &step));
    // Sooner, the thinking ends as it likes.
    let mut constraint = after(budget + 10);
    feed(&tok, &mut constraint, thinking);
    assert!(admits(&tok, &mut constraint, " capital"));
    let step = feed(&tok, &mut constraint, " capital</think>\nParis.");
    assert!(may_end(&tok, &mut constraint, &step));
    assert!(!constraint.is_free(), "a format holds after the thinking");
    // Without a format the answer is free: the constraint says so once the block ends.
    let free = GrammarSpec::AfterThinking {
        thinking: xml(true),
        budget: Some(budget),
        answer: Box::new(GrammarSpec::AnyText),
    };
    let mut constraint = grammars.compile(&free, &Namespace::global()).unwrap();
    feed(&tok, &mut constraint, "Paris");
    assert!(!constraint.is_free(), "still thinking");
    feed(&tok, &mut constraint, " is the");
    assert!(constraint.is_free(), "the block was closed for it");
    let mut constraint = after(0);
    assert!(!admits(&tok, &mut constraint, "Paris"));
    let step = feed(&tok, &mut constraint, "</think>\n\nParis.");
    assert!(may_end(&tok, &mut constraint, &step));
}

/// A grammar that fails part-way through the output (here its lexer needs more states than
/// the server allows) is the client's to change: 400 on HTTP, INVALID_ARGUMENT on gRPC, not
/// a server fault; the engine goes on and leaks nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grammar_failing_part_way_is_the_clients_error() {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 64 << 20;
    config.max_context_len = 1024;
    config.grammar_limits.max_lexer_states = 300;
    let servers = serve(config);
    // Whether the 13th letter from the end is an `a`: a DFA of 2^13 states, built lazily.
    let regex = "[a-z]*a[a-z]{12}";
    let (status, body) = post_json(
        servers.http,
        "/v1/completions",
        json!({"prompt": "Letters:", "regex": regex, "max_tokens": 600, "temperature": 1.0, "seed": 5, "ignore_eos": true}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["type"], "invalid_request_error");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("too many states"), "{message}");
    let mut client = RadixServeClient::connect(format!("http://{}", servers.grpc))
        .await
        .unwrap();
    let request = pb::GenerateRequest {
        input: Some(Input::Text("Letters:".into())),
        sampling_params: Some(pb::SamplingParams {
            temperature: Some(1.0),
            seed: Some(5),
            max_new_tokens: Some(600),
            ignore_eos: Some(true),
            regex: Some(regex.into()),
            ..Default::default()
        }),
        ..Default::default()
    };
    let mut stream = client.generate(request).await.unwrap().into_inner();
    let status = loop {
        match stream.message().await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended without the grammar's error"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    let engine = servers.engine.clone();
    tokio::task::spawn_blocking(move || common::wait_idle(&engine))
        .await
        .unwrap();
}

/// vLLM's names for constraints (`guided_choice`, `guided_regex`, `guided_json`) constrain
/// the output as ours do, and the no-op values of extensions we refuse pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vllm_constraint_names_constrain_the_output() {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 64 << 20;
    config.max_context_len = 1024;
    let servers = serve(config);
    let ask = |extra: Value| {
        let mut body = json!({
            "messages": [{"role": "user", "content": "Is Paris in France? Answer."}],
            "max_tokens": 20, "temperature": 0,
            "skip_special_tokens": true, "typical_p": 1.0, "use_beam_search": false
        });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let content = |body: &Value| {
        body["choices"][0]["message"]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let choices = ["certainly not", "yes, it is"];
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        ask(json!({"guided_choice": choices})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(choices.contains(&content(&body).as_str()), "{body}");
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        ask(json!({"guided_regex": "[0-9]{3}-[a-z]{2}"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let text = content(&body);
    let full = regex::Regex::new("^[0-9]{3}-[a-z]{2}$").unwrap();
    assert!(full.is_match(&text), "{text:?}");
    let schema = json!({"type": "object", "properties": {"answer": {"type": "boolean"}}, "required": ["answer"]});
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        ask(json!({"guided_json": schema})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let value: Value = serde_json::from_str(&content(&body)).unwrap();
    assert!(value["answer"].is_boolean(), "{value}");
    // SGLang's structural tag, as a response format or a field of its own: here the answer
    // is one tag, whose JSON holds to its schema (triggered tags: `structural_tags_…`).
    let tag = json!({"type": "structural_tag", "format": {"type": "tag", "begin": "<answer>",
        "content": {"type": "json_schema", "json_schema": schema}, "end": "</answer>"}});
    for extra in [
        json!({"response_format": tag, "max_tokens": 40}),
        json!({"structural_tag": tag.to_string(), "max_tokens": 40}),
    ] {
        let (status, body) = post_json(servers.http, "/v1/chat/completions", ask(extra)).await;
        assert_eq!(status, 200, "{body}");
        let text = content(&body);
        let json = text
            .strip_prefix("<answer>")
            .and_then(|rest| rest.strip_suffix("</answer>"))
            .unwrap_or_else(|| panic!("{text:?}"));
        let value: Value = serde_json::from_str(json).unwrap();
        assert!(value["answer"].is_boolean(), "{value}");
    }
    let unsupported =
        json!({"type": "structural_tag", "format": {"type": "grammar", "grammar": "x"}});
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        ask(json!({"response_format": unsupported})),
    )
    .await;
    assert_eq!(
        (status, body["error"]["param"].as_str()),
        (400, Some("response_format")),
        "{body}"
    );
    let engine = servers.engine.clone();
    tokio::task::spawn_blocking(move || common::wait_idle(&engine))
        .await
        .unwrap();
}

/// A `<think>` block, open from the first token (`inside`) or not.
fn xml(inside: bool) -> Thinking {
    Thinking {
        tags: ThinkTags::XML,
        inside,
    }
}
