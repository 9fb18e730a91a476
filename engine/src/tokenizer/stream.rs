//! Incremental detokenization for streaming: one [`DecodeStream`] per request.
//!
//! Every byte-level BPE token is a fixed byte string, so the stream keeps only the bytes of a
//! UTF-8 character that is not complete yet (at most 3) and emits everything before them. No
//! earlier token is decoded again: a step costs O(bytes of the new token).

use super::{Result, Tokenizer};

/// Turns generated ids into text deltas that never split a UTF-8 character.
///
/// The concatenation of all deltas from [`step`](Self::step) followed by
/// [`finish`](Self::finish) equals `tokenizer.decode(all_ids, skip_special)`, invalid bytes
/// included (each becomes U+FFFD exactly where `decode` puts one).
#[derive(Clone, Debug, Default)]
pub struct DecodeStream {
    skip_special: bool,
    /// Control tokens shown even with `skip_special`.
    shown: Vec<u32>,
    /// Bytes of a character whose remaining bytes have not arrived yet.
    pending: Vec<u8>,
}

impl DecodeStream {
    /// With `skip_special`, control tokens produce no text.
    pub fn new(skip_special: bool) -> Self {
        Self::showing(skip_special, Vec::new())
    }

    /// As [`new`](Self::new), but the control tokens `shown` always produce their text.
    pub fn showing(skip_special: bool, shown: Vec<u32>) -> Self {
        Self {
            skip_special,
            shown,
            pending: Vec::with_capacity(8),
        }
    }

    /// Adds one generated id; returns the text it completes (empty while a character is still
    /// incomplete, or for a skipped control token).
    pub fn step(&mut self, tokenizer: &Tokenizer, id: u32) -> Result<String> {
        let piece = tokenizer.piece(id, self.skip_special && !self.shown.contains(&id))?;
        if self.pending.is_empty() {
            // Common case: a whole-character piece goes out without touching the buffer.
            if let Ok(text) = std::str::from_utf8(piece) {
                return Ok(text.to_string());
            }
        }
        self.pending.extend_from_slice(piece);
        Ok(self.drain_complete())
    }

    /// Adds several ids; returns the text they complete.
    pub fn step_all(&mut self, tokenizer: &Tokenizer, ids: &[u32]) -> Result<String> {
        let mut text = String::new();
        for &id in ids {
            text.push_str(&self.step(tokenizer, id)?);
        }
        Ok(text)
    }

    /// Ends the stream: bytes of a character that never completed become one U+FFFD (as
    /// `decode` renders them). Returns an empty string when nothing is pending.
    pub fn finish(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        text
    }

    /// Whether bytes of an incomplete character are held back.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Emits the longest prefix of `pending` that can no longer change: complete characters,
    /// and U+FFFD for byte sequences that are already invalid whatever comes next.
    fn drain_complete(&mut self) -> String {
        let mut text = String::new();
        let mut consumed = 0;
        while consumed < self.pending.len() {
            match std::str::from_utf8(&self.pending[consumed..]) {
                Ok(valid) => {
                    text.push_str(valid);
                    consumed = self.pending.len();
                }
                Err(err) => {
                    let valid_end = consumed + err.valid_up_to();
                    if let Ok(valid) = std::str::from_utf8(&self.pending[consumed..valid_end]) {
                        text.push_str(valid);
                    }
                    match err.error_len() {
                        Some(invalid_len) => {
                            text.push(char::REPLACEMENT_CHARACTER);
                            consumed = valid_end + invalid_len;
                        }
                        // An incomplete character at the end: wait for more bytes.
                        None => {
                            consumed = valid_end;
                            break;
                        }
                    }
                }
            }
        }
        self.pending.drain(..consumed);
        text
    }
}
