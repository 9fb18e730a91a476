//! The twin (and so the kernel) against references written the obvious way: a full sort
//! for the cuts, an id-order inverse CDF for the draw, an f64 log-softmax for the
//! log-probabilities.

use super::twin::{apply_edit, sample_rows, sanitize};
use super::*;
use crate::vector::exp_approx;

/// xorshift64*: reproducible test data without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Logits with a few clear favourites over a flat tail (`spread` sets the tail's range).
    fn logits(&mut self, vocab: usize, spread: f32) -> Vec<f32> {
        let mut row: Vec<f32> = (0..vocab).map(|_| (self.unit() - 0.5) * spread).collect();
        for _ in 0..4 {
            let at = (self.next() % vocab as u64) as usize;
            row[at] += 3.0 + 4.0 * self.unit();
        }
        row
    }
}

fn one_row(plan: RowPlan) -> SamplingBatch {
    SamplingBatch {
        plans: vec![plan],
        ..Default::default()
    }
}

fn sampled(plan: RowPlan) -> RowPlan {
    RowPlan { greedy: 0, ..plan }
}

/// Survivors of the cuts in best-first order with their weights, by sorting everything.
fn reference_survivors(logits: &[f32], plan: &RowPlan) -> Vec<(usize, f64)> {
    let y: Vec<f32> = logits.iter().map(|&x| sanitize(x * plan.scale)).collect();
    let max = y.iter().copied().fold(f32::MIN, f32::max);
    let mut order: Vec<usize> = (0..y.len()).collect();
    order.sort_by(|&a, &b| y[b].total_cmp(&y[a]).then(a.cmp(&b)));
    let w = |i: usize| f64::from(exp_approx(y[i] - max));
    let k = plan.top_k as usize;
    if k > 0 && k < order.len() {
        order.truncate(k);
    }
    if plan.top_p < 1.0 {
        let target = f64::from(plan.top_p) * order.iter().map(|&i| w(i)).sum::<f64>();
        let mut acc = 0.0;
        let len = order
            .iter()
            .position(|&i| {
                acc += w(i);
                acc >= target
            })
            .map_or(order.len(), |p| p + 1);
        order.truncate(len);
    }
    order
        .into_iter()
        .map(|i| (i, w(i)))
        .filter(|&(_, wi)| plan.min_p <= 0.0 || wi >= f64::from(plan.min_p))
        .collect()
}

#[test]
fn draws_land_on_the_reference_inverse_cdf_of_the_survivors() {
    let mut rng = Rng(0x5eed);
    let cuts: [(u32, f32, f32); 8] = [
        (0, 1.0, 0.0),
        (1, 1.0, 0.0),
        (5, 1.0, 0.0),
        (40, 1.0, 0.0),
        (0, 0.9, 0.0),
        (0, 0.5, 0.0),
        (20, 0.8, 0.0),
        (0, 0.95, 0.05),
    ];
    for (case, &(top_k, top_p, min_p)) in cuts.iter().enumerate() {
        for vocab in [7usize, 256, 257, 1000, 3001] {
            for temperature in [0.7f32, 1.0, 1.6] {
                let logits = rng.logits(vocab, 6.0);
                let plan = RowPlan {
                    scale: 1.0 / temperature,
                    top_k,
                    top_p,
                    min_p,
                    ..sampled(RowPlan::default())
                };
                let survivors = reference_survivors(&logits, &plan);
                let mut by_id = survivors.clone();
                by_id.sort_unstable_by_key(|&(i, _)| i);
                let total: f64 = by_id.iter().map(|&(_, w)| w).sum();
                let mut before = 0.0;
                // Every survivor at the middle of its interval, and both ends.
                let mut probes: Vec<(f64, usize)> = Vec::new();
                for &(i, w) in &by_id {
                    if w / total > 1e-9 {
                        probes.push(((before + w / 2.0) / total, i));
                    }
                    before += w;
                }
                if probes.len() > 12 {
                    let step = probes.len() / 12;
                    probes = probes.into_iter().step_by(step).collect();
                }
                for (u, want) in probes {
                    let mut row = logits.clone();
                    let batch = one_row(RowPlan { uniform: u, ..plan });
                    let got = sample_rows(&mut row, vocab, &batch).unwrap()[0].token as usize;
                    assert_eq!(
                        got,
                        want,
                        "case {case}, vocab {vocab}, t {temperature}, u {u}: {} survivors",
                        by_id.len()
                    );
                }
            }
        }
    }
}

/// `ln softmax(y * lscale)` of one id, in f64.
fn reference_logprob(y: &[f32], lscale: f32, id: usize) -> f64 {
    let s: Vec<f64> = y
        .iter()
        .map(|&v| f64::from(v) * f64::from(lscale))
        .collect();
    let max = s.iter().copied().fold(f64::MIN, f64::max);
    let z: f64 = s.iter().map(|v| (v - max).exp()).sum();
    s[id] - max - z.ln()
}

#[test]
fn greedy_rows_take_the_best_token_and_report_the_log_softmax() {
    let mut rng = Rng(7);
    for vocab in [1usize, 2, 255, 256, 1000, 49_152] {
        let mut logits = rng.logits(vocab, 8.0);
        if vocab > 2 {
            // A tie for the best: the lower id wins.
            let best = logits.iter().copied().fold(f32::MIN, f32::max);
            logits[vocab - 1] = best;
        }
        let plan = RowPlan {
            logprob_scale: 1.0 / 0.8,
            n_top: 5,
            want_logprob: 1,
            ..RowPlan::default()
        };
        let mut row = logits.clone();
        let out = &sample_rows(&mut row, vocab, &one_row(plan)).unwrap()[0];
        let mut order: Vec<usize> = (0..vocab).collect();
        order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
        assert_eq!(out.token as usize, order[0], "vocab {vocab}");
        let top: Vec<u32> = out.top.iter().map(|&(i, _)| i).collect();
        let want: Vec<u32> = order.iter().take(5).map(|&i| i as u32).collect();
        assert_eq!(top, want);
        for &(id, lp) in &out.top {
            let want = reference_logprob(&logits, plan.logprob_scale, id as usize);
            assert!((f64::from(lp) - want).abs() < 1e-5, "{lp} vs {want}");
        }
        assert_eq!(out.logprob, out.top[0].1);
        // Not asked: NaN, and the same token.
        let mut row = logits.clone();
        let bare = &sample_rows(&mut row, vocab, &one_row(RowPlan::default())).unwrap()[0];
        assert_eq!(bare.token, out.token);
        assert!(bare.logprob.is_nan() && bare.top.is_empty());
    }
}

#[test]
fn sampled_rows_report_the_log_softmax_of_the_scaled_logits() {
    let mut rng = Rng(11);
    let vocab = 2_000;
    let logits = rng.logits(vocab, 5.0);
    for u in [0.0, 0.3, 0.999] {
        let plan = RowPlan {
            uniform: u,
            scale: 1.0 / 1.3,
            top_k: 50,
            n_top: 3,
            ..sampled(RowPlan::default())
        };
        let mut row = logits.clone();
        let out = &sample_rows(&mut row, vocab, &one_row(plan)).unwrap()[0];
        let scaled: Vec<f32> = logits.iter().map(|&x| x * plan.scale).collect();
        let want = reference_logprob(&scaled, 1.0, out.token as usize);
        assert!((f64::from(out.logprob) - want).abs() < 1e-5);
        assert_eq!(out.top.len(), 3);
    }
}

#[test]
fn masks_and_edits_change_the_logits_as_the_host_sampler_does() {
    let vocab = 70;
    let logits: Vec<f32> = (0..vocab).map(|i| (i % 10) as f32 - 4.0).collect();
    let greedy = |edits: Vec<LogitEdit>, masks: Vec<u32>, mask_row: i32| {
        let mut row = logits.clone();
        let plan = RowPlan {
            edit_lo: 0,
            edit_hi: edits.len() as u32,
            mask_row,
            ..RowPlan::default()
        };
        let batch = SamplingBatch {
            plans: vec![plan],
            edits,
            masks,
        };
        sample_rows(&mut row, vocab, &batch).unwrap()[0].token
    };
    // Best is 5.0 at ids 9, 19, ...: the lowest wins.
    assert_eq!(greedy(vec![], vec![], -1), 9);
    let ban = |id| LogitEdit {
        id,
        flags: edit_flags::BAN,
        ..Default::default()
    };
    assert_eq!(greedy(vec![ban(9)], vec![], -1), 19);
    // Repetition penalty 2 halves 9's 5.0; bias lifts 8's 4.0 past the rest.
    let rep = LogitEdit {
        id: 9,
        flags: edit_flags::REPETITION,
        rep: 2.0,
        ..Default::default()
    };
    let bias = LogitEdit {
        id: 8,
        flags: edit_flags::BIAS,
        bias: 1.5,
        ..Default::default()
    };
    assert_eq!(greedy(vec![rep, bias], vec![], -1), 8);
    assert_eq!(apply_edit(5.0, &rep), 2.5);
    assert_eq!(apply_edit(-3.0, &rep), -6.0);
    let all = LogitEdit {
        id: 0,
        flags: edit_flags::REPETITION | edit_flags::SUBTRACT | edit_flags::BIAS,
        rep: 2.0,
        sub: 0.75,
        bias: 0.5,
    };
    assert_eq!(apply_edit(3.0, &all), 3.0 / 2.0 - 0.75 + 0.5);
    // A mask allowing only ids 33 and 66 (of three words): 66 (5 - 4 + 6 = 2.0) beats 33.
    let words = mask_words(vocab);
    let mut mask = vec![0u32; 2 * words];
    mask[words + 1] |= 1 << 1;
    mask[words + 2] |= 1 << 2;
    assert_eq!(greedy(vec![], mask.clone(), 1), 66);
    assert_eq!(greedy(vec![ban(66)], mask, 1), 33);
}

#[test]
fn a_row_samples_the_same_alone_and_in_any_batch() {
    let mut rng = Rng(3);
    let vocab = 1_500;
    let plans: Vec<RowPlan> = (0..6)
        .map(|r| RowPlan {
            uniform: f64::from(rng.unit()),
            scale: 1.0 / (0.5 + r as f32 * 0.3),
            top_k: [0, 10, 0, 100, 1, 0][r],
            top_p: [1.0, 0.9, 0.7, 1.0, 1.0, 0.95][r],
            min_p: [0.0, 0.0, 0.0, 0.1, 0.0, 0.02][r],
            greedy: u32::from(r == 4),
            n_top: r as u32,
            want_logprob: 1,
            ..RowPlan::default()
        })
        .collect();
    let rows: Vec<Vec<f32>> = (0..6).map(|_| rng.logits(vocab, 7.0)).collect();
    let mut all: Vec<f32> = rows.concat();
    let batch = SamplingBatch {
        plans: plans.clone(),
        ..Default::default()
    };
    let together = sample_rows(&mut all, vocab, &batch).unwrap();
    for (r, plan) in plans.iter().enumerate().rev() {
        let mut row = rows[r].clone();
        let alone = &sample_rows(&mut row, vocab, &one_row(*plan)).unwrap()[0];
        assert_eq!(alone.token, together[r].token);
        assert_eq!(alone.logprob.to_bits(), together[r].logprob.to_bits());
        assert_eq!(alone.top, together[r].top);
    }
}

#[test]
fn impossible_plans_are_refused_with_the_reason() {
    let vocab = 100;
    let edit = |id| LogitEdit {
        id,
        flags: edit_flags::BAN,
        ..Default::default()
    };
    let base = SamplingBatch {
        plans: vec![RowPlan::default()],
        edits: vec![edit(1), edit(2)],
        masks: vec![0; mask_words(vocab)],
    };
    type Break = fn(&mut SamplingBatch);
    let broken: [(&str, Break); 7] = [
        ("plans", |b| b.plans.push(RowPlan::default())),
        ("edits 0..3", |b| b.plans[0].edit_hi = 3),
        ("outside", |b| {
            b.edits[0].id = 100;
            b.plans[0].edit_hi = 1;
        }),
        ("two edits", |b| {
            b.edits[1].id = 1;
            b.plans[0].edit_hi = 2;
        }),
        ("mask 1 of 1", |b| b.plans[0].mask_row = 1),
        ("21 top", |b| b.plans[0].n_top = 21),
        ("out of range", |b| b.plans[0].uniform = 1.0),
    ];
    for (what, breaks) in broken {
        let mut batch = base.clone();
        breaks(&mut batch);
        let err = sample_rows(&mut vec![0.0; vocab], vocab, &batch)
            .unwrap_err()
            .to_string();
        assert!(err.contains(what), "{what}: {err}");
    }
    let err = sample_rows(&mut vec![0.0; 150], vocab, &base).unwrap_err();
    assert!(err.to_string().contains("not rows of 100"), "{err}");
    assert!(sample_rows(&mut vec![0.0; vocab], vocab, &base).is_ok());
}

#[test]
fn hostile_logits_still_give_a_token() {
    let vocab = 300;
    let mut logits = vec![f32::NAN; vocab];
    logits[17] = f32::INFINITY;
    logits[18] = f32::NEG_INFINITY;
    for greedy in [1, 0] {
        let plan = RowPlan {
            uniform: 0.5,
            greedy,
            top_p: 0.9,
            want_logprob: 1,
            ..RowPlan::default()
        };
        let mut row = logits.clone();
        let out = &sample_rows(&mut row, vocab, &one_row(plan)).unwrap()[0];
        assert_eq!(out.token, 17);
        assert!(out.logprob.is_finite() && out.logprob <= 0.0);
    }
}
