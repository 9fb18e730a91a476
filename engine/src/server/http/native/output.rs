//! What `/generate` answers for each choice, in SGLang's shape: `text`, `output_ids` and
//! `meta_info` (`id`, `finish_reason` as `{"type", "matched" | "length"}`, token counts,
//! and with `return_logprob` the `(logprob, id, text)` triples of the output and of the
//! prompt from `logprob_start_len`, the prompt's first null as SGLang sends it). Streamed,
//! each chunk holds the choice so far (SGLang's default, cumulative), its prompt's
//! logprobs only in the first chunk that has them and the last; past its first tokens,
//! chunks are spaced out as the choice grows ([`worth_sending`]).

use super::super::logprobs::token_text;
use super::super::sse::{ChunkFormatter, Payload};
use crate::handle::{Completion, EngineHandle, TokenLogprob, Usage};
use crate::sampling::{FinishReason, StopMatch};
use crate::tokenizer::Tokenizer;
use serde_json::{json, Map, Value};

/// How each choice's logprobs are shown, when asked for (`return_logprob`).
#[derive(Clone, Copy, Debug)]
pub struct LogprobShape {
    /// `top_logprobs_num`: alternatives per position (none: no `*_top_logprobs`).
    pub top: usize,
    /// `token_ids_logprob` was given: `*_token_ids_logprobs` hold each position's.
    pub given: bool,
    /// `return_text_in_logprobs`: each triple's token text (else null).
    pub text: bool,
}

/// One choice's output so far.
#[derive(Debug, Default)]
pub struct ChoiceOutput {
    pub text: String,
    pub output_ids: Vec<u32>,
    pub logprobs: Vec<TokenLogprob>,
    /// The prompt's scores (from one past `logprob_start_len`), once they came.
    pub prompt_logprobs: Vec<TokenLogprob>,
}

/// What the choices of one response share.
pub struct Answer {
    pub engine: EngineHandle,
    pub logprobs: Option<LogprobShape>,
    /// Each prompt's ids from `logprob_start_len` (its input logprobs' ids).
    pub input_ids: Vec<Vec<u32>>,
    /// Each prompt's length.
    pub prompt_tokens: Vec<u32>,
    pub samples: usize,
    /// Several choices: each carries its `index`.
    pub batch: bool,
}

impl Answer {
    /// Choice `index`'s JSON; `end` has its completion once it is done.
    /// Choice `index`'s JSON; `end` has its completion once it is done (with its cached
    /// tokens and latency), `with_input` adds its prompt's logprobs.
    pub fn choice(
        &self,
        index: usize,
        rid: &str,
        out: &ChoiceOutput,
        (end, with_input): (Option<&Completion>, bool),
    ) -> Value {
        let tokenizer = self.engine.tokenizer();
        let prompt = index / self.samples.max(1);
        let input_ids = self.input_ids.get(prompt).map_or(&[][..], Vec::as_slice);
        let mut meta = Map::new();
        meta.insert("id".into(), rid.into());
        match end {
            Some(c) => {
                meta.insert("finish_reason".into(), finish(&c.finish_reason, c.usage));
                meta.insert("prompt_tokens".into(), c.usage.prompt_tokens.into());
                meta.insert("completion_tokens".into(), c.usage.completion_tokens.into());
                meta.insert("cached_tokens".into(), c.usage.cached_tokens.into());
                meta.insert("e2e_latency".into(), json!(c.e2e_s));
            }
            None => {
                let prompt_tokens = self.prompt_tokens.get(prompt).copied().unwrap_or(0);
                meta.insert("finish_reason".into(), Value::Null);
                meta.insert("prompt_tokens".into(), prompt_tokens.into());
                meta.insert(
                    "completion_tokens".into(),
                    u32::try_from(out.output_ids.len())
                        .unwrap_or(u32::MAX)
                        .into(),
                );
            }
        }
        if let Some(shape) = self.logprobs {
            let outputs: Vec<(u32, Option<&TokenLogprob>)> = out
                .logprobs
                .iter()
                .map(|lp| (lp.token_id, Some(lp)))
                .collect();
            put_logprobs(&mut meta, "output", tokenizer, shape, &outputs);
            if with_input {
                // The first has nothing before it; the others are the prompt's scores.
                let scores = std::iter::once(None).chain(out.prompt_logprobs.iter().map(Some));
                let inputs: Vec<(u32, Option<&TokenLogprob>)> =
                    input_ids.iter().copied().zip(scores).collect();
                put_logprobs(&mut meta, "input", tokenizer, shape, &inputs);
            }
        }
        let mut choice = json!({
            "text": out.text,
            "output_ids": out.output_ids,
            "meta_info": meta,
        });
        if self.batch {
            choice["index"] = index.into();
        }
        choice
    }
}

/// `{side}_token_logprobs` (with `{side}_top_logprobs` when alternatives are asked for, and
/// `{side}_token_ids_logprobs` when given tokens are) of `tokens`: each token's id with its
/// score, if it has one.
fn put_logprobs(
    meta: &mut Map<String, Value>,
    side: &str,
    tokenizer: &Tokenizer,
    shape: LogprobShape,
    tokens: &[(u32, Option<&TokenLogprob>)],
) {
    let triple = |logprob: Option<f32>, id: u32| {
        let text = shape.text.then(|| token_text(tokenizer, id));
        json!([logprob.map(finite), id, text])
    };
    let values: Vec<Value> = (tokens.iter())
        .map(|&(id, lp)| triple(lp.map(|lp| lp.logprob), id))
        .collect();
    meta.insert(format!("{side}_token_logprobs"), values.into());
    // Per position, the triples of a list each score carries (none before the first).
    let lists = |list: fn(&TokenLogprob) -> &[(u32, f32)]| -> Value {
        (tokens.iter())
            .map(|(_, lp)| match lp {
                Some(lp) => (list(lp).iter())
                    .map(|&(id, v)| triple(Some(v), id))
                    .collect::<Vec<_>>()
                    .into(),
                None => Value::Null,
            })
            .collect::<Vec<_>>()
            .into()
    };
    if shape.top > 0 {
        meta.insert(format!("{side}_top_logprobs"), lists(|lp| &lp.top));
    }
    if shape.given {
        meta.insert(format!("{side}_token_ids_logprobs"), lists(|lp| &lp.given));
    }
}

/// JSON has no infinities: an impossible token is given SGLang's stand-in.
fn finite(v: f32) -> f64 {
    if v.is_finite() {
        f64::from(v)
    } else {
        -999_999_999.0
    }
}

/// SGLang's finish reason objects.
fn finish(reason: &FinishReason, usage: Usage) -> Value {
    match reason {
        FinishReason::Stop(StopMatch::Eos(id) | StopMatch::TokenId(id)) => {
            json!({"type": "stop", "matched": id})
        }
        FinishReason::Stop(StopMatch::String(s)) => json!({"type": "stop", "matched": s}),
        FinishReason::Stop(StopMatch::Grammar) => json!({"type": "stop", "matched": null}),
        FinishReason::Length => json!({"type": "length", "length": usage.completion_tokens}),
        FinishReason::Abort => json!({"type": "abort", "message": "aborted"}),
    }
}

/// The SSE chunks of a streamed `/generate`: `data: {choice so far}`, then `data: [DONE]`.
pub struct NativeChunks {
    pub answer: Answer,
    pub rids: Vec<String>,
    pub outputs: Vec<ChoiceOutput>,
    /// Per choice: its prompt's logprobs were sent.
    pub input_sent: Vec<bool>,
    /// Per choice: output tokens when its last chunk was sent.
    pub sent_tokens: Vec<usize>,
}

/// A chunk goes out every step for the first tokens (64 with logprobs, 256 without), then
/// once its choice has grown by an eighth since the last one: each chunk repeats the whole
/// choice, so sending every step would cost the square of the output; this keeps it to a
/// few times the output.
fn worth_sending(total: usize, sent: usize, logprobs: bool) -> bool {
    let every_step = if logprobs { 64 } else { 256 };
    total <= every_step || (total - sent) * 8 >= total
}

impl NativeChunks {
    fn payload(&mut self, index: u32, end: Option<&Completion>) -> Vec<Payload> {
        let i = index as usize;
        let (Some(out), Some(rid)) = (self.outputs.get(i), self.rids.get(i)) else {
            return Vec::new();
        };
        let sent = self
            .input_sent
            .get_mut(i)
            .map(|s| std::mem::replace(s, true));
        let with_input = end.is_some() || sent == Some(false);
        let choice = self.answer.choice(i, rid, out, (end, with_input));
        vec![choice.to_string().into()]
    }
}

impl ChunkFormatter for NativeChunks {
    const ENDS_ABORTED_CHOICES: bool = true;

    fn chunk(
        &mut self,
        index: u32,
        token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Vec<Payload> {
        let Some(out) = self.outputs.get_mut(index as usize) else {
            return Vec::new();
        };
        if token_ids.is_empty() && text.is_empty() {
            return Vec::new();
        }
        out.text.push_str(&text);
        out.output_ids.extend_from_slice(token_ids);
        out.logprobs.extend_from_slice(logprobs);
        let total = out.output_ids.len();
        if let Some(sent) = self.sent_tokens.get_mut(index as usize) {
            if !worth_sending(total, *sent, self.answer.logprobs.is_some()) {
                return Vec::new();
            }
            *sent = total;
        }
        self.payload(index, None)
    }

    fn prompt_logprobs(&mut self, index: u32, logprobs: Vec<TokenLogprob>) {
        if let Some(out) = self.outputs.get_mut(index as usize) {
            out.prompt_logprobs = logprobs;
        }
    }

    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<Payload> {
        self.payload(index, Some(completion))
    }

    fn usage(&mut self, _usage: Usage) -> Option<Payload> {
        None
    }
}
