//! The servers loadgen can drive, behind one interface: radixserve's gRPC API, any
//! OpenAI-compatible `/v1/completions` (radixserve's HTTP API, llama-server, ...), or any
//! worker of the SGLang protocol.

use super::backend_grpc::GrpcBackend;
use super::backend_openai::OpenAiBackend;
use super::backend_sglang::SglangBackend;
use super::timing::StreamTiming;
use super::LoadgenError;
use clap::ValueEnum;
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// radixserve's gRPC API (`radixserve.v1.RadixServe/Generate`)
    Grpc,
    /// An OpenAI-compatible HTTP server (`POST /v1/completions`, streamed)
    Openai,
    /// A worker of the SGLang protocol (`sglang.grpc.scheduler.SglangScheduler/Generate`),
    /// as the smg gateway drives it: radixserve's gRPC port, or an SGLang worker
    #[value(name = "sglang-grpc")]
    #[serde(rename = "sglang-grpc")]
    SglangGrpc,
}

impl BackendKind {
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Grpc => "grpc",
            BackendKind::Openai => "openai",
            BackendKind::SglangGrpc => "sglang-grpc",
        }
    }

    pub fn default_url(self) -> &'static str {
        match self {
            BackendKind::Grpc | BackendKind::SglangGrpc => "http://127.0.0.1:50051",
            BackendKind::Openai => "http://127.0.0.1:8000",
        }
    }
}

/// How to reach the server.
#[derive(Clone, Debug)]
pub struct BackendOptions {
    pub kind: BackendKind,
    pub url: String,
    /// The `model` field of OpenAI requests; none: the first model `/v1/models` lists.
    pub model_name: Option<String>,
    /// Per-request limit; a request still running then counts as an error.
    pub request_timeout: Duration,
    /// Send prompts to OpenAI servers as text (decoded locally) rather than token ids.
    pub send_text: bool,
    /// Key for the calls made at connection (model info), on servers that require one.
    pub api_key: Option<String>,
}

/// One request to send.
#[derive(Clone, Debug)]
pub struct RequestSpec<'a> {
    pub prompt: &'a [u32],
    /// The prompt decoded, for servers that take text.
    pub prompt_text: Option<&'a str>,
    pub output_len: u32,
    pub api_key: Option<&'a str>,
    pub temperature: f32,
    pub ignore_eos: bool,
}

/// What came back for one request.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub timing: StreamTiming,
    /// Prompt tokens as the server counted them, if it said.
    pub prompt_tokens: Option<u32>,
    /// Prompt tokens served from the server's prefix cache, if it said.
    pub cached_tokens: Option<u32>,
    /// Output tokens as the server counted them, if it said.
    pub output_tokens: Option<u32>,
    /// The generated token ids, when the server streams ids (gRPC).
    pub output_ids: Option<Vec<u32>>,
    /// The generated text, when the server streams text (OpenAI).
    pub output_text: String,
    pub finish_reason: Option<String>,
    /// Why the request failed; none when it finished normally.
    pub error: Option<String>,
}

impl Outcome {
    pub fn failed(timing: StreamTiming, error: impl Into<String>) -> Self {
        Outcome {
            timing,
            error: Some(error.into()),
            ..Outcome::default()
        }
    }
}

/// A connected server.
#[derive(Clone, Debug)]
pub enum Backend {
    Grpc(GrpcBackend),
    OpenAi(OpenAiBackend),
    Sglang(SglangBackend),
}

/// What the server says about itself at connection.
#[derive(Clone, Debug, Default)]
pub struct ServerModel {
    pub name: String,
    /// Longest prompt + output per request, when the server tells.
    pub max_context_len: Option<usize>,
}

impl Backend {
    /// Connects and asks for the model, so that a wrong address fails here with a clear error.
    pub async fn connect(options: &BackendOptions) -> Result<Backend, LoadgenError> {
        match options.kind {
            BackendKind::Grpc => Ok(Backend::Grpc(GrpcBackend::connect(options).await?)),
            BackendKind::Openai => Ok(Backend::OpenAi(OpenAiBackend::connect(options).await?)),
            BackendKind::SglangGrpc => Ok(Backend::Sglang(SglangBackend::connect(options).await?)),
        }
    }

    pub fn model(&self) -> &ServerModel {
        match self {
            Backend::Grpc(b) => b.model(),
            Backend::OpenAi(b) => b.model(),
            Backend::Sglang(b) => b.model(),
        }
    }

    /// Whether prompts must be given as text.
    pub fn wants_text(&self) -> bool {
        match self {
            Backend::Grpc(_) | Backend::Sglang(_) => false,
            Backend::OpenAi(b) => b.wants_text(),
        }
    }

    /// Sends one request and follows its stream to the end; failures are in the outcome.
    pub async fn generate(&self, spec: &RequestSpec<'_>) -> Outcome {
        match self {
            Backend::Grpc(b) => b.generate(spec).await,
            Backend::OpenAi(b) => b.generate(spec).await,
            Backend::Sglang(b) => b.generate(spec).await,
        }
    }

    /// Empties the server's prefix cache (gRPC `FlushCache`, as the caller with `api_key`).
    pub async fn flush_cache(&self, api_key: Option<&str>) -> Result<(), LoadgenError> {
        match self {
            Backend::Grpc(b) => b.flush_cache(api_key).await,
            Backend::Sglang(b) => b.flush_cache(api_key).await,
            Backend::OpenAi(_) => Err(LoadgenError::InvalidArgs(
                "--flush-cache needs a gRPC backend (OpenAI servers have no flush call)".into(),
            )),
        }
    }
}

/// An error and its causes on one line: transport errors keep the useful part ("connection
/// refused") in their sources.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        // Wrappers often repeat their source's message.
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// `host:port` is taken as plain-text HTTP/2.
pub(crate) fn with_scheme(url: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    }
}

/// An HTTP/2 channel to a gRPC server at `url` (with its scheme), or why not.
pub(crate) async fn grpc_channel(
    url: &str,
    timeout: std::time::Duration,
) -> Result<tonic::transport::Channel, LoadgenError> {
    let unreachable = |reason: String| LoadgenError::Unreachable {
        url: url.to_string(),
        reason,
    };
    tonic::transport::Endpoint::from_shared(url.to_string())
        .map_err(|e| unreachable(format!("bad URL: {e}")))?
        .connect_timeout(timeout)
        .connect()
        .await
        .map_err(|e| unreachable(error_chain(&e)))
}

/// Adds `authorization: Bearer <key>` when there is a key.
pub(crate) fn authorize<T>(
    request: &mut tonic::Request<T>,
    api_key: Option<&str>,
) -> Result<(), String> {
    if let Some(key) = api_key {
        let value = tonic::metadata::MetadataValue::try_from(format!("Bearer {key}"))
            .map_err(|_| "the API key is not a valid header value".to_string())?;
        request.metadata_mut().insert("authorization", value);
    }
    Ok(())
}

pub(crate) fn status_text(status: &tonic::Status) -> String {
    format!("{:?}: {}", status.code(), status.message())
}
