//! When each session starts: Poisson arrivals (exponential gaps, seeded) at the run's request
//! rate, or at a tenant's own rate for tenants that set one; all at once when the rate is
//! infinite, leaving the pace to `--max-concurrency`.

use super::dataset::{unit_f64, Session};
use super::tenants::TenantSpec;
use crate::traces::SplitMix;
use std::time::Duration;

/// Start offsets of `sessions` from the start of the run, in the sessions' order. Each arrival
/// process (the shared one, and one per tenant with its own rate) visits its sessions in list
/// order.
pub fn arrival_offsets(
    sessions: &[Session],
    tenants: &[TenantSpec],
    request_rate: Option<f64>,
    seed: u64,
) -> Vec<Duration> {
    // Index 0: the shared process; 1 + t: tenant t's own.
    let mut clocks = vec![0.0_f64; tenants.len() + 1];
    let mut rngs: Vec<SplitMix> = (0..clocks.len() as u64)
        .map(|i| SplitMix::new(seed ^ 0xa441_7a15 ^ i.wrapping_mul(0x2545_f491_4f6c_dd1d)))
        .collect();
    sessions
        .iter()
        .map(|session| {
            let own = tenants.get(session.tenant).and_then(|t| t.request_rate);
            let (process, rate) = match own {
                Some(rate) => (1 + session.tenant, Some(rate)),
                None => (0, request_rate),
            };
            let at = clocks[process];
            if let Some(rate) = rate.filter(|r| r.is_finite() && *r > 0.0) {
                clocks[process] += exponential(&mut rngs[process], rate);
            }
            Duration::from_secs_f64(at)
        })
        .collect()
}

/// An exponential gap with mean `1 / rate` seconds.
fn exponential(rng: &mut SplitMix, rate: f64) -> f64 {
    // 1 - u is in (0, 1]: the logarithm stays finite.
    -(1.0 - unit_f64(rng)).ln() / rate
}

/// The order to start sessions in: by arrival, ties in list order.
pub fn start_order(offsets: &[Duration]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    order
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::loadgen::dataset::Turn;

    fn sessions(tenants: &[usize]) -> Vec<Session> {
        tenants
            .iter()
            .map(|&tenant| Session {
                tenant,
                turns: vec![Turn {
                    new_tokens: vec![1],
                    output_len: 1,
                }],
                carries_history: false,
            })
            .collect()
    }

    #[test]
    fn infinite_rate_starts_everything_at_once() {
        let offsets = arrival_offsets(&sessions(&[0; 5]), &[TenantSpec::single(None)], None, 1);
        assert!(offsets.iter().all(|d| d.is_zero()));
        assert_eq!(start_order(&offsets), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn poisson_arrivals_have_the_requested_mean_rate() {
        let n = 20_000;
        let offsets = arrival_offsets(
            &sessions(&vec![0; n]),
            &[TenantSpec::single(None)],
            Some(50.0),
            9,
        );
        assert!(offsets.windows(2).all(|w| w[0] <= w[1]));
        let span = offsets[n - 1].as_secs_f64();
        let rate = (n - 1) as f64 / span;
        assert!((rate - 50.0).abs() < 2.0, "rate {rate}");
    }

    #[test]
    fn tenants_with_their_own_rate_run_their_own_process() {
        let tenants = [
            TenantSpec::parse_flag("slow::1").unwrap(),
            TenantSpec::parse_flag("fast").unwrap(),
        ];
        let list = sessions(&[0, 1, 0, 1, 0, 1]);
        let offsets = arrival_offsets(&list, &tenants, None, 3);
        // "fast" has no rate and the run none either: all at zero.
        assert!([1, 3, 5].iter().all(|&i| offsets[i].is_zero()));
        assert!(offsets[0].is_zero() && offsets[2] > offsets[0] && offsets[4] > offsets[2]);
    }
}
