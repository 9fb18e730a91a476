//! API keys are never stored: the tenants file holds `sha256:<hex>` of each key, and a
//! presented key is hashed and compared against every stored hash without early exit.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The SHA-256 of an API key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct KeyHash([u8; 32]);

impl std::fmt::Debug for KeyHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Hashes of secrets stay out of logs too.
        f.write_str("KeyHash(..)")
    }
}

impl KeyHash {
    /// Parses `sha256:<64 hex digits>`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let hex_digits = text
            .strip_prefix("sha256:")
            .ok_or_else(|| "a key hash must look like \"sha256:<64 hex digits>\"".to_string())?;
        let bytes = hex::decode(hex_digits)
            .map_err(|e| format!("a key hash must be 64 hex digits after \"sha256:\": {e}"))?;
        let array: [u8; 32] = bytes
            .try_into()
            .map_err(|_| "a key hash must be 64 hex digits after \"sha256:\"".to_string())?;
        Ok(Self(array))
    }

    /// Equality that takes the same time wherever the hashes differ.
    pub fn ct_eq(&self, other: &KeyHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl std::fmt::Display for KeyHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sha256:{}", hex::encode(self.0))
    }
}

/// The stored form of `key` (what `radixserve hash-key` prints).
pub fn hash_api_key(key: &str) -> KeyHash {
    KeyHash(Sha256::digest(key.as_bytes()).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_round_trips_and_matches_a_known_digest() {
        let h = hash_api_key("abc");
        // SHA-256("abc") from FIPS 180-2, appendix B.1.
        assert_eq!(
            h.to_string(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(KeyHash::parse(&h.to_string()).is_ok_and(|p| p.ct_eq(&h)));
        assert!(!hash_api_key("abd").ct_eq(&h));
    }

    #[test]
    fn malformed_hashes_are_refused() {
        for bad in [
            "",
            "abc",
            "sha256:",
            "sha256:zz",
            "md5:00",
            &format!("sha256:{}", "0".repeat(62)),
        ] {
            assert!(KeyHash::parse(bad).is_err(), "{bad:?}");
        }
    }
}
