//! A thinking budget: once a thinking model's block has taken its tokens (as usage counts
//! them, see [`ReasoningTokens`]), its close (`</think>` or `[/THINK]`) is written for it
//! (forced, as a grammar's jump-forward is) and it answers. The grammar around it
//! (`GrammarSpec::AfterThinking`) still ends the block wherever the model writes the close.

use crate::tokenizer::{ReasoningTokens, Thinking, Tokenizer};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct ThinkingBudget {
    tokens: u32,
    spent: ReasoningTokens,
    /// The tokens of the close, forced when the budget is spent.
    close: Arc<[u32]>,
    vocab: Arc<Tokenizer>,
}

impl ThinkingBudget {
    /// A budget of `tokens` (at least 1: a budget of 0 is the grammar's) for an output
    /// that starts as `thinking` says.
    pub fn new(thinking: Thinking, tokens: u32, close: Arc<[u32]>, vocab: Arc<Tokenizer>) -> Self {
        Self {
            tokens,
            spent: ReasoningTokens::new(thinking),
            close,
            vocab,
        }
    }

    /// Whether the output is past its thinking block (or has none).
    pub fn ended(&self) -> bool {
        self.spent.ended()
    }

    /// Reads the output's next tokens; returns the tokens to force now when the budget is
    /// spent inside the block (the caller reads them back through this too).
    pub fn read(&mut self, tokens: &[u32]) -> Option<Arc<[u32]>> {
        self.spent.add(tokens, &self.vocab);
        (self.spent.thinking() && self.spent.count() >= self.tokens).then(|| self.close.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::ThinkTags;

    /// The number of pieces after which `budget` forces the close, if it does.
    fn forced_after(inside: bool, tokens: u32, pieces: &[&str]) -> Option<usize> {
        let vocab = Arc::new(crate::tokenizer::tests::small_tokenizer());
        let close: Arc<[u32]> = vocab
            .encode_without_bos_eos(ThinkTags::XML.close, true)
            .unwrap()
            .into();
        let thinking = Thinking {
            tags: ThinkTags::XML,
            inside,
        };
        let mut budget = ThinkingBudget::new(thinking, tokens, close.clone(), vocab.clone());
        for (at, piece) in pieces.iter().enumerate() {
            for id in vocab.encode_without_bos_eos(piece, true).unwrap() {
                if budget.read(&[id]).is_some() {
                    // Forced once: the close read back ends the block.
                    assert!(budget.read(&close).is_none());
                    assert!(budget.read(&[id]).is_none());
                    return Some(at + 1);
                }
            }
        }
        None
    }

    #[test]
    fn the_close_is_forced_once_the_block_has_taken_its_tokens() {
        assert_eq!(forced_after(true, 3, &["a", "b", "c", "d"]), Some(3));
        assert_eq!(forced_after(true, 1, &["a", "b"]), Some(1));
    }

    #[test]
    fn a_block_the_model_closes_itself_costs_nothing_more() {
        // The small vocabulary spells the close in several tokens: the budget leaves room.
        let mut pieces = vec!["a", "</think>"];
        pieces.extend(["x"; 40]);
        assert_eq!(forced_after(true, 20, &pieces), None);
    }

    #[test]
    fn a_block_the_output_opens_counts_its_opening_too() {
        let opened = ["<think>", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        let forced = forced_after(false, 8, &opened).unwrap();
        assert!((2..=9).contains(&forced), "{forced}");
        // No block: nothing to count.
        assert_eq!(forced_after(false, 2, &["Paris", "a", "b", "c"]), None);
    }
}
