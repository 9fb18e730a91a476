//! Aborts by request id, and the registry of ids in flight that lets them reach a call
//! before its requests are queued (see `crate::io::Call`).

use super::{EngineHandle, GenerateRequest, SubmitError};
use crate::io::{AbortScope, Call, Command};
use crate::tenants::TenantId;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl EngineHandle {
    /// Registers the id of each of `requests` that has none registered yet (the engine
    /// makes one up for a request without), so that an abort by it reaches the request
    /// from now on. The doors call [`EngineHandle::open_call`] before a prompt is built
    /// (this before a grammar compiles, for requests that have no call yet);
    /// [`EngineHandle::submit_group`] registers the rest. Refused when the caller already
    /// has one of the ids in flight, or names one twice: an abort by it would end both.
    pub fn open_calls(&self, requests: &mut [GenerateRequest]) -> Result<(), SubmitError> {
        for request in requests.iter_mut().filter(|r| r.call.is_none()) {
            let call = self.open_call(request.tenant, request.rid.as_deref())?;
            request.attach_call(call);
        }
        Ok(())
    }

    /// Registers `rid` (an id of the engine's when `None`) for `tenant`, for a door that
    /// has no request yet (its prompt still to build); the call goes into the request's
    /// `call`, its id into `rid`. Refused when `tenant` has the id in flight.
    pub fn open_call(&self, tenant: TenantId, rid: Option<&str>) -> Result<Arc<Call>, SubmitError> {
        let calls = &self.inner.shared.calls;
        let Some(rid) = rid else {
            // A client may have named a call "req-N" itself: the engine's next number then.
            for _ in 0..64 {
                if let Some(call) = calls.open(tenant, &self.new_rid()) {
                    return Ok(call);
                }
            }
            return Err(SubmitError::Unavailable(
                "no request id of the engine's was free".into(),
            ));
        };
        calls.open(tenant, rid).ok_or_else(|| {
            SubmitError::AlreadyExists(format!(
                "request id {rid:?} is already in flight: ids must be unique"
            ))
        })
    }

    /// `n` calls named by the engine for `tenant`, for a door whose requests have no ids of
    /// their client's and whose prompts are still to build.
    pub fn open_engine_calls(
        &self,
        tenant: TenantId,
        n: usize,
    ) -> Result<Vec<Arc<Call>>, SubmitError> {
        (0..n).map(|_| self.open_call(tenant, None)).collect()
    }

    /// An id of the engine's own, for a request its client did not name.
    pub(super) fn new_rid(&self) -> String {
        let n = self.inner.shared.next_rid.fetch_add(1, Ordering::Relaxed);
        format!("req-{n}")
    }

    /// Aborts the request with id `rid` wherever it is; unknown ids are ignored.
    pub fn abort(&self, rid: &str) {
        self.abort_owned(rid, AbortScope::Any);
    }

    /// Aborts the requests with id `rid` that `scope` names, queued or not yet; whether a
    /// call registered by [`EngineHandle::open_calls`] had the id (requests submitted
    /// alone are ended all the same, but not counted).
    pub fn abort_owned(&self, rid: &str, scope: AbortScope) -> bool {
        let calls = &self.inner.shared.calls;
        // Decided here when the preferred tenant has a call of the id: the scheduler sees
        // only queued requests, and would end another tenant's while this one prepares.
        let scope = match scope {
            AbortScope::PreferTenant(t) if calls.contains(rid, Some(t)) => AbortScope::Tenant(t),
            other => other,
        };
        // Marked first: a call that checks its mark after this finds it, and one that
        // queued before it is behind this command in the scheduler's inbox.
        let found = calls.mark(rid, scope);
        self.abort_queued(rid, scope);
        found
    }

    /// Ends the requests with id `rid` that `scope` names in the scheduler.
    pub(super) fn abort_queued(&self, rid: &str, scope: AbortScope) {
        let _ = self.inner.tx.send(Command::Abort {
            rid: rid.to_string(),
            scope,
        });
    }

    /// Aborts every request of `tenant` (of every tenant for `None`) in the engine now,
    /// and every call of theirs not yet queued.
    pub fn abort_every(&self, tenant: Option<TenantId>) {
        self.inner.shared.calls.mark_all(tenant);
        let _ = self.inner.tx.send(Command::AbortAll { tenant });
    }
}
