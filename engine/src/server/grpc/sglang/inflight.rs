//! Request ids of the calls in flight, so that `Abort` can say whether it found one (SGLang
//! answers `success: false` for an unknown or finished id, never an error).

use crate::tenants::TenantId;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Live request ids with their tenant and how many calls use each.
#[derive(Clone, Default)]
pub(super) struct InFlightIds {
    ids: Arc<Mutex<FxHashMap<String, (TenantId, usize)>>>,
}

/// One call's registration; removed when dropped (with the response stream).
pub(super) struct InFlight {
    ids: InFlightIds,
    rid: String,
}

impl InFlightIds {
    pub fn register(&self, rid: &str, tenant: TenantId) -> InFlight {
        if !rid.is_empty() {
            self.ids
                .lock()
                .entry(rid.to_string())
                .or_insert((tenant, 0))
                .1 += 1;
        }
        InFlight {
            ids: self.clone(),
            rid: rid.to_string(),
        }
    }

    /// Whether `rid` is in flight for `tenant` (any tenant's when `None`).
    pub fn contains(&self, rid: &str, tenant: Option<TenantId>) -> bool {
        self.ids
            .lock()
            .get(rid)
            .is_some_and(|(owner, _)| tenant.is_none_or(|t| t == *owner))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.rid.is_empty() {
            return;
        }
        let mut ids = self.ids.ids.lock();
        if let Some(entry) = ids.get_mut(&self.rid) {
            entry.1 -= 1;
            if entry.1 == 0 {
                ids.remove(&self.rid);
            }
        }
    }
}
