//! The engine's per-token logprobs in OpenAI's two shapes: the legacy completions one
//! (parallel arrays and `{token: logprob}` maps) and the chat one (a list of token objects
//! with their UTF-8 bytes, since a byte-level token may be part of a character).

use crate::handle::TokenLogprob;
use crate::tokenizer::Tokenizer;
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
/// A token's offset counts the characters of the text before it, as decoded: the bytes of a
/// character split over several tokens count once, when it is complete.
#[derive(Debug, Default)]
pub struct CompletionLogprobsBuilder {
    /// Characters completed so far.
    offset: usize,
    /// The bytes of a character still incomplete at the end of the last token.
    partial: Vec<u8>,
}

impl CompletionLogprobsBuilder {
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
            self.advance(&piece(tokenizer, e.token_id));
            out.tokens.push(text);
            out.token_logprobs.push(e.logprob);
            out.top_logprobs.push(top);
        }
        out
    }
}

impl CompletionLogprobsBuilder {
    /// Counts the characters `bytes` complete; keeps an incomplete last one for the next
    /// token. Invalid bytes count as one character each (a replacement character).
    fn advance(&mut self, bytes: &[u8]) {
        self.partial.extend_from_slice(bytes);
        let mut rest = self.partial.as_slice();
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    self.offset += valid.chars().count();
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    self.offset += std::str::from_utf8(valid).map_or(0, |v| v.chars().count());
                    match e.error_len() {
                        // Cut off at the end: wait for the next token's bytes.
                        None => {
                            rest = after;
                            break;
                        }
                        Some(bad) => {
                            self.offset += 1;
                            rest = &after[bad..];
                        }
                    }
                }
            }
        }
        self.partial = rest.to_vec();
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

#[cfg(test)]
mod tests {
    use super::CompletionLogprobsBuilder;

    /// The offsets before each of `pieces`, and the characters after the last.
    fn offsets(pieces: &[&[u8]]) -> (Vec<usize>, usize) {
        let mut builder = CompletionLogprobsBuilder::default();
        let before = pieces
            .iter()
            .map(|piece| {
                let at = builder.offset;
                builder.advance(piece);
                at
            })
            .collect();
        (before, builder.offset)
    }

    #[test]
    fn offsets_count_decoded_characters() {
        assert_eq!(offsets(&[b"He", b"llo", b" w"]), (vec![0, 2, 5], 7));
        // "é" (C3 A9) split over two tokens counts once, when complete; "→" (E2 86 92)
        // over three.
        assert_eq!(
            offsets(&[b"a\xc3", b"\xa9b", b"\xe2", b"\x86", b"\x92", b"c"]),
            (vec![0, 1, 3, 3, 3, 4], 5)
        );
        // A byte that can start no character counts as one (a replacement character), as
        // does a sequence broken by the next token.
        assert_eq!(
            offsets(&[b"\xff", b"x", b"\xc3", b"y"]),
            (vec![0, 1, 2, 2], 4)
        );
    }
}
