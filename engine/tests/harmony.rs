//! gpt-oss's harmony format end to end, on the small random-weight gpt-oss model (harmony's
//! markers as control tokens, gpt-oss's own chat template): the model is recognized, its
//! template renders tools, calls, results and thinking, and the chat API reads its messages:
//! a call a grammar holds the model to comes back as a tool call, whole and streamed alike;
//! a JSON answer comes from the final message; the thinking is `reasoning_content`, its
//! tokens counted. The random model's choices are its own; where a test needs the thinking
//! to end, a bias on `<|end|>` ends it at once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::family_model_path;
use common::servers::{assert_streams_the_call, post_json, post_sse, serve, weather_tool, Servers};
use engine::grammar::ToolFormat;
use engine::handle::{EngineConfig, EngineHandle};
use engine::tokenizer::ChatMessage;
use serde_json::{json, Map, Value};

fn servers() -> &'static Servers {
    static SERVERS: std::sync::OnceLock<Servers> = std::sync::OnceLock::new();
    SERVERS.get_or_init(|| serve(EngineConfig::new(family_model_path("gpt_oss"))))
}

/// `{"<|end|>": 100}` as a logit bias: a thinking message ends as soon as it may.
fn end_thinking_now(engine: &EngineHandle) -> Value {
    let end = engine.tokenizer().token_id("<|end|>").unwrap();
    json!({ end.to_string(): 100 })
}

#[test]
fn gpt_oss_template_renders_tools_calls_results_and_thinking() {
    let engine = &servers().engine;
    assert!(engine.speaks_harmony());
    assert_eq!(engine.tool_format(), ToolFormat::Harmony);
    let call = json!({"id": "c0", "type": "function",
        "function": {"name": "get_weather", "arguments": {"unit": "c", "days": 2}}});
    let messages = [
        ChatMessage::system("Be brief."),
        ChatMessage::user("Weather in Paris?"),
        ChatMessage {
            tool_calls: Some(vec![call]),
            reasoning_content: Some("I should look it up.".into()),
            ..ChatMessage::assistant("")
        },
        ChatMessage {
            tool_call_id: Some("c0".into()),
            name: Some("get_weather".into()),
            ..ChatMessage::new("tool", "22C")
        },
    ];
    let mut kwargs = Map::new();
    kwargs.insert("reasoning_effort".into(), json!("high"));
    let text = engine
        .chat_template()
        .render_with_tools(&messages, Some(&[weather_tool()]), &kwargs, true)
        .unwrap();
    for part in [
        "Reasoning: high",
        "<|start|>developer<|message|># Instructions\n\nBe brief.",
        "type get_weather = (_: {",
        "<|start|>user<|message|>Weather in Paris?<|end|>",
        // The thinking of a turn that called a tool, from `reasoning_content`.
        "<|start|>assistant<|channel|>analysis<|message|>I should look it up.<|end|>",
        "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>",
        "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>\"22C\"<|end|>",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
    assert!(text.ends_with("<|start|>assistant"), "{text}");
    // Today's date, from `strftime_now`.
    let date = text.split("Current date: ").nth(1).unwrap();
    let date = &date[..10];
    assert!(
        date.chars().enumerate().all(|(i, c)| match i {
            4 | 7 => c == '-',
            _ => c.is_ascii_digit(),
        }),
        "{date}"
    );
}

/// A required call comes back as a tool call whose arguments follow the schema, the
/// output having ended at `<|call|>`; the stream's deltas put together give the same call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_call_comes_back_whole_and_streamed() {
    let servers = servers();
    let body = json!({
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [weather_tool()],
        "tool_choice": "required",
        "temperature": 0,
        "max_tokens": 80,
        "logit_bias": end_thinking_now(&servers.engine),
    });
    let (status, whole) = post_json(servers.http, "/v1/chat/completions", body.clone()).await;
    assert_eq!(status, 200, "{whole}");
    let choice = &whole["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls", "{whole}");
    let calls = choice["message"]["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{whole}");
    assert_eq!(calls[0]["function"]["name"], "get_weather");
    let arguments: Value =
        serde_json::from_str(calls[0]["function"]["arguments"].as_str().unwrap()).unwrap();
    assert!(
        ["c", "f"].contains(&arguments["unit"].as_str().unwrap()),
        "{arguments}"
    );
    assert!(
        (1..=7).contains(&arguments["days"].as_u64().unwrap()),
        "{arguments}"
    );
    // No markup leaks into what the client reads.
    assert!(!whole.to_string().contains("<|"), "{whole}");

    assert_streams_the_call(servers.http, &body, &calls[0]).await;
    common::wait_idle(&servers.engine);
}

/// A JSON response format is the final message's body: the content parses under the
/// schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_answer_comes_from_the_final_message() {
    let servers = servers();
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}},
        "required": ["ok"], "additionalProperties": false});
    let (status, body) = post_json(
        servers.http,
        "/v1/chat/completions",
        json!({
            "messages": [{"role": "user", "content": "Is it sunny?"}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}},
            "temperature": 0,
            "max_tokens": 60,
            "logit_bias": end_thinking_now(&servers.engine),
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let message = &body["choices"][0]["message"];
    let answer: Value = serde_json::from_str(message["content"].as_str().unwrap()).unwrap();
    assert!(answer["ok"].is_boolean(), "{body}");
    assert_eq!(body["choices"][0]["finish_reason"], "stop");
    common::wait_idle(&servers.engine);
}

/// Held in its analysis message (a bias toward `analysis`, against `<|end|>`), the model's
/// thinking is `reasoning_content`, every token of the output counted as reasoning (the
/// header's too), with no content or calls; the stream sends the same thinking and usage.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_channel_is_the_reasoning() {
    let servers = servers();
    let vocab = servers.engine.tokenizer();
    let analysis = vocab.encode("analysis", false).unwrap()[0];
    let end = vocab.token_id("<|end|>").unwrap();
    let body = json!({
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [weather_tool()],
        "tool_choice": "required",
        "temperature": 0,
        "max_tokens": 24,
        "logit_bias": {analysis.to_string(): 100, end.to_string(): -100},
    });
    let (status, whole) = post_json(servers.http, "/v1/chat/completions", body.clone()).await;
    assert_eq!(status, 200, "{whole}");
    let choice = &whole["choices"][0];
    assert_eq!(choice["finish_reason"], "length", "{whole}");
    let thinking = choice["message"]["reasoning_content"].as_str().unwrap();
    assert!(!thinking.is_empty() && !thinking.contains("<|"), "{whole}");
    assert!(choice["message"]["content"].is_null(), "{whole}");
    assert!(choice["message"].get("tool_calls").is_none(), "{whole}");
    let usage = &whole["usage"];
    assert_eq!(usage["completion_tokens"], 24);
    assert_eq!(usage["completion_tokens_details"]["reasoning_tokens"], 24);

    let mut streamed = body;
    streamed["stream"] = json!(true);
    streamed["stream_options"] = json!({"include_usage": true});
    let events = post_sse(servers.http, "/v1/chat/completions", streamed).await;
    let thought: String = events
        .iter()
        .filter_map(|e| e["choices"][0]["delta"]["reasoning_content"].as_str())
        .collect();
    assert_eq!(thought, thinking);
    let usage = events
        .iter()
        .find_map(|e| e.get("usage").filter(|u| !u.is_null()));
    assert_eq!(
        usage.unwrap()["completion_tokens_details"]["reasoning_tokens"],
        24
    );
    common::wait_idle(&servers.engine);
}

/// The Responses API reads harmony alike: a required call is a `function_call` item, the
/// stream's final response holds the same items, and `reasoning.effort` is taken (gpt-oss
/// knows `high`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_read_harmony_calls_whole_and_streamed() {
    let servers = servers();
    let tool = weather_tool();
    let body = json!({
        "input": "Weather in Paris?",
        "tools": [{"type": "function", "name": "get_weather",
            "parameters": tool["function"]["parameters"]}],
        "tool_choice": "required",
        "reasoning": {"effort": "high"},
        "temperature": 0,
        "max_output_tokens": 80,
        "logit_bias": end_thinking_now(&servers.engine),
    });
    let (status, whole) = post_json(servers.http, "/v1/responses", body.clone()).await;
    assert_eq!(status, 200, "{whole}");
    let output = whole["output"].as_array().unwrap();
    let call = output
        .iter()
        .find(|item| item["type"] == "function_call")
        .unwrap_or_else(|| panic!("no call in {whole}"));
    assert_eq!(call["name"], "get_weather");
    let arguments: Value = serde_json::from_str(call["arguments"].as_str().unwrap()).unwrap();
    assert!(
        (1..=7).contains(&arguments["days"].as_u64().unwrap()),
        "{arguments}"
    );
    assert!(!whole["output"].to_string().contains("<|"), "{whole}");

    let mut streamed = body;
    streamed["stream"] = json!(true);
    let events = post_sse(servers.http, "/v1/responses", streamed).await;
    let done = events
        .iter()
        .find(|e| e["type"] == "response.completed")
        .unwrap();
    assert_eq!(
        common::servers::without_ids(&done["response"]["output"]),
        common::servers::without_ids(&whole["output"])
    );
    common::wait_idle(&servers.engine);
}
