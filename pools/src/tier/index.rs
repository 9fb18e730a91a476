//! What the disk holds, in memory: page key -> size and recency, an LRU order within the
//! byte budget, the writes still queued (so a page is spilled once), and per-namespace and
//! per-owner generations that let a flush win over writes queued before it.

use super::key::Digest32;
use std::collections::{BTreeSet, HashMap, HashSet};

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub tag: Digest32,
    pub bytes: u64,
    last_use: u64,
}

/// The flush generation a write was queued under; it is indexed only if still current.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Generation {
    namespace: u64,
    owner: u64,
    all: u64,
}

#[derive(Default)]
pub(crate) struct Index {
    entries: HashMap<Digest32, Entry>,
    lru: BTreeSet<(u64, Digest32)>,
    clock: u64,
    bytes: u64,
    pending: HashSet<Digest32>,
    namespace_generation: HashMap<Digest32, u64>,
    owner_generation: HashMap<Digest32, u64>,
    all_generation: u64,
    /// Each namespace directory's owner (a tenant's namespaces under all its salts share
    /// one), where one was named: kept whether or not the directory holds indexed pages,
    /// so that an owner's flush finds every directory it has.
    owners: HashMap<Digest32, Digest32>,
}

impl Index {
    pub fn contains(&self, key: &Digest32) -> bool {
        self.entries.contains_key(key)
    }

    pub fn pages(&self) -> usize {
        self.entries.len()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Marks `key` as queued for writing unless it is on disk or queued already.
    pub fn claim(&mut self, key: Digest32) -> bool {
        !self.entries.contains_key(&key) && self.pending.insert(key)
    }

    pub fn unclaim(&mut self, key: &Digest32) {
        self.pending.remove(key);
        self.forget_generations_unless_pending();
    }

    /// Generations only tell queued writes from flushes made since they were queued: with
    /// none queued they are forgotten, so that a tenant cycling through salts (each flushed
    /// when it is replaced) does not grow this map for ever.
    fn forget_generations_unless_pending(&mut self) {
        if self.pending.is_empty() {
            if !self.namespace_generation.is_empty() {
                self.namespace_generation = HashMap::new();
            }
            if !self.owner_generation.is_empty() {
                self.owner_generation = HashMap::new();
            }
        }
    }

    pub fn generation(&self, tag: &Digest32, owner: Option<&Digest32>) -> Generation {
        Generation {
            namespace: self.namespace_generation.get(tag).copied().unwrap_or(0),
            owner: owner
                .and_then(|o| self.owner_generation.get(o).copied())
                .unwrap_or(0),
            all: self.all_generation,
        }
    }

    /// The owner namespace directory `tag` was last named for.
    pub fn owner_of(&self, tag: &Digest32) -> Option<&Digest32> {
        self.owners.get(tag)
    }

    /// Records that `owner` owns namespace directory `tag`.
    pub fn set_owner(&mut self, tag: Digest32, owner: Digest32) {
        self.owners.insert(tag, owner);
    }

    /// Indexes a page (as most recently used).
    pub fn insert(&mut self, key: Digest32, tag: Digest32, bytes: u64) {
        self.remove(&key);
        self.clock += 1;
        self.entries.insert(
            key,
            Entry {
                tag,
                bytes,
                last_use: self.clock,
            },
        );
        self.lru.insert((self.clock, key));
        self.bytes += bytes;
    }

    pub fn remove(&mut self, key: &Digest32) -> Option<Entry> {
        let entry = self.entries.remove(key)?;
        self.lru.remove(&(entry.last_use, *key));
        self.bytes -= entry.bytes;
        Some(entry)
    }

    pub fn touch(&mut self, key: &Digest32) {
        if let Some(e) = self.entries.get_mut(key) {
            self.lru.remove(&(e.last_use, *key));
            self.clock += 1;
            e.last_use = self.clock;
            self.lru.insert((self.clock, *key));
        }
    }

    /// Removes least recently used pages until `incoming` more bytes fit `budget`; returns
    /// them (their files are to be deleted).
    pub fn make_room(&mut self, incoming: u64, budget: u64) -> Vec<(Digest32, Entry)> {
        let mut out = Vec::new();
        while self.bytes + incoming > budget {
            let Some(&(_, key)) = self.lru.first() else {
                break;
            };
            if let Some(entry) = self.remove(&key) {
                out.push((key, entry));
            }
        }
        out
    }

    /// Forgets every page of each of `tags` (in one pass over the pages); writes queued
    /// before now will not be indexed.
    pub fn flush_namespaces(&mut self, tags: &[Digest32]) {
        for tag in tags {
            *self.namespace_generation.entry(*tag).or_insert(0) += 1;
        }
        for tag in tags {
            self.owners.remove(tag);
        }
        let tags: std::collections::HashSet<&Digest32> = tags.iter().collect();
        let keys: Vec<Digest32> = self
            .entries
            .iter()
            .filter(|(_, e)| tags.contains(&e.tag))
            .map(|(k, _)| *k)
            .collect();
        for key in keys {
            self.remove(&key);
        }
        self.forget_generations_unless_pending();
    }

    /// Forgets every namespace directory `owner` owns and its pages; writes of its
    /// namespaces queued before now will not be indexed. Returns the directories' tags.
    pub fn flush_owner(&mut self, owner: &Digest32) -> Vec<Digest32> {
        *self.owner_generation.entry(*owner).or_insert(0) += 1;
        let tags: Vec<Digest32> = (self.owners.iter())
            .filter(|(_, o)| *o == owner)
            .map(|(tag, _)| *tag)
            .collect();
        self.flush_namespaces(&tags);
        tags
    }

    pub fn flush_all(&mut self) {
        self.all_generation += 1;
        self.owners.clear();
        self.entries.clear();
        self.lru.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(i: u8) -> Digest32 {
        Digest32([i; 32])
    }

    #[test]
    fn lru_within_budget_and_flush_generations() {
        let mut ix = Index::default();
        for i in 0..4 {
            assert!(ix.claim(d(i)));
            assert!(!ix.claim(d(i)), "a queued page is not claimed twice");
            ix.insert(d(i), d(100 + i % 2), 10);
            ix.unclaim(&d(i));
        }
        assert!(!ix.claim(d(0)), "an indexed page is not claimed");
        ix.touch(&d(0));
        let gone: Vec<Digest32> = ix.make_room(15, 40).into_iter().map(|(k, _)| k).collect();
        assert_eq!(gone, vec![d(1), d(2)], "least recently used first");
        assert_eq!((ix.pages(), ix.bytes()), (2, 20));
        // A write queued before a flush is refused after it.
        assert!(ix.claim(d(9)));
        let before = ix.generation(&d(100), None);
        ix.flush_namespaces(&[d(100)]);
        assert_ne!(ix.generation(&d(100), None), before);
        assert!(!ix.contains(&d(0)) && ix.contains(&d(3)));
        // Generations are kept while writes are queued, and only then.
        for tag in 150..250 {
            ix.flush_namespaces(&[d(tag)]);
        }
        assert_eq!(ix.namespace_generation.len(), 101);
        ix.unclaim(&d(9));
        assert!(
            ix.namespace_generation.is_empty(),
            "nothing queued: nothing kept"
        );
        let before = ix.generation(&d(101), None);
        ix.flush_all();
        assert_ne!(ix.generation(&d(101), None), before);
        assert_eq!((ix.pages(), ix.bytes()), (0, 0));
    }

    #[test]
    fn an_owners_flush_takes_every_namespace_it_owns() {
        let mut ix = Index::default();
        // Owner 50 has namespaces 100 and 101 (two salts) and 106, whose pages were all
        // evicted; 102 is owner 51's, 103 unowned.
        for (key, tag, owner) in [(1, 100, Some(50)), (2, 101, Some(50)), (3, 102, Some(51))] {
            ix.insert(d(key), d(tag), 10);
            if let Some(owner) = owner {
                ix.set_owner(d(tag), d(owner));
            }
        }
        ix.insert(d(4), d(103), 10);
        ix.set_owner(d(106), d(50));
        assert!(ix.claim(d(9)));
        let queued = ix.generation(&d(104), Some(&d(50)));
        let others = ix.generation(&d(105), Some(&d(51)));
        let mut tags = ix.flush_owner(&d(50));
        tags.sort();
        assert_eq!(tags, vec![d(100), d(101), d(106)]);
        assert!(ix.owner_of(&d(100)).is_none() && ix.owner_of(&d(102)) == Some(&d(51)));
        assert!(!ix.contains(&d(1)) && !ix.contains(&d(2)));
        assert!(ix.contains(&d(3)) && ix.contains(&d(4)));
        // A write of the owner's queued before the flush, even to a namespace it had no
        // page in yet, is refused after it; another owner's is not.
        assert_ne!(ix.generation(&d(104), Some(&d(50))), queued);
        assert_eq!(ix.generation(&d(105), Some(&d(51))), others);
        ix.unclaim(&d(9));
        assert!(
            ix.owner_generation.is_empty(),
            "nothing queued: nothing kept"
        );
    }
}
