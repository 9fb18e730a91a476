//! SGLang's native endpoints beside `/generate`, as its clients, benchmarks and RL frameworks
//! call them: `/flush_cache`, `/abort_request`, `/model_info` and `/server_info` (also under
//! their older `/get_` names) and `/health_generate`. What each may touch follows the
//! tenant rules of the gRPC API: a tenant flushes and aborts only its own, and sees no other
//! tenant's activity.

use super::error::ApiError;
use super::generate::parse_body;
use super::HttpState;
use crate::handle::{EngineError, EngineHandle, GenerateEvent, GenerateRequest};
use crate::io::AbortScope;
use crate::sampling::SamplingParams;
use crate::server::adapters::usable_adapters;
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// How long `/health_generate` waits for its one token (SGLang waits 20 s).
const HEALTH_PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// `GET|POST /flush_cache`: an administrator's flushes every namespace (as SGLang's flushes
/// its one cache), a tenant's only its own; requests running keep their K/V.
pub async fn flush_cache(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    let engine = loaded(&state)?;
    let namespace = if caller.is_admin {
        None
    } else {
        let namespace = caller.namespace_for(None);
        if !caller.may_flush(&namespace) {
            return Err(ApiError::forbidden(caller.flush_refusal()));
        }
        Some(namespace)
    };
    let flushed = engine.flush_cache(namespace).await.map_err(engine_error)?;
    Ok(format!("Cache flushed.\n{flushed} cached tokens were dropped.\n").into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbortRequest {
    #[serde(default)]
    rid: Option<String>,
    #[serde(default)]
    abort_all: bool,
    /// SGLang's: how the aborted requests report their end. Here they end as every abort
    /// does (finish reason `abort`), so these change nothing.
    #[serde(default, rename = "finished_reason")]
    _finished_reason: Option<serde_json::Value>,
    #[serde(default, rename = "abort_message")]
    _abort_message: Option<String>,
}

/// `POST /abort_request` with `rid` (a request's id, as `/generate` took it) or
/// `abort_all`. A tenant ends only its own requests; an administrator its own by that id if
/// it has one running, else any tenant's, and with `abort_all` every request in the engine,
/// queued or still being prepared (see `EngineHandle::open_call`).
pub async fn abort_request(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let engine = loaded(&state)?;
    let request: AbortRequest = parse_body(engine, &caller, body?).await?;
    let rid = request.rid.filter(|rid| !rid.is_empty());
    match (rid, request.abort_all) {
        (_, true) => engine.abort_every((!caller.is_admin).then_some(caller.tenant)),
        (Some(rid), false) => {
            engine.abort_owned(&rid, AbortScope::of_caller(&caller));
        }
        (None, false) => {
            return Err(ApiError::invalid_param(
                "rid",
                "name the request to abort by rid, or set abort_all",
            ))
        }
    }
    Ok(StatusCode::OK.into_response())
}

/// `GET /model_info` (and `/get_model_info`): SGLang's fields, then the model's shape and
/// the LoRA adapters the caller may run.
pub async fn model_info(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    let engine = loaded(&state)?;
    let info = engine.model_info();
    let adapters: Vec<String> = (usable_adapters(engine, &caller).into_iter())
        .map(|a| a.name)
        .collect();
    Ok(Json(json!({
        "model_path": info.path,
        "tokenizer_path": info.path,
        "is_generation": true,
        "preferred_sampling_params": null,
        "weight_version": "default",
        "has_image_understanding": false,
        "has_audio_understanding": false,
        "served_model_name": info.name,
        "model_type": info.architecture,
        "architectures": [info.architecture],
        "context_length": engine.max_context_len(),
        "max_req_input_len": engine.max_prompt_tokens(),
        "vocab_size": info.vocab_size,
        "eos_token_ids": info.eos_token_ids,
        "lora_adapters": adapters,
    }))
    .into_response())
}

/// `GET /server_info` (and `/get_server_info`): the serving limits and, for an
/// administrator, the engine's activity in SGLang's `internal_states` (a tenant gets none:
/// the engine's queue and cache sum every tenant's).
pub async fn server_info(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    let engine = loaded(&state)?;
    let info = engine.server_info();
    let model = engine.model_info();
    let internal_states = if caller.is_admin {
        vec![json!({
            "waiting_requests": info.waiting_requests,
            "running_requests": info.running_requests,
            "kv_free_tokens": info.kv_free_tokens,
            "kv_evictable_tokens": info.kv_evictable_tokens,
            "kv_protected_tokens": info.kv_protected_tokens,
            "cache_queried_tokens": info.cache_queried_tokens,
            "cache_hit_tokens": info.cache_hit_tokens,
            "finished_requests": info.finished_requests,
            "aborted_requests": info.aborted_requests,
            "retractions": info.retractions,
            "spec_draft_tokens": info.spec_draft_tokens,
            "spec_accepted_tokens": info.spec_accepted_tokens,
        })]
    } else {
        Vec::new()
    };
    Ok(Json(json!({
        "model_path": model.path,
        "served_model_name": model.name,
        "context_length": engine.max_context_len(),
        "max_req_input_len": engine.max_prompt_tokens(),
        "max_total_num_tokens": info.kv_capacity_tokens,
        "page_size": info.page_size,
        "kv_bytes_per_token": info.kv_bytes_per_token,
        "draining": info.draining,
        "uptime_s": info.uptime_s,
        "internal_states": internal_states,
        "version": env!("CARGO_PKG_VERSION"),
    }))
    .into_response())
}

/// `GET /health_generate`: 200 once a one-token request (prompt `[0]`, greedy, as SGLang
/// sends it) comes back, 503 when it fails or takes longer than 20 s, or while the model
/// loads or the server drains. It runs as the caller (its limits apply: 429 over them).
pub async fn health_generate(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    let engine = state.serving_engine()?;
    let mut probe = GenerateRequest::new(vec![0], SamplingParams::greedy(1));
    probe.namespace = caller.namespace_for(None);
    probe.tenant = caller.tenant;
    // An id of its own, so that the abort below can end no client's request.
    engine.open_calls(std::slice::from_mut(&mut probe))?;
    let mut stream = engine.submit(probe)?;
    let answered = tokio::time::timeout(HEALTH_PROBE_TIMEOUT, async {
        while let Some(event) = stream.next().await {
            match event {
                GenerateEvent::Chunk { .. } => {}
                GenerateEvent::Finished(_) => return Ok(()),
                GenerateEvent::Error(e) => return Err(e.to_string()),
            }
        }
        Err("the engine ended the probe without an answer".to_string())
    })
    .await;
    match answered {
        Ok(Ok(())) => Ok(StatusCode::OK.into_response()),
        Ok(Err(why)) => Err(ApiError::unavailable(format!("the probe failed: {why}"))),
        Err(_) => {
            engine.abort_owned(&stream.rid, AbortScope::Tenant(caller.tenant));
            Err(ApiError::unavailable(
                "the probe got no token within 20 seconds",
            ))
        }
    }
}

/// The engine once the model is loaded (draining or not: flushes, aborts and information
/// still make sense while requests finish).
fn loaded(state: &HttpState) -> Result<&EngineHandle, ApiError> {
    state
        .engine()
        .ok_or_else(|| ApiError::unavailable("the model is loading"))
}

fn engine_error(e: EngineError) -> ApiError {
    match e {
        EngineError::Stopped => ApiError::unavailable(e.to_string()),
        e => ApiError::internal(e.to_string()),
    }
}
