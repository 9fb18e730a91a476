//! The tenants file (TOML):
//!
//! ```toml
//! [[tenant]]
//! name = "search"
//! api_keys = ["sha256:…"]          # `radixserve hash-key <key>` prints this form
//! revoked_keys = ["sha256:…"]      # refused with "revoked" (optional)
//! cache_scope = "private"          # or the name of a group shared with other tenants
//! weight = 2.0                     # share of processed tokens under contention
//! max_running_requests = 32
//! max_queued_requests = 256
//! kv_quota_tokens = 40000          # running requests' KV plus private cached prefixes
//! token_rate_limit = 4000          # prompt + requested output tokens per second
//! token_rate_burst = 16000         # default: 4 seconds' worth
//! admin = false                    # may flush every namespace and read /metrics
//! lora_adapters = ["sql", "search-*"]  # the LoRA adapters it may run (default: all)
//! ```

use super::keys::KeyHash;
use super::limits::{TenantLimits, TokenRate};
use super::{AdapterAccess, TenantsError};
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

/// Seconds of `token_rate_limit` a bucket holds when no burst is given.
const DEFAULT_BURST_SECONDS: f64 = 4.0;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenantsFile {
    #[serde(rename = "tenant", default)]
    pub tenants: Vec<TenantEntry>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenantEntry {
    pub name: String,
    #[serde(default)]
    pub api_keys: Vec<String>,
    #[serde(default)]
    pub revoked_keys: Vec<String>,
    #[serde(default = "private_scope")]
    pub cache_scope: String,
    #[serde(default = "unit_weight")]
    pub weight: f64,
    pub max_running_requests: Option<usize>,
    pub max_queued_requests: Option<usize>,
    pub kv_quota_tokens: Option<usize>,
    pub token_rate_limit: Option<f64>,
    pub token_rate_burst: Option<f64>,
    #[serde(default)]
    pub admin: bool,
    /// Adapter names, or prefixes ending in `*`; unset: every adapter.
    pub lora_adapters: Option<Vec<String>>,
}

fn private_scope() -> String {
    "private".into()
}

fn unit_weight() -> f64 {
    1.0
}

/// A tenant entry after validation.
#[derive(Clone, Debug)]
pub(super) struct ValidTenant {
    pub limits: TenantLimits,
    pub keys: Vec<KeyHash>,
    pub revoked: Vec<KeyHash>,
    /// `None`: private; `Some(group)`: shared with the group's other members.
    pub group: Option<String>,
    pub admin: bool,
    pub adapters: AdapterAccess,
}

impl TenantsFile {
    pub fn read(path: &Path) -> Result<Self, TenantsError> {
        let text = std::fs::read_to_string(path).map_err(|source| TenantsError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text)
    }

    pub fn parse(text: &str) -> Result<Self, TenantsError> {
        toml::from_str(text).map_err(|e| TenantsError::Parse(e.to_string()))
    }

    /// Checks every entry: unique names and keys, sane numbers, well-formed hashes.
    pub(super) fn validate(&self) -> Result<Vec<ValidTenant>, TenantsError> {
        if self.tenants.is_empty() {
            return Err(TenantsError::Parse(
                "the tenants file defines no [[tenant]]".into(),
            ));
        }
        let mut names = HashSet::new();
        let mut all_keys: Vec<KeyHash> = Vec::new();
        let mut valid = Vec::with_capacity(self.tenants.len());
        for entry in &self.tenants {
            let tenant = entry.validate()?;
            if !names.insert(entry.name.as_str()) {
                return Err(invalid(&entry.name, "the name is used twice"));
            }
            for key in tenant.keys.iter().chain(&tenant.revoked) {
                if all_keys.iter().any(|k| k.ct_eq(key)) {
                    return Err(invalid(&entry.name, "an API key hash is listed twice"));
                }
                all_keys.push(*key);
            }
            valid.push(tenant);
        }
        Ok(valid)
    }
}

impl TenantEntry {
    fn validate(&self) -> Result<ValidTenant, TenantsError> {
        let name = self.name.trim();
        if name.is_empty() || name != self.name || name.len() > 64 {
            return Err(invalid(
                &self.name,
                "names must be 1-64 characters without surrounding spaces",
            ));
        }
        let parse = |list: &[String]| -> Result<Vec<KeyHash>, TenantsError> {
            list.iter()
                .map(|k| KeyHash::parse(k).map_err(|e| invalid(name, &e)))
                .collect()
        };
        let keys = parse(&self.api_keys)?;
        let revoked = parse(&self.revoked_keys)?;
        if keys.is_empty() {
            return Err(invalid(name, "api_keys is empty: nobody could call as it"));
        }
        if !(self.weight.is_finite() && self.weight > 0.0) {
            return Err(invalid(name, "weight must be a positive number"));
        }
        for (field, value) in [
            ("max_running_requests", self.max_running_requests),
            ("max_queued_requests", self.max_queued_requests),
            ("kv_quota_tokens", self.kv_quota_tokens),
        ] {
            if value == Some(0) {
                return Err(invalid(name, &format!("{field} must be at least 1")));
            }
        }
        let token_rate = match (self.token_rate_limit, self.token_rate_burst) {
            (None, None) => None,
            (None, Some(_)) => {
                return Err(invalid(name, "token_rate_burst needs token_rate_limit"));
            }
            (Some(rate), burst) => {
                let burst = burst.unwrap_or(rate * DEFAULT_BURST_SECONDS);
                if !(rate.is_finite() && rate > 0.0 && burst.is_finite() && burst >= 1.0) {
                    return Err(invalid(
                        name,
                        "token_rate_limit must be positive and token_rate_burst at least 1",
                    ));
                }
                Some(TokenRate {
                    per_second: rate,
                    burst,
                })
            }
        };
        let group = match self.cache_scope.as_str() {
            "private" => None,
            "" => return Err(invalid(name, "cache_scope is empty")),
            group => Some(group.to_string()),
        };
        let adapters = match &self.lora_adapters {
            None => AdapterAccess::all(),
            Some(patterns) => AdapterAccess::only(patterns).map_err(|e| invalid(name, &e))?,
        };
        Ok(ValidTenant {
            limits: TenantLimits {
                name: name.into(),
                weight: self.weight,
                max_running_requests: self.max_running_requests,
                max_queued_requests: self.max_queued_requests,
                kv_quota_tokens: self.kv_quota_tokens,
                token_rate,
                cache_group: None,
                removed: false,
            },
            keys,
            revoked,
            group,
            admin: self.admin,
            adapters,
        })
    }
}

fn invalid(tenant: &str, message: &str) -> TenantsError {
    TenantsError::Invalid {
        tenant: tenant.to_string(),
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tenants::hash_api_key;

    fn entry(name: &str, key: &str) -> String {
        format!(
            "[[tenant]]\nname = \"{name}\"\napi_keys = [\"{}\"]\n",
            hash_api_key(key)
        )
    }

    #[test]
    fn a_minimal_file_gets_the_defaults() {
        let file = TenantsFile::parse(&entry("a", "k1")).unwrap();
        let t = &file.validate().unwrap()[0];
        assert_eq!(t.limits.weight, 1.0);
        assert_eq!(t.group, None);
        assert!(!t.admin);
        assert_eq!(t.limits.kv_quota_tokens, None);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let cases = [
            ("", "defines no"),
            ("[[tenant]]\nname = \"a\"\n", "api_keys is empty"),
            (
                "[[tenant]]\nname = \"a\"\napi_keys = [\"plain\"]\n",
                "sha256",
            ),
            (&format!("{}weight = 0\n", entry("a", "k")), "weight"),
            (&format!("{}weight = nan\n", entry("a", "k")), "weight"),
            (
                &format!("{}kv_quota_tokens = 0\n", entry("a", "k")),
                "kv_quota_tokens",
            ),
            (
                &format!("{}token_rate_burst = 5\n", entry("a", "k")),
                "needs token_rate_limit",
            ),
            (&format!("{}colour = 1\n", entry("a", "k")), "unknown field"),
            (
                &format!("{}{}", entry("a", "k"), entry("a", "k2")),
                "used twice",
            ),
            (
                &format!("{}{}", entry("a", "k"), entry("b", "k")),
                "listed twice",
            ),
            (
                &format!("{}cache_scope = \"\"\n", entry("a", "k")),
                "cache_scope",
            ),
        ];
        for (text, want) in cases {
            let err = TenantsFile::parse(text)
                .and_then(|f| f.validate().map(|_| ()))
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }
}
