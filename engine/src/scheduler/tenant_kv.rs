//! KV memory per tenant: what a tenant holds (its running requests' slots plus its private
//! cached prefixes), its quota, and which cached prefixes its work may evict.
//!
//! Private namespaces (and their salted variants) belong to their tenant; global and group
//! namespaces belong to nobody and are evictable by anyone. A tenant's work may evict its own
//! cache, shared caches, and the caches of tenants holding more than their fair share of the
//! pool (by weight); never another tenant's cache that is within its fair share, except for
//! a request that runs alone (nobody else's work is waiting on that memory, and the request
//! could otherwise wait forever or end short).

use super::Scheduler;
use crate::model::ForwardModel;
use crate::tenants::TenantId;
use radix::{CacheScope, NsId};

impl<M: ForwardModel> Scheduler<M> {
    /// The tenant owning namespace `ns`, if private.
    fn ns_owner(&self, ns: NsId) -> Option<TenantId> {
        match self.cache.tree().namespace(ns)?.scope {
            CacheScope::Tenant(t) => Some(t),
            CacheScope::Global | CacheScope::Group(_) => None,
        }
    }

    /// Tokens cached in each tenant's private namespaces, indexed by tenant id.
    pub(super) fn cached_by_tenant(&self) -> Vec<usize> {
        let tree = self.cache.tree();
        let mut cached = Vec::new();
        for ns in tree.namespace_ids() {
            if let (Some(t), Some(stats)) = (self.ns_owner(ns), tree.namespace_stats(ns)) {
                let t = t as usize;
                if cached.len() <= t {
                    cached.resize(t + 1, 0);
                }
                cached[t] += stats.cached_tokens;
            }
        }
        cached
    }

    /// What `tenant`'s running requests may still come to own outside the tree: every
    /// token of prompt and output budget beyond their cached prefix (a hard bound for quotas).
    pub(super) fn running_footprint_of(&self, tenant: TenantId) -> usize {
        self.running
            .iter()
            .filter(|r| r.tenant == tenant)
            .map(|r| {
                let total = r.input_ids.len() + r.params.max_new_tokens as usize;
                total.saturating_sub(r.kv.as_ref().map_or(0, |kv| kv.cached_len()))
            })
            .sum()
    }

    /// Slots `tenant`'s running requests own outside the tree.
    pub(super) fn running_kv_of(&self, tenant: TenantId) -> usize {
        self.running
            .iter()
            .filter(|r| r.tenant == tenant)
            .filter_map(|r| r.kv.as_ref())
            .map(|kv| self.cache.owned_slots(kv))
            .sum()
    }

    /// Per namespace id: may `tenant`'s work evict this namespace's unlocked cache? Shared
    /// namespaces and its own always; another tenant's only above that tenant's fair share.
    fn evictable_namespaces(&self, tenant: TenantId) -> Vec<bool> {
        let capacity = self.cache.allocator().capacity();
        let cached = self.cached_by_tenant();
        let over_share = |owner: TenantId| {
            cached.get(owner as usize).copied().unwrap_or(0)
                > self.tenants.fair_share(owner, capacity)
        };
        self.namespace_flags(|ns| match self.ns_owner(ns) {
            None => true,
            Some(owner) => owner == tenant || over_share(owner),
        })
    }

    /// `flag` of every live namespace, indexed by namespace id (ids of reclaimed namespaces
    /// leave holes, which read false).
    fn namespace_flags(&self, mut flag: impl FnMut(NsId) -> bool) -> Vec<bool> {
        let tree = self.cache.tree();
        let len = tree
            .namespace_ids()
            .map(|ns| ns.index() + 1)
            .max()
            .unwrap_or(0);
        let mut flags = vec![false; len];
        for ns in tree.namespace_ids() {
            flags[ns.index()] = flag(ns);
        }
        flags
    }

    /// Tokens eviction could free for `tenant`'s work.
    pub(super) fn evictable_for(&self, tenant: TenantId) -> usize {
        let allowed = self.evictable_namespaces(tenant);
        self.cache
            .tree()
            .evictable_where(|ns| allowed.get(ns.index()).copied().unwrap_or(false))
    }

    /// Evicts up to `tokens` (whole leaves) from what `tenant`'s work may evict.
    pub(super) fn evict_for(&mut self, tenant: TenantId, tokens: usize) -> usize {
        let allowed = self.evictable_namespaces(tenant);
        self.evict_namespaces(tokens, &allowed)
    }

    /// Evicts up to `tokens` from any namespace's unlocked cache, fair shares aside (for
    /// a request that runs alone, see `admission` and `prepare_for_decode`).
    pub(super) fn evict_any(&mut self, tokens: usize) -> usize {
        let all = self.namespace_flags(|_| true);
        self.evict_namespaces(tokens, &all)
    }

    /// Tokens eviction could free from any namespace.
    pub(super) fn evictable_any(&self) -> usize {
        self.cache.tree().evictable_where(|_| true)
    }

    /// Evicts up to `tokens` of `tenant`'s own private cache (it is over its KV quota).
    pub(super) fn evict_own(&mut self, tenant: TenantId, tokens: usize) -> usize {
        let own = self.namespace_flags(|ns| self.ns_owner(ns) == Some(tenant));
        self.evict_namespaces(tokens, &own)
    }

    /// Evicts up to `tokens` from the namespaces marked in `allowed` (indexed by namespace id).
    /// (What a disk tier is configured for is spilled there, see `tier`.)
    fn evict_namespaces(&mut self, tokens: usize, allowed: &[bool]) -> usize {
        self.evict_marked(tokens, allowed)
    }

    /// Makes `slots` free for `tenant`'s next allocation from what it may evict, then, for a
    /// request running `alone`, from any idle cache (the scheduler allocates from free slots
    /// only, never through the global LRU).
    pub(super) fn make_room_for(&mut self, tenant: TenantId, slots: usize, alone: bool) {
        let short = slots.saturating_sub(self.cache.allocator().available());
        if short > 0 {
            self.evict_for(tenant, short);
        }
        if alone {
            self.evict_any_short(slots);
        }
    }

    /// Evicts from any namespace (protected caches last, after what `tenant` may evict
    /// anyway) what it takes to have `slots` free.
    pub(super) fn evict_any_short(&mut self, slots: usize) {
        let short = slots.saturating_sub(self.cache.allocator().available());
        if short > 0 {
            self.evict_any(short);
        }
    }

    /// Brings `tenant` back within its KV quota by evicting its own unlocked cached prefixes
    /// (after a request's KV moved into its cache).
    pub(super) fn trim_to_quota(&mut self, tenant: TenantId) {
        let Some(quota) = self.tenants.limits(tenant).and_then(|l| l.kv_quota_tokens) else {
            return;
        };
        let held = self
            .cached_by_tenant()
            .get(tenant as usize)
            .copied()
            .unwrap_or(0)
            + self.running_footprint_of(tenant);
        if held > quota {
            self.evict_own(tenant, held - quota);
        }
    }
}
