//! GPT-2's byte-level alphabet: every byte is written as one printable char in vocabulary
//! strings (space is `Ġ`, newline is `Ċ`). Decoding maps those chars back to bytes.

/// Code points below this bound can be alphabet chars (the remapped bytes land in 256..=323).
const TABLE_LEN: usize = 512;

/// Maps alphabet chars back to the bytes they stand for.
pub(crate) struct ByteDecoder {
    byte_of_char: [Option<u8>; TABLE_LEN],
}

impl ByteDecoder {
    pub(crate) fn new() -> Self {
        let mut byte_of_char = [None; TABLE_LEN];
        // Printable Latin-1 bytes stand for themselves; the rest are moved, in order, past 255.
        let mut next_remapped = 256usize;
        for byte in 0..=255u8 {
            let printable = matches!(byte, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
            let code_point = if printable {
                usize::from(byte)
            } else {
                next_remapped += 1;
                next_remapped - 1
            };
            byte_of_char[code_point] = Some(byte);
        }
        Self { byte_of_char }
    }

    /// Appends the bytes a vocabulary string stands for. A char outside the alphabet (a
    /// malformed vocabulary) is kept as its own UTF-8 rather than dropped.
    pub(crate) fn decode_into(&self, token: &str, out: &mut Vec<u8>) {
        for c in token.chars() {
            match self.byte_of_char.get(c as usize).copied().flatten() {
                Some(byte) => out.push(byte),
                None => {
                    let mut utf8 = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                }
            }
        }
    }

    /// The alphabet char that stands for `byte` (used by tests to build vocabularies).
    #[cfg(test)]
    pub(crate) fn char_of_byte(&self, byte: u8) -> Option<char> {
        let code_point = self.byte_of_char.iter().position(|b| *b == Some(byte))?;
        char::from_u32(u32::try_from(code_point).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_chars_map_back() {
        let decoder = ByteDecoder::new();
        let mut out = Vec::new();
        decoder.decode_into("ĠhelloĊ", &mut out);
        assert_eq!(out, b" hello\n");
        assert_eq!(decoder.char_of_byte(b' '), Some('Ġ'));
        assert_eq!(decoder.char_of_byte(b'\n'), Some('Ċ'));
        assert_eq!(decoder.char_of_byte(b'\t'), Some('ĉ'));
        assert_eq!(decoder.char_of_byte(0), Some('Ā'));
    }

    #[test]
    fn every_byte_round_trips() {
        let decoder = ByteDecoder::new();
        for byte in 0..=255u8 {
            let c = decoder.char_of_byte(byte).unwrap();
            let mut out = Vec::new();
            decoder.decode_into(&c.to_string(), &mut out);
            assert_eq!(out, [byte]);
        }
    }

    #[test]
    fn foreign_chars_pass_through() {
        let decoder = ByteDecoder::new();
        let mut out = Vec::new();
        decoder.decode_into("a😀", &mut out);
        assert_eq!(out, "a😀".as_bytes());
    }
}
