//! Server-sent events for streaming responses: `data: {json}` per chunk, `data: [DONE]` at
//! the end. The body stream owns the engine's [`RequestStream`], so when a client disconnects
//! and the server drops the body, the request is aborted.

use super::error::ApiError;
use crate::handle::{Completion, GenerateEvent, RequestStream, TokenLogprob};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

/// Comments sent while no token flows (a request waiting in the queue), so that a client
/// that left is noticed and its request aborted before it runs.
const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Turns engine events into the JSON payloads of one endpoint's chunks.
pub trait ChunkFormatter: Send + 'static {
    /// Payloads before the first token (chat's role delta).
    fn start(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The payload of one engine chunk, if it carries anything to send.
    fn chunk(&mut self, text: String, logprobs: &[TokenLogprob]) -> Option<String>;
    /// The finishing payloads: the finish reason, then usage if asked.
    fn finish(&mut self, completion: &Completion) -> Vec<String>;
}

struct BodyState<F> {
    stream: RequestStream,
    formatter: F,
    pending: VecDeque<String>,
    done: bool,
}

/// The SSE response for `stream`.
pub fn sse_response<F: ChunkFormatter>(stream: RequestStream, mut formatter: F) -> Response {
    let pending: VecDeque<String> = formatter.start().into();
    let state = BodyState {
        stream,
        formatter,
        pending,
        done: false,
    };
    let events = futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(data) = st.pending.pop_front() {
                let event: Result<Event, Infallible> = Ok(Event::default().data(data));
                return Some((event, st));
            }
            if st.done {
                return None;
            }
            match st.stream.next().await {
                Some(GenerateEvent::Chunk { text, logprobs, .. }) => {
                    st.pending.extend(st.formatter.chunk(text, &logprobs));
                }
                Some(GenerateEvent::Finished(completion)) => {
                    st.pending.extend(st.formatter.finish(&completion));
                    st.finish();
                }
                Some(GenerateEvent::Error(message)) => {
                    st.pending.push_back(ApiError::internal(message).to_json());
                    st.finish();
                }
                None => {
                    st.pending
                        .push_back(ApiError::unavailable("the engine stopped").to_json());
                    st.finish();
                }
            }
        }
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

impl<F> BodyState<F> {
    fn finish(&mut self) {
        self.pending.push_back("[DONE]".to_string());
        self.done = true;
    }
}
