//! The tenant table the servers authenticate against; reloadable while serving.

use super::config::{TenantsFile, ValidTenant};
use super::keys::{hash_api_key, KeyHash};
use super::limits::{TenantId, TenantLimits};
use super::{AdapterAccess, Caller, TenantsError};
use parking_lot::{Mutex, RwLock};
use radix::{CacheScope, Namespace};
use std::sync::Arc;

/// Why a caller was refused (UNAUTHENTICATED / 401).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum AuthError {
    #[error("missing API key: send \"authorization: Bearer <key>\"")]
    Missing,
    #[error("malformed authorization: expected \"Bearer <key>\"")]
    Malformed,
    #[error("invalid API key")]
    Invalid,
    #[error("this API key has been revoked")]
    Revoked,
}

struct KeyEntry {
    hash: KeyHash,
    tenant: usize,
    revoked: bool,
}

/// One snapshot of the tenants file.
struct Table {
    keys: Vec<KeyEntry>,
    callers: Vec<Caller>,
}

/// Names seen so far, so that ids stay put across reloads (a tenant's fairness counters and
/// namespaces follow its name).
#[derive(Default)]
struct Ids {
    tenants: Vec<Arc<str>>,
    groups: Vec<String>,
    limits: Vec<TenantLimits>,
}

impl Ids {
    fn tenant(&mut self, name: &str) -> TenantId {
        let index = match self.tenants.iter().position(|n| &**n == name) {
            Some(i) => i,
            None => {
                self.tenants.push(name.into());
                self.limits.push(TenantLimits::unlimited(name));
                self.tenants.len() - 1
            }
        };
        index as TenantId
    }

    fn group(&mut self, name: &str) -> u32 {
        let index = match self.groups.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.groups.push(name.to_string());
                self.groups.len() - 1
            }
        };
        index as u32
    }
}

/// Open (single tenant, no keys) or keyed by a tenants file.
pub struct TenantRegistry {
    /// `None`: open serving.
    table: RwLock<Option<Arc<Table>>>,
    ids: Mutex<Ids>,
}

impl TenantRegistry {
    /// Everyone is the administrator tenant 0 in the global namespace.
    pub fn open() -> Self {
        let mut ids = Ids::default();
        ids.tenant("default");
        Self {
            table: RwLock::new(None),
            ids: Mutex::new(ids),
        }
    }

    pub fn from_file(file: &TenantsFile) -> Result<Self, TenantsError> {
        let registry = Self {
            table: RwLock::new(None),
            ids: Mutex::new(Ids::default()),
        };
        registry.reload(file)?;
        Ok(registry)
    }

    pub fn from_path(path: &std::path::Path) -> Result<Self, TenantsError> {
        Self::from_file(&TenantsFile::read(path)?)
    }

    pub fn is_open(&self) -> bool {
        self.table.read().is_none()
    }

    /// Replaces the table with `file`'s (all or nothing). Keys removed or revoked are refused
    /// from the next request on; requests already admitted run to completion.
    pub fn reload(&self, file: &TenantsFile) -> Result<(), TenantsError> {
        self.reload_with(file, |_| {})
    }

    /// [`TenantRegistry::reload`], calling `apply` with the new limits while no request can
    /// authenticate: the new keys and the new limits (handed by `apply` to the engine) take
    /// effect together, so no request passes a new key under old limits.
    pub fn reload_with(
        &self,
        file: &TenantsFile,
        apply: impl FnOnce(Vec<TenantLimits>),
    ) -> Result<(), TenantsError> {
        let valid = file.validate()?;
        let mut ids = self.ids.lock();
        // Whoever the new file names again is marked back below.
        ids.limits.iter_mut().for_each(|l| l.removed = true);
        let mut table = Table {
            keys: Vec::new(),
            callers: Vec::with_capacity(valid.len()),
        };
        for (index, tenant) in valid.into_iter().enumerate() {
            let ValidTenant {
                mut limits,
                keys,
                revoked,
                group,
                admin,
                adapters,
            } = tenant;
            let id = ids.tenant(&limits.name);
            let scope = match &group {
                None => CacheScope::Tenant(id),
                Some(g) => {
                    let group_id = ids.group(g);
                    limits.cache_group = Some((group_id, g.as_str().into()));
                    CacheScope::Group(group_id)
                }
            };
            table.callers.push(Caller {
                tenant: id,
                tenant_name: limits.name.clone(),
                namespace: Namespace::scoped(scope),
                is_admin: admin,
                adapters,
            });
            ids.limits[id as usize] = limits;
            let entries = keys.into_iter().map(|hash| (hash, false));
            let entries = entries.chain(revoked.into_iter().map(|hash| (hash, true)));
            table.keys.extend(entries.map(|(hash, revoked)| KeyEntry {
                hash,
                tenant: index,
                revoked,
            }));
        }
        let mut current = self.table.write();
        apply(ids.limits.clone());
        *current = Some(Arc::new(table));
        Ok(())
    }

    /// Every tenant's limits, indexed by [`TenantId`] (tenants removed by a reload keep
    /// their last limits, marked `removed`, until their requests are done).
    pub fn limits(&self) -> Vec<TenantLimits> {
        self.ids.lock().limits.clone()
    }

    /// The caller a tenant's keys authenticate as, by the tenant's name (`None` for an
    /// unknown name or an open server).
    pub fn caller_named(&self, name: &str) -> Option<Caller> {
        let table = self.table.read().clone()?;
        table
            .callers
            .iter()
            .find(|c| &*c.tenant_name == name)
            .cloned()
    }

    /// Decides who sent a request from its `authorization` header value.
    pub fn authenticate(&self, authorization: Option<&str>) -> Result<Caller, AuthError> {
        let Some(table) = self.table.read().clone() else {
            return Ok(Caller {
                tenant: 0,
                tenant_name: "default".into(),
                namespace: Namespace::global(),
                is_admin: true,
                adapters: AdapterAccess::all(),
            });
        };
        let header = authorization.ok_or(AuthError::Missing)?;
        let key = bearer_token(header).ok_or(AuthError::Malformed)?;
        let presented = hash_api_key(key);
        // Every stored hash is compared, matching or not, in constant time each.
        let mut found: Option<&KeyEntry> = None;
        for entry in &table.keys {
            if entry.hash.ct_eq(&presented) {
                found = Some(entry);
            }
        }
        match found {
            None => Err(AuthError::Invalid),
            Some(entry) if entry.revoked => Err(AuthError::Revoked),
            Some(entry) => table
                .callers
                .get(entry.tenant)
                .cloned()
                .ok_or(AuthError::Invalid),
        }
    }
}

/// The key of `Bearer <key>` (scheme case-insensitive, as HTTP defines it).
fn bearer_token(header: &str) -> Option<&str> {
    let (scheme, key) = header.trim().split_once(' ')?;
    let key = key.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(extra_b: &str) -> TenantsFile {
        TenantsFile::parse(&format!(
            "[[tenant]]\nname = \"a\"\napi_keys = [\"{}\"]\nrevoked_keys = [\"{}\"]\nadmin = true\n\
             [[tenant]]\nname = \"b\"\napi_keys = [\"{}\"]\n{extra_b}",
            hash_api_key("key-a"),
            hash_api_key("old-a"),
            hash_api_key("key-b"),
        ))
        .unwrap()
    }

    #[test]
    fn keys_name_their_tenant_and_scope() {
        let r = TenantRegistry::from_file(&file("")).unwrap();
        let a = r.authenticate(Some("Bearer key-a")).unwrap();
        let b = r.authenticate(Some("bearer  key-b ")).unwrap();
        assert_eq!((a.tenant, &*a.tenant_name, a.is_admin), (0, "a", true));
        assert_eq!((b.tenant, &*b.tenant_name, b.is_admin), (1, "b", false));
        assert_eq!(a.namespace, Namespace::scoped(CacheScope::Tenant(0)));
        assert_ne!(a.namespace, b.namespace);
        assert_eq!(r.authenticate(None), Err(AuthError::Missing));
        assert_eq!(r.authenticate(Some("key-a")), Err(AuthError::Malformed));
        assert_eq!(
            r.authenticate(Some("Basic key-a")),
            Err(AuthError::Malformed)
        );
        assert_eq!(
            r.authenticate(Some("Bearer key-c")),
            Err(AuthError::Invalid)
        );
        assert_eq!(
            r.authenticate(Some("Bearer old-a")),
            Err(AuthError::Revoked)
        );
    }

    #[test]
    fn groups_share_a_namespace_and_reloads_keep_ids() {
        let r = TenantRegistry::from_file(&file("cache_scope = \"common\"\n")).unwrap();
        let b = r.authenticate(Some("Bearer key-b")).unwrap();
        assert_eq!(b.namespace, Namespace::scoped(CacheScope::Group(0)));
        // Reload without tenant a: b keeps its id, a's keys stop working.
        let only_b = TenantsFile::parse(&format!(
            "[[tenant]]\nname = \"b\"\nweight = 3\napi_keys = [\"{}\"]\n",
            hash_api_key("key-b")
        ))
        .unwrap();
        r.reload(&only_b).unwrap();
        assert_eq!(r.authenticate(Some("Bearer key-b")).unwrap().tenant, 1);
        assert_eq!(
            r.authenticate(Some("Bearer key-a")),
            Err(AuthError::Invalid)
        );
        let limits = r.limits();
        assert_eq!(limits.len(), 2);
        assert_eq!(limits[1].weight, 3.0);
        assert!(limits[0].removed && !limits[1].removed, "{limits:?}");
        // A bad file leaves the table as it was.
        assert!(r.reload(&TenantsFile::parse("").unwrap()).is_err());
        assert!(r.authenticate(Some("Bearer key-b")).is_ok());
    }

    #[test]
    fn a_reload_applies_new_limits_while_no_one_can_authenticate() {
        let r = TenantRegistry::from_file(&file("")).unwrap();
        let heavier = TenantsFile::parse(&format!(
            "[[tenant]]\nname = \"b\"\nweight = 5\napi_keys = [\"{}\"]\n",
            hash_api_key("key-b2")
        ))
        .unwrap();
        let mut seen = None;
        r.reload_with(&heavier, |limits| {
            // Authentication waits for the swap: the old key table is not readable here.
            assert!(r.table.try_read().is_none());
            seen = Some(limits[1].weight);
        })
        .unwrap();
        assert_eq!(seen, Some(5.0));
        assert_eq!(r.authenticate(Some("Bearer key-b2")).unwrap().tenant, 1);
        // A bad file applies nothing.
        let mut called = false;
        assert!(r
            .reload_with(&TenantsFile::parse("").unwrap(), |_| called = true)
            .is_err());
        assert!(!called);
    }

    #[test]
    fn an_open_registry_lets_everyone_in_as_admin() {
        let r = TenantRegistry::open();
        assert!(r.is_open());
        let c = r.authenticate(None).unwrap();
        assert!(c.is_admin);
        assert_eq!(c.namespace, Namespace::global());
        assert_eq!(r.limits().len(), 1);
    }
}
