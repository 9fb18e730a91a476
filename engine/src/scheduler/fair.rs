//! Fair sharing across tenants with the Virtual Token Counter ("Fairness in Serving Large
//! Language Models", Sheng et al., OSDI 2024): each tenant's counter grows by the tokens
//! computed for it divided by its weight; admission serves the waiting tenant with the smallest
//! counter, and prefill chunks in a step go to tenants in counter order, so under contention
//! processed tokens split by weight. Counters are charged as tokens are computed. A tenant
//! returning from idle is lifted to about the smallest counter of the active tenants:
//! idleness earns no credit.

use crate::tenants::{TenantId, TenantLimits};

/// Relative cost of a prompt token computed (cache misses only) and of a generated token.
const PREFILL_TOKEN_COST: f64 = 1.0;
const DECODE_TOKEN_COST: f64 = 2.0;

/// One tenant's limits and service so far.
#[derive(Clone, Debug)]
pub(super) struct TenantState {
    pub limits: TenantLimits,
    /// Weighted service received, in token units.
    pub virtual_tokens: f64,
    pub prefill_tokens: u64,
    pub decode_tokens: u64,
}

impl TenantState {
    fn new(limits: TenantLimits) -> Self {
        Self {
            limits,
            virtual_tokens: 0.0,
            prefill_tokens: 0,
            decode_tokens: 0,
        }
    }
}

/// Every tenant the scheduler knows, indexed by [`TenantId`].
pub(super) struct TenantBook {
    tenants: Vec<TenantState>,
    /// Tenants set by configuration; others (ids never configured) are unlimited.
    configured: usize,
}

impl Default for TenantBook {
    fn default() -> Self {
        Self {
            tenants: vec![TenantState::new(TenantLimits::unlimited("default"))],
            configured: 1,
        }
    }
}

impl TenantBook {
    /// New limits; counters and statistics are kept.
    pub fn set_limits(&mut self, limits: Vec<TenantLimits>) {
        self.configured = limits.len();
        for (i, l) in limits.into_iter().enumerate() {
            match self.tenants.get_mut(i) {
                Some(state) => state.limits = l,
                None => self.tenants.push(TenantState::new(l)),
            }
        }
    }

    pub fn get(&mut self, tenant: TenantId) -> &mut TenantState {
        let index = tenant as usize;
        while self.tenants.len() <= index {
            let name = format!("tenant-{}", self.tenants.len());
            self.tenants
                .push(TenantState::new(TenantLimits::unlimited(&name)));
        }
        &mut self.tenants[index]
    }

    pub fn limits(&self, tenant: TenantId) -> Option<&TenantLimits> {
        self.tenants.get(tenant as usize).map(|s| &s.limits)
    }

    /// The configured name of a tenant's or a group's cache scope (never a made-up name:
    /// what lower K/V tiers key by must mean the same after a restart).
    pub fn scope_name(&self, scope: radix::CacheScope) -> Option<&str> {
        let configured = &self.tenants[..self.configured.min(self.tenants.len())];
        match scope {
            radix::CacheScope::Global => None,
            radix::CacheScope::Tenant(t) => configured.get(t as usize).map(|s| &*s.limits.name),
            radix::CacheScope::Group(g) => configured.iter().find_map(|s| {
                let (id, name) = s.limits.cache_group.as_ref()?;
                (*id == g).then_some(&**name)
            }),
        }
    }

    pub fn all(&self) -> &[TenantState] {
        &self.tenants
    }

    pub fn virtual_tokens(&self, tenant: TenantId) -> f64 {
        self.tenants
            .get(tenant as usize)
            .map_or(0.0, |s| s.virtual_tokens)
    }

    /// The tenant's share of a resource of size `total` under full contention: its weight
    /// over the configured tenants' weights (a tenant a reload removed has none).
    pub fn fair_share(&self, tenant: TenantId, total: usize) -> usize {
        let weights: f64 = self.tenants[..self.configured.min(self.tenants.len())]
            .iter()
            .filter(|s| !s.limits.removed)
            .map(|s| s.limits.weight)
            .sum();
        let Some(state) = self.tenants.get(tenant as usize) else {
            return total;
        };
        if state.limits.removed {
            return 0;
        }
        if weights <= 0.0 {
            return total;
        }
        (total as f64 * (state.limits.weight / weights).min(1.0)) as usize
    }

    /// Charges `prefill` computed prompt tokens and `decode` generated tokens to `tenant`.
    pub fn charge(&mut self, tenant: TenantId, prefill: usize, decode: usize) {
        let state = self.get(tenant);
        let cost = prefill as f64 * PREFILL_TOKEN_COST + decode as f64 * DECODE_TOKEN_COST;
        state.virtual_tokens += cost / state.limits.weight;
        state.prefill_tokens += prefill as u64;
        state.decode_tokens += decode as u64;
    }

    /// Charges `tokens` speculative draft tokens that were computed and then rejected: the
    /// forward pass did the work, as for prompt tokens, though no token came of it.
    pub fn charge_rejected_drafts(&mut self, tenant: TenantId, tokens: usize) {
        let state = self.get(tenant);
        state.virtual_tokens += tokens as f64 * PREFILL_TOKEN_COST / state.limits.weight;
    }

    /// VTC's counter lift for a tenant becoming active while `active` tenants are: up to the
    /// smallest active counter less `head_start` (the cost of its first prompt, bounded), so
    /// its first request goes before an equally served tenant's backlog, and idleness earns
    /// nothing more. With
    /// no tenant active, up to the largest counter: an idle engine forgets who was served.
    pub fn lift(
        &mut self,
        tenant: TenantId,
        active: impl IntoIterator<Item = TenantId>,
        head_start: f64,
    ) {
        let floor = active
            .into_iter()
            .filter(|&t| t != tenant)
            .map(|t| self.virtual_tokens(t))
            .min_by(f64::total_cmp);
        let floor = match floor {
            Some(min_active) => min_active - head_start,
            // Nobody active: history is forgotten, everyone starts level with the most
            // served tenant.
            None => self
                .tenants
                .iter()
                .map(|s| s.virtual_tokens)
                .fold(0.0, f64::max),
        };
        let state = self.get(tenant);
        state.virtual_tokens = state.virtual_tokens.max(floor);
    }

    /// The cost of `prefill` prompt tokens for `tenant`, in its counter's units.
    pub fn prefill_cost(&self, tenant: TenantId, prefill: usize) -> f64 {
        let weight = self.limits(tenant).map_or(1.0, |l| l.weight);
        prefill as f64 * PREFILL_TOKEN_COST / weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(weights: &[f64]) -> TenantBook {
        let mut b = TenantBook::default();
        b.set_limits(
            weights
                .iter()
                .enumerate()
                .map(|(i, &w)| TenantLimits {
                    weight: w,
                    ..TenantLimits::unlimited(&format!("t{i}"))
                })
                .collect(),
        );
        b
    }

    #[test]
    fn counters_grow_by_cost_over_weight() {
        let mut b = book(&[1.0, 2.0]);
        b.charge(0, 100, 10);
        b.charge(1, 100, 10);
        assert_eq!(b.virtual_tokens(0), 120.0);
        assert_eq!(b.virtual_tokens(1), 60.0);
        assert_eq!(b.all()[1].prefill_tokens, 100);
        assert_eq!(b.all()[1].decode_tokens, 10);
    }

    #[test]
    fn a_returning_tenant_is_lifted_but_never_lowered() {
        let mut b = book(&[1.0, 1.0, 1.0]);
        b.charge(0, 500, 0);
        b.charge(1, 300, 0);
        b.lift(2, [0, 1], 10.0);
        assert_eq!(
            b.virtual_tokens(2),
            290.0,
            "the smallest active counter less the head start"
        );
        b.charge(2, 1000, 0);
        b.lift(2, [0, 1, 2], 10.0);
        assert_eq!(b.virtual_tokens(2), 1290.0);
        b.lift(1, [], 10.0);
        assert_eq!(
            b.virtual_tokens(1),
            1290.0,
            "no one active: level with the most served"
        );
    }

    #[test]
    fn fair_shares_follow_weights_of_configured_tenants() {
        let mut b = book(&[1.0, 3.0]);
        assert_eq!(b.fair_share(0, 1000), 250);
        assert_eq!(b.fair_share(1, 1000), 750);
        // An unconfigured id is unlimited and does not dilute the shares.
        b.get(5);
        assert_eq!(b.fair_share(1, 1000), 750);
        assert_eq!(TenantBook::default().fair_share(0, 1000), 1000);
        // A tenant a reload removed has no share, and no longer dilutes the others'.
        let mut limits: Vec<TenantLimits> = b.all().iter().map(|s| s.limits.clone()).collect();
        limits[1].removed = true;
        b.set_limits(limits[..2].to_vec());
        assert_eq!(b.fair_share(1, 1000), 0);
        assert_eq!(b.fair_share(0, 1000), 1000);
    }
}
