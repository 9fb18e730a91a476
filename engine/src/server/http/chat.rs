//! `POST /v1/chat/completions`: messages rendered with the model's chat template, then
//! generated like a completion.

use super::adapter::served_model;
use super::chat_stream::{ChatChunks, ChatStreamOptions};
use super::error::ApiError;
use super::generate::{accept, collect_all, submit_choices, ChoiceSpec, Collected};
use super::logprobs::chat_logprobs;
use super::params::{grammar_spec, samples_per_prompt, sampling_params, stream_flags};
use super::protocol::{ChatCompletionRequest, ChatMessageIn, Content};
use super::reasoning::split_reasoning;
use super::response::{ChatBody, ChatChoice, ChatMessageOut, ResponseMeta, UsageOut};
use super::sse::sse_response;
use super::tools::{calls_out, history_calls, ToolRequest};
use super::HttpState;
use crate::grammar::{harmony, GrammarSpec, ToolCall, ToolFormat};
use crate::handle::{response_usage, Conversation, EngineHandle, RequestStream};
use crate::tenants::Caller;
use crate::tokenizer::ChatMessage;
use crate::tokenizer::Thinking;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use std::sync::Arc;

pub async fn chat_completions(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, ChatCompletionRequest) = accept(&state, &caller, body).await?;
    let mut run = start_chat(engine, &caller, &request).await?;
    let meta = ResponseMeta::new("chatcmpl", &run.rid, &run.model);
    if run.stream {
        let formatter = ChatChunks::new(engine.clone(), meta, run.options);
        return Ok(sse_response(run.streams, run.samples, formatter));
    }
    let outs = collect_all(&mut run.streams).await?;
    let usages: Vec<_> = outs.iter().map(|o| o.completion.usage).collect();
    let reasoning_tokens = run.reasoning_tokens(engine, &outs);
    let choices = outs
        .into_iter()
        .enumerate()
        .map(|(index, out)| {
            let mut finish_reason = out.completion.finish_reason.as_str();
            let logprobs =
                (run.options.top).map(|n| chat_logprobs(engine.tokenizer(), &out.logprobs, n));
            let answer = run.answer(out.text);
            let tool_calls = (!answer.calls.is_empty()).then(|| {
                if finish_reason == "stop" {
                    finish_reason = "tool_calls";
                }
                let calls = answer.calls;
                calls_out(run.tool_format(), &meta.id, index as u32, calls)
            });
            ChatChoice {
                index: index as u32,
                message: ChatMessageOut {
                    role: "assistant",
                    reasoning_content: answer.reasoning,
                    content: answer.content,
                    tool_calls,
                },
                logprobs,
                finish_reason,
            }
        })
        .collect();
    Ok(Json(ChatBody {
        id: meta.id.clone(),
        object: "chat.completion",
        created: meta.created,
        model: meta.model.clone(),
        choices,
        usage: UsageOut::from(response_usage(&usages, run.samples))
            .with_reasoning(reasoning_tokens),
    })
    .into_response())
}

/// A chat request submitted: its choices' streams and how their output is read.
pub(super) struct ChatRun {
    pub streams: Vec<RequestStream>,
    /// The first choice's request id (the response's).
    pub rid: String,
    pub stream: bool,
    /// Samples of the prompt (`n`): the choices.
    pub samples: usize,
    /// How the output is read, whole or streamed.
    pub options: ChatStreamOptions,
    /// The model it runs, as responses name it (the base model's or an adapter's name).
    pub model: String,
}

/// One choice's output read: the thinking, the content and the calls.
pub(super) struct ChatAnswer {
    pub reasoning: Option<String>,
    /// `None` when the output is all thinking.
    pub content: Option<String>,
    pub calls: Vec<ToolCall>,
}

/// Checks `request`, renders its prompt and submits its choices.
pub(super) async fn start_chat(
    engine: &EngineHandle,
    caller: &Caller,
    request: &ChatCompletionRequest,
) -> Result<ChatRun, ApiError> {
    refuse_legacy_functions(request)?;
    let served = served_model(
        engine,
        caller,
        request.model.as_deref(),
        request.sampling.lora_path.as_ref(),
    )?;
    let messages = request
        .messages
        .iter()
        .map(to_chat_message)
        .collect::<Result<Vec<_>, _>>()?;
    let tools = ToolRequest::from_request(request)?;
    let harmony = engine.speaks_harmony();
    let tool_format = engine.tool_format();
    if request.thinking_budget.is_some() && (harmony || !engine.splits_reasoning()) {
        let why = match harmony {
            true => "a thinking budget is not supported for harmony models (gpt-oss)",
            false => "the served model does not think (see --reasoning-parser)",
        };
        return Err(ApiError::invalid_param("thinking_budget", why));
    }
    let sampling = &request.sampling;
    let mut grammar = grammar_spec(sampling)?;
    if let Some(tools) = &tools {
        let answer = tool_answer(grammar.take())?;
        grammar = tools.grammar(tool_format, answer.as_ref(), engine.tokenizer());
    } else if harmony {
        // A JSON answer is the final message's, after the thinking.
        grammar = grammar.map(|g| match g.json_schema() {
            Some(schema) => {
                GrammarSpec::Tools(harmony::answer_grammar(&schema, engine.tokenizer()))
            }
            None => g,
        });
    }
    let top_logprobs = match (request.logprobs, request.top_logprobs) {
        (Some(true), top) => Some(top.unwrap_or(0)),
        (_, Some(n)) if n > 0 => {
            return Err(ApiError::invalid_param(
                "top_logprobs",
                "top_logprobs requires logprobs to be true",
            ))
        }
        _ => None,
    };
    // No default cap: the engine stops at the end of the context.
    let max_tokens = request.max_completion_tokens.or(sampling.max_tokens);
    let mut params = sampling_params(sampling, max_tokens, u32::MAX, top_logprobs)
        .map_err(|e| rename_param(e, "logprobs", "top_logprobs"))?;
    // A marker that is a control token must show in the text for calls (or the thinking)
    // to be read.
    if tools.is_some() || harmony {
        params.shown_control_tokens = tool_format.shown_tokens(engine.tokenizer());
    }
    if !harmony && engine.splits_reasoning() && request.separate_reasoning != Some(false) {
        let tags = engine.think_tags().control_tokens(engine.tokenizer());
        params.shown_control_tokens.extend(tags);
    }
    let (stream, include_usage) = stream_flags(sampling)?;
    let samples = samples_per_prompt(sampling)?;
    // The prompt last: every cheap refusal comes before rendering and tokenizing it.
    let mut template_kwargs = template_kwargs(request)?;
    if harmony {
        nearest_harmony_effort(&mut template_kwargs);
    }
    let chat = Conversation {
        messages,
        tools: tools.as_ref().map(|t| t.tools.clone()).unwrap_or_default(),
        template_kwargs,
    };
    // Named before its prompt is rendered, so that an abort of all the tenant's requests
    // reaches it meanwhile.
    let call = engine.open_call(caller.tenant, None)?;
    let prompt = engine
        .build_chat_prompt(chat, caller.tenant)
        .await
        .map_err(|e| rename_param(ApiError::from(e), "prompt", "messages"))?;
    // A thinking model thinks first: a grammar holds the answer after the thinking, and a
    // thinking budget is a grammar whose answer is free.
    let starts_thinking = (engine.splits_reasoning() && !harmony).then_some(Thinking {
        tags: engine.think_tags(),
        inside: prompt.opens_thinking,
    });
    let budget = request.thinking_budget;
    let grammar = match (starts_thinking, grammar) {
        (Some(thinking), answer) if answer.is_some() || budget.is_some() => {
            let answer = answer.unwrap_or(GrammarSpec::AnyText);
            Some(GrammarSpec::AfterThinking {
                thinking,
                budget,
                answer: Box::new(answer),
            })
        }
        (_, grammar) => grammar,
    };
    let spec = ChoiceSpec {
        params,
        max_tokens_explicit: max_tokens.is_some(),
        fields: sampling,
        grammar,
        samples,
        prompt_logprobs_from: None,
        history_len: prompt.history_len,
        calls: vec![call],
        adapter: served.adapter,
    };
    let streams = submit_choices(engine, caller, vec![prompt.ids], spec)
        .await
        .map_err(|e| rename_param(e, "prompt", "messages"))?;
    let options = ChatStreamOptions {
        include_usage,
        top: top_logprobs.map(|n| n as usize),
        tools: tools.map(|t| (tool_format, Arc::from(t.tools))),
        starts_thinking,
        // Harmony's thinking is split out where the model's reasoning is (not with
        // `--reasoning-parser none`).
        separate_reasoning: request.separate_reasoning != Some(false)
            && (!harmony || engine.splits_reasoning()),
        harmony,
        harmony_reasoning: harmony && engine.splits_reasoning(),
    };
    Ok(ChatRun {
        rid: streams.first().map(|s| s.rid.clone()).unwrap_or_default(),
        streams,
        stream,
        samples: samples as usize,
        options,
        model: served.name,
    })
}

impl ChatRun {
    /// The format calls are read in (and their ids written in).
    pub fn tool_format(&self) -> ToolFormat {
        self.options.tools.as_ref().map(|t| t.0).unwrap_or_default()
    }

    /// The thinking tokens of every choice, for a thinking model.
    pub fn reasoning_tokens(&self, engine: &EngineHandle, outs: &[Collected]) -> Option<u32> {
        self.options.reasoning_count().map(|counter| {
            let count = |out: &Collected| {
                let mut count = counter.clone();
                count.add(&out.token_ids, engine.tokenizer());
                count.count()
            };
            outs.iter().map(count).sum()
        })
    }

    /// One choice's whole output, read: thinking split out (when asked), then calls.
    pub fn answer(&self, text: String) -> ChatAnswer {
        let options = &self.options;
        if options.harmony {
            let calls_allowed = options.tools.is_some();
            let (thinking, content, calls) =
                harmony::read_whole(&text, calls_allowed, options.separate_reasoning);
            let reasoning = Some(thinking).filter(|t| !t.is_empty());
            // Beside calls, or after thinking alone, empty content is none.
            let content = Some(content)
                .filter(|c| !c.is_empty() || (calls.is_empty() && reasoning.is_none()));
            return ChatAnswer {
                reasoning,
                content,
                calls,
            };
        }
        let thinking = options
            .starts_thinking
            .filter(|_| options.separate_reasoning);
        let (reasoning, text) = match thinking {
            Some(thinking) => split_reasoning(&text, thinking),
            None => (None, text),
        };
        // An answer that is all thinking has no content (as vLLM's parsers give it).
        if reasoning.is_some() && text.is_empty() {
            return ChatAnswer {
                reasoning,
                content: None,
                calls: Vec::new(),
            };
        }
        let Some((format, tools)) = &options.tools else {
            return ChatAnswer {
                reasoning,
                content: Some(text),
                calls: Vec::new(),
            };
        };
        let (content, calls) = format.parse(&text, tools);
        // Beside calls, empty content is none.
        let content = (calls.is_empty() || !content.is_empty()).then_some(content);
        ChatAnswer {
            reasoning,
            content,
            calls,
        }
    }
}

/// A JSON response format beside tools: the final answer when no tool is called. It must
/// be an object, whose leading `{` tells it from text; a schema of properties alone (which
/// admits other JSON values too) is made to say so.
fn tool_answer(answer: Option<GrammarSpec>) -> Result<Option<GrammarSpec>, ApiError> {
    use serde_json::Value;
    let mut answer = answer;
    if let Some(GrammarSpec::JsonSchema(Value::Object(schema))) = &mut answer {
        if schema.contains_key("properties") {
            schema
                .entry("type")
                .or_insert_with(|| Value::String("object".into()));
        }
    }
    let is_object = |schema: Value| schema.get("type").and_then(Value::as_str) == Some("object");
    if answer
        .as_ref()
        .is_some_and(|a| !a.json_schema().is_some_and(is_object))
    {
        return Err(ApiError::invalid_param(
            "tool_choice",
            "tools combine only with a JSON object response_format (json_object, or a \
             json_schema of type object), not with other schemas, regex, ebnf, lark or \
             guided_choice",
        ));
    }
    Ok(answer)
}

pub(super) fn rename_param(mut e: ApiError, from: &str, to: &str) -> ApiError {
    if e.param.as_deref() == Some(from) {
        e.param = Some(to.to_string());
    }
    e
}

pub(super) fn to_chat_message(m: &ChatMessageIn) -> Result<ChatMessage, ApiError> {
    let content = match &m.content {
        None => String::new(),
        Some(Content::Text(text)) => text.clone(),
        Some(Content::Parts(parts)) => {
            // Parts are joined by newlines, as other OpenAI-compatible servers do.
            let mut text = String::new();
            for part in parts {
                // An assistant turn's refusal is its text.
                let piece = match part.kind.as_str() {
                    "text" => &part.text,
                    "refusal" => &part.refusal,
                    _ => &None,
                };
                match (part.kind.as_str(), piece) {
                    (_, Some(t)) => {
                        if !text.is_empty() {
                            text.push('\n');
                        }
                        text.push_str(t);
                    }
                    (kind, _) => {
                        return Err(ApiError::invalid_param(
                            "messages",
                            format!("content parts of type {kind:?} are not supported (text only)"),
                        ))
                    }
                }
            }
            text
        }
    };
    let tool_calls = match &m.tool_calls {
        Some(calls) if !calls.is_empty() => Some(history_calls(calls)?),
        _ => None,
    };
    Ok(ChatMessage {
        role: m.role.clone(),
        content,
        tool_calls,
        tool_call_id: m.tool_call_id.clone(),
        name: m.name.clone(),
        // Templates read an assistant turn's thinking only.
        reasoning_content: (m.role == "assistant")
            .then(|| {
                let text = |t: &Option<String>| t.clone().filter(|t| !t.is_empty());
                text(&m.reasoning_content).or_else(|| text(&m.reasoning))
            })
            .flatten(),
        // Only the engine sets a turn's tools.
        tools: None,
    })
}

/// Variables the template sees beside the engine's own, which they may not replace.
const RESERVED_TEMPLATE_VARIABLES: &[&str] = &[
    "messages",
    "tools",
    "add_generation_prompt",
    "bos_token",
    "eos_token",
];

/// The request's template variables: its `chat_template_kwargs` (vLLM's and SGLang's name,
/// checked, not yet rendered), and its `reasoning_effort` where those do not set one (and
/// `enable_thinking: false` for `none` and `minimal`).
fn template_kwargs(
    request: &ChatCompletionRequest,
) -> Result<serde_json::Map<String, serde_json::Value>, ApiError> {
    let mut kwargs = checked_template_kwargs(request.chat_template_kwargs.clone())?;
    if let Some(effort) = &request.reasoning_effort {
        if !REASONING_EFFORTS.contains(&effort.as_str()) {
            return Err(ApiError::invalid_param(
                "reasoning_effort",
                format!("{effort:?} is not one of {}", REASONING_EFFORTS.join(", ")),
            ));
        }
        kwargs
            .entry("reasoning_effort")
            .or_insert_with(|| effort.as_str().into());
        // No reasoning, for templates that turn thinking off (Qwen 3's), as on Responses.
        if matches!(effort.as_str(), "none" | "minimal") {
            kwargs.entry("enable_thinking").or_insert(false.into());
        }
    }
    Ok(kwargs)
}

/// gpt-oss knows three efforts (`low`, `medium`, `high`): the others become the nearest.
fn nearest_harmony_effort(kwargs: &mut serde_json::Map<String, serde_json::Value>) {
    if let Some(serde_json::Value::String(effort)) = kwargs.get_mut("reasoning_effort") {
        match effort.as_str() {
            "none" | "minimal" => *effort = "low".into(),
            "xhigh" | "max" => *effort = "high".into(),
            _ => {}
        }
    }
}

/// The efforts OpenAI's APIs name.
pub(super) const REASONING_EFFORTS: [&str; 7] =
    ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/// A request's `chat_template_kwargs`, none of them a variable the server sets.
pub(super) fn checked_template_kwargs(
    kwargs: Option<serde_json::Map<String, serde_json::Value>>,
) -> Result<serde_json::Map<String, serde_json::Value>, ApiError> {
    let kwargs = kwargs.unwrap_or_default();
    if let Some(key) = kwargs
        .keys()
        .find(|k| RESERVED_TEMPLATE_VARIABLES.contains(&k.as_str()))
    {
        return Err(ApiError::invalid_param(
            "chat_template_kwargs",
            format!(
                "{key:?} is set by the server; chat_template_kwargs may not hold {}",
                RESERVED_TEMPLATE_VARIABLES.join(", ")
            ),
        ));
    }
    Ok(kwargs)
}

/// The deprecated `functions` and `function_call` fields: refused rather than ignored, since
/// a client sending them expects a `function_call` answer it would never get.
fn refuse_legacy_functions(request: &ChatCompletionRequest) -> Result<(), ApiError> {
    // Values that ask for nothing (no functions, `"none"`) pass, as their null does.
    let asks_nothing = |v: &serde_json::Value| {
        v.is_null() || v.as_array().is_some_and(Vec::is_empty) || v == "none"
    };
    for (param, value) in [
        ("functions", &request.functions),
        ("function_call", &request.function_call),
    ] {
        if value.as_ref().is_some_and(|v| !asks_nothing(v)) {
            return Err(ApiError::invalid_param(
                param,
                format!("{param} is deprecated and not supported; send tools and tool_choice"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::protocol::ContentPart;
    use super::*;

    #[test]
    fn text_parts_are_joined_by_newlines() {
        let part = |text: &str| ContentPart {
            kind: "text".into(),
            text: Some(text.into()),
            refusal: None,
        };
        let message = ChatMessageIn {
            role: "user".into(),
            content: Some(Content::Parts(vec![part("Hello"), part("world")])),
            tool_calls: None,
            tool_call_id: None,
            name: None,
            reasoning_content: Some("hmm".into()),
            reasoning: None,
        };
        let converted = to_chat_message(&message).ok();
        // Only an assistant turn's thinking reaches the template.
        assert_eq!(
            converted.as_ref().map(|m| m.reasoning_content.clone()),
            Some(None)
        );
        let rendered = to_chat_message(&message).map(|m| m.content);
        assert_eq!(rendered.ok().as_deref(), Some("Hello\nworld"));
    }

    #[test]
    fn reasoning_effort_reaches_the_template_unless_its_kwargs_set_one() {
        let request = |body: serde_json::Value| -> ChatCompletionRequest {
            serde_json::from_value(body).unwrap()
        };
        let messages = serde_json::json!([{"role": "user", "content": "hi"}]);
        let kwargs = template_kwargs(&request(
            serde_json::json!({"messages": messages, "reasoning_effort": "high"}),
        ))
        .unwrap();
        assert_eq!(kwargs["reasoning_effort"], "high");
        let kwargs = template_kwargs(&request(serde_json::json!({"messages": messages,
            "reasoning_effort": "high", "chat_template_kwargs": {"reasoning_effort": "low"}})))
        .unwrap();
        assert_eq!(kwargs["reasoning_effort"], "low");
        assert!(kwargs.get("enable_thinking").is_none());
        let kwargs = template_kwargs(&request(
            serde_json::json!({"messages": messages, "reasoning_effort": "none"}),
        ))
        .unwrap();
        assert_eq!(kwargs["enable_thinking"], false);
        let refused = template_kwargs(&request(
            serde_json::json!({"messages": messages, "reasoning_effort": "extreme"}),
        ));
        assert!(refused.is_err());
    }

    #[test]
    fn a_tool_answer_is_an_object() {
        use serde_json::json;
        let schema = |s| tool_answer(Some(GrammarSpec::JsonSchema(s)));
        let typed = |s| match schema(s) {
            Ok(Some(GrammarSpec::JsonSchema(s))) => s["type"].clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(typed(json!({"properties": {"a": {}}})), json!("object"));
        assert_eq!(typed(json!({"type": "object"})), json!("object"));
        assert!(tool_answer(Some(GrammarSpec::JsonObject)).is_ok());
        assert!(tool_answer(None).is_ok_and(|a| a.is_none()));
        for refused in [json!({}), json!({"type": "array"})] {
            assert!(schema(refused).is_err());
        }
        assert!(tool_answer(Some(GrammarSpec::Regex("a".into()))).is_err());
    }

    #[test]
    fn legacy_function_fields_that_ask_for_nothing_pass() {
        let request = |extra: serde_json::Value| {
            let mut body = serde_json::json!({"messages": [{"role": "user", "content": "hi"}]});
            if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
                body.extend(extra.clone());
            }
            serde_json::from_value::<ChatCompletionRequest>(body).unwrap()
        };
        let passes = |extra| refuse_legacy_functions(&request(extra)).is_ok();
        assert!(passes(
            serde_json::json!({"functions": [], "function_call": "none"})
        ));
        assert!(passes(serde_json::json!({"functions": null})));
        assert!(!passes(serde_json::json!({"functions": [{"name": "f"}]})));
        assert!(!passes(serde_json::json!({"function_call": "auto"})));
    }
}
