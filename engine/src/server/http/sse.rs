//! Server-sent events for streaming responses: `data: {json}` per chunk, `data: [DONE]` at
//! the end. The body stream owns the engine's [`RequestStream`]s (one per choice), so when a
//! client disconnects and the server drops the body, every choice's request is aborted.

use super::error::ApiError;
use super::generate::aborted;
use crate::handle::{
    response_usage, ChoiceEvents, Completion, GenerateEvent, RequestStream, TokenLogprob, Usage,
};
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
    /// Payloads before the first token (chat's role deltas), for `choices` choices.
    fn start(&mut self, _choices: u32) -> Vec<String> {
        Vec::new()
    }
    /// The payload of one engine chunk of choice `index` (`token_ids` decode to `text`,
    /// less what is held back), if it carries anything to send.
    fn chunk(
        &mut self,
        index: u32,
        token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Option<String>;
    /// The payloads that end choice `index` (its finish reason).
    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<String>;
    /// The last payload, once every choice has ended: the response's usage, if asked for.
    fn usage(&mut self, usage: Usage) -> Option<String>;
}

struct BodyState<F> {
    events: ChoiceEvents,
    formatter: F,
    usages: Vec<Usage>,
    samples_per_prompt: usize,
    pending: VecDeque<String>,
    done: bool,
}

/// The SSE response for the choices `streams` (`samples_per_prompt` samples of each
/// prompt, prompt by prompt): their chunks interleaved, tagged with their index.
pub fn sse_response<F: ChunkFormatter>(
    streams: Vec<RequestStream>,
    samples_per_prompt: usize,
    mut formatter: F,
) -> Response {
    let choices = streams.len();
    let pending: VecDeque<String> = formatter
        .start(u32::try_from(choices).unwrap_or(u32::MAX))
        .into();
    let state = BodyState {
        events: ChoiceEvents::new(streams),
        formatter,
        usages: vec![Usage::default(); choices],
        samples_per_prompt,
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
            match st.events.next().await {
                Some((
                    index,
                    Some(GenerateEvent::Chunk {
                        token_ids,
                        text,
                        logprobs,
                        ..
                    }),
                )) => {
                    let payload = st.formatter.chunk(index, &token_ids, text, &logprobs);
                    st.pending.extend(payload);
                }
                Some((_, Some(GenerateEvent::Finished(completion))))
                    if completion.finish_reason.is_abort() =>
                {
                    st.pending.push_back(aborted().to_json());
                    st.finish();
                }
                Some((index, Some(GenerateEvent::Finished(completion)))) => {
                    if let Some(usage) = st.usages.get_mut(index as usize) {
                        *usage = completion.usage;
                    }
                    st.pending.extend(st.formatter.finish(index, &completion));
                }
                Some((_, Some(GenerateEvent::Error(error)))) => {
                    st.pending.push_back(ApiError::from(error).to_json());
                    st.finish();
                }
                Some((_, None)) => {
                    st.pending
                        .push_back(ApiError::unavailable("the engine stopped").to_json());
                    st.finish();
                }
                None => {
                    let usage = response_usage(&st.usages, st.samples_per_prompt);
                    st.pending.extend(st.formatter.usage(usage));
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
