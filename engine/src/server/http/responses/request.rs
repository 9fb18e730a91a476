//! A Responses API request read as the chat request it asks for: `instructions` and the
//! `input` items become messages (function calls and their outputs the assistant's
//! `tool_calls` and `tool` turns), flat function tools and `text.format` their chat shapes.
//! What needs state this server does not keep (`previous_response_id`, `conversation`,
//! background runs) and tools other than functions are refused by name.

use super::super::chat::REASONING_EFFORTS;
use super::super::error::ApiError;
use super::super::protocol::ChatCompletionRequest;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// `POST /v1/responses`, as clients send it. Sampling extensions (`top_k`, `seed`, `stop`,
/// the constraint fields) are read as on `/v1/chat/completions`.
#[derive(Clone, Debug, Deserialize)]
pub struct ResponsesRequest {
    /// A string (one user turn) or a list of items; read in `messages`, which names `input`
    /// in its errors.
    pub input: Option<Value>,
    pub instructions: Option<String>,
    pub max_output_tokens: Option<u32>,
    /// `[{"type": "function", "name", "description", "parameters", "strict"}]`.
    pub tools: Option<Vec<Value>>,
    /// `"none" | "auto" | "required"` or `{"type": "function", "name"}`.
    pub tool_choice: Option<Value>,
    pub parallel_tool_calls: Option<bool>,
    /// `{"format": {"type": "text" | "json_object" | "json_schema", ...}}`.
    pub text: Option<Value>,
    /// `{"effort", "summary"}`: an effort of `none` or `minimal` turns thinking off.
    pub reasoning: Option<Value>,
    pub top_logprobs: Option<u32>,
    /// Extra output: `message.output_text.logprobs` asks for logprobs; the other values
    /// ask for details of items this server never makes (tool results, images) or for
    /// encrypted reasoning it never needs back, and change nothing.
    pub include: Option<Vec<String>>,
    pub metadata: Option<Value>,
    pub user: Option<String>,
    /// Fields that need what this server does not keep or do: refused when set.
    pub previous_response_id: Option<String>,
    pub conversation: Option<Value>,
    pub background: Option<bool>,
    pub prompt: Option<Value>,
    pub truncation: Option<String>,
    pub max_tool_calls: Option<u32>,
    /// Everything else: the sampling fields chat takes, and fields ignored there (`store`:
    /// nothing is kept either way).
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// Chat fields a Responses request names otherwise: refused, with the name to use.
const CHAT_ONLY_FIELDS: &[(&str, &str)] = &[
    ("messages", "input"),
    ("max_tokens", "max_output_tokens"),
    ("max_completion_tokens", "max_output_tokens"),
    ("response_format", "text.format"),
    ("logprobs", "include: [\"message.output_text.logprobs\"]"),
    ("n", "one request per sample"),
    ("functions", "tools"),
    ("function_call", "tool_choice"),
    ("separate_reasoning", "the reasoning output item"),
];

/// The `include` value that asks for the output text's logprobs.
const LOGPROBS: &str = "message.output_text.logprobs";

impl ResponsesRequest {
    /// The chat request this one asks for (streaming as asked, usage always counted).
    pub fn to_chat(&self) -> Result<ChatCompletionRequest, ApiError> {
        self.refuse_unsupported()?;
        let mut chat = self.rest.clone();
        for (field, instead) in CHAT_ONLY_FIELDS {
            if chat.get(*field).is_some_and(|v| !v.is_null()) {
                return Err(ApiError::invalid_param(
                    field,
                    format!(
                        "{field} is a chat completions field; the Responses API takes {instead}"
                    ),
                ));
            }
        }
        // The Responses stream always ends with the usage (`response.completed`).
        chat.remove("stream_options");
        if chat.get("stream").and_then(Value::as_bool) == Some(true) {
            chat.insert("stream_options".into(), json!({"include_usage": true}));
        }
        chat.insert("messages".into(), Value::Array(self.messages()?));
        if let Some(max) = self.max_output_tokens {
            chat.insert("max_completion_tokens".into(), max.into());
        }
        if let Some(tools) = &self.tools {
            let tools = tools.iter().map(chat_tool).collect::<Result<_, _>>()?;
            chat.insert("tools".into(), Value::Array(tools));
        }
        if let Some(choice) = &self.tool_choice {
            chat.insert("tool_choice".into(), chat_tool_choice(choice)?);
        }
        if let Some(parallel) = self.parallel_tool_calls {
            chat.insert("parallel_tool_calls".into(), parallel.into());
        }
        if let Some(format) = self.text.as_ref().and_then(|t| t.get("format")) {
            chat.insert("response_format".into(), chat_response_format(format)?);
        }
        if self.logprobs() {
            chat.insert("logprobs".into(), true.into());
            chat.insert("top_logprobs".into(), self.top_logprobs.unwrap_or(0).into());
        }
        if self.thinking_off()? {
            let kwargs = chat
                .entry("chat_template_kwargs")
                .or_insert_with(|| json!({}));
            if let Some(kwargs) = kwargs.as_object_mut() {
                kwargs.insert("enable_thinking".into(), false.into());
            }
        }
        if let Some(effort) = self.effort() {
            chat.insert("reasoning_effort".into(), effort.clone());
        }
        serde_json::from_value(Value::Object(chat))
            .map_err(|e| ApiError::invalid(format!("invalid request: {e}")))
    }

    fn refuse_unsupported(&self) -> Result<(), ApiError> {
        let refuse = |param: &str, why: &str| Err(ApiError::invalid_param(param, why));
        if self.previous_response_id.is_some() {
            return refuse(
                "previous_response_id",
                "this server keeps no responses: send the whole conversation in input",
            );
        }
        if self.conversation.as_ref().is_some_and(|c| !c.is_null()) {
            return refuse(
                "conversation",
                "this server keeps no conversations: send the whole conversation in input",
            );
        }
        if self.background == Some(true) {
            return refuse("background", "background responses are not supported");
        }
        if self.prompt.as_ref().is_some_and(|p| !p.is_null()) {
            return refuse("prompt", "stored prompt templates are not supported");
        }
        if self.truncation.as_deref().is_some_and(|t| t != "disabled") {
            return refuse(
                "truncation",
                "only truncation \"disabled\" is supported: a conversation longer than the \
                 context is refused, never cut",
            );
        }
        if self.max_tool_calls.is_some() {
            return refuse("max_tool_calls", "max_tool_calls is not supported");
        }
        Ok(())
    }

    /// Whether logprobs are asked for: through `include`, or a positive `top_logprobs`.
    fn logprobs(&self) -> bool {
        let include = self.include.as_deref().unwrap_or_default();
        include.iter().any(|i| i == LOGPROBS) || self.top_logprobs.is_some_and(|n| n > 0)
    }

    /// Whether `reasoning.effort` asks for no thinking (`none` or `minimal`): the chat
    /// template's `enable_thinking` is then false (templates without it ignore it).
    fn thinking_off(&self) -> Result<bool, ApiError> {
        let Some(effort) = self.effort() else {
            return Ok(false);
        };
        match effort.as_str().filter(|e| REASONING_EFFORTS.contains(e)) {
            Some("none" | "minimal") => Ok(true),
            Some(_) => Ok(false),
            None => Err(ApiError::invalid_param(
                "reasoning.effort",
                format!("{effort} is not one of {}", REASONING_EFFORTS.join(", ")),
            )),
        }
    }

    /// `reasoning.effort`, where given (and not null).
    fn effort(&self) -> Option<&Value> {
        let effort = self.reasoning.as_ref().and_then(|r| r.get("effort"));
        effort.filter(|e| !e.is_null())
    }

    /// The chat messages of `instructions` and `input`. Leading system turns (the
    /// instructions, `developer` items) are one turn, joined by blank lines: many templates
    /// take a single system turn, first.
    fn messages(&self) -> Result<Vec<Value>, ApiError> {
        let mut messages = Vec::new();
        if let Some(instructions) = &self.instructions {
            messages.push(json!({"role": "system", "content": instructions}));
        }
        match &self.input {
            Some(Value::String(text)) => messages.push(json!({"role": "user", "content": text})),
            Some(Value::Array(items)) => {
                let mut thinking = None;
                for item in items {
                    push_item(&mut messages, item, &mut thinking)?;
                }
            }
            _ => return Err(bad_input("input is required: a string or a list of items")),
        }
        let leading = messages
            .iter()
            .take_while(|m| m["role"] == "system")
            .count();
        if leading > 1 {
            let joined: Vec<&str> = (messages[..leading].iter())
                .filter_map(|m| m["content"].as_str())
                .collect();
            let system = json!({"role": "system", "content": joined.join("\n\n")});
            messages.splice(..leading, [system]);
        }
        Ok(messages)
    }
}

fn bad_input(message: impl Into<String>) -> ApiError {
    ApiError::invalid_param("input", message)
}

fn text_field<'a>(item: &'a Value, field: &str, kind: &str) -> Result<&'a str, ApiError> {
    item.get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| bad_input(format!("a {kind} item needs {field} as a string")))
}

/// Adds input item `item` to `messages`: a message, a function call (joined to the
/// assistant turn before it) or a call's output. A reasoning item's text waits in
/// `thinking` for the assistant turn after it, as its `reasoning_content` (templates that
/// write thinking back, as Qwen 3's does in a tool loop, read it there; others drop it).
fn push_item(
    messages: &mut Vec<Value>,
    item: &Value,
    thinking: &mut Option<String>,
) -> Result<(), ApiError> {
    let kind = item.get("type").and_then(Value::as_str);
    // Thinking belongs to the assistant turn that follows it, not to any later one.
    let pending = match kind {
        Some("reasoning") => None,
        _ => thinking.take(),
    };
    let with_thinking = |mut turn: Value| {
        if let Some(text) = &pending {
            turn["reasoning_content"] = json!(text);
        }
        turn
    };
    match kind {
        None | Some("message") => {
            let role = text_field(item, "role", "message")?;
            let role = match role {
                "user" | "assistant" | "system" => role,
                // Chat templates know the system role only.
                "developer" => "system",
                other => return Err(bad_input(format!("{other:?} is not a message role"))),
            };
            let content = message_text(item.get("content"))?;
            let turn = json!({"role": role, "content": content});
            messages.push(match role {
                "assistant" => with_thinking(turn),
                _ => turn,
            });
        }
        Some("function_call") => {
            let call = json!({
                "id": text_field(item, "call_id", "function_call")?,
                "type": "function",
                "function": {
                    "name": text_field(item, "name", "function_call")?,
                    "arguments": text_field(item, "arguments", "function_call")?,
                },
            });
            let last_is_assistant = messages.last().is_some_and(|m| m["role"] == "assistant");
            if !last_is_assistant {
                let turn = json!({"role": "assistant", "content": null, "tool_calls": []});
                messages.push(with_thinking(turn));
            } else if let Some(last) = messages
                .last_mut()
                .filter(|m| m["reasoning_content"].is_null())
            {
                // Thinking between a turn's text and its calls is still that turn's.
                *last = with_thinking(last.take());
            }
            if let Some(last) = messages.last_mut() {
                match last.get_mut("tool_calls").and_then(Value::as_array_mut) {
                    Some(calls) => calls.push(call),
                    None => last["tool_calls"] = json!([call]),
                }
            }
        }
        Some("function_call_output") => {
            let call_id = text_field(item, "call_id", "function_call_output")?;
            let output = match item.get("output") {
                Some(Value::String(s)) => s.clone(),
                parts @ Some(Value::Array(_)) => message_text(parts)?,
                _ => return Err(bad_input("a function_call_output item needs output")),
            };
            // The function's name, from the call it answers (templates may show it).
            let name = messages
                .iter()
                .filter_map(|m| m.get("tool_calls").and_then(Value::as_array))
                .flatten()
                .find(|c| c["id"] == call_id)
                .map(|c| c["function"]["name"].clone());
            let mut turn = json!({"role": "tool", "tool_call_id": call_id, "content": output});
            if let Some(name) = name {
                turn["name"] = name;
            }
            messages.push(turn);
        }
        Some("reasoning") => {
            let parts = item.get("content").and_then(Value::as_array);
            let texts: Vec<&str> = (parts.into_iter().flatten())
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("reasoning_text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            // Several items before one turn: their texts in order.
            if !texts.is_empty() {
                let text = texts.join("\n");
                *thinking = Some(match thinking.take() {
                    Some(before) => format!("{before}\n{text}"),
                    None => text,
                });
            }
        }
        Some("item_reference") => {
            return Err(bad_input(
                "this server keeps no items to reference: send the item itself",
            ))
        }
        Some(other) => {
            return Err(bad_input(format!(
                "input items of type {other:?} are not supported (message, function_call, \
                 function_call_output and reasoning are)"
            )))
        }
    }
    Ok(())
}

/// A message's text: a string, or text parts joined by newlines (as chat's parts are).
fn message_text(content: Option<&Value>) -> Result<String, ApiError> {
    match content {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Array(parts)) => {
            let mut text = String::new();
            for part in parts {
                let kind = part.get("type").and_then(Value::as_str).unwrap_or_default();
                let field = match kind {
                    "input_text" | "output_text" | "text" => "text",
                    "refusal" => "refusal",
                    _ => {
                        return Err(bad_input(format!(
                            "content parts of type {kind:?} are not supported (text only)"
                        )))
                    }
                };
                let piece = text_field(part, field, kind)?;
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(piece);
            }
            Ok(text)
        }
        _ => Err(bad_input("a message needs content: a string or text parts")),
    }
}

/// A flat function tool in chat's shape (`{"type": "function", "function": {...}}`).
fn chat_tool(tool: &Value) -> Result<Value, ApiError> {
    let kind = tool.get("type").and_then(Value::as_str).unwrap_or_default();
    if kind != "function" {
        return Err(ApiError::invalid_param(
            "tools",
            format!("tools of type {kind:?} are not supported (function only)"),
        ));
    }
    let mut function = tool.as_object().cloned().unwrap_or_default();
    function.remove("type");
    Ok(json!({"type": "function", "function": function}))
}

fn chat_tool_choice(choice: &Value) -> Result<Value, ApiError> {
    match choice {
        Value::String(_) => Ok(choice.clone()),
        Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("function") => {
            let name = o.get("name").cloned().unwrap_or(Value::Null);
            Ok(json!({"type": "function", "function": {"name": name}}))
        }
        _ => Err(ApiError::invalid_param(
            "tool_choice",
            "tool_choice is none, auto, required or {\"type\": \"function\", \"name\"}",
        )),
    }
}

/// `text.format` in chat's `response_format` shape.
fn chat_response_format(format: &Value) -> Result<Value, ApiError> {
    let kind = format
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match kind {
        "text" | "json_object" => Ok(json!({"type": kind})),
        "json_schema" => {
            let mut schema = format.as_object().cloned().unwrap_or_default();
            schema.remove("type");
            Ok(json!({"type": "json_schema", "json_schema": schema}))
        }
        _ => Err(ApiError::invalid_param(
            "text.format",
            format!("format type {kind:?} is not text, json_object or json_schema"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(body: Value) -> Result<ChatCompletionRequest, ApiError> {
        serde_json::from_value::<ResponsesRequest>(body)
            .map_err(|e| ApiError::invalid(e.to_string()))?
            .to_chat()
    }

    fn messages(body: Value) -> Value {
        let chat = request(body).unwrap();
        serde_json::to_value(
            chat.messages
                .iter()
                .map(|m| {
                    json!({"role": m.role, "tool_call_id": m.tool_call_id, "name": m.name,
                           "calls": m.tool_calls.as_ref().map(Vec::len),
                           "thinking": m.reasoning_content})
                })
                .collect::<Vec<_>>(),
        )
        .unwrap()
    }

    /// A tool round trip: instructions first, calls joined to one assistant turn (with the
    /// thinking of the reasoning item before them), each output a tool turn naming its
    /// function; a reasoning item before a user turn goes nowhere.
    #[test]
    fn input_items_become_the_chat_turns_they_are() {
        let body = json!({
            "instructions": "Be brief.",
            "input": [
                {"role": "developer", "content": "Use tools."},
                {"type": "reasoning", "id": "rs_0", "content": [{"type": "reasoning_text", "text": "lost"}]},
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
                {"type": "reasoning", "id": "rs_1", "summary": [],
                 "content": [{"type": "reasoning_text", "text": "Call"}]},
                {"type": "reasoning", "id": "rs_2", "content": [{"type": "reasoning_text", "text": "both."}]},
                {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
                {"type": "function_call", "call_id": "c2", "name": "g", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c2", "output": "2"},
                {"type": "function_call_output", "call_id": "c1", "output": "1"},
            ],
        });
        let want = json!([
            {"role": "system", "tool_call_id": null, "name": null, "calls": null, "thinking": null},
            {"role": "user", "tool_call_id": null, "name": null, "calls": null, "thinking": null},
            {"role": "assistant", "tool_call_id": null, "name": null, "calls": 2,
             "thinking": "Call\nboth."},
            {"role": "tool", "tool_call_id": "c2", "name": "g", "calls": null, "thinking": null},
            {"role": "tool", "tool_call_id": "c1", "name": "f", "calls": null, "thinking": null},
        ]);
        assert_eq!(messages(body), want);
    }

    #[test]
    fn flat_tools_formats_and_logprobs_take_their_chat_shapes() {
        let chat = request(json!({
            "input": "hi",
            "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}],
            "tool_choice": {"type": "function", "name": "f"},
            "text": {"format": {"type": "json_schema", "name": "x", "schema": {"type": "object"}}},
            "include": ["message.output_text.logprobs"],
            "top_logprobs": 3,
            "max_output_tokens": 7,
            "reasoning": {"effort": "minimal"},
        }))
        .unwrap();
        assert_eq!(
            chat.tools,
            Some(vec![
                json!({"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}})
            ])
        );
        assert_eq!(
            chat.tool_choice,
            Some(json!({"type": "function", "function": {"name": "f"}}))
        );
        assert_eq!(
            chat.sampling.response_format,
            Some(
                json!({"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}}})
            )
        );
        assert_eq!((chat.logprobs, chat.top_logprobs), (Some(true), Some(3)));
        assert_eq!(chat.max_completion_tokens, Some(7));
        let kwargs = chat.chat_template_kwargs.unwrap_or_default();
        assert_eq!(kwargs.get("enable_thinking"), Some(&json!(false)));
        assert_eq!(chat.reasoning_effort.as_deref(), Some("minimal"));
    }

    #[test]
    fn what_needs_kept_state_or_other_tools_is_refused_by_name() {
        let refused = |extra: Value| {
            let mut body = json!({"input": "hi"});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            request(body).err().and_then(|e| e.param)
        };
        let param = |p: &str| Some(p.to_string());
        assert_eq!(
            refused(json!({"previous_response_id": "resp_1"})),
            param("previous_response_id")
        );
        assert_eq!(refused(json!({"background": true})), param("background"));
        assert_eq!(refused(json!({"truncation": "auto"})), param("truncation"));
        assert_eq!(
            refused(json!({"tools": [{"type": "web_search"}]})),
            param("tools")
        );
        assert_eq!(refused(json!({"input": 3})), param("input"));
        assert_eq!(refused(json!({"messages": []})), param("messages"));
        assert_eq!(refused(json!({"n": 2})), param("n"));
        assert_eq!(
            refused(json!({"text": {"format": {"type": "grammar"}}})),
            param("text.format")
        );
        assert_eq!(
            refused(json!({"input": [{"type": "item_reference", "id": "msg_1"}]})),
            param("input")
        );
        assert_eq!(
            refused(json!({"input": [{"role": "user", "content": [{"type": "input_image"}]}]})),
            param("input")
        );
        // Accepted as no-ops: store (nothing is kept either way), details of items never
        // made.
        let include = ["reasoning.encrypted_content", "file_search_call.results"];
        assert_eq!(refused(json!({"store": true, "include": include})), None);
    }
}
