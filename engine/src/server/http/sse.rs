//! Server-sent events for streaming responses: `data: {json}` per chunk (with an `event:`
//! name where the endpoint names its events), `data: [DONE]` at the end where the endpoint
//! ends so. The body stream owns the engine's [`RequestStream`]s (one per choice), so when a
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

/// One event's JSON, and its `event:` name where the endpoint names its events (the
/// Responses API); chat and completions send `data:` alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Payload {
    pub event: Option<&'static str>,
    pub data: String,
}

impl From<String> for Payload {
    fn from(data: String) -> Self {
        Self { event: None, data }
    }
}

/// Turns engine events into the JSON payloads of one endpoint's chunks.
pub trait ChunkFormatter: Send + 'static {
    /// Whether the stream ends with `data: [DONE]` (chat and completions do).
    const ENDS_WITH_DONE: bool = true;
    /// Whether an aborted choice ends as any other, with its finish reason (SGLang's native
    /// answer), rather than the stream with a 503 error telling the client to retry.
    const ENDS_ABORTED_CHOICES: bool = false;
    /// Payloads before the first token (chat's role deltas), for `choices` choices.
    fn start(&mut self, _choices: u32) -> Vec<Payload> {
        Vec::new()
    }
    /// The payloads of one engine chunk of choice `index` (`token_ids` decode to `text`,
    /// less what is held back): none when it carries nothing to send.
    fn chunk(
        &mut self,
        index: u32,
        token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Vec<Payload>;
    /// The prompt log-probabilities of choice `index`, when it asked for them: they come
    /// just before its first chunk.
    fn prompt_logprobs(&mut self, _index: u32, _logprobs: Vec<TokenLogprob>) {}
    /// The payloads that end choice `index` (its finish reason).
    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<Payload>;
    /// The last payload, once every choice has ended: the response's usage, if asked for.
    fn usage(&mut self, usage: Usage) -> Option<Payload>;
    /// The payloads of an error that ends the stream: OpenAI's error object by default.
    fn error(&mut self, error: ApiError) -> Vec<Payload> {
        vec![error.to_json().into()]
    }
}

struct BodyState<F> {
    events: ChoiceEvents,
    formatter: F,
    usages: Vec<Usage>,
    samples_per_prompt: usize,
    pending: VecDeque<Payload>,
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
    let pending: VecDeque<Payload> = formatter
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
            if let Some(payload) = st.pending.pop_front() {
                let event = Event::default().data(payload.data);
                let event = match payload.event {
                    Some(name) => event.event(name),
                    None => event,
                };
                return Some((Ok::<_, Infallible>(event), st));
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
                        prompt_logprobs,
                        ..
                    }),
                )) => {
                    if !prompt_logprobs.is_empty() {
                        st.formatter.prompt_logprobs(index, prompt_logprobs);
                    }
                    let payload = st.formatter.chunk(index, &token_ids, text, &logprobs);
                    st.pending.extend(payload);
                }
                Some((_, Some(GenerateEvent::Finished(completion))))
                    if completion.finish_reason.is_abort() && !F::ENDS_ABORTED_CHOICES =>
                {
                    st.fail(aborted());
                }
                Some((index, Some(GenerateEvent::Finished(completion)))) => {
                    if let Some(usage) = st.usages.get_mut(index as usize) {
                        *usage = completion.usage;
                    }
                    st.pending.extend(st.formatter.finish(index, &completion));
                }
                Some((_, Some(GenerateEvent::Error(error)))) => {
                    st.fail(ApiError::from(error));
                }
                Some((_, None)) => {
                    st.fail(ApiError::unavailable("the engine stopped"));
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

impl<F: ChunkFormatter> BodyState<F> {
    fn finish(&mut self) {
        if F::ENDS_WITH_DONE {
            self.pending.push_back("[DONE]".to_string().into());
        }
        self.done = true;
    }

    fn fail(&mut self, error: ApiError) {
        let payloads = self.formatter.error(error);
        self.pending.extend(payloads);
        self.finish();
    }
}
