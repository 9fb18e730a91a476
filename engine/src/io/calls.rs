//! Request ids of the calls in flight, from before their requests reach the scheduler until
//! their streams are dropped, so that an abort by id reaches a call wherever it is: while its
//! prompt is built or its grammar compiles, between the samples of an `n > 1` request, and
//! in the scheduler. An abort marks the call; submission checks the mark before and after it
//! queues each request (see `EngineHandle::submit`).
//!
//! Ids are the clients' own strings (or the engine's `req-N`), so they are kept per tenant:
//! one tenant's id never hides or shadows another's, and a tenant may not have one id in
//! flight twice (an abort by that id would end both calls).

use super::AbortScope;
use crate::tenants::TenantId;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A call's tenant and request id.
type CallKey = (TenantId, String);

/// Live (tenant, request id) pairs, each with whether an abort named it.
#[derive(Clone, Default)]
pub(crate) struct CallRegistry {
    calls: Arc<Mutex<FxHashMap<CallKey, Arc<AtomicBool>>>>,
}

/// One call's registration, shared by its samples' requests and streams; removed when the
/// last of them is dropped.
pub struct Call {
    registry: CallRegistry,
    key: CallKey,
    aborted: Arc<AtomicBool>,
}

impl CallRegistry {
    /// Registers `rid` for `tenant`; `None` when that tenant already has it in flight.
    pub fn open(&self, tenant: TenantId, rid: &str) -> Option<Arc<Call>> {
        let key = (tenant, rid.to_string());
        let aborted = Arc::new(AtomicBool::new(false));
        let mut calls = self.calls.lock();
        if calls.contains_key(&key) {
            return None;
        }
        calls.insert(key.clone(), aborted.clone());
        Some(Arc::new(Call {
            registry: self.clone(),
            key,
            aborted,
        }))
    }

    /// Whether `rid` is in flight for `tenant` (for any tenant when `None`).
    pub fn contains(&self, rid: &str, tenant: Option<TenantId>) -> bool {
        let calls = self.calls.lock();
        match tenant {
            Some(t) => calls.contains_key(&(t, rid.to_string())),
            None => calls.keys().any(|(_, id)| id == rid),
        }
    }

    /// Marks the calls with id `rid` that `scope` names as aborted; whether there were any.
    pub fn mark(&self, rid: &str, scope: AbortScope) -> bool {
        let calls = self.calls.lock();
        let one = |tenant: TenantId| {
            // One lookup: a flood of aborts must not scan every call in flight.
            let found = calls.get(&(tenant, rid.to_string()));
            if let Some(aborted) = found {
                aborted.store(true, Ordering::Release);
            }
            found.is_some()
        };
        match scope {
            AbortScope::Tenant(t) => one(t),
            AbortScope::PreferTenant(t) if one(t) => true,
            AbortScope::PreferTenant(_) | AbortScope::Any => {
                let mut found = false;
                for ((_, id), aborted) in calls.iter() {
                    if id == rid {
                        aborted.store(true, Ordering::Release);
                        found = true;
                    }
                }
                found
            }
        }
    }

    /// Marks every call of `tenant` (of every tenant for `None`) as aborted.
    pub fn mark_all(&self, tenant: Option<TenantId>) {
        for ((t, _), aborted) in self.calls.lock().iter() {
            if tenant.is_none_or(|only| only == *t) {
                aborted.store(true, Ordering::Release);
            }
        }
    }
}

impl Call {
    /// Whether an abort named this call.
    pub fn aborted(&self) -> bool {
        self.aborted.load(Ordering::Acquire)
    }

    pub fn rid(&self) -> &str {
        &self.key.1
    }

    pub fn tenant(&self) -> TenantId {
        self.key.0
    }
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("tenant", &self.key.0)
            .field("rid", &self.key.1)
            .field("aborted", &self.aborted())
            .finish()
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        self.registry.calls.lock().remove(&self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_per_tenant_and_unique_within_one() {
        let calls = CallRegistry::default();
        let a = calls.open(1, "r").unwrap();
        let b = calls.open(2, "r").unwrap();
        assert!(calls.open(1, "r").is_none(), "a duplicate in flight");
        assert!(calls.contains("r", Some(1)) && calls.contains("r", Some(2)));
        assert!(!calls.contains("r", Some(3)));
        drop(a);
        assert!(!calls.contains("r", Some(1)) && calls.contains("r", None));
        drop(b);
        assert!(!calls.contains("r", None));
        // Free again once the first call ended.
        let _again = calls.open(1, "r").unwrap();
    }

    #[test]
    fn an_abort_marks_only_the_calls_its_scope_names() {
        let calls = CallRegistry::default();
        let c = calls.open(1, "s").unwrap();
        let d = calls.open(2, "s").unwrap();
        assert!(!calls.mark("s", AbortScope::Tenant(3)));
        assert!(calls.mark("s", AbortScope::Tenant(2)));
        assert!(!c.aborted() && d.aborted());
        // An administrator's own id first; another tenant's only when it has none.
        let e = calls.open(1, "t").unwrap();
        let f = calls.open(9, "t").unwrap();
        assert!(calls.mark("t", AbortScope::PreferTenant(9)));
        assert!(!e.aborted() && f.aborted());
        assert!(calls.mark("s", AbortScope::PreferTenant(9)));
        assert!(c.aborted());
        let g = calls.open(4, "u").unwrap();
        let h = calls.open(5, "v").unwrap();
        calls.mark_all(Some(5));
        assert!(!g.aborted() && h.aborted());
        calls.mark_all(None);
        assert!(g.aborted() && e.aborted());
        assert!(!calls.mark("w", AbortScope::Any));
    }
}
