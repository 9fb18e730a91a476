//! Prefix reuse for models with recurrent state (Qwen3.5's delta nets, LFM2's short
//! convolutions), in the manner of SGLang's Mamba radix cache: the tree's K/V of a prefix is of
//! no use without the recurrent state at its end, so when a request ends (or is retracted) the
//! model copies its state, and a later request of the same namespace whose prompt starts with
//! those tokens resumes from the copy and the tree's K/V of them. The copies are few (as many
//! as requests may run) and the least recently used goes first.

use super::req::Req;
use super::Scheduler;
use crate::model::ForwardModel;
use pools::ReqKv;
use radix::{Namespace, NsId};

impl<M: ForwardModel> Scheduler<M> {
    /// Saves the recurrent state of `req`, which ends with `kv` holding `ids` (before the
    /// tree takes them), if the model has one and a later request could resume from it: the
    /// tree keeps whole pages only.
    pub(super) fn save_state(&mut self, req: &Req, kv: &ReqKv, ids: &[u32]) {
        self.save_state_at(&req.rid, req.ns, kv.row_index() as u32, ids);
    }

    /// Saves the state of row `row` (request `rid` of namespace `ns`), which has absorbed
    /// `ids`.
    fn save_state_at(&mut self, rid: &str, ns: NsId, row: u32, ids: &[u32]) {
        let Some(states) = self.recurrent.as_mut() else {
            return;
        };
        let len = ids.len();
        if len == 0 || !len.is_multiple_of(self.cache.page_size()) {
            return;
        }
        let Some(ns) = self.cache.tree().namespace(ns).cloned() else {
            return;
        };
        match self.model.snapshot_recurrent(row, len as u32) {
            Ok(id) => {
                for old in states.insert(ns, ids.to_vec(), id) {
                    self.model.drop_recurrent(old);
                }
            }
            Err(e) => tracing::debug!(rid = %rid, "no recurrent state saved: {e}"),
        }
    }

    /// Running request `i`'s next prefill chunk of `tokens`, cut where its history ends so
    /// that its state can be saved there.
    pub(super) fn up_to_history(&self, i: usize, tokens: usize) -> usize {
        let req = &self.running[i];
        let (Some(mark), Some(kv), Some(_)) = (req.history_len, &req.kv, &self.recurrent) else {
            return tokens;
        };
        let done = kv.kv_len();
        if done < mark && mark < done + tokens {
            mark - done
        } else {
            tokens
        }
    }

    /// Saves running request `i`'s state if its passes have just reached the end of its
    /// history (see [`Self::up_to_history`]); forgets the mark once passed.
    pub(super) fn save_history_state(&mut self, i: usize) {
        let req = &mut self.running[i];
        let (Some(mark), Some(kv)) = (req.history_len, &req.kv) else {
            return;
        };
        let done = kv.kv_len();
        if done < mark {
            return;
        }
        req.history_len = None;
        if done == mark {
            let (ns, row, rid) = (req.ns, kv.row_index() as u32, req.rid.clone());
            let ids = req.fill_ids()[..mark].to_vec();
            self.save_state_at(&rid, ns, row, &ids);
        }
    }

    /// Forgets the saved states of the namespaces `flushed` names (a cache flush).
    pub(super) fn forget_states(&mut self, flushed: impl Fn(&Namespace) -> bool) {
        let Some(states) = self.recurrent.as_mut() else {
            return;
        };
        for id in states.remove_where(flushed) {
            self.model.drop_recurrent(id);
        }
    }

    /// Saved recurrent states held.
    pub(super) fn saved_states(&self) -> usize {
        self.recurrent.as_ref().map_or(0, StateCache::len)
    }
}

/// One saved state: the tokens it absorbed, in its namespace, and the model's snapshot id.
struct Entry {
    ns: Namespace,
    tokens: Vec<u32>,
    id: u64,
    used: u64,
}

/// The saved states, at most `capacity` of them.
pub(super) struct StateCache {
    capacity: usize,
    entries: Vec<Entry>,
    clock: u64,
}

impl StateCache {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            entries: Vec::new(),
            clock: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The longest saved state of `ns` whose tokens begin `ids` and are still `cached` (the
    /// tree holds their K/V): its id and length. Saved states whose tokens the tree lost are
    /// forgotten; their ids are pushed on `dropped` for the model to drop.
    pub(super) fn lookup(
        &mut self,
        ns: &Namespace,
        ids: &[u32],
        cached: impl Fn(&[u32]) -> bool,
        dropped: &mut Vec<u64>,
    ) -> Option<(u64, usize)> {
        self.clock += 1;
        loop {
            let best = (self.entries.iter().enumerate())
                .filter(|(_, e)| e.ns == *ns && !e.tokens.is_empty() && ids.starts_with(&e.tokens))
                .max_by_key(|(_, e)| e.tokens.len())
                .map(|(i, _)| i)?;
            if cached(&self.entries[best].tokens) {
                let entry = &mut self.entries[best];
                entry.used = self.clock;
                return Some((entry.id, entry.tokens.len()));
            }
            dropped.push(self.entries.swap_remove(best).id);
        }
    }

    /// Saves snapshot `id` of `tokens` in `ns`; returns the ids of snapshots no longer kept
    /// (one of the same tokens it replaces, the least recently used past the capacity), for
    /// the model to drop.
    pub(super) fn insert(&mut self, ns: Namespace, tokens: Vec<u32>, id: u64) -> Vec<u64> {
        self.clock += 1;
        let mut dropped = Vec::new();
        if let Some(i) = (self.entries.iter()).position(|e| e.ns == ns && e.tokens == tokens) {
            dropped.push(self.entries.swap_remove(i).id);
        }
        self.entries.push(Entry {
            ns,
            tokens,
            id,
            used: self.clock,
        });
        while self.entries.len() > self.capacity {
            let oldest = (self.entries.iter().enumerate())
                .min_by_key(|(_, e)| e.used)
                .map(|(i, _)| i);
            match oldest {
                Some(i) => dropped.push(self.entries.swap_remove(i).id),
                None => break,
            }
        }
        dropped
    }

    /// Forgets the states of namespaces `flushed` says were flushed; returns their ids.
    pub(super) fn remove_where(&mut self, flushed: impl Fn(&Namespace) -> bool) -> Vec<u64> {
        let mut dropped = Vec::new();
        self.entries.retain(|e| {
            let keep = !flushed(&e.ns);
            if !keep {
                dropped.push(e.id);
            }
            keep
        });
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_saved_beginning_of_the_same_namespace_is_found() {
        let mut cache = StateCache::new(3);
        let (a, b) = (Namespace::global(), Namespace::global().with_salt("b"));
        assert!(cache.insert(a.clone(), vec![1, 2], 10).is_empty());
        assert!(cache.insert(a.clone(), vec![1, 2, 3, 4], 11).is_empty());
        assert!(cache.insert(b.clone(), vec![1, 2, 3], 12).is_empty());
        let mut dropped = Vec::new();
        let mut find = |cache: &mut StateCache, ns: &Namespace, ids: &[u32]| {
            cache.lookup(ns, ids, |_| true, &mut dropped)
        };
        assert_eq!(find(&mut cache, &a, &[1, 2, 3, 4, 5]), Some((11, 4)));
        assert_eq!(find(&mut cache, &a, &[1, 2, 3, 5]), Some((10, 2)));
        assert_eq!(find(&mut cache, &b, &[1, 2, 3, 4]), Some((12, 3)));
        assert_eq!(find(&mut cache, &b, &[1, 2]), None);
        assert!(dropped.is_empty());
        // Replacing the same tokens drops the old copy; past the capacity the least
        // recently used goes (11, looked up before 12 was).
        assert_eq!(cache.insert(a.clone(), vec![1, 2], 13), [10]);
        assert_eq!(cache.insert(a.clone(), vec![7], 14), [11]);
        assert_eq!(cache.len(), 3);
        let mut flushed = cache.remove_where(|ns| *ns == a);
        flushed.sort();
        assert_eq!(flushed, [13, 14]);
        assert_eq!(
            cache.lookup(&a, &[1, 2, 3, 4], |_| true, &mut Vec::new()),
            None
        );
    }

    #[test]
    fn a_saved_state_whose_tokens_the_tree_lost_gives_way_to_a_shorter_one() {
        let mut cache = StateCache::new(4);
        let ns = Namespace::global();
        cache.insert(ns.clone(), vec![1, 2], 20);
        cache.insert(ns.clone(), vec![1, 2, 3, 4], 21);
        let mut dropped = Vec::new();
        // The tree holds only the first two tokens.
        let cached = |tokens: &[u32]| tokens.len() <= 2;
        assert_eq!(
            cache.lookup(&ns, &[1, 2, 3, 4, 5], cached, &mut dropped),
            Some((20, 2))
        );
        assert_eq!(dropped, [21]);
        assert_eq!(cache.len(), 1);
    }
}
