//! Read-only endpoints: `/health`, `/v1/models` (and `/v1/models/{id}`), `/metrics`.

use super::error::ApiError;
use super::HttpState;
use crate::server::adapters::usable_adapters;
use crate::server::metrics::record_server_info;
use crate::tenants::Caller;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::json;
use std::sync::Arc;

/// 200 while serving; 503 while the model loads or the server drains, so load balancers
/// stop sending before the listener closes.
pub async fn health(State(state): State<Arc<HttpState>>) -> Response {
    let (status, text) = match state.engine() {
        None => (StatusCode::SERVICE_UNAVAILABLE, "loading"),
        Some(engine) if engine.is_draining() => (StatusCode::SERVICE_UNAVAILABLE, "draining"),
        Some(engine) if !engine.is_alive() => (StatusCode::SERVICE_UNAVAILABLE, "stopped"),
        Some(_) => (StatusCode::OK, "ok"),
    };
    (status, Json(json!({ "status": text }))).into_response()
}

pub async fn models(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    let body = json!({
        "object": "list",
        "data": model_objects(&state, &caller)?,
    });
    Ok(Json(body).into_response())
}

/// `/v1/models/{id}`: a served model (the base model or an adapter) by its id; 404 for any
/// other.
pub async fn model(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let model = model_objects(&state, &caller)?
        .into_iter()
        .find(|m| m["id"] == id.as_str());
    let model = model.ok_or_else(|| {
        ApiError::not_found(format!("no model {id:?} is served here"))
            .with_param("model")
            .with_code("model_not_found")
    })?;
    Ok(Json(model).into_response())
}

/// The served models as OpenAI describes models: the base model, then each LoRA adapter
/// with the base model as its `parent` (as vLLM lists them): those `caller` may run.
fn model_objects(state: &HttpState, caller: &Caller) -> Result<Vec<serde_json::Value>, ApiError> {
    let engine = state
        .engine()
        .ok_or_else(|| ApiError::unavailable("the model is loading"))?;
    let info = engine.model_info();
    let base = json!({
        "id": info.name,
        "object": "model",
        "created": state.started,
        "owned_by": "radixserve",
        "root": info.path,
        "parent": null,
        "max_model_len": engine.max_context_len(),
    });
    let served = usable_adapters(engine, caller);
    let adapters = served.iter().map(|a| {
        json!({
            "id": a.name,
            "object": "model",
            "created": state.started,
            "owned_by": "radixserve",
            "root": a.path,
            "parent": info.name,
            "max_model_len": engine.max_context_len(),
        })
    });
    Ok(std::iter::once(base).chain(adapters).collect())
}

/// Prometheus text exposition. Administrators only (always true single-tenant).
pub async fn metrics(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    if !caller.is_admin {
        return Err(ApiError::forbidden("metrics are for administrators"));
    }
    let handle = state
        .metrics
        .as_ref()
        .ok_or_else(|| ApiError::not_found("metrics are not enabled"))?;
    if let Some(engine) = state.engine() {
        record_server_info(&engine.server_info());
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle.render(),
    )
        .into_response())
}
