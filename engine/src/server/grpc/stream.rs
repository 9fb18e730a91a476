//! The response stream of `Generate`: engine events become `GenerateResponse`s.
//!
//! The stream owns the engine's [`RequestStream`]s (one per sample, `n`). When the client
//! cancels the call or goes away, tonic drops the response stream, which drops them, and the
//! engine aborts the requests within a step. When the call's deadline passes first, the stream ends
//! with DEADLINE_EXCEEDED and the same drop aborts the request (the engine also knows the
//! deadline, for requests still waiting in its queue).

use crate::handle::{ChoiceEvents, Completion, GenerateEvent, RequestStream, TokenLogprob};
use crate::sampling::{FinishReason, StopMatch};
use futures_util::Stream;
use proto::v1 as pb;
use proto::v1::generate_finished::MatchedStop;
use proto::v1::generate_response::Response;
use std::pin::Pin;
use std::time::Instant;
use tonic::Status;

pub(super) type ResponseStream =
    Pin<Box<dyn Stream<Item = Result<pb::GenerateResponse, Status>> + Send>>;

/// One generation in flight: the samples of one prompt.
struct Generation {
    events: ChoiceEvents,
    rid: String,
    deadline: Option<Instant>,
    done: bool,
}

/// Streams the samples `streams` until every one has finished, one fails, or the deadline
/// passes.
pub(super) fn response_stream(
    streams: Vec<RequestStream>,
    deadline: Option<Instant>,
) -> ResponseStream {
    let rid = streams.first().map(|s| s.rid.clone()).unwrap_or_default();
    let generation = Generation {
        events: ChoiceEvents::new(streams),
        rid,
        deadline,
        done: false,
    };
    Box::pin(futures_util::stream::unfold(
        generation,
        |mut generation| async move {
            let item = generation.next_message().await?;
            Some((item, generation))
        },
    ))
}

impl Generation {
    /// The next message; `None` once the final one was sent.
    async fn next_message(&mut self) -> Option<Result<pb::GenerateResponse, Status>> {
        if self.done {
            return None;
        }
        match super::deadline::next_event(&mut self.events, self.deadline).await {
            Ok(Some((index, event))) => Some(self.message_for(index, event)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(status) => {
                self.done = true;
                Some(Err(status))
            }
        }
    }

    fn message_for(
        &mut self,
        index: u32,
        event: GenerateEvent,
    ) -> Result<pb::GenerateResponse, Status> {
        match event {
            GenerateEvent::Chunk {
                token_ids,
                text,
                logprobs,
                ..
            } => Ok(self.response(Response::Chunk(pb::GenerateChunk {
                token_ids,
                text,
                logprobs: logprobs.into_iter().map(token_logprob).collect(),
                index,
            }))),
            GenerateEvent::Finished(completion) => {
                let past_deadline = self.deadline.is_some_and(|d| Instant::now() >= d);
                if completion.finish_reason == FinishReason::Abort && past_deadline {
                    self.done = true;
                    return Err(super::deadline::exceeded());
                }
                Ok(self.response(Response::Finished(finished(&completion, index))))
            }
            GenerateEvent::Error(error) => {
                self.done = true;
                Err(super::status::from_generate(error))
            }
        }
    }

    fn response(&self, response: Response) -> pb::GenerateResponse {
        pb::GenerateResponse {
            request_id: self.rid.clone(),
            response: Some(response),
        }
    }
}

fn token_logprob(lp: TokenLogprob) -> pb::TokenLogprob {
    pb::TokenLogprob {
        token_id: lp.token_id,
        logprob: lp.logprob,
        top: lp
            .top
            .into_iter()
            .map(|(token_id, logprob)| pb::TopLogprob { token_id, logprob })
            .collect(),
    }
}

fn finished(completion: &Completion, index: u32) -> pb::GenerateFinished {
    let (reason, matched) = match &completion.finish_reason {
        FinishReason::Stop(StopMatch::Eos(id) | StopMatch::TokenId(id)) => (
            pb::FinishReason::Stop,
            Some(MatchedStop::MatchedTokenId(*id)),
        ),
        FinishReason::Stop(StopMatch::String(s)) => (
            pb::FinishReason::Stop,
            Some(MatchedStop::MatchedString(s.clone())),
        ),
        FinishReason::Stop(StopMatch::Grammar) => (pb::FinishReason::Stop, None),
        FinishReason::Length => (pb::FinishReason::Length, None),
        FinishReason::Abort => (pb::FinishReason::Abort, None),
    };
    let usage = completion.usage;
    pb::GenerateFinished {
        finish_reason: reason.into(),
        matched_stop: matched,
        usage: Some(pb::Usage {
            prompt_tokens: usage.prompt_tokens,
            cached_tokens: usage.cached_tokens,
            completion_tokens: usage.completion_tokens,
        }),
        ttft_s: completion.ttft_s,
        e2e_s: completion.e2e_s,
        index,
    }
}
