//! Loading and unloading LoRA adapters while serving, as SGLang (`/load_lora_adapter`,
//! `/unload_lora_adapter`) and vLLM (the same under `/v1/`) expose it: `lora_name` and
//! `lora_path` (a PEFT directory or a GGUF adapter file on the server). Administrators only:
//! the path is read on the server, and the adapter serves every tenant.

use super::error::ApiError;
use super::generate::parse_body;
use super::HttpState;
use crate::handle::{AdapterError, EngineHandle, LoraSpec};
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadRequest {
    lora_name: String,
    lora_path: String,
    /// vLLM's `load_inplace` and SGLang's `pinned`: every adapter here is read once and
    /// kept until unloaded, so neither changes anything.
    #[serde(default, rename = "load_inplace")]
    _load_inplace: Option<bool>,
    #[serde(default, rename = "pinned")]
    _pinned: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnloadRequest {
    lora_name: String,
    /// vLLM's: the adapter's integer id (names are what this server goes by).
    #[serde(default)]
    lora_int_id: Option<u64>,
}

pub async fn load(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, LoadRequest) = accept_admin(&state, &caller, body).await?;
    let spec = LoraSpec {
        name: request.lora_name,
        path: request.lora_path.into(),
    };
    let info = engine.load_adapter(spec).await.map_err(api_error)?;
    Ok(answer(
        engine,
        format!("LoRA adapter {:?} loaded (rank {})", info.name, info.rank),
    ))
}

pub async fn unload(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, UnloadRequest) = accept_admin(&state, &caller, body).await?;
    if request.lora_int_id.is_some() {
        return Err(ApiError::invalid_param(
            "lora_int_id",
            "lora_int_id: adapters are named by lora_name here",
        ));
    }
    let info = (engine.unload_adapter(&request.lora_name).await).map_err(api_error)?;
    Ok(answer(
        engine,
        format!("LoRA adapter {:?} unloaded", info.name),
    ))
}

/// The engine and the parsed body of an administrator's request; 403 for anyone else,
/// before the body is read.
async fn accept_admin<'a, T: serde::de::DeserializeOwned + Send + 'static>(
    state: &'a HttpState,
    caller: &Caller,
    body: Result<Bytes, BytesRejection>,
) -> Result<(&'a EngineHandle, T), ApiError> {
    let engine = state.serving_engine()?;
    if !caller.is_admin {
        return Err(ApiError::forbidden(
            "loading and unloading LoRA adapters is for administrators",
        ));
    }
    Ok((engine, parse_body(engine, caller, body?).await?))
}

/// SGLang's answer (`success`, `loaded_adapters`), with a message as vLLM gives one.
fn answer(engine: &EngineHandle, message: String) -> Response {
    let loaded: serde_json::Map<String, serde_json::Value> = (engine.adapters().into_iter())
        .map(|a| (a.name, json!(a.path)))
        .collect();
    Json(json!({
        "success": true,
        "message": message,
        "loaded_adapters": loaded,
    }))
    .into_response()
}

fn api_error(e: AdapterError) -> ApiError {
    match e {
        AdapterError::BadName(m) => ApiError::invalid_param("lora_name", m),
        AdapterError::Invalid(m) => ApiError::invalid_param("lora_path", m),
        AdapterError::NotFound(m) => ApiError::not_found(m).with_param("lora_name"),
        AdapterError::Stopped => ApiError::unavailable("the engine has stopped"),
    }
}
