//! The sampler's next step as a plan for `kernels::sampling` (the kernel that samples where
//! the logits are, or its CPU twin): the same penalties, temperature and cuts, and the
//! same random draw, so the distribution a request samples from does not depend on where.

use super::{Sampler, GREEDY_TEMPERATURE};
use kernels::sampling::{edit_flags, LogitEdit, RowPlan};

impl Sampler {
    /// Whether the penalties read the output so far (repetition, frequency or presence):
    /// such a request's next plan needs its last token.
    pub fn depends_on_history(&self) -> bool {
        self.repetition_penalty != 1.0
            || self.frequency_penalty != 0.0
            || self.presence_penalty != 0.0
    }

    /// Appends this step's edits (penalties over the history, logit bias, held stop tokens;
    /// one per token, tokens outside `vocab` ignored as on the host) to `edits` and returns
    /// the row's plan, with `mask_row` naming its grammar mask. `ahead` tokens sampled
    /// before this one are not recorded yet (overlap scheduling): the plan is for the token
    /// after them, and `None` when that needs them ([`Sampler::depends_on_history`]).
    pub fn device_plan(
        &self,
        vocab: usize,
        mask_row: Option<usize>,
        ahead: u64,
        edits: &mut Vec<LogitEdit>,
    ) -> Option<RowPlan> {
        if ahead > 0 && self.depends_on_history() {
            return None;
        }
        // Every list is sorted by id and holds an id once: one merge pass gives one edit per
        // id, in order, with no map or sort per step (a long history is thousands of ids).
        let rep = self.repetition_penalty;
        let seen: &[u32] = if rep != 1.0 { &self.seen } else { &[] };
        let (freq, pres) = (self.frequency_penalty, self.presence_penalty);
        let counts: &[(u32, u32)] = if freq != 0.0 || pres != 0.0 {
            &self.counts
        } else {
            &[]
        };
        let bias: &[(u32, f32)] = &self.logit_bias;
        let produced = u64::from(self.produced) + ahead;
        let banned: &[u32] = if produced < u64::from(self.min_new_tokens) {
            &self.held_stops
        } else {
            &[]
        };
        let edit_lo = edits.len() as u32;
        let (mut s, mut c, mut b, mut h) = (0, 0, 0, 0);
        loop {
            let heads = [
                seen.get(s).copied(),
                counts.get(c).map(|&(t, _)| t),
                bias.get(b).map(|&(t, _)| t),
                banned.get(h).copied(),
            ];
            let Some(id) = heads.into_iter().flatten().min() else {
                break;
            };
            let mut e = LogitEdit {
                id,
                ..LogitEdit::default()
            };
            if seen.get(s) == Some(&id) {
                e.flags |= edit_flags::REPETITION;
                e.rep = rep;
                s += 1;
            }
            if let Some(&(_, n)) = counts.get(c).filter(|&&(t, _)| t == id) {
                e.flags |= edit_flags::SUBTRACT;
                e.sub = freq * n as f32 + pres;
                c += 1;
            }
            if let Some(&(_, v)) = bias.get(b).filter(|&&(t, _)| t == id) {
                e.flags |= edit_flags::BIAS;
                e.bias = v;
                b += 1;
            }
            if banned.get(h) == Some(&id) {
                e.flags |= edit_flags::BAN;
                h += 1;
            }
            if (id as usize) < vocab {
                edits.push(e);
            }
        }
        let mut plan = RowPlan {
            n_top: self.n_top as u32,
            want_logprob: u32::from(self.logprobs),
            edit_lo,
            edit_hi: edits.len() as u32,
            mask_row: mask_row.map_or(-1, |m| m as i32),
            ..RowPlan::default()
        };
        if self.greedy {
            // As the host: log-probabilities at the temperature when one was given.
            if self.temperature >= GREEDY_TEMPERATURE {
                plan.logprob_scale = 1.0 / self.temperature;
            }
        } else {
            plan.greedy = 0;
            plan.uniform = self.rng.uniform(self.steps + ahead);
            plan.scale = 1.0 / self.temperature;
            plan.top_k = self.top_k as u32;
            plan.top_p = self.top_p;
            plan.min_p = self.min_p;
        }
        Some(plan)
    }

    /// Records a token sampled elsewhere by [`Sampler::device_plan`]'s plan, as
    /// [`Sampler::sample`] records its own: penalties' history and the random stream move on.
    pub fn accept(&mut self, token: u32) {
        self.record(token);
    }
}

#[cfg(test)]
mod tests {
    use super::super::SamplingParams;
    use super::*;
    use kernels::sampling::{twin, SamplingBatch};

    /// xorshift64*: reproducible logits.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    const VOCAB: usize = 3_000;

    /// Logits favouring the tokens the history holds, so the penalties matter.
    fn logits(rng: &mut Rng, history: &[u32]) -> Vec<f32> {
        let mut row: Vec<f32> = (0..VOCAB).map(|_| (rng.unit() - 0.5) * 6.0).collect();
        for &t in history.iter().rev().take(6) {
            row[t as usize] += 4.0;
        }
        row
    }

    fn sample_twin(row: &[f32], plan: RowPlan, edits: Vec<LogitEdit>) -> (u32, f32, Vec<u32>) {
        let batch = SamplingBatch {
            plans: vec![plan],
            edits,
            masks: Vec::new(),
        };
        let out = twin::sample_rows(&mut row.to_vec(), VOCAB, &batch).unwrap();
        let top = out[0].top.iter().map(|&(i, _)| i).collect();
        (out[0].token, out[0].logprob, top)
    }

    /// Every mode over a dozen steps with evolving history: the plan's distribution is the
    /// host sampler's (each survivor drawn at the middle of its interval), and where the
    /// host walks in id order too (no top-k, no top-p), the same draw gives the same token.
    #[test]
    fn plans_sample_what_the_host_sampler_samples() {
        let base = SamplingParams {
            seed: Some(42),
            logprobs: Some(3),
            ..SamplingParams::default()
        };
        let modes = [
            SamplingParams {
                temperature: 0.0,
                ..base.clone()
            },
            SamplingParams {
                temperature: 0.8,
                top_k: 1,
                ..base.clone()
            },
            SamplingParams {
                temperature: 1.1,
                ..base.clone()
            },
            SamplingParams {
                temperature: 0.9,
                min_p: 0.05,
                ..base.clone()
            },
            SamplingParams {
                temperature: 0.7,
                top_k: 20,
                ..base.clone()
            },
            SamplingParams {
                temperature: 1.0,
                top_p: 0.8,
                ..base.clone()
            },
            SamplingParams {
                temperature: 1.3,
                top_k: 50,
                top_p: 0.9,
                min_p: 0.02,
                ..base.clone()
            },
            SamplingParams {
                temperature: 1.0,
                repetition_penalty: 1.3,
                frequency_penalty: 0.4,
                presence_penalty: 0.3,
                logit_bias: vec![(7, 2.5), (11, -100.0)],
                min_new_tokens: 6,
                ..base.clone()
            },
        ];
        let prompt: Vec<u32> = (0..40).map(|i| (i * 37) % VOCAB as u32).collect();
        let mut rng = Rng(9);
        for (m, params) in modes.iter().enumerate() {
            let mut host = Sampler::new(params, &prompt).hold_stops(vec![0, 1]);
            let mut device = Sampler::new(params, &prompt).hold_stops(vec![0, 1]);
            let dense = params.top_k == 0 && params.top_p >= 1.0;
            let mut history = prompt.clone();
            for step in 0..12 {
                let row = logits(&mut rng, &history);
                let mut edits = Vec::new();
                let plan = device.device_plan(VOCAB, None, 0, &mut edits).unwrap();
                let what = format!("mode {m}, step {step}");
                // The distribution: each survivor at the middle of its id-order interval.
                let mut dist = host.distribution(&mut row.clone());
                dist.sort_unstable_by_key(|&(i, _)| i);
                let total: f64 = dist.iter().map(|&(_, p)| f64::from(p)).sum();
                let mut before = 0.0f64;
                for (j, &(id, p)) in dist.iter().enumerate() {
                    let p = f64::from(p);
                    if j % (dist.len() / 8 + 1) == 0 && p / total > 1e-6 {
                        let probe = RowPlan {
                            uniform: (before + p / 2.0) / total,
                            ..plan
                        };
                        if plan.greedy == 0 {
                            let (token, ..) = sample_twin(&row, probe, edits.clone());
                            assert_eq!(token, id, "{what}: {} survivors", dist.len());
                        }
                    }
                    before += p;
                }
                let (token, logprob, top) = sample_twin(&row, plan, edits);
                let sampled = host.sample(&mut row.clone());
                assert!(dist.iter().any(|&(i, _)| i == token), "{what}: {token}");
                let want_top: Vec<u32> = sampled.top.iter().map(|&(i, _)| i).collect();
                assert_eq!(top, want_top, "{what}");
                if dense || plan.greedy != 0 {
                    assert_eq!(token, sampled.token, "{what}");
                    assert!((logprob - sampled.logprob).abs() < 1e-4, "{what}");
                }
                assert!(step >= 6 || (token > 1 && sampled.token > 1), "{what}");
                device.accept(sampled.token);
                history.push(sampled.token);
            }
        }
    }

    #[test]
    fn plans_ahead_of_unrecorded_tokens() {
        let params = SamplingParams {
            seed: Some(3),
            min_new_tokens: 2,
            logit_bias: vec![(5, 1.0), (5, 2.0)],
            ..SamplingParams::default()
        };
        let mut now = Sampler::new(&params, &[]).hold_stops(vec![9]);
        let mut edits = Vec::new();
        let first = now.device_plan(100, Some(3), 0, &mut edits).unwrap();
        // One edit for token 5 with the biases summed, one ban for the held stop.
        assert_eq!(edits.len(), 2);
        assert_eq!((edits[0].id, edits[0].bias), (5, 3.0));
        assert_eq!(first.mask_row, 3);
        // Planned one token ahead: the draw and the hold are those of the next step.
        let mut ahead_edits = Vec::new();
        let ahead = now.device_plan(100, None, 1, &mut ahead_edits).unwrap();
        now.accept(42);
        let mut next_edits = Vec::new();
        let next = now.device_plan(100, None, 0, &mut next_edits).unwrap();
        assert_eq!(
            ahead,
            RowPlan {
                edit_lo: 0,
                edit_hi: 2,
                ..next
            }
        );
        assert_eq!(ahead_edits, next_edits);
        now.accept(43);
        let past = now.device_plan(100, None, 0, &mut Vec::new()).unwrap();
        assert_eq!(
            past.edit_hi - past.edit_lo,
            1,
            "the hold ends after two tokens"
        );
        // Penalties need the unrecorded token: no plan ahead.
        let penalized = SamplingParams {
            presence_penalty: 0.5,
            ..params
        };
        let s = Sampler::new(&penalized, &[]);
        assert!(s.depends_on_history());
        assert!(s.device_plan(100, None, 1, &mut Vec::new()).is_none());
        assert!(s.device_plan(100, None, 0, &mut Vec::new()).is_some());
    }
}
