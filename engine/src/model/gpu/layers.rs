//! The launches of one forward pass, from device inputs to logits. Everything they read and
//! write is named by [`StepInputs`] and [`Activations`], and nothing here allocates, copies
//! from the host or waits, so a decode step can be recorded into a CUDA graph as it is run
//! eagerly.

use super::super::{Activation, ModelConfig, ModelError};
use super::weights::DeviceWeights;
use half::f16;
use kernels::attention::{AttentionShape, ScoreRules};
use kernels::cuda::{
    AttentionLayer, AttentionMeta, CudaSlice, DeviceKvStorage, DeviceRope, DeviceSlots, GpuContext,
    SplitParts,
};
use kernels::cuda_index::SplitPlan;

/// Activation buffers for `tokens` rows and logits for `rows` rows (grown, never shrunk).
pub struct Activations {
    tokens: usize,
    rows: usize,
    x: CudaSlice<f32>,
    normed: CudaSlice<f32>,
    q: CudaSlice<f32>,
    k: CudaSlice<f32>,
    v: CudaSlice<f32>,
    attn: CudaSlice<f32>,
    proj: CudaSlice<f32>,
    gate_up: CudaSlice<f32>,
    act: CudaSlice<f32>,
    /// f16 copy of a GEMM's input (the widest of hidden, q_dim and ffn).
    half: CudaSlice<f16>,
    /// Final-norm input rows of the wanted tokens, and their logits.
    selected: CudaSlice<f32>,
    pub logits: CudaSlice<f32>,
}

impl Activations {
    pub fn new(
        gpu: &GpuContext,
        c: &ModelConfig,
        tokens: usize,
        rows: usize,
    ) -> Result<Self, ModelError> {
        let widest = c.hidden.max(c.q_dim()).max(c.ffn);
        Ok(Self {
            tokens,
            rows,
            x: gpu.zeros(tokens * c.hidden)?,
            normed: gpu.zeros(tokens.max(rows) * c.hidden)?,
            q: gpu.zeros(tokens * c.q_dim())?,
            k: gpu.zeros(tokens * c.kv_dim())?,
            v: gpu.zeros(tokens * c.kv_dim())?,
            attn: gpu.zeros(tokens * c.q_dim())?,
            proj: gpu.zeros(tokens * c.hidden)?,
            gate_up: gpu.zeros(tokens * 2 * c.ffn)?,
            act: gpu.zeros(tokens * c.ffn)?,
            half: gpu.zeros(tokens.max(rows) * widest)?,
            selected: gpu.zeros(rows * c.hidden)?,
            logits: gpu.zeros(rows * c.vocab_size)?,
        })
    }

    /// Whether these buffers hold a pass of `tokens` tokens with `rows` logits rows.
    pub fn fits(&self, tokens: usize, rows: usize) -> bool {
        tokens <= self.tokens && rows <= self.rows
    }
}

/// A step's inputs on the device.
pub struct StepInputs<'a> {
    pub tokens: usize,
    /// Logits rows: the first `rows` entries of `wanted`.
    pub rows: usize,
    pub ids: &'a CudaSlice<u32>,
    pub positions: &'a CudaSlice<u32>,
    pub slots: &'a DeviceSlots,
    pub attention: AttentionMeta<'a>,
    pub plan: SplitPlan,
    pub parts: Option<&'a SplitParts>,
    pub wanted: &'a CudaSlice<u32>,
}

/// The model as the pass reads it.
pub struct DeviceModel<'a> {
    pub gpu: &'a GpuContext,
    pub config: &'a ModelConfig,
    pub weights: &'a DeviceWeights,
    pub ropes: &'a [DeviceRope],
}

impl DeviceModel<'_> {
    pub fn attention_shape(&self) -> AttentionShape {
        AttentionShape {
            num_heads: self.config.num_heads,
            num_kv_heads: self.config.num_kv_heads,
            head_dim: self.config.head_dim,
        }
    }

    /// Embedding, every layer (K/V written to `kv`), then the final norm and the head for
    /// the wanted rows, leaving their logits in `a.logits`.
    pub fn forward_pass(
        &self,
        inputs: &StepInputs<'_>,
        kv: &mut DeviceKvStorage,
        a: &mut Activations,
    ) -> Result<(), ModelError> {
        let Self {
            gpu,
            config: c,
            weights: w,
            ropes,
        } = *self;
        let t = inputs.tokens;
        if !a.fits(t, inputs.rows) {
            return Err(ModelError::Batch(format!(
                "GPU activations hold {} tokens and {} rows, the pass needs {t} and {}",
                a.tokens, a.rows, inputs.rows
            )));
        }
        let (hidden, q_dim, kv_dim, ffn) = (c.hidden, c.q_dim(), c.kv_dim(), c.ffn);
        let eps = c.rms_norm_eps;
        let shape = self.attention_shape();

        gpu.embedding(inputs.ids, t, &w.token_embd, hidden, &mut a.x)?;
        if let Some(scale) = c.embedding_scale {
            gpu.scale_in_place(&mut a.x, scale, t * hidden)?;
        }
        for (layer, lw) in w.layers.iter().enumerate() {
            gpu.rms_norm(&a.x, &lw.attn_norm, eps, &mut a.normed, t)?;
            // Q, K and V share one f16 copy of the normed rows.
            gpu.cast_from_f32(&a.normed, &mut a.half, t * hidden)?;
            for (weight, out, width) in [
                (&lw.wq, &mut a.q, q_dim),
                (&lw.wk, &mut a.k, kv_dim),
                (&lw.wv, &mut a.v, kv_dim),
            ] {
                gpu.gemm_f32_out(&a.half, weight, out, t, width, hidden)?;
            }
            if let Some([qb, kb, vb]) = &lw.qkv_bias {
                gpu.add_bias(&mut a.q, qb, t)?;
                gpu.add_bias(&mut a.k, kb, t)?;
                gpu.add_bias(&mut a.v, vb, t)?;
            }
            if let Some([q_norm, k_norm]) = &lw.qk_norm {
                // One row per head.
                gpu.rms_norm_in_place(&mut a.q, q_norm, eps, t * c.num_heads)?;
                gpu.rms_norm_in_place(&mut a.k, k_norm, eps, t * c.num_kv_heads)?;
            }
            if let Some(r) = lw.rope {
                let rope = ropes
                    .get(r)
                    .ok_or_else(|| ModelError::Batch(format!("no RoPE table {r}")))?;
                rope.apply(gpu, &mut a.q, c.num_heads, inputs.positions, t)?;
                rope.apply(gpu, &mut a.k, c.num_kv_heads, inputs.positions, t)?;
            }
            kv.set_kv(gpu, layer, inputs.slots, &a.k, &a.v)?;
            let (k_cache, v_cache) = kv
                .layer(layer)
                .ok_or_else(|| ModelError::Batch(format!("KV pool has no layer {layer}")))?;
            let attention = AttentionLayer {
                shape: &shape,
                rules: ScoreRules {
                    window: lw.window,
                    softcap: c.attn_logit_softcap,
                    scale: c.score_scale,
                },
                k_cache,
                v_cache,
            };
            gpu.paged_attention_into(
                &attention,
                inputs.attention,
                &a.q,
                &mut a.attn,
                inputs.plan,
                inputs.parts,
            )?;
            linear(
                gpu,
                &a.attn,
                &mut a.half,
                &lw.wo,
                &mut a.proj,
                (t, hidden, q_dim),
            )?;
            if let Some(post) = &lw.post_attn_norm {
                gpu.rms_norm_in_place(&mut a.proj, post, eps, t)?;
            }
            if let Some(scale) = c.residual_scale {
                gpu.scale_in_place(&mut a.proj, scale, t * hidden)?;
            }
            gpu.add_in_place(&mut a.x, &a.proj, t * hidden)?;

            gpu.rms_norm(&a.x, &lw.ffn_norm, eps, &mut a.normed, t)?;
            let gate_up_shape = (t, 2 * ffn, hidden);
            linear(
                gpu,
                &a.normed,
                &mut a.half,
                &lw.w_gate_up,
                &mut a.gate_up,
                gate_up_shape,
            )?;
            match c.activation {
                Activation::Silu => gpu.silu_mul(&a.gate_up, ffn, &mut a.act, t)?,
                Activation::GeluTanh => gpu.gelu_tanh_mul(&a.gate_up, ffn, &mut a.act, t)?,
            }
            linear(
                gpu,
                &a.act,
                &mut a.half,
                &lw.w_down,
                &mut a.proj,
                (t, hidden, ffn),
            )?;
            if let Some(post) = &lw.post_ffn_norm {
                gpu.rms_norm_in_place(&mut a.proj, post, eps, t)?;
            }
            if let Some(scale) = c.residual_scale {
                gpu.scale_in_place(&mut a.proj, scale, t * hidden)?;
            }
            gpu.add_in_place(&mut a.x, &a.proj, t * hidden)?;
        }
        let rows = inputs.rows;
        if rows == 0 {
            return Ok(());
        }
        // The final norm and the head only for the wanted rows: gathered from the residual
        // stream with the embedding kernel (a row gather over a `[tokens, hidden]` table).
        gpu.embedding(inputs.wanted, rows, &a.x, hidden, &mut a.selected)?;
        gpu.rms_norm(&a.selected, &w.output_norm, eps, &mut a.normed, rows)?;
        let head_shape = (rows, c.vocab_size, hidden);
        linear(
            gpu,
            &a.normed,
            &mut a.half,
            w.output_head(),
            &mut a.logits,
            head_shape,
        )?;
        if let Some(divisor) = c.logit_divisor {
            gpu.scale_in_place(&mut a.logits, 1.0 / divisor, rows * c.vocab_size)?;
        }
        if let Some(cap) = c.final_logit_softcap {
            gpu.softcap_in_place(&mut a.logits, cap, rows * c.vocab_size)?;
        }
        Ok(())
    }
}

/// `out[m, n] = x[m, k] W^T`: `x` cast to f16 into `half`, then one cuBLAS GEMM.
fn linear(
    gpu: &GpuContext,
    x: &CudaSlice<f32>,
    half: &mut CudaSlice<f16>,
    w: &CudaSlice<f16>,
    out: &mut CudaSlice<f32>,
    (m, n, k): (usize, usize, usize),
) -> Result<(), ModelError> {
    gpu.cast_from_f32(x, half, m * k)?;
    gpu.gemm_f32_out(half, w, out, m, n, k)?;
    Ok(())
}
