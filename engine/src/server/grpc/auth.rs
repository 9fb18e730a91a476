//! Who is calling. Every RPC but the health check and reflection authenticates from its
//! `authorization` metadata against the tenant registry; the result decides the tenant and
//! the radix namespace of its requests.

use crate::tenants::{Caller, TenantRegistry};
use tonic::metadata::MetadataMap;
use tonic::Status;

/// UNAUTHENTICATED for a missing, malformed, unknown or revoked key.
pub(super) fn authenticate(
    tenants: &TenantRegistry,
    metadata: &MetadataMap,
) -> Result<Caller, Status> {
    let header = match metadata.get("authorization") {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .map_err(|_| Status::unauthenticated("the authorization header is not text"))?,
        ),
    };
    tenants
        .authenticate(header)
        .map_err(|e| Status::unauthenticated(e.to_string()))
}
