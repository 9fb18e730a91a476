//! What the scheduler and the engine's front door enforce per tenant.

use std::sync::Arc;

/// A tenant's index: fairness counters, quotas and namespaces are keyed by it. Stable for a
/// tenant name across reloads of the tenants file.
pub type TenantId = u32;

/// A token rate limit: a bucket of `burst` tokens refilled at `per_second`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenRate {
    pub per_second: f64,
    pub burst: f64,
}

/// One tenant's share and limits. `None` means unlimited.
#[derive(Clone, Debug, PartialEq)]
pub struct TenantLimits {
    pub name: Arc<str>,
    /// Share of processed tokens under contention, relative to the other tenants' weights.
    pub weight: f64,
    pub max_running_requests: Option<usize>,
    pub max_queued_requests: Option<usize>,
    /// Tokens held by the tenant's running requests plus its private cached prefixes.
    pub kv_quota_tokens: Option<usize>,
    /// Prompt plus requested output tokens admitted per second.
    pub token_rate: Option<TokenRate>,
    /// The cache group it shares prefixes in (id of `CacheScope::Group`, and name), if any:
    /// lower K/V tiers key a group's pages by its name, which outlives ids.
    pub cache_group: Option<(u32, Arc<str>)>,
    /// Removed from the tenants file by a reload: its requests still in the engine finish
    /// under these limits, but its weight no longer counts in anyone's fair share, and its
    /// cache is anyone's to evict.
    pub removed: bool,
}

impl TenantLimits {
    /// The one tenant of an open (single-tenant) server.
    pub fn unlimited(name: &str) -> Self {
        Self {
            name: name.into(),
            weight: 1.0,
            max_running_requests: None,
            max_queued_requests: None,
            kv_quota_tokens: None,
            token_rate: None,
            cache_group: None,
            removed: false,
        }
    }
}
