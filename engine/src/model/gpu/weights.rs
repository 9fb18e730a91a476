//! The model's weights on the device: projections dequantized once to f16 (cuBLAS GEMMs),
//! norms and biases in f32. Q, K and V stay separate matrices (and biases) so each GEMM
//! writes its own contiguous output; gate and up stay fused, as the gated activations read
//! rows `[gate | up]`. A family's optional parts are uploaded where its layers have them.

use super::super::weights::Mlp;
use super::super::{ModelError, Weights};
use half::f16;
use half::slice::HalfFloatSliceExt;
use kernels::cuda::{CudaSlice, GpuContext};

pub struct DeviceLayer {
    pub attn_norm: CudaSlice<f32>,
    pub wq: CudaSlice<f16>,
    pub wk: CudaSlice<f16>,
    pub wv: CudaSlice<f16>,
    /// Q, K and V biases (Qwen2).
    pub qkv_bias: Option<[CudaSlice<f32>; 3]>,
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
            let qkv = |lo: usize, n: usize| {
                half_rows(gpu, lo..lo + n, hidden, |r, out| lw.qkv.row(r, out))
            };
            let Mlp::Dense { gate_up, down } = &lw.mlp else {
                return Err(ModelError::Unsupported(
                    "mixture-of-experts layers on the GPU: serve this model with --device cpu"
                        .into(),
                ));
            };
            let upload = |v: &Option<Vec<f32>>| v.as_deref().map(|v| gpu.upload(v)).transpose();
            let qkv_bias = match &lw.qkv_bias {
                Some(b) if b.len() == q_dim + 2 * kv_dim => Some([
                    gpu.upload(&b[..q_dim])?,
                    gpu.upload(&b[q_dim..q_dim + kv_dim])?,
                    gpu.upload(&b[q_dim + kv_dim..])?,
                ]),
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
                attn_norm: gpu.upload(&lw.attn_norm)?,
                wq: qkv(0, q_dim)?,
                wk: qkv(q_dim, kv_dim)?,
                wv: qkv(q_dim + kv_dim, kv_dim)?,
                qkv_bias,
                qk_norm,
                wo: half_rows(gpu, 0..hidden, q_dim, |r, out| {
                    Ok(lw.attn_output.row(r, out)?)
                })?,
                post_attn_norm: upload(&lw.post_attn_norm)?,
                ffn_norm: gpu.upload(&lw.ffn_norm)?,
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
