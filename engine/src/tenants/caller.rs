//! The authenticated caller of a request, as both servers see it.

use super::TenantId;
use radix::Namespace;
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
}

impl Caller {
    /// The namespace of one request: the caller's, narrowed by the request's salt if any.
    pub fn namespace_for(&self, cache_salt: Option<&str>) -> Namespace {
        match cache_salt {
            Some(salt) if !salt.is_empty() => self.namespace.clone().with_salt(salt),
            _ => self.namespace.clone(),
        }
    }
}
