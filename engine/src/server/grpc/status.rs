//! gRPC status codes for the engine's errors.

use crate::handle::{EngineError, GenerateError, SubmitError};
use tonic::Status;

pub(super) fn from_submit(error: SubmitError) -> Status {
    match error {
        SubmitError::InvalidArgument(message) => Status::invalid_argument(message),
        SubmitError::ResourceExhausted(message) => Status::resource_exhausted(message),
        SubmitError::Unavailable(message) => Status::unavailable(message),
        SubmitError::AlreadyExists(message) => Status::already_exists(message),
    }
}

/// A request that failed after it was accepted: its grammar is the caller's to change.
pub(super) fn from_generate(error: GenerateError) -> Status {
    match error {
        GenerateError::Grammar(message) | GenerateError::Invalid(message) => {
            Status::invalid_argument(message)
        }
        GenerateError::Engine(message) => Status::internal(message),
    }
}

pub(super) fn from_engine(error: EngineError) -> Status {
    match error {
        EngineError::Stopped => Status::unavailable("the engine has stopped"),
        other => Status::internal(other.to_string()),
    }
}
