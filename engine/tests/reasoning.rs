//! Reasoning models on the OpenAI chat API, on the real model with a Qwen 3-style template
//! (its generation prompt opens a `<think>` block unless `enable_thinking` is false): the
//! thinking comes back as `reasoning_content` apart from the answer, streamed the same as
//! whole, `chat_template_kwargs` reach the template, and `separate_reasoning: false` keeps
//! the thinking in the content, and a structured answer's grammar holds after the thinking.
//! Usage counts the thinking's tokens as `completion_tokens_details.reasoning_tokens`, and
//! `thinking_budget` caps them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
#[path = "reasoning/history.rs"]
mod history;
#[path = "reasoning/mistral_tags.rs"]
mod mistral_tags;
#[path = "reasoning/responses.rs"]
mod responses;

use common::servers::{post_json, post_sse, serve, Servers};
use engine::handle::{Conversation, EngineConfig, EngineHandle, PromptInput};
use engine::tokenizer::ChatMessage;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// ChatML whose assistant turn starts thinking, or skips it with an empty block.
const THINKING_TEMPLATE: &str = "{% for m in messages %}<|im_start|>{{ m.role }}\n\
    {{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}\
    <|im_start|>assistant\n{% if enable_thinking is defined and not enable_thinking %}\
    <think>\n\n</think>\n\n{% else %}<think>\n{% endif %}{% endif %}";

const ANSWER: &str = "[A-Z][a-z]{2,8}( [a-z]{2,8}){1,3}\\.";

fn servers() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| serve_template(THINKING_TEMPLATE, 64 << 20, 2048))
}

/// Servers of the model under chat template `template`, with a KV budget of `kv_bytes` and
/// a context of `context` tokens.
fn serve_template(template: &str, kv_bytes: usize, context: usize) -> Servers {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = kv_bytes;
    config.max_context_len = context;
    config.chat_template = Some(template.into());
    serve(config)
}

fn ask(regex: &str, extra: Value) -> Value {
    let mut body = json!({
        "messages": [{"role": "user", "content": "What is the capital of France?"}],
        "regex": regex, "temperature": 0, "max_tokens": 60,
    });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    body
}

/// The streamed thinking and content of choice 0, concatenated, and the reasoning tokens
/// of the usage chunk.
async fn streamed(body: Value) -> (String, String, Option<u64>) {
    let mut body = body;
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});
    let (mut thinking, mut content, mut reasoning_tokens) = (String::new(), String::new(), None);
    for chunk in post_sse(servers().http, "/v1/chat/completions", body).await {
        let delta = &chunk["choices"][0]["delta"];
        thinking.push_str(delta["reasoning_content"].as_str().unwrap_or_default());
        content.push_str(delta["content"].as_str().unwrap_or_default());
        if let Some(usage) = chunk["usage"].as_object() {
            reasoning_tokens = usage["completion_tokens_details"]["reasoning_tokens"].as_u64();
        }
    }
    (thinking, content, reasoning_tokens)
}

fn reasoning_tokens(reply: &Value) -> Option<u64> {
    reply["usage"]["completion_tokens_details"]["reasoning_tokens"].as_u64()
}

/// The tokens of a reply whose generation prompt opened the thinking, as its logprobs list
/// them, up to the one whose bytes complete `</think>` (all of them when none does).
fn thinking_tokens(reply: &Value) -> u64 {
    let tokens = reply["choices"][0]["logprobs"]["content"]
        .as_array()
        .unwrap();
    let mut text = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        let bytes = token["bytes"].as_array().unwrap();
        text.extend(bytes.iter().map(|b| b.as_u64().unwrap() as u8));
        if text.windows(8).any(|w| w == b"</think>") {
            return at as u64 + 1;
        }
    }
    tokens.len() as u64
}

/// The thinking and the answer a whole output holds, written out: up to the first
/// `</think>` (all of it when there is none), trimmed; then the rest, leading blanks gone.
fn expected_split(raw: &str) -> (Option<String>, String) {
    let (thinking, answer) = match raw.find("</think>") {
        Some(at) => (&raw[..at], raw[at + "</think>".len()..].trim_start()),
        None => (raw, ""),
    };
    let thinking = thinking.trim();
    (
        (!thinking.is_empty()).then(|| thinking.to_string()),
        answer.to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thinking_comes_apart_from_the_answer_whole_and_streamed() {
    let servers = servers();
    assert!(
        servers.engine.splits_reasoning(),
        "the template writes <think> blocks"
    );
    let ask = |extra: Value| {
        let mut body = json!({
            "messages": [{"role": "user", "content": "What is the capital of France?"}],
            "temperature": 0, "max_tokens": 24,
        });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    // Asked not to separate, the output comes whole as the content; its thinking tokens
    // are counted all the same.
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        ask(json!({"separate_reasoning": false, "logprobs": true})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let thinking_tokens = thinking_tokens(&body);
    assert!(thinking_tokens > 0, "{body}");
    assert_eq!(reasoning_tokens(&body), Some(thinking_tokens), "{body}");
    let raw = body["choices"][0]["message"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(body["choices"][0]["message"]
        .get("reasoning_content")
        .is_none());
    assert!(!raw.is_empty());

    let (status, body) = post_json(servers.http, "/v1/chat/completions", ask(json!({}))).await;
    assert_eq!(status, 200, "{body}");
    let message = &body["choices"][0]["message"];
    let (thinking, content) = expected_split(&raw);
    assert_eq!(
        message["reasoning_content"].as_str().map(str::to_string),
        thinking,
        "{body}"
    );
    // All thinking (cut inside it): no content at all.
    match content.as_str() {
        "" => assert!(message["content"].is_null(), "{body}"),
        content => assert_eq!(message["content"].as_str().unwrap(), content, "{body}"),
    }
    assert_eq!(reasoning_tokens(&body), Some(thinking_tokens), "{body}");
    assert_eq!(
        streamed(ask(json!({}))).await,
        (thinking.unwrap_or_default(), content, Some(thinking_tokens))
    );
    common::wait_idle(&servers.engine);
}

/// A `logit_bias` that makes the model write `</think>` at once.
fn think_end_bias() -> Value {
    let pieces = (servers().engine.tokenizer())
        .encode_without_bos_eos("</think>", false)
        .unwrap();
    pieces
        .iter()
        .map(|id| (id.to_string(), json!(100)))
        .collect()
}

/// With a structured output, the grammar holds the answer after the thinking: the pieces of
/// `</think>` pushed by `logit_bias` end the thinking at once, and the answer is the JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_structured_answer_comes_after_the_thinking() {
    let servers = servers();
    let bias = think_end_bias();
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let body = json!({
        "messages": [{"role": "user", "content": "Pick a number."}],
        "temperature": 0, "max_tokens": 40, "logit_bias": bias, "logprobs": true,
        "response_format": {"type": "json_schema", "json_schema": {"name": "n", "schema": schema}},
    });
    let (status, reply) = post_json(servers.http, "/v1/chat/completions", body.clone()).await;
    assert_eq!(status, 200, "{reply}");
    let choice = &reply["choices"][0];
    assert_eq!(choice["finish_reason"], "stop", "{reply}");
    assert!(
        choice["message"].get("reasoning_content").is_none(),
        "{reply}"
    );
    let answer: Value =
        serde_json::from_str(choice["message"]["content"].as_str().unwrap()).unwrap();
    assert!(answer["n"].is_i64(), "{reply}");
    // Only the tokens of `</think>` were thinking.
    let thinking = thinking_tokens(&reply);
    assert!(thinking < reply["usage"]["completion_tokens"].as_u64().unwrap());
    assert_eq!(reasoning_tokens(&reply), Some(thinking), "{reply}");
    let mut raw = body;
    raw["separate_reasoning"] = json!(false);
    let (_, reply) = post_json(servers.http, "/v1/chat/completions", raw).await;
    let content = reply["choices"][0]["message"]["content"].as_str().unwrap();
    let after = content
        .strip_prefix("</think>")
        .unwrap_or_else(|| panic!("{reply}"));
    assert!(after.trim_start().starts_with('{'), "{reply}");
    common::wait_idle(&servers.engine);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_template_kwargs_reach_the_template() {
    let servers = servers();
    // Thinking off: the prompt closes the block, so the answer has no thinking to split.
    let off = json!({"chat_template_kwargs": {"enable_thinking": false}});
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        ask(ANSWER, off.clone()),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let message = &body["choices"][0]["message"];
    assert!(message.get("reasoning_content").is_none(), "{body}");
    let sentence = regex::Regex::new(&format!("^{ANSWER}$")).unwrap();
    assert!(
        sentence.is_match(message["content"].as_str().unwrap()),
        "{body}"
    );
    assert_eq!(reasoning_tokens(&body), Some(0), "{body}");
    let (thinking, _, streamed_reasoning) = streamed(ask(ANSWER, off)).await;
    assert_eq!((thinking.as_str(), streamed_reasoning), ("", Some(0)));

    let mut kwargs = serde_json::Map::new();
    kwargs.insert("enable_thinking".into(), json!(false));
    let prompt = |template_kwargs| {
        let ids = servers
            .engine
            .build_prompt_now(PromptInput::Chat(Conversation {
                messages: vec![ChatMessage::user("What is the capital of France?")],
                template_kwargs,
                ..Conversation::default()
            }))
            .unwrap();
        servers.engine.tokenizer().decode(&ids, false).unwrap()
    };
    assert!(prompt(kwargs).ends_with("<|im_start|>assistant\n<think>\n\n</think>\n\n"));
    assert!(prompt(serde_json::Map::new()).ends_with("<|im_start|>assistant\n<think>\n"));
    assert_eq!(
        body["usage"]["prompt_tokens"].as_u64(),
        Some(
            servers
                .engine
                .tokenizer()
                .encode_without_bos_eos(&prompt_with_thinking_off(), true)
                .unwrap()
                .len() as u64
        )
    );

    // The server's own variables cannot be replaced.
    for key in ["messages", "add_generation_prompt", "tools"] {
        let (status, body) = post_json(
            servers.http,
            "/v1/chat/completions",
            ask(ANSWER, json!({"chat_template_kwargs": {key: []}})),
        )
        .await;
        assert_eq!(
            (status, body["error"]["param"].as_str()),
            (400, Some("chat_template_kwargs")),
            "{body}"
        );
    }
    common::wait_idle(&servers.engine);
}

/// Only the template's text after the conversation tells whether the output starts in a
/// thinking block: a message that mentions `<think>` does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_mentioning_think_does_not_open_thinking() {
    let engine = &servers().engine;
    let opens = |thinking: bool| {
        let mut template_kwargs = serde_json::Map::new();
        template_kwargs.insert("enable_thinking".into(), json!(thinking));
        let chat = Conversation {
            messages: vec![ChatMessage::user("What does <think> mean in a prompt?")],
            template_kwargs,
            ..Conversation::default()
        };
        async move {
            engine
                .build_chat_prompt(chat, 0)
                .await
                .unwrap()
                .opens_thinking
        }
    };
    assert!(opens(true).await);
    assert!(!opens(false).await);
}

/// A template that rewrites content (so where messages lie is unknown) is read by the
/// difference its generation prompt makes.
#[test]
fn a_template_rewriting_content_is_read_by_its_generation_prompt() {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 16 << 20;
    config.chat_template = Some(
        "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content | upper }}<|im_end|>\n\
         {% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}\
         {# </think> #}"
            .into(),
    );
    let engine = EngineHandle::start(config).unwrap();
    assert!(engine.splits_reasoning());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let opens = |text: &str| {
        let chat = Conversation::new(vec![ChatMessage::user(text)]);
        runtime
            .block_on(engine.build_chat_prompt(chat, 0))
            .unwrap()
            .opens_thinking
    };
    assert!(opens("hello"));
    assert!(
        opens("what is </think>?"),
        "a message cannot close it either"
    );
}

/// The prompt with thinking off, written out.
fn prompt_with_thinking_off() -> String {
    "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n\
     <think>\n\n</think>\n\n"
        .to_string()
}

/// The default model's template writes no thinking: `auto` leaves its answers whole.
#[test]
fn auto_leaves_models_without_thinking_alone() {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 16 << 20;
    let engine = EngineHandle::start(config).unwrap();
    assert!(!engine.splits_reasoning());
    // Its generation prompt opens nothing, whatever the last message says.
    let chat = Conversation::new(vec![ChatMessage::user("What does <think> mean?")]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let prompt = runtime.block_on(engine.build_chat_prompt(chat, 0)).unwrap();
    assert!(!prompt.opens_thinking);
}

/// `thinking_budget`: the thinking takes at most that many tokens, then `</think>` is written
/// for the model and it answers; with a structured output the answer still holds to it; a
/// budget of 0 skips the thinking. Streamed as whole, and on `/v1/responses` too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thinking_budget_ends_the_thinking_in_time() {
    let servers = servers();
    let close = (servers.engine.tokenizer())
        .encode_without_bos_eos("</think>", false)
        .unwrap()
        .len() as u64;
    for budget in [0u64, 6] {
        let body = ask(ANSWER, json!({"thinking_budget": budget, "logprobs": true}));
        let (status, reply) = post_json(servers.http, "/v1/chat/completions", body.clone()).await;
        assert_eq!(status, 200, "{reply}");
        let choice = &reply["choices"][0];
        assert_eq!(choice["finish_reason"], "stop", "{reply}");
        let sentence = regex::Regex::new(&format!("^{ANSWER}$")).unwrap();
        let content = choice["message"]["content"].as_str().unwrap();
        assert!(sentence.is_match(content), "{reply}");
        // The budget's tokens of thinking, then `</think>`'s own.
        let thinking = thinking_tokens(&reply);
        assert_eq!(thinking, budget + close, "{reply}");
        assert_eq!(reasoning_tokens(&reply), Some(thinking), "{reply}");
        let reasoning = choice["message"]["reasoning_content"].as_str();
        assert_eq!(reasoning.is_some(), budget > 0, "{reply}");
        let (streamed_thinking, streamed_content, _) = streamed(body).await;
        assert_eq!(streamed_thinking, reasoning.unwrap_or_default());
        assert_eq!(streamed_content, content);
    }
    // Without a structured output the answer is free, and the budget holds as well.
    let free = json!({
        "input": "What is the capital of France?", "temperature": 0,
        "max_output_tokens": 30, "thinking_budget": 4,
    });
    let (status, reply) = post_json(servers.http, "/v1/responses", free).await;
    assert_eq!(status, 200, "{reply}");
    let details = &reply["usage"]["output_tokens_details"];
    assert_eq!(details["reasoning_tokens"], 4 + close, "{reply}");
    common::wait_idle(&servers.engine);
}
