//! KV events: what the prefix cache stores and removes, as full blocks of
//! [`KV_EVENT_BLOCK_SIZE`] tokens, streamed to subscribers (a gateway's cache-aware router)
//! with numbered batches and resync.
//!
//! The scheduler journals block changes in the radix tree and hands them, once per step, to
//! a bounded channel it never waits on; the hub's own thread keeps a mirror of each
//! namespace's blocks and fans the changes out to subscribers through bounded queues. Every
//! subscription starts with a snapshot (`Cleared` and every block) numbered right after the
//! number its subscriber asked to start from, so a reconnect never skips a change. A
//! subscriber that falls behind misses batches and then, once it has read what was queued,
//! gets a fresh snapshot numbered right after the last batch it got: its numbers never skip
//! and no queue grows without bound. If the scheduler's channel is ever full, the scheduler
//! sends a snapshot of the whole tree once it drains, which every stream then resyncs from.
//!
//! Each namespace without a salt is its own stream: a tenant's subscription sees only its
//! own namespace (what its requests can hit), never another tenant's prompts; a cache
//! group's namespace, which carries every member's prompts, only to administrators;
//! salted namespaces are never published.

mod hub;
mod mirror;

pub(crate) use hub::{HubInput, HubSender};
pub use hub::{KvEventHub, KvSubscription};

use radix::StoredBlock;
use std::sync::Arc;

/// Tokens per published block (what smg's cache-aware policy assumes until it learns it).
pub const KV_EVENT_BLOCK_SIZE: usize = 16;

/// One change of a namespace's blocks, as subscribers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KvEvent {
    /// Consecutive blocks of one chain; the first one's parent is `parent`.
    Stored {
        parent: Option<u64>,
        blocks: Vec<StoredBlock>,
    },
    Removed {
        hashes: Vec<u64>,
    },
    /// Every block of the namespace is gone (begins each resync).
    Cleared,
}

/// A numbered batch of events. Numbers are consecutive on each subscription.
#[derive(Clone, Debug)]
pub struct KvBatch {
    pub sequence: u64,
    /// Seconds since the Unix epoch when the batch was made.
    pub timestamp: f64,
    pub events: Arc<[KvEvent]>,
}
