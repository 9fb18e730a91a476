//! Eviction: a pluggable priority over unlocked leaves, kept in an ordered set that is updated
//! incrementally as nodes are touched, locked, unlocked, split and removed (no heap rebuild).

use crate::node::NodeId;
use std::collections::BTreeSet;

/// What a policy may look at when ranking a leaf.
#[derive(Clone, Copy, Debug)]
pub struct NodeMeta {
    pub last_access: u64,
    pub hits: u64,
    pub len: usize,
}

/// Ranks evictable leaves: the smallest priority is evicted first.
pub trait EvictionPolicy: Send + Sync {
    fn priority(&self, meta: &NodeMeta) -> (u64, u64);
}

/// Least recently used leaf first (SGLang's default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lru;

impl EvictionPolicy for Lru {
    fn priority(&self, meta: &NodeMeta) -> (u64, u64) {
        (meta.last_access, 0)
    }
}

/// Least frequently used leaf first, ties broken by recency.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lfu;

impl EvictionPolicy for Lfu {
    fn priority(&self, meta: &NodeMeta) -> (u64, u64) {
        (meta.hits, meta.last_access)
    }
}

/// The set of evictable leaves ordered by (priority, node id).
#[derive(Default)]
pub(crate) struct LeafSet {
    set: BTreeSet<(u64, u64, usize)>,
}

impl LeafSet {
    pub fn insert(&mut self, key: (u64, u64), node: NodeId) {
        self.set.insert((key.0, key.1, node.0));
    }

    pub fn remove(&mut self, key: (u64, u64), node: NodeId) -> bool {
        self.set.remove(&(key.0, key.1, node.0))
    }

    pub fn pop_first(&mut self) -> Option<NodeId> {
        self.set.pop_first().map(|(_, _, id)| NodeId(id))
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// The leaves in eviction order from `(key, node)` on (inclusive), each with its key.
    pub fn iter_from(
        &self,
        key: (u64, u64),
        node: NodeId,
    ) -> impl Iterator<Item = ((u64, u64), NodeId)> + '_ {
        self.set
            .range((key.0, key.1, node.0)..)
            .map(|&(k0, k1, id)| ((k0, k1), NodeId(id)))
    }

    pub fn contains(&self, key: (u64, u64), node: NodeId) -> bool {
        self.set.contains(&(key.0, key.1, node.0))
    }
}
