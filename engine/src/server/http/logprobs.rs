//! The engine's per-token logprobs in OpenAI's two shapes: the legacy completions one
//! (parallel arrays and `{token: logprob}` maps) and the chat one (a list of token objects
//! with their UTF-8 bytes, since a byte-level token may be part of a character).

use crate::handle::TokenLogprob;
use crate::tokenizer::{DecodeStream, Tokenizer};
use serde::Serialize;
use serde_json::{Map, Value};

/// `/v1/completions` logprobs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CompletionLogprobs {
    pub tokens: Vec<String>,
    pub token_logprobs: Vec<f32>,
    pub top_logprobs: Vec<Map<String, Value>>,
    /// Character offset of each token in the generated text.
    pub text_offset: Vec<usize>,
}

/// `/v1/chat/completions` logprobs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ChatLogprobs {
    pub content: Vec<ChatTokenLogprob>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChatTokenLogprob {
    pub token: String,
    pub logprob: f32,
    pub bytes: Vec<u8>,
    pub top_logprobs: Vec<TopLogprob>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TopLogprob {
    pub token: String,
    pub logprob: f32,
    pub bytes: Vec<u8>,
}

fn piece(tokenizer: &Tokenizer, id: u32) -> Vec<u8> {
    tokenizer
        .token_to_piece(id)
        .map(<[u8]>::to_vec)
        .unwrap_or_default()
}

fn token_text(tokenizer: &Tokenizer, id: u32) -> String {
    String::from_utf8_lossy(&piece(tokenizer, id)).into_owned()
}

/// Builds one choice's completions logprobs chunk by chunk; offsets continue across chunks.
/// A token's offset counts the characters of the choice's text before it: the tokens go
/// through a decode stream as the engine's own detokenizer does (a character split over
/// tokens counts once, when complete; control tokens add nothing unless the request keeps
/// them, `skip_special_tokens: false`).
#[derive(Debug)]
pub struct CompletionLogprobsBuilder {
    /// Characters of text so far.
    offset: usize,
    text: DecodeStream,
}

impl CompletionLogprobsBuilder {
    /// For a request whose text skips control tokens (`skip_special`) or keeps them.
    pub fn new(skip_special: bool) -> Self {
        Self {
            offset: 0,
            // As the scheduler decodes the request's output.
            text: DecodeStream::new(skip_special),
        }
    }

    pub fn build(&mut self, tokenizer: &Tokenizer, entries: &[TokenLogprob]) -> CompletionLogprobs {
        let mut out = CompletionLogprobs::default();
        for e in entries {
            let text = token_text(tokenizer, e.token_id);
            let mut top = Map::new();
            // OpenAI always includes the sampled token among the top entries.
            for &(id, lp) in e
                .top
                .iter()
                .chain(std::iter::once(&(e.token_id, e.logprob)))
            {
                let key = token_text(tokenizer, id);
                if !top.contains_key(&key) {
                    top.insert(key, json_f32(lp));
                }
            }
            out.text_offset.push(self.offset);
            // An id outside the vocabulary has no text (the engine never samples one).
            let delta = self.text.step(tokenizer, e.token_id).unwrap_or_default();
            self.offset += delta.chars().count();
            out.tokens.push(text);
            out.token_logprobs.push(e.logprob);
            out.top_logprobs.push(top);
        }
        out
    }
}

/// Chat logprobs of `entries`; `top` is how many candidates the client asked for.
pub fn chat_logprobs(tokenizer: &Tokenizer, entries: &[TokenLogprob], top: usize) -> ChatLogprobs {
    let content = entries
        .iter()
        .map(|e| {
            let bytes = piece(tokenizer, e.token_id);
            ChatTokenLogprob {
                token: String::from_utf8_lossy(&bytes).into_owned(),
                logprob: e.logprob,
                bytes,
                top_logprobs: e
                    .top
                    .iter()
                    .take(top)
                    .map(|&(id, logprob)| {
                        let bytes = piece(tokenizer, id);
                        TopLogprob {
                            token: String::from_utf8_lossy(&bytes).into_owned(),
                            logprob,
                            bytes,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    ChatLogprobs { content }
}

/// JSON has no infinities: an impossible token's logprob becomes `null`, as serde does for
/// plain `f32` fields. Going through the shortest decimal keeps `-0.25`, not f64 noise.
fn json_f32(v: f32) -> Value {
    v.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}
