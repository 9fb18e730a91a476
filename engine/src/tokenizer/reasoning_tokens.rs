//! A thinking model's reasoning tokens (`usage.completion_tokens_details.reasoning_tokens`,
//! and what a thinking budget spends), counted from the output's tokens as they stream: the
//! tokens of the thinking block that `reasoning::split_reasoning` finds, tags included, up
//! to the one that completes its close (`</think>`; all of them when the output ends inside
//! it, none when the output has no block; an empty block still counts its tags). The tags
//! are read in the bytes the tokens show in the output text (control tokens show none but
//! the tags themselves, which the text shows), so a vocabulary that spells them in several
//! tokens counts alike.

use super::harmony::HarmonyTokens;
use super::{ThinkTags, Thinking, Tokenizer};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Blank so far, or the start of the open tag after blanks: it may still open a block.
    Lead,
    Thinking,
    /// After the block, or without one.
    Over {
        block: bool,
    },
}

#[derive(Clone, Debug)]
pub struct ReasoningTokens {
    tags: ThinkTags,
    phase: Phase,
    counted: u32,
    /// The bytes that may still hold a tag: the lead, or the end of the thinking so far.
    tail: Vec<u8>,
    /// For a harmony output (gpt-oss), its `analysis` messages' tokens instead.
    harmony: Option<HarmonyTokens>,
}

impl ReasoningTokens {
    /// Counting as the chat answer's split sees thinking: from the first token when the
    /// generation prompt opened the block (`inside`), else only a block the output opens.
    pub fn new(thinking: Thinking) -> Self {
        Self {
            tags: thinking.tags,
            phase: if thinking.inside {
                Phase::Thinking
            } else {
                Phase::Lead
            },
            counted: 0,
            tail: Vec::new(),
            harmony: None,
        }
    }

    /// Counting the tokens of a harmony output's `analysis` messages (see
    /// `harmony::HarmonyTokens`); such a counter never says it is thinking or past it.
    pub fn harmony() -> Self {
        Self {
            harmony: Some(HarmonyTokens::new()),
            ..Self::new(Thinking {
                tags: ThinkTags::XML,
                inside: false,
            })
        }
    }

    /// Counts the next `token_ids` of the output.
    pub fn add(&mut self, token_ids: &[u32], vocab: &Tokenizer) {
        if let Some(harmony) = self.harmony.as_mut() {
            harmony.add(token_ids, vocab);
            return;
        }
        for &id in token_ids {
            if let Phase::Over { .. } = self.phase {
                return;
            }
            self.counted = self.counted.saturating_add(1);
            let skip_special = !self.tags.is_control_tag(id, vocab);
            self.tail
                .extend_from_slice(vocab.piece(id, skip_special).unwrap_or_default());
            if self.phase == Phase::Lead {
                match lead(&self.tail, self.tags.open) {
                    Lead::Opened(at) => {
                        self.tail.drain(..at);
                        self.phase = Phase::Thinking;
                    }
                    Lead::Undecided => continue,
                    Lead::NoBlock => {
                        self.phase = Phase::Over { block: false };
                        continue;
                    }
                }
            }
            let close = self.tags.close.as_bytes();
            if self.tail.windows(close.len()).any(|w| w == close) {
                self.phase = Phase::Over { block: true };
            } else {
                let keep = self.tail.len().saturating_sub(close.len() - 1);
                self.tail.drain(..keep);
            }
        }
    }

    /// Whether the output is inside its thinking block now.
    pub fn thinking(&self) -> bool {
        self.phase == Phase::Thinking
    }

    /// Whether the output is past its thinking block, or has none.
    pub fn ended(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// The reasoning tokens so far.
    pub fn count(&self) -> u32 {
        if let Some(harmony) = &self.harmony {
            return harmony.count();
        }
        match self.phase {
            Phase::Thinking | Phase::Over { block: true } => self.counted,
            Phase::Lead | Phase::Over { block: false } => 0,
        }
    }
}

enum Lead {
    /// The opening tag after blank space: the thinking starts at this byte.
    Opened(usize),
    /// Blank so far (perhaps a character cut short), or a beginning of the tag after it.
    Undecided,
    NoBlock,
}

/// What the output's first bytes say of a block opened by `open`, blank space as
/// `str::trim_start` (the text split's) sees it.
fn lead(bytes: &[u8], open: &str) -> Lead {
    let (text, cut_short) = match std::str::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(e) => match std::str::from_utf8(&bytes[..e.valid_up_to()]) {
            Ok(text) => (text, e.error_len().is_none()),
            Err(_) => return Lead::NoBlock,
        },
    };
    let rest = text.trim_start();
    let blank = text.len() - rest.len();
    if rest.starts_with(open) {
        Lead::Opened(blank + open.len())
    } else if (rest.is_empty() && cut_short)
        || (text.len() == bytes.len() && open.starts_with(rest))
    {
        Lead::Undecided
    } else {
        Lead::NoBlock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::tests::small_tokenizer_with_control;

    fn count(inside: bool, vocab: &Tokenizer, chunks: &[&str]) -> u32 {
        count_tagged(ThinkTags::XML, inside, vocab, chunks)
    }

    fn count_tagged(tags: ThinkTags, inside: bool, vocab: &Tokenizer, chunks: &[&str]) -> u32 {
        let mut tokens = ReasoningTokens::new(Thinking { tags, inside });
        for chunk in chunks {
            let ids = vocab.encode_without_bos_eos(chunk, true).unwrap();
            tokens.add(&ids, vocab);
        }
        tokens.count()
    }

    fn tokens(vocab: &Tokenizer, text: &str) -> u32 {
        vocab.encode_without_bos_eos(text, true).unwrap().len() as u32
    }

    #[test]
    fn the_block_counts_up_to_the_token_that_ends_it() {
        let vocab = crate::tokenizer::tests::small_tokenizer();
        let n = |text: &str| tokens(&vocab, text);
        // The tags spelled in several tokens; the close completed at a chunk's end.
        let thinking = ["Let me see", " more</think>", " Paris."];
        assert_eq!(
            count(true, &vocab, &thinking),
            n("Let me see") + n(" more</think>")
        );
        assert_eq!(
            count(true, &vocab, &["cut", " short"]),
            n("cut") + n(" short")
        );
        // Opened by the output after blanks, which count with it.
        let opened = [" \n", "<think>", "hmm", "</think>", "Yes"];
        let expected = n(" \n") + n("<think>") + n("hmm") + n("</think>");
        assert_eq!(count(false, &vocab, &opened), expected);
        // Tags spelled across chunks; blank space as the text split sees it.
        let split = ["<thi", "nk>x</th", "ink>", "y"];
        assert_eq!(
            count(false, &vocab, &split),
            n("<thi") + n("nk>x</th") + n("ink>")
        );
        let wide = ["\u{a0}\u{3000}", "<think>x</think>"];
        assert_eq!(
            count(false, &vocab, &wide),
            n("\u{a0}\u{3000}") + n("<think>x</think>")
        );
        // No block where the output does not open with one, or only starts a tag.
        assert_eq!(count(false, &vocab, &["Yes", "<think>x</think>"]), 0);
        assert_eq!(count(false, &vocab, &[" ", "<thi"]), 0);
        // A tag that is a control token counts as its text (the output text shows it);
        // another control token shows nothing.
        let control = small_tokenizer_with_control("</think>");
        assert_eq!(
            count(true, &control, &["abc", "</think>", "x"]),
            tokens(&control, "abc") + 1
        );
        let mistral = crate::tokenizer::tests::small_tokenizer_with_controls(&[
            "[THINK]", "[/THINK]", "[INST]",
        ]);
        let chunks = ["[THINK]", "abc", "[INST]", "[/THINK]", "x"];
        assert_eq!(
            count_tagged(ThinkTags::MISTRAL, false, &mistral, &chunks),
            tokens(&mistral, "abc") + 3
        );
        assert_eq!(
            count_tagged(ThinkTags::MISTRAL, false, &mistral, &["x", "[THINK]"]),
            0
        );
    }
}
