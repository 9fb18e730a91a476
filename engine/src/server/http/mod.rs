//! The OpenAI-compatible HTTP API (axum): `/v1/completions`, `/v1/chat/completions` and
//! `/v1/responses` (JSON or SSE), `/v1/embeddings`, SGLang's native `/generate` (with its
//! `/flush_cache`, `/abort_request`, `/model_info`, `/server_info` and `/health_generate`),
//! `/tokenize` and `/detokenize`, `/v1/models`, `/health` and `/metrics`.
//!
//! The server may start before the model is loaded: [`HttpState`] then has no engine,
//! `/health` answers 503 and generation requests 503 until [`HttpState::set_engine`].
//! While the engine drains, `/health` and new generation requests answer 503 too.

mod adapter;
mod auth;
mod chat;
mod chat_stream;
mod completions;
pub mod embeddings;
pub mod error;
mod generate;
mod info;
mod listen;
mod logprobs;
mod lora_admin;
mod native;
pub mod params;
pub mod protocol;
mod reasoning;
pub mod response;
mod responses;
mod score;
mod sglang_admin;
mod sse;
mod tokenize;
mod tools;

use crate::handle::EngineHandle;
use crate::server::connections::ConnectionLimits;
use crate::tenants::TenantRegistry;
use auth::authenticate;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use error::ApiError;
use metrics_exporter_prometheus::PrometheusHandle;
use std::future::Future;
use std::sync::{Arc, OnceLock};

/// Largest request body accepted (long prompts as text or token ids).
const MAX_BODY_BYTES: usize = 32 << 20;

/// What the handlers share: the engine once it is loaded, and the metrics to render.
pub struct HttpState {
    engine: OnceLock<EngineHandle>,
    tenants: Arc<TenantRegistry>,
    metrics: Option<PrometheusHandle>,
    /// Unix time the server started, reported as the model's `created`.
    started: u64,
}

impl HttpState {
    /// A server whose engine is still loading.
    pub fn loading(metrics: Option<PrometheusHandle>) -> Arc<Self> {
        Self::loading_with_tenants(metrics, Arc::new(TenantRegistry::open()))
    }

    /// Serving the tenants of `tenants` (API keys required unless it is open).
    pub fn loading_with_tenants(
        metrics: Option<PrometheusHandle>,
        tenants: Arc<TenantRegistry>,
    ) -> Arc<Self> {
        Arc::new(Self {
            engine: OnceLock::new(),
            tenants,
            metrics,
            started: response::unix_now(),
        })
    }

    /// A server with its engine ready.
    pub fn ready(engine: EngineHandle, metrics: Option<PrometheusHandle>) -> Arc<Self> {
        let state = Self::loading(metrics);
        // A fresh OnceLock is empty: this cannot fail.
        let _ = state.engine.set(engine);
        state
    }

    /// Starts serving with `engine`; false if an engine was already set.
    pub fn set_engine(&self, engine: EngineHandle) -> bool {
        self.engine.set(engine).is_ok()
    }

    pub fn engine(&self) -> Option<&EngineHandle> {
        self.engine.get()
    }

    /// The engine, if it takes requests now.
    fn serving_engine(&self) -> Result<&EngineHandle, ApiError> {
        match self.engine.get() {
            None => Err(ApiError::unavailable("the model is loading")),
            Some(engine) if engine.is_draining() => {
                Err(ApiError::unavailable("the server is shutting down"))
            }
            Some(engine) => Ok(engine),
        }
    }
}

/// All routes. `/health` needs no credentials (probes); everything else authenticates.
pub fn router(state: Arc<HttpState>) -> Router {
    let authenticated = Router::new()
        .route("/v1/completions", post(completions::completions))
        .route("/v1/chat/completions", post(chat::chat_completions))
        .route("/v1/responses", post(responses::responses))
        .route("/v1/embeddings", post(embeddings::embeddings))
        .route("/v1/score", post(score::score))
        .route("/generate", post(native::generate))
        .route("/tokenize", post(tokenize::tokenize))
        .route("/v1/tokenize", post(tokenize::tokenize))
        .route("/detokenize", post(tokenize::detokenize))
        .route("/v1/detokenize", post(tokenize::detokenize))
        .route("/v1/models", get(info::models))
        .route("/v1/models/{id}", get(info::model))
        .route("/metrics", get(info::metrics))
        .route("/load_lora_adapter", post(lora_admin::load))
        .route("/v1/load_lora_adapter", post(lora_admin::load))
        .route("/unload_lora_adapter", post(lora_admin::unload))
        .route("/v1/unload_lora_adapter", post(lora_admin::unload))
        .route(
            "/flush_cache",
            get(sglang_admin::flush_cache).post(sglang_admin::flush_cache),
        )
        .route("/abort_request", post(sglang_admin::abort_request))
        .route("/model_info", get(sglang_admin::model_info))
        .route("/get_model_info", get(sglang_admin::model_info))
        .route("/server_info", get(sglang_admin::server_info))
        .route("/get_server_info", get(sglang_admin::server_info))
        .route("/health_generate", get(sglang_admin::health_generate))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            require_caller,
        ));
    Router::new()
        .route("/health", get(info::health))
        .merge(authenticated)
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(count_responses))
        .with_state(state)
}

/// Serves `state` on `listener` until `shutdown` completes, then lets open connections
/// finish (streams end when the engine finishes or aborts their requests).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<HttpState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with_limits(listener, state, ConnectionLimits::default(), shutdown).await
}

/// [`serve`] with explicit connection limits.
pub async fn serve_with_limits(
    listener: tokio::net::TcpListener,
    state: Arc<HttpState>,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    listen::serve_router(listener, router(state), limits, shutdown).await
}

/// Runs [`authenticate`] before the handler and hands it the [`auth::Caller`].
async fn require_caller(
    State(state): State<Arc<HttpState>>,
    mut request: Request,
    next: Next,
) -> Response {
    match authenticate(&state.tenants, request.headers()) {
        Ok(caller) => {
            request.extensions_mut().insert(caller);
            next.run(request).await
        }
        Err(e) => e.into_response(),
    }
}

/// Counts responses by route template (not raw path, to bound the label set) and status.
async fn count_responses(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    metrics::counter!(
        crate::server::metrics::HTTP_REQUESTS,
        "route" => route,
        "status" => response.status().as_u16().to_string()
    )
    .increment(1);
    response
}

async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} is not allowed on {}",
            request.method(),
            request.uri().path()
        ),
    )
}

async fn not_found(request: Request) -> ApiError {
    ApiError::not_found(format!(
        "no route for {} {}",
        request.method(),
        request.uri().path()
    ))
}
