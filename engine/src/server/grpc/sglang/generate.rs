//! The response stream of `Generate`: while streaming, one chunk per engine chunk (new
//! token ids, cumulative counts, their logprobs, the sample's `index`, and in its first
//! chunk the prompt's logprobs when asked for); one `GenerateComplete` with the whole
//! output per sample (its logprobs only when not streamed: the chunks had them); the
//! stream ends after the last.
//! Dropping the stream (the client cancelled or vanished) drops the engine's request
//! streams, which aborts every sample.

use super::super::deadline;
use crate::handle::{ChoiceEvents, Completion, GenerateEvent, RequestStream, TokenLogprob};
use crate::sampling::{FinishReason, StopMatch};
use futures_util::Stream;
use proto::sglang::scheduler as pb;
use proto::sglang::scheduler::generate_complete::MatchedStop;
use proto::sglang::scheduler::generate_response::Response;
use std::pin::Pin;
use std::time::Instant;
use tonic::Status;

pub(super) type GenerateStream =
    Pin<Box<dyn Stream<Item = Result<pb::GenerateResponse, Status>> + Send>>;

/// What has been generated for one sample.
#[derive(Default)]
struct Sample {
    output_ids: Vec<u32>,
    logprobs: pb::OutputLogProbs,
    /// The prompt's logprobs, once they came (kept for the completion when not streamed).
    input_logprobs: Option<pb::InputLogProbs>,
    /// Its first chunk came (the prompt's logprobs arrive with it).
    started: bool,
    reasoning: ReasoningCount,
}

/// Reasoning tokens as SGLang counts them for `require_reasoning`: the output up to and
/// including the first thinking-end token; none without such a token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ReasoningCount {
    tokens: u32,
    over: bool,
}

impl ReasoningCount {
    fn add(&mut self, token_ids: &[u32], think_end: Option<u32>) {
        let Some(end) = think_end else {
            return;
        };
        if self.over {
            return;
        }
        let counted = match token_ids.iter().position(|&t| t == end) {
            Some(at) => {
                self.over = true;
                at + 1
            }
            None => token_ids.len(),
        };
        self.tokens = self.tokens.saturating_add(count(counted));
    }
}

struct Generation {
    events: ChoiceEvents,
    rid: String,
    stream: bool,
    deadline: Option<Instant>,
    prompt_tokens: u32,
    think_end: Option<u32>,
    input_logprob_ids: Option<Vec<u32>>,
    samples: Vec<Sample>,
    done: bool,
}

pub(super) struct Options {
    pub rid: String,
    pub stream: bool,
    pub deadline: Option<Instant>,
    pub prompt_tokens: u32,
    /// See [`ReasoningCount`].
    pub think_end: Option<u32>,
    /// The prompt's ids from `logprob_start_len`, when input logprobs are asked for.
    pub input_logprob_ids: Option<Vec<u32>>,
}

/// Streams the samples of one request (one per stream of `samples`, index = position):
/// their chunks interleaved as they come, each sample's completion when it ends, and the
/// end of the stream after the last completion.
pub(super) fn response_stream(samples: Vec<RequestStream>, options: Options) -> GenerateStream {
    let count = samples.len();
    let generation = Generation {
        events: ChoiceEvents::new(samples),
        rid: options.rid,
        stream: options.stream,
        deadline: options.deadline,
        prompt_tokens: options.prompt_tokens,
        think_end: options.think_end,
        input_logprob_ids: options.input_logprob_ids,
        samples: (0..count).map(|_| Sample::default()).collect(),
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
    /// The next message to send; `None` after the last.
    async fn next_message(&mut self) -> Option<Result<pb::GenerateResponse, Status>> {
        loop {
            if self.done {
                return None;
            }
            let (index, event) = match deadline::next_event(&mut self.events, self.deadline).await {
                Ok(Some(next)) => next,
                // Every sample has sent its completion.
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(status) => {
                    self.done = true;
                    return Some(Err(status));
                }
            };
            match event {
                GenerateEvent::Chunk {
                    token_ids,
                    logprobs,
                    cached_tokens,
                    prompt_logprobs,
                    ..
                } => {
                    let delta = output_logprobs(logprobs);
                    let ids = self.input_logprob_ids.as_deref();
                    let sample = &mut self.samples[index as usize];
                    let input = match ids {
                        Some(ids) if !std::mem::replace(&mut sample.started, true) => {
                            Some(input_logprobs(ids, prompt_logprobs))
                        }
                        _ => None,
                    };
                    sample.output_ids.extend_from_slice(&token_ids);
                    sample.reasoning.add(&token_ids, self.think_end);
                    // A stream's chunks carry them; its completion does not repeat them all
                    // (one message could outgrow what a client decodes).
                    if !self.stream {
                        append(&mut sample.logprobs, &delta);
                        sample.input_logprobs = sample.input_logprobs.take().or(input);
                        continue;
                    }
                    // Without streaming, only the completions are sent.
                    if !token_ids.is_empty() || input.is_some() {
                        let logprobs = (delta, input);
                        return Some(Ok(self.chunk(index, token_ids, logprobs, cached_tokens)));
                    }
                }
                GenerateEvent::Finished(completion) => {
                    let past_deadline = self.deadline.is_some_and(|d| Instant::now() >= d);
                    if completion.finish_reason == FinishReason::Abort && past_deadline {
                        self.done = true;
                        return Some(Err(deadline::exceeded()));
                    }
                    return Some(Ok(self.complete(index, &completion)));
                }
                GenerateEvent::Error(error) => {
                    self.done = true;
                    return Some(Err(super::super::status::from_generate(error)));
                }
            }
        }
    }

    fn chunk(
        &self,
        index: u32,
        token_ids: Vec<u32>,
        (logprobs, input_logprobs): (Option<pb::OutputLogProbs>, Option<pb::InputLogProbs>),
        cached_tokens: u32,
    ) -> pb::GenerateResponse {
        let sample = &self.samples[index as usize];
        self.response(Response::Chunk(pb::GenerateStreamChunk {
            token_ids,
            prompt_tokens: self.prompt_tokens,
            completion_tokens: count(sample.output_ids.len()),
            cached_tokens,
            reasoning_tokens: sample.reasoning.tokens,
            output_logprobs: logprobs,
            input_logprobs,
            index,
        }))
    }

    fn complete(&mut self, index: u32, completion: &Completion) -> pb::GenerateResponse {
        let (finish_reason, matched_stop) = finish(&completion.finish_reason);
        let usage = completion.usage;
        let sample = std::mem::take(&mut self.samples[index as usize]);
        self.response(Response::Complete(pb::GenerateComplete {
            output_ids: sample.output_ids,
            finish_reason: finish_reason.to_string(),
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            cached_tokens: usage.cached_tokens,
            reasoning_tokens: sample.reasoning.tokens,
            output_logprobs: (!sample.logprobs.token_ids.is_empty()).then_some(sample.logprobs),
            input_logprobs: sample.input_logprobs,
            matched_stop,
            index,
            spec_accepted_tokens: completion.spec_accepted_tokens,
            spec_draft_tokens: completion.spec_draft_tokens,
        }))
    }

    fn response(&self, response: Response) -> pb::GenerateResponse {
        pb::GenerateResponse {
            request_id: self.rid.clone(),
            response: Some(response),
        }
    }
}

pub(super) fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The SGLang names of finish reasons, and the stop that matched.
fn finish(reason: &FinishReason) -> (&'static str, Option<MatchedStop>) {
    match reason {
        FinishReason::Stop(StopMatch::Eos(id) | StopMatch::TokenId(id)) => {
            ("stop", Some(MatchedStop::MatchedTokenId(*id)))
        }
        FinishReason::Stop(StopMatch::String(s)) => {
            ("stop", Some(MatchedStop::MatchedStopStr(s.clone())))
        }
        FinishReason::Stop(StopMatch::Grammar) => ("stop", None),
        FinishReason::Length => ("length", None),
        FinishReason::Abort => ("abort", None),
    }
}

/// A chunk's logprobs in the protocol's columns; `None` when none were asked for.
fn output_logprobs(logprobs: Vec<TokenLogprob>) -> Option<pb::OutputLogProbs> {
    if logprobs.is_empty() {
        return None;
    }
    let mut out = pb::OutputLogProbs::default();
    for lp in logprobs {
        out.token_ids.push(lp.token_id);
        out.token_logprobs.push(lp.logprob);
        let (token_ids, values) = lp.top.into_iter().unzip();
        out.top_logprobs.push(pb::TopLogProbs { values, token_ids });
    }
    Some(out)
}

/// The prompt's logprobs in the protocol's columns: one entry per id of `ids` (the prompt
/// from `logprob_start_len`), the first null as in SGLang, the others scored by `scores`.
fn input_logprobs(ids: &[u32], scores: Vec<TokenLogprob>) -> pb::InputLogProbs {
    let mut out = pb::InputLogProbs {
        token_ids: ids.to_vec(),
        ..Default::default()
    };
    out.token_logprobs
        .push(pb::InputTokenLogProb { value: None });
    out.top_logprobs.push(pb::TopLogProbs::default());
    for lp in scores {
        out.token_logprobs.push(pb::InputTokenLogProb {
            value: Some(lp.logprob),
        });
        let (token_ids, values) = lp.top.into_iter().unzip();
        out.top_logprobs.push(pb::TopLogProbs { values, token_ids });
    }
    out
}

fn append(all: &mut pb::OutputLogProbs, delta: &Option<pb::OutputLogProbs>) {
    if let Some(delta) = delta {
        all.token_ids.extend_from_slice(&delta.token_ids);
        all.token_logprobs.extend_from_slice(&delta.token_logprobs);
        all.top_logprobs.extend(delta.top_logprobs.iter().cloned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted as SGLang counts them: up to and including the end token, then no more; no
    /// end token in the vocabulary, no reasoning tokens.
    #[test]
    fn reasoning_tokens_end_with_the_thinking() {
        let mut count = ReasoningCount::default();
        count.add(&[5, 6], Some(9));
        count.add(&[7, 9, 8], Some(9));
        count.add(&[9, 1], Some(9));
        assert_eq!(count.tokens, 4);
        let mut none = ReasoningCount::default();
        none.add(&[5, 9], None);
        assert_eq!(none.tokens, 0);
    }
}
