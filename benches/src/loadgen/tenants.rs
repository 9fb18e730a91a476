//! Tenants of a multi-tenant run: who sends (API key), how much of the workload (share) and
//! how fast (request rate). Given as repeated `--tenant name:key:rate:share` flags or a TOML
//! file of `[[tenant]]` tables.

use super::dataset::{shuffle, Session, Vocabulary, Workload};
use super::LoadgenError;
use crate::traces::SplitMix;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One tenant of the run. Single-tenant runs have one, named `default`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenantSpec {
    pub name: String,
    /// Sent as `authorization: Bearer <key>`; none: the run's `--api-key`, if any.
    #[serde(default)]
    pub api_key: Option<String>,
    /// Poisson arrivals per second of this tenant's sessions; none: the run's `--request-rate`
    /// process, shared with the other tenants that set none.
    #[serde(default)]
    pub request_rate: Option<f64>,
    /// Weight of this tenant in the workload (normalized over tenants).
    #[serde(default = "default_share")]
    pub share: f64,
}

fn default_share() -> f64 {
    1.0
}

impl TenantSpec {
    pub fn single(api_key: Option<String>) -> Self {
        TenantSpec {
            name: "default".into(),
            api_key,
            request_rate: None,
            share: 1.0,
        }
    }

    /// Parses `name[:key[:rate[:share]]]`; an empty key means the run's `--api-key`, an empty
    /// or `inf` rate means the shared arrival process.
    pub fn parse_flag(flag: &str) -> Result<Self, LoadgenError> {
        let bad = |why: &str| {
            LoadgenError::InvalidArgs(format!(
                "--tenant {flag:?}: {why} (expected name[:api-key[:rate[:share]]])"
            ))
        };
        let mut parts = flag.split(':');
        let name = parts.next().unwrap_or_default().trim();
        if name.is_empty() {
            return Err(bad("empty name"));
        }
        let api_key = parts.next().filter(|k| !k.is_empty()).map(str::to_string);
        let request_rate = match parts.next().map(str::trim) {
            None | Some("") | Some("inf") => None,
            Some(rate) => Some(rate.parse::<f64>().map_err(|_| bad("bad rate"))?),
        };
        let share = match parts.next().map(str::trim) {
            None | Some("") => 1.0,
            Some(share) => share.parse::<f64>().map_err(|_| bad("bad share"))?,
        };
        if parts.next().is_some() {
            return Err(bad("too many fields"));
        }
        let spec = TenantSpec {
            name: name.to_string(),
            api_key,
            request_rate,
            share,
        };
        spec.validate()?;
        Ok(spec)
    }

    fn validate(&self) -> Result<(), LoadgenError> {
        if self
            .request_rate
            .is_some_and(|r| !(r > 0.0 && r.is_finite()))
        {
            return Err(LoadgenError::InvalidArgs(format!(
                "tenant {}: request rate must be positive",
                self.name
            )));
        }
        if !(self.share > 0.0 && self.share.is_finite()) {
            return Err(LoadgenError::InvalidArgs(format!(
                "tenant {}: share must be positive",
                self.name
            )));
        }
        Ok(())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TenantsFile {
    tenant: Vec<TenantSpec>,
}

/// Reads a TOML file of `[[tenant]]` tables (`name`, `api_key`, `request_rate`, `share`).
pub fn read_tenants_file(path: &Path) -> Result<Vec<TenantSpec>, LoadgenError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadgenError::file(path, e))?;
    let file: TenantsFile = toml::from_str(&text).map_err(|e| LoadgenError::file(path, e))?;
    for tenant in &file.tenant {
        tenant.validate()?;
    }
    Ok(file.tenant)
}

/// Checks a tenant list: at least one, names unique.
pub fn validate_tenants(tenants: &[TenantSpec]) -> Result<(), LoadgenError> {
    if tenants.is_empty() {
        return Err(LoadgenError::InvalidArgs(
            "--dataset multi-tenant needs --tenant flags or --tenants-file".into(),
        ));
    }
    for (i, tenant) in tenants.iter().enumerate() {
        if tenants[..i].iter().any(|t| t.name == tenant.name) {
            return Err(LoadgenError::InvalidArgs(format!(
                "tenant {:?} is given twice",
                tenant.name
            )));
        }
    }
    Ok(())
}

/// The sessions of a multi-tenant run: each tenant draws its part (by share) of `base`'s
/// session count from its own instance of `base`, with its own seed unless `same_prompts`
/// (every tenant then sends the same prompts, which shows whether caches are isolated).
/// Tenants' sessions are interleaved in a seeded random order.
pub fn build_multi_tenant(
    base: &Workload,
    tenants: &[TenantSpec],
    vocab: &Vocabulary,
    seed: u64,
    same_prompts: bool,
) -> Vec<Session> {
    let total = base.build(vocab, seed).len();
    let counts = split_by_share(total, tenants);
    let mut sessions = Vec::with_capacity(total);
    for (index, count) in counts.into_iter().enumerate() {
        let tenant_seed = if same_prompts {
            seed
        } else {
            seed ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        };
        let mut own = base.build(vocab, tenant_seed);
        own.truncate(count);
        for session in &mut own {
            session.tenant = index;
        }
        sessions.extend(own);
    }
    shuffle(&mut sessions, &mut SplitMix::new(seed ^ 0x7e4a_4e75));
    sessions
}

/// `total` split by the tenants' shares, rounding by largest remainder so the parts add up.
fn split_by_share(total: usize, tenants: &[TenantSpec]) -> Vec<usize> {
    let weight: f64 = tenants.iter().map(|t| t.share).sum();
    let exact: Vec<f64> = tenants
        .iter()
        .map(|t| total as f64 * t.share / weight)
        .collect();
    let mut counts: Vec<usize> = exact.iter().map(|x| x.floor() as usize).collect();
    let mut by_remainder: Vec<usize> = (0..tenants.len()).collect();
    by_remainder.sort_by(|&a, &b| {
        let (ra, rb) = (exact[a] - exact[a].floor(), exact[b] - exact[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    let assigned: usize = counts.iter().sum();
    for &i in by_remainder.iter().take(total.saturating_sub(assigned)) {
        counts[i] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::loadgen::dataset::RandomParams;

    #[test]
    fn parses_tenant_flags() {
        let t = TenantSpec::parse_flag("alpha:key-a:2.5:3").unwrap();
        assert_eq!(t.name, "alpha");
        assert_eq!(t.api_key.as_deref(), Some("key-a"));
        assert_eq!(t.request_rate, Some(2.5));
        assert_eq!(t.share, 3.0);
        let t = TenantSpec::parse_flag("beta").unwrap();
        assert_eq!((t.api_key, t.request_rate, t.share), (None, None, 1.0));
        let t = TenantSpec::parse_flag("gamma::inf").unwrap();
        assert_eq!(t.request_rate, None);
        assert!(TenantSpec::parse_flag(":k").is_err());
        assert!(TenantSpec::parse_flag("a:k:fast").is_err());
        assert!(TenantSpec::parse_flag("a:k:1:0").is_err());
        assert!(TenantSpec::parse_flag("a:k:1:1:x").is_err());
    }

    #[test]
    fn parses_tenants_file() {
        let dir = std::env::temp_dir().join(format!("loadgen-tenants-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tenants.toml");
        std::fs::write(
            &path,
            "[[tenant]]\nname = \"a\"\napi_key = \"ka\"\nrequest_rate = 4.0\n\n\
             [[tenant]]\nname = \"b\"\nshare = 2\n",
        )
        .unwrap();
        let tenants = read_tenants_file(&path).unwrap();
        assert_eq!(tenants.len(), 2);
        assert_eq!(tenants[0].request_rate, Some(4.0));
        assert_eq!(tenants[1].share, 2.0);
        std::fs::write(&path, "[[tenant]]\nname = \"a\"\nrate = 1\n").unwrap();
        assert!(
            read_tenants_file(&path).is_err(),
            "unknown keys are refused"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shares_split_the_workload() {
        let tenants = [
            TenantSpec::parse_flag("a::1:1").unwrap(),
            TenantSpec::parse_flag("b::1:2").unwrap(),
        ];
        assert_eq!(split_by_share(10, &tenants), vec![3, 7]);
        let base = Workload::Random(RandomParams {
            num_prompts: 9,
            input_len: 4,
            output_len: 1,
            range_ratio: 1.0,
        });
        let vocab = Vocabulary::from_ids((0..100).collect()).unwrap();
        let sessions = build_multi_tenant(&base, &tenants, &vocab, 1, false);
        assert_eq!(sessions.len(), 9);
        assert_eq!(sessions.iter().filter(|s| s.tenant == 0).count(), 3);
        let same = build_multi_tenant(&base, &tenants, &vocab, 1, true);
        let prompts = |t: usize| -> HashSetOf {
            same.iter()
                .filter(|s| s.tenant == t)
                .map(|s| s.turns[0].new_tokens.clone())
                .collect()
        };
        assert!(prompts(0).is_subset(&prompts(1)));
    }

    type HashSetOf = std::collections::HashSet<Vec<u32>>;
}
