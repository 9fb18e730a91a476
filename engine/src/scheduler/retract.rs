//! Retraction (SGLang's `retract_decode`): when decodes cannot get their slots, a running
//! request gives its K/V to the tree and goes back to the queue, chosen so that it loses
//! the least work and, between tenants, from the one holding most above its fair share.

use super::{Req, Scheduler};
use crate::metric_names as names;
use crate::model::ForwardModel;
use crate::tenants::TenantId;

impl<M: ForwardModel> Scheduler<M> {
    /// Retracts one request because `short` cannot get its decode slots: one of the tenant
    /// holding the most KV above its fair share, or, when no tenant is above it, one of
    /// `short`'s own (it may not take from tenants within their share).
    pub(super) fn retract_for(&mut self, short: TenantId) {
        let capacity = self.cache.allocator().capacity();
        let cached = self.cached_by_tenant();
        let mut tenants: Vec<TenantId> = self.running.iter().map(|r| r.tenant).collect();
        tenants.sort_unstable();
        tenants.dedup();
        let excess = |s: &Self, t: TenantId| {
            let held = cached.get(t as usize).copied().unwrap_or(0) + s.running_kv_of(t);
            held as i64 - s.tenants.fair_share(t, capacity) as i64
        };
        let most_over = tenants
            .iter()
            .map(|&t| (excess(self, t), t))
            .max()
            .filter(|&(over, _)| over > 0)
            .map(|(_, t)| t);
        let victim_tenant = most_over.unwrap_or(short);
        self.retract_one_where(|r| r.tenant == victim_tenant);
    }

    /// Retracts the running request with the fewest generated tokens (then the longest
    /// prompt, then the newest): it loses the least work.
    pub(super) fn retract_one(&mut self) {
        self.retract_one_where(|_| true);
    }

    /// [`Self::retract_one`] among the running requests `eligible` accepts.
    fn retract_one_where(&mut self, eligible: impl Fn(&Req) -> bool) {
        let victim = (0..self.running.len())
            .filter(|&i| eligible(&self.running[i]))
            .min_by_key(|&i| {
                let r = &self.running[i];
                (
                    // An embedding already computed (its batch not yet collected) frees its
                    // memory at the collect: retracting it would compute it again, so it
                    // goes last (never skipped: the caller needs a victim to make room).
                    r.embedding.is_some(),
                    r.output_ids.len(),
                    std::cmp::Reverse(r.input_ids.len()),
                    std::cmp::Reverse(r.seq),
                )
            });
        if let Some(i) = victim {
            let req = self.running.swap_remove(i);
            self.retract(req);
        }
    }

    fn retract(&mut self, mut req: Req) {
        if let Some(kv) = req.kv.take() {
            let len = kv.kv_len();
            let ids = req.fill_ids();
            self.save_state(&req, &kv, &ids[..len]);
            if let Err(e) = self.cache.cache_finished_req(kv, &ids[..len]) {
                tracing::error!(rid = %req.rid, "retraction: {e}");
            }
        }
        req.retractions += 1;
        req.grammar_waiting = false;
        // Computed again when its prompt is.
        req.embedding = None;
        self.counters.retractions += 1;
        metrics::counter!(names::RETRACTIONS).increment(1);
        // Retraction means admission was too optimistic: reserve more from now on.
        self.new_token_ratio = (self.new_token_ratio + 0.3).min(1.0);
        self.waiting.push(req);
    }
}
