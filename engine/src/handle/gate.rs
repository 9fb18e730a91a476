//! Per-tenant limits checked at submission, before a request reaches the scheduler: the
//! tenant's waiting-queue length, its share of the engine's queue once that is half full,
//! and its token rate. Each answers RESOURCE_EXHAUSTED / 429 naming the limit.

use super::SubmitError;
use crate::tenants::{TenantId, TenantLimits, TokenBucket};
use std::time::Instant;

#[derive(Default)]
pub(crate) struct TenantGate {
    limits: Vec<TenantLimits>,
    buckets: Vec<Option<TokenBucket>>,
    /// The weights of the tenants that are not removed, summed: the queue's shares.
    total_weight: f64,
}

/// How full the waiting queues are when a request arrives.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QueueLoad {
    /// Requests of the request's tenant waiting.
    pub tenant: usize,
    /// Requests of every tenant waiting.
    pub total: usize,
    /// The engine's queue limit (`max_queued_requests`).
    pub capacity: usize,
}

impl TenantGate {
    /// New limits; buckets whose rate is unchanged keep their level.
    pub fn set_limits(&mut self, limits: Vec<TenantLimits>, now: Instant) {
        let mut buckets = Vec::with_capacity(limits.len());
        for (i, l) in limits.iter().enumerate() {
            let unchanged = self
                .limits
                .get(i)
                .is_some_and(|old| old.token_rate == l.token_rate);
            let kept = if unchanged {
                self.buckets.get_mut(i).and_then(Option::take)
            } else {
                None
            };
            buckets.push(kept.or_else(|| l.token_rate.map(|r| TokenBucket::new(r, now))));
        }
        self.total_weight = limits.iter().filter(|l| !l.removed).map(|l| l.weight).sum();
        self.limits = limits;
        self.buckets = buckets;
    }

    /// How many waiting requests `tenant` may hold once the engine's queue is half full: its
    /// weight's share of the queue. Below half full a tenant may queue beyond it (a burst
    /// while the others are quiet); from there on the others keep their share, so that one
    /// tenant cannot fill the queue and have everyone else's requests refused.
    fn queue_share(&self, limits: &TenantLimits, capacity: usize) -> usize {
        if self.total_weight <= 0.0 || limits.removed {
            return capacity;
        }
        let share = capacity as f64 * limits.weight / self.total_weight;
        (share.ceil() as usize).max(1)
    }

    /// The most tokens one request of `tenant` may cost (its rate limit's burst), if limited.
    pub fn burst(&self, tenant: TenantId) -> Option<f64> {
        Some(self.limits.get(tenant as usize)?.token_rate?.burst)
    }

    /// The tenant's queue limit, if it has one.
    pub fn max_queued(&self, tenant: TenantId) -> Option<usize> {
        self.limits.get(tenant as usize)?.max_queued_requests
    }

    /// The tenant's KV quota, if it has one.
    pub fn kv_quota(&self, tenant: TenantId) -> Option<usize> {
        self.limits.get(tenant as usize)?.kv_quota_tokens
    }

    /// Checks whether one request of `tenant` costing `tokens` (prompt + requested output)
    /// may pass with the queues as `queue` says. Takes nothing: a refused request, or one
    /// another check refuses afterwards, costs the tenant nothing. A request costing more
    /// than the bucket can ever hold is invalid, not "later".
    pub fn check(
        &mut self,
        tenant: TenantId,
        queue: QueueLoad,
        tokens: usize,
        now: Instant,
    ) -> Result<(), SubmitError> {
        self.check_group(tenant, queue, (1, true), tokens, now)
    }

    /// [`TenantGate::check`] for `count` requests costing `tokens` together (the choices of
    /// one response, queued one after the other: the queue limit is checked for the next);
    /// `output`: they generate (embeddings do not).
    pub fn check_group(
        &mut self,
        tenant: TenantId,
        queue: QueueLoad,
        (count, output): (usize, bool),
        tokens: usize,
        now: Instant,
    ) -> Result<(), SubmitError> {
        let index = tenant as usize;
        let Some(limits) = self.limits.get(index) else {
            return Ok(());
        };
        let what = match (count, output) {
            (1, _) => "this request counts".to_string(),
            (_, true) => format!("its {count} choices count"),
            (_, false) => format!("its {count} inputs count"),
        };
        if let Some(Some(bucket)) = self.buckets.get_mut(index) {
            if tokens as f64 > bucket.burst() {
                // Its output budget is what a client usually lowers; an embedding has none.
                let (field, lower) = if output {
                    ("max_new_tokens", "max_tokens, n or the prompt")
                } else {
                    ("input", "the inputs or their number")
                };
                return Err(SubmitError::InvalidArgument(format!(
                    "{field}: {what} {tokens} prompt + output tokens, more than \
                     tenant {:?}'s token_rate_burst of {} can ever admit; lower {lower}",
                    limits.name,
                    bucket.burst()
                )));
            }
        }
        let waiting = queue.tenant;
        if let Some(max) = limits.max_queued_requests {
            if waiting >= max {
                return Err(SubmitError::ResourceExhausted(format!(
                    "tenant {:?} already has {waiting} requests waiting \
                     (its max_queued_requests is {max})",
                    limits.name
                )));
            }
        }
        let share = self.queue_share(limits, queue.capacity);
        if 2 * queue.total >= queue.capacity && waiting >= share {
            return Err(SubmitError::ResourceExhausted(format!(
                "tenant {:?} already has {waiting} requests waiting, its share ({share}) of \
                 the server's queue of {} while that is half full; retry later",
                limits.name, queue.capacity
            )));
        }
        if let Some(Some(bucket)) = self.buckets.get_mut(index) {
            if !bucket.can_take(tokens as f64, now) {
                let rate = limits.token_rate.map_or(0.0, |r| r.per_second);
                return Err(SubmitError::ResourceExhausted(format!(
                    "tenant {:?} is over its token rate limit of {rate} tokens/s \
                     ({what} {tokens} prompt + output tokens); retry later",
                    limits.name
                )));
            }
        }
        Ok(())
    }

    /// Takes a passed request's tokens from its tenant's bucket (after [`TenantGate::check`]).
    pub fn take(&mut self, tenant: TenantId, tokens: usize, now: Instant) {
        if let Some(Some(bucket)) = self.buckets.get_mut(tenant as usize) {
            bucket.try_take(tokens as f64, now);
        }
    }

    /// Charges `tokens` of work done for a request that was then refused (a grammar that
    /// failed to compile), down to an empty bucket.
    pub fn charge(&mut self, tenant: TenantId, tokens: usize, now: Instant) {
        if let Some(Some(bucket)) = self.buckets.get_mut(tenant as usize) {
            bucket.take_up_to(tokens as f64, now);
        }
    }

    /// `check`, then `take` if it passed.
    #[cfg(test)]
    fn admit(
        &mut self,
        tenant: TenantId,
        waiting: usize,
        tokens: usize,
        now: Instant,
    ) -> Result<(), SubmitError> {
        let queue = QueueLoad {
            tenant: waiting,
            total: waiting,
            capacity: usize::MAX,
        };
        self.check(tenant, queue, tokens, now)?;
        self.take(tenant, tokens, now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tenants::TokenRate;

    /// `waiting` of the tenant's requests, alone in a queue they never fill half of.
    fn queue(waiting: usize) -> QueueLoad {
        QueueLoad {
            tenant: waiting,
            total: waiting,
            capacity: usize::MAX,
        }
    }

    #[test]
    fn queue_and_rate_limits_name_themselves() {
        let now = Instant::now();
        let mut gate = TenantGate::default();
        let mut limited = TenantLimits::unlimited("b");
        limited.max_queued_requests = Some(2);
        limited.token_rate = Some(TokenRate {
            per_second: 10.0,
            burst: 100.0,
        });
        gate.set_limits(vec![TenantLimits::unlimited("a"), limited], now);
        assert!(gate.admit(0, 1_000_000, 1_000_000, now).is_ok());
        assert!(
            gate.admit(7, 5, 5, now).is_ok(),
            "unknown tenants are not limited"
        );
        let full = gate.admit(1, 2, 1, now).unwrap_err().to_string();
        assert!(full.contains("max_queued_requests is 2"), "{full}");
        assert!(gate.admit(1, 0, 80, now).is_ok());
        let rate = gate.admit(1, 0, 80, now).unwrap_err().to_string();
        assert!(rate.contains("token rate limit of 10 tokens/s"), "{rate}");
        // More than the burst can never pass: invalid, not "retry later"; and it takes nothing.
        let never = gate.admit(1, 0, 101, now).unwrap_err();
        assert!(
            matches!(&never, SubmitError::InvalidArgument(m) if m.contains("token_rate_burst of 100")),
            "{never}"
        );
        let later = now + std::time::Duration::from_secs(1);
        assert!(gate.check(1, queue(0), 30, later).is_ok());
        assert!(
            gate.check(1, queue(0), 30, later).is_ok(),
            "a check takes nothing"
        );
        gate.take(1, 30, later);
        assert!(gate.check(1, queue(0), 1, later).is_err());
        let now = later + std::time::Duration::from_secs(2);
        // Reapplying the same limits keeps the bucket's level.
        gate.set_limits(gate.limits.clone(), now);
        assert!(gate.admit(1, 0, 30, now).is_err());
        assert!(gate.admit(1, 0, 20, now).is_ok());
    }

    #[test]
    fn a_tenant_holds_at_most_its_share_of_a_half_full_queue() {
        let now = Instant::now();
        let mut gate = TenantGate::default();
        let mut heavy = TenantLimits::unlimited("heavy");
        heavy.weight = 3.0;
        let mut gone = TenantLimits::unlimited("gone");
        gone.removed = true;
        gate.set_limits(vec![TenantLimits::unlimited("a"), heavy, gone], now);
        let load = |tenant, total| QueueLoad {
            tenant,
            total,
            capacity: 16,
        };
        // Below half full, anyone may queue beyond its share: a lone burst still fits.
        assert!(gate.check(0, load(7, 7), 1, now).is_ok());
        // From half full, "a" (weight 1 of 4: removed tenants have no share) holds 4.
        assert!(gate.check(0, load(3, 8), 1, now).is_ok());
        let refused = gate.check(0, load(4, 8), 1, now).unwrap_err();
        assert!(
            matches!(&refused, SubmitError::ResourceExhausted(m)
                if m.contains("its share (4) of the server's queue of 16")),
            "{refused}"
        );
        // The heavier tenant's share is 12.
        assert!(gate.check(1, load(11, 15), 1, now).is_ok());
        assert!(gate.check(1, load(12, 15), 1, now).is_err());
        // The same for a group of choices.
        assert!(gate.check_group(0, load(4, 8), (2, true), 2, now).is_err());
    }
}
