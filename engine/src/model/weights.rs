//! Loading a decoder's weights from GGUF into kernel-ready matrices, once. Tensor names are
//! GGUF's standard ones (`blk.N.attn_q.weight`, ...), shared by every family; a family says
//! which optional parts its layers have ([`LayerPlan`]).

use super::delta_net::{DeltaNet, DeltaPlan};
use super::mamba2::{self, Mamba2};
use super::mla::{LatentAttention, MlaPlan};
use super::moe::{MoePlan, MoeWeights, ParallelMoe};
use super::per_layer::{PerLayerBlock, PerLayerEmbeddings};
use super::short_conv::ShortConv;
use super::temperature::AttentionTemperature;
use super::{ModelConfig, ModelError};
use crate::gguf::{GgufFile, TensorView};
use kernels::mamba2::Mamba2Shape;
use kernels::matmul::QMatrix;
use kernels::quant::dequantize;
use kernels::rope::Rope;

/// Several projections that read the same input, fused into one matrix (Q|K|V, gate|up) so
/// one multiplication reads the input once and keeps both cores busy.
pub struct FusedLinear {
    parts: Vec<QMatrix>,
    /// Output widths of the fused parts, in order.
    widths: Vec<usize>,
}

impl FusedLinear {
    /// One tensor whose rows are the parts, `widths` of them in order (Phi-3's `attn_qkv`
    /// and its `ffn_up`, which holds gate and up).
    pub(super) fn load_split(
        file: &GgufFile,
        name: &str,
        k_in: usize,
        widths: &[usize],
    ) -> Result<Self, ModelError> {
        let v = tensor(file, name)?;
        let n_out = matrix_shape(&v, k_in)?;
        if n_out != widths.iter().sum::<usize>() {
            return Err(ModelError::Shape(format!(
                "{name}: {n_out} rows, not the {widths:?} of its parts"
            )));
        }
        Ok(Self {
            parts: vec![QMatrix::new(v.ggml_type(), n_out, k_in, v.data())?],
            widths: widths.to_vec(),
        })
    }

    /// Matrices whose rows, in order, are the parts of `widths` (one may hold several).
    pub(super) fn from_parts(parts: Vec<QMatrix>, widths: Vec<usize>) -> Self {
        Self { parts, widths }
    }

    pub(super) fn load(file: &GgufFile, names: &[String], k_in: usize) -> Result<Self, ModelError> {
        let views = names
            .iter()
            .map(|n| tensor(file, n))
            .collect::<Result<Vec<_>, _>>()?;
        let mut widths = Vec::with_capacity(views.len());
        for v in &views {
            widths.push(matrix_shape(v, k_in)?);
        }
        let same_type = views.iter().all(|v| v.ggml_type() == views[0].ggml_type());
        let parts = if same_type {
            // Rows are independent, so concatenated tensors are one taller matrix.
            let bytes: Vec<u8> = views
                .iter()
                .flat_map(|v| v.data().iter().copied())
                .collect();
            let n_out = widths.iter().sum();
            vec![QMatrix::new(views[0].ggml_type(), n_out, k_in, &bytes)?]
        } else {
            views
                .iter()
                .zip(&widths)
                .map(|(v, &n)| QMatrix::new(v.ggml_type(), n, k_in, v.data()))
                .collect::<Result<_, _>>()?
        };
        Ok(Self { parts, widths })
    }

    pub fn n_out(&self) -> usize {
        self.widths.iter().sum()
    }

    /// Output widths of the fused parts, in order.
    pub fn widths(&self) -> &[usize] {
        &self.widths
    }

    /// Row `r` of the fused matrix, dequantized to f32 (for runners that keep their own copy).
    pub fn row(&self, r: usize, out: &mut [f32]) -> Result<(), ModelError> {
        let mut local = r;
        for part in &self.parts {
            if local < part.n_out() {
                return Ok(part.row(local, out)?);
            }
            local -= part.n_out();
        }
        Err(ModelError::Shape(format!(
            "row {r} of a {}-row matrix",
            self.n_out()
        )))
    }

    /// `out[m x n_out] = x[m x k_in] W^T`, parts side by side in each output row.
    pub fn matmul(
        &self,
        x: &[f32],
        m: usize,
        out: &mut [f32],
        tmp: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        if let [single] = self.parts.as_slice() {
            return Ok(single.matmul(x, m, out)?);
        }
        let total = self.n_out();
        let mut col = 0;
        for part in &self.parts {
            let n = part.n_out();
            tmp.resize(m * n, 0.0);
            part.matmul(x, m, tmp)?;
            for (dst, src) in out.chunks_exact_mut(total).zip(tmp.chunks_exact(n)) {
                dst[col..col + n].copy_from_slice(src);
            }
            col += n;
        }
        Ok(())
    }
}

/// What one layer of a family holds beyond pre-norm attention and a gated MLP, and how it
/// attends.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LayerPlan {
    /// Q/K/V biases (`attn_{q,k,v}.bias`: Qwen2).
    pub qkv_bias: bool,
    /// Per-head RMSNorm of Q and K before RoPE (`attn_{q,k}_norm`: Qwen3, Gemma 3).
    pub qk_norm: bool,
    /// RMSNorm of the attention and MLP outputs before each residual add
    /// (`post_attention_norm`, `post_ffw_norm`: Gemma 3).
    pub post_norms: bool,
    /// Which of the model's RoPE tables the layer uses.
    pub rope: usize,
    /// The layer rotates nothing (SmolLM3's every fourth layer: no positional encoding).
    pub no_rope: bool,
    /// Keys each query sees at most (sliding-window attention); `None`: all before it.
    pub window: Option<usize>,
    /// Q|K|V in one tensor (`attn_qkv`) and gate|up in `ffn_up` (Phi-3), not one tensor each.
    pub fused_tensors: bool,
    /// A mixture of experts instead of the dense MLP (Qwen3-MoE).
    pub moe: Option<MoePlan>,
    /// A sink logit per query head joins each attention softmax (`attn_sinks`: gpt-oss).
    pub attn_sinks: bool,
    /// A bias on the attention output projection (`attn_output.bias`: gpt-oss).
    pub attn_output_bias: bool,
    /// The norm before the MLP is stored as `post_attention_norm` (gpt-oss, after the
    /// Hugging Face name), not `ffn_norm`.
    pub mlp_norm_named_post_attention: bool,
    /// Nothing is normalized before attention and the MLP (OLMo 2: post-norms only).
    pub no_pre_norms: bool,
    /// The Q/K norms span a token's whole Q and K rows, not one head (OLMo 2).
    pub whole_qk_norm: bool,
    /// Multi-head latent attention (DeepSeek): the first projection fuses the query's and
    /// `attn_kv_a_mqa`, and the layer's own parts do the rest (see `mla`).
    pub mla: Option<MlaPlan>,
    /// Queries scaled by their position before attention (Ministral 3, Llama 4's NoPE
    /// layers).
    pub temperature: Option<AttentionTemperature>,
    /// Each query sees only the keys of its chunk of positions (Llama 4's RoPE layers).
    pub chunk: Option<usize>,
    /// Q and K RMS-normalized per head without weights (Llama 4's RoPE layers).
    pub unit_qk_norm: bool,
    /// Each query head's projection is followed by as many gate rows, and the head's
    /// attention output is multiplied by their sigmoid (Qwen3.5's attention layers).
    pub query_gate: bool,
    /// A gated delta net instead of attention (Qwen3.5's linear-attention layers).
    pub delta_net: Option<DeltaPlan>,
    /// A short convolution of this many taps instead of attention (LFM2's conv layers).
    pub short_conv: Option<usize>,
    /// A Mamba-2 layer of this shape instead of attention (Granite 4.0's hybrids).
    pub mamba2: Option<Mamba2Shape>,
    /// The GGUF block holding the layer's mixer, where it is not the layer's index
    /// (Nemotron-H, whose blocks each hold a mixer or an MLP).
    pub block: Option<usize>,
    /// The layer's MLP is this later block's, normed by that block's `attn_norm`
    /// (Nemotron-H).
    pub mlp_block: Option<usize>,
    /// The MLP is `ffn_up`, ReLU squared, `ffn_down`, without a gate (Nemotron-H).
    pub squared_relu: bool,
    /// No MLP: the layer is its mixer alone (Nemotron-H's mixers followed by another).
    pub no_mlp: bool,
    /// The layer's K/V heads and head size, where they are not the model's (Gemma 4's
    /// global layers: fewer, wider heads).
    pub heads: Option<LayerHeads>,
    /// The layer projects only queries and attends over this earlier layer's K/V (Gemma 4's
    /// last layers).
    pub kv_source: Option<usize>,
    /// No `attn_v`: the values are the key projection, normalized apart (Gemma 4's global
    /// layers).
    pub keys_as_values: bool,
    /// Values RMS-normalized per head without weights (Gemma 4).
    pub unit_v_norm: bool,
    /// The residual stream is multiplied by `layer_output_scale` at the layer's end
    /// (Gemma 4).
    pub output_scale: bool,
    /// A per-layer embedding block of this width after the MLP (Gemma 4's E2B and E4B).
    pub per_layer_input: Option<usize>,
    /// The MLP's width where it is not the model's (Gemma 4's shared-K/V layers).
    pub ffn: Option<usize>,
    /// The `moe` experts run beside the dense MLP, each normed apart (Gemma 4's 26B-A4B).
    pub parallel_experts: bool,
}

impl Mlp {
    /// What kind of MLP this is, in words.
    pub fn kind(&self) -> &'static str {
        match self {
            Mlp::Dense { .. } => "a gated MLP",
            Mlp::Experts(_) => "a mixture of experts",
            Mlp::Parallel(_) => "experts beside a dense MLP",
            Mlp::Squared { .. } => "an MLP without a gate",
            Mlp::Absent => "no MLP",
        }
    }
}

/// A layer's K/V heads and head size (its queries keep the model's head count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerHeads {
    pub num_kv_heads: usize,
    pub head_dim: usize,
}

/// A layer's MLP: one gated MLP, a mixture of experts, one without a gate, or none.
pub enum Mlp {
    Dense {
        /// `[gate (ffn) | up (ffn)]`.
        gate_up: FusedLinear,
        down: QMatrix,
    },
    Experts(Box<MoeWeights>),
    /// A dense MLP and experts side by side (Gemma 4's 26B-A4B).
    Parallel(Box<ParallelMoe>),
    /// `up`, ReLU squared, `down`: no gate (Nemotron-H).
    Squared {
        up: QMatrix,
        down: QMatrix,
    },
    /// None: the layer is its mixer alone.
    Absent,
}

pub struct LayerWeights {
    /// `None` where the family normalizes nothing before attention (and the MLP).
    pub attn_norm: Option<Vec<f32>>,
    /// Q|K|V; for latent attention, the query's first projection and `attn_kv_a_mqa`.
    pub qkv: FusedLinear,
    /// The parts of multi-head latent attention after its first projection.
    pub mla: Option<Box<LatentAttention>>,
    /// A delta net's own parts: `qkv` is then its fused in-projection and `attn_output`
    /// its `ssm_out`; the layer has no K/V.
    pub delta_net: Option<Box<DeltaNet>>,
    /// A short convolution's own parts: `qkv` is then its `in_proj` (`b|c|x`) and
    /// `attn_output` its `out_proj`; the layer has no K/V.
    pub short_conv: Option<Box<ShortConv>>,
    /// A Mamba-2 layer's own parts: `qkv` is then its `ssm_in` (`z|xBC|dt`) and
    /// `attn_output` its `ssm_out`; the layer has no K/V.
    pub mamba2: Option<Box<Mamba2>>,
    /// The GGUF blocks of the layer's mixer and, where it is another, of its MLP.
    pub blocks: (usize, Option<usize>),
    /// The query rows carry an output gate per head (see [`LayerPlan::query_gate`]).
    pub query_gate: bool,
    /// `[q_dim + 2 kv_dim]`, added to each row of the fused Q|K|V output.
    pub qkv_bias: Option<Vec<f32>>,
    /// `[head_dim]` each.
    pub q_norm: Option<Vec<f32>>,
    pub k_norm: Option<Vec<f32>>,
    pub attn_output: QMatrix,
    /// `[hidden]`, added to the attention output projection.
    pub attn_output_bias: Option<Vec<f32>>,
    /// `[num_heads]`: each head's sink logit.
    pub attn_sinks: Option<Vec<f32>>,
    pub post_attn_norm: Option<Vec<f32>>,
    pub ffn_norm: Option<Vec<f32>>,
    pub mlp: Mlp,
    pub post_ffn_norm: Option<Vec<f32>>,
    /// The RoPE table the layer uses; `None`: no rotation.
    pub rope: Option<usize>,
    pub window: Option<usize>,
    /// What each query is scaled by, from its position.
    pub temperature: Option<AttentionTemperature>,
    pub chunk: Option<usize>,
    /// The layer's K/V heads and head size.
    pub heads: LayerHeads,
    /// See [`LayerPlan::kv_source`]: `qkv` then projects queries only.
    pub kv_source: Option<usize>,
    /// See [`LayerPlan::keys_as_values`]: `qkv` projects queries and keys.
    pub keys_as_values: bool,
    /// `[head_dim]` ones: values RMS-normalized per head without weights (Gemma 4).
    pub v_norm: Option<Vec<f32>>,
    /// What the residual stream is multiplied by at the layer's end.
    pub output_scale: Option<f32>,
    pub per_layer: Option<PerLayerBlock>,
}

impl LayerWeights {
    /// Query width of the layer's heads.
    pub fn q_dim(&self, num_heads: usize) -> usize {
        num_heads * self.heads.head_dim
    }

    /// K (or V) width of the layer's heads.
    pub fn kv_dim(&self) -> usize {
        self.heads.num_kv_heads * self.heads.head_dim
    }

    /// Whether the layer has a K/V layer of its own in the pool (not a delta net or short
    /// convolution, nor a layer reading an earlier one's).
    pub fn owns_kv(&self) -> bool {
        !self.is_recurrent() && self.kv_source.is_none()
    }

    /// Whether the layer carries a state per request instead of attending (a delta net, a
    /// short convolution or a Mamba-2 layer).
    pub fn is_recurrent(&self) -> bool {
        self.delta_net.is_some() || self.short_conv.is_some() || self.mamba2.is_some()
    }

    /// Whether the layer has parts only the CPU runner computes (Gemma 4's).
    pub fn has_cpu_only_parts(&self) -> bool {
        self.kv_source.is_some()
            || self.keys_as_values
            || self.v_norm.is_some()
            || self.output_scale.is_some()
            || self.per_layer.is_some()
    }

    /// Layer `i` of `file` as `plan` describes it.
    pub fn load(
        file: &GgufFile,
        i: usize,
        config: &ModelConfig,
        plan: LayerPlan,
    ) -> Result<Self, ModelError> {
        let i = plan.block.unwrap_or(i);
        let name = |s: &str| format!("blk.{i}.{s}.weight");
        let hidden = config.hidden;
        let heads = plan.heads.unwrap_or(LayerHeads {
            num_kv_heads: config.num_kv_heads,
            head_dim: config.head_dim,
        });
        let d = heads.head_dim;
        let (q_dim, kv_dim) = (config.num_heads * d, heads.num_kv_heads * d);
        let ffn = plan.ffn.unwrap_or(config.ffn);
        let optional = |on: bool, part: &str, len: usize| -> Result<Option<Vec<f32>>, ModelError> {
            on.then(|| vector(file, &name(part), len)).transpose()
        };
        let q_width = if plan.query_gate { 2 * q_dim } else { q_dim };
        let qkv_bias = if plan.qkv_bias {
            let bias = |part: &str, len| vector(file, &format!("blk.{i}.{part}.bias"), len);
            let mut b = bias("attn_q", q_width)?;
            b.extend(bias("attn_k", kv_dim)?);
            b.extend(bias("attn_v", kv_dim)?);
            Some(b)
        } else {
            None
        };
        let qkv = if let Some(shape) = &plan.mamba2 {
            mamba2::projection(file, i, hidden, shape)?
        } else if plan.short_conv.is_some() {
            FusedLinear::load_split(file, &name("shortconv.in_proj"), hidden, &[hidden; 3])?
        } else if let Some(delta) = &plan.delta_net {
            delta.projection(file, i, hidden)?
        } else if let Some(mla) = &plan.mla {
            FusedLinear::load(file, &mla.first_tensors(i), hidden)?
        } else if plan.fused_tensors {
            FusedLinear::load_split(file, &name("attn_qkv"), hidden, &[q_width, kv_dim, kv_dim])?
        } else if plan.kv_source.is_some() {
            FusedLinear::load(file, &[name("attn_q")], hidden)?
        } else if plan.keys_as_values {
            FusedLinear::load(file, &[name("attn_q"), name("attn_k")], hidden)?
        } else {
            FusedLinear::load(
                file,
                &[name("attn_q"), name("attn_k"), name("attn_v")],
                hidden,
            )?
        };
        let m = plan.mlp_block.unwrap_or(i);
        let mlp_name = |s: &str| format!("blk.{m}.{s}.weight");
        let mlp = match plan.moe {
            _ if plan.no_mlp => Mlp::Absent,
            Some(moe) if plan.parallel_experts => {
                Mlp::Parallel(Box::new(ParallelMoe::load(file, m, hidden, ffn, moe)?))
            }
            Some(moe) => Mlp::Experts(Box::new(MoeWeights::load(file, m, hidden, moe)?)),
            None if plan.squared_relu => Mlp::Squared {
                up: single(file, &mlp_name("ffn_up"), hidden, ffn)?,
                down: single(file, &mlp_name("ffn_down"), ffn, hidden)?,
            },
            None => {
                let gate_up = if plan.fused_tensors {
                    FusedLinear::load_split(file, &mlp_name("ffn_up"), hidden, &[ffn; 2])?
                } else {
                    FusedLinear::load(file, &[mlp_name("ffn_gate"), mlp_name("ffn_up")], hidden)?
                };
                if gate_up.widths != [ffn; 2] {
                    return Err(ModelError::Shape(format!(
                        "layer {i}: gate and up sizes do not match"
                    )));
                }
                Mlp::Dense {
                    gate_up,
                    down: single(file, &mlp_name("ffn_down"), ffn, hidden)?,
                }
            }
        };
        let mlp_norm = match (plan.mlp_block, plan.mlp_norm_named_post_attention) {
            (Some(_), _) => "attn_norm",
            (None, true) => "post_attention_norm",
            (None, false) => "ffn_norm",
        };
        let ffn_norm = (!plan.no_pre_norms && !plan.no_mlp)
            .then(|| vector(file, &mlp_name(mlp_norm), hidden))
            .transpose()?;
        let (q_norm_len, k_norm_len) = match plan.whole_qk_norm {
            true => (q_dim, kv_dim),
            false => (d, d),
        };
        // What attention gives `attn_output`: every query head's row, or with latent
        // attention every head's value output.
        let attn_out_in = match (&plan.delta_net, &plan.mla) {
            _ if plan.short_conv.is_some() => hidden,
            _ if plan.mamba2.is_some() => plan.mamba2.map_or(0, |m| m.inner()),
            (Some(delta), _) => delta.shape.value_dim(),
            (None, Some(mla)) => config.num_heads * mla.v_dim,
            (None, None) => q_dim,
        };
        let attn_output = match (plan.delta_net, plan.short_conv) {
            _ if plan.mamba2.is_some() => single(file, &name("ssm_out"), attn_out_in, hidden)?,
            (_, Some(_)) => single(file, &name("shortconv.out_proj"), attn_out_in, hidden)?,
            (Some(_), None) => single(file, &name("ssm_out"), attn_out_in, hidden)?,
            (None, None) => single(file, &name("attn_output"), attn_out_in, hidden)?,
        };
        let short_conv = match plan.short_conv {
            Some(kernel) => Some(Box::new(ShortConv::load(file, i, hidden, kernel)?)),
            None => None,
        };
        let mamba2 = match plan.mamba2 {
            Some(shape) => Some(Box::new(Mamba2::load(file, i, shape)?)),
            None => None,
        };
        let delta_net = match plan.delta_net {
            Some(delta) => Some(Box::new(DeltaNet::load(file, i, delta)?)),
            None => None,
        };
        let mla = match plan.mla {
            Some(mla) => Some(Box::new(LatentAttention::load(file, i, config, mla)?)),
            None => None,
        };
        let layer = Self {
            attn_norm: optional(!plan.no_pre_norms, "attn_norm", hidden)?,
            qkv,
            mla,
            delta_net,
            short_conv,
            mamba2,
            blocks: (i, plan.mlp_block),
            query_gate: plan.query_gate,
            qkv_bias,
            // Without weights, a norm of ones (Llama 4's RMS norm before attention).
            q_norm: match plan.unit_qk_norm {
                true => Some(vec![1.0; d]),
                false => optional(plan.qk_norm, "attn_q_norm", q_norm_len)?,
            },
            k_norm: match plan.unit_qk_norm {
                true => Some(vec![1.0; d]),
                false => optional(
                    plan.qk_norm && plan.kv_source.is_none(),
                    "attn_k_norm",
                    k_norm_len,
                )?,
            },
            attn_output,
            attn_output_bias: plan
                .attn_output_bias
                .then(|| vector(file, &format!("blk.{i}.attn_output.bias"), hidden))
                .transpose()?,
            attn_sinks: optional(plan.attn_sinks, "attn_sinks", config.num_heads)?,
            post_attn_norm: optional(plan.post_norms, "post_attention_norm", hidden)?,
            ffn_norm,
            mlp,
            post_ffn_norm: optional(plan.post_norms, "post_ffw_norm", hidden)?,
            rope: (!plan.no_rope).then_some(plan.rope),
            window: plan.window,
            temperature: plan.temperature,
            chunk: plan.chunk,
            heads,
            kv_source: plan.kv_source,
            keys_as_values: plan.keys_as_values,
            v_norm: plan.unit_v_norm.then(|| vec![1.0; d]),
            output_scale: match plan.output_scale {
                true => Some(output_scale(file, i)?),
                false => None,
            },
            per_layer: match plan.per_layer_input {
                Some(width) => Some(PerLayerBlock::load(file, i, hidden, width)?),
                None => None,
            },
        };
        // A sink that is not finite would fail every request's attention: refused here.
        if layer.attn_sinks.iter().flatten().any(|s| !s.is_finite()) {
            return Err(ModelError::Shape(format!(
                "blk.{i}.attn_sinks.weight holds a value that is not finite"
            )));
        }
        let widths = match (&plan.delta_net, &plan.mla) {
            _ if plan.short_conv.is_some() => vec![hidden; 3],
            _ if plan.mamba2.is_some() => (plan.mamba2.iter())
                .flat_map(mamba2::projection_widths)
                .collect(),
            (Some(delta), _) => delta.projection_widths(),
            (None, Some(mla)) => mla.first_widths(config.num_heads).to_vec(),
            (None, None) if plan.kv_source.is_some() => vec![q_width],
            (None, None) if plan.keys_as_values => vec![q_width, kv_dim],
            (None, None) => vec![q_width, kv_dim, kv_dim],
        };
        if layer.qkv.widths != widths {
            return Err(ModelError::Shape(format!(
                "layer {i}: projection sizes {:?}, expected {widths:?}",
                layer.qkv.widths
            )));
        }
        Ok(layer)
    }
}

pub struct Weights {
    pub config: ModelConfig,
    pub token_embd: QMatrix,
    pub layers: Vec<LayerWeights>,
    pub output_norm: Vec<f32>,
    /// `None` when the output head is tied to the token embedding.
    pub output: Option<QMatrix>,
    /// The RoPE tables the layers use (one, or a local and a global one).
    pub ropes: Vec<Rope>,
    /// Gemma 4's per-layer embeddings, where the model has them.
    pub per_layer: Option<PerLayerEmbeddings>,
}

impl Weights {
    /// Embedding, layers planned by `plan(i)`, final norm and output head.
    pub fn load(
        file: &GgufFile,
        config: ModelConfig,
        ropes: Vec<Rope>,
        plan: impl Fn(usize) -> LayerPlan,
    ) -> Result<Self, ModelError> {
        Self::load_with_output_norm(file, config, ropes, "output_norm.weight", plan)
    }

    /// [`Self::load`] for a file whose final norm is the tensor `output_norm` (LFM2 names
    /// it `token_embd_norm.weight`).
    pub fn load_with_output_norm(
        file: &GgufFile,
        config: ModelConfig,
        ropes: Vec<Rope>,
        output_norm: &str,
        plan: impl Fn(usize) -> LayerPlan,
    ) -> Result<Self, ModelError> {
        config.validate()?;
        let hidden = config.hidden;
        let token_embd = {
            let v = tensor(file, "token_embd.weight")?;
            let rows = matrix_shape(&v, hidden)?;
            QMatrix::new(v.ggml_type(), rows, hidden, v.data())?
        };
        let mut layers = Vec::with_capacity(config.num_layers);
        for i in 0..config.num_layers {
            let p = plan(i);
            if p.rope >= ropes.len() || p.window == Some(0) || p.chunk == Some(0) {
                return Err(ModelError::Shape(format!(
                    "layer {i}: RoPE table {} of {}, window {:?}, chunk {:?}",
                    p.rope,
                    ropes.len(),
                    p.window,
                    p.chunk
                )));
            }
            layers.push(LayerWeights::load(file, i, &config, p)?);
        }
        // One logit per token of the embedding's vocabulary: a head of any other height would
        // fail every request on the CPU and be read as a prefix on the GPU.
        let output = match file.tensor("output.weight") {
            Some(_) => Some(single(file, "output.weight", hidden, config.vocab_size)?),
            None => None,
        };
        Ok(Self {
            output_norm: vector(file, output_norm, hidden)?,
            config,
            token_embd,
            layers,
            output,
            ropes,
            per_layer: None,
        })
    }

    /// The output head (`output.weight`, or the tied embedding).
    pub fn output_head(&self) -> &QMatrix {
        self.output.as_ref().unwrap_or(&self.token_embd)
    }
}

/// `blk.{i}.layer_output_scale.weight`: one finite number.
fn output_scale(file: &GgufFile, i: usize) -> Result<f32, ModelError> {
    let name = format!("blk.{i}.layer_output_scale.weight");
    match vector(file, &name, 1)?.as_slice() {
        [scale] if scale.is_finite() => Ok(*scale),
        other => Err(ModelError::Shape(format!(
            "{name}: {other:?} is not one finite number"
        ))),
    }
}

pub(super) fn tensor<'a>(file: &'a GgufFile, name: &str) -> Result<TensorView<'a>, ModelError> {
    file.tensor(name)
        .ok_or_else(|| ModelError::MissingTensor(name.to_string()))
}

/// Output rows of a 2-D tensor whose rows hold `k_in` values.
pub(super) fn matrix_shape(v: &TensorView<'_>, k_in: usize) -> Result<usize, ModelError> {
    match v.dims() {
        [k, n] if *k as usize == k_in => Ok(*n as usize),
        dims => Err(ModelError::Shape(format!(
            "{}: dims {dims:?}, expected [{k_in}, n]",
            v.name()
        ))),
    }
}

pub(super) fn single(
    file: &GgufFile,
    name: &str,
    k_in: usize,
    n_out: usize,
) -> Result<QMatrix, ModelError> {
    let v = tensor(file, name)?;
    let n = matrix_shape(&v, k_in)?;
    if n != n_out {
        return Err(ModelError::Shape(format!(
            "{name}: {n} outputs, expected {n_out}"
        )));
    }
    Ok(QMatrix::new(v.ggml_type(), n, k_in, v.data())?)
}

pub(super) fn vector(file: &GgufFile, name: &str, len: usize) -> Result<Vec<f32>, ModelError> {
    let v = tensor(file, name)?;
    if v.n_elements() != len as u64 {
        return Err(ModelError::Shape(format!(
            "{name}: {} values, expected {len}",
            v.n_elements()
        )));
    }
    let mut out = vec![0.0; len];
    dequantize(v.ggml_type(), v.data(), &mut out)?;
    Ok(out)
}

/// Refuses a `family` file holding a bias of one of `parts` (`blk.{i}.{part}.bias`) in any of
/// its `blocks`: biases the family's loader does not apply.
pub(super) fn refuse_biases(
    file: &GgufFile,
    blocks: usize,
    parts: &[&str],
    family: &str,
) -> Result<(), ModelError> {
    let biased = (0..blocks)
        .flat_map(|i| parts.iter().map(move |part| format!("blk.{i}.{part}.bias")))
        .find(|name| file.tensor(name).is_some());
    match biased {
        Some(name) => Err(ModelError::Unsupported(format!(
            "a projection bias ({name}) in a {family} model"
        ))),
        None => Ok(()),
    }
}

/// Tensor `name` as f32 values, after checking its GGUF dims are `dims` (trailing dims of 1
/// aside, as llama.cpp's loader compares them).
pub(super) fn shaped_vector(
    file: &GgufFile,
    name: &str,
    dims: &[usize],
) -> Result<Vec<f32>, ModelError> {
    let want: Vec<u64> = dims.iter().map(|&d| d as u64).collect();
    let trim = |d: &[u64]| d.len() - d.iter().rev().take_while(|&&n| n == 1).count();
    let v = tensor(file, name)?;
    if v.dims()[..trim(v.dims())] != want[..trim(&want)] {
        return Err(ModelError::Shape(format!(
            "{name}: dims {:?}, expected {want:?}",
            v.dims()
        )));
    }
    vector(file, name, dims.iter().product())
}

/// The tensor's bytes, after checking its GGUF dims are `dims`.
pub(super) fn checked<'a>(v: &TensorView<'a>, dims: &[usize]) -> Result<&'a [u8], ModelError> {
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
