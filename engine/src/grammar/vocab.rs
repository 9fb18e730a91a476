//! The vocabulary as llguidance sees it: every token's bytes (control tokens marked with
//! 0xFF before their text, so a grammar produces them only where it names them), all stop
//! tokens as end-of-sequence, and our own tokenizer for the text a grammar forces.

use crate::tokenizer::Tokenizer;
use llguidance::toktrie::{TokEnv, TokRxInfo, TokTrie, TokenId, TokenizerEnv};
use std::sync::Arc;

struct EngineTokEnv {
    trie: TokTrie,
    tokenizer: Arc<Tokenizer>,
}

impl TokenizerEnv for EngineTokEnv {
    fn tok_trie(&self) -> &TokTrie {
        &self.trie
    }

    /// Forced text is encoded as our BPE would (control-token text stays text); bytes that
    /// are not UTF-8 fall back to the trie's greedy tokenization.
    fn tokenize_bytes(&self, bytes: &[u8]) -> Vec<TokenId> {
        self.trie.tokenize_with_greedy_fallback(bytes, |text| {
            self.tokenizer
                .encode_without_bos_eos(text, false)
                .unwrap_or_else(|_| self.trie.greedy_tokenize(text.as_bytes()))
        })
    }
}

/// The environment for `tokenizer` over logits rows of `logits_width` entries (ids past the
/// vocabulary are padding no grammar can produce).
pub(super) fn tok_env(tokenizer: Arc<Tokenizer>, logits_width: usize) -> Result<TokEnv, String> {
    let vocab = tokenizer.vocab_size();
    if logits_width < vocab {
        return Err(format!(
            "logits rows of {logits_width} are narrower than the vocabulary of {vocab}"
        ));
    }
    let mut words: Vec<Vec<u8>> = Vec::with_capacity(logits_width);
    for id in 0..vocab as u32 {
        let piece = tokenizer.token_to_piece(id).map_err(|e| e.to_string())?;
        if tokenizer.is_special(id) {
            let mut word = vec![TokTrie::SPECIAL_TOKEN_MARKER];
            word.extend_from_slice(piece);
            words.push(word);
        } else {
            words.push(piece.to_vec());
        }
    }
    for id in vocab..logits_width {
        let mut word = vec![TokTrie::SPECIAL_TOKEN_MARKER];
        word.extend_from_slice(format!("<[{id}]>").as_bytes());
        words.push(word);
    }
    let stops = tokenizer.stop_token_ids();
    let eos = tokenizer
        .eos_token_id()
        .or_else(|| stops.first().copied())
        .ok_or("the model has no end-of-sequence token")?;
    let mut all_eos = vec![eos];
    all_eos.extend(stops.iter().copied().filter(|&t| t != eos));
    let info = TokRxInfo::new(words.len() as u32, eos);
    let trie = TokTrie::from(&info, &words).with_eos_tokens(&all_eos);
    Ok(Arc::new(EngineTokEnv { trie, tokenizer }))
}
