//! Request ids of the calls in flight, so that `Abort` can say whether it found one (SGLang
//! answers `success: false` for an unknown or finished id, never an error).
//!
//! Ids are the clients' own strings, so they are kept per tenant: one tenant's id never
//! hides or shadows another's, and a tenant may not have one id in flight twice (an abort
//! by that id would end both calls).

use crate::tenants::TenantId;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A call's tenant and request id.
type CallKey = (TenantId, String);

/// Live (tenant, request id) pairs, each with whether an `Abort` named it.
#[derive(Clone, Default)]
pub(super) struct InFlightIds {
    ids: Arc<Mutex<FxHashMap<CallKey, Arc<AtomicBool>>>>,
}

/// One call's registration; removed when dropped (with the response stream).
pub(super) struct InFlight {
    ids: InFlightIds,
    key: Option<CallKey>,
    aborted: Arc<AtomicBool>,
}

impl InFlightIds {
    /// Registers `rid` for `tenant`; `None` when that tenant already has it in flight. An
    /// empty id (the server makes one up) is never registered.
    pub fn register(&self, rid: &str, tenant: TenantId) -> Option<InFlight> {
        let key = (!rid.is_empty()).then(|| (tenant, rid.to_string()));
        let aborted = Arc::new(AtomicBool::new(false));
        if let Some(key) = &key {
            let mut ids = self.ids.lock();
            if ids.contains_key(key) {
                return None;
            }
            ids.insert(key.clone(), aborted.clone());
        }
        Some(InFlight {
            ids: self.clone(),
            key,
            aborted,
        })
    }

    /// Whether `rid` is in flight for `tenant` (for any tenant when `None`).
    pub fn contains(&self, rid: &str, tenant: Option<TenantId>) -> bool {
        let ids = self.ids.lock();
        match tenant {
            Some(t) => ids.contains_key(&(t, rid.to_string())),
            None => ids.keys().any(|(_, id)| id == rid),
        }
    }

    /// Marks the calls [`InFlightIds::contains`] finds as aborted; whether there were any.
    pub fn mark_aborted(&self, rid: &str, tenant: Option<TenantId>) -> bool {
        let ids = self.ids.lock();
        if let Some(t) = tenant {
            // One lookup: a flood of aborts must not scan every call in flight.
            let found = ids.get(&(t, rid.to_string()));
            if let Some(aborted) = found {
                aborted.store(true, Ordering::Release);
            }
            return found.is_some();
        }
        let mut found = false;
        for ((_, id), aborted) in ids.iter() {
            if id == rid {
                aborted.store(true, Ordering::Release);
                found = true;
            }
        }
        found
    }
}

impl InFlight {
    /// Whether an `Abort` named this call (it may have come before its request reached
    /// the engine, while its grammar compiled).
    pub fn aborted(&self) -> bool {
        self.aborted.load(Ordering::Acquire)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(key) = &self.key {
            self.ids.ids.lock().remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_per_tenant_and_unique_within_one() {
        let ids = InFlightIds::default();
        let a = ids.register("r", 1).unwrap();
        let b = ids.register("r", 2).unwrap();
        assert!(ids.register("r", 1).is_none(), "a duplicate in flight");
        assert!(ids.contains("r", Some(1)) && ids.contains("r", Some(2)));
        assert!(!ids.contains("r", Some(3)));
        drop(a);
        assert!(!ids.contains("r", Some(1)) && ids.contains("r", None));
        drop(b);
        assert!(!ids.contains("r", None));
        let c = ids.register("s", 1).unwrap();
        let d = ids.register("s", 2).unwrap();
        assert!(!ids.mark_aborted("s", Some(3)));
        assert!(ids.mark_aborted("s", Some(2)));
        assert!(!c.aborted() && d.aborted());
        assert!(ids.mark_aborted("s", None));
        assert!(c.aborted());
        // Free again once the first call ended; unnamed calls never collide.
        let _again = ids.register("r", 1).unwrap();
        let _x = ids.register("", 1).unwrap();
        let _y = ids.register("", 1).unwrap();
    }
}
