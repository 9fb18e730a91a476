//! What both generation endpoints share: submitting in the caller's namespace, and reading a
//! request's whole output for non-streaming responses.

use super::error::ApiError;
use crate::handle::{
    Completion, EngineHandle, GenerateEvent, GenerateRequest, RequestStream, TokenLogprob,
};
use crate::sampling::SamplingParams;
use crate::tenants::Caller;

/// Queues a request for `caller`. Its namespace is the caller's, narrowed by `cache_salt`.
pub fn submit(
    engine: &EngineHandle,
    caller: &Caller,
    input_ids: Vec<u32>,
    params: SamplingParams,
    cache_salt: Option<&str>,
) -> Result<RequestStream, ApiError> {
    let mut request = GenerateRequest::new(input_ids, params);
    request.namespace = caller.namespace_for(cache_salt);
    request.tenant = caller.tenant;
    engine.submit(request).map_err(ApiError::from)
}

/// A request's whole output.
#[derive(Debug)]
pub struct Collected {
    pub text: String,
    pub logprobs: Vec<TokenLogprob>,
    pub completion: Completion,
}

/// Reads `stream` to its end. If the client goes away meanwhile, the handler's future is
/// dropped with the stream in it, which aborts the request.
pub async fn collect(stream: &mut RequestStream) -> Result<Collected, ApiError> {
    let mut text = String::new();
    let mut all_logprobs = Vec::new();
    loop {
        match stream.next().await {
            Some(GenerateEvent::Chunk {
                text: piece,
                logprobs,
                ..
            }) => {
                text.push_str(&piece);
                all_logprobs.extend(logprobs);
            }
            Some(GenerateEvent::Finished(completion)) => {
                return Ok(Collected {
                    text,
                    logprobs: all_logprobs,
                    completion,
                })
            }
            Some(GenerateEvent::Error(message)) => return Err(ApiError::internal(message)),
            None => return Err(ApiError::unavailable("the engine stopped")),
        }
    }
}
