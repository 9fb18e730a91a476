//! What eviction tells a lower cache tier: the evicted node's whole path from its namespace
//! root (tokens and slot ids, the node's own part last), so the tier can key and copy out
//! the K/V of the pages that end inside the node before its slots are freed. The tree
//! itself keeps no trace of it: what a tier holds is the tier's own business.

use crate::namespace::Namespace;
use crate::node::NodeId;
use crate::tree::RadixCache;
use crate::{SlotId, TokenId};

/// A node about to be evicted, seen from its namespace root.
#[derive(Debug)]
pub struct EvictedPath<'a> {
    pub namespace: &'a Namespace,
    /// Tokens from the namespace root to the end of the evicted node.
    pub tokens: &'a [TokenId],
    /// The slot of every token of `tokens` (ancestors' slots are still in the tree).
    pub slots: &'a [SlotId],
    /// Where the evicted node's own tokens start in `tokens`.
    pub node_start: usize,
}

impl RadixCache {
    /// Tokens and slots from the namespace root down to `node`, both included.
    pub(crate) fn path_tokens_and_slots(&self, node: NodeId) -> (Vec<TokenId>, Vec<SlotId>) {
        let mut parts = Vec::new();
        let mut cur = Some(node);
        while let Some(id) = cur {
            let n = &self.nodes[id.0];
            parts.push((&n.key[..], &n.slots[..]));
            cur = n.parent;
        }
        let tokens = parts.iter().rev().flat_map(|p| p.0).copied().collect();
        let slots = parts.iter().rev().flat_map(|p| p.1).copied().collect();
        (tokens, slots)
    }

    /// Shows `node` (about to be evicted) to `observe`.
    pub(crate) fn observe_eviction(&self, node: NodeId, observe: &mut dyn FnMut(&EvictedPath)) {
        let (tokens, slots) = self.path_tokens_and_slots(node);
        let n = &self.nodes[node.0];
        let namespace = &self.namespaces[n.ns.index()].ns;
        observe(&EvictedPath {
            namespace,
            tokens: &tokens,
            slots: &slots,
            node_start: tokens.len() - n.key.len(),
        });
    }
}
