//! KV memory per tenant: what a tenant holds (its running requests' slots plus its private
//! cached prefixes), its quota, and which cached prefixes its work may evict.
//!
//! Private namespaces (and their salted variants) belong to their tenant; global and group
//! namespaces belong to nobody and are evictable by anyone. A tenant's work may evict its own
//! cache, shared caches, and what other tenants cache above their fair share of the pool (by
//! weight), down to that share; never another tenant's cache within its fair share, except
//! for a request that runs alone (nobody else's work is waiting on that memory, and the
//! request could otherwise wait forever or end short).

use super::{Req, Scheduler};
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

    /// What `tenant`'s running requests may still come to own outside its cache: every
    /// token of prompt and output budget beyond their cached prefix (a hard bound for
    /// quotas). In a shared namespace, what a request computed into the tree stays its own
    /// while it runs (it is locked there, and counts in nobody's cache), so only the prefix
    /// it found at admission is left out.
    pub(super) fn running_footprint_of(&self, tenant: TenantId) -> usize {
        self.running
            .iter()
            .filter(|r| r.tenant == tenant)
            .map(|r| {
                let total = r.input_ids.len() + r.params.max_new_tokens as usize;
                let cached = r.kv.as_ref().map_or(0, |kv| kv.cached_len());
                total.saturating_sub(cached - self.computed_into_shared(r))
            })
            .sum()
    }

    /// Tokens running request `r` computed into a shared namespace's tree since its
    /// admission (zero in a private one, whose cache counts as its tenant's anyway).
    fn computed_into_shared(&self, r: &Req) -> usize {
        match &r.kv {
            Some(kv) if self.ns_owner(r.ns).is_none() => {
                kv.cached_len().saturating_sub(r.admitted_prefix)
            }
            _ => 0,
        }
    }

    /// Slots `tenant`'s running requests hold outside its cache: those outside the tree,
    /// and, in a shared namespace, what they computed into it (see `running_footprint_of`).
    pub(super) fn running_kv_of(&self, tenant: TenantId) -> usize {
        self.running
            .iter()
            .filter(|r| r.tenant == tenant)
            .filter_map(|r| Some((r, r.kv.as_ref()?)))
            .map(|(r, kv)| self.cache.owned_slots(kv) + self.computed_into_shared(r))
            .sum()
    }

    /// What `tenant`'s work may evict: its own cache and shared ones; another tenant's only
    /// what that tenant holds above its fair share (its cache stays at its share, whole
    /// leaves rounding down).
    fn eviction_rights(&self, tenant: TenantId) -> EvictionRights {
        let capacity = self.cache.allocator().capacity();
        let cached = self.cached_by_tenant();
        let budget = (cached.iter().enumerate())
            .map(|(owner, &held)| {
                let owner = owner as TenantId;
                held.saturating_sub(self.tenants.fair_share(owner, capacity))
            })
            .collect();
        let by_ns = self.namespace_rights(|owner| match owner {
            None => Right::Always,
            Some(owner) if owner == tenant => Right::Always,
            Some(owner) => Right::UpTo(owner),
        });
        EvictionRights { by_ns, budget }
    }

    /// Each live namespace's right, from its owner (`None` for shared ones), indexed by
    /// namespace id (ids of reclaimed namespaces leave holes, which read `Never`).
    fn namespace_rights(&self, mut right: impl FnMut(Option<TenantId>) -> Right) -> Vec<Right> {
        let tree = self.cache.tree();
        let len = tree
            .namespace_ids()
            .map(|ns| ns.index() + 1)
            .max()
            .unwrap_or(0);
        let mut rights = vec![Right::Never; len];
        for ns in tree.namespace_ids() {
            rights[ns.index()] = right(self.ns_owner(ns));
        }
        rights
    }

    /// Tokens eviction could free for `tenant`'s work.
    pub(super) fn evictable_for(&self, tenant: TenantId) -> usize {
        let rights = self.eviction_rights(tenant);
        let tree = self.cache.tree();
        let mut from_owner = vec![0usize; rights.budget.len()];
        let mut free = 0;
        for ns in tree.namespace_ids() {
            let evictable = tree.namespace_stats(ns).map_or(0, |s| s.evictable_tokens);
            match rights.by_ns.get(ns.index()) {
                Some(Right::Always) => free += evictable,
                Some(&Right::UpTo(owner)) => {
                    if let Some(n) = from_owner.get_mut(owner as usize) {
                        *n += evictable;
                    }
                }
                _ => {}
            }
        }
        let capped: usize = (from_owner.iter().zip(&rights.budget))
            .map(|(&evictable, &budget)| evictable.min(budget))
            .sum();
        free + capped
    }

    /// Evicts up to `tokens` (whole leaves) from what `tenant`'s work may evict.
    pub(super) fn evict_for(&mut self, tenant: TenantId, tokens: usize) -> usize {
        let mut rights = self.eviction_rights(tenant);
        self.evict_marked(tokens, |ns, len| rights.take(ns, len))
    }

    /// Evicts up to `tokens` from any namespace's unlocked cache, fair shares aside (for
    /// a request that runs alone, see `admission` and `prepare_for_decode`).
    pub(super) fn evict_any(&mut self, tokens: usize) -> usize {
        self.evict_marked(tokens, |_, _| true)
    }

    /// Tokens eviction could free from any namespace.
    pub(super) fn evictable_any(&self) -> usize {
        self.cache.tree().evictable_where(|_| true)
    }

    /// Evicts up to `tokens` of `tenant`'s own private cache (it is over its KV quota).
    pub(super) fn evict_own(&mut self, tenant: TenantId, tokens: usize) -> usize {
        let mut rights = EvictionRights {
            by_ns: self.namespace_rights(|owner| match owner {
                Some(owner) if owner == tenant => Right::Always,
                _ => Right::Never,
            }),
            budget: Vec::new(),
        };
        self.evict_marked(tokens, |ns, len| rights.take(ns, len))
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

/// What one eviction may take from a namespace.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Right {
    Never,
    Always,
    /// Within the budget of the namespace's owner (shared by all its namespaces).
    UpTo(TenantId),
}

/// The rights of one eviction, per namespace id, and the budget left per owning tenant.
struct EvictionRights {
    by_ns: Vec<Right>,
    budget: Vec<usize>,
}

impl EvictionRights {
    /// Whether a leaf of `tokens` tokens in `ns` may go; if so it is taken from its owner's
    /// budget (the tree evicts a leaf as soon as it is accepted).
    fn take(&mut self, ns: NsId, tokens: usize) -> bool {
        match self.by_ns.get(ns.index()) {
            Some(Right::Always) => true,
            Some(&Right::UpTo(owner)) => match self.budget.get_mut(owner as usize) {
                Some(left) if *left >= tokens => {
                    *left -= tokens;
                    true
                }
                _ => false,
            },
            _ => false,
        }
    }
}
