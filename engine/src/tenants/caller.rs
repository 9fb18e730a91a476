//! The authenticated caller of a request, as both servers see it.

use super::{AdapterAccess, TenantId};
use radix::{CacheScope, Namespace};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct Caller {
    pub tenant: TenantId,
    pub tenant_name: Arc<str>,
    /// The cache namespace of the caller's requests; a request's `cache_salt` may only
    /// narrow it.
    pub namespace: Namespace,
    /// May flush every namespace, read `/metrics` and every tenant's statistics.
    pub is_admin: bool,
    /// The LoRA adapters it may run (and see listed).
    pub adapters: AdapterAccess,
}

impl Caller {
    /// The namespace of one request: the caller's, narrowed by the request's salt if any.
    pub fn namespace_for(&self, cache_salt: Option<&str>) -> Namespace {
        match cache_salt {
            Some(salt) if !salt.is_empty() => self.namespace.clone().with_salt(salt),
            _ => self.namespace.clone(),
        }
    }

    /// Whether the caller may run (and see) the LoRA adapter named `adapter`.
    pub fn may_use_adapter(&self, adapter: &str) -> bool {
        self.adapters.allows(adapter)
    }

    /// Whether the caller may flush `namespace`: an administrator any; a tenant only what it
    /// alone owns (its private namespace and its salts). A cache group's namespaces are
    /// shared, so one member must not destroy what the others built.
    pub fn may_flush(&self, namespace: &Namespace) -> bool {
        self.is_admin || namespace.scope == CacheScope::Tenant(self.tenant)
    }

    /// The refusal of a flush [`Caller::may_flush`] denies.
    pub fn flush_refusal(&self) -> String {
        format!(
            "tenant {:?} shares its cache with its group: only an administrator may flush it",
            self.tenant_name
        )
    }
}
