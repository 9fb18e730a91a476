//! Scoring a known token (prompt log-probabilities): its log-probability under the
//! model's own distribution, the log-softmax of the raw logits over the whole vocabulary,
//! with no penalty, temperature or cut. A greedy request's output logprobs use the same
//! distribution, so a generated token scores the same when it comes back in a prompt.

use super::math;
use super::SampleOutput;

/// `target`'s log-probability under `logits`, the `top` most likely tokens, most likely
/// first (ties: lower id first), and those of `given` in their order, as a sample of
/// `target` would report them. `logits` is scratch afterwards (sanitized in place).
pub fn score_row(logits: &mut [f32], target: u32, top: usize, given: &[u32]) -> SampleOutput {
    if logits.is_empty() {
        return SampleOutput {
            token: target,
            logprob: f32::NEG_INFINITY,
            top: Vec::new(),
            given: Vec::new(),
        };
    }
    let max = math::scale_sanitize_max(logits, 1.0);
    let ln_z = math::sum_exp(logits, max, 1.0).ln();
    let logprob_of = |x: f32| (f64::from(x - max) - ln_z) as f32;
    let logprob = logits
        .get(target as usize)
        .map_or(f32::NEG_INFINITY, |&x| logprob_of(x));
    let top = math::top_n(logits, top)
        .into_iter()
        .map(|i| (i, logprob_of(logits[i as usize])))
        .collect();
    let given = (given.iter())
        .map(|&i| {
            (
                i,
                logits
                    .get(i as usize)
                    .map_or(f32::NEG_INFINITY, |&x| logprob_of(x)),
            )
        })
        .collect();
    SampleOutput {
        token: target,
        logprob,
        top,
        given,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampling::{Sampler, SamplingParams};

    /// Against a log-softmax written out in f64.
    #[test]
    fn a_score_is_the_log_softmax_of_the_raw_logits() {
        let logits: Vec<f32> = (0..300)
            .map(|i| ((i * 37 % 101) as f32) * 0.13 - 4.0)
            .collect();
        let z: f64 = logits.iter().map(|&x| f64::from(x).exp()).sum();
        let expected = |i: usize| (f64::from(logits[i]) - z.ln()) as f32;
        let scored = score_row(&mut logits.clone(), 17, 3, &[5, 17]);
        assert_eq!(scored.given.len(), 2);
        assert_eq!(scored.given[1], (17, scored.logprob));
        assert!((scored.given[0].1 - expected(5)).abs() < 1e-5);
        assert_eq!(scored.token, 17);
        assert!((scored.logprob - expected(17)).abs() < 1e-5);
        let mut order: Vec<usize> = (0..logits.len()).collect();
        order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
        assert_eq!(scored.top.len(), 3);
        for (&(id, lp), &want) in scored.top.iter().zip(&order) {
            assert_eq!(id as usize, want);
            assert!((lp - expected(want)).abs() < 1e-5);
        }
        assert_eq!(
            score_row(&mut logits.clone(), 300, 0, &[]).logprob,
            f32::NEG_INFINITY
        );
    }

    /// A greedy sample's logprob is the score of the token it picked.
    #[test]
    fn a_greedy_samples_logprob_is_its_score() {
        let logits: Vec<f32> = (0..500)
            .map(|i| ((i * 53 % 211) as f32).sin() * 3.0)
            .collect();
        let params = SamplingParams {
            temperature: 0.0,
            logprobs: Some(2),
            ..SamplingParams::default()
        };
        let sampled = Sampler::new(&params, &[]).sample(&mut logits.clone());
        let scored = score_row(&mut logits.clone(), sampled.token, 2, &[]);
        assert_eq!(scored.logprob, sampled.logprob);
        assert_eq!(scored.top, sampled.top);
    }
}
