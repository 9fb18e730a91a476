//! `POST /v1/embeddings`: OpenAI's embeddings. Each input is a request of its own, computed
//! as a prompt (sharing prefixes through the cache, batched with everything else) whose
//! last token's final hidden state is its embedding: truncated to `dimensions` where asked
//! (Matryoshka models), then L2-normalized, as float arrays or base64.

use super::error::ApiError;
use super::generate::{accept, collect_all};
use super::protocol::{prompt_inputs, Prompt};
use super::HttpState;
use crate::handle::{normalized_embedding, GenerateRequest, PromptInput};
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Most inputs of one request (OpenAI's limit): each is a request in the queue.
pub const MAX_EMBEDDING_INPUTS: usize = 2048;

#[derive(Clone, Debug, Deserialize)]
pub struct EmbeddingRequest {
    #[serde(default)]
    pub model: Option<String>,
    /// A text or token ids, or a list of either.
    pub input: Prompt,
    /// `"float"` (the default) or `"base64"` (little-endian f32, what OpenAI's SDK asks for).
    pub encoding_format: Option<String>,
    /// Keep the first this many dimensions (renormalized).
    pub dimensions: Option<u32>,
    /// Narrows the caller's cache namespace, as for generation.
    pub cache_salt: Option<String>,
    /// SGLang's: the LoRA adapter to run, by name (see `adapter`).
    pub lora_path: Option<serde_json::Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Float,
    Base64,
}

#[derive(Serialize)]
struct EmbeddingBody {
    object: &'static str,
    data: Vec<EmbeddingData>,
    model: String,
    usage: EmbeddingUsage,
}

#[derive(Serialize)]
struct EmbeddingData {
    object: &'static str,
    index: u32,
    embedding: EmbeddingValue,
}

#[derive(Serialize)]
#[serde(untagged)]
enum EmbeddingValue {
    Float(Vec<f32>),
    Base64(String),
}

#[derive(Serialize)]
struct EmbeddingUsage {
    prompt_tokens: u32,
    total_tokens: u32,
}

pub async fn embeddings(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, EmbeddingRequest) = accept(&state, &caller, body).await?;
    engine
        .embeddings_supported()
        .map_err(|e| ApiError::from(e).with_param("model"))?;
    let served = super::adapter::served_model(
        engine,
        &caller,
        request.model.as_deref(),
        request.lora_path.as_ref(),
    )?;
    let encoding = match request.encoding_format.as_deref() {
        None | Some("float") => Encoding::Float,
        Some("base64") => Encoding::Base64,
        Some(other) => {
            return Err(ApiError::invalid_param(
                "encoding_format",
                format!("encoding_format must be \"float\" or \"base64\", got {other:?}"),
            ))
        }
    };
    let dimensions = engine
        .embedding_dimensions(request.dimensions)
        .map_err(|e| ApiError::from(e).with_param("dimensions"))?;
    let inputs = embedding_inputs(request.input)?;
    // Named before the prompts are built, so that an abort of all the tenant's requests
    // reaches them meanwhile.
    let mut calls = engine
        .open_engine_calls(caller.tenant, inputs.len())?
        .into_iter();
    let ids = engine
        .build_prompts(inputs, caller.tenant)
        .await
        .map_err(|e| ApiError::from(e).with_param("input"))?;
    let mut namespace = caller.namespace_for(request.cache_salt.as_deref());
    namespace.adapter = served.adapter;
    let requests = ids
        .into_iter()
        .map(|ids| {
            let mut request = GenerateRequest::embedding(ids);
            request.namespace = namespace.clone();
            request.tenant = caller.tenant;
            if let Some(call) = calls.next() {
                request.attach_call(call);
            }
            request
        })
        .collect();
    let mut streams = engine
        .submit_group(requests, 1)
        .await
        .map_err(|e| ApiError::from(e).with_param("input"))?;
    let outs = collect_all(&mut streams).await?;
    let mut prompt_tokens = 0u32;
    let mut data = Vec::with_capacity(outs.len());
    for (index, out) in outs.into_iter().enumerate() {
        prompt_tokens = prompt_tokens.saturating_add(out.completion.usage.prompt_tokens);
        let hidden = out
            .completion
            .embedding
            .ok_or_else(|| ApiError::internal("the engine returned no embedding"))?;
        let vector = normalized_embedding(&hidden, dimensions);
        data.push(EmbeddingData {
            object: "embedding",
            index: index as u32,
            embedding: match encoding {
                Encoding::Float => EmbeddingValue::Float(vector),
                Encoding::Base64 => EmbeddingValue::Base64(to_base64(&vector)),
            },
        });
    }
    let body = EmbeddingBody {
        object: "list",
        data,
        model: served.name,
        usage: EmbeddingUsage {
            prompt_tokens,
            total_tokens: prompt_tokens,
        },
    };
    Ok(Json(body).into_response())
}

/// The inputs as sent, each an embedding of its own: at most [`MAX_EMBEDDING_INPUTS`].
fn embedding_inputs(input: Prompt) -> Result<Vec<PromptInput>, ApiError> {
    let inputs = prompt_inputs(input, "input")?;
    if inputs.len() > MAX_EMBEDDING_INPUTS {
        return Err(ApiError::invalid_param(
            "input",
            format!(
                "{} inputs; at most {MAX_EMBEDDING_INPUTS} are allowed per request",
                inputs.len()
            ),
        ));
    }
    Ok(inputs)
}

/// OpenAI's base64 embedding: the little-endian bytes of the f32 values.
fn to_base64(vector: &[f32]) -> String {
    let bytes: Vec<u8> = vector.iter().flat_map(|v| v.to_le_bytes()).collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_holds_the_little_endian_floats() {
        // 1.0f32 = 00 00 80 3f, -2.0f32 = 00 00 00 c0.
        assert_eq!(to_base64(&[1.0, -2.0]), "AACAPwAAAMA=");
    }
}
