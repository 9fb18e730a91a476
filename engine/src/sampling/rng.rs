//! Counter-based random stream: the draw for a request's n-th token is a pure function of
//! (seed, n), so it does not depend on batching, other requests, or how often a request was
//! paused and resumed.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finalizer: a bijection on u64 with full avalanche.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[derive(Clone, Debug)]
pub(crate) struct TokenRng {
    key: u64,
}

impl TokenRng {
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            key: mix64(seed ^ 0x5851_f42d_4c95_7f2d),
        }
    }

    /// Uniform in [0, 1) with 53 random bits, for the token at position `step`.
    pub(crate) fn uniform(&self, step: u64) -> f64 {
        let z = mix64(self.key ^ mix64(step.wrapping_add(1).wrapping_mul(GOLDEN)));
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// A fresh seed for requests that did not ask for one: per-process random keys from std,
/// a process-wide counter and the clock, hashed together.
pub(crate) fn random_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    if let Ok(d) = SystemTime::now().duration_since(UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_a_function_of_seed_and_step() {
        let a = TokenRng::new(7);
        let b = TokenRng::new(7);
        let c = TokenRng::new(8);
        for step in [0u64, 1, 2, 1000] {
            assert_eq!(a.uniform(step), b.uniform(step));
            assert_ne!(a.uniform(step), c.uniform(step));
        }
    }

    #[test]
    fn uniform_moments() {
        let r = TokenRng::new(42);
        let n = 100_000u64;
        let xs: Vec<f64> = (0..n).map(|i| r.uniform(i)).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
        assert!((var - 1.0 / 12.0).abs() < 0.002, "var {var}");
        // Ten equal bins, chi-square with 9 degrees of freedom (p = 0.001 at 27.9).
        let mut bins = [0u64; 10];
        for x in &xs {
            bins[(x * 10.0) as usize] += 1;
        }
        let e = n as f64 / 10.0;
        let chi: f64 = bins.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
        assert!(chi < 27.9, "chi-square {chi}");
    }

    #[test]
    fn random_seeds_differ() {
        assert_ne!(random_seed(), random_seed());
    }
}
