//! Several samples of one prompt (OpenAI's `n`): the prompt is computed once and shared
//! through the prefix cache (its log-probabilities, when asked for, scored once), and each
//! sample draws from its own seed stream.

use super::{EngineHandle, GenerateEvent, GenerateRequest, RequestStream, SubmitError, Usage};
use crate::sampling::FinishReason;
use futures_util::stream::SelectAll;
use futures_util::{Stream, StreamExt};
use std::pin::Pin;

/// Most samples of one request: each is a request of its own in the queue and the batch.
pub const MAX_SAMPLES: u32 = 16;

impl EngineHandle {
    /// Submits `n` samples of `request`: [`EngineHandle::submit_group`] of one request.
    pub async fn submit_samples(
        &self,
        request: GenerateRequest,
        n: u32,
    ) -> Result<Vec<RequestStream>, SubmitError> {
        self.submit_group(vec![request], n).await
    }

    /// Submits `n` samples of each of `requests` (one caller's: the choices of one
    /// response), request by request. Every request is validated, and the group's tokens
    /// checked against the tenant's rate limit, before any is submitted, so that a group
    /// refused for what it asks costs nothing and computes nothing. If a sample is refused
    /// all the same (a queue filled meanwhile), the ones already queued are aborted and the
    /// error is returned; their tokens stay taken, since they may have run.
    ///
    /// Each request's samples share its id and its call (an abort by that id ends them
    /// all, those not yet queued included). Sample 0 goes first; the others are queued once
    /// its first event has arrived, when its prompt is in the prefix cache, so they find the
    /// whole prompt there instead of computing it again. With a seed, sample `i` uses `seed + i` (wrapping); without one, each sample
    /// draws its own.
    pub async fn submit_group(
        &self,
        mut requests: Vec<GenerateRequest>,
        n: u32,
    ) -> Result<Vec<RequestStream>, SubmitError> {
        if n == 0 || n > MAX_SAMPLES {
            return Err(SubmitError::InvalidArgument(format!(
                "n must be between 1 and {MAX_SAMPLES}, got {n}"
            )));
        }
        if requests.len() * n as usize > 1 {
            self.precheck_group(&requests, n)?;
        }
        // Every id taken before any sample runs: an abort by one reaches the samples not
        // yet queued (`submit` checks the call's mark), and a duplicate costs nothing.
        self.open_calls(&mut requests)?;
        let mut streams = Vec::with_capacity(requests.len() * n as usize);
        for request in &requests {
            // On refusal, dropping `streams` aborts the samples already queued.
            let mut first = self.submit(sample(request, 0, None))?;
            if n > 1 && first.front.is_none() {
                // (One ended unsubmitted has its last event there already.)
                first.front = first.rx.recv().await;
            }
            let rid = first.rid.clone();
            // Ended before its first token (aborted by id while it waited, failed, or the
            // engine stopped): the other samples would outlive an abort that named them all,
            // so they end the same way without running.
            let ended_early = match &first.front {
                Some(GenerateEvent::Finished(c)) => c.finish_reason == FinishReason::Abort,
                Some(GenerateEvent::Error(_)) | None => true,
                Some(GenerateEvent::Chunk { .. }) => false,
            };
            let last = first.front.clone();
            // Sample 0 scored the prompt (its first chunk has the scores): the others
            // compute nothing again and get the same scores.
            let scores = match &first.front {
                Some(GenerateEvent::Chunk {
                    prompt_logprobs, ..
                }) if request.prompt_logprobs_from.is_some() => Some(prompt_logprobs.clone()),
                _ => None,
            };
            streams.push(first);
            for i in 1..n {
                if ended_early {
                    streams.push(RequestStream::ended(rid.clone(), last.clone()));
                } else {
                    let mut other = self.submit(sample(request, i, Some(&rid)))?;
                    other.shared_prompt_logprobs = scores.clone();
                    streams.push(other);
                }
            }
        }
        Ok(streams)
    }
}

fn sample(request: &GenerateRequest, index: u32, rid: Option<&str>) -> GenerateRequest {
    let mut sample = request.clone();
    sample.params.seed = request
        .params
        .seed
        .map(|seed| seed.wrapping_add(u64::from(index)));
    if let Some(rid) = rid {
        sample.rid = Some(rid.to_string());
        // Scores nothing (sample 0 did), and so finds the whole prompt cached.
        let len = u32::try_from(request.input_ids.len()).unwrap_or(u32::MAX);
        sample.prompt_logprobs_from = request.prompt_logprobs_from.map(|_| len);
    }
    sample
}

type Tagged = Pin<Box<dyn Stream<Item = (u32, Option<GenerateEvent>)> + Send>>;

/// The events of several requests (the choices of one response), tagged with each
/// request's index, interleaved as they come. Each request's events end with its
/// `Finished` or `Error`, or with `None` if its stream ended without one (the engine
/// stopped). Dropping it drops the streams, which aborts the requests.
pub struct ChoiceEvents {
    events: SelectAll<Tagged>,
}

impl ChoiceEvents {
    pub fn new(streams: Vec<RequestStream>) -> Self {
        let tagged = streams.into_iter().enumerate().map(|(i, stream)| {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            let events: Tagged = Box::pin(futures_util::stream::unfold(
                Some(stream),
                move |stream| async move {
                    let mut stream = stream?;
                    let event = stream.next().await;
                    let more = matches!(event, Some(GenerateEvent::Chunk { .. }));
                    Some(((index, event), more.then_some(stream)))
                },
            ));
            events
        });
        Self {
            events: futures_util::stream::select_all(tagged),
        }
    }

    /// The next event of any choice (`None` inside: that choice's stream ended without its
    /// last event); `None` once every choice has ended.
    pub async fn next(&mut self) -> Option<(u32, Option<GenerateEvent>)> {
        self.events.next().await
    }
}

/// The usage of a response whose choices are `n` samples of each of its prompts, in
/// order (choice `i` is sample `i % n` of prompt `i / n`): each prompt counted once (its
/// first sample's count, and that sample's cached tokens), every choice's output.
pub fn response_usage(choices: &[Usage], n: usize) -> Usage {
    let n = n.max(1);
    let mut total = Usage::default();
    for (i, usage) in choices.iter().enumerate() {
        if i % n == 0 {
            total.prompt_tokens += usage.prompt_tokens;
            total.cached_tokens += usage.cached_tokens;
        }
        total.completion_tokens += usage.completion_tokens;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(prompt: u32, cached: u32, completion: u32) -> Usage {
        Usage {
            prompt_tokens: prompt,
            cached_tokens: cached,
            completion_tokens: completion,
        }
    }

    #[test]
    fn usage_counts_each_prompt_once_and_every_output() {
        let choices = [
            usage(10, 0, 3),
            usage(10, 9, 4),
            usage(7, 2, 5),
            usage(7, 6, 1),
        ];
        assert_eq!(response_usage(&choices, 2), usage(17, 2, 13));
        assert_eq!(response_usage(&choices, 1), usage(34, 17, 13));
    }
}
