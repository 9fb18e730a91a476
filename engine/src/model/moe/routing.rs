//! How a router's scores become a token's experts and their weights, as llama.cpp's
//! `build_moe_ffn` computes them: probabilities by softmax (Mixtral, Qwen3-MoE, DeepSeek V2)
//! or by sigmoid (DeepSeek V3, Kimi K2); a selection bias that changes which experts win but
//! not their weights (`exp_probs_b`); experts in groups of which only the best compete
//! (DeepSeek V3); then the chosen weights, renormalized to sum to one where the file says so,
//! times a scale.

use super::super::ModelError;

/// What turns router logits into probabilities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Gating {
    /// Softmax over all experts.
    #[default]
    Softmax,
    /// Each expert's logistic, alone.
    Sigmoid,
}

impl Gating {
    /// llama.cpp's `expert_gating_func` numbers: 1 softmax, 2 sigmoid.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            1 => Some(Gating::Softmax),
            2 => Some(Gating::Sigmoid),
            _ => None,
        }
    }
}

/// A layer's routing rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Routing {
    pub gating: Gating,
    /// The chosen weights are divided by their sum (`expert_weights_norm`).
    pub normalize: bool,
    /// What the chosen weights are multiplied by (`expert_weights_scale`).
    pub scale: f32,
    /// `(groups, used)`: the experts form `groups` equal groups, a group scores the sum of
    /// its two best (biased) probabilities, and only the experts of the `used` best groups
    /// can be chosen (`expert_group_count`, `expert_group_used_count`).
    pub groups: Option<(usize, usize)>,
    /// The experts are chosen by their raw logits (no bias, no groups), their weights still
    /// the gating's (Llama 4: in f32 a sigmoid ties logits its rounding cannot tell apart).
    pub choose_by_logits: bool,
}

impl Default for Routing {
    /// Softmax, renormalized over the chosen experts: every family before DeepSeek's.
    fn default() -> Self {
        Self {
            gating: Gating::Softmax,
            normalize: true,
            scale: 1.0,
            groups: None,
            choose_by_logits: false,
        }
    }
}

/// The smallest sum the chosen weights are divided by (llama.cpp clamps to f16's smallest
/// normal number, so weights that are all near zero do not blow up).
const MIN_WEIGHT_SUM: f32 = 6.103_515_6e-5;

impl Routing {
    /// Refuses a rule no layer of `experts` experts, `top_k` used, can follow: groups that
    /// do not divide the experts, none or all of them used, or fewer experts in the used
    /// groups than a token needs; a scale that is not finite.
    pub fn validate(&self, experts: usize, top_k: usize) -> Result<(), ModelError> {
        if !self.scale.is_finite() {
            return Err(ModelError::Shape(format!(
                "expert weights scaled by {}",
                self.scale
            )));
        }
        if let Some((groups, used)) = self.groups {
            let fits = groups > 1
                && experts.is_multiple_of(groups)
                && used > 0
                && used <= groups
                && top_k <= used * (experts / groups);
            if !fits {
                return Err(ModelError::Shape(format!(
                    "{experts} experts in {groups} groups of which {used} are used, {top_k} \
                     experts per token"
                )));
            }
        }
        Ok(())
    }

    /// The `top_k` experts of one router row, best first (the lower index on a tie), with
    /// their weights. `bias`, one per expert, changes the choice only.
    pub fn route(&self, logits: &[f32], top_k: usize, bias: Option<&[f32]>) -> Vec<(usize, f32)> {
        let probs: Vec<f32> = match self.gating {
            Gating::Softmax => {
                let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let exps: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
                let total: f32 = exps.iter().sum();
                exps.iter().map(|e| e / total).collect()
            }
            Gating::Sigmoid => logits.iter().map(|l| 1.0 / (1.0 + (-l).exp())).collect(),
        };
        let select = match self.choose_by_logits {
            true => logits.to_vec(),
            false => {
                let mut select = probs.clone();
                if let Some(bias) = bias {
                    select.iter_mut().zip(bias).for_each(|(s, b)| *s += b);
                }
                if let Some((groups, used)) = self.groups {
                    mask_groups(&mut select, groups, used);
                }
                select
            }
        };
        let mut order: Vec<usize> = (0..logits.len()).collect();
        order.sort_by(|&a, &b| select[b].total_cmp(&select[a]).then(a.cmp(&b)));
        order.truncate(top_k);
        let mut picks: Vec<(usize, f32)> = order.into_iter().map(|e| (e, probs[e])).collect();
        if self.normalize {
            let sum: f32 = picks.iter().map(|p| p.1).sum();
            let sum = sum.max(MIN_WEIGHT_SUM);
            picks.iter_mut().for_each(|p| p.1 /= sum);
        }
        if self.scale != 1.0 && self.scale != 0.0 {
            picks.iter_mut().for_each(|p| p.1 *= self.scale);
        }
        picks
    }
}

/// Leaves only the experts of the `used` best groups selectable (the others' scores become
/// minus infinity); a group scores the sum of its two best.
fn mask_groups(select: &mut [f32], groups: usize, used: usize) {
    let per = select.len() / groups;
    let score = |g: usize| {
        let mut best = select[g * per..(g + 1) * per].to_vec();
        best.sort_by(|a, b| b.total_cmp(a));
        best.iter().take(2).sum::<f32>()
    };
    let scores: Vec<f32> = (0..groups).map(score).collect();
    let mut order: Vec<usize> = (0..groups).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    for &g in &order[used..] {
        select[g * per..(g + 1) * per].fill(f32::NEG_INFINITY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_routing_picks_the_best_experts_and_renormalizes_their_weights() {
        let routing = Routing::default();
        let picks = routing.route(&[0.0, 2.0, 1.0, 2.0], 2, None);
        // Experts 1 and 3 tie: the lower index first; equal weights that sum to one.
        assert_eq!(picks.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 3]);
        assert!((picks[0].1 - 0.5).abs() < 1e-6 && (picks[1].1 - 0.5).abs() < 1e-6);
        let picks = routing.route(&[3.0, 0.0, 1.0], 2, None);
        let (a, b) = (1.0f32.exp(), 3.0f32.exp());
        assert_eq!(picks[0].0, 0);
        assert!((picks[0].1 - b / (a + b)).abs() < 1e-6);
        assert!((picks[1].1 - a / (a + b)).abs() < 1e-6);
    }

    #[test]
    fn unnormalized_softmax_weights_are_the_probabilities_over_all_experts_times_the_scale() {
        let routing = Routing {
            normalize: false,
            scale: 16.0,
            ..Routing::default()
        };
        let logits = [1.0f32, 0.0, 2.0, -1.0];
        let total: f32 = logits.iter().map(|l| l.exp()).sum();
        let picks = routing.route(&logits, 2, None);
        assert_eq!(picks[0].0, 2);
        assert_eq!(picks[1].0, 0);
        assert!((picks[0].1 - 16.0 * 2.0f32.exp() / total).abs() < 1e-5);
        assert!((picks[1].1 - 16.0 * 1.0f32.exp() / total).abs() < 1e-5);
    }

    #[test]
    fn a_selection_bias_changes_the_choice_but_not_the_weights() {
        let routing = Routing {
            gating: Gating::Sigmoid,
            normalize: false,
            ..Routing::default()
        };
        let sigmoid = |x: f32| 1.0 / (1.0 + (-x).exp());
        let logits = [2.0f32, 1.0, 0.0];
        let picks = routing.route(&logits, 1, None);
        assert_eq!(picks, [(0, sigmoid(2.0))]);
        // Expert 2's bias lifts it above the others: it is chosen with its own weight.
        let picks = routing.route(&logits, 1, Some(&[0.0, 0.0, 0.9]));
        assert_eq!(picks, [(2, sigmoid(0.0))]);
    }

    #[test]
    fn logits_the_sigmoid_rounds_together_are_still_told_apart() {
        let routing = Routing {
            gating: Gating::Sigmoid,
            normalize: false,
            choose_by_logits: true,
            ..Routing::default()
        };
        // Both sigmoids round to 1.0 in f32: by them expert 0 would win the tie.
        let picks = routing.route(&[20.0, 21.0, -3.0], 1, None);
        assert_eq!(picks, [(1, 1.0)]);
        let by_probs = Routing {
            choose_by_logits: false,
            ..routing
        };
        assert_eq!(by_probs.route(&[20.0, 21.0, -3.0], 1, None), [(0, 1.0)]);
    }

    #[test]
    fn only_the_experts_of_the_best_groups_compete() {
        // Groups {0,1}, {2,3}, {4,5}: sums of their two best 0.9+0.1, 0.5+0.5, 0.8+0.0.
        let probs = [0.9f32, 0.1, 0.5, 0.5, 0.8, 0.0];
        let logits: Vec<f32> = probs.iter().map(|p| (p / (1.0 - p)).ln()).collect();
        let grouped = Routing {
            gating: Gating::Sigmoid,
            normalize: true,
            scale: 2.5,
            groups: Some((3, 2)),
            choose_by_logits: false,
        };
        let picks = grouped.route(&logits, 2, None);
        // Group {4,5} (sum 0.8) is out, so expert 4 cannot win over expert 2.
        assert_eq!(picks.iter().map(|p| p.0).collect::<Vec<_>>(), [0, 2]);
        let sum = 0.9 + 0.5;
        assert!((picks[0].1 - 2.5 * 0.9 / sum).abs() < 1e-5);
        assert!((picks[1].1 - 2.5 * 0.5 / sum).abs() < 1e-5);
        let ungrouped = Routing {
            groups: None,
            ..grouped
        };
        let picks = ungrouped.route(&logits, 2, None);
        assert_eq!(picks.iter().map(|p| p.0).collect::<Vec<_>>(), [0, 4]);
    }

    #[test]
    fn impossible_groupings_are_refused() {
        let grouped = |groups, used| Routing {
            groups: Some((groups, used)),
            ..Routing::default()
        };
        grouped(4, 2).validate(8, 4).unwrap();
        // All groups used: a mask that keeps everything (llama.cpp runs it so).
        grouped(4, 4).validate(8, 4).unwrap();
        for (routing, top_k) in [
            (grouped(3, 1), 2), // 8 experts do not split in 3
            (grouped(4, 0), 2),
            (grouped(4, 5), 2),
            (grouped(4, 1), 3), // one group of 2 cannot give 3
            (grouped(1, 1), 2),
        ] {
            assert!(routing.validate(8, top_k).is_err(), "{routing:?}");
        }
        let nan = Routing {
            scale: f32::NAN,
            ..Routing::default()
        };
        assert!(nan.validate(8, 2).is_err());
    }
}
