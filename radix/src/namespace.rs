//! Namespaces partition the tree: a request never matches another namespace's nodes.
//!
//! A namespace is a typed value, compared field by field. It is never built by joining
//! strings, so no choice of salt can make two namespaces collide.

use std::sync::Arc;

/// Whose cache a request may read and extend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CacheScope {
    /// Single-tenant serving: one cache for everyone.
    Global,
    /// A tenant's private cache.
    Tenant(u32),
    /// A group several tenants opted into (e.g. a common system prompt).
    Group(u32),
}

/// The full cache key space of a request: scope, optional client salt and adapter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Namespace {
    pub scope: CacheScope,
    /// Narrows the scope further; requests with different salts never share.
    pub salt: Option<Arc<str>>,
    /// A LoRA adapter or other weight variant: different weights, different K/V.
    pub adapter: Option<u32>,
}

impl Namespace {
    pub fn global() -> Self {
        Self::scoped(CacheScope::Global)
    }

    pub fn scoped(scope: CacheScope) -> Self {
        Self {
            scope,
            salt: None,
            adapter: None,
        }
    }

    pub fn with_salt(mut self, salt: impl Into<Arc<str>>) -> Self {
        self.salt = Some(salt.into());
        self
    }
}

/// An interned [`Namespace`]: a cheap handle valid for the lifetime of its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NsId(pub(crate) u32);

impl NsId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
