//! Caps on open `SubscribeKvEvents` streams. Each one costs the hub a queue and, when its
//! reader falls behind, snapshots: a gateway needs one per worker, so a tenant gets a few
//! and the server a bounded number, whatever the connection limits allow. The last few
//! places are kept for administrators (the gateway), so tenants cannot lock it out.

use crate::tenants::TenantId;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use tonic::Status;

/// Open subscriptions per tenant.
pub(super) const MAX_PER_TENANT: usize = 16;
/// Open subscriptions in all.
pub(super) const MAX_TOTAL: usize = 256;
/// Of [`MAX_TOTAL`], the places only administrators may take.
pub(super) const ADMIN_RESERVED: usize = 16;

#[derive(Clone, Default)]
pub(super) struct Subscriptions {
    open: Arc<Mutex<FxHashMap<TenantId, usize>>>,
}

/// One open subscription; given back when dropped (with its response stream).
pub(super) struct SubscriptionSlot {
    subscriptions: Subscriptions,
    tenant: TenantId,
}

impl Subscriptions {
    /// A slot for one more subscription of `tenant` (calling as an administrator or not),
    /// or RESOURCE_EXHAUSTED naming the cap.
    pub fn take(&self, tenant: TenantId, admin: bool) -> Result<SubscriptionSlot, Status> {
        let mut open = self.open.lock();
        let total: usize = open.values().sum();
        let own = open.get(&tenant).copied().unwrap_or(0);
        if own >= MAX_PER_TENANT {
            return Err(Status::resource_exhausted(format!(
                "this tenant has {own} KV event subscriptions open, the most it may \
                 (one per gateway connection is enough)"
            )));
        }
        let cap = if admin {
            MAX_TOTAL
        } else {
            MAX_TOTAL - ADMIN_RESERVED
        };
        if total >= cap {
            return Err(Status::resource_exhausted(format!(
                "{total} KV event subscriptions are open, the most this server takes"
            )));
        }
        *open.entry(tenant).or_insert(0) += 1;
        Ok(SubscriptionSlot {
            subscriptions: self.clone(),
            tenant,
        })
    }
}

impl Drop for SubscriptionSlot {
    fn drop(&mut self) {
        let mut open = self.subscriptions.open.lock();
        if let Some(n) = open.get_mut(&self.tenant) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.tenant);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tenant_and_the_server_are_capped_and_slots_come_back() {
        let subs = Subscriptions::default();
        let mine: Vec<_> = (0..MAX_PER_TENANT)
            .map(|_| subs.take(1, false).unwrap())
            .collect();
        let refused = subs.take(1, false).err().unwrap();
        assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
        drop(mine);
        let _again = subs.take(1, false).unwrap();
        let tenants: Vec<_> = (0..MAX_TOTAL - ADMIN_RESERVED - 1)
            .map(|i| subs.take(2 + (i / MAX_PER_TENANT) as TenantId, false))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(tenants.len(), MAX_TOTAL - ADMIN_RESERVED - 1);
        assert!(
            subs.take(1000, false).is_err(),
            "tenants leave the last places"
        );
        // An administrator (the gateway) still gets in, up to the server's cap.
        let admins: Vec<_> = (0..ADMIN_RESERVED)
            .map(|i| subs.take(5000 + i as TenantId, true))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(admins.len(), ADMIN_RESERVED);
        assert!(subs.take(6000, true).is_err(), "the server's cap");
    }
}
