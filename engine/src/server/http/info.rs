//! Read-only endpoints: `/health`, `/v1/models`, `/metrics`.

use super::error::ApiError;
use super::HttpState;
use crate::server::metrics::record_server_info;
use crate::tenants::Caller;
use axum::extract::State;
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

pub async fn models(State(state): State<Arc<HttpState>>) -> Result<Response, ApiError> {
    let engine = state
        .engine()
        .ok_or_else(|| ApiError::unavailable("the model is loading"))?;
    let info = engine.model_info();
    let body = json!({
        "object": "list",
        "data": [{
            "id": info.name,
            "object": "model",
            "created": state.started,
            "owned_by": "radixserve",
            "root": info.path,
            "max_model_len": engine.max_context_len(),
        }],
    });
    Ok(Json(body).into_response())
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
