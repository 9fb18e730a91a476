//! Live salted cache namespaces, counted so that no client can grow them without bound.
//!
//! A salted namespace is live from the first submission that names it until it has no request
//! in flight and the tree holds nothing of it (the tree then reclaims it). The handle enters
//! a namespace at submission; the scheduler thread reports each request's end and each
//! namespace the tree reclaims. Both sides hold one mutex, taken only for salted requests,
//! so the count is exact.
//!
//! At the per-tenant cap, a new salt takes the place of the caller's least recently used
//! salted namespace that only holds cache (no request in flight): that namespace is given up
//! at once and its cache flushed, so the tenant churns its own cache. At the global cap the
//! least recently used cache-only salted namespace of any tenant goes (salted caches are the
//! clients' own partitions; the unsalted caches and fair shares are untouched). Only when no
//! such namespace is left is the new one refused (429 naming the limit).

use super::SubmitError;
use radix::{CacheScope, Namespace};
use rustc_hash::FxHashMap;

/// Longest `cache_salt`, in bytes.
pub const MAX_SALT_BYTES: usize = 256;

/// Caps on live salted namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SaltLimits {
    /// Per cache scope: per tenant, or for everyone in open (single-tenant) serving.
    pub per_tenant: usize,
    /// Over all scopes.
    pub total: usize,
}

impl Default for SaltLimits {
    fn default() -> Self {
        Self {
            per_tenant: 1024,
            total: 16384,
        }
    }
}

#[derive(Default)]
struct SaltEntry {
    /// Submitted and not yet ended.
    requests: u32,
    /// The tree held the namespace when its last request ended.
    cached: bool,
    /// When a request last entered it (the registry's own clock).
    last_used: u64,
}

#[derive(Default)]
pub(crate) struct SaltRegistry {
    limits: SaltLimits,
    live: FxHashMap<Namespace, SaltEntry>,
    per_scope: FxHashMap<CacheScope, usize>,
    clock: u64,
}

impl SaltRegistry {
    pub fn new(limits: SaltLimits) -> Self {
        Self {
            limits,
            ..Self::default()
        }
    }

    /// Counts one more request in `ns` (a salted namespace), creating it within the caps.
    /// At a cap, returns the cache-only namespace it replaces: the caller must flush it.
    pub fn enter(&mut self, ns: &Namespace) -> Result<Option<Namespace>, SubmitError> {
        self.clock += 1;
        if let Some(entry) = self.live.get_mut(ns) {
            entry.requests += 1;
            entry.last_used = self.clock;
            return Ok(None);
        }
        let in_scope = self.per_scope.get(&ns.scope).copied().unwrap_or(0);
        let victim = if in_scope >= self.limits.per_tenant {
            Some(self.idle_victim(Some(ns.scope)).ok_or_else(|| {
                SubmitError::ResourceExhausted(format!(
                    "cache_salt: {in_scope} salted cache namespaces of this caller have \
                     requests in flight; max_cache_salts_per_tenant is {}: reuse a salt, or \
                     retry when some have finished",
                    self.limits.per_tenant
                ))
            })?)
        } else if self.live.len() >= self.limits.total {
            Some(self.idle_victim(None).ok_or_else(|| {
                SubmitError::ResourceExhausted(format!(
                    "cache_salt: {} salted cache namespaces have requests in flight; \
                     max_cache_salts is {}: retry later",
                    self.live.len(),
                    self.limits.total
                ))
            })?)
        } else {
            None
        };
        if let Some(victim) = &victim {
            self.remove(victim);
        }
        self.live.insert(
            ns.clone(),
            SaltEntry {
                requests: 1,
                cached: false,
                last_used: self.clock,
            },
        );
        *self.per_scope.entry(ns.scope).or_insert(0) += 1;
        Ok(victim)
    }

    /// Undoes an `enter` whose request was not queued after all.
    pub fn withdraw(&mut self, ns: &Namespace) {
        if let Some(entry) = self.live.get_mut(ns) {
            entry.requests = entry.requests.saturating_sub(1);
        }
        self.drop_if_dead(ns);
    }

    /// The least recently used namespace (of `scope`, or of any) with no request in flight.
    fn idle_victim(&self, scope: Option<CacheScope>) -> Option<Namespace> {
        self.live
            .iter()
            .filter(|(ns, e)| e.requests == 0 && scope.is_none_or(|s| ns.scope == s))
            .min_by_key(|(_, e)| e.last_used)
            .map(|(ns, _)| ns.clone())
    }

    /// One request of `ns` ended; `still_cached` says whether the tree still holds `ns`.
    pub fn leave(&mut self, ns: &Namespace, still_cached: bool) {
        if let Some(entry) = self.live.get_mut(ns) {
            entry.requests = entry.requests.saturating_sub(1);
            entry.cached = still_cached;
        }
        self.drop_if_dead(ns);
    }

    /// The tree reclaimed `ns`.
    pub fn reclaimed(&mut self, ns: &Namespace) {
        if let Some(entry) = self.live.get_mut(ns) {
            entry.cached = false;
        }
        self.drop_if_dead(ns);
    }

    /// Live salted namespaces in all.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    fn drop_if_dead(&mut self, ns: &Namespace) {
        let dead = self
            .live
            .get(ns)
            .is_some_and(|e| e.requests == 0 && !e.cached);
        if dead {
            self.remove(ns);
        }
    }

    fn remove(&mut self, ns: &Namespace) {
        if self.live.remove(ns).is_some() {
            if let Some(n) = self.per_scope.get_mut(&ns.scope) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.per_scope.remove(&ns.scope);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn salted(tenant: u32, salt: &str) -> Namespace {
        Namespace::scoped(CacheScope::Tenant(tenant)).with_salt(salt)
    }

    #[test]
    fn at_a_cap_a_new_salt_replaces_the_oldest_cache_only_one_or_is_refused() {
        let mut r = SaltRegistry::new(SaltLimits {
            per_tenant: 2,
            total: 3,
        });
        assert_eq!(r.enter(&salted(1, "a")).unwrap(), None);
        assert_eq!(r.enter(&salted(1, "b")).unwrap(), None);
        // A live namespace takes more requests; a third one finds no idle one to replace.
        assert_eq!(r.enter(&salted(1, "a")).unwrap(), None);
        let err = r.enter(&salted(1, "c")).unwrap_err();
        assert!(
            matches!(&err, SubmitError::ResourceExhausted(m) if m.contains("max_cache_salts_per_tenant is 2")),
            "{err}"
        );
        assert_eq!(r.enter(&salted(2, "a")).unwrap(), None);
        let err = r.enter(&salted(3, "a")).unwrap_err();
        assert!(err.to_string().contains("max_cache_salts is 3"), "{err}");
        // "b" ends uncached: gone at once. "a" ends cached: it stays, holding cache only.
        r.leave(&salted(1, "b"), false);
        r.leave(&salted(1, "a"), true);
        r.leave(&salted(1, "a"), true);
        assert_eq!(r.len(), 2);
        assert_eq!(r.enter(&salted(1, "c")).unwrap(), None);
        // Tenant 1 is at its cap again: "d" replaces the idle "a", never the busy "c".
        assert_eq!(r.enter(&salted(1, "d")).unwrap(), Some(salted(1, "a")));
        assert_eq!(r.len(), 3);
        // The flush's reclaim of "a" comes later and changes nothing.
        r.reclaimed(&salted(1, "a"));
        assert_eq!(r.len(), 3);
        // Over all: tenant 2's idle "a" makes room for tenant 4 once it is cache only.
        assert!(r.enter(&salted(4, "x")).is_err());
        r.leave(&salted(2, "a"), true);
        assert_eq!(r.enter(&salted(4, "x")).unwrap(), Some(salted(2, "a")));
        r.withdraw(&salted(4, "x"));
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn a_reclaim_does_not_drop_a_namespace_with_requests_in_flight() {
        let mut r = SaltRegistry::new(SaltLimits::default());
        r.enter(&salted(1, "a")).unwrap();
        r.reclaimed(&salted(1, "a"));
        assert_eq!(r.len(), 1);
        r.leave(&salted(1, "a"), false);
        assert_eq!(r.len(), 0);
    }
}
