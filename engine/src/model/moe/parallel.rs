//! Gemma 4's mixture-of-experts MLP (26B-A4B): a dense GeGLU and routed experts side by side,
//! each normed apart, their sum then post-normed by the layer as a dense MLP's output is.
//! From the residual stream `x` after attention: the dense half reads the layer's MLP pre-norm
//! of `x` and is normed by `post_ffw_norm_1`; the experts read `x` normed by `pre_ffw_norm_2`
//! and their weighted sum is normed by `post_ffw_norm_2`; the router reads `x` RMS-normalized
//! without weights, divided by `sqrt(hidden)` and multiplied by `ffn_gate_inp.scale` (llama.cpp's
//! Gemma 4 graph).

use super::{MoePlan, MoeScratch, MoeWeights};
use crate::gguf::GgufFile;
use crate::model::weights::{single, vector, FusedLinear};
use crate::model::ModelError;
use kernels::activation::gelu_mul;
use kernels::matmul::QMatrix;
use kernels::norm::rms_norm;

pub struct ParallelMoe {
    /// The dense half: `[gate (ffn) | up (ffn)]` and its down projection.
    pub gate_up: FusedLinear,
    pub down: QMatrix,
    post_norm_dense: Vec<f32>,
    pre_norm_experts: Vec<f32>,
    post_norm_experts: Vec<f32>,
    /// `ffn_gate_inp.scale / sqrt(hidden)`: the router's input weights.
    router_weights: Vec<f32>,
    pub experts: MoeWeights,
}

/// Buffers of [`ParallelMoe::forward`], reused across layers and steps.
#[derive(Default)]
pub struct ParallelScratch {
    gate_up: Vec<f32>,
    act: Vec<f32>,
    dense: Vec<f32>,
    route: Vec<f32>,
    inputs: Vec<f32>,
    routed: Vec<f32>,
    tmp: Vec<f32>,
    moe: MoeScratch,
}

impl ParallelMoe {
    /// Layer `i`'s dense MLP of width `ffn`, its experts as `plan` says, and their norms.
    pub fn load(
        file: &GgufFile,
        i: usize,
        hidden: usize,
        ffn: usize,
        plan: MoePlan,
    ) -> Result<Self, ModelError> {
        let name = |s: &str| format!("blk.{i}.{s}.weight");
        let gate_up = FusedLinear::load(file, &[name("ffn_gate"), name("ffn_up")], hidden)?;
        if gate_up.widths() != [ffn; 2] {
            return Err(ModelError::Shape(format!(
                "layer {i}: gate and up sizes do not match"
            )));
        }
        let scale = vector(file, &format!("blk.{i}.ffn_gate_inp.scale"), hidden)?;
        if let Some(s) = scale.iter().find(|s| !s.is_finite()) {
            return Err(ModelError::Shape(format!(
                "blk.{i}.ffn_gate_inp.scale holds {s}, not a finite number"
            )));
        }
        let root = (hidden as f32).sqrt();
        Ok(Self {
            gate_up,
            down: single(file, &name("ffn_down"), ffn, hidden)?,
            post_norm_dense: vector(file, &name("post_ffw_norm_1"), hidden)?,
            pre_norm_experts: vector(file, &name("pre_ffw_norm_2"), hidden)?,
            post_norm_experts: vector(file, &name("post_ffw_norm_2"), hidden)?,
            router_weights: scale.iter().map(|s| s / root).collect(),
            experts: MoeWeights::load(file, i, hidden, plan)?,
        })
    }

    /// `out = post_norm_dense(dense(normed)) + post_norm_experts(experts(x))` for the `t`
    /// rows of `x` (the residual stream) and `normed` (it through the MLP's pre-norm).
    pub fn forward(
        &self,
        x: &[f32],
        normed: &[f32],
        t: usize,
        eps: f32,
        s: &mut ParallelScratch,
        out: &mut [f32],
    ) -> Result<(), ModelError> {
        let (hidden, ffn) = (self.down.n_out(), self.down.k_in());
        s.gate_up.resize(t * 2 * ffn, 0.0);
        self.gate_up.matmul(normed, t, &mut s.gate_up, &mut s.tmp)?;
        s.act.resize(t * ffn, 0.0);
        gelu_mul(&s.gate_up, ffn, &mut s.act)?;
        s.dense.resize(t * hidden, 0.0);
        self.down.matmul(&s.act, t, &mut s.dense)?;
        rms_norm(&s.dense, &self.post_norm_dense, eps, out)?;

        s.route.resize(t * hidden, 0.0);
        rms_norm(x, &self.router_weights, eps, &mut s.route)?;
        s.inputs.resize(t * hidden, 0.0);
        rms_norm(x, &self.pre_norm_experts, eps, &mut s.inputs)?;
        s.routed.resize(t * hidden, 0.0);
        let moe = &mut s.moe;
        (self.experts).forward_routed(&s.route, &s.inputs, t, hidden, moe, &mut s.routed)?;
        s.dense.resize(t * hidden, 0.0);
        rms_norm(&s.routed, &self.post_norm_experts, eps, &mut s.dense)?;
        out.iter_mut().zip(&s.dense).for_each(|(o, e)| *o += e);
        Ok(())
    }
}
