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
        /// Only a request of this tenant is aborted (`None`: any).
        tenant: Option<TenantId>,
    },
    SetTenants(Vec<TenantLimits>),
    Flush {
        namespace: Option<Namespace>,
        reply: oneshot::Sender<Result<usize, String>>,
    },
    Shutdown {
        grace: Duration,
    },
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
        }
    }
}
