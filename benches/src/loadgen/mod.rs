//! `loadgen`: drives an LLM server (radixserve over gRPC, or any OpenAI-compatible HTTP server)
//! with a synthetic workload and measures what clients see: throughput, time to first token,
//! inter-token latency, end-to-end latency and prefix-cache hits, overall and per tenant.
//!
//! The pieces, in the order a run uses them: [`cli`] flags, [`dataset`] and [`tenants`] build
//! the sessions, [`schedule`] times their arrivals, [`runner`] sends them through a
//! [`backend`], [`metrics`] reduces the records, [`report`] prints and saves them, [`plot`]
//! draws them, [`sweep`] repeats a run over load levels; [`app`] ties them together.

pub mod app;
pub mod backend;
pub mod backend_grpc;
pub mod backend_openai;
pub mod backend_sglang;
pub mod cli;
pub mod dataset;
pub mod metrics;
pub mod plot;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sse;
pub mod sweep;
pub mod tenants;
pub mod timing;

/// Why a load-generator run could not be set up or finished. Failures of single requests are
/// not errors: they are counted in the results.
#[derive(Debug, thiserror::Error)]
pub enum LoadgenError {
    /// Flags or a configuration file that make no sense together.
    #[error("{0}")]
    InvalidArgs(String),
    /// The server could not be reached.
    #[error("cannot reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The server answered a setup call (model info, cache flush) with an error.
    #[error("{url} refused {reason}")]
    Refused { url: String, reason: String },
    /// Every warm-up request failed: the server does not serve this workload.
    #[error("every warm-up request to {url} failed: {reason}")]
    WarmupFailed { url: String, reason: String },
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("{path}: {reason}")]
    File { path: String, reason: String },
    #[error("plot {path}: {reason}")]
    Plot { path: String, reason: String },
}

impl LoadgenError {
    pub(crate) fn file(path: &std::path::Path, reason: impl std::fmt::Display) -> Self {
        LoadgenError::File {
            path: path.display().to_string(),
            reason: reason.to_string(),
        }
    }
}
