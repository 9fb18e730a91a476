//! Page keys: a chained SHA-256 over the model fingerprint, the namespace identity and the
//! prefix's token ids, one key per full page. Equal keys mean the same tokens after the same
//! prefix in the same namespace of the same model; a different model file, K/V dtype, page
//! size or namespace gives unrelated keys, so no lookup can reach another's pages.

use crate::TokenId;
use sha2::{Digest, Sha256};

/// 32 bytes of SHA-256.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest32(pub [u8; 32]);

impl Digest32 {
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn from_hex(text: &str) -> Option<Self> {
        if text.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(Self(out))
    }
}

impl std::fmt::Debug for Digest32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", &self.hex()[..16])
    }
}

/// What makes K/V of the same tokens differ: the model file's content hash and every
/// setting that changes the stored bytes.
pub fn model_fingerprint(file_hash: &[u8], settings: &str) -> Digest32 {
    let mut h = Sha256::new();
    h.update(b"radixserve kv fingerprint v1\0");
    h.update(file_hash);
    h.update(settings.as_bytes());
    Digest32(h.finalize().into())
}

/// A namespace's tag: the seed of its page chains and the name of its directory.
pub fn namespace_tag(fingerprint: &Digest32, identity: &str) -> Digest32 {
    let mut h = Sha256::new();
    h.update(b"radixserve kv namespace v1\0");
    h.update(fingerprint.0);
    h.update((identity.len() as u64).to_le_bytes());
    h.update(identity.as_bytes());
    Digest32(h.finalize().into())
}

/// The key of the page holding `tokens`, after the page keyed `parent` (the namespace tag
/// for the first page).
pub fn page_key(parent: &Digest32, tokens: &[TokenId]) -> Digest32 {
    let mut h = Sha256::new();
    h.update(parent.0);
    for t in tokens {
        h.update(t.to_le_bytes());
    }
    Digest32(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::PageIdentity;

    fn page_chain(
        tag: &Digest32,
        tokens: &[u32],
        page_tokens: usize,
        pages: usize,
    ) -> Vec<Digest32> {
        let chain = PageIdentity::chain(Digest32([0; 32]), *tag, tokens, page_tokens, pages);
        chain.into_iter().map(|id| id.key).collect()
    }

    #[test]
    fn chains_depend_on_every_input() {
        let fp = model_fingerprint(b"file", "f32/16");
        let a = namespace_tag(&fp, "tenant:a");
        let b = namespace_tag(&fp, "tenant:b");
        assert_ne!(a, b);
        let tokens: Vec<u32> = (0..64).collect();
        let chain = page_chain(&a, &tokens, 16, 4);
        assert_eq!(chain.len(), 4);
        assert_eq!(chain[0], page_key(&a, &tokens[..16]));
        assert_eq!(chain[1], page_key(&chain[0], &tokens[16..32]));
        assert_ne!(chain, page_chain(&b, &tokens, 16, 4));
        let other_model = namespace_tag(&model_fingerprint(b"file", "f16/16"), "tenant:a");
        assert_ne!(chain[0], page_chain(&other_model, &tokens, 16, 1)[0]);
        let mut changed = tokens.clone();
        changed[3] = 999;
        let c2 = page_chain(&a, &changed, 16, 4);
        assert!(
            c2.iter().zip(&chain).all(|(x, y)| x != y),
            "a change reaches every later key"
        );
        assert_eq!(Digest32::from_hex(&chain[2].hex()), Some(chain[2]));
        assert_eq!(Digest32::from_hex("zz"), None);
    }
}
