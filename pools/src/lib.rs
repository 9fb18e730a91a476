//! KV memory for the engine, in SGLang's two levels:
//!
//! - [`ReqToTokenPool`]: one row per running request; entry `[r, i]` is the KV slot of that
//!   request's token `i`.
//! - [`KvSlotAllocator`] hands out slots (in pages of `page_size`), and [`KvStorage`] holds
//!   each layer's K and V at those slots.
//!
//! [`KvCache`] ties them to the radix prefix cache with SGLang's request-level operations
//! (`cache_unfinished_req`, `cache_finished_req`). Ownership is carried by types: a
//! [`ReqRow`] and a [`KvSlots`] must be given back, never dropped, and every allocated slot
//! belongs either to one request or to one tree node (checked by [`KvCache::check_ownership`]).

mod error;
mod kv_cache;
mod kv_storage;
mod req_to_token;
mod slot_allocator;
pub mod tier;

pub use error::PoolError;
pub use kv_cache::{KvCache, KvCacheConfig, ReqKv};
pub use kv_storage::{KvDtype, KvLayout, KvStorage, LayerKv, OtherRows};
pub use radix::{EvictedPath, SlotId, TokenId};
pub use req_to_token::{ReqRow, ReqToTokenPool};
pub use slot_allocator::{KvSlotAllocator, KvSlots};
