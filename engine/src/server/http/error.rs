//! Errors in OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, with the status
//! code clients expect (400 bad parameters, 401/403 auth, 429 queue full, 503 not serving).

use crate::handle::{GenerateError, SubmitError};
use crate::server::body_deadline::is_body_timeout;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// The request field at fault, when one is.
    pub param: Option<String>,
    pub code: Option<&'static str>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

/// The `error` object, also sent as the last SSE event of a stream that fails mid-way.
#[derive(Serialize)]
pub struct ErrorDetail<'a> {
    message: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    param: Option<&'a str>,
    code: Option<&'static str>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            param: None,
            code: None,
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// A 400 naming the field at fault.
    pub fn invalid_param(param: &str, message: impl Into<String>) -> Self {
        Self::invalid(message).with_param(param)
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message).with_code("invalid_api_key")
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, message).with_code("service_unavailable")
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message).with_code("not_found")
    }

    pub fn with_param(mut self, param: &str) -> Self {
        self.param = Some(param.to_string());
        self
    }

    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// OpenAI's `type` for this status.
    fn kind(&self) -> &'static str {
        match self.status {
            StatusCode::BAD_REQUEST
            | StatusCode::PAYLOAD_TOO_LARGE
            | StatusCode::REQUEST_TIMEOUT
            | StatusCode::METHOD_NOT_ALLOWED => "invalid_request_error",
            StatusCode::UNAUTHORIZED => "authentication_error",
            StatusCode::FORBIDDEN => "permission_error",
            StatusCode::NOT_FOUND => "not_found_error",
            StatusCode::TOO_MANY_REQUESTS => "rate_limit_error",
            StatusCode::SERVICE_UNAVAILABLE => "service_unavailable_error",
            _ => "server_error",
        }
    }

    pub fn detail(&self) -> ErrorDetail<'_> {
        ErrorDetail {
            message: &self.message,
            kind: self.kind(),
            param: self.param.as_deref(),
            code: self.code,
        }
    }

    /// The JSON body, for SSE streams that fail after their headers went out.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&ErrorBody {
            error: self.detail(),
        })
        .unwrap_or_else(|_| String::from(r#"{"error":{"message":"internal error"}}"#))
    }
}

impl From<SubmitError> for ApiError {
    fn from(e: SubmitError) -> Self {
        match e {
            SubmitError::InvalidArgument(message) => {
                let param = param_named_in(&message);
                let mut err = ApiError::invalid(message);
                err.param = param.map(str::to_string);
                err
            }
            SubmitError::ResourceExhausted(message) => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
                    .with_code("rate_limit_exceeded")
            }
            SubmitError::Unavailable(message) => ApiError::unavailable(message),
            SubmitError::AlreadyExists(message) => ApiError::invalid_param("rid", message),
        }
    }
}

impl From<GenerateError> for ApiError {
    fn from(e: GenerateError) -> Self {
        match e {
            GenerateError::Grammar(message) | GenerateError::Invalid(message) => {
                ApiError::invalid(message)
            }
            GenerateError::Engine(message) => ApiError::internal(message),
        }
    }
}

/// The engine's validation messages start with the parameter's name; report it under the
/// name the OpenAI API uses for it.
fn param_named_in(message: &str) -> Option<&'static str> {
    const NAMES: &[(&str, &str)] = &[
        ("temperature", "temperature"),
        ("top_p", "top_p"),
        ("top_k", "top_k"),
        ("min_p", "min_p"),
        ("repetition_penalty", "repetition_penalty"),
        ("frequency_penalty", "frequency_penalty"),
        ("presence_penalty", "presence_penalty"),
        ("max_new_tokens", "max_tokens"),
        ("min_new_tokens", "min_tokens"),
        ("stop token id", "stop_token_ids"),
        ("stop strings", "stop"),
        ("stop_token_ids", "stop_token_ids"),
        ("stop has", "stop"),
        ("logprobs", "logprobs"),
        ("cache_salt", "cache_salt"),
        ("logit_bias", "logit_bias"),
        ("messages", "messages"),
        ("the prompt", "prompt"),
        ("token id", "prompt"),
    ];
    NAMES
        .iter()
        .find(|(prefix, _)| message.starts_with(prefix))
        .map(|&(_, name)| name)
}

/// A body that could not be read (too large, connection cut) in the same shape.
impl From<BytesRejection> for ApiError {
    fn from(e: BytesRejection) -> Self {
        if is_body_timeout(&e) {
            return ApiError::new(StatusCode::REQUEST_TIMEOUT, e.body_text());
        }
        ApiError::new(e.status(), e.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.detail(),
        };
        (self.status, Json(body)).into_response()
    }
}
