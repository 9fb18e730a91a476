//! Who is calling. Every RPC but the health check and reflection calls [`authenticate`] on its
//! metadata first; the result decides the tenant and the radix namespace of its requests.
//! Single-tenant for now: everyone is tenant 0 in the global namespace, with admin rights.
//! Multi-tenant serving replaces this function (API keys to tenants), nothing else.

use radix::Namespace;
use tonic::metadata::MetadataMap;
use tonic::Status;

/// The authenticated caller of an RPC.
#[derive(Clone, Debug, PartialEq)]
pub struct Caller {
    /// Index of the tenant for fairness and quotas.
    pub tenant: u32,
    /// The cache namespace of the caller's requests; a request's `cache_salt` may only
    /// narrow it.
    pub namespace: Namespace,
    /// May flush every namespace.
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

/// Decides who sent an RPC from its metadata; UNAUTHENTICATED (no or bad credentials) and
/// PERMISSION_DENIED (not allowed) are reserved for this.
pub fn authenticate(_metadata: &MetadataMap) -> Result<Caller, Status> {
    Ok(Caller {
        tenant: 0,
        namespace: Namespace::global(),
        is_admin: true,
    })
}
