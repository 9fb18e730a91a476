//! OpenAI `tools` / `tool_choice` on `/v1/chat/completions`: validated into the engine's
//! [`ToolFunction`]s and [`ToolChoice`], given to the prompt (`handle::conversation` announces
//! them), constrained by the tool grammar of the model's [`ToolFormat`], and the output split
//! back into content and `tool_calls`.

use super::error::ApiError;
use super::protocol::ChatCompletionRequest;
use super::response::{FunctionCallOut, FunctionDelta, ToolCallDelta, ToolCallOut};
use crate::grammar::CallPiece;
use crate::grammar::{GrammarSpec, ToolCall, ToolChoice, ToolFormat, ToolFunction};
use crate::tokenizer::Tokenizer;
use serde_json::Value;

/// A request's tools, when it asks for calls at all.
pub struct ToolRequest {
    pub tools: Vec<ToolFunction>,
    pub choice: ToolChoice,
    pub parallel: bool,
}

impl ToolRequest {
    /// The tools of `request`; `None` without tools or with `tool_choice: "none"`.
    pub fn from_request(request: &ChatCompletionRequest) -> Result<Option<Self>, ApiError> {
        let tools = match &request.tools {
            None => Vec::new(),
            Some(list) => list.iter().map(tool_function).collect::<Result<_, _>>()?,
        };
        let choice = tool_choice(request.tool_choice.as_ref(), &tools)?;
        if tools.is_empty() || choice == ToolChoice::None {
            return Ok(None);
        }
        Ok(Some(Self {
            tools,
            choice,
            parallel: request.parallel_tool_calls.unwrap_or(true),
        }))
    }

    /// The grammar of the output in `format` over `vocab`; `answer` is the request's JSON
    /// response format, if any.
    pub fn grammar(
        &self,
        format: ToolFormat,
        answer: Option<&GrammarSpec>,
        vocab: &Tokenizer,
    ) -> Option<GrammarSpec> {
        format.grammar(&self.tools, &self.choice, self.parallel, answer, vocab)
    }
}

fn tool_function(value: &Value) -> Result<ToolFunction, ApiError> {
    let bad = |m: String| ApiError::invalid_param("tools", m);
    if value.get("type").and_then(Value::as_str) != Some("function") {
        return Err(bad("every tool must have type \"function\"".into()));
    }
    let function = value
        .get("function")
        .ok_or_else(|| bad("a tool needs a function".into()))?;
    let name = function
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| {
            !n.is_empty()
                && n.len() <= 64
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
        .ok_or_else(|| bad("function.name must be 1-64 of a-z, A-Z, 0-9, _ and -".into()))?;
    let parameters = match function.get("parameters") {
        None | Some(Value::Null) => serde_json::json!({"type": "object", "properties": {}}),
        Some(Value::Object(p)) => {
            // Arguments are always an object (what clients parse them into): a schema
            // without a type (`{}`, properties alone) says so explicitly.
            let mut p = p.clone();
            // A combination (`anyOf` of object schemas, a `$ref`) says what it is itself.
            let combines = ["anyOf", "oneOf", "allOf", "$ref"]
                .iter()
                .any(|k| p.contains_key(*k));
            match p.get("type") {
                None if combines => {}
                None => {
                    p.insert("type".into(), Value::String("object".into()));
                }
                Some(t) if t == "object" => {}
                Some(_) => {
                    return Err(bad(format!(
                        "function {name}: parameters must be an object schema"
                    )))
                }
            }
            Value::Object(p)
        }
        Some(_) => {
            return Err(bad(format!(
                "function {name}: parameters must be a JSON schema"
            )))
        }
    };
    Ok(ToolFunction {
        name: name.to_string(),
        description: function
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        parameters,
    })
}

fn tool_choice(value: Option<&Value>, tools: &[ToolFunction]) -> Result<ToolChoice, ApiError> {
    let bad = |m: String| ApiError::invalid_param("tool_choice", m);
    let choice = match value {
        None => ToolChoice::Auto,
        Some(Value::String(s)) => match s.as_str() {
            "none" => ToolChoice::None,
            "auto" => ToolChoice::Auto,
            "required" => ToolChoice::Required,
            other => return Err(bad(format!("{other:?} is not none, auto or required"))),
        },
        Some(object) => {
            let name = object
                .get("function")
                .and_then(|f| f.get("name"))
                .and_then(Value::as_str)
                .ok_or_else(|| bad("a named choice needs function.name".into()))?;
            if !tools.iter().any(|t| t.name == name) {
                return Err(bad(format!("no tool is named {name:?}")));
            }
            ToolChoice::Function(name.to_string())
        }
    };
    if tools.is_empty() && matches!(choice, ToolChoice::Required | ToolChoice::Function(_)) {
        return Err(bad("tool_choice needs tools".into()));
    }
    Ok(choice)
}

/// An earlier assistant turn's `tool_calls`, checked: each has a function name and its
/// arguments as text (OpenAI's shape); what the engine reads of them.
pub fn history_calls(calls: &[Value]) -> Result<Vec<Value>, ApiError> {
    calls
        .iter()
        .map(|call| {
            let function = call.get("function");
            let name = function.and_then(|f| f.get("name")).and_then(Value::as_str);
            let arguments = function
                .and_then(|f| f.get("arguments"))
                .and_then(Value::as_str);
            match (name, arguments) {
                (Some(name), Some(arguments)) => {
                    let mut checked = serde_json::json!({
                        "type": "function",
                        "function": {"name": name, "arguments": arguments},
                    });
                    if let Some(id) = call.get("id").and_then(Value::as_str) {
                        checked["id"] = Value::String(id.to_string());
                    }
                    Ok(checked)
                }
                _ => Err(ApiError::invalid_param(
                    "messages",
                    "tool_calls entries need function.name and function.arguments",
                )),
            }
        })
        .collect()
}

/// Calls of choice `choice` in OpenAI's response shape.
pub fn calls_out(
    format: ToolFormat,
    rid: &str,
    choice: u32,
    calls: Vec<ToolCall>,
) -> Vec<ToolCallOut> {
    calls
        .into_iter()
        .enumerate()
        .map(|(i, call)| ToolCallOut {
            id: call_id(format, rid, choice, i),
            kind: "function",
            function: FunctionCallOut {
                name: call.name,
                arguments: call.arguments,
            },
        })
        .collect()
}

/// A piece of a call of choice `choice` as a stream delta holds it.
pub fn call_delta(format: ToolFormat, rid: &str, choice: u32, piece: CallPiece) -> ToolCallDelta {
    let starts = piece.name.is_some();
    ToolCallDelta {
        index: piece.index as u32,
        id: starts.then(|| call_id(format, rid, choice, piece.index)),
        kind: starts.then_some("function"),
        function: FunctionDelta {
            name: piece.name,
            arguments: piece.arguments,
        },
    }
}

/// Call `i`'s id: derived from the request id and the choice, so stable for one response
/// and distinct across its choices, in the shape `format`'s templates take back.
fn call_id(format: ToolFormat, rid: &str, choice: u32, i: usize) -> String {
    format.call_id(&format!("call_{rid}_{choice}_{i}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(parameters: Value) -> Value {
        json!({"type": "function", "function": {"name": "f", "parameters": parameters}})
    }

    /// Arguments are an object whatever the schema leaves out: clients parse them into one.
    #[test]
    fn tool_parameters_are_always_an_object_schema() {
        let parameters = |p| tool_function(&tool(p)).map(|f| f.parameters);
        assert_eq!(parameters(json!({})).ok(), Some(json!({"type": "object"})));
        let props = json!({"properties": {"a": {"type": "string"}}});
        assert_eq!(
            parameters(props).ok(),
            Some(json!({"type": "object", "properties": {"a": {"type": "string"}}}))
        );
        assert!(parameters(json!({"type": "string"})).is_err());
        // A union of object schemas is left as it is.
        let union = json!({"anyOf": [{"type": "object", "properties": {"a": {}}}]});
        assert_eq!(parameters(union.clone()).ok(), Some(union));
        assert!(parameters(json!([1])).is_err());
    }

    #[test]
    fn call_ids_differ_across_choices_and_calls() {
        let call = || ToolCall {
            name: "f".into(),
            arguments: "{}".into(),
        };
        for format in [ToolFormat::Hermes, ToolFormat::Mistral] {
            let ids = |choice| -> Vec<String> {
                calls_out(format, "chatcmpl-1", choice, vec![call(), call()])
                    .into_iter()
                    .map(|c| c.id)
                    .collect()
            };
            let mut all = [ids(0), ids(1)].concat();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 4, "{all:?}");
        }
    }
}
