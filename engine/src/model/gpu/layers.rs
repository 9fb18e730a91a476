//! The launches of one forward pass, from device inputs to logits. Everything they read and
//! write is named by [`StepInputs`] and [`Activations`], and nothing here allocates, copies
//! from the host or waits, so a decode step can be recorded into a CUDA graph as it is run
//! eagerly.

use super::super::{Activation, ModelConfig, ModelError};
use super::weights::{DeviceLayer, DeviceWeights};
use half::f16;
use kernels::attention::{AttentionShape, ScoreRules};
use kernels::cuda::{
    AttentionLayer, AttentionMeta, CudaSlice, DeviceKvStorage, DeviceRope, DeviceSlots, Gate,
    GpuContext, NewRows, QkvRows, QkvShape, SplitParts,
};
use kernels::cuda_index::SplitPlan;

/// Activation buffers for `tokens` rows and logits for `rows` rows (grown, never shrunk).
/// Q, K and V have either one merged buffer (one GEMM) or three (only Q's holds rows in both
/// cases: the rotated Q the attention reads).
pub struct Activations {
    tokens: usize,
    rows: usize,
    merged_qkv: bool,
    x: CudaSlice<f32>,
    normed: CudaSlice<f32>,
    /// One GEMM's `[tokens, q | k | v]` rows (the merged path).
    qkv: CudaSlice<f32>,
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
        (tokens, rows): (usize, usize),
        merged_qkv: bool,
    ) -> Result<Self, ModelError> {
        let widest = c.hidden.max(c.q_dim()).max(c.ffn);
        let (merged_tokens, separate_tokens) = if merged_qkv { (tokens, 0) } else { (0, tokens) };
        Ok(Self {
            tokens,
            rows,
            merged_qkv,
            x: gpu.zeros(tokens * c.hidden)?,
            normed: gpu.zeros(tokens.max(rows) * c.hidden)?,
            qkv: gpu.zeros(merged_tokens * (c.q_dim() + 2 * c.kv_dim()))?,
            q: gpu.zeros(tokens * c.q_dim())?,
            k: gpu.zeros(separate_tokens * c.kv_dim())?,
            v: gpu.zeros(separate_tokens * c.kv_dim())?,
            attn: gpu.zeros(tokens * c.q_dim())?,
            proj: gpu.zeros(tokens * c.hidden)?,
            gate_up: gpu.zeros(tokens * 2 * c.ffn)?,
            act: gpu.zeros(tokens * c.ffn)?,
            half: gpu.zeros(tokens.max(rows) * widest)?,
            selected: gpu.zeros(rows * c.hidden)?,
            logits: gpu.zeros(rows * c.vocab_size)?,
        })
    }

    /// The final norm's output rows of the last pass (its wanted rows, in order).
    pub fn normed(&self) -> &CudaSlice<f32> {
        &self.normed
    }

    /// Whether these buffers hold a pass of `tokens` tokens with `rows` logits rows, with
    /// Q, K and V merged or not.
    pub fn fits(&self, tokens: usize, rows: usize, merged_qkv: bool) -> bool {
        tokens <= self.tokens && rows <= self.rows && merged_qkv == self.merged_qkv
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
    /// Fused kernels: the residual add, norm and cast; the gate and cast; the Q and K norms;
    /// RoPE and the K/V store.
    pub fused: bool,
    /// With `fused`: Q, K and V (and their biases) from one GEMM over the stacked weights.
    pub merged_qkv: bool,
}

impl DeviceModel<'_> {
    /// Whether Q, K and V come from one GEMM as merged rows.
    pub fn merges_qkv(&self) -> bool {
        self.fused && self.merged_qkv
    }

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
            ..
        } = *self;
        let t = inputs.tokens;
        if !a.fits(t, inputs.rows, self.merges_qkv()) {
            return Err(ModelError::Batch(format!(
                "GPU activations hold {} tokens and {} rows (Q/K/V merged: {}), the pass \
                 needs {t} and {} (merged: {})",
                a.tokens,
                a.rows,
                a.merged_qkv,
                inputs.rows,
                self.merges_qkv()
            )));
        }
        let (hidden, q_dim, ffn) = (c.hidden, c.q_dim(), c.ffn);
        let eps = c.rms_norm_eps;
        let shape = self.attention_shape();

        gpu.embedding(inputs.ids, t, &w.token_embd, hidden, &mut a.x)?;
        if let Some(scale) = c.embedding_scale {
            gpu.scale_in_place(&mut a.x, scale, t * hidden)?;
        }
        // Whether `a.proj` holds the last layer's FFN output, not yet added to `a.x`: the next
        // norm adds it.
        let mut pending = false;
        for (layer, lw) in w.layers.iter().enumerate() {
            // Q, K and V share one f16 copy of the normed rows.
            self.add_norm_half(a, pending, &lw.attn_norm, t)?;
            let rope = match lw.rope {
                Some(r) => Some(
                    ropes
                        .get(r)
                        .ok_or_else(|| ModelError::Batch(format!("no RoPE table {r}")))?,
                ),
                None => None,
            };
            let new_rows = NewInputs {
                layer,
                lw,
                rope,
                inputs,
            };
            if self.fused {
                self.fused_qkv(&new_rows, kv, a)?;
            } else {
                self.separate_qkv(&new_rows, kv, a)?;
            }
            let (k_cache, v_cache) = kv
                .layer(layer)
                .ok_or_else(|| ModelError::Batch(format!("KV pool has no layer {layer}")))?;
            let attention = AttentionLayer {
                shape: &shape,
                rules: ScoreRules {
                    window: lw.window,
                    softcap: c.attn_logit_softcap,
                    scale: c.score_scale,
                    chunk: None,
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
            self.finish_branch(&mut a.proj, lw.post_attn_norm.as_ref(), t)?;

            self.add_norm_half(a, true, &lw.ffn_norm, t)?;
            gpu.gemm_f32_out(&a.half, &lw.w_gate_up, &mut a.gate_up, t, 2 * ffn, hidden)?;
            self.gate_half(a, t)?;
            gpu.gemm_f32_out(&a.half, &lw.w_down, &mut a.proj, t, hidden, ffn)?;
            self.finish_branch(&mut a.proj, lw.post_ffn_norm.as_ref(), t)?;
            pending = true;
        }
        if pending {
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

/// What a layer's Q/K/V projection and K/V store read besides the activations.
struct NewInputs<'a> {
    layer: usize,
    lw: &'a DeviceLayer,
    rope: Option<&'a DeviceRope>,
    inputs: &'a StepInputs<'a>,
}

impl DeviceModel<'_> {
    fn qkv_shape(&self, tokens: usize) -> QkvShape {
        QkvShape {
            tokens,
            heads: self.config.num_heads,
            kv_heads: self.config.num_kv_heads,
            head_dim: self.config.head_dim,
        }
    }

    /// Q, K and V from `a.half` by three GEMMs into `a.q`, `a.k` and `a.v`, with their biases.
    fn qkv_gemms(&self, lw: &DeviceLayer, a: &mut Activations, t: usize) -> Result<(), ModelError> {
        let (gpu, c) = (self.gpu, self.config);
        let [(wq, q_dim), (wk, kv_dim), (wv, _)] = lw.qkv_parts(c.hidden, c.q_dim(), c.kv_dim());
        gpu.gemm_f32_out(&a.half, &wq, &mut a.q, t, q_dim, c.hidden)?;
        gpu.gemm_f32_out(&a.half, &wk, &mut a.k, t, kv_dim, c.hidden)?;
        gpu.gemm_f32_out(&a.half, &wv, &mut a.v, t, kv_dim, c.hidden)?;
        if let Some(b) = &lw.qkv_bias {
            gpu.add_bias(&mut a.q, &b.q, t)?;
            gpu.add_bias(&mut a.k, &b.k, t)?;
            gpu.add_bias(&mut a.v, &b.v, t)?;
        }
        Ok(())
    }

    /// The fused path from `a.half` to rotated Q in `a.q` and K/V in the pool: one GEMM (or
    /// three), one bias add, one launch for both head norms, one for RoPE and the store.
    fn fused_qkv(
        &self,
        n: &NewInputs<'_>,
        kv: &mut DeviceKvStorage,
        a: &mut Activations,
    ) -> Result<(), ModelError> {
        let (gpu, c) = (self.gpu, self.config);
        let t = n.inputs.tokens;
        let shape = self.qkv_shape(t);
        let (rows, q_out) = if self.merges_qkv() {
            let width = shape.merged_len();
            gpu.gemm_f32_out(&a.half, &n.lw.wqkv, &mut a.qkv, t, width, c.hidden)?;
            if let Some(b) = &n.lw.qkv_bias {
                gpu.add_bias(&mut a.qkv, &b.merged, t)?;
            }
            let rows = QkvRows::merged(gpu, &mut a.qkv, shape)?;
            (rows, Some(&mut a.q))
        } else {
            self.qkv_gemms(n.lw, a, t)?;
            (
                QkvRows::separate(gpu, &mut a.q, &mut a.k, &a.v, shape)?,
                None,
            )
        };
        if let Some([q_norm, k_norm]) = &n.lw.qk_norm {
            gpu.qk_norm_in_place(&rows, q_norm, k_norm, c.rms_norm_eps)?;
        }
        let new = NewRows {
            qkv: rows,
            q_out,
            positions: n.inputs.positions,
            out_cache_loc: n.inputs.slots,
        };
        kv.rope_and_set_kv(gpu, n.layer, n.rope, new)?;
        Ok(())
    }

    /// The separate kernels of [`Self::fused_qkv`], launch by launch.
    fn separate_qkv(
        &self,
        n: &NewInputs<'_>,
        kv: &mut DeviceKvStorage,
        a: &mut Activations,
    ) -> Result<(), ModelError> {
        let (gpu, c) = (self.gpu, self.config);
        let t = n.inputs.tokens;
        self.qkv_gemms(n.lw, a, t)?;
        if let Some([q_norm, k_norm]) = &n.lw.qk_norm {
            // One row per head.
            gpu.rms_norm_in_place(&mut a.q, q_norm, c.rms_norm_eps, t * c.num_heads)?;
            gpu.rms_norm_in_place(&mut a.k, k_norm, c.rms_norm_eps, t * c.num_kv_heads)?;
        }
        if let Some(rope) = n.rope {
            rope.apply(gpu, &mut a.q, c.num_heads, n.inputs.positions, t)?;
            rope.apply(gpu, &mut a.k, c.num_kv_heads, n.inputs.positions, t)?;
        }
        kv.set_kv(gpu, n.layer, n.inputs.slots, &a.k, &a.v)?;
        Ok(())
    }

    /// The input of a layer's Q/K/V or gate/up GEMMs: `a.x += a.proj` when `add`, then
    /// `a.half = f16(rms_norm(a.x) * weight)`; one launch when fused, three otherwise (the
    /// same bits either way).
    fn add_norm_half(
        &self,
        a: &mut Activations,
        add: bool,
        weight: &CudaSlice<f32>,
        t: usize,
    ) -> Result<(), ModelError> {
        let (gpu, hidden, eps) = (self.gpu, self.config.hidden, self.config.rms_norm_eps);
        if self.fused {
            let residual = add.then_some(&a.proj);
            gpu.add_rms_norm_f16(&mut a.x, residual, weight, eps, &mut a.half, t)?;
            return Ok(());
        }
        if add {
            gpu.add_in_place(&mut a.x, &a.proj, t * hidden)?;
        }
        gpu.rms_norm(&a.x, weight, eps, &mut a.normed, t)?;
        gpu.cast_from_f32(&a.normed, &mut a.half, t * hidden)?;
        Ok(())
    }

    /// The gated activation of `a.gate_up` as the f16 input of the down projection.
    fn gate_half(&self, a: &mut Activations, t: usize) -> Result<(), ModelError> {
        let (gpu, ffn) = (self.gpu, self.config.ffn);
        let gate = match self.config.activation {
            Activation::Silu => Gate::Silu,
            Activation::GeluTanh => Gate::GeluTanh,
        };
        if self.fused {
            gpu.gate_f16(gate, &a.gate_up, ffn, &mut a.half, t)?;
            return Ok(());
        }
        match gate {
            Gate::Silu => gpu.silu_mul(&a.gate_up, ffn, &mut a.act, t)?,
            Gate::GeluTanh => gpu.gelu_tanh_mul(&a.gate_up, ffn, &mut a.act, t)?,
        }
        gpu.cast_from_f32(&a.act, &mut a.half, t * ffn)?;
        Ok(())
    }

    /// A branch's output before it joins the residual stream: its post-norm and the
    /// residual scale, where the family has them.
    fn finish_branch(
        &self,
        proj: &mut CudaSlice<f32>,
        post_norm: Option<&CudaSlice<f32>>,
        t: usize,
    ) -> Result<(), ModelError> {
        let (gpu, c) = (self.gpu, self.config);
        if let Some(post) = post_norm {
            gpu.rms_norm_in_place(proj, post, c.rms_norm_eps, t)?;
        }
        if let Some(scale) = c.residual_scale {
            gpu.scale_in_place(proj, scale, t * c.hidden)?;
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
