//! What crosses between the engine's front door and its scheduler thread, in one place that
//! both import (neither imports the other's types): requests, the events streamed back, the
//! commands on the scheduler's inbox, and the state they share (the snapshot, the
//! registry of live cache salts).

mod calls;
mod events;
mod salts;
mod shared;
mod types;

pub use calls::Call;
pub(crate) use calls::CallRegistry;
pub use events::MAX_UNREAD_EVENTS;
pub(crate) use events::{event_channel, EventReceiver, EventSender};
pub(crate) use salts::SaltRegistry;
pub use salts::{SaltLimits, MAX_SALT_BYTES};
pub use shared::AbortScope;
pub(crate) use shared::{Command, NewRequest, Shared};
pub use types::{
    AdapterInfo, Completion, DiskTierInfo, GenerateError, GenerateEvent, GenerateRequest,
    ModelInfo, Pooling, ServerInfo, SubmitError, TenantInfo, TokenLogprob, Usage,
};
