//! Token-bucket rate limiting of a tenant's admitted tokens.

use super::TokenRate;
use std::time::Instant;

/// Holds up to `burst` tokens, refilled continuously at `per_second`.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    rate: TokenRate,
    tokens: f64,
    refilled_at: Instant,
}

impl TokenBucket {
    pub fn new(rate: TokenRate, now: Instant) -> Self {
        Self {
            rate,
            tokens: rate.burst,
            refilled_at: now,
        }
    }

    /// Takes `cost` tokens if the bucket holds them; otherwise takes nothing.
    pub fn try_take(&mut self, cost: f64, now: Instant) -> bool {
        let ok = self.can_take(cost, now);
        if ok {
            self.tokens -= cost;
        }
        ok
    }

    /// Takes `cost` tokens, or all the bucket holds if that is less: work already done
    /// (a failed grammar compile) is charged whether or not the bucket can cover it.
    pub fn take_up_to(&mut self, cost: f64, now: Instant) {
        self.can_take(cost, now);
        self.tokens = (self.tokens - cost).max(0.0);
    }

    /// Whether the bucket holds `cost` tokens now (refilling it, taking nothing).
    pub fn can_take(&mut self, cost: f64, now: Instant) -> bool {
        let elapsed = now
            .saturating_duration_since(self.refilled_at)
            .as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate.per_second).min(self.rate.burst);
        self.refilled_at = now;
        cost <= self.tokens
    }

    /// The most one request may ever cost.
    pub fn burst(&self) -> f64 {
        self.rate.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn bucket_refills_at_its_rate_up_to_its_burst() {
        let t0 = Instant::now();
        let rate = TokenRate {
            per_second: 100.0,
            burst: 300.0,
        };
        let mut b = TokenBucket::new(rate, t0);
        assert!(b.try_take(250.0, t0));
        assert!(!b.try_take(100.0, t0), "50 left");
        assert!(
            b.try_take(100.0, t0 + Duration::from_millis(500)),
            "50 + 50"
        );
        assert!(!b.try_take(1.0, t0 + Duration::from_millis(500)));
        // A long pause refills to the burst, no further.
        assert!(!b.try_take(301.0, t0 + Duration::from_secs(60)));
        assert!(b.try_take(300.0, t0 + Duration::from_secs(60)));
    }

    #[test]
    fn a_charge_empties_the_bucket_at_most() {
        let t0 = Instant::now();
        let rate = TokenRate {
            per_second: 10.0,
            burst: 100.0,
        };
        let mut b = TokenBucket::new(rate, t0);
        b.take_up_to(70.0, t0);
        assert!(!b.can_take(31.0, t0));
        assert!(b.can_take(30.0, t0));
        // More than it holds empties it; it refills from zero, not from a debt.
        b.take_up_to(500.0, t0);
        assert!(!b.can_take(1.0, t0));
        assert!(b.can_take(10.0, t0 + Duration::from_secs(1)));
        assert!(!b.can_take(11.0, t0 + Duration::from_secs(1)));
    }
}
