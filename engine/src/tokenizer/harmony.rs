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

/// The most bytes a header holds before its `<|message|>`: longer, it is no header (its text
/// is the answer's).
pub const MAX_HEADER: usize = 1024;

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
/// its `analysis` messages, their headers and ends included (a body that another header
/// interrupts ends where it starts).
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
                // Text that does not start with a header's marker, or a header past its
                // bound, is no header: a body that is not thinking (as the reader reads it).
                Some((header, _))
                    if (header.is_empty() && ![START, CHANNEL].contains(&piece.as_ref()))
                        || header.len() > MAX_HEADER + MESSAGE.len() =>
                {
                    self.header = None;
                    self.thinking = false;
                }
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
                // A header's start ends a body that was not ended, and begins the header.
                None if [START, CHANNEL].contains(&piece.as_ref()) => {
                    self.header = Some((piece.into_owned(), 1));
                    self.thinking = false;
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
    fn analysis_messages_are_counted_whole_and_nothing_else() {
        let vocab = crate::tokenizer::tests::harmony_tokenizer();
        let id = |t: &str| vocab.token_id(t).unwrap();
        let word = vocab.encode("hello", false).unwrap();
        let mut ids = vec![id(CHANNEL)];
        ids.extend(vocab.encode("analysis", false).unwrap());
        ids.push(id(MESSAGE));
        let header = ids.len();
        ids.extend(&word);
        ids.push(id(END));
        let analysis = ids.len();
        ids.push(id(START));
        ids.extend(vocab.encode("assistant", false).unwrap());
        ids.push(id(CHANNEL));
        ids.extend(vocab.encode("final", false).unwrap());
        ids.push(id(MESSAGE));
        ids.extend(&word);
        let mut count = HarmonyTokens::new();
        // Token by token, as a stream adds them.
        for &token in &ids {
            count.add(&[token], &vocab);
        }
        assert_eq!(count.count() as usize, analysis);
        // An analysis body cut by the next header counts up to it.
        let mut cut = HarmonyTokens::new();
        let mut ids = ids[..header + word.len()].to_vec();
        ids.push(id(CHANNEL));
        ids.extend(&word);
        cut.add(&ids, &vocab);
        assert_eq!(cut.count() as usize, header + word.len());
    }

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
