//! The bounded pool of blocking work (prompt renders, grammar compiles) serves its queue
//! first come, first served. Each tenant may hold only as many places in that queue as the
//! pool has permits, its other calls waiting in a queue of its own: a tenant that sends
//! hundreds of costly compiles at once delays another tenant's next one by a round of the
//! pool, not by all of its own.

use crate::tenants::TenantId;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore};

pub(super) struct FairPermits {
    pool: Arc<Semaphore>,
    per_tenant: usize,
    /// One gate per tenant that ever called (tenant ids are bounded by the tenants file).
    tenants: Mutex<FxHashMap<TenantId, Arc<Semaphore>>>,
}

/// A place in the pool, held while the work runs.
pub(super) struct FairPermit {
    _pool: OwnedSemaphorePermit,
    _tenant: OwnedSemaphorePermit,
}

impl FairPermits {
    pub(super) fn new(permits: usize) -> Self {
        Self {
            pool: Arc::new(Semaphore::new(permits)),
            per_tenant: permits,
            tenants: Mutex::default(),
        }
    }

    /// Waits for the tenant's turn, then for the pool's. Fails once the pool is closed.
    pub(super) async fn acquire(&self, tenant: TenantId) -> Result<FairPermit, AcquireError> {
        let gate = self
            .tenants
            .lock()
            .entry(tenant)
            .or_insert_with(|| Arc::new(Semaphore::new(self.per_tenant)))
            .clone();
        let own = gate.acquire_owned().await?;
        let pool = self.pool.clone().acquire_owned().await?;
        Ok(FairPermit {
            _pool: pool,
            _tenant: own,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With the pool busy, tenant 0 queues five calls and then tenant 1 one: tenant 1's
    /// call runs second, right after the one place tenant 0 holds in the pool's queue.
    #[tokio::test]
    async fn a_tenants_backlog_queues_behind_itself() {
        let permits = Arc::new(FairPermits::new(1));
        let busy = permits.acquire(7).await.ok();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for tenant in [0, 0, 0, 0, 0, 1] {
            let (permits, order) = (permits.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let permit = permits.acquire(tenant).await;
                order.lock().push(tenant);
                tokio::task::yield_now().await;
                drop(permit);
            }));
            // Each call reaches its queue before the next one is made.
            for _ in 0..4 {
                tokio::task::yield_now().await;
            }
        }
        drop(busy);
        for task in tasks {
            assert!(task.await.is_ok());
        }
        assert_eq!(*order.lock(), [0, 1, 0, 0, 0, 0]);
    }
}
