//! Request bodies of the OpenAI API as clients send them. Unknown fields are ignored, so
//! clients written for other servers work unmodified; the extensions of other servers that
//! we cannot honour are declared here only to be refused by name in `params`, so that no
//! client silently gets other than what it asked for.

use super::error::ApiError;
use crate::handle::PromptInput;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// Parses a JSON body; malformed JSON and wrong types are 400s in OpenAI's shape (the content
/// type is not checked: `curl -d` sends form encoding by default).
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::invalid(format!("invalid JSON body: {e}")))
}

/// Sampling fields shared by `/v1/completions` and `/v1/chat/completions` (OpenAI's, plus the
/// common vLLM / SGLang extensions).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SamplingFields {
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
    pub top_p: Option<f32>,
    /// -1 or 0 disable it.
    pub top_k: Option<i32>,
    pub min_p: Option<f32>,
    pub frequency_penalty: Option<f32>,
    pub presence_penalty: Option<f32>,
    pub repetition_penalty: Option<f32>,
    pub seed: Option<i64>,
    pub stop: Option<Stop>,
    pub stop_token_ids: Option<Vec<u32>>,
    pub ignore_eos: Option<bool>,
    /// vLLM's extension: no stop ends the output before this many tokens.
    pub min_tokens: Option<u32>,
    /// vLLM's and SGLang's: `false` keeps control tokens' text in the output text.
    pub skip_special_tokens: Option<bool>,
    pub n: Option<u32>,
    pub stream: Option<bool>,
    pub stream_options: Option<StreamOptions>,
    /// Narrows the caller's cache namespace: requests with different salts never share KV.
    pub cache_salt: Option<String>,
    /// OpenAI: `{"type": "text" | "json_object"}` or `{"type": "json_schema", "json_schema":
    /// {"name", "schema", "strict"}}`.
    pub response_format: Option<serde_json::Value>,
    /// SGLang's constraint names: a JSON schema (as a string or an object), a regex, a GBNF
    /// grammar; and `lark`, a Lark grammar (llguidance's native form).
    /// vLLM names them `guided_json`, `guided_regex` and `guided_grammar` (GBNF).
    #[serde(alias = "guided_json")]
    pub json_schema: Option<serde_json::Value>,
    #[serde(alias = "guided_regex")]
    pub regex: Option<String>,
    #[serde(alias = "guided_grammar")]
    pub ebnf: Option<String>,
    pub lark: Option<String>,
    /// SGLang's structural tag (an object, or its JSON text): see `grammar::structural_tag`.
    pub structural_tag: Option<serde_json::Value>,
    /// vLLM's `guided_choice`: the output is one of these strings.
    pub guided_choice: Option<Vec<String>>,
    /// Extensions of other servers that are refused when they ask for something (see
    /// `params::refuse_unsupported`).
    #[serde(flatten)]
    pub unsupported: UnsupportedFields,
    /// SGLang's: the LoRA adapter to run, by name (see `adapter`).
    pub lora_path: Option<serde_json::Value>,
    /// OpenAI: token id (as a string) -> bias in [-100, 100].
    pub logit_bias: Option<std::collections::HashMap<String, f32>>,
}

/// vLLM and SGLang request fields this server does not honour. Each is refused when set to
/// anything but its no-op value.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct UnsupportedFields {
    pub use_beam_search: Option<bool>,
    pub length_penalty: Option<f32>,
    pub typical_p: Option<f32>,
    pub prompt_logprobs: Option<serde_json::Value>,
    pub allowed_token_ids: Option<serde_json::Value>,
    pub bad_words: Option<serde_json::Value>,
    pub include_stop_str_in_output: Option<bool>,
    pub truncate_prompt_tokens: Option<serde_json::Value>,
    pub logits_processors: Option<serde_json::Value>,
    pub return_hidden_states: Option<bool>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Stop {
    One(String),
    Many(Vec<String>),
}

impl Stop {
    pub fn into_vec(self) -> Vec<String> {
        match self {
            Stop::One(s) => vec![s],
            Stop::Many(v) => v,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct StreamOptions {
    #[serde(default)]
    pub include_usage: bool,
}

/// `POST /v1/completions`.
#[derive(Clone, Debug, Deserialize)]
pub struct CompletionRequest {
    #[serde(default)]
    pub model: Option<String>,
    pub prompt: Prompt,
    /// Number of top candidates per token (0 still returns the chosen token's logprob).
    pub logprobs: Option<u32>,
    pub echo: Option<bool>,
    pub suffix: Option<String>,
    pub best_of: Option<u32>,
    #[serde(flatten)]
    pub sampling: SamplingFields,
}

/// A completion prompt: text or token ids; a batch of one is accepted as well.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Prompt {
    Text(String),
    Tokens(Vec<u32>),
    TextBatch(Vec<String>),
    TokenBatch(Vec<Vec<u32>>),
}

/// The prompts as sent in field `param`: one text (control tokens written in it count as
/// such) or token-id list, or a batch of either (one request each, in order).
pub fn prompt_inputs(prompt: Prompt, param: &str) -> Result<Vec<PromptInput>, ApiError> {
    let inputs: Vec<PromptInput> = match prompt {
        Prompt::Text(text) => vec![PromptInput::Text(text)],
        Prompt::Tokens(ids) => vec![PromptInput::Tokens(ids)],
        Prompt::TextBatch(texts) => texts.into_iter().map(PromptInput::Text).collect(),
        Prompt::TokenBatch(batch) => batch.into_iter().map(PromptInput::Tokens).collect(),
    };
    if inputs.is_empty() {
        return Err(ApiError::invalid_param(
            param,
            format!("the {param} list is empty"),
        ));
    }
    Ok(inputs)
}

/// `POST /v1/chat/completions`.
#[derive(Clone, Debug, Deserialize)]
pub struct ChatCompletionRequest {
    #[serde(default)]
    pub model: Option<String>,
    pub messages: Vec<ChatMessageIn>,
    /// OpenAI's newer name for `max_tokens`; wins when both are given.
    pub max_completion_tokens: Option<u32>,
    pub logprobs: Option<bool>,
    pub top_logprobs: Option<u32>,
    /// `[{"type": "function", "function": {"name", "description", "parameters"}}]`.
    pub tools: Option<Vec<serde_json::Value>>,
    /// `"none" | "auto" | "required"` or `{"type": "function", "function": {"name"}}`.
    pub tool_choice: Option<serde_json::Value>,
    pub parallel_tool_calls: Option<bool>,
    /// Whether a reasoning model's thinking comes apart from its answer (SGLang's name;
    /// default true where the server splits reasoning at all).
    pub separate_reasoning: Option<bool>,
    /// At most this many tokens of thinking for a thinking model: its close (`</think>`,
    /// `[/THINK]`) is then written for it, and it answers (the name Qwen's and SGLang's thinking budgets use).
    pub thinking_budget: Option<u32>,
    /// More variables for the chat template (`{"enable_thinking": false}`).
    pub chat_template_kwargs: Option<serde_json::Map<String, serde_json::Value>>,
    /// OpenAI's reasoning effort (`low`, `medium`, `high`, ...), given to the template as
    /// `reasoning_effort` (gpt-oss's writes it into its system message).
    pub reasoning_effort: Option<String>,
    /// The deprecated forms of `tools` and `tool_choice`, refused with a pointer to those.
    pub functions: Option<serde_json::Value>,
    pub function_call: Option<serde_json::Value>,
    #[serde(flatten)]
    pub sampling: SamplingFields,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ChatMessageIn {
    pub role: String,
    /// `null` for assistant turns that only carried tool calls.
    #[serde(default)]
    pub content: Option<Content>,
    /// An assistant turn's calls, in OpenAI's shape.
    #[serde(default)]
    pub tool_calls: Option<Vec<serde_json::Value>>,
    /// A tool turn's answer to this call.
    #[serde(default)]
    pub tool_call_id: Option<String>,
    /// A tool turn's function, or a participant's name.
    #[serde(default)]
    pub name: Option<String>,
    /// An assistant turn's thinking, as a reply gave it.
    #[serde(default)]
    pub reasoning_content: Option<String>,
    /// vLLM's newer name for it (a message may carry both; `reasoning_content` wins).
    #[serde(default)]
    pub reasoning: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
}

#[derive(Clone, Debug, Deserialize)]
pub struct ContentPart {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub text: Option<String>,
    /// A `refusal` part's text (in an assistant turn of the history).
    #[serde(default)]
    pub refusal: Option<String>,
}
