//! Mixture-of-experts MLPs (Qwen3-MoE, Mixtral, gpt-oss): a router scores every expert for
//! each token, the `top_k` best run (softmax over all experts, the chosen weights
//! renormalized to sum to one, as llama.cpp's `build_moe_ffn` with `norm_w`, which is the
//! softmax over the chosen logits that gpt-oss's gating takes), and their gated outputs are
//! summed with those weights. gpt-oss adds biases to the router and to every expert's three
//! projections, and gates with [`clamped_swiglu`]. Each token's experts are added in rank
//! order, and every expert's rows are computed by the same matmuls whatever other tokens
//! share the step, so a token's output does not depend on its batch.

use super::hparams::Hparams;
use super::weights::vector;
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::{GgufFile, TensorView};
use kernels::activation::{clamped_swiglu, silu_mul};
use kernels::matmul::QMatrix;

/// The most experts a layer may have (llama.cpp's `LLAMA_MAX_EXPERTS`): a hostile count is
/// refused before anything is sized by it.
pub const MAX_EXPERTS: usize = 512;

/// Checks `{arch}.expert_count` and `{arch}.expert_used_count` before any tensor is read:
/// at least one expert, at most [`MAX_EXPERTS`], and no more used per token than there are.
pub fn check_expert_counts(hp: &Hparams, experts: usize, top_k: usize) -> Result<(), ModelError> {
    let count_key = hp.key("expert_count");
    if experts == 0 || experts > MAX_EXPERTS {
        return Err(invalid(
            &count_key,
            format!("{experts} experts; a layer may have 1 to {MAX_EXPERTS}"),
        )
        .into());
    }
    if top_k == 0 || top_k > experts {
        return Err(invalid(
            &hp.key("expert_used_count"),
            format!("{top_k} of {experts} experts used per token"),
        )
        .into());
    }
    Ok(())
}

/// The experts of a family whose every layer has them: `{arch}.expert_count` and
/// `{arch}.expert_used_count`, both required and checked.
pub fn expert_counts(keys: &Keys<'_>, hp: &Hparams) -> Result<(usize, usize), ModelError> {
    let experts = keys.required_usize(&hp.key("expert_count"))?;
    let top_k = keys.required_usize(&hp.key("expert_used_count"))?;
    check_expert_counts(hp, experts, top_k)?;
    Ok((experts, top_k))
}

/// The experts a file declares (`{arch}.expert_count`, if more than 0), each as wide as the
/// dense MLP (`feed_forward_length`), with SwiGLU and no biases: Mixtral's, Granite MoE's.
pub fn mlp_wide_experts(file: &GgufFile, hp: &Hparams) -> Result<Option<MoePlan>, ModelError> {
    let keys = Keys::new(file.metadata());
    match keys.optional_usize(&hp.key("expert_count"))? {
        Some(experts) if experts > 0 => {
            let top_k = keys.required_usize(&hp.key("expert_used_count"))?;
            check_expert_counts(hp, experts, top_k)?;
            Ok(Some(MoePlan {
                experts,
                top_k,
                ffn: hp.feed_forward_length,
                biases: false,
                gate: ExpertGate::Silu,
            }))
        }
        _ => Ok(None),
    }
}

/// How many experts a layer has, how many each token uses and their MLP width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoePlan {
    pub experts: usize,
    pub top_k: usize,
    pub ffn: usize,
    /// The router and the experts' projections have biases (`*.bias`: gpt-oss).
    pub biases: bool,
    /// The experts' gate.
    pub gate: ExpertGate,
}

/// How an expert gates its up projection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExpertGate {
    /// `silu(gate) * up`.
    #[default]
    Silu,
    /// gpt-oss's clamped SwiGLU ([`clamped_swiglu`]).
    Clamped,
}

pub struct Expert {
    /// `[gate (ffn) | up (ffn)]` rows over `hidden`.
    pub gate_up: QMatrix,
    /// `[hidden]` rows over `ffn`.
    pub down: QMatrix,
    /// `[gate (ffn) | up (ffn)]` and `[hidden]`, where the plan has biases.
    pub biases: Option<(Vec<f32>, Vec<f32>)>,
}

pub struct MoeWeights {
    pub plan: MoePlan,
    /// One row per expert over `hidden` (`ffn_gate_inp`).
    pub router: QMatrix,
    /// One per expert, where the plan has biases.
    pub router_bias: Option<Vec<f32>>,
    pub experts: Vec<Expert>,
}

/// Scratch of the MoE pass, reused across steps.
#[derive(Default)]
pub struct MoeScratch {
    logits: Vec<f32>,
    rows: Vec<f32>,
    gate_up: Vec<f32>,
    act: Vec<f32>,
    out: Vec<f32>,
    /// `[tokens, top_k, hidden]`: each token's expert outputs, by rank.
    picked: Vec<f32>,
}

impl MoeWeights {
    /// Layer `i`'s router and experts (`ffn_{gate,up,down}_exps`: one 3-D tensor each, the
    /// expert index slowest).
    pub fn load(
        file: &GgufFile,
        i: usize,
        hidden: usize,
        plan: MoePlan,
    ) -> Result<Self, ModelError> {
        if plan.experts == 0 || plan.top_k == 0 || plan.top_k > plan.experts || plan.ffn == 0 {
            return Err(ModelError::Shape(format!(
                "layer {i}: {} of {} experts of width {}",
                plan.top_k, plan.experts, plan.ffn
            )));
        }
        let name = |s: &str| format!("blk.{i}.{s}.weight");
        let tensor = |name: &str| {
            file.tensor(name)
                .ok_or_else(|| ModelError::MissingTensor(name.to_string()))
        };
        let router = tensor(&name("ffn_gate_inp"))?;
        let router = QMatrix::new(
            router.ggml_type(),
            plan.experts,
            hidden,
            checked(&router, &[hidden, plan.experts])?,
        )?;
        let gate = tensor(&name("ffn_gate_exps"))?;
        let up = tensor(&name("ffn_up_exps"))?;
        let down = tensor(&name("ffn_down_exps"))?;
        let (gate_bytes, up_bytes, down_bytes) = (
            checked(&gate, &[hidden, plan.ffn, plan.experts])?,
            checked(&up, &[hidden, plan.ffn, plan.experts])?,
            checked(&down, &[plan.ffn, hidden, plan.experts])?,
        );
        if gate.ggml_type() != up.ggml_type() {
            return Err(ModelError::Unsupported(format!(
                "layer {i}: expert gate and up of different types"
            )));
        }
        let slice = |bytes: &'_ [u8], e: usize| {
            let per = bytes.len() / plan.experts;
            bytes[e * per..(e + 1) * per].to_vec()
        };
        let bias = |s: &str, len: usize| vector(file, &format!("blk.{i}.{s}.bias"), len);
        let (router_bias, expert_biases) = if plan.biases {
            let per = |s: &str, width: usize| -> Result<Vec<Vec<f32>>, ModelError> {
                let all = bias(s, width * plan.experts)?;
                Ok(all.chunks_exact(width).map(<[f32]>::to_vec).collect())
            };
            let (gate_b, up_b) = (
                per("ffn_gate_exps", plan.ffn)?,
                per("ffn_up_exps", plan.ffn)?,
            );
            let down_b = per("ffn_down_exps", hidden)?;
            let biases = gate_b
                .into_iter()
                .zip(up_b)
                .zip(down_b)
                .map(|((mut gate_up, up), down)| {
                    gate_up.extend(up);
                    Some((gate_up, down))
                })
                .collect();
            (Some(bias("ffn_gate_inp", plan.experts)?), biases)
        } else {
            (None, vec![None; plan.experts])
        };
        let experts = (0..plan.experts)
            .zip(expert_biases)
            .map(|(e, biases)| {
                let mut gate_up = slice(gate_bytes, e);
                gate_up.extend(slice(up_bytes, e));
                Ok(Expert {
                    gate_up: QMatrix::new(gate.ggml_type(), 2 * plan.ffn, hidden, &gate_up)?,
                    down: QMatrix::new(down.ggml_type(), hidden, plan.ffn, &slice(down_bytes, e))?,
                    biases,
                })
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        Ok(Self {
            plan,
            router,
            router_bias,
            experts,
        })
    }

    /// `out[t] = sum over the token's experts of weight * down(silu(gate x) * up x)` for the
    /// `t` rows of `x` (`[t, hidden]`).
    pub fn forward(
        &self,
        x: &[f32],
        t: usize,
        hidden: usize,
        s: &mut MoeScratch,
        out: &mut [f32],
    ) -> Result<(), ModelError> {
        let MoePlan {
            experts,
            top_k,
            ffn,
            gate,
            ..
        } = self.plan;
        s.logits.resize(t * experts, 0.0);
        self.router.matmul(x, t, &mut s.logits)?;
        if let Some(bias) = &self.router_bias {
            s.logits
                .chunks_exact_mut(experts)
                .for_each(|row| add_row(row, bias));
        }
        let picks: Vec<Vec<(usize, f32)>> = s
            .logits
            .chunks_exact(experts)
            .map(|row| route(row, top_k))
            .collect();
        s.picked.resize(t * top_k * hidden, 0.0);
        for (e, expert) in self.experts.iter().enumerate() {
            // The tokens that chose expert `e`, with the rank it has among their choices.
            let users: Vec<(usize, usize)> = picks
                .iter()
                .enumerate()
                .filter_map(|(tok, p)| p.iter().position(|&(pe, _)| pe == e).map(|r| (tok, r)))
                .collect();
            if users.is_empty() {
                continue;
            }
            let m = users.len();
            s.rows.clear();
            for &(tok, _) in &users {
                s.rows.extend_from_slice(&x[tok * hidden..][..hidden]);
            }
            s.gate_up.resize(m * 2 * ffn, 0.0);
            expert.gate_up.matmul(&s.rows, m, &mut s.gate_up)?;
            if let Some((gate_up, _)) = &expert.biases {
                s.gate_up
                    .chunks_exact_mut(2 * ffn)
                    .for_each(|row| add_row(row, gate_up));
            }
            s.act.resize(m * ffn, 0.0);
            match gate {
                ExpertGate::Silu => silu_mul(&s.gate_up, ffn, &mut s.act)?,
                ExpertGate::Clamped => clamped_swiglu(&s.gate_up, ffn, &mut s.act)?,
            }
            s.out.resize(m * hidden, 0.0);
            expert.down.matmul(&s.act, m, &mut s.out)?;
            if let Some((_, down)) = &expert.biases {
                s.out
                    .chunks_exact_mut(hidden)
                    .for_each(|row| add_row(row, down));
            }
            for (&(tok, rank), row) in users.iter().zip(s.out.chunks_exact(hidden)) {
                s.picked[(tok * top_k + rank) * hidden..][..hidden].copy_from_slice(row);
            }
        }
        for ((dst, p), tok) in out.chunks_exact_mut(hidden).zip(&picks).zip(0..) {
            dst.fill(0.0);
            for (rank, &(_, weight)) in p.iter().enumerate() {
                let row = &s.picked[(tok * top_k + rank) * hidden..][..hidden];
                dst.iter_mut().zip(row).for_each(|(d, v)| *d += weight * v);
            }
        }
        Ok(())
    }
}

/// `row += bias`, element by element (the lengths are the loader's).
fn add_row(row: &mut [f32], bias: &[f32]) {
    row.iter_mut().zip(bias).for_each(|(r, b)| *r += b);
}

/// The `top_k` experts of one router row, best first (the lower index on a tie), with their
/// softmax probabilities renormalized over the chosen ones.
fn route(logits: &[f32], top_k: usize) -> Vec<(usize, f32)> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let probs: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let total: f32 = probs.iter().sum();
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    order.truncate(top_k);
    let chosen: f32 = order.iter().map(|&e| probs[e] / total).sum();
    order
        .into_iter()
        .map(|e| (e, probs[e] / total / chosen))
        .collect()
}

/// The tensor's bytes, after checking its GGUF dims are `dims`.
fn checked<'a>(v: &TensorView<'a>, dims: &[usize]) -> Result<&'a [u8], ModelError> {
    let want: Vec<u64> = dims.iter().map(|&d| d as u64).collect();
    if v.dims() != want.as_slice() {
        return Err(ModelError::Shape(format!(
            "{}: dims {:?}, expected {want:?}",
            v.name(),
            v.dims()
        )));
    }
    Ok(v.data())
}

#[cfg(test)]
mod tests {
    use super::route;

    #[test]
    fn routing_picks_the_best_experts_and_renormalizes_their_weights() {
        let picks = route(&[0.0, 2.0, 1.0, 2.0], 2);
        // Experts 1 and 3 tie: the lower index first; equal weights that sum to one.
        assert_eq!(picks.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 3]);
        assert!((picks[0].1 - 0.5).abs() < 1e-6 && (picks[1].1 - 0.5).abs() < 1e-6);
        let picks = route(&[3.0, 0.0, 1.0], 2);
        let (a, b) = (1.0f32.exp(), 3.0f32.exp());
        assert_eq!(picks[0].0, 0);
        assert!((picks[0].1 - b / (a + b)).abs() < 1e-6);
        assert!((picks[1].1 - a / (a + b)).abs() < 1e-6);
    }
}
