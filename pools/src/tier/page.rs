//! The page file: a self-describing header (what the page is, checksummed), then the K/V
//! bytes (checksummed). A file is trusted only if every field equals what the reader
//! expects, so a corrupt, truncated, renamed or foreign file reads as a miss.
//!
//! Layout, little-endian:
//! `magic[8] version:u32 page_tokens:u32 fingerprint[32] tag[32] parent[32] key[32]
//!  tokens:[u32; page_tokens] payload_len:u64 payload_crc:u32 header_crc:u32 payload`

use super::key::{page_key, Digest32};
use crate::TokenId;

const MAGIC: &[u8; 8] = b"RXKVPAGE";
const VERSION: u32 = 1;

/// What a page is: enough to check that a file holds exactly the page a lookup wants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageIdentity {
    pub fingerprint: Digest32,
    pub tag: Digest32,
    pub parent: Digest32,
    pub key: Digest32,
    pub tokens: Vec<TokenId>,
}

impl PageIdentity {
    pub fn new(fingerprint: Digest32, tag: Digest32, parent: Digest32, tokens: &[TokenId]) -> Self {
        Self {
            fingerprint,
            tag,
            parent,
            key: page_key(&parent, tokens),
            tokens: tokens.to_vec(),
        }
    }

    /// The first `pages` full pages of `tokens` (`page_tokens` each) in namespace `tag`,
    /// each keyed by its parent's key (the first by `tag`).
    pub fn chain(
        fingerprint: Digest32,
        tag: Digest32,
        tokens: &[TokenId],
        page_tokens: usize,
        pages: usize,
    ) -> Vec<Self> {
        let mut parent = tag;
        tokens
            .chunks_exact(page_tokens.max(1))
            .take(pages)
            .map(|page| {
                let id = Self::new(fingerprint, tag, parent, page);
                parent = id.key;
                id
            })
            .collect()
    }
}

/// Why a page file was not used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PageMismatch {
    #[error("file too short")]
    Truncated,
    #[error("not a page file of this version")]
    BadMagic,
    #[error("header checksum mismatch")]
    HeaderChecksum,
    #[error("payload checksum mismatch")]
    PayloadChecksum,
    #[error("the page is another one ({0})")]
    Foreign(&'static str),
}

pub(crate) fn header_len(page_tokens: usize) -> usize {
    8 + 4 + 4 + 32 * 4 + 4 * page_tokens + 8 + 4 + 4
}

/// Serializes a page: header then `payload`.
pub fn encode(id: &PageIdentity, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(header_len(id.tokens.len()) + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(id.tokens.len() as u32).to_le_bytes());
    for d in [&id.fingerprint, &id.tag, &id.parent, &id.key] {
        out.extend_from_slice(&d.0);
    }
    for t in &id.tokens {
        out.extend_from_slice(&t.to_le_bytes());
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    let header_crc = crc32fast::hash(&out);
    out.extend_from_slice(&header_crc.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of `file` if it is exactly page `want` with `payload_len` bytes of K/V.
pub fn decode<'a>(
    file: &'a [u8],
    want: &PageIdentity,
    payload_len: usize,
) -> Result<&'a [u8], PageMismatch> {
    let hlen = header_len(want.tokens.len());
    if file.len() < 16 {
        return Err(PageMismatch::Truncated);
    }
    if &file[..8] != MAGIC || u32_at(file, 8) != VERSION {
        return Err(PageMismatch::BadMagic);
    }
    if u32_at(file, 12) as usize != want.tokens.len() {
        return Err(PageMismatch::Foreign("page size"));
    }
    if file.len() < hlen {
        return Err(PageMismatch::Truncated);
    }
    if crc32fast::hash(&file[..hlen - 4]) != u32_at(file, hlen - 4) {
        return Err(PageMismatch::HeaderChecksum);
    }
    let digest = |i: usize| &file[16 + 32 * i..16 + 32 * (i + 1)];
    let checks: [(&Digest32, &'static str); 4] = [
        (&want.fingerprint, "model fingerprint"),
        (&want.tag, "namespace"),
        (&want.parent, "parent page"),
        (&want.key, "key"),
    ];
    for (i, (d, what)) in checks.into_iter().enumerate() {
        if digest(i) != d.0 {
            return Err(PageMismatch::Foreign(what));
        }
    }
    let tokens_at = 16 + 32 * 4;
    let same_tokens = want
        .tokens
        .iter()
        .enumerate()
        .all(|(i, &t)| u32_at(file, tokens_at + 4 * i) == t);
    if !same_tokens {
        return Err(PageMismatch::Foreign("tokens"));
    }
    let len_at = tokens_at + 4 * want.tokens.len();
    let stored_len = u64_at(file, len_at);
    if stored_len != payload_len as u64 {
        return Err(PageMismatch::Foreign("payload size"));
    }
    if file.len() != hlen + payload_len {
        return Err(PageMismatch::Truncated);
    }
    let payload = &file[hlen..];
    if crc32fast::hash(payload) != u32_at(file, len_at + 8) {
        return Err(PageMismatch::PayloadChecksum);
    }
    Ok(payload)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::tier::key::{model_fingerprint, namespace_tag};

    fn page() -> (PageIdentity, Vec<u8>) {
        let fp = model_fingerprint(b"m", "f32");
        let tag = namespace_tag(&fp, "global");
        let tokens: Vec<u32> = (100..116).collect();
        let payload: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
        (PageIdentity::new(fp, tag, tag, &tokens), payload)
    }

    #[test]
    fn round_trip_is_bitwise() {
        let (id, payload) = page();
        let file = encode(&id, &payload);
        assert_eq!(decode(&file, &id, payload.len()).unwrap(), &payload[..]);
    }

    #[test]
    fn every_flipped_byte_and_every_truncation_is_refused() {
        let (id, payload) = page();
        let file = encode(&id, &payload);
        // Every header byte, and a stride through the payload.
        let positions = (0..header_len(16)).chain((header_len(16)..file.len()).step_by(97));
        for at in positions {
            let mut bad = file.clone();
            bad[at] ^= 0x20;
            assert!(
                decode(&bad, &id, payload.len()).is_err(),
                "flip at {at} accepted"
            );
        }
        for len in [0, 7, 15, 100, header_len(16), file.len() - 1] {
            assert!(
                decode(&file[..len], &id, payload.len()).is_err(),
                "cut at {len}"
            );
        }
        let mut longer = file.clone();
        longer.push(0);
        assert_eq!(
            decode(&longer, &id, payload.len()),
            Err(PageMismatch::Truncated)
        );
    }

    #[test]
    fn another_model_namespace_prefix_or_token_is_foreign() {
        let (id, payload) = page();
        let file = encode(&id, &payload);
        let other_fp = model_fingerprint(b"m", "f16");
        let mut want = id.clone();
        want.fingerprint = other_fp;
        assert_eq!(
            decode(&file, &want, payload.len()),
            Err(PageMismatch::Foreign("model fingerprint"))
        );
        let other_tag = namespace_tag(&id.fingerprint, "tenant:b");
        let want = PageIdentity::new(id.fingerprint, other_tag, other_tag, &id.tokens);
        assert!(decode(&file, &want, payload.len()).is_err());
        let mut tokens = id.tokens.clone();
        tokens[5] += 1;
        let want = PageIdentity::new(id.fingerprint, id.tag, id.parent, &tokens);
        assert!(decode(&file, &want, payload.len()).is_err());
        // A colliding key with different tokens (impossible with SHA-256, but never trusted).
        let mut want = want.clone();
        want.key = id.key;
        assert_eq!(
            decode(&file, &want, payload.len()),
            Err(PageMismatch::Foreign("tokens"))
        );
        assert!(decode(&file, &id, payload.len() + 1).is_err());
    }
}
