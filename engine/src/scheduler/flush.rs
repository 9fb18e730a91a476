//! Flushing the prefix cache: everything (an administrator's flush), or a caller's
//! namespace, which holds its caches under every LoRA adapter too, in the pool and on disk.

use super::Scheduler;
use crate::model::ForwardModel;
use pools::PoolError;
use radix::Namespace;

impl<M: ForwardModel> Scheduler<M> {
    /// Flushes `namespace`, or everything; returns the tokens freed from the pool. Unless
    /// `exact`, a namespace that names no adapter takes its adapters' caches with it, and
    /// one that names no salt every salt's of its scope: a caller's flush drops all it
    /// cached, on disk too (its pages there are found by their owner, see `owner_tag`).
    pub(super) fn flush(
        &mut self,
        namespace: Option<Namespace>,
        exact: bool,
    ) -> Result<usize, PoolError> {
        let Some(ns) = namespace else {
            self.forget_states(|_| true);
            self.flush_disk(None);
            let freed = self.cache.flush_all();
            self.sync_salts();
            return freed;
        };
        let tree = self.cache.tree();
        let mine = |n: &Namespace| {
            n.scope == ns.scope
                && (n.salt == ns.salt || (!exact && ns.salt.is_none()))
                && (n.adapter == ns.adapter || (!exact && ns.adapter.is_none()))
        };
        let mut all: Vec<Namespace> = (tree.namespace_ids())
            .filter_map(|id| tree.namespace(id).filter(|n| mine(n)).cloned())
            .collect();
        // Its disk pages may outlive its pool cache: each adapter file's too, under each
        // salt it has.
        let files = match (&self.disk, ns.adapter) {
            (Some(disk), None) if !exact => disk.adapter_files(),
            _ => Vec::new(),
        };
        let adapters: Vec<Option<u32>> = std::iter::once(ns.adapter)
            .chain(files.into_iter().map(Some))
            .collect();
        let mut salts = vec![ns.salt.clone()];
        salts.extend(all.iter().map(|n| n.salt.clone()));
        salts.sort();
        salts.dedup();
        let mut seen: rustc_hash::FxHashSet<Namespace> = all.iter().cloned().collect();
        for salt in salts {
            for &adapter in &adapters {
                let ns = Namespace {
                    adapter,
                    salt: salt.clone(),
                    ..ns.clone()
                };
                if seen.insert(ns.clone()) {
                    all.push(ns);
                }
            }
        }
        if !exact && ns.salt.is_none() && ns.adapter.is_none() {
            // All it owns, its salts the tree no longer holds too.
            self.flush_disk_owned(&all, &ns);
        } else {
            self.flush_disk(Some(&all));
        }
        // Its saved recurrent states too, those of namespaces the tree no longer holds.
        self.forget_states(|n| mine(n) || all.contains(n));
        let mut freed = Ok(0);
        for ns in &all {
            // Flushing a namespace that does not exist (any more) frees nothing.
            if let Some(id) = self.cache.tree().find_namespace(ns) {
                freed = freed.and_then(|n| Ok(n + self.cache.flush_namespace(id)?));
            }
        }
        self.sync_salts();
        freed
    }
}
