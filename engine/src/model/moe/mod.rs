//! Mixture-of-experts MLPs (Qwen3-MoE, Mixtral, gpt-oss, DeepSeek): a router scores every
//! expert for each token, the `top_k` best run (chosen and weighted as the layer's
//! [`Routing`] says), and their gated outputs are summed with those weights, plus the
//! output of the shared experts every token runs (DeepSeek's `ffn_*_shexp`). gpt-oss adds
//! biases to the router and to every expert's three projections, and gates with
//! [`clamped_swiglu`]. Each token's experts are added in rank order, and every expert's rows
//! are computed by the same matmuls whatever other tokens share the step, so a token's
//! output does not depend on its batch.

mod parallel;
mod plan;
mod routing;

use super::weights::{checked, vector};
use super::ModelError;

use crate::gguf::GgufFile;
use kernels::activation::{clamped_swiglu, gelu_mul, silu_mul};
use kernels::matmul::QMatrix;
pub use parallel::{ParallelMoe, ParallelScratch};
pub use plan::{
    check_expert_counts, expert_counts, mlp_wide_experts, qwen_experts, required_gating,
    with_shared_experts, MAX_EXPERTS,
};
pub use routing::{Gating, Routing};

/// How many experts a layer has, how many each token uses and their MLP width.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoePlan {
    pub experts: usize,
    pub top_k: usize,
    pub ffn: usize,
    /// The router and the experts' projections have biases (`*.bias`: gpt-oss).
    pub biases: bool,
    /// The experts' gate.
    pub gate: ExpertGate,
    /// How the router's scores choose and weigh the experts.
    pub routing: Routing,
    /// A per-expert bias on the scores that choose, not on the weights
    /// (`exp_probs_b.bias`: DeepSeek V3).
    pub selection_bias: bool,
    /// The width of the shared experts every token runs beside its chosen ones
    /// (`ffn_{gate,up,down}_shexp`, SwiGLU), where the layer has them.
    pub shared_ffn: Option<usize>,
    /// The shared experts' output is scaled per token by `sigmoid(x . ffn_gate_inp_shexp)`
    /// (Qwen2-MoE).
    pub shared_gate: bool,
    /// A chosen expert's weight scales its input rather than its output (Llama 4).
    pub weighs_inputs: bool,
    /// Each expert's output is multiplied by its own number (`ffn_down_exps.scale`:
    /// Gemma 4).
    pub down_scales: bool,
}

/// How an expert gates its up projection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExpertGate {
    /// `silu(gate) * up`.
    #[default]
    Silu,
    /// gpt-oss's clamped SwiGLU ([`clamped_swiglu`]).
    Clamped,
    /// `gelu(gate) * up`, GELU's tanh form (Gemma 4).
    Gelu,
}

pub struct Expert {
    /// `[gate (ffn) | up (ffn)]` rows over `hidden`.
    pub gate_up: QMatrix,
    /// `[hidden]` rows over `ffn`.
    pub down: QMatrix,
    /// `[gate (ffn) | up (ffn)]` and `[hidden]`, where the plan has biases.
    pub biases: Option<(Vec<f32>, Vec<f32>)>,
}

/// The experts every token runs, as one gated MLP.
pub struct SharedExperts {
    /// `[gate (width) | up (width)]` rows over `hidden`.
    pub gate_up: QMatrix,
    /// `[hidden]` rows over `width`.
    pub down: QMatrix,
    pub width: usize,
    /// `[hidden]`: the row whose dot product with a token's input, through a sigmoid,
    /// scales the token's shared output (`ffn_gate_inp_shexp`), where the plan has it.
    pub gate: Option<Vec<f32>>,
}

pub struct MoeWeights {
    pub plan: MoePlan,
    /// One row per expert over `hidden` (`ffn_gate_inp`).
    pub router: QMatrix,
    /// One per expert, where the plan has biases.
    pub router_bias: Option<Vec<f32>>,
    /// One per expert, added to the scores that choose (`exp_probs_b`).
    pub selection_bias: Option<Vec<f32>>,
    pub experts: Vec<Expert>,
    pub shared: Option<SharedExperts>,
    /// One per expert, multiplying its output, where the plan has them.
    pub down_scales: Option<Vec<f32>>,
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
        plan.routing.validate(plan.experts, plan.top_k)?;
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
        let down = tensor(&name("ffn_down_exps"))?;
        let down_bytes = checked(&down, &[plan.ffn, hidden, plan.experts])?;
        let slice = |bytes: &'_ [u8], e: usize| {
            let per = bytes.len() / plan.experts;
            bytes[e * per..(e + 1) * per].to_vec()
        };
        // Gate and up in two tensors, or in one whose expert rows are gate then up
        // (`ffn_gate_up_exps`: Gemma 4's converter).
        let fused = file.tensor(&name("ffn_gate_up_exps"));
        let (gate_up_type, gate_up_of): (_, Box<dyn Fn(usize) -> Vec<u8> + '_>) = match fused {
            Some(fused) => {
                let bytes = checked(&fused, &[hidden, 2 * plan.ffn, plan.experts])?;
                (fused.ggml_type(), Box::new(move |e| slice(bytes, e)))
            }
            None => {
                let gate = tensor(&name("ffn_gate_exps"))?;
                let up = tensor(&name("ffn_up_exps"))?;
                let (gate_bytes, up_bytes) = (
                    checked(&gate, &[hidden, plan.ffn, plan.experts])?,
                    checked(&up, &[hidden, plan.ffn, plan.experts])?,
                );
                if gate.ggml_type() != up.ggml_type() {
                    return Err(ModelError::Unsupported(format!(
                        "layer {i}: expert gate and up of different types"
                    )));
                }
                let both = move |e| {
                    let mut gate_up = slice(gate_bytes, e);
                    gate_up.extend(slice(up_bytes, e));
                    gate_up
                };
                (gate.ggml_type(), Box::new(both))
            }
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
                let gate_up = gate_up_of(e);
                Ok(Expert {
                    gate_up: QMatrix::new(gate_up_type, 2 * plan.ffn, hidden, &gate_up)?,
                    down: QMatrix::new(down.ggml_type(), hidden, plan.ffn, &slice(down_bytes, e))?,
                    biases,
                })
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let selection_bias = plan
            .selection_bias
            .then(|| vector(file, &format!("blk.{i}.exp_probs_b.bias"), plan.experts))
            .transpose()?;
        if let Some(b) = selection_bias.iter().flatten().find(|b| !b.is_finite()) {
            return Err(ModelError::Shape(format!(
                "blk.{i}.exp_probs_b.bias holds {b}, not a finite number"
            )));
        }
        let down_scales = plan
            .down_scales
            .then(|| vector(file, &format!("blk.{i}.ffn_down_exps.scale"), plan.experts))
            .transpose()?;
        if let Some(s) = down_scales.iter().flatten().find(|s| !s.is_finite()) {
            return Err(ModelError::Shape(format!(
                "blk.{i}.ffn_down_exps.scale holds {s}, not a finite number"
            )));
        }
        let shared = match plan.shared_ffn {
            Some(width) => Some(SharedExperts::load(
                file,
                i,
                hidden,
                width,
                plan.shared_gate,
            )?),
            None => None,
        };
        Ok(Self {
            plan,
            router,
            router_bias,
            selection_bias,
            experts,
            shared,
            down_scales,
        })
    }

    /// `out[t] = sum over the token's experts of weight * down(silu(gate x) * up x)` for the
    /// `t` rows of `x` (`[t, hidden]`); where the plan weighs inputs, the sum of
    /// `down(silu(gate wx) * up wx)` over `wx = weight * x`.
    pub fn forward(
        &self,
        x: &[f32],
        t: usize,
        hidden: usize,
        s: &mut MoeScratch,
        out: &mut [f32],
    ) -> Result<(), ModelError> {
        self.forward_routed(x, x, t, hidden, s, out)
    }

    /// [`Self::forward`] with the router reading `route` (`[t, hidden]`) rather than the
    /// experts' input `x` (Gemma 4 routes from another norm of the same rows).
    pub fn forward_routed(
        &self,
        route: &[f32],
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
        self.router.matmul(route, t, &mut s.logits)?;
        if let Some(bias) = &self.router_bias {
            s.logits
                .chunks_exact_mut(experts)
                .for_each(|row| add_row(row, bias));
        }
        let routing = self.plan.routing;
        let bias = self.selection_bias.as_deref();
        let picks: Vec<Vec<(usize, f32)>> = s
            .logits
            .chunks_exact(experts)
            .map(|row| routing.route(row, top_k, bias))
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
            for &(tok, rank) in &users {
                let row = &x[tok * hidden..][..hidden];
                match self.plan.weighs_inputs {
                    true => {
                        let weight = picks[tok][rank].1;
                        s.rows.extend(row.iter().map(|v| v * weight));
                    }
                    false => s.rows.extend_from_slice(row),
                }
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
                ExpertGate::Gelu => gelu_mul(&s.gate_up, ffn, &mut s.act)?,
            }
            s.out.resize(m * hidden, 0.0);
            expert.down.matmul(&s.act, m, &mut s.out)?;
            if let Some((_, down)) = &expert.biases {
                s.out
                    .chunks_exact_mut(hidden)
                    .for_each(|row| add_row(row, down));
            }
            if let Some(scale) = self.down_scales.as_ref().and_then(|s| s.get(e)) {
                s.out.iter_mut().for_each(|v| *v *= scale);
            }
            for (&(tok, rank), row) in users.iter().zip(s.out.chunks_exact(hidden)) {
                s.picked[(tok * top_k + rank) * hidden..][..hidden].copy_from_slice(row);
            }
        }
        for ((dst, p), tok) in out.chunks_exact_mut(hidden).zip(&picks).zip(0..) {
            dst.fill(0.0);
            for (rank, &(_, weight)) in p.iter().enumerate() {
                let row = &s.picked[(tok * top_k + rank) * hidden..][..hidden];
                let weight = if self.plan.weighs_inputs { 1.0 } else { weight };
                dst.iter_mut().zip(row).for_each(|(d, v)| *d += weight * v);
            }
        }
        if let Some(shared) = &self.shared {
            shared.add_to(x, t, hidden, s, out)?;
        }
        Ok(())
    }
}

impl SharedExperts {
    /// Layer `i`'s `ffn_{gate,up,down}_shexp` (the shared experts side by side, `width`
    /// wide in all), and `ffn_gate_inp_shexp` where they are `gated`.
    fn load(
        file: &GgufFile,
        i: usize,
        hidden: usize,
        width: usize,
        gated: bool,
    ) -> Result<Self, ModelError> {
        let tensor = |part: &str| {
            let name = format!("blk.{i}.ffn_{part}_shexp.weight");
            file.tensor(&name).ok_or(ModelError::MissingTensor(name))
        };
        let (gate, up, down) = (tensor("gate")?, tensor("up")?, tensor("down")?);
        let mut gate_up = checked(&gate, &[hidden, width])?.to_vec();
        gate_up.extend_from_slice(checked(&up, &[hidden, width])?);
        if gate.ggml_type() != up.ggml_type() {
            return Err(ModelError::Unsupported(format!(
                "layer {i}: shared expert gate and up of different types"
            )));
        }
        Ok(Self {
            gate_up: QMatrix::new(gate.ggml_type(), 2 * width, hidden, &gate_up)?,
            down: QMatrix::new(
                down.ggml_type(),
                hidden,
                width,
                checked(&down, &[width, hidden])?,
            )?,
            width,
            gate: gated
                .then(|| vector(file, &format!("blk.{i}.ffn_gate_inp_shexp.weight"), hidden))
                .transpose()?,
        })
    }

    /// `out[t] += down(silu(gate x) * up x)` for every row of `x`, times
    /// `sigmoid(x . gate)` where the experts are gated.
    fn add_to(
        &self,
        x: &[f32],
        t: usize,
        hidden: usize,
        s: &mut MoeScratch,
        out: &mut [f32],
    ) -> Result<(), ModelError> {
        s.gate_up.resize(t * 2 * self.width, 0.0);
        self.gate_up.matmul(x, t, &mut s.gate_up)?;
        s.act.resize(t * self.width, 0.0);
        silu_mul(&s.gate_up, self.width, &mut s.act)?;
        s.out.resize(t * hidden, 0.0);
        self.down.matmul(&s.act, t, &mut s.out)?;
        if let Some(gate) = &self.gate {
            for (row, input) in s.out.chunks_exact_mut(hidden).zip(x.chunks_exact(hidden)) {
                let logit: f32 = input.iter().zip(gate).map(|(a, b)| a * b).sum();
                let weight = 1.0 / (1.0 + (-logit).exp());
                row.iter_mut().for_each(|v| *v *= weight);
            }
        }
        add_row(out, &s.out);
        Ok(())
    }
}

/// `row += bias`, element by element (the lengths are the loader's).
fn add_row(row: &mut [f32], bias: &[f32]) {
    row.iter_mut().zip(bias).for_each(|(r, b)| *r += b);
}
