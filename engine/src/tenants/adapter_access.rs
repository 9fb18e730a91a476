//! Which LoRA adapters a tenant may run. By default every adapter served; a tenants file's
//! `lora_adapters` narrows that to the names it lists, a name ending in `*` covering every
//! adapter whose name starts with the rest (so an adapter loaded later as `acme-v3` is
//! acme's without a reload). One customer's fine-tune is then not another's to run or to see.

use std::sync::Arc;

/// The longest name or pattern a tenants file may list.
const MAX_PATTERN_BYTES: usize = 256;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdapterAccess {
    /// `None`: every adapter.
    allowed: Option<Arc<[String]>>,
}

impl AdapterAccess {
    /// Every adapter served.
    pub fn all() -> Self {
        Self::default()
    }

    /// Only the adapters `patterns` name (none if it is empty).
    pub fn only(patterns: &[String]) -> Result<Self, String> {
        for pattern in patterns {
            let stem = pattern.strip_suffix('*').unwrap_or(pattern);
            if pattern.is_empty() || pattern.len() > MAX_PATTERN_BYTES || stem.contains('*') {
                return Err(format!(
                    "lora_adapters entry {pattern:?}: an adapter name of 1-{MAX_PATTERN_BYTES} \
                     bytes, or a prefix ending in `*`"
                ));
            }
        }
        Ok(Self {
            allowed: Some(patterns.into()),
        })
    }

    /// Whether the adapter named `adapter` may be run.
    pub fn allows(&self, adapter: &str) -> bool {
        let Some(allowed) = &self.allowed else {
            return true;
        };
        allowed
            .iter()
            .any(|pattern| match pattern.strip_suffix('*') {
                Some(prefix) => adapter.starts_with(prefix),
                None => adapter == pattern,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(patterns: &[&str]) -> AdapterAccess {
        let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        AdapterAccess::only(&patterns).unwrap()
    }

    #[test]
    fn names_match_whole_and_patterns_by_prefix() {
        assert!(AdapterAccess::all().allows("anything"));
        let acme = only(&["sql", "acme-*"]);
        for (name, allowed) in [
            ("sql", true),
            ("sql2", false),
            ("sq", false),
            ("acme-", true),
            ("acme-v3", true),
            ("acme", false),
            ("other", false),
        ] {
            assert_eq!(acme.allows(name), allowed, "{name}");
        }
        assert!(!only(&[]).allows("sql"));
        assert!(only(&["*"]).allows("sql"));
    }

    #[test]
    fn malformed_entries_are_refused() {
        let long = "n".repeat(MAX_PATTERN_BYTES + 1);
        for bad in ["", "a*b", "**", long.as_str()] {
            assert!(AdapterAccess::only(&[bad.to_string()]).is_err(), "{bad:?}");
        }
    }
}
