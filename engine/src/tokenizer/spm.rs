//! SentencePiece vocabularies (`tokenizer.ggml.model == "llama"`: Llama 2, Mistral, Gemma):
//! pieces with scores, spaces written as `▁`, and `<0xXX>` byte tokens for what no piece
//! covers. Encoding is llama.cpp's: start from single characters, repeatedly merge the
//! adjacent pair whose concatenation is the highest-scoring piece (leftmost on ties), then
//! spell each symbol as its piece (every merge makes one) or, for a character no piece
//! holds, as byte tokens.

use super::special::skip_space;
use super::{Result, TokenKind, TokenizerError};
use aho_corasick::{AhoCorasick, MatchKind};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// SentencePiece's visible space.
pub(super) const SPACE: &str = "\u{2581}";

pub(super) struct Spm {
    ids: FxHashMap<String, u32>,
    scores: Vec<f32>,
    byte_ids: [Option<u32>; 256],
    unk: Option<u32>,
    add_space_prefix: bool,
    /// Special tokens that swallow the whitespace after them (`special::rstrip_ids`).
    rstrip: FxHashSet<u32>,
    /// Tokens split out of raw text before encoding: with and without control tokens
    /// (user-defined ones always are, as in llama.cpp).
    with_control: Option<Splitter>,
    without_control: Option<Splitter>,
}

struct Splitter {
    matcher: AhoCorasick,
    ids: Vec<u32>,
}

impl Splitter {
    fn new(
        texts: &[String],
        keep: impl Fn(TokenKind) -> bool,
        kinds: &[TokenKind],
    ) -> Result<Option<Self>> {
        let (patterns, ids): (Vec<&str>, Vec<u32>) = texts
            .iter()
            .zip(kinds)
            .enumerate()
            .filter(|(_, (text, kind))| !text.is_empty() && keep(**kind))
            .filter_map(|(id, (text, _))| Some((text.as_str(), u32::try_from(id).ok()?)))
            .unzip();
        if patterns.is_empty() {
            return Ok(None);
        }
        let matcher = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&patterns)
            .map_err(|e| TokenizerError::Backend(format!("special tokens: {e}")))?;
        Ok(Some(Self { matcher, ids }))
    }
}

/// A run of characters being merged: `text[start..start + len]`, linked to its neighbours.
#[derive(Clone, Copy)]
struct Symbol {
    start: usize,
    len: usize,
    prev: Option<usize>,
    next: Option<usize>,
}

/// A candidate merge of two adjacent symbols into a piece of `score`.
struct Bigram {
    score: f32,
    left: usize,
    right: usize,
    len: usize,
}

impl PartialEq for Bigram {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Bigram {}

impl PartialOrd for Bigram {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Bigram {
    /// The heap pops the highest score first, the leftmost pair among equals.
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then_with(|| other.left.cmp(&self.left))
    }
}

impl Spm {
    pub(super) fn new(
        texts: &[String],
        kinds: &[TokenKind],
        scores: Option<Vec<f32>>,
        unk: Option<u32>,
        add_space_prefix: bool,
        rstrip: FxHashSet<u32>,
    ) -> Result<Self> {
        let scores = scores.unwrap_or_else(|| vec![0.0; texts.len()]);
        if scores.len() != texts.len() {
            return Err(TokenizerError::InvalidMetadata(format!(
                "{} scores for {} tokens",
                scores.len(),
                texts.len()
            )));
        }
        let mut ids = FxHashMap::default();
        let mut byte_ids = [None; 256];
        for (id, (text, kind)) in texts.iter().zip(kinds).enumerate() {
            let Ok(id) = u32::try_from(id) else { break };
            // The first of duplicate texts wins, as in llama.cpp's map.
            ids.entry(text.clone()).or_insert(id);
            if *kind == TokenKind::Byte {
                if let Some(byte) = parse_byte_token(text) {
                    byte_ids[usize::from(byte)] = Some(id);
                }
            }
        }
        Ok(Self {
            with_control: Splitter::new(
                texts,
                |k| {
                    matches!(
                        k,
                        TokenKind::Control | TokenKind::Unknown | TokenKind::UserDefined
                    )
                },
                kinds,
            )?,
            without_control: Splitter::new(texts, |k| k == TokenKind::UserDefined, kinds)?,
            ids,
            scores,
            byte_ids,
            unk,
            add_space_prefix,
            rstrip,
        })
    }

    pub(super) fn token_id(&self, text: &str) -> Option<u32> {
        self.ids.get(text).copied()
    }

    /// Encodes `text`: special tokens split out first, each raw run after a special token (or
    /// at the start) prefixed with a space when the vocabulary asks for it.
    pub(super) fn encode(&self, text: &str, parse_special: bool, out: &mut Vec<u32>) {
        let splitter = if parse_special {
            &self.with_control
        } else {
            &self.without_control
        };
        let mut run_start = 0;
        let mut prev_special = true;
        if let Some(s) = splitter {
            for m in s.matcher.find_iter(text) {
                if m.start() < run_start {
                    // Inside whitespace a token before it swallowed (no special text starts
                    // with whitespace, so this does not happen with real vocabularies).
                    continue;
                }
                if m.start() > run_start {
                    self.encode_raw(&text[run_start..m.start()], prev_special, out);
                }
                let id = s.ids.get(m.pattern().as_usize()).copied();
                out.extend(id);
                prev_special = true;
                run_start = match id {
                    Some(id) if self.rstrip.contains(&id) => skip_space(text, m.end()),
                    _ => m.end(),
                };
            }
        }
        if run_start < text.len() {
            self.encode_raw(&text[run_start..], prev_special, out);
        }
    }

    fn encode_raw(&self, raw: &str, prev_special: bool, out: &mut Vec<u32>) {
        let mut text = String::with_capacity(raw.len() * 3 / 2 + 3);
        if self.add_space_prefix && prev_special {
            text.push_str(SPACE);
        }
        text.push_str(&raw.replace(' ', SPACE));
        let mut symbols: Vec<Symbol> = Vec::with_capacity(text.len());
        for (i, (start, ch)) in text.char_indices().enumerate() {
            symbols.push(Symbol {
                start,
                len: ch.len_utf8(),
                prev: i.checked_sub(1),
                next: Some(i + 1),
            });
        }
        if let Some(last) = symbols.last_mut() {
            last.next = None;
        }
        let mut queue = BinaryHeap::new();
        for i in 1..symbols.len() {
            self.push_bigram(&text, &symbols, i - 1, i, &mut queue);
        }
        while let Some(b) = queue.pop() {
            let (left, right) = (symbols[b.left], symbols[b.right]);
            // Stale: one side was merged away or grew since this pair was queued.
            if left.len == 0 || right.len == 0 || left.len + right.len != b.len {
                continue;
            }
            symbols[b.left].len += right.len;
            symbols[b.right].len = 0;
            symbols[b.left].next = right.next;
            if let Some(next) = right.next {
                symbols[next].prev = Some(b.left);
            }
            if let Some(prev) = left.prev {
                self.push_bigram(&text, &symbols, prev, b.left, &mut queue);
            }
            if let Some(next) = right.next {
                self.push_bigram(&text, &symbols, b.left, next, &mut queue);
            }
        }
        let mut at = if symbols.is_empty() { None } else { Some(0) };
        while let Some(i) = at {
            let s = symbols[i];
            let piece = &text[s.start..s.start + s.len];
            match self.ids.get(piece) {
                Some(&id) => out.push(id),
                None => self.bytes(piece, out),
            }
            at = s.next;
        }
    }

    fn push_bigram(
        &self,
        text: &str,
        symbols: &[Symbol],
        left: usize,
        right: usize,
        queue: &mut BinaryHeap<Bigram>,
    ) {
        let start = symbols[left].start;
        let len = symbols[left].len + symbols[right].len;
        let Some(&id) = text.get(start..start + len).and_then(|p| self.ids.get(p)) else {
            return;
        };
        queue.push(Bigram {
            score: self.scores.get(id as usize).copied().unwrap_or(0.0),
            left,
            right,
            len,
        });
    }

    /// A piece no token holds, as byte tokens (or, without them, the one-character piece of
    /// an ASCII byte, or UNK).
    fn bytes(&self, piece: &str, out: &mut Vec<u32>) {
        for &byte in piece.as_bytes() {
            // A byte past ASCII is part of a longer UTF-8 sequence, not the Latin-1 character
            // of its value (0xE4 of "中" is not "ä").
            let ascii_piece = || {
                byte.is_ascii()
                    .then(|| self.ids.get(&char::from(byte).to_string()).copied())
                    .flatten()
            };
            let id = self.byte_ids[usize::from(byte)]
                .or_else(ascii_piece)
                .or(self.unk);
            out.extend(id);
        }
    }
}

/// `<0xAB>` -> 0xAB.
pub(super) fn parse_byte_token(text: &str) -> Option<u8> {
    let hex = text.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}
