//! Control tokens in rendered chat prompts: only the template may write them.
//!
//! A rendered conversation is template text with each message's content spliced in. Control
//! tokens (`<|im_start|>`) found in the template text become their ids; the same text inside
//! a message's content stays text, so a user cannot forge turns. Between the template's
//! control tokens the text is encoded as the plain tokenizer would, so an honest
//! conversation gets exactly the ids of encoding the whole rendering with control tokens on.

use super::{Result, TokenKind, Tokenizer, TokenizerError};
use aho_corasick::{AhoCorasick, MatchKind};
use rustc_hash::FxHashSet;
use std::ops::Range;

/// Special tokens that swallow the whitespace after them, llama.cpp's rule for Phi-3: in a
/// model whose `general.name` says Phi-3, every control, user-defined and unknown token except
/// `<unk>`, `<s>` and `<|endoftext|>` (Phi-3's own tokens carry `rstrip` in their tokenizer).
pub(super) fn rstrip_ids(
    name: Option<&str>,
    texts: &[String],
    kinds: &[TokenKind],
) -> FxHashSet<u32> {
    const KEEP_SPACE: [&str; 3] = ["<unk>", "<s>", "<|endoftext|>"];
    let name = name.unwrap_or("").to_lowercase();
    if !(name.contains("phi-3") || name.contains("phi3")) {
        return FxHashSet::default();
    }
    texts
        .iter()
        .zip(kinds)
        .enumerate()
        .filter(|(_, (text, kind))| {
            matches!(
                kind,
                TokenKind::Control | TokenKind::UserDefined | TokenKind::Unknown
            ) && !KEEP_SPACE.contains(&text.as_str())
        })
        .filter_map(|(id, _)| u32::try_from(id).ok())
        .collect()
}

/// Where the text after a special token starts once its whitespace is swallowed (C's
/// `isspace`, as llama.cpp strips).
pub(super) fn skip_space(text: &str, from: usize) -> usize {
    let rest = text.get(from..).unwrap_or("");
    let spaces = rest
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .count();
    from + spaces
}

/// Finds control-token texts, leftmost-longest (as the tokenizer's own added-token split).
pub(super) struct SpecialMatcher {
    matcher: Option<AhoCorasick>,
    /// Token id of each pattern.
    ids: Vec<u32>,
    /// Tokens that swallow the whitespace after them ([`rstrip_ids`]).
    rstrip: FxHashSet<u32>,
}

impl SpecialMatcher {
    pub fn new(texts: &[String], kinds: &[TokenKind], rstrip: FxHashSet<u32>) -> Result<Self> {
        let (patterns, ids): (Vec<&str>, Vec<u32>) = texts
            .iter()
            .zip(kinds)
            .enumerate()
            .filter(|(_, (text, kind))| {
                !text.is_empty() && matches!(kind, TokenKind::Control | TokenKind::Unknown)
            })
            .filter_map(|(id, (text, _))| Some((text.as_str(), u32::try_from(id).ok()?)))
            .unzip();
        let matcher = if patterns.is_empty() {
            None
        } else {
            Some(
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&patterns)
                    .map_err(|e| TokenizerError::Backend(format!("control tokens: {e}")))?,
            )
        };
        Ok(Self {
            matcher,
            ids,
            rstrip,
        })
    }

    /// Control tokens in `text`: (byte range, id), in order, not overlapping.
    fn find(&self, text: &str) -> Vec<(Range<usize>, u32)> {
        let Some(matcher) = &self.matcher else {
            return Vec::new();
        };
        matcher
            .find_iter(text)
            .filter_map(|m| Some((m.range(), *self.ids.get(m.pattern().as_usize())?)))
            .collect()
    }
}

impl Tokenizer {
    /// Encodes a rendered chat prompt (no BOS/EOS added): control tokens are parsed in the
    /// template's text only; `content` (sorted, disjoint byte ranges of `text`) is text.
    pub fn encode_chat(&self, text: &str, content: &[Range<usize>]) -> Result<Vec<u32>> {
        let mut ids = Vec::with_capacity(text.len() / 3 + 2);
        let mut run_start = 0;
        let mut parts = Vec::with_capacity(content.len() + 1);
        let mut template_start = 0;
        for range in content {
            if range.start < template_start || range.end < range.start || range.end > text.len() {
                return Err(TokenizerError::Backend(format!(
                    "chat content range {range:?} is out of order or outside the text"
                )));
            }
            parts.push(template_start..range.start);
            template_start = range.end;
        }
        parts.push(template_start..text.len());
        for part in parts {
            let Some(piece) = text.get(part.clone()) else {
                return Err(TokenizerError::Backend(format!(
                    "chat template part {part:?} is not on character boundaries"
                )));
            };
            for (range, id) in self.special.find(piece) {
                let (start, end) = (part.start + range.start, part.start + range.end);
                if start > run_start {
                    ids.extend(self.encode_without_bos_eos(&text[run_start..start], false)?);
                }
                ids.push(id);
                run_start = if self.special.rstrip.contains(&id) {
                    skip_space(text, end)
                } else {
                    end
                };
            }
        }
        if run_start < text.len() {
            ids.extend(self.encode_without_bos_eos(&text[run_start..], false)?);
        }
        Ok(ids)
    }

    /// Whether `text` holds the text of a control token.
    pub fn contains_control_token(&self, text: &str) -> bool {
        !self.special.find(text).is_empty()
    }

    /// Bytes of the longest token: a text of `n` bytes has at least `n / max_token_bytes`
    /// tokens, which refuses an oversized prompt before encoding it.
    pub fn max_token_bytes(&self) -> usize {
        self.max_token_bytes
    }
}
