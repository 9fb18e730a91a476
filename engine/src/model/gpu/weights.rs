//! The model's weights on the device: projections dequantized once to f16 (cuBLAS GEMMs),
//! norms and biases in f32. Q, K and V are one stacked matrix `[q | k | v]`, so one GEMM
//! gives all three (the fused kernels read its rows in place); its row ranges serve the
//! three GEMMs of the separate path. Gate and up are stacked likewise, as the gated
//! activations read rows `[gate | up]`. A family's optional parts are uploaded where its
//! layers have them.

use super::super::weights::Mlp;
use super::super::{ModelError, Weights};
use half::f16;
use half::slice::HalfFloatSliceExt;
use kernels::cuda::{CudaSlice, CudaView, GpuContext};

pub struct DeviceLayer {
    pub attn_norm: CudaSlice<f32>,
    /// `[q_dim + 2 kv_dim, hidden]`: Q's rows, then K's, then V's.
    pub wqkv: CudaSlice<f16>,
    /// Q, K and V biases (Qwen2).
    pub qkv_bias: Option<QkvBias>,
    /// Per-head Q and K norms, `[head_dim]` each (Qwen3, Gemma 3).
    pub qk_norm: Option<[CudaSlice<f32>; 2]>,
    pub wo: CudaSlice<f16>,
    pub post_attn_norm: Option<CudaSlice<f32>>,
    pub ffn_norm: CudaSlice<f32>,
    pub w_gate_up: CudaSlice<f16>,
    pub w_down: CudaSlice<f16>,
    pub post_ffn_norm: Option<CudaSlice<f32>>,
    /// Index of the layer's RoPE table; `None`: no rotation.
    pub rope: Option<usize>,
    /// Keys each query sees at most (sliding-window layers).
    pub window: Option<usize>,
}

/// Q, K and V biases, apart (the separate path adds each to its own rows) and stacked.
pub struct QkvBias {
    pub q: CudaSlice<f32>,
    pub k: CudaSlice<f32>,
    pub v: CudaSlice<f32>,
    pub merged: CudaSlice<f32>,
}

impl DeviceLayer {
    /// Q's, K's and V's weights as row ranges of the stacked matrix, with their widths.
    pub fn qkv_parts(
        &self,
        hidden: usize,
        q_dim: usize,
        kv_dim: usize,
    ) -> [(CudaView<'_, f16>, usize); 3] {
        let (q_end, k_end) = (q_dim * hidden, (q_dim + kv_dim) * hidden);
        [
            (self.wqkv.slice(..q_end), q_dim),
            (self.wqkv.slice(q_end..k_end), kv_dim),
            (self.wqkv.slice(k_end..k_end + kv_dim * hidden), kv_dim),
        ]
    }
}

pub struct DeviceWeights {
    pub token_embd: CudaSlice<f16>,
    pub layers: Vec<DeviceLayer>,
    pub output_norm: CudaSlice<f32>,
    /// `None` when the head is tied to the token embedding.
    pub output: Option<CudaSlice<f16>>,
}

impl DeviceWeights {
    pub fn upload(gpu: &GpuContext, w: &Weights) -> Result<Self, ModelError> {
        let c = &w.config;
        let (hidden, q_dim, kv_dim) = (c.hidden, c.q_dim(), c.kv_dim());
        let mut layers = Vec::with_capacity(w.layers.len());
        for lw in &w.layers {
            let Mlp::Dense { gate_up, down } = &lw.mlp else {
                return Err(ModelError::Unsupported(
                    "mixture-of-experts layers, or MLPs without a gate or absent (Nemotron-H), \
                     on the GPU: serve this model with --device cpu"
                        .into(),
                ));
            };
            if lw.mla.is_some() {
                return Err(ModelError::Unsupported(
                    "multi-head latent attention on the GPU: serve this model with --device cpu"
                        .into(),
                ));
            }
            let own_heads =
                lw.heads.head_dim != c.head_dim || lw.heads.num_kv_heads != c.num_kv_heads;
            if lw.has_cpu_only_parts() || own_heads || w.per_layer.is_some() {
                return Err(ModelError::Unsupported(
                    "Gemma 4's layers (heads of their own, shared K/V, per-layer embeddings) on \
                     the GPU: serve this model with --device cpu"
                        .into(),
                ));
            }
            if lw.short_conv.is_some() || lw.mamba2.is_some() {
                return Err(ModelError::Unsupported(
                    "short-convolution layers (LFM2) or Mamba-2 layers (Granite 4.0) on the \
                     GPU: serve this model with --device cpu"
                        .into(),
                ));
            }
            if lw.delta_net.is_some() || lw.query_gate {
                return Err(ModelError::Unsupported(
                    "delta-net layers or gated attention (Qwen3.5) on the GPU: serve this model \
                     with --device cpu"
                        .into(),
                ));
            }
            if lw.temperature.is_some() || lw.chunk.is_some() {
                return Err(ModelError::Unsupported(
                    "attention temperature by position or chunked attention on the GPU: serve \
                     this model with --device cpu"
                        .into(),
                ));
            }
            if lw.attn_sinks.is_some() || lw.attn_output_bias.is_some() {
                return Err(ModelError::Unsupported(
                    "attention sinks or an output bias on the GPU: serve this model with \
                     --device cpu"
                        .into(),
                ));
            }
            let whole_qk_norm = lw.q_norm.as_ref().is_some_and(|n| n.len() != c.head_dim);
            let (Some(attn_norm), Some(ffn_norm), false) =
                (&lw.attn_norm, &lw.ffn_norm, whole_qk_norm)
            else {
                return Err(ModelError::Unsupported(
                    "layers without pre-norms or with Q/K norms over whole rows (OLMo 2) on \
                     the GPU: serve this model with --device cpu"
                        .into(),
                ));
            };
            let upload = |v: &Option<Vec<f32>>| v.as_deref().map(|v| gpu.upload(v)).transpose();
            let qkv_bias = match &lw.qkv_bias {
                Some(b) if b.len() == q_dim + 2 * kv_dim => Some(QkvBias {
                    q: gpu.upload(&b[..q_dim])?,
                    k: gpu.upload(&b[q_dim..q_dim + kv_dim])?,
                    v: gpu.upload(&b[q_dim + kv_dim..])?,
                    merged: gpu.upload(b)?,
                }),
                Some(b) => {
                    return Err(ModelError::Shape(format!(
                        "a Q/K/V bias of {} values for {q_dim} + 2 x {kv_dim} outputs",
                        b.len()
                    )))
                }
                None => None,
            };
            let qk_norm = match (upload(&lw.q_norm)?, upload(&lw.k_norm)?) {
                (Some(q), Some(k)) => Some([q, k]),
                (None, None) => None,
                _ => {
                    return Err(ModelError::Shape(
                        "a layer with a Q norm and no K norm, or the reverse".into(),
                    ))
                }
            };
            layers.push(DeviceLayer {
                attn_norm: gpu.upload(attn_norm)?,
                wqkv: half_rows(gpu, 0..q_dim + 2 * kv_dim, hidden, |r, out| {
                    lw.qkv.row(r, out)
                })?,
                qkv_bias,
                qk_norm,
                wo: half_rows(gpu, 0..hidden, q_dim, |r, out| {
                    Ok(lw.attn_output.row(r, out)?)
                })?,
                post_attn_norm: upload(&lw.post_attn_norm)?,
                ffn_norm: gpu.upload(ffn_norm)?,
                w_gate_up: half_rows(gpu, 0..2 * c.ffn, hidden, |r, out| gate_up.row(r, out))?,
                w_down: half_rows(gpu, 0..hidden, c.ffn, |r, out| Ok(down.row(r, out)?))?,
                post_ffn_norm: upload(&lw.post_ffn_norm)?,
                rope: lw.rope,
                window: lw.window,
            });
        }
        let token_embd = half_rows(gpu, 0..c.vocab_size, hidden, |r, out| {
            Ok(w.token_embd.row(r, out)?)
        })?;
        let output = match &w.output {
            Some(m) => Some(half_rows(gpu, 0..m.n_out(), hidden, |r, out| {
                Ok(m.row(r, out)?)
            })?),
            None => None,
        };
        Ok(Self {
            token_embd,
            layers,
            output_norm: gpu.upload(&w.output_norm)?,
            output,
        })
    }

    /// The output head (`output.weight`, or the tied embedding).
    pub fn output_head(&self) -> &CudaSlice<f16> {
        self.output.as_ref().unwrap_or(&self.token_embd)
    }
}

/// Rows `rows` of a `[n, k]` matrix, dequantized by `row` and uploaded as f16.
fn half_rows(
    gpu: &GpuContext,
    rows: std::ops::Range<usize>,
    k: usize,
    mut row: impl FnMut(usize, &mut [f32]) -> Result<(), ModelError>,
) -> Result<CudaSlice<f16>, ModelError> {
    let mut f32_row = vec![0.0f32; k];
    let mut host = vec![f16::ZERO; rows.len() * k];
    for (r, dst) in rows.zip(host.chunks_exact_mut(k)) {
        row(r, &mut f32_row)?;
        dst.convert_from_f32_slice(&f32_row);
    }
    Ok(gpu.upload(&host)?)
}
