//! Grammar masks are computed on the host for every constrained request that samples, and a
//! step ends only when the last one is ready. A grammar's mask may take tens of milliseconds
//! (an ambiguous Lark grammar, within llguidance's per-step limits), so one tenant with many
//! such requests would lengthen every step of every tenant. Each tenant's constrained decodes
//! therefore draw on a credit of mask time, refilled each step by a budget (the configured
//! floor, or the tenant's share of the last forward pass when that is more: masks computed
//! beside the pass cost nobody anything) and holding at most one step's budget. Decodes run,
//! the longest waiting first, while the credit is positive, each spending its last mask's
//! time; a costly mask leaves the credit negative and the tenant's decodes wait until the
//! budgets repay it. So over time a tenant's masks add at most its budget to a step. When
//! nothing else would run, the longest-waiting decode runs anyway. What waits only waits: its
//! output does not change.

use super::Scheduler;
use crate::metric_names as names;
use crate::model::ForwardModel;
use crate::tenants::TenantId;
use rustc_hash::FxHashMap;

impl<M: ForwardModel> Scheduler<M> {
    /// By running index: whether its constrained decode sits this step out. Marks the turn
    /// of those that run.
    pub(super) fn grammar_turns(&mut self) -> Vec<bool> {
        let mut sits_out = vec![false; self.running.len()];
        let Some(floor) = self.config.grammar_mask_budget else {
            return sits_out;
        };
        // Per tenant, its constrained decodes: (last turn, arrival, index).
        let mut by_tenant: FxHashMap<TenantId, Vec<(u64, u64, usize)>> = FxHashMap::default();
        for (i, req) in self.running.iter().enumerate() {
            let decodes = req.pending_tokens() == 1 || self.in_flight(i).is_some();
            if req.constraint.is_some() && decodes {
                by_tenant
                    .entry(req.tenant)
                    .or_default()
                    .push((req.grammar_turn, req.seq, i));
            }
        }
        // A tenant back after a pause starts with a full step's budget.
        self.grammar_credit.retain(|t, _| by_tenant.contains_key(t));
        let share = u32::try_from(by_tenant.len()).unwrap_or(u32::MAX).max(1);
        let budget = floor.max(self.forward_time / share).as_secs_f64();
        let step = self.counters.steps;
        let mut waits = 0;
        let mut first_waiting = None;
        for (tenant, decodes) in &mut by_tenant {
            decodes.sort_unstable();
            let credit = self.grammar_credit.entry(*tenant).or_insert(0.0);
            *credit = (*credit + budget).min(budget);
            for &(turn, seq, i) in decodes.iter() {
                let req = &mut self.running[i];
                if *credit <= 0.0 {
                    sits_out[i] = true;
                    waits += 1;
                    let candidate = (turn, seq, i);
                    first_waiting = Some(first_waiting.map_or(candidate, |w| candidate.min(w)));
                    continue;
                }
                let cost = req
                    .constraint
                    .as_ref()
                    .map_or(0.0, |c| c.last_mask_time().as_secs_f64());
                *credit -= cost;
                req.grammar_turn = step;
            }
        }
        // Waiting would leave the step empty: nobody is delayed by the mask.
        if sits_out.iter().all(|&s| s) {
            if let Some((_, _, i)) = first_waiting {
                sits_out[i] = false;
                waits -= 1;
                self.running[i].grammar_turn = step;
            }
        }
        if waits > 0 {
            self.counters.grammar_waits += waits;
            metrics::counter!(names::GRAMMAR_WAITS).increment(waits);
        }
        sits_out
    }
}
