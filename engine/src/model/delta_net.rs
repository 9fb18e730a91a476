//! The linear-attention layers of Qwen3.5 and Qwen3-Next (a gated delta net) as llama.cpp's
//! `qwen35` and `qwen3next` graphs run them: the layer's input projected to the convolved
//! `q|k|v` channels (`attn_qkv`), an output gate `z` (`attn_gate`) and per value head a
//! write strength (`ssm_beta`) and a decay (`ssm_alpha`; Qwen3-Next fuses the two as
//! `ssm_ba`, and may fuse the first two as `ssm_in`, see [`DeltaLayout`]); `q|k|v` through a causal convolution (`ssm_conv1d`) and SiLU; the
//! delta rule with decay `exp(softplus(alpha + ssm_dt.bias) * ssm_a)` (`ssm_a` holds
//! `-exp(A_log)`) and strength `sigmoid(beta)`; each head's output RMS-normalized
//! (`ssm_norm`) and multiplied by `silu(z)`; then `ssm_out`, which the decoder runs as the
//! layer's output projection. The state the layer carries per request lives in
//! [`super::recurrent::RecurrentStates`].

use super::hparams::Hparams;
use super::recurrent::{all_finite, required_size};
use super::weights::{matrix_shape, shaped_vector, single, tensor, vector, FusedLinear};
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::{GgufFile, MetadataValue};
use kernels::delta_net::{causal_conv, gated_delta_rule, DeltaGates, DeltaShape};
use kernels::matmul::QMatrix;
use kernels::norm::rms_norm;

/// Far above any real model's, so a hostile file's sizes are refused before allocation.
const MAX_CONV_KERNEL: usize = 64;
const MAX_HEADS: usize = 1 << 10;
const MAX_HEAD_DIM: usize = 1 << 10;

/// The shape the file's `{arch}.ssm.*` keys give every delta-net layer.
pub fn declared_shape(file: &GgufFile, hp: &Hparams) -> Result<DeltaShape, ModelError> {
    let keys = Keys::new(file.metadata());
    let read = |name: &str, max: usize| required_size(&keys, &hp.key(name), max);
    let shape = DeltaShape {
        grouped_values: false,
        conv_kernel: read("ssm.conv_kernel", MAX_CONV_KERNEL)?,
        head_dim: read("ssm.state_size", MAX_HEAD_DIM)?,
        key_heads: read("ssm.group_count", MAX_HEADS)?,
        value_heads: read("ssm.time_step_rank", MAX_HEADS)?,
    };
    let inner_key = hp.key("ssm.inner_size");
    let inner = keys.required_usize(&inner_key)?;
    if inner != shape.value_dim() {
        return Err(invalid(
            &inner_key,
            format!(
                "{inner}, not {} value heads of {}",
                shape.value_heads, shape.head_dim
            ),
        )
        .into());
    }
    if !shape.value_heads.is_multiple_of(shape.key_heads) {
        return Err(invalid(
            &hp.key("ssm.time_step_rank"),
            format!(
                "{} value heads do not share {} key heads evenly",
                shape.value_heads, shape.key_heads
            ),
        )
        .into());
    }
    Ok(shape)
}

/// Which layers are delta nets: `{arch}.attention.recurrent_layers` (one flag per layer),
/// else every layer but each `{arch}.full_attention_interval`-th (4 where absent), as
/// llama.cpp reads them.
pub fn recurrent_layers(file: &GgufFile, hp: &Hparams) -> Result<Vec<bool>, ModelError> {
    let key = hp.key("attention.recurrent_layers");
    if let Some(value) = file.metadata().get(&key) {
        let flags: Option<Vec<bool>> = value
            .as_array()
            .and_then(|items| items.iter().map(MetadataValue::as_bool).collect());
        return match flags {
            Some(flags) if flags.len() == hp.block_count => Ok(flags),
            _ => Err(invalid(
                &key,
                format!("not one boolean per layer ({})", hp.block_count),
            )
            .into()),
        };
    }
    let interval_key = hp.key("full_attention_interval");
    let interval = Keys::new(file.metadata())
        .optional_usize(&interval_key)?
        .unwrap_or(4);
    Keys::new(file.metadata()).positive(&interval_key, interval)?;
    Ok((0..hp.block_count)
        .map(|i| (i + 1) % interval != 0)
        .collect())
}

/// How a family's files lay out a delta net's in-projection and heads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaLayout {
    /// Qwen3.5: `attn_qkv`, `attn_gate`, `ssm_beta`, `ssm_alpha`; value heads tiled over the
    /// key heads (the converter reorders them so).
    Qwen35,
    /// Qwen3-Next: `attn_qkv` and `attn_gate`, or the same rows grouped per key head in
    /// `ssm_in` (`[q, k, v, z]` of each; older files); `ssm_ba` holding per key head its
    /// value heads' betas then their alphas; value heads grouped by key head.
    Qwen3Next,
}

/// A delta-net layer's shape and its file's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaPlan {
    pub shape: DeltaShape,
    pub layout: DeltaLayout,
}

impl DeltaPlan {
    pub fn new(mut shape: DeltaShape, layout: DeltaLayout) -> Self {
        shape.grouped_values = layout == DeltaLayout::Qwen3Next;
        Self { shape, layout }
    }

    /// Widths of the fused in-projection's parts: `q|k|v`, `z`, then beta and alpha (as
    /// one part where the file fuses them).
    pub fn projection_widths(&self) -> Vec<usize> {
        let s = &self.shape;
        match self.layout {
            DeltaLayout::Qwen35 => vec![s.conv_dim(), s.value_dim(), s.value_heads, s.value_heads],
            DeltaLayout::Qwen3Next => vec![s.conv_dim(), s.value_dim(), 2 * s.value_heads],
        }
    }

    /// Layer `layer`'s fused in-projection, its rows in the order of
    /// [`Self::projection_widths`].
    pub fn projection(
        &self,
        file: &GgufFile,
        layer: usize,
        hidden: usize,
    ) -> Result<FusedLinear, ModelError> {
        let name = |p: &str| format!("blk.{layer}.{p}.weight");
        let names: Vec<String> = match self.layout {
            DeltaLayout::Qwen35 => ["attn_qkv", "attn_gate", "ssm_beta", "ssm_alpha"]
                .map(name)
                .to_vec(),
            DeltaLayout::Qwen3Next if file.tensor(&name("ssm_in")).is_some() => {
                let qkvz = self.ungrouped_ssm_in(file, &name("ssm_in"), hidden)?;
                let ba = single(file, &name("ssm_ba"), hidden, 2 * self.shape.value_heads)?;
                let widths = self.projection_widths();
                return Ok(FusedLinear::from_parts(vec![qkvz, ba], widths));
            }
            DeltaLayout::Qwen3Next => ["attn_qkv", "attn_gate", "ssm_ba"].map(name).to_vec(),
        };
        FusedLinear::load(file, &names, hidden)
    }

    /// `ssm_in` with its rows reordered from `[q, k, v, z]` per key head to all queries, all
    /// keys, all values (still grouped by key head), then all of `z`: `attn_qkv` then
    /// `attn_gate`, as the converter now writes them.
    fn ungrouped_ssm_in(
        &self,
        file: &GgufFile,
        name: &str,
        hidden: usize,
    ) -> Result<QMatrix, ModelError> {
        let s = &self.shape;
        let n_out = 2 * s.key_dim() + 2 * s.value_dim();
        let v = tensor(file, name)?;
        let rows = matrix_shape(&v, hidden)?;
        if rows != n_out || !v.data().len().is_multiple_of(n_out) {
            return Err(ModelError::Shape(format!(
                "{name}: {rows} rows, expected {n_out}"
            )));
        }
        let (dk, group_v) = (s.head_dim, s.value_dim() / s.key_heads);
        let group = 2 * dk + 2 * group_v;
        // Each part's rows within a key head's group: offset and length.
        let parts = [
            (0, dk),
            (dk, dk),
            (2 * dk, group_v),
            (2 * dk + group_v, group_v),
        ];
        let order = parts.into_iter().flat_map(|(offset, len)| {
            (0..s.key_heads).flat_map(move |g| (0..len).map(move |r| g * group + offset + r))
        });
        let row_bytes = v.data().len() / n_out;
        let mut bytes = Vec::with_capacity(v.data().len());
        for row in order {
            bytes.extend_from_slice(&v.data()[row * row_bytes..(row + 1) * row_bytes]);
        }
        Ok(QMatrix::new(v.ggml_type(), n_out, hidden, &bytes)?)
    }

    /// Value head `h`'s beta and alpha among a row's last `2 * value_heads` projected values.
    fn beta_alpha(&self, rest: &[f32], h: usize) -> (f32, f32) {
        let heads = self.shape.value_heads;
        match self.layout {
            DeltaLayout::Qwen35 => (rest[h], rest[heads + h]),
            DeltaLayout::Qwen3Next => {
                let ratio = heads / self.shape.key_heads;
                let (g, r) = (h / ratio, h % ratio);
                (rest[2 * ratio * g + r], rest[2 * ratio * g + ratio + r])
            }
        }
    }
}

/// A delta-net layer's own weights (its projections are the layer's `qkv` and
/// `attn_output`).
pub struct DeltaNet {
    pub plan: DeltaPlan,
    /// `[conv_dim, kernel]`: each channel's taps, oldest input first.
    conv: Vec<f32>,
    /// `[value_heads]`.
    dt_bias: Vec<f32>,
    /// `[value_heads]`: `-exp(A_log)`.
    a: Vec<f32>,
    /// `[head_dim]`.
    norm: Vec<f32>,
}

/// Buffers reused across passes.
#[derive(Default)]
pub struct DeltaScratch {
    qkv: Vec<f32>,
    z: Vec<f32>,
    log_decay: Vec<f32>,
    beta: Vec<f32>,
    rule_out: Vec<f32>,
}

impl DeltaNet {
    pub fn load(file: &GgufFile, layer: usize, plan: DeltaPlan) -> Result<Self, ModelError> {
        let shape = plan.shape;
        let name = |part: &str| format!("blk.{layer}.{part}");
        let conv_name = name("ssm_conv1d.weight");
        let net = Self {
            conv: shaped_vector(file, &conv_name, &[shape.conv_kernel, shape.conv_dim()])?,
            dt_bias: vector(file, &name("ssm_dt.bias"), shape.value_heads)?,
            a: vector(file, &name("ssm_a"), shape.value_heads)?,
            norm: vector(file, &name("ssm_norm.weight"), shape.head_dim)?,
            plan,
        };
        let parts = [&net.conv, &net.dt_bias, &net.a, &net.norm].map(|p| &p[..]);
        all_finite(&parts, &format!("layer {layer}: a delta-net weight"))?;
        Ok(net)
    }

    /// The layer's mixing of `tokens` rows of its fused in-projection `proj`, into `out`
    /// (`[tokens, value_dim]`, `ssm_out`'s input); `conv_states` and `ssm_states` are the
    /// batch's requests' states, in order.
    #[allow(clippy::too_many_arguments)]
    pub fn mix(
        &self,
        proj: &[f32],
        tokens: usize,
        q_indptr: &[u32],
        conv_states: &mut [&mut [f32]],
        ssm_states: &mut [&mut [f32]],
        eps: f32,
        s: &mut DeltaScratch,
        out: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        let shape = &self.plan.shape;
        let (conv_dim, value_dim, heads) = (shape.conv_dim(), shape.value_dim(), shape.value_heads);
        let width = conv_dim + value_dim + 2 * heads;
        if proj.len() != tokens * width {
            return Err(ModelError::Batch(format!(
                "delta net: {} projected values for {tokens} tokens of {width}",
                proj.len()
            )));
        }
        s.qkv.clear();
        s.z.clear();
        s.beta.clear();
        s.log_decay.clear();
        for row in proj.chunks_exact(width) {
            let (qkv, rest) = row.split_at(conv_dim);
            let (z, rest) = rest.split_at(value_dim);
            s.qkv.extend_from_slice(qkv);
            s.z.extend_from_slice(z);
            for h in 0..heads {
                let (beta, alpha) = self.plan.beta_alpha(rest, h);
                s.beta.push(1.0 / (1.0 + (-beta).exp()));
                s.log_decay
                    .push(softplus(alpha + self.dt_bias[h]) * self.a[h]);
            }
        }
        causal_conv(
            &mut s.qkv,
            &self.conv,
            shape.conv_kernel,
            q_indptr,
            conv_states,
        )?;
        s.rule_out.resize(tokens * value_dim, 0.0);
        let gates = DeltaGates {
            log_decay: &s.log_decay,
            beta: &s.beta,
        };
        gated_delta_rule(
            shape,
            q_indptr,
            &mut s.qkv,
            gates,
            eps,
            ssm_states,
            &mut s.rule_out,
        )?;
        out.resize(tokens * value_dim, 0.0);
        rms_norm(&s.rule_out, &self.norm, eps, out)?;
        for (o, &z) in out.iter_mut().zip(&s.z) {
            *o *= z / (1.0 + (-z).exp());
        }
        Ok(())
    }
}

/// `ln(1 + e^x)`, linear past 20 as ggml computes it.
pub(super) fn softplus(x: f32) -> f32 {
    if x > 20.0 {
        x
    } else {
        (1.0 + x.exp()).ln()
    }
}
