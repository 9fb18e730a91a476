//! DeepSeek's, Kimi K2's, GLM's, MiniMax's, Qwen3.5's and Gemma 4's tool calls end to end, on
//! the small random-weight DeepSeek, GLM, MiniMax, Qwen3.5 and Gemma 4 models under each
//! family's own chat template (DeepSeek V3.1's, which writes calls and results but not the
//! tools; llama.cpp's DeepSeek R1 template; Kimi K2's; GLM-4.6's and GLM-4.7's; MiniMax-M2's;
//! Qwen3.5's, a model with recurrent state; Gemma 4 31B's): the template is recognized, the
//! engine announces the tools where the template does not, earlier calls and results render
//! in the model's markup, and a call the grammar holds the model to comes back as a tool
//! call, whole and streamed alike. The markers are text in these models' vocabularies
//! (SmolLM2's; Gemma 4's user-defined tokens), so the grammar writes them as text.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::family_model_path;
use common::servers::{assert_streams_the_call, post_json, serve, weather_tool, Servers};
use engine::grammar::{ToolFormat, ToolFunction};
use engine::handle::{Conversation, EngineConfig, EngineHandle, PromptInput, ReasoningParser};
use engine::tokenizer::{ChatMessage, ChatTemplate};
use serde_json::{json, Value};
use std::sync::OnceLock;

const DEEPSEEK_V31: &str = include_str!("fixtures/deepseek_v31_tools_template.jinja");
const DEEPSEEK_R1: &str = include_str!("fixtures/deepseek_r1_tools_template.jinja");
const KIMI_K2: &str = include_str!("fixtures/kimi_k2_tools_template.jinja");
const GLM46: &str = include_str!("fixtures/glm46_tools_template.jinja");
const GLM47: &str = include_str!("fixtures/glm47_tools_template.jinja");
const MINIMAX_M2: &str = include_str!("fixtures/minimax_m2_tools_template.jinja");
const QWEN35: &str = include_str!("fixtures/qwen35_tools_template.jinja");
const GEMMA4: &str = include_str!("fixtures/gemma4_template.jinja");

/// The DeepSeek test model under chat template `template`.
fn config(template: &str) -> EngineConfig {
    let mut config = EngineConfig::new(family_model_path("deepseek2"));
    config.kv_budget_bytes = 16 << 20;
    config.max_context_len = 2048;
    config.chat_template = Some(template.into());
    config
}

fn servers_with(template: &str) -> Servers {
    serve(config(template))
}

fn deepseek() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| servers_with(DEEPSEEK_V31))
}

fn glm() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let mut config = config(GLM46);
        config.model_path = family_model_path("glm4moe");
        // The random model, let think, never stops: the call comes first here.
        config.reasoning_parser = ReasoningParser::None;
        serve(config)
    })
}

fn minimax() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let mut config = config(MINIMAX_M2);
        config.model_path = family_model_path("minimax_m2");
        // The template opens a thinking block the random model would never close.
        config.reasoning_parser = ReasoningParser::None;
        serve(config)
    })
}

fn qwen35() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let mut config = config(QWEN35);
        config.model_path = family_model_path("qwen35");
        // As GLM's: the random model, let think, never stops.
        config.reasoning_parser = ReasoningParser::None;
        serve(config)
    })
}

fn gemma4() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let mut config = config(GEMMA4);
        config.model_path = family_model_path("gemma4");
        serve(config)
    })
}

fn kimi() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| servers_with(KIMI_K2))
}

/// DeepSeek's own templates join a call's arguments to their markers as text (llama.cpp's
/// copies add `| tojson`, which needs an object).
fn official(template: &str) -> String {
    template.replace(" | tojson +", " +")
}

#[test]
fn each_template_is_recognized_with_whether_it_announces_tools() {
    let support = |source: &str| {
        let template = ChatTemplate::new(source, "<bos>", "<eos>").unwrap();
        let support = template.tool_support();
        (
            support.native,
            support.announces_tools,
            support.arguments_as_text,
        )
    };
    let v31 = Some(ToolFormat::DeepSeekV31);
    let v3 = Some(ToolFormat::DeepSeekV3);
    assert_eq!(support(DEEPSEEK_V31), (v31, false, false));
    assert_eq!(support(&official(DEEPSEEK_V31)), (v31, false, true));
    assert_eq!(support(DEEPSEEK_R1), (v3, true, false));
    assert_eq!(support(&official(DEEPSEEK_R1)), (v3, true, true));
    let kimi = Some(ToolFormat::KimiK2);
    assert_eq!(support(KIMI_K2), (kimi, true, false));
    let glm = Some(ToolFormat::GlmXml);
    assert_eq!(support(GLM46), (glm, true, false));
    assert_eq!(support(GLM47), (glm, true, false));
    let minimax = Some(ToolFormat::MiniMaxXml);
    assert_eq!(support(MINIMAX_M2), (minimax, true, false));
    assert_eq!(support(QWEN35), (Some(ToolFormat::QwenXml), true, false));
    assert_eq!(support(GEMMA4), (Some(ToolFormat::Gemma4), true, false));
}

/// DeepSeek V3.1's template writes the history's calls and results in its markup, and the
/// engine adds the tools it does not write, in the words of DeepSeek's own instructions;
/// the official template gets the arguments as the client's text.
#[test]
fn deepseek_prompts_announce_the_tools_and_keep_the_history_in_its_markup() {
    let engine = &deepseek().engine;
    assert_eq!(engine.tool_format(), ToolFormat::DeepSeekV31);
    let text = history_prompt(engine);
    let arguments = "{\"unit\": \"c\", \"days\": 2}";
    assert_history(&text, arguments);
    let official = EngineHandle::start(config(&official(DEEPSEEK_V31))).unwrap();
    // As the client wrote them, spaces and order kept.
    assert_eq!(official.tool_format(), ToolFormat::DeepSeekV31);
    assert_history(&history_prompt(&official), "{\"days\":2, \"unit\": \"c\"}");
    official.shutdown(std::time::Duration::from_secs(5));
}

/// MiniMax-M2's template writes the tools, the earlier call as an `<invoke>` in its block and
/// the result as a tool turn's `<response>`.
#[test]
fn minimax_prompts_keep_the_history_in_its_markup() {
    let text = history_prompt(&minimax().engine);
    for part in [
        "<tools>\n<tool>{\"name\": \"get_weather\"",
        "]~b]ai\n\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"unit\">c</parameter>\n<parameter name=\"days\">2</parameter>\n</invoke>\n</minimax:tool_call>[e~[",
        "]~b]tool\n<response>22C</response>[e~[",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
}

/// Qwen3.5's template writes the tools, the earlier call as a `<function=…>` block with its
/// `<parameter=…>` values and the result as a user turn's `<tool_response>`.
#[test]
fn qwen35_prompts_keep_the_history_in_its_markup() {
    let text = history_prompt(&qwen35().engine);
    for part in [
        "<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\"",
        "<|im_start|>assistant\n<think>\n\n</think>\n\n<tool_call>\n<function=get_weather>\n<parameter=unit>\nc\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call><|im_end|>",
        "<|im_start|>user\n<tool_response>\n22C\n</tool_response><|im_end|>",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
}

/// Gemma 4's template declares the tools in its own syntax, writes the earlier call with its
/// arguments sorted and the result as a `<|tool_response>` in the same model turn.
#[test]
fn gemma4_prompts_keep_the_history_in_its_markup() {
    let text = history_prompt(&gemma4().engine);
    for part in [
        "<|turn>system\n<|tool>declaration:get_weather{description:<|\"|>The weather in a city.<|\"|>",
        "<|turn>user\nWeather in Paris?<turn|>\n<|turn>model\n<|tool_call>call:get_weather{days:2,unit:<|\"|>c<|\"|>}<tool_call|><|tool_response>response:get_weather{value:<|\"|>22C<|\"|>}<tool_response|>",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
    // The model goes on in the same turn after the results: no new turn is opened.
    assert!(text.ends_with("<tool_response|>"), "{text}");
}

fn assert_history(text: &str, arguments: &str) {
    let call = format!("<｜User｜>Weather in Paris?<｜Assistant｜><think></think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{arguments}<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>");
    for part in [
        "## Tools\nYou have access to the following tools:\n\n### get_weather\nDescription: The weather in a city.",
        &call,
        "<｜tool▁output▁begin｜>22C<｜tool▁output▁end｜>",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
}

/// A conversation that called `get_weather` and got its result, as `engine` prompts it.
fn history_prompt(engine: &EngineHandle) -> String {
    let arguments = match engine.chat_template().tool_support().arguments_as_text {
        true => "{\"days\":2, \"unit\": \"c\"}",
        false => "{\"unit\": \"c\", \"days\": 2}",
    };
    let call = json!({"id": "c0", "type": "function",
        "function": {"name": "get_weather", "arguments": arguments}});
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
    engine.tokenizer().decode(&ids, false).unwrap()
}

/// A required call comes back as a tool call whose arguments follow the schema; the
/// stream's deltas put together give the same call; no markup reaches the client. `parallel`:
/// the model may write more calls (a random model may never stop writing them).
async fn a_required_call_comes_back(servers: &Servers, parallel: bool) {
    let body = json!({
        "parallel_tool_calls": parallel,
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [weather_tool()],
        "tool_choice": "required",
        "temperature": 0,
        "max_tokens": 120,
        // GLM's templates open a thinking block unless told not to.
        "chat_template_kwargs": {"enable_thinking": false},
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
    for markup in [
        "tool▁",
        "<|tool",
        "<minimax",
        "<invoke",
        "<arg_key>",
        "<function=",
        "<|\"|>",
        "<tool_call|>",
    ] {
        assert!(!text.contains(markup), "{whole}");
    }

    assert_streams_the_call(servers.http, &body, &calls[0]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_deepseek_call_comes_back_whole_and_streamed() {
    a_required_call_comes_back(deepseek(), true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_kimi_call_comes_back_whole_and_streamed() {
    assert_eq!(kimi().engine.tool_format(), ToolFormat::KimiK2);
    a_required_call_comes_back(kimi(), true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_glm_call_comes_back_whole_and_streamed() {
    assert_eq!(glm().engine.tool_format(), ToolFormat::GlmXml);
    a_required_call_comes_back(glm(), true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_qwen35_call_comes_back_whole_and_streamed() {
    assert_eq!(qwen35().engine.tool_format(), ToolFormat::QwenXml);
    a_required_call_comes_back(qwen35(), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_minimax_call_comes_back_whole_and_streamed() {
    assert_eq!(minimax().engine.tool_format(), ToolFormat::MiniMaxXml);
    a_required_call_comes_back(minimax(), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_gemma4_call_comes_back_whole_and_streamed() {
    assert_eq!(gemma4().engine.tool_format(), ToolFormat::Gemma4);
    a_required_call_comes_back(gemma4(), false).await;
}
