//! Grammar masks are computed on the host for every constrained request that samples, and a
//! step ends only when the last one is ready. A grammar's mask may take tens of milliseconds
//! (an ambiguous Lark grammar, within llguidance's per-step limits), so one tenant with many
//! such requests would lengthen every step of every tenant.
//!
//! Each tenant therefore has a credit of mask time. Every step refills it by a budget (the
//! configured floor, or the tenant's share of the last forward pass when that is more: masks
//! computed beside the pass cost nobody anything), up to one step's budget; every mask
//! computed is charged to it afterwards, whether it sampled a decode or the first token after
//! a prompt. While the credit is positive the tenant's constrained requests sample, the
//! longest waiting first, each expected to cost what its last mask took; the others sit the
//! step out (no decode, no last prefill chunk) until the budgets of the steps they wait repay
//! what was overspent. Absence does not clear a debt. So over time a tenant's masks add about
//! its budget to a step. When waiting would leave a step empty, nobody is delayed and the
//! longest waiting runs. What waits only waits: its output does not change.

use super::Scheduler;
use crate::metric_names as names;
use crate::model::ForwardModel;
use crate::tenants::TenantId;
use rustc_hash::FxHashMap;

impl<M: ForwardModel> Scheduler<M> {
    /// Sets [`super::req::Req::grammar_waiting`] for this step and marks the turn of the
    /// constrained requests that sample. Runs before memory is set aside for decodes.
    pub(super) fn grammar_turns(&mut self) {
        for req in &mut self.running {
            req.grammar_waiting = false;
        }
        let Some(floor) = self.config.grammar_mask_budget else {
            return;
        };
        // Per tenant, its requests that would sample under a grammar this step: decodes,
        // and prompts whose last chunk may come now. (last turn, arrival, index).
        let chunk = self.config.chunked_prefill_size;
        let mut by_tenant: FxHashMap<TenantId, Vec<(u64, u64, usize)>> = FxHashMap::default();
        for i in 0..self.running.len() {
            let req = &self.running[i];
            let pending = req.pending_tokens();
            let samples = self.decodes_next(i) || (pending > 1 && pending <= chunk);
            if req.constraint.is_some() && samples {
                by_tenant
                    .entry(req.tenant)
                    .or_default()
                    .push((req.grammar_turn, req.seq, i));
            }
        }
        let share = u32::try_from(by_tenant.len()).unwrap_or(u32::MAX).max(1);
        let budget = floor.max(self.forward_time / share).as_secs_f64();
        self.grammar_budget = budget;
        // Debts are repaid step by step, present or not; a full credit needs no entry.
        self.grammar_credit.retain(|_, credit| {
            *credit += budget;
            *credit < budget
        });
        let step = self.counters.steps;
        let mut first_waiting = None;
        for (tenant, candidates) in &mut by_tenant {
            candidates.sort_unstable();
            let mut credit = self.grammar_credit.get(tenant).copied().unwrap_or(budget);
            for &(turn, seq, i) in candidates.iter() {
                let req = &mut self.running[i];
                if credit <= 0.0 {
                    req.grammar_waiting = true;
                    let candidate = (turn, seq, i);
                    first_waiting = Some(first_waiting.map_or(candidate, |w| candidate.min(w)));
                    continue;
                }
                let expected = req.constraint.as_ref().map(|c| c.last_mask_time());
                credit -= expected.unwrap_or_default().as_secs_f64();
                req.grammar_turn = step;
            }
        }
        // Nothing else would run: waiting would delay nobody's step.
        if self.running.iter().all(|r| r.grammar_waiting) {
            if let Some((_, _, i)) = first_waiting {
                self.running[i].grammar_waiting = false;
                self.running[i].grammar_turn = step;
            }
        }
    }

    /// Charges the masks the request at `index` computed since its last charge to its
    /// tenant's credit.
    pub(super) fn bill_grammar(&mut self, index: usize) {
        let Some(req) = self.running.get_mut(index) else {
            return;
        };
        let Some(constraint) = req.constraint.as_mut() else {
            return;
        };
        let cost = constraint.take_unbilled().as_secs_f64();
        if self.config.grammar_mask_budget.is_some() && cost > 0.0 {
            let full = self.grammar_budget;
            *self.grammar_credit.entry(req.tenant).or_insert(full) -= cost;
        }
    }

    /// Counts the constrained requests that sat this step out, and clears their marks
    /// (nothing after the batch is built reads them).
    pub(super) fn count_grammar_waits(&mut self) {
        let mut waits = 0;
        for req in self.running.iter_mut().filter(|r| r.grammar_waiting) {
            req.grammar_waiting = false;
            waits += 1;
        }
        if waits > 0 {
            self.counters.grammar_waits += waits;
            metrics::counter!(names::GRAMMAR_WAITS).increment(waits);
        }
    }
}
