//! Mamba-2 layers as llama.cpp's `build_mamba2_layer` runs them (Granite 4.0's hybrids): the
//! layer's input projected (`ssm_in`) to a gate `z` (`inner`), the convolved channels `xBC`
//! (`x` of every head, then `B` and `C` of every group) and a step `dt` per head; `xBC`
//! through a causal convolution (`ssm_conv1d`, with its bias) and SiLU; the selective scan
//! (`kernels::mamba2`) with step `softplus(dt + ssm_dt.bias)`, decay rate `ssm_a` (holding
//! `-exp(A_log)`) and skip weight `ssm_d`; its output times `silu(z)`, RMS-normalized in
//! `groups` contiguous pieces with `ssm_norm`; then `ssm_out`, which the decoder runs as the
//! layer's output projection. The state the layer carries per request lives in
//! [`super::recurrent::RecurrentStates`].

use super::delta_net::softplus;
use super::hparams::Hparams;
use super::recurrent::{all_finite, required_size, StateShape};
use super::weights::{shaped_vector, vector, FusedLinear};
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::delta_net::causal_conv_biased;
use kernels::mamba2::{ssm_scan, Mamba2Shape, ScanInputs};
use kernels::norm::rms_norm;

/// Far above any real model's, so a hostile file's sizes are refused before allocation.
const MAX_CONV_KERNEL: usize = 64;
const MAX_HEADS: usize = 1 << 12;
const MAX_STATE: usize = 1 << 12;
/// Channels of `x` (Granite 4.0-H-Small's are 8,192).
const MAX_INNER: usize = 1 << 16;

/// The shape the file's `{arch}.ssm.*` keys give every Mamba-2 layer: `time_step_rank`
/// heads (llama.cpp's name for them), `inner_size` channels split evenly among them.
pub fn declared_shape(file: &GgufFile, hp: &Hparams) -> Result<Mamba2Shape, ModelError> {
    let keys = Keys::new(file.metadata());
    let read = |name: &str, max: usize| required_size(&keys, &hp.key(name), max);
    let conv_kernel = read("ssm.conv_kernel", MAX_CONV_KERNEL)?;
    let state = read("ssm.state_size", MAX_STATE)?;
    let groups = read("ssm.group_count", MAX_HEADS)?;
    let heads = read("ssm.time_step_rank", MAX_HEADS)?;
    let inner = read("ssm.inner_size", MAX_INNER)?;
    if !inner.is_multiple_of(heads) {
        return Err(invalid(
            &hp.key("ssm.inner_size"),
            format!("{inner} channels do not split evenly among {heads} heads"),
        )
        .into());
    }
    let shape = Mamba2Shape {
        heads,
        head_dim: inner / heads,
        groups,
        state,
        conv_kernel,
    };
    // The state is the last `kernel - 1` inputs: a kernel of one tap would keep none.
    if conv_kernel < 2 {
        let key = hp.key("ssm.conv_kernel");
        return Err(invalid(&key, format!("{conv_kernel} tap, not at least 2")).into());
    }
    if !heads.is_multiple_of(groups) {
        return Err(invalid(
            &hp.key("ssm.group_count"),
            format!("{groups} groups do not share {heads} heads evenly"),
        )
        .into());
    }
    Ok(shape)
}

/// Widths of the in-projection's parts: `z`, `xBC`, `dt`.
pub fn projection_widths(shape: &Mamba2Shape) -> [usize; 3] {
    [shape.inner(), shape.conv_dim(), shape.heads]
}

/// Layer `layer`'s in-projection (`ssm_in`), split as [`projection_widths`].
pub fn projection(
    file: &GgufFile,
    layer: usize,
    hidden: usize,
    shape: &Mamba2Shape,
) -> Result<FusedLinear, ModelError> {
    let name = format!("blk.{layer}.ssm_in.weight");
    FusedLinear::load_split(file, &name, hidden, &projection_widths(shape))
}

pub fn state_shape(shape: &Mamba2Shape) -> StateShape {
    StateShape {
        conv: shape.conv_state_len(),
        ssm: shape.ssm_state_len(),
    }
}

/// A Mamba-2 layer's own weights (its projections are the layer's `qkv` and `attn_output`).
pub struct Mamba2 {
    pub shape: Mamba2Shape,
    /// `[conv_dim, kernel]`: each channel's taps, oldest input first.
    conv: Vec<f32>,
    /// `[conv_dim]`; zeros where the file has none.
    conv_bias: Vec<f32>,
    /// `[heads]`.
    dt_bias: Vec<f32>,
    /// `[heads]`: `-exp(A_log)`.
    a: Vec<f32>,
    /// `[heads]`.
    d: Vec<f32>,
    /// `[inner]`: the grouped norm's weights, group after group.
    norm: Vec<f32>,
}

/// Buffers reused across passes.
#[derive(Default)]
pub struct Mamba2Scratch {
    xbc: Vec<f32>,
    z: Vec<f32>,
    dt: Vec<f32>,
    scan_out: Vec<f32>,
}

impl Mamba2 {
    pub fn load(file: &GgufFile, layer: usize, shape: Mamba2Shape) -> Result<Self, ModelError> {
        let name = |part: &str| format!("blk.{layer}.{part}");
        let conv_name = name("ssm_conv1d.weight");
        let norm_dims = [shape.inner() / shape.groups, shape.groups];
        let bias_name = name("ssm_conv1d.bias");
        let conv_bias = match file.tensor(&bias_name) {
            Some(_) => vector(file, &bias_name, shape.conv_dim())?,
            None => vec![0.0; shape.conv_dim()],
        };
        let layer_weights = Self {
            conv: shaped_vector(file, &conv_name, &[shape.conv_kernel, shape.conv_dim()])?,
            conv_bias,
            dt_bias: shaped_vector(file, &name("ssm_dt.bias"), &[shape.heads])?,
            a: shaped_vector(file, &name("ssm_a"), &[1, shape.heads])?,
            d: shaped_vector(file, &name("ssm_d"), &[1, shape.heads])?,
            // `[inner / groups, groups]`: a file whose keys split the same channels into
            // other groups would otherwise load and compute something else.
            norm: shaped_vector(file, &name("ssm_norm.weight"), &norm_dims)?,
            shape,
        };
        let w = &layer_weights;
        let parts = [&w.conv, &w.conv_bias, &w.dt_bias, &w.a, &w.d, &w.norm].map(|p| &p[..]);
        all_finite(&parts, &format!("layer {layer}: a Mamba-2 weight"))?;
        Ok(layer_weights)
    }

    /// The layer's mixing of `tokens` rows of its in-projection `proj` into `out`
    /// (`[tokens, inner]`, `ssm_out`'s input); `conv_states` and `ssm_states` are the batch's
    /// requests' states, in order.
    #[allow(clippy::too_many_arguments)]
    pub fn mix(
        &self,
        proj: &[f32],
        tokens: usize,
        q_indptr: &[u32],
        conv_states: &mut [&mut [f32]],
        ssm_states: &mut [&mut [f32]],
        eps: f32,
        s: &mut Mamba2Scratch,
        out: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        let shape = &self.shape;
        let (inner, conv_dim, heads) = (shape.inner(), shape.conv_dim(), shape.heads);
        let width = inner + conv_dim + heads;
        if proj.len() != tokens * width {
            return Err(ModelError::Batch(format!(
                "Mamba-2: {} projected values for {tokens} tokens of {width}",
                proj.len()
            )));
        }
        s.xbc.clear();
        s.z.clear();
        s.dt.clear();
        for row in proj.chunks_exact(width) {
            let (z, rest) = row.split_at(inner);
            let (xbc, dt) = rest.split_at(conv_dim);
            s.z.extend_from_slice(z);
            s.xbc.extend_from_slice(xbc);
            s.dt.extend(dt.iter().zip(&self.dt_bias).map(|(dt, b)| softplus(dt + b)));
        }
        let kernel = shape.conv_kernel;
        causal_conv_biased(
            &mut s.xbc,
            &self.conv,
            &self.conv_bias,
            kernel,
            q_indptr,
            conv_states,
        )?;
        s.scan_out.resize(tokens * inner, 0.0);
        let inputs = ScanInputs {
            dt: &s.dt,
            a: &self.a,
            d: &self.d,
        };
        ssm_scan(shape, q_indptr, &s.xbc, inputs, ssm_states, &mut s.scan_out)?;
        for (y, &z) in s.scan_out.iter_mut().zip(&s.z) {
            *y *= z / (1.0 + (-z).exp());
        }
        out.resize(tokens * inner, 0.0);
        let piece = inner / shape.groups;
        for (row_in, row_out) in s
            .scan_out
            .chunks_exact(inner)
            .zip(out.chunks_exact_mut(inner))
        {
            for ((y, o), w) in row_in
                .chunks_exact(piece)
                .zip(row_out.chunks_exact_mut(piece))
                .zip(self.norm.chunks_exact(piece))
            {
                rms_norm(y, w, eps, o)?;
            }
        }
        Ok(())
    }
}
