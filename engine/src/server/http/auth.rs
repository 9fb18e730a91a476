//! Who is calling. Every HTTP request but `/health` authenticates from its `authorization`
//! header against the tenant registry before its handler runs; the result decides the tenant
//! and the radix namespace of its requests.

use super::error::ApiError;
use crate::tenants::{Caller, TenantRegistry};
use axum::http::{header, HeaderMap};

/// 401 for a missing, malformed, unknown or revoked key.
pub(super) fn authenticate(
    tenants: &TenantRegistry,
    headers: &HeaderMap,
) -> Result<Caller, ApiError> {
    let value = match headers.get(header::AUTHORIZATION) {
        None => None,
        Some(v) => Some(
            v.to_str()
                .map_err(|_| ApiError::unauthorized("the authorization header is not text"))?,
        ),
    };
    tenants
        .authenticate(value)
        .map_err(|e| ApiError::unauthorized(e.to_string()))
}
