//! What the handle and the scheduler thread share: the command channel's messages and a
//! snapshot of the engine's state.

use super::{EventSender, GenerateRequest, ServerInfo};
use super::{SaltLimits, SaltRegistry};
use crate::tenants::{TenantId, TenantLimits};
use parking_lot::Mutex;
use radix::Namespace;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// A validated request on its way to the scheduler.
pub(crate) struct NewRequest {
    pub rid: String,
    pub request: GenerateRequest,
    pub tx: EventSender,
    pub submitted_at: Instant,
}

pub(crate) enum Command {
    Submit(Box<NewRequest>),
    Abort {
        rid: String,
        scope: AbortScope,
    },
    /// Ends every request of `tenant` (of every tenant for `None`), wherever it is.
    AbortAll {
        tenant: Option<TenantId>,
    },
    SetTenants(Vec<TenantLimits>),
    Flush {
        namespace: Option<Namespace>,
        /// Only `namespace` itself; otherwise a namespace without an adapter takes its
        /// caches under every adapter with it (a caller's flush).
        exact: bool,
        reply: oneshot::Sender<Result<usize, String>>,
    },
    Shutdown {
        grace: Duration,
    },
    /// Adds a LoRA adapter read while serving to the model, answering its number. It is a
    /// `model::lora::LoraAdapter`, boxed as `Any`: the model imports this module, so this
    /// module does not name the model's types.
    AddAdapter {
        adapter: Box<dyn std::any::Any + Send>,
        name: String,
        sha256: String,
        reply: oneshot::Sender<Result<u32, String>>,
    },
    /// Takes no new request for adapter `id`; drops it once none uses it.
    UnloadAdapter {
        id: u32,
    },
}

/// Whose requests an abort by id ends (ids are chosen by clients, so tenants may share one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortScope {
    /// Every request with the id.
    Any,
    /// Only this tenant's.
    Tenant(TenantId),
    /// This tenant's if it has one with the id in flight, else every tenant's (an
    /// administrator aborting its own request must not end other tenants' of the same id).
    PreferTenant(TenantId),
}

impl AbortScope {
    /// What an abort by id from `caller` ends: a tenant's only its own requests; an
    /// administrator's its own if it has one with the id in flight, else any tenant's.
    pub fn of_caller(caller: &crate::tenants::Caller) -> Self {
        if caller.is_admin {
            AbortScope::PreferTenant(caller.tenant)
        } else {
            AbortScope::Tenant(caller.tenant)
        }
    }

    /// Whether a request of `tenant` is ended; `own_found`: the preferred tenant has one.
    pub(crate) fn ends(self, tenant: TenantId, own_found: bool) -> bool {
        match self {
            AbortScope::Any => true,
            AbortScope::Tenant(t) => t == tenant,
            AbortScope::PreferTenant(t) => t == tenant || !own_found,
        }
    }
}

pub(crate) struct Shared {
    pub info: Mutex<ServerInfo>,
    /// Requests waiting: counted up at submission, set exactly at each scheduler step.
    pub queued: AtomicUsize,
    /// The same per tenant id.
    pub tenant_queued: Mutex<Vec<usize>>,
    pub draining: AtomicBool,
    pub next_rid: AtomicU64,
    /// Live salted namespaces: entered at submission, left by the scheduler.
    pub salts: Mutex<SaltRegistry>,
    /// The request ids in flight, for aborts that come before or between submissions.
    pub calls: super::CallRegistry,
}

impl Shared {
    pub fn new(salt_limits: SaltLimits) -> Self {
        Self {
            info: Mutex::default(),
            queued: AtomicUsize::new(0),
            tenant_queued: Mutex::default(),
            draining: AtomicBool::new(false),
            next_rid: AtomicU64::new(0),
            salts: Mutex::new(SaltRegistry::new(salt_limits)),
            calls: super::CallRegistry::default(),
        }
    }
}
