//! A compressed radix tree over token ids whose values are opaque KV slot ids.
//!
//! This crate knows nothing about models, pools or I/O: a request's token ids go in, the
//! slot ids that already hold those tokens' K/V come out. It is SGLang's `RadixCache` with
//! typed namespaces, an incrementally maintained eviction set and lock guards.
//!
//! Ownership: every slot id inserted into the tree is owned by the tree until [`RadixCache::evict`]
//! (or a flush) hands it back through the caller's `free` callback. Slot ids that `insert`
//! reports as already present stay owned by the caller, who must free them.

mod blocks;
mod check;
mod evict;
mod lock;
mod namespace;
mod node;
mod spill;
mod tree;

pub use blocks::{BlockChange, BlockEvent, StoredBlock};
pub use evict::{EvictionPolicy, Lfu, Lru, NodeMeta};
pub use lock::NodeLock;
pub use namespace::{CacheScope, Namespace, NsId};
pub use node::NodeId;
pub use spill::EvictedPath;
pub use tree::{CacheStats, MatchResult, NamespaceStats, RadixCache, ScopeHits};

/// A token id of the model's vocabulary.
pub type TokenId = u32;
/// A KV slot id; `i32` because attention kernels index with 32-bit ints (as FlashInfer does).
pub type SlotId = i32;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RadixError {
    #[error("key has {keys} tokens but {slots} slot ids")]
    LengthMismatch { keys: usize, slots: usize },
    #[error("key length {len} is not a multiple of the page size {page_size}")]
    Unaligned { len: usize, page_size: usize },
    #[error("page size must be at least 1")]
    ZeroPageSize,
    #[error("block size must be at least 1")]
    ZeroBlockSize,
    #[error("unknown namespace id {0:?}")]
    UnknownNamespace(NsId),
    #[error("tree invariant violated: {0}")]
    Corrupt(String),
}
