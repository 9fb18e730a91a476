//! What both gRPC services do with an embedding request once submitted: wait for its end
//! (within the call's deadline) and hand back its hidden state and usage, or the status of
//! why there is none.

use super::{deadline, status};
use crate::handle::{ChoiceEvents, GenerateEvent, RequestStream, Usage};
use crate::sampling::FinishReason;
use std::time::Instant;
use tonic::Status;

/// The hidden state (output-normed, not yet L2-normalized) and usage of the embedding
/// request `stream` reads, waiting at most until `deadline`. Dropping the future drops the
/// stream, which aborts the request.
pub(super) async fn finished_embedding(
    stream: RequestStream,
    deadline: Option<Instant>,
) -> Result<(Vec<f32>, Usage), Status> {
    let mut events = ChoiceEvents::new(vec![stream]);
    loop {
        let Some((_, event)) = deadline::next_event(&mut events, deadline).await? else {
            return Err(Status::unavailable("the engine stopped"));
        };
        let completion = match event {
            GenerateEvent::Chunk { .. } => continue,
            GenerateEvent::Error(e) => return Err(status::from_generate(e)),
            GenerateEvent::Finished(completion) => completion,
        };
        let past_deadline = deadline.is_some_and(|d| Instant::now() >= d);
        return match (completion.finish_reason, completion.embedding) {
            (FinishReason::Abort, _) if past_deadline => Err(deadline::exceeded()),
            (FinishReason::Abort, _) => Err(Status::cancelled("the request was aborted")),
            (_, None) => Err(Status::internal("the engine returned no embedding")),
            (_, Some(hidden)) => Ok((hidden, completion.usage)),
        };
    }
}
