//! A bounds-checked little-endian cursor over the file's bytes: the GGUF primitive encodings
//! (fixed-width numbers, length-prefixed strings, element counts).
//!
//! Every read checks the bytes left first, so a hostile length or count becomes an error
//! before anything is allocated or indexed.

use super::error::GgufError;

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Current offset from the start of the file.
    pub(crate) fn offset(&self) -> u64 {
        self.pos as u64
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// The next `n` bytes; an error (not a panic) if fewer are left.
    pub(crate) fn take(&mut self, n: u64, what: &str) -> Result<&'a [u8], GgufError> {
        let available = self.remaining();
        let slice = usize::try_from(n)
            .ok()
            .filter(|&n| n <= available)
            .and_then(|n| self.bytes.get(self.pos..self.pos + n));
        match slice {
            Some(slice) => {
                self.pos += slice.len();
                Ok(slice)
            }
            None => Err(GgufError::Truncated {
                what: what.to_owned(),
                offset: self.offset(),
                needed: n,
                available: available as u64,
            }),
        }
    }

    fn fixed<const N: usize>(&mut self, what: &str) -> Result<[u8; N], GgufError> {
        let offset = self.offset();
        let slice = self.take(N as u64, what)?;
        <[u8; N]>::try_from(slice).map_err(|_| GgufError::Truncated {
            what: what.to_owned(),
            offset,
            needed: N as u64,
            available: slice.len() as u64,
        })
    }

    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, GgufError> {
        Ok(u8::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn i8(&mut self, what: &str) -> Result<i8, GgufError> {
        Ok(i8::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn u16(&mut self, what: &str) -> Result<u16, GgufError> {
        Ok(u16::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn i16(&mut self, what: &str) -> Result<i16, GgufError> {
        Ok(i16::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn i32(&mut self, what: &str) -> Result<i32, GgufError> {
        Ok(i32::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn u64(&mut self, what: &str) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn i64(&mut self, what: &str) -> Result<i64, GgufError> {
        Ok(i64::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn f32(&mut self, what: &str) -> Result<f32, GgufError> {
        Ok(f32::from_le_bytes(self.fixed(what)?))
    }

    pub(crate) fn f64(&mut self, what: &str) -> Result<f64, GgufError> {
        Ok(f64::from_le_bytes(self.fixed(what)?))
    }

    /// A GGUF string: u64 byte length, then that many UTF-8 bytes.
    pub(crate) fn string(&mut self, what: &str) -> Result<String, GgufError> {
        let len = self.u64(what)?;
        let offset = self.offset();
        let bytes = self.take(len, what)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => Err(GgufError::InvalidUtf8 {
                what: what.to_owned(),
                offset,
            }),
        }
    }

    /// A u64 element count whose entries take at least `min_entry_bytes` each: checked against
    /// the bytes left so that callers may allocate `count` entries up front.
    pub(crate) fn count(&mut self, min_entry_bytes: u64, what: &str) -> Result<usize, GgufError> {
        let offset = self.offset();
        let count = self.u64(what)?;
        let available = self.remaining() as u64;
        let fits = count
            .checked_mul(min_entry_bytes)
            .is_some_and(|needed| needed <= available);
        match usize::try_from(count) {
            Ok(count) if fits => Ok(count),
            _ => Err(GgufError::CountTooLarge {
                what: what.to_owned(),
                offset,
                count,
                min_entry_bytes,
                available,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_stops_at_the_end() {
        let mut r = Reader::new(&[1, 0, 0, 0, 2]);
        assert_eq!(r.u32("x").unwrap(), 1);
        assert!(matches!(
            r.u16("y"),
            Err(GgufError::Truncated {
                offset: 4,
                needed: 2,
                available: 1,
                ..
            })
        ));
        // A failed read consumes nothing.
        assert_eq!(r.u8("z").unwrap(), 2);
    }

    #[test]
    fn huge_string_length_is_an_error() {
        let mut bytes = u64::MAX.to_le_bytes().to_vec();
        bytes.extend_from_slice(b"abc");
        let err = Reader::new(&bytes).string("key").unwrap_err();
        assert!(matches!(
            err,
            GgufError::Truncated {
                needed: u64::MAX,
                ..
            }
        ));
    }

    #[test]
    fn count_is_bounded_by_bytes_left() {
        let mut bytes = 3u64.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 12]);
        assert_eq!(Reader::new(&bytes).count(4, "n").unwrap(), 3);
        assert!(Reader::new(&bytes).count(5, "n").is_err());
        let huge = u64::MAX.to_le_bytes();
        assert!(Reader::new(&huge).count(1, "n").is_err());
        // Overflow of count * size is also caught.
        assert!(Reader::new(&(u64::MAX / 2).to_le_bytes())
            .count(4, "n")
            .is_err());
    }

    #[test]
    fn invalid_utf8_names_its_offset() {
        let mut bytes = 2u64.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0xff, 0xfe]);
        let err = Reader::new(&bytes).string("key").unwrap_err();
        assert!(matches!(err, GgufError::InvalidUtf8 { offset: 8, .. }));
    }
}
