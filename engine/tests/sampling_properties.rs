#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Statistical and exact properties of the token sampler.

use engine::sampling::{Sampler, SamplingParams};

const VOCAB: usize = 49152;

/// Deterministic pseudo-random logits in [-spread, spread].
fn logits(n: usize, salt: u64, spread: f32) -> Vec<f32> {
    let mut x = salt.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) as f32 * spread
        })
        .collect()
}

fn seeded(seed: u64) -> SamplingParams {
    SamplingParams {
        seed: Some(seed),
        ..SamplingParams::default()
    }
}

/// Reference softmax in f64 of `row / temperature`.
fn softmax(row: &[f32], temperature: f64) -> Vec<f64> {
    let max = row.iter().fold(f64::MIN, |m, &x| m.max(f64::from(x)));
    let e: Vec<f64> = row
        .iter()
        .map(|&x| ((f64::from(x) - max) / temperature).exp())
        .collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|v| v / z).collect()
}

fn argmax(row: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &x) in row.iter().enumerate() {
        if x > row[best] {
            best = i;
        }
    }
    best as u32
}

/// Ids sorted by probability, most likely first.
fn ranked(probs: &[f64]) -> Vec<usize> {
    let mut ids: Vec<usize> = (0..probs.len()).collect();
    ids.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    ids
}

fn support(dist: &[(u32, f32)]) -> Vec<u32> {
    let mut ids: Vec<u32> = dist.iter().map(|&(i, _)| i).collect();
    ids.sort_unstable();
    ids
}

#[test]
fn greedy_picks_argmax_with_log_softmax_logprob() {
    // The log-probability is computed when asked for (it costs a vocabulary-wide softmax).
    let params = SamplingParams {
        logprobs: Some(0),
        ..SamplingParams::greedy(100)
    };
    let mut s = Sampler::new(&params, &[]);
    for salt in 0..20 {
        let row = logits(VOCAB, salt, 8.0);
        let out = s.sample(&mut row.clone());
        assert_eq!(out.token, argmax(&row));
        let want = softmax(&row, 1.0)[out.token as usize].ln();
        assert!((f64::from(out.logprob) - want).abs() < 1e-4);
    }
}

#[test]
fn temperature_to_zero_approaches_greedy() {
    let mut row = logits(VOCAB, 3, 5.0);
    let best = argmax(&row);
    // A clear gap to the runner-up, so the limit is reached at the temperatures tried.
    row[best as usize] += 0.1;
    // Below the greedy threshold the pick is exactly the argmax, for any seed.
    for seed in 0..20 {
        let p = SamplingParams {
            temperature: 1e-6,
            ..seeded(seed)
        };
        assert_eq!(Sampler::new(&p, &[]).sample(&mut row.clone()).token, best);
    }
    // Above it, the argmax's share grows towards 1 as the temperature falls.
    let mut last = 0.0;
    for t in [2.0, 1.0, 0.3, 0.1, 0.01, 0.001] {
        let p = SamplingParams {
            temperature: t,
            ..seeded(0)
        };
        let dist = Sampler::new(&p, &[]).distribution(&mut row.clone());
        assert_eq!(dist[0].0, best);
        assert!(dist[0].1 >= last);
        last = dist[0].1;
    }
    assert!(last > 0.999);
}

#[test]
fn top_k_one_equals_greedy() {
    for salt in 0..10 {
        let row = logits(VOCAB, salt, 3.0);
        for (seed, t) in [(1, 0.5), (2, 1.0), (3, 2.0)] {
            let p = SamplingParams {
                top_k: 1,
                temperature: t,
                ..seeded(seed)
            };
            assert_eq!(
                Sampler::new(&p, &[]).sample(&mut row.clone()).token,
                argmax(&row)
            );
        }
    }
}

#[test]
fn top_k_restricts_support() {
    let row = logits(VOCAB, 11, 2.0);
    let probs = softmax(&row, 1.0);
    let top: Vec<usize> = ranked(&probs)[..10].to_vec();
    for seed in 0..2000 {
        let p = SamplingParams {
            top_k: 10,
            temperature: 1.5,
            ..seeded(seed)
        };
        let t = Sampler::new(&p, &[]).sample(&mut row.clone()).token as usize;
        assert!(top.contains(&t), "seed {seed} picked {t}");
    }
}

#[test]
fn top_p_keeps_smallest_prefix_reaching_p() {
    // Exact small case: probabilities 0.4, 0.3, 0.2, 0.1.
    let row: Vec<f32> = [0.4f32, 0.3, 0.2, 0.1].iter().map(|p| p.ln()).collect();
    for (top_p, want) in [
        (0.3, vec![0]),
        (0.65, vec![0, 1]),
        (0.75, vec![0, 1, 2]),
        (0.95, vec![0, 1, 2, 3]),
        (1.0, vec![0, 1, 2, 3]),
    ] {
        let p = SamplingParams { top_p, ..seeded(0) };
        let dist = Sampler::new(&p, &[]).distribution(&mut row.clone());
        assert_eq!(support(&dist), want, "top_p {top_p}");
        let mass: f32 = dist.iter().map(|&(_, q)| q).sum();
        assert!((mass - 1.0).abs() < 1e-5);
    }
    // Full vocabulary, flat enough that the nucleus holds thousands of tokens.
    for (spread, top_p) in [(1.0f32, 0.9f32), (6.0, 0.5), (12.0, 0.95)] {
        let row = logits(VOCAB, 5, spread);
        let probs = softmax(&row, 0.8);
        let mut want = Vec::new();
        let mut mass = 0.0;
        for id in ranked(&probs) {
            want.push(id as u32);
            mass += probs[id];
            if mass >= f64::from(top_p) {
                break;
            }
        }
        want.sort_unstable();
        let p = SamplingParams {
            top_p,
            temperature: 0.8,
            ..seeded(0)
        };
        let got = support(&Sampler::new(&p, &[]).distribution(&mut row.clone()));
        // Rounding may move the boundary by a token at most.
        assert!(
            got.len().abs_diff(want.len()) <= 1,
            "{} vs {}",
            got.len(),
            want.len()
        );
        // Both are prefixes of the same ranking, so the shorter lies inside the longer.
        let common = got.iter().filter(|i| want.binary_search(i).is_ok()).count();
        assert_eq!(common, want.len().min(got.len()));
    }
}

#[test]
fn top_p_applies_to_the_top_k_renormalized_distribution() {
    // After top-k=2 the probabilities are 4/7 and 3/7: p = 0.5 keeps only the first.
    let row: Vec<f32> = [0.4f32, 0.3, 0.2, 0.1].iter().map(|p| p.ln()).collect();
    let p = SamplingParams {
        top_k: 2,
        top_p: 0.5,
        ..seeded(0)
    };
    let dist = Sampler::new(&p, &[]).distribution(&mut row.clone());
    assert_eq!(support(&dist), vec![0]);
    let p = SamplingParams {
        top_k: 3,
        top_p: 0.8,
        ..seeded(0)
    };
    // Renormalized over 0.9: 0.444, 0.333, 0.222 -> the first two hold 0.78 < 0.8.
    let dist = Sampler::new(&p, &[]).distribution(&mut row.clone());
    assert_eq!(support(&dist), vec![0, 1, 2]);
    assert!((dist[0].1 - 4.0 / 9.0).abs() < 1e-5);
}

#[test]
fn min_p_drops_tokens_below_fraction_of_max() {
    let row: Vec<f32> = [0.5f32, 0.3, 0.1, 0.06, 0.04]
        .iter()
        .map(|p| p.ln())
        .collect();
    // Threshold 0.15 * 0.5 = 0.075 keeps 0.5, 0.3, 0.1 on every code path.
    for (top_k, top_p) in [(0, 1.0), (0, 0.999), (4, 1.0), (4, 0.999)] {
        let p = SamplingParams {
            min_p: 0.15,
            top_k,
            top_p,
            ..seeded(0)
        };
        let dist = Sampler::new(&p, &[]).distribution(&mut row.clone());
        assert_eq!(support(&dist), vec![0, 1, 2], "top_k {top_k} top_p {top_p}");
        assert!((dist[0].1 - 0.5 / 0.9).abs() < 1e-5);
    }
}

#[test]
fn penalties_change_logits_exactly() {
    let p = SamplingParams {
        repetition_penalty: 1.25,
        frequency_penalty: 0.5,
        presence_penalty: 1.0,
        ..seeded(0)
    };
    let s = Sampler::with_output(&p, &[0, 1], &[1, 4, 4, 4]);
    let mut row = [2.0f32, -2.0, 0.5, 1.0, 5.0];
    s.apply_penalties(&mut row);
    // 0: prompt only -> 2 / 1.25. 1: -2 * 1.25, then -0.5 - 1. 4: 5 / 1.25 - 1.5 - 1.
    assert_eq!(row, [1.6, -4.0, 0.5, 1.0, 1.5]);

    // Presence/frequency ignore the prompt; repetition alone covers it.
    let p = SamplingParams {
        frequency_penalty: 2.0,
        presence_penalty: 2.0,
        ..seeded(0)
    };
    let mut row = [1.0f32, 1.0];
    Sampler::new(&p, &[0, 1]).apply_penalties(&mut row);
    assert_eq!(row, [1.0, 1.0]);
}

#[test]
fn same_seed_same_sequence_different_seed_different() {
    let row = vec![0.0f32; 1000];
    let run = |seed: Option<u64>| -> Vec<u32> {
        let p = SamplingParams {
            seed,
            ..SamplingParams::default()
        };
        let mut s = Sampler::new(&p, &[]);
        (0..64).map(|_| s.sample(&mut row.clone()).token).collect()
    };
    assert_eq!(run(Some(5)), run(Some(5)));
    assert_ne!(run(Some(5)), run(Some(6)));
    assert_ne!(run(None), run(None));
    // A flat distribution should not collapse onto few tokens.
    let mut distinct = run(Some(5));
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 50);
}

/// Samples `n` tokens with one seeded sampler; chi-square against `want` (zero-probability
/// ids must never appear).
fn chi_square(p: &SamplingParams, row: &[f32], want: &[f64], n: usize) -> f64 {
    let mut s = Sampler::new(p, &[]);
    let mut counts = vec![0usize; row.len()];
    for _ in 0..n {
        counts[s.sample(&mut row.to_vec()).token as usize] += 1;
    }
    let mut chi = 0.0;
    for (&c, &q) in counts.iter().zip(want) {
        if q == 0.0 {
            assert_eq!(c, 0, "sampled an id with probability 0");
        } else {
            let e = q * n as f64;
            chi += (c as f64 - e).powi(2) / e;
        }
    }
    chi
}

#[test]
fn empirical_distribution_matches_softmax() {
    let row: Vec<f32> = (0..20).map(|i| (i as f32 * 0.37).sin() * 2.0).collect();
    let n = 20_000;
    // 19 degrees of freedom: chi-square exceeds 43.8 with probability 0.001.
    let p = SamplingParams {
        temperature: 0.9,
        ..seeded(12345)
    };
    let chi = chi_square(&p, &row, &softmax(&row, 0.9), n);
    assert!(chi < 43.8, "plain: chi-square {chi}");

    // Top-k = 5: the five best renormalized (4 degrees of freedom, 18.5).
    let probs = softmax(&row, 1.0);
    let keep = &ranked(&probs)[..5];
    let z: f64 = keep.iter().map(|&i| probs[i]).sum();
    let want: Vec<f64> = (0..20)
        .map(|i| if keep.contains(&i) { probs[i] / z } else { 0.0 })
        .collect();
    let p = SamplingParams {
        top_k: 5,
        ..seeded(777)
    };
    let chi = chi_square(&p, &row, &want, n);
    assert!(chi < 18.5, "top-k: chi-square {chi}");

    // Nucleus 0.7 on the same row, checked against the reference prefix.
    let mut nucleus = Vec::new();
    let mut mass = 0.0;
    for id in ranked(&probs) {
        nucleus.push(id);
        mass += probs[id];
        if mass >= 0.7 {
            break;
        }
    }
    let want: Vec<f64> = (0..20)
        .map(|i| {
            if nucleus.contains(&i) {
                probs[i] / mass
            } else {
                0.0
            }
        })
        .collect();
    let p = SamplingParams {
        top_p: 0.7,
        ..seeded(4242)
    };
    let dof = nucleus.len() - 1;
    // Generous bound: p = 0.001 critical values for up to 19 degrees of freedom.
    let limit = [
        10.8, 13.8, 16.3, 18.5, 20.5, 22.5, 24.3, 26.1, 27.9, 29.6, 31.3,
    ][dof.min(10)];
    let chi = chi_square(&p, &row, &want, n);
    assert!(chi < limit, "top-p: chi-square {chi} with {dof} dof");
}

#[test]
fn empirical_distribution_full_vocab_dense_path() {
    // Few likely tokens on a 49152 vocabulary exercise the chunked inverse CDF.
    let mut row = vec![-30.0f32; VOCAB];
    let ids = [3usize, 1500, 20_000, 20_001, 49_151];
    for (k, &i) in ids.iter().enumerate() {
        row[i] = k as f32 * 0.5;
    }
    let probs = softmax(&row, 1.0);
    let chi = chi_square(&seeded(9), &row, &probs, 10_000);
    // The tail holds ~1e-9 of the mass in total; only the five ids carry weight.
    assert!(chi < 18.5, "chi-square {chi}");
}

#[test]
fn logprobs_are_log_softmax_and_sorted() {
    // Vocabulary of 20 with 20 requested: `top` covers every token.
    let row: Vec<f32> = (0..20).map(|i| (i as f32 * 1.3).cos() * 3.0).collect();
    let p = SamplingParams {
        temperature: 0.7,
        repetition_penalty: 1.3,
        logprobs: Some(20),
        ..seeded(1)
    };
    let mut s = Sampler::new(&p, &[2, 5, 7]);
    for _ in 0..5 {
        let out = s.sample(&mut row.clone());
        assert_eq!(out.top.len(), 20);
        let total: f64 = out.top.iter().map(|&(_, l)| f64::from(l).exp()).sum();
        assert!((total - 1.0).abs() < 1e-5, "sum {total}");
        assert!(out.top.windows(2).all(|w| w[0].1 >= w[1].1));
        let chosen = out.top.iter().find(|&&(i, _)| i == out.token).unwrap();
        assert_eq!(chosen.1, out.logprob);
    }

    // Full vocabulary: the chosen logprob is the processed log-softmax.
    let row = logits(VOCAB, 8, 4.0);
    let p = SamplingParams {
        temperature: 0.6,
        top_k: 50,
        logprobs: Some(5),
        repetition_penalty: 1.5,
        ..seeded(2)
    };
    let prompt = [10u32, 20, 30];
    let mut s = Sampler::new(&p, &prompt);
    let mut processed = row.clone();
    s.apply_penalties(&mut processed);
    let probs = softmax(&processed, 0.6);
    let out = s.sample(&mut row.clone());
    let want = probs[out.token as usize].ln();
    assert!((f64::from(out.logprob) - want).abs() < 1e-4);
    let best = ranked(&probs);
    for (k, &(id, lp)) in out.top.iter().enumerate() {
        assert_eq!(id as usize, best[k]);
        assert!((f64::from(lp) - probs[best[k]].ln()).abs() < 1e-4);
    }
    assert!(out.top.windows(2).all(|w| w[0].1 >= w[1].1));

    // Without logprobs requested, `top` stays empty.
    assert!(Sampler::new(&seeded(0), &[])
        .sample(&mut row.clone())
        .top
        .is_empty());
}
