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
    /// `null` for an echoed prompt's first token (nothing comes before it).
    pub token_logprobs: Vec<Option<f32>>,
    pub top_logprobs: Vec<Option<Map<String, Value>>>,
    /// Character offset of each token in the choice's text (the echoed prompt's, then the
    /// generated).
    pub text_offset: Vec<usize>,
}

impl CompletionLogprobs {
    pub fn append(&mut self, mut more: CompletionLogprobs) {
        self.tokens.append(&mut more.tokens);
        self.token_logprobs.append(&mut more.token_logprobs);
        self.top_logprobs.append(&mut more.top_logprobs);
        self.text_offset.append(&mut more.text_offset);
    }
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

pub(super) fn token_text(tokenizer: &Tokenizer, id: u32) -> String {
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
            self.push(tokenizer, &mut out, e.token_id, Some(e));
        }
        out
    }

    /// The echoed prompt `ids`, each scored by `scores` (the prompt log-probabilities from
    /// position 1 on); the first has nothing before it and is `null`.
    pub fn build_prompt(
        &mut self,
        tokenizer: &Tokenizer,
        ids: &[u32],
        scores: &[TokenLogprob],
    ) -> CompletionLogprobs {
        let mut out = CompletionLogprobs::default();
        let scores = std::iter::once(None).chain(scores.iter().map(Some));
        for (&id, score) in ids.iter().zip(scores.chain(std::iter::repeat(None))) {
            self.push(tokenizer, &mut out, id, score);
        }
        out
    }

    fn push(
        &mut self,
        tokenizer: &Tokenizer,
        out: &mut CompletionLogprobs,
        id: u32,
        entry: Option<&TokenLogprob>,
    ) {
        let top = entry.map(|e| {
            let mut top = Map::new();
            // OpenAI always includes the chosen token among the top entries.
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
            top
        });
        out.text_offset.push(self.offset);
        // An id outside the vocabulary has no text (the engine never samples one).
        let delta = self.text.step(tokenizer, id).unwrap_or_default();
        self.offset += delta.chars().count();
        out.tokens.push(token_text(tokenizer, id));
        out.token_logprobs.push(entry.map(|e| e.logprob));
        out.top_logprobs.push(top);
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
