//! Block events: the tree's contents seen as full blocks of a fixed number of tokens, aligned
//! from the start of their namespace, as a gateway's cache-aware router indexes a worker's
//! cache (SGLang's KV events). A block is cached while every one of its tokens is; it is
//! stored when an insert completes it and removed when eviction or a flush takes any of its
//! tokens. Node boundaries and page size do not matter: splits change no block.
//!
//! Each block has a 64-bit handle chained parent-first from a per-namespace seed, keyed by
//! a secret drawn when the tree is built: equal prefixes of one namespace get equal handles
//! for the tree's life, and a handle reveals nothing about the tokens or the namespace.

use crate::namespace::Namespace;
use crate::node::NodeId;
use crate::tree::RadixCache;
use crate::{RadixError, TokenId};
use std::hash::{BuildHasher, RandomState};

/// One full block of a stored chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredBlock {
    pub hash: u64,
    pub tokens: Vec<TokenId>,
}

/// What happened to a namespace's blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockChange {
    /// Consecutive blocks, the first one's parent being `parent` (`None`: it starts the
    /// namespace).
    Stored {
        parent: Option<u64>,
        blocks: Vec<StoredBlock>,
    },
    /// Blocks no longer cached (children are removed before their parents).
    Removed { hashes: Vec<u64> },
}

/// A change of one namespace's blocks, in the order the tree made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockEvent {
    pub namespace: Namespace,
    pub change: BlockChange,
}

/// The journal kept while block events are on.
pub(crate) struct BlockJournal {
    block_size: usize,
    key: RandomState,
    events: Vec<BlockEvent>,
}

impl BlockJournal {
    fn seed(&self, ns: &Namespace) -> u64 {
        self.key.hash_one(ns)
    }

    fn chain(&self, parent: u64, tokens: &[TokenId]) -> u64 {
        self.key.hash_one((parent, tokens))
    }

    /// The blocks that end inside `path[start..]` (the tokens a node adds below its
    /// parent), with the parent of the first. `path` runs from the namespace root.
    fn blocks_ending_in(
        &self,
        ns: &Namespace,
        path: &[TokenId],
        start: usize,
    ) -> (Option<u64>, Vec<StoredBlock>) {
        let size = self.block_size;
        let first = start / size;
        let mut hash = self.seed(ns);
        let mut parent = None;
        let mut blocks = Vec::new();
        for (b, tokens) in path.chunks_exact(size).enumerate() {
            hash = self.chain(hash, tokens);
            if b + 1 == first {
                parent = Some(hash);
            }
            if b >= first {
                blocks.push(StoredBlock {
                    hash,
                    tokens: tokens.to_vec(),
                });
            }
        }
        (parent, blocks)
    }
}

impl RadixCache {
    /// Starts journaling block events of `block_size` tokens (taken with
    /// [`RadixCache::take_block_events`]). Blocks cached before this call are not
    /// reported; [`RadixCache::block_snapshot`] lists them.
    pub fn enable_block_events(&mut self, block_size: usize) -> Result<(), RadixError> {
        if block_size == 0 {
            return Err(RadixError::ZeroBlockSize);
        }
        self.blocks = Some(BlockJournal {
            block_size,
            key: RandomState::new(),
            events: Vec::new(),
        });
        Ok(())
    }

    /// The block size of the journal, if block events are on.
    pub fn block_size(&self) -> Option<usize> {
        self.blocks.as_ref().map(|j| j.block_size)
    }

    /// The block events since the last call, oldest first.
    pub fn take_block_events(&mut self) -> Vec<BlockEvent> {
        self.blocks
            .as_mut()
            .map(|j| std::mem::take(&mut j.events))
            .unwrap_or_default()
    }

    /// Every cached full block as `Stored` events, each namespace's parents before their
    /// children (empty if block events are off).
    pub fn block_snapshot(&self) -> Vec<BlockEvent> {
        let Some(journal) = &self.blocks else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (_, entry) in self.namespaces.iter() {
            // Depth-first, carrying the path's tokens.
            let mut path: Vec<TokenId> = Vec::new();
            let mut stack: Vec<(NodeId, usize)> = self.nodes[entry.root.0]
                .children
                .values()
                .map(|&c| (c, 0))
                .collect();
            while let Some((id, start)) = stack.pop() {
                let node = &self.nodes[id.0];
                path.truncate(start);
                path.extend_from_slice(&node.key);
                let (parent, blocks) = journal.blocks_ending_in(&entry.ns, &path, start);
                if !blocks.is_empty() {
                    out.push(BlockEvent {
                        namespace: entry.ns.clone(),
                        change: BlockChange::Stored { parent, blocks },
                    });
                }
                stack.extend(node.children.values().map(|&c| (c, path.len())));
            }
        }
        out
    }

    /// Tokens from the namespace root down to `node`, its own key included.
    fn path_tokens(&self, node: NodeId) -> Vec<TokenId> {
        let mut keys = Vec::new();
        let mut cur = Some(node);
        while let Some(id) = cur {
            let n = &self.nodes[id.0];
            keys.push(&n.key[..]);
            cur = n.parent;
        }
        keys.into_iter().rev().flatten().copied().collect()
    }

    /// Journals the blocks that leaf `id`, just added, completes.
    pub(crate) fn journal_stored(&mut self, id: NodeId) {
        let Some(journal) = &self.blocks else {
            return;
        };
        let path = self.path_tokens(id);
        let start = path.len() - self.nodes[id.0].key.len();
        let ns = &self.namespaces[self.nodes[id.0].ns.index()].ns;
        let (parent, blocks) = journal.blocks_ending_in(ns, &path, start);
        if blocks.is_empty() {
            return;
        }
        let event = BlockEvent {
            namespace: ns.clone(),
            change: BlockChange::Stored { parent, blocks },
        };
        if let Some(j) = &mut self.blocks {
            j.events.push(event);
        }
    }

    /// Journals the blocks that removing leaf `id` breaks (before it is removed).
    pub(crate) fn journal_removed(&mut self, id: NodeId) {
        let Some(journal) = &self.blocks else {
            return;
        };
        let path = self.path_tokens(id);
        let start = path.len() - self.nodes[id.0].key.len();
        let ns = &self.namespaces[self.nodes[id.0].ns.index()].ns;
        let (_, blocks) = journal.blocks_ending_in(ns, &path, start);
        if blocks.is_empty() {
            return;
        }
        let event = BlockEvent {
            namespace: ns.clone(),
            change: BlockChange::Removed {
                hashes: blocks.iter().rev().map(|b| b.hash).collect(),
            },
        };
        if let Some(j) = &mut self.blocks {
            j.events.push(event);
        }
    }
}
