//! K/V tiers below the pool. The tree drops what it evicts; a tier keeps the K/V of the
//! evicted pages so a later request can load them back instead of recomputing them.
//!
//! The disk tier ([`DiskTier`]) is page-granular: a page is `page_tokens` consecutive tokens
//! aligned from the start of their namespace, keyed by a chained SHA-256 of the model
//! fingerprint, the namespace identity and every token up to the page's end ([`key`]). The
//! tree knows nothing of it: the engine offers pages at eviction and looks up the pages that
//! continue a request's cached prefix at arrival.

mod disk;
mod index;
pub mod key;
mod page;
mod trash;

pub use disk::{DiskTier, DiskTierConfig, DiskTierStats, LoadDone, PAGE_FILE_EXTENSION};
pub use key::Digest32;
pub use page::{decode as decode_page, encode as encode_page, PageIdentity, PageMismatch};

/// Bytes of a page file before its K/V.
pub fn page_header_len(page_tokens: usize) -> usize {
    page::header_len(page_tokens)
}
