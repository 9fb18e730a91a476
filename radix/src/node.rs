//! Tree nodes, stored in a `slab` arena and addressed by [`NodeId`].

use crate::{NsId, SlotId, TokenId};
use rustc_hash::FxHashMap;

/// Index of a node in the tree's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) usize);

impl NodeId {
    /// An id no node has (a placeholder for "no node").
    pub const NONE: NodeId = NodeId(usize::MAX);
}

pub(crate) struct Node {
    /// `None` only for a namespace root.
    pub parent: Option<NodeId>,
    pub ns: NsId,
    /// Edge label: the tokens from the parent to this node (empty for roots).
    pub key: Vec<TokenId>,
    /// `slots[i]` holds the K/V of `key[i]`.
    pub slots: Vec<SlotId>,
    /// Children keyed by the first page of their key (the first token when `page_size == 1`).
    pub children: FxHashMap<Box<[TokenId]>, NodeId>,
    /// Number of live [`crate::NodeLock`]s whose path passes through this node.
    pub lock_ref: u32,
    /// Logical time of the last match or insert through this node.
    pub last_access: u64,
    /// Number of matches or inserts through this node.
    pub hits: u64,
    /// The priority under which this node sits in the eviction set, if it is there.
    pub leaf_key: Option<(u64, u64)>,
}

impl Node {
    pub fn root(ns: NsId) -> Self {
        Self::new(None, ns, Vec::new(), Vec::new(), 0)
    }

    pub fn new(
        parent: Option<NodeId>,
        ns: NsId,
        key: Vec<TokenId>,
        slots: Vec<SlotId>,
        now: u64,
    ) -> Self {
        Self {
            parent,
            ns,
            key,
            slots,
            children: FxHashMap::default(),
            lock_ref: 0,
            last_access: now,
            hits: 0,
            leaf_key: None,
        }
    }

    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// Unlocked non-root leaves are exactly the nodes eviction may remove.
    pub fn is_evictable_leaf(&self) -> bool {
        !self.is_root() && self.lock_ref == 0 && self.children.is_empty()
    }
}

/// Length of the common prefix of `a` and `b`. Whole chunks are compared with an OR of XORs,
/// which compiles to a few vector instructions per chunk (a per-chunk `memcmp` call costs
/// more than the comparison itself on 2,000-token edges).
pub(crate) fn common_prefix_len(a: &[TokenId], b: &[TokenId]) -> usize {
    const CHUNK: usize = 32;
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (ca, cb) in a.chunks_exact(CHUNK).zip(b.chunks_exact(CHUNK)) {
        let diff = ca.iter().zip(cb).fold(0, |acc, (x, y)| acc | (x ^ y));
        if diff != 0 {
            break;
        }
        i += CHUNK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::common_prefix_len;

    #[test]
    fn common_prefix_handles_chunk_boundaries() {
        let a: Vec<u32> = (0..100).collect();
        for cut in [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 99] {
            let mut b = a.clone();
            b[cut] = 1000;
            assert_eq!(common_prefix_len(&a, &b), cut);
        }
        assert_eq!(common_prefix_len(&a, &a), 100);
        assert_eq!(common_prefix_len(&a[..40], &a), 40);
        assert_eq!(common_prefix_len(&[], &a), 0);
    }
}
