//! DeepSeek's and Kimi K2's tool calls end to end, on the small random-weight DeepSeek model
//! under each family's own chat template (DeepSeek V3.1's, which writes calls and results
//! but not the tools; llama.cpp's DeepSeek R1 template; Kimi K2's): the template is
//! recognized, the engine announces the tools where the template does not, earlier calls
//! and results render in the model's markup, and a call the grammar holds the model to
//! comes back as a tool call, whole and streamed alike. The markers are text in this
//! model's vocabulary (SmolLM2's), so the grammar writes them as text.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::family_model_path;
use common::servers::{assert_streams_the_call, post_json, serve, Servers};
use engine::grammar::{ToolFormat, ToolFunction};
use engine::handle::{Conversation, EngineConfig, PromptInput};
use engine::tokenizer::{ChatMessage, ChatTemplate};
use serde_json::{json, Value};
use std::sync::OnceLock;

const DEEPSEEK_V31: &str = include_str!("fixtures/deepseek_v31_tools_template.jinja");
const DEEPSEEK_R1: &str = include_str!("fixtures/deepseek_r1_tools_template.jinja");
const KIMI_K2: &str = include_str!("fixtures/kimi_k2_tools_template.jinja");

fn servers_with(template: &str) -> Servers {
    let mut config = EngineConfig::new(family_model_path("deepseek2"));
    config.kv_budget_bytes = 16 << 20;
    config.max_context_len = 2048;
    config.chat_template = Some(template.into());
    serve(config)
}

fn deepseek() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| servers_with(DEEPSEEK_V31))
}

fn kimi() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| servers_with(KIMI_K2))
}

fn weather_tool() -> Value {
    json!({"type": "function", "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {
            "unit": {"enum": ["c", "f"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 7}
        }, "required": ["unit", "days"]}
    }})
}

#[test]
fn each_template_is_recognized_with_whether_it_announces_tools() {
    let support = |source: &str| {
        let template = ChatTemplate::new(source, "<bos>", "<eos>").unwrap();
        let support = template.tool_support();
        (support.native, support.announces_tools)
    };
    assert_eq!(
        support(DEEPSEEK_V31),
        (Some(ToolFormat::DeepSeekV31), false)
    );
    assert_eq!(support(DEEPSEEK_R1), (Some(ToolFormat::DeepSeekV3), true));
    assert_eq!(support(KIMI_K2), (Some(ToolFormat::KimiK2), true));
}

/// DeepSeek V3.1's template writes the history's calls and results in its markup, and the
/// engine adds the tools it does not write, in the words of DeepSeek's own instructions.
#[test]
fn deepseek_prompts_announce_the_tools_and_keep_the_history_in_its_markup() {
    let engine = &deepseek().engine;
    assert_eq!(engine.tool_format(), ToolFormat::DeepSeekV31);
    let call = json!({"id": "c0", "type": "function",
        "function": {"name": "get_weather", "arguments": "{\"unit\": \"c\", \"days\": 2}"}});
    let messages = vec![
        ChatMessage::user("Weather in Paris?"),
        ChatMessage {
            tool_calls: Some(vec![call]),
            ..ChatMessage::assistant("")
        },
        ChatMessage {
            tool_call_id: Some("c0".into()),
            ..ChatMessage::new("tool", "22C")
        },
    ];
    let tool = ToolFunction {
        name: "get_weather".into(),
        description: Some("The weather in a city.".into()),
        parameters: weather_tool()["function"]["parameters"].clone(),
    };
    let chat = Conversation {
        tools: vec![tool],
        ..Conversation::new(messages)
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let ids = runtime
        .block_on(engine.build_prompt(PromptInput::Chat(chat), 0))
        .unwrap();
    let text = engine.tokenizer().decode(&ids, false).unwrap();
    for part in [
        "## Tools\nYou have access to the following tools:\n\n### get_weather\nDescription: The weather in a city.",
        "<｜User｜>Weather in Paris?<｜Assistant｜><think></think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"unit\": \"c\", \"days\": 2}<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
        "<｜tool▁output▁begin｜>22C<｜tool▁output▁end｜>",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
}

/// A required call comes back as a tool call whose arguments follow the schema; the
/// stream's deltas put together give the same call; no markup reaches the client.
async fn a_required_call_comes_back(servers: &Servers) {
    let body = json!({
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [weather_tool()],
        "tool_choice": "required",
        "temperature": 0,
        "max_tokens": 120,
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
    assert!(["c", "f"].contains(&arguments["unit"].as_str().unwrap()));
    assert!((1..=7).contains(&arguments["days"].as_u64().unwrap()));
    assert!(choice["message"]["content"].is_null(), "{whole}");
    let text = whole.to_string();
    assert!(
        !text.contains("tool▁") && !text.contains("<|tool"),
        "{whole}"
    );

    assert_streams_the_call(servers.http, &body, &calls[0]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_deepseek_call_comes_back_whole_and_streamed() {
    a_required_call_comes_back(deepseek()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_kimi_call_comes_back_whole_and_streamed() {
    assert_eq!(kimi().engine.tool_format(), ToolFormat::KimiK2);
    a_required_call_comes_back(kimi()).await;
}
