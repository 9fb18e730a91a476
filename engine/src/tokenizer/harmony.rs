//! OpenAI's harmony format (gpt-oss), as far as the vocabulary and the output's tokens go:
//! its markers, whether a model speaks it, and how many of an output's tokens are thinking.
//!
//! A harmony output is a sequence of messages: a header up to `<|message|>` (a role after
//! `<|start|>`, `<|channel|>` and the channel's name, a recipient `to=…` for a call, a
//! content type), then a body up to `<|end|>`, `<|call|>` or `<|return|>`. The `analysis`
//! channel holds the thinking; `final` the answer. The markers are control tokens.

use super::Tokenizer;

pub const START: &str = "<|start|>";
pub const CHANNEL: &str = "<|channel|>";
pub const MESSAGE: &str = "<|message|>";
pub const END: &str = "<|end|>";
pub const CALL: &str = "<|call|>";
pub const RETURN: &str = "<|return|>";
pub const CONSTRAIN: &str = "<|constrain|>";

/// Every marker of the message markup.
pub const MARKERS: [&str; 7] = [START, CHANNEL, MESSAGE, END, CALL, RETURN, CONSTRAIN];

/// The channel of the thinking.
pub const ANALYSIS: &str = "analysis";

/// Whether `vocab` has harmony's markers as control tokens and the chat template `source`
/// writes its channels: the model's outputs are harmony messages.
pub fn speaks_harmony(vocab: &Tokenizer, source: &str) -> bool {
    source.contains(CHANNEL)
        && source.contains(MESSAGE)
        && MARKERS
            .iter()
            .all(|m| vocab.token_id(m).is_some_and(|id| vocab.is_special(id)))
}

/// The markers' control tokens in `vocab`: a chat output must show them to be read.
pub fn control_tokens(vocab: &Tokenizer) -> Vec<u32> {
    MARKERS
        .iter()
        .filter_map(|m| vocab.token_id(m).filter(|&id| vocab.is_special(id)))
        .collect()
}

/// The channel a message header names (the word after `<|channel|>`), if any.
pub fn header_channel(header: &str) -> Option<&str> {
    let after = &header[header.find(CHANNEL)? + CHANNEL.len()..];
    let end = after
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(after.len());
    Some(&after[..end])
}

/// The reasoning tokens of a harmony output, counted as its tokens stream: every token of
/// its `analysis` messages, their headers and ends included.
#[derive(Clone, Debug, Default)]
pub struct HarmonyTokens {
    /// The current message's header so far (markers as their text) and its tokens; `None`
    /// inside a body.
    header: Option<(String, u32)>,
    /// Whether the body being read is thinking.
    thinking: bool,
    counted: u32,
}

impl HarmonyTokens {
    pub fn new() -> Self {
        Self {
            header: Some((String::new(), 0)),
            thinking: false,
            counted: 0,
        }
    }

    /// Counts the next `token_ids` of the output.
    pub fn add(&mut self, token_ids: &[u32], vocab: &Tokenizer) {
        for &id in token_ids {
            let piece = vocab.piece(id, false).unwrap_or_default();
            let piece = String::from_utf8_lossy(piece);
            match &mut self.header {
                Some((header, tokens)) => {
                    header.push_str(&piece);
                    *tokens += 1;
                    if piece == MESSAGE {
                        self.thinking = header_channel(header) == Some(ANALYSIS);
                        if self.thinking {
                            self.counted = self.counted.saturating_add(*tokens);
                        }
                        self.header = None;
                    }
                }
                None => {
                    if self.thinking {
                        self.counted = self.counted.saturating_add(1);
                    }
                    if [END, CALL, RETURN].contains(&piece.as_ref()) {
                        self.header = Some((String::new(), 0));
                        self.thinking = false;
                    }
                }
            }
        }
    }

    /// The reasoning tokens so far.
    pub fn count(&self) -> u32 {
        self.counted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_name_their_channels() {
        assert_eq!(header_channel("<|channel|>analysis"), Some("analysis"));
        assert_eq!(
            header_channel(
                "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json"
            ),
            Some("commentary")
        );
        assert_eq!(header_channel("<|start|>assistant"), None);
    }
}
