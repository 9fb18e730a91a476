//! `sanity_check`: recompute every count from scratch and compare with the incremental ones.

use crate::node::NodeId;
use crate::tree::RadixCache;
use crate::{RadixError, SlotId};
use rustc_hash::FxHashSet;

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(RadixError::Corrupt(format!($($msg)+)));
        }
    };
}

impl RadixCache {
    /// Walks the whole tree and checks every structural invariant and counter.
    pub fn sanity_check(&self) -> Result<(), RadixError> {
        let mut reachable = 0usize;
        let mut evictable = 0usize;
        let mut protected = 0usize;
        let mut leaf_count = 0usize;
        let mut seen_slots: FxHashSet<SlotId> = FxHashSet::default();
        for (ns_index, entry) in self.namespaces.iter() {
            let root = &self.nodes[entry.root.0];
            ensure!(root.parent.is_none(), "root of ns {ns_index} has a parent");
            ensure!(root.key.is_empty(), "root of ns {ns_index} has a key");
            let mut ns_tokens = 0usize;
            let mut ns_evictable = 0usize;
            let mut stack: Vec<NodeId> = vec![entry.root];
            while let Some(id) = stack.pop() {
                reachable += 1;
                let node = &self.nodes[id.0];
                ensure!(
                    node.ns.index() == ns_index,
                    "{id:?} is in the wrong namespace"
                );
                ensure!(
                    node.key.len() == node.slots.len(),
                    "{id:?}: {} tokens, {} slots",
                    node.key.len(),
                    node.slots.len()
                );
                if !node.is_root() {
                    ensure!(!node.key.is_empty(), "{id:?} has an empty key");
                    ensure!(
                        node.key.len().is_multiple_of(self.page_size),
                        "{id:?} key length {} not page aligned",
                        node.key.len()
                    );
                    ns_tokens += node.key.len();
                    if node.lock_ref > 0 {
                        protected += node.key.len();
                    } else {
                        evictable += node.key.len();
                        ns_evictable += node.key.len();
                    }
                }
                for &slot in &node.slots {
                    ensure!(seen_slots.insert(slot), "slot {slot} is held twice");
                }
                let mut child_locks = 0u32;
                for (first, &child) in &node.children {
                    let c = self.nodes.get(child.0).ok_or_else(|| {
                        RadixError::Corrupt(format!("{id:?} has a dangling child"))
                    })?;
                    ensure!(
                        c.parent == Some(id),
                        "{child:?} does not point back to {id:?}"
                    );
                    ensure!(
                        c.key.len() >= self.page_size && **first == c.key[..self.page_size],
                        "{child:?} is filed under the wrong first page"
                    );
                    child_locks = child_locks.max(c.lock_ref);
                    stack.push(child);
                }
                if !node.is_root() {
                    ensure!(
                        node.lock_ref >= child_locks,
                        "{id:?} has lock_ref {} below a child's {child_locks}",
                        node.lock_ref
                    );
                }
                let in_set = match node.leaf_key {
                    Some(key) => {
                        ensure!(self.leaves.contains(key, id), "{id:?} leaf key not in set");
                        ensure!(
                            key == self.policy.priority(&Self::meta(node)),
                            "{id:?} sits in the eviction set under a stale priority"
                        );
                        true
                    }
                    None => false,
                };
                ensure!(
                    in_set == node.is_evictable_leaf(),
                    "{id:?}: in eviction set = {in_set}, evictable leaf = {}",
                    node.is_evictable_leaf()
                );
                leaf_count += usize::from(in_set);
            }
            ensure!(
                ns_tokens == entry.stats.cached_tokens,
                "ns {ns_index}: counted {ns_tokens} tokens, recorded {}",
                entry.stats.cached_tokens
            );
            ensure!(
                ns_evictable == entry.stats.evictable_tokens,
                "ns {ns_index}: counted {ns_evictable} evictable tokens, recorded {}",
                entry.stats.evictable_tokens
            );
        }
        let mut salted: rustc_hash::FxHashMap<crate::CacheScope, usize> = Default::default();
        for (_, entry) in self.namespaces.iter() {
            if entry.ns.salt.is_some() {
                *salted.entry(entry.ns.scope).or_insert(0) += 1;
            }
        }
        for (scope, count) in &salted {
            ensure!(
                self.salted_namespaces(*scope) == *count,
                "{scope:?}: {count} salted namespaces, recorded {}",
                self.salted_namespaces(*scope)
            );
        }
        ensure!(
            reachable == self.nodes.len(),
            "{} nodes in the arena but {reachable} reachable",
            self.nodes.len()
        );
        ensure!(
            evictable == self.evictable,
            "evictable: counted {evictable}, recorded {}",
            self.evictable
        );
        ensure!(
            protected == self.protected,
            "protected: counted {protected}, recorded {}",
            self.protected
        );
        ensure!(
            leaf_count == self.leaves.len(),
            "eviction set holds {} entries, {leaf_count} expected",
            self.leaves.len()
        );
        Ok(())
    }
}
