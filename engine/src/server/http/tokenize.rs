//! `POST /tokenize` and `/detokenize` (also under `/v1/`), as SGLang and vLLM serve them: a
//! client counts or builds token ids with the served model's own tokenizer and chat
//! template, then sends them (`/v1/completions`, `/v1/embeddings`, the SGLang worker
//! protocol). The work runs on the bounded pool, in turn with other tenants': a body of
//! tens of megabytes is millions of tokens.

use super::chat::{checked_template_kwargs, rename_param, to_chat_message};
use super::error::ApiError;
use super::generate::parse_body;
use super::protocol::ChatMessageIn;
use super::HttpState;
use crate::handle::{Conversation, PromptInput};
use crate::tenants::Caller;
use crate::tokenizer::Tokenizer;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Most texts or token lists of one request.
const MAX_ITEMS: usize = 2048;

#[derive(Debug, Deserialize)]
pub struct TokenizeRequest {
    /// A text or a list of texts (SGLang, vLLM); llama.cpp names it `content`.
    #[serde(alias = "content")]
    pub prompt: Option<TextOrTexts>,
    /// Chat turns rendered with the model's chat template and its generation prompt, as
    /// `/v1/chat/completions` renders them (vLLM).
    pub messages: Option<Vec<ChatMessageIn>>,
    pub chat_template_kwargs: Option<serde_json::Map<String, serde_json::Value>>,
    /// Only true (the default) is served: chat completions always add it.
    pub add_generation_prompt: Option<bool>,
    /// Not served (chat completions never continue a final assistant turn).
    pub continue_final_message: Option<bool>,
    /// Not served: tools change the rendered prompt as chat completions announce them.
    pub tools: Option<serde_json::Value>,
    /// Default true: BOS/EOS where the model's file asks for them (texts only; a chat
    /// template writes its own). llama.cpp names it `add_special`.
    #[serde(alias = "add_special")]
    pub add_special_tokens: Option<bool>,
    /// vLLM: each token's vocabulary string beside its id.
    pub return_token_strs: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum TextOrTexts {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Deserialize)]
pub struct DetokenizeRequest {
    pub tokens: IdsOrIdLists,
    /// Default false: control tokens show their text, so that `/tokenize`'s ids of a text
    /// come back as that text.
    pub skip_special_tokens: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum IdsOrIdLists {
    One(Vec<u32>),
    Many(Vec<Vec<u32>>),
}

/// One list or a list of lists, as the request sent its input.
#[derive(Serialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    fn of(mut items: Vec<T>, many: bool) -> Option<Self> {
        if many {
            return Some(Self::Many(items));
        }
        items.pop().map(Self::One)
    }
}

#[derive(Serialize)]
struct TokenizeBody<'a> {
    tokens: OneOrMany<Vec<u32>>,
    count: OneOrMany<usize>,
    max_model_len: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    token_strs: Option<OneOrMany<Vec<&'a str>>>,
}

/// SGLang answers `text`, vLLM `prompt`, llama.cpp `content`: each client reads its own.
#[derive(Serialize)]
struct DetokenizeBody<'a> {
    text: &'a OneOrMany<String>,
    prompt: &'a OneOrMany<String>,
    content: &'a OneOrMany<String>,
}

pub async fn tokenize(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let engine = state.serving_engine()?;
    let request: TokenizeRequest = parse_body(engine, &caller, body?).await?;
    refuse_unserved(&request)?;
    let add_special = request.add_special_tokens.unwrap_or(true);
    let strs = request.return_token_strs == Some(true);
    let max_model_len = engine.max_context_len();
    let (lists, many) = match (request.prompt, request.messages) {
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid_param(
                "messages",
                "send either prompt or messages, not both",
            ))
        }
        (None, None) => {
            return Err(ApiError::invalid_param(
                "prompt",
                "send prompt (a text or a list of texts) or messages",
            ))
        }
        (Some(prompt), None) => {
            let (texts, many) = match prompt {
                TextOrTexts::One(text) => (vec![text], false),
                TextOrTexts::Many(texts) => (texts, true),
            };
            check_count("prompt", texts.len())?;
            // No length limit: counting a text longer than the context is what it is for.
            let tokenizer = engine.clone();
            let encode = move || {
                texts
                    .iter()
                    .map(|text| encode(tokenizer.tokenizer(), text, add_special))
                    .collect::<Result<Vec<_>, _>>()
            };
            (engine.run_bounded(caller.tenant, encode).await??, many)
        }
        (None, Some(messages)) => {
            let messages = messages
                .iter()
                .map(to_chat_message)
                .collect::<Result<Vec<_>, _>>()?;
            let mut chat = Conversation::new(messages);
            chat.template_kwargs = checked_template_kwargs(request.chat_template_kwargs)?;
            let ids = engine
                .build_prompts(vec![PromptInput::Chat(chat)], caller.tenant)
                .await
                .map_err(|e| rename_param(ApiError::from(e), "prompt", "messages"))?;
            (ids, false)
        }
    };
    let engine = engine.clone();
    let respond = move || {
        let tokenizer = engine.tokenizer();
        let token_strs = strs.then(|| {
            let strs = lists.iter().map(|ids| {
                ids.iter()
                    .map(|&id| tokenizer.token_text(id).unwrap_or_default())
                    .collect()
            });
            OneOrMany::of(strs.collect(), many)
        });
        let count = OneOrMany::of(lists.iter().map(Vec::len).collect(), many)?;
        let body = TokenizeBody {
            count,
            token_strs: token_strs.flatten(),
            tokens: OneOrMany::of(lists, many)?,
            max_model_len,
        };
        serde_json::to_vec(&body).ok()
    };
    let json = engine_run(state.as_ref(), &caller, respond).await?;
    Ok(json_response(json))
}

pub async fn detokenize(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let engine = state.serving_engine()?;
    let request: DetokenizeRequest = parse_body(engine, &caller, body?).await?;
    let skip_special = request.skip_special_tokens.unwrap_or(false);
    let (lists, many) = match request.tokens {
        IdsOrIdLists::One(ids) => (vec![ids], false),
        IdsOrIdLists::Many(lists) => {
            check_count("tokens", lists.len())?;
            (lists, true)
        }
    };
    let engine = engine.clone();
    let respond = move || {
        let texts = lists
            .iter()
            .map(|ids| engine.tokenizer().decode(ids, skip_special))
            .collect::<Result<Vec<_>, _>>();
        let texts = match texts {
            Ok(texts) => texts,
            Err(e) => return Some(Err(ApiError::invalid_param("tokens", e.to_string()))),
        };
        let text = OneOrMany::of(texts, many)?;
        let body = DetokenizeBody {
            text: &text,
            prompt: &text,
            content: &text,
        };
        serde_json::to_vec(&body).ok().map(Ok)
    };
    let json = engine_run(state.as_ref(), &caller, respond).await??;
    Ok(json_response(json))
}

/// Fields that would change what chat completions render, which this endpoint does not.
fn refuse_unserved(request: &TokenizeRequest) -> Result<(), ApiError> {
    if request.tools.is_some() {
        return Err(ApiError::invalid_param(
            "tools",
            "tools are not rendered here; count a chat with tools from its usage",
        ));
    }
    if request.add_generation_prompt == Some(false) {
        return Err(ApiError::invalid_param(
            "add_generation_prompt",
            "chat prompts always end with the generation prompt here",
        ));
    }
    if request.continue_final_message == Some(true) {
        return Err(ApiError::invalid_param(
            "continue_final_message",
            "a final assistant turn is never continued",
        ));
    }
    Ok(())
}

/// `text` as completions encode it, with or without the BOS/EOS the file asks for.
fn encode(tokenizer: &Tokenizer, text: &str, add_special: bool) -> Result<Vec<u32>, ApiError> {
    let ids = if add_special {
        tokenizer.encode(text, true)
    } else {
        tokenizer.encode_without_bos_eos(text, true)
    };
    ids.map_err(|e| ApiError::invalid_param("prompt", format!("cannot be tokenized: {e}")))
}

/// Runs `work` for the caller on the bounded pool; `None` from it is a server fault.
async fn engine_run<R: Send + 'static>(
    state: &HttpState,
    caller: &Caller,
    work: impl FnOnce() -> Option<R> + Send + 'static,
) -> Result<R, ApiError> {
    let engine = state.serving_engine()?;
    engine
        .run_bounded(caller.tenant, work)
        .await?
        .ok_or_else(|| ApiError::internal("the response could not be built"))
}

fn json_response(json: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

fn check_count(param: &str, count: usize) -> Result<(), ApiError> {
    if count == 0 || count > MAX_ITEMS {
        return Err(ApiError::invalid_param(
            param,
            format!("{count} items; between 1 and {MAX_ITEMS} are allowed"),
        ));
    }
    Ok(())
}
