//! One namespace's cached blocks as its subscribers know them, kept off the scheduler
//! thread so that a new subscriber's snapshot costs the engine nothing.

use super::KvEvent;
use radix::StoredBlock;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// Most blocks in one snapshot batch: keeps each message far below the 4 MiB a gRPC client
/// decodes by default (a 16-token block is about 70 bytes on the wire).
pub(super) const SNAPSHOT_CHUNK_BLOCKS: usize = 8192;

struct MirrorBlock {
    /// Insertion order: parents are always older than their children.
    at: u64,
    parent: Option<u64>,
    tokens: Vec<u32>,
}

#[derive(Default)]
pub(super) struct Mirror {
    blocks: FxHashMap<u64, MirrorBlock>,
    order: BTreeMap<u64, u64>,
    next_at: u64,
}

impl Mirror {
    pub fn apply(&mut self, event: &KvEvent) {
        match event {
            KvEvent::Stored { parent, blocks } => {
                let mut parent = *parent;
                for block in blocks {
                    self.store(parent, block);
                    parent = Some(block.hash);
                }
            }
            KvEvent::Removed { hashes } => {
                for hash in hashes {
                    if let Some(block) = self.blocks.remove(hash) {
                        self.order.remove(&block.at);
                    }
                }
            }
            KvEvent::Cleared => {
                self.blocks.clear();
                self.order.clear();
            }
        }
    }

    fn store(&mut self, parent: Option<u64>, block: &StoredBlock) {
        let at = self.next_at;
        self.next_at += 1;
        let old = self.blocks.insert(
            block.hash,
            MirrorBlock {
                at,
                parent,
                tokens: block.tokens.clone(),
            },
        );
        if let Some(old) = old {
            self.order.remove(&old.at);
        }
        self.order.insert(at, block.hash);
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// The whole state as batches of events: a `Cleared`, then every block, parents before
    /// children (consecutive blocks of one chain share a `Stored`), at most
    /// [`SNAPSHOT_CHUNK_BLOCKS`] blocks per batch. Always at least one batch.
    pub fn snapshot(&self) -> Vec<Vec<KvEvent>> {
        let mut batches = vec![vec![KvEvent::Cleared]];
        let mut in_batch = 0;
        for hash in self.order.values() {
            let Some(block) = self.blocks.get(hash) else {
                continue;
            };
            if in_batch == SNAPSHOT_CHUNK_BLOCKS {
                batches.push(Vec::new());
                in_batch = 0;
            }
            let stored = StoredBlock {
                hash: *hash,
                tokens: block.tokens.clone(),
            };
            let batch = batches.last_mut();
            let Some(batch) = batch else { continue };
            match batch.last_mut() {
                Some(KvEvent::Stored { blocks, .. })
                    if blocks.last().map(|b| b.hash) == block.parent =>
                {
                    blocks.push(stored)
                }
                _ => batch.push(KvEvent::Stored {
                    parent: block.parent,
                    blocks: vec![stored],
                }),
            }
            in_batch += 1;
        }
        batches
    }
}
