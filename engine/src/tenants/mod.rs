//! Tenants: who may call the engine, with which limits, and which part of the prefix cache
//! their requests may see.
//!
//! Without a tenants file the server is open: every caller is the one administrator tenant
//! in the global namespace. With one, every request needs `authorization: Bearer <key>`; the
//! key (stored only as a SHA-256 hash, compared in constant time) names the tenant, and the
//! tenant's cache scope decides its radix namespace on the server, never the client.

mod adapter_access;
mod caller;
mod config;
mod keys;
mod limits;
mod rate;
mod registry;

pub use adapter_access::AdapterAccess;
pub use caller::Caller;
pub use config::{TenantEntry, TenantsFile};
pub use keys::{hash_api_key, KeyHash};
pub use limits::{TenantId, TenantLimits, TokenRate};
pub use rate::TokenBucket;
pub use registry::{AuthError, TenantRegistry};

/// Errors of reading or validating a tenants file.
#[derive(Debug, thiserror::Error)]
pub enum TenantsError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Parse(String),
    #[error("tenant {tenant:?}: {message}")]
    Invalid { tenant: String, message: String },
}
