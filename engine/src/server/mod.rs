//! The network surfaces in front of [`crate::handle::EngineHandle`]: the gRPC API, the
//! OpenAI-compatible HTTP API and the Prometheus metrics they both report through.

mod adapters;
pub mod body_deadline;
pub mod connections;
pub mod grpc;
pub mod http;
mod idle;
pub mod metrics;
