//! The decoder pass every family runs: embeddings (scaled where the family says), then per
//! layer RMSNorm -> fused QKV (+ bias) -> per-head Q/K norm -> RoPE (unless the layer has
//! none) -> K/V written to the pool at `out_cache_loc` -> paged attention through
//! `kv_indices` (windowed on sliding layers, scores soft-capped where the family says) ->
//! output projection (-> post-norm) -> residual, RMSNorm -> fused gate/up -> SiLU or GELU
//! times up -> down, or a mixture of experts (-> post-norm) -> residual, and the output head
//! (scaled and soft-capped where declared) on the requested rows; rows wanted for embeddings
//! stop at the output norm, and rows that score a prompt token are reduced to its
//! log-probability block by block. Which of the optional steps run is the family's choice,
//! made when it loads ([`super::LayerPlan`], [`ModelConfig`]).

use super::delta_net::DeltaScratch;
use super::lora::{adapter_segments, LoraAdapter, Target};
use super::mamba2::{self, Mamba2Scratch};
use super::mla::MlaScratch;
use super::moe::{MoeScratch, ParallelScratch};
use super::per_layer::PerLayerScratch;
use super::recurrent::{RecurrentStates, StateShape};
use super::weights::Mlp;
use super::{Activation, ForwardBatch, ModelConfig, ModelError, Weights};
use crate::gguf::GgufFile;
use crate::sampling::SampleOutput;
use kernels::activation::{gelu_mul, silu_mul, squared_relu};
use kernels::attention::{paged_attention_with_sinks, AttentionShape, PagedBatch, ScoreRules};
use kernels::norm::rms_norm;
use kernels::rope::RopeAngles;
use pools::{KvDtype, KvLayout, KvStorage, OtherRows};
use rayon::prelude::*;
use std::path::Path;

/// Score rows whose logits are computed at once: the head's matrix work stays batched
/// while the vocabulary-wide rows held stay small.
const SCORE_BLOCK: usize = 32;

/// Activation buffers reused across steps (sized to the largest batch seen).
#[derive(Default)]
struct Scratch {
    x: Vec<f32>,
    normed: Vec<f32>,
    qkv: Vec<f32>,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    attn: Vec<f32>,
    proj: Vec<f32>,
    gate_up: Vec<f32>,
    act: Vec<f32>,
    selected: Vec<f32>,
    logits: Vec<f32>,
    /// The last pass's final hidden states of its `hidden_rows`.
    hidden: Vec<f32>,
    /// The last pass's scores of its `score_rows`.
    scores: Vec<SampleOutput>,
    /// Normed rows and logits of one block of score rows.
    score_normed: Vec<f32>,
    score_logits: Vec<f32>,
    tmp: Vec<f32>,
    /// RoPE angles of the batch's positions per RoPE table, shared by the layers using it.
    angles: Vec<RopeAngles>,
    moe: MoeScratch,
    mla: MlaScratch,
    /// Latent attention's per-head value outputs.
    head_values: Vec<f32>,
    /// Each query head's output gate (Qwen3.5's attention layers).
    gate: Vec<f32>,
    delta: DeltaScratch,
    mamba2: Mamba2Scratch,
    /// Gemma 4's per-layer inputs of the batch's tokens, `[tokens, layers, width]`.
    per_layer_inputs: Vec<f32>,
    per_layer: PerLayerScratch,
    parallel: ParallelScratch,
}

/// A loaded model ready to run batches.
pub struct Model {
    weights: Weights,
    /// LoRA adapters a batch's requests may name, by number (`None`: unloaded; numbers are
    /// never reused, so a request can never run another adapter than it named).
    adapters: Vec<Option<LoraAdapter>>,
    /// Each layer's K/V layer in the pool; `None` for a recurrent layer (a delta net or a short
    /// convolution), which keeps a state per request instead.
    kv_layers: Vec<Option<usize>>,
    recurrent: RecurrentStates,
    scratch: Scratch,
}

/// The step's runs of rows per adapter, and the adapters: what [`Adapted::apply`] needs to
/// update a projection's output.
struct Adapted<'a> {
    adapters: &'a [Option<LoraAdapter>],
    segments: Vec<(u32, std::ops::Range<usize>)>,
}

impl Adapted<'_> {
    /// Adds each segment's adapter update of `layer`'s `target` to its rows of `out`
    /// (`[rows, out.len() / rows]`) from their rows of `x` (`[rows, n_in]`).
    fn apply(&self, layer: usize, target: Target, x: &[f32], n_in: usize, out: &mut [f32]) {
        let rows = x.len() / n_in.max(1);
        let width = out.len() / rows.max(1);
        for (adapter, range) in &self.segments {
            if let Some(Some(adapter)) = self.adapters.get(*adapter as usize) {
                adapter.apply(
                    layer,
                    target,
                    &x[range.start * n_in..range.end * n_in],
                    &mut out[range.start * width..range.end * width],
                    width,
                );
            }
        }
    }
}

impl Model {
    pub fn load(path: &Path) -> Result<Self, ModelError> {
        let file = GgufFile::open(path)?;
        Self::from_gguf(&file)
    }

    /// Loads whichever supported family the file's `general.architecture` names, to serve
    /// its whole context.
    pub fn from_gguf(file: &GgufFile) -> Result<Self, ModelError> {
        Self::from_gguf_with(file, &super::LoadOptions::default())
    }

    /// [`Self::from_gguf`] for what `options` say will be served.
    pub fn from_gguf_with(
        file: &GgufFile,
        options: &super::LoadOptions,
    ) -> Result<Self, ModelError> {
        Ok(Self::from_weights(super::load::load_weights(
            file, options,
        )?))
    }

    pub fn from_weights(weights: Weights) -> Self {
        // A recurrent layer has no K/V; a layer attending over an earlier one's reads its pool
        // layer.
        let mut kv_layers: Vec<Option<usize>> = Vec::with_capacity(weights.layers.len());
        let mut pool_layers = 0;
        for l in &weights.layers {
            let pool_layer = match (l.is_recurrent(), l.kv_source) {
                (true, _) => None,
                (false, Some(source)) => kv_layers.get(source).copied().flatten(),
                (false, None) => {
                    pool_layers += 1;
                    Some(pool_layers - 1)
                }
            };
            kv_layers.push(pool_layer);
        }
        let shapes = (weights.layers.iter())
            .filter_map(|l| match (&l.delta_net, &l.short_conv, &l.mamba2) {
                (Some(delta), _, _) => Some(StateShape::delta(&delta.plan.shape)),
                (None, Some(conv), _) => Some(conv.state_shape()),
                (None, None, Some(m)) => Some(mamba2::state_shape(&m.shape)),
                (None, None, None) => None,
            })
            .collect();
        Self {
            weights,
            adapters: Vec::new(),
            kv_layers,
            recurrent: RecurrentStates::new(shapes),
            scratch: Scratch::default(),
        }
    }

    /// Bytes of recurrent state one request holds (0 for a model of attention alone).
    pub fn recurrent_state_bytes(&self) -> usize {
        self.recurrent.bytes_per_request()
    }

    /// The per-row recurrent states and their snapshots.
    pub(super) fn recurrent_mut(&mut self) -> &mut RecurrentStates {
        &mut self.recurrent
    }

    /// LoRA adapter numbers given out so far (loaded or since unloaded).
    pub fn adapters(&self) -> usize {
        self.adapters.len()
    }

    /// Unloads adapter `id`; its number is not given out again.
    pub fn remove_adapter(&mut self, id: u32) -> Result<(), ModelError> {
        match self.adapters.get_mut(id as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                Ok(())
            }
            _ => Err(ModelError::Adapter(format!(
                "no LoRA adapter {id} is loaded"
            ))),
        }
    }

    /// Adds `adapter` under the next index; refused where it updates the MLP of a layer
    /// with a mixture of experts, or the attention of a latent attention layer.
    pub fn add_adapter(&mut self, adapter: LoraAdapter) -> Result<u32, ModelError> {
        for (i, layer) in self.weights.layers.iter().enumerate() {
            // An adapter names GGUF blocks: it cannot be read for layers spread over several.
            if layer.blocks != (i, None) {
                return Err(ModelError::Adapter(format!(
                    "the model's layer {i} is GGUF blocks {:?} (a mixer and an MLP apart)",
                    layer.blocks
                )));
            }
            let mlp = adapter.updates(i, Target::GateUp) || adapter.updates(i, Target::Down);
            let attention =
                adapter.updates(i, Target::Qkv) || adapter.updates(i, Target::AttnOutput);
            let own_shape = layer.heads.head_dim != self.weights.config.head_dim
                || layer.heads.num_kv_heads != self.weights.config.num_kv_heads;
            if attention && (own_shape || layer.kv_source.is_some() || layer.keys_as_values) {
                return Err(ModelError::Adapter(format!(
                    "it updates the attention of layer {i}, whose heads are its own or read \
                     another layer's K/V"
                )));
            }
            let own_width = matches!(&layer.mlp, Mlp::Dense { down, .. } if down.k_in() != self.weights.config.ffn);
            if mlp && own_width {
                return Err(ModelError::Adapter(format!(
                    "it updates the MLP of layer {i}, wider than the model's"
                )));
            }
            if attention && (layer.is_recurrent() || layer.query_gate) {
                return Err(ModelError::Adapter(format!(
                    "it updates the attention of layer {i}, a delta net, short convolution, \
                     Mamba-2 layer or gated attention"
                )));
            }
            if mlp && matches!(layer.mlp, Mlp::Experts(_) | Mlp::Parallel(_)) {
                return Err(ModelError::Adapter(format!(
                    "it updates the MLP of layer {i}, a mixture of experts"
                )));
            }
            let attention =
                adapter.updates(i, Target::Qkv) || adapter.updates(i, Target::AttnOutput);
            if attention && layer.mla.is_some() {
                return Err(ModelError::Adapter(format!(
                    "it updates the attention of layer {i}, a latent attention layer"
                )));
            }
        }
        let index = u32::try_from(self.adapters.len())
            .map_err(|_| ModelError::Adapter("too many adapters".into()))?;
        self.adapters.push(Some(adapter));
        Ok(index)
    }

    pub fn config(&self) -> &ModelConfig {
        &self.weights.config
    }

    /// The K/V layout this model needs from the pool.
    pub fn kv_layout(&self, dtype: KvDtype) -> KvLayout {
        let c = &self.weights.config;
        // The layers that own a pool layer, in its order, and those of another row width
        // (the family's loader keeps them to one width and the first 128 pool layers).
        let owners = self.weights.layers.iter().filter(|l| l.owns_kv());
        let (mut num_layers, mut other, mut other_row) = (0, Vec::new(), 0);
        for (pool_layer, l) in owners.enumerate() {
            num_layers += 1;
            if l.kv_dim() != c.kv_dim() {
                other.push(pool_layer);
                other_row = l.kv_dim();
            }
        }
        KvLayout {
            num_layers,
            num_kv_heads: c.num_kv_heads,
            head_dim: c.head_dim,
            dtype,
            values_in_keys: c.values_in_keys,
            other_rows: match other.is_empty() {
                true => None,
                false => OtherRows::new(other, other_row),
            },
        }
    }

    /// Runs `batch`, writing its tokens' K/V into `kv`, and returns the logits of
    /// `batch.logits_rows` (`[rows, vocab]`).
    pub fn forward(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut KvStorage,
    ) -> Result<&[f32], ModelError> {
        self.validate(batch, kv)?;
        self.recurrent.begin(batch)?;
        // The whole pass runs on a pool thread: each of its ~120 parallel operations then
        // splits among threads that are already awake, instead of parking the caller on a
        // condition variable and waking it again around every operation.
        rayon::scope(|_| self.run(batch, kv))?;
        self.recurrent.finish(batch);
        Ok(&self.scratch.logits)
    }

    fn run(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<(), ModelError> {
        let w = &self.weights;
        let c = &w.config;
        let s = &mut self.scratch;
        let recurrent = &mut self.recurrent;
        let kv_layers = &self.kv_layers;
        let mut recurrent_layer = 0;
        let adapted = Adapted {
            adapters: &self.adapters,
            segments: adapter_segments(&batch.adapters, &batch.q_indptr),
        };
        let t = batch.num_tokens();
        let hidden = c.hidden;
        s.x.resize(t * hidden, 0.0);
        for (row, &id) in s.x.chunks_exact_mut(hidden).zip(&batch.input_ids) {
            w.token_embd.row(id as usize, row)?;
        }
        if let Some(scale) = c.embedding_scale {
            s.x.iter_mut().for_each(|v| *v *= scale);
        }
        if let Some(per_layer) = &w.per_layer {
            let (ids, eps) = (&batch.input_ids, c.rms_norm_eps);
            per_layer.inputs(ids, &s.x, eps, &mut s.per_layer_inputs, &mut s.tmp)?;
        }
        let paged = PagedBatch {
            q_indptr: &batch.q_indptr,
            kv_indptr: &batch.kv_indptr,
            kv_indices: &batch.kv_indices,
        };
        s.angles.resize_with(w.ropes.len(), RopeAngles::default);
        for (rope, angles) in w.ropes.iter().zip(&mut s.angles) {
            rope.angles_into(&batch.positions, angles);
        }
        for (layer, lw) in w.layers.iter().enumerate() {
            let (q_dim, kv_dim, d) = (lw.q_dim(c.num_heads), lw.kv_dim(), lw.heads.head_dim);
            let shape = AttentionShape {
                num_heads: c.num_heads,
                num_kv_heads: lw.heads.num_kv_heads,
                head_dim: d,
            };
            s.normed.resize(t * hidden, 0.0);
            pre_norm(&s.x, lw.attn_norm.as_deref(), c.rms_norm_eps, &mut s.normed)?;
            s.qkv.resize(t * lw.qkv.n_out(), 0.0);
            lw.qkv.matmul(&s.normed, t, &mut s.qkv, &mut s.tmp)?;
            if let Some(net) = &lw.delta_net {
                let rows = &batch.req_pool_indices;
                let (mut conv, mut ssm) = recurrent.layer(recurrent_layer, rows)?;
                recurrent_layer += 1;
                let eps = c.rms_norm_eps;
                let (q_indptr, delta, attn) = (&batch.q_indptr, &mut s.delta, &mut s.attn);
                net.mix(&s.qkv, t, q_indptr, &mut conv, &mut ssm, eps, delta, attn)?;
            } else if let Some(short_conv) = &lw.short_conv {
                let rows = &batch.req_pool_indices;
                let (mut conv, _) = recurrent.layer(recurrent_layer, rows)?;
                recurrent_layer += 1;
                short_conv.mix(&s.qkv, t, &batch.q_indptr, &mut conv, &mut s.attn)?;
            } else if let Some(m) = &lw.mamba2 {
                let rows = &batch.req_pool_indices;
                let (mut conv, mut ssm) = recurrent.layer(recurrent_layer, rows)?;
                recurrent_layer += 1;
                let eps = c.rms_norm_eps;
                let (q_indptr, scratch, attn) = (&batch.q_indptr, &mut s.mamba2, &mut s.attn);
                m.mix(&s.qkv, t, q_indptr, &mut conv, &mut ssm, eps, scratch, attn)?;
            } else {
                let kv_layer =
                    kv_layers.get(layer).copied().flatten().ok_or_else(|| {
                        ModelError::Batch(format!("layer {layer} has no K/V layer"))
                    })?;
                if let Some(mla) = &lw.mla {
                    let r = lw.rope.ok_or_else(|| {
                        ModelError::Batch(format!("latent attention layer {layer} has no RoPE"))
                    })?;
                    let (rope, angles) = (&w.ropes[r], &s.angles[r]);
                    let eps = c.rms_norm_eps;
                    mla.queries_and_keys(
                        &s.qkv, t, eps, rope, angles, &mut s.mla, &mut s.q, &mut s.k,
                    )?;
                    s.v.clear();
                } else {
                    adapted.apply(layer, Target::Qkv, &s.normed, hidden, &mut s.qkv);
                    if let Some(bias) = &lw.qkv_bias {
                        s.qkv
                            .chunks_exact_mut(bias.len())
                            .for_each(|row| add_in_place(row, bias));
                    }
                    let q_width = if lw.query_gate { 2 * q_dim } else { q_dim };
                    let widths = match (lw.kv_source, lw.keys_as_values) {
                        (Some(_), _) => [q_width, 0, 0],
                        (None, true) => [q_width, kv_dim, 0],
                        (None, false) => [q_width, kv_dim, kv_dim],
                    };
                    split_qkv(&s.qkv, widths, &mut s.q, &mut s.k, &mut s.v);
                    if lw.keys_as_values {
                        s.v.clone_from(&s.k);
                    }
                    if lw.query_gate {
                        split_query_gate(&mut s.q, &mut s.gate, d, &mut s.tmp);
                    }
                    let eps = c.rms_norm_eps;
                    if let Some(q_norm) = &lw.q_norm {
                        norm_in_place(&mut s.q, q_norm, eps, &mut s.tmp)?;
                    }
                    if let (Some(k_norm), false) = (&lw.k_norm, s.k.is_empty()) {
                        norm_in_place(&mut s.k, k_norm, eps, &mut s.tmp)?;
                    }
                    if let (Some(v_norm), false) = (&lw.v_norm, s.v.is_empty()) {
                        norm_in_place(&mut s.v, v_norm, eps, &mut s.tmp)?;
                    }
                    if let Some(r) = lw.rope {
                        let (rope, angles) = (&w.ropes[r], &s.angles[r]);
                        rope.apply_angles(&mut s.q, c.num_heads, angles)?;
                        if !s.k.is_empty() {
                            rope.apply_angles(&mut s.k, lw.heads.num_kv_heads, angles)?;
                        }
                    }
                }
                if let Some(temperature) = &lw.temperature {
                    temperature.scale_queries(&batch.positions, &mut s.q);
                }
                // A layer reading an earlier one's K/V writes none.
                if lw.kv_source.is_none() {
                    kv.set_kv(kv_layer, &batch.out_cache_loc, &s.k, &s.v)?;
                }
                let (k_cache, v_cache) = kv
                    .layer(kv_layer)
                    .ok_or_else(|| ModelError::Batch(format!("KV pool has no layer {kv_layer}")))?;
                s.attn.resize(t * q_dim, 0.0);
                let rules = ScoreRules {
                    window: lw.window,
                    chunk: lw.chunk,
                    softcap: c.attn_logit_softcap,
                    scale: c.score_scale,
                };
                let sinks = lw.attn_sinks.as_deref();
                let attn = &mut s.attn;
                paged_attention_with_sinks(
                    &shape, rules, sinks, &paged, &s.q, k_cache, v_cache, attn,
                )?;
                if lw.query_gate {
                    gate_outputs(&mut s.attn, &s.gate);
                }
                if let Some(mla) = &lw.mla {
                    mla.values(&s.attn, t, &mut s.mla, &mut s.head_values)?;
                    std::mem::swap(&mut s.attn, &mut s.head_values);
                }
            }
            let attn_width = lw.attn_output.k_in();
            s.proj.resize(t * hidden, 0.0);
            lw.attn_output.matmul(&s.attn, t, &mut s.proj)?;
            if let Some(bias) = &lw.attn_output_bias {
                s.proj
                    .chunks_exact_mut(hidden)
                    .for_each(|row| add_in_place(row, bias));
            }
            adapted.apply(layer, Target::AttnOutput, &s.attn, attn_width, &mut s.proj);
            if let Some(post) = &lw.post_attn_norm {
                norm_in_place(&mut s.proj, post, c.rms_norm_eps, &mut s.tmp)?;
            }
            scale_residual(&mut s.proj, c.residual_scale);
            add_in_place(&mut s.x, &s.proj);
            // A layer that is its mixer alone (Nemotron-H's) has no MLP block.
            if !matches!(lw.mlp, Mlp::Absent) {
                pre_norm(&s.x, lw.ffn_norm.as_deref(), c.rms_norm_eps, &mut s.normed)?;
                match &lw.mlp {
                    Mlp::Dense { gate_up, down } => {
                        let ffn = down.k_in();
                        s.gate_up.resize(t * 2 * ffn, 0.0);
                        gate_up.matmul(&s.normed, t, &mut s.gate_up, &mut s.tmp)?;
                        adapted.apply(layer, Target::GateUp, &s.normed, hidden, &mut s.gate_up);
                        s.act.resize(t * ffn, 0.0);
                        match c.activation {
                            Activation::Silu => silu_mul(&s.gate_up, ffn, &mut s.act)?,
                            Activation::GeluTanh => gelu_mul(&s.gate_up, ffn, &mut s.act)?,
                        }
                        down.matmul(&s.act, t, &mut s.proj)?;
                        adapted.apply(layer, Target::Down, &s.act, ffn, &mut s.proj);
                    }
                    Mlp::Squared { up, down } => {
                        s.act.resize(t * down.k_in(), 0.0);
                        up.matmul(&s.normed, t, &mut s.act)?;
                        squared_relu(&mut s.act);
                        down.matmul(&s.act, t, &mut s.proj)?;
                    }
                    Mlp::Absent => {}
                    Mlp::Experts(moe) => {
                        moe.forward(&s.normed, t, hidden, &mut s.moe, &mut s.proj)?
                    }
                    Mlp::Parallel(moe) => {
                        let (eps, scratch) = (c.rms_norm_eps, &mut s.parallel);
                        moe.forward(&s.x, &s.normed, t, eps, scratch, &mut s.proj)?
                    }
                }
                if let Some(post) = &lw.post_ffn_norm {
                    norm_in_place(&mut s.proj, post, c.rms_norm_eps, &mut s.tmp)?;
                }
                scale_residual(&mut s.proj, c.residual_scale);
                add_in_place(&mut s.x, &s.proj);
            }
            if let Some(block) = &lw.per_layer {
                let (eps, layers, all) = (c.rms_norm_eps, c.num_layers, &s.per_layer_inputs);
                block.apply(layer, all, layers, &mut s.x, eps, &mut s.per_layer)?;
            }
            scale_residual(&mut s.x, lw.output_scale);
        }
        // The final norm only for the rows whose logits or hidden states are wanted, and
        // the head only for the former.
        let rows = batch.logits_rows.len();
        let normed_rows = rows + batch.hidden_rows.len();
        s.selected.clear();
        for &r in batch.logits_rows.iter().chain(&batch.hidden_rows) {
            s.selected
                .extend_from_slice(&s.x[r as usize * hidden..][..hidden]);
        }
        s.normed.resize(normed_rows * hidden, 0.0);
        rms_norm(
            &s.selected,
            &w.output_norm,
            c.rms_norm_eps,
            &mut s.normed[..normed_rows * hidden],
        )?;
        s.hidden.clear();
        s.hidden
            .extend_from_slice(&s.normed[rows * hidden..normed_rows * hidden]);
        s.logits.resize(rows * c.vocab_size, 0.0);
        w.output_head()
            .matmul(&s.normed[..rows * hidden], rows, &mut s.logits)?;
        finish_logits(c, &mut s.logits);
        s.scores.clear();
        for block in batch.score_rows.chunks(SCORE_BLOCK) {
            s.selected.clear();
            for r in block {
                s.selected
                    .extend_from_slice(&s.x[r.row as usize * hidden..][..hidden]);
            }
            s.score_normed.resize(block.len() * hidden, 0.0);
            rms_norm(
                &s.selected,
                &w.output_norm,
                c.rms_norm_eps,
                &mut s.score_normed,
            )?;
            s.score_logits.resize(block.len() * c.vocab_size, 0.0);
            (w.output_head()).matmul(&s.score_normed, block.len(), &mut s.score_logits)?;
            finish_logits(c, &mut s.score_logits);
            let scored: Vec<SampleOutput> = s
                .score_logits
                .par_chunks_exact_mut(c.vocab_size)
                .zip(block)
                .map(|(logits, r)| r.score(logits))
                .collect();
            s.scores.extend(scored);
        }
        Ok(())
    }

    fn validate(&self, batch: &ForwardBatch, kv: &KvStorage) -> Result<(), ModelError> {
        batch.validate(self.weights.config.vocab_size)?;
        let loaded = |a: u32| matches!(self.adapters.get(a as usize), Some(Some(_)));
        if let Some(a) = (batch.adapters.iter().flatten()).find(|&&a| !loaded(a)) {
            return Err(ModelError::Batch(format!(
                "LoRA adapter {a} is not loaded ({} numbers given out)",
                self.adapters.len()
            )));
        }
        if kv.layout() != self.kv_layout(kv.layout().dtype) {
            return Err(ModelError::Batch(
                "KV pool layout does not match the model".into(),
            ));
        }
        Ok(())
    }

    /// The final hidden states (output-normed, `[rows, hidden]`) of the last pass's
    /// `hidden_rows`.
    pub fn hidden_states(&self) -> &[f32] {
        &self.scratch.hidden
    }

    /// The scores of the last pass's `score_rows`, in their order.
    pub fn scores(&self) -> &[SampleOutput] {
        &self.scratch.scores
    }

    /// The loaded weights (the GPU runner uploads them).
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

/// What the family does to the head's output: a divisor, then a soft cap.
fn finish_logits(c: &ModelConfig, logits: &mut [f32]) {
    if let Some(divisor) = c.logit_divisor {
        let inverse = 1.0 / divisor;
        logits.iter_mut().for_each(|l| *l *= inverse);
    }
    if let Some(cap) = c.final_logit_softcap {
        logits.iter_mut().for_each(|l| *l = cap * (*l / cap).tanh());
    }
}

/// Splits `[q | k | v]` rows of `widths` (a part of width 0 is left empty).
fn split_qkv(
    qkv: &[f32],
    widths: [usize; 3],
    q: &mut Vec<f32>,
    k: &mut Vec<f32>,
    v: &mut Vec<f32>,
) {
    let [qw, kw, vw] = widths;
    q.clear();
    k.clear();
    v.clear();
    for row in qkv.chunks_exact(qw + kw + vw) {
        q.extend_from_slice(&row[..qw]);
        k.extend_from_slice(&row[qw..qw + kw]);
        v.extend_from_slice(&row[qw + kw..]);
    }
}

/// Splits query rows holding each head's query then its gate (`[tokens, heads * 2 * d]`)
/// into the queries, left in `q`, and the gates.
fn split_query_gate(q: &mut Vec<f32>, gate: &mut Vec<f32>, d: usize, tmp: &mut Vec<f32>) {
    tmp.clear();
    gate.clear();
    for head in q.chunks_exact(2 * d) {
        tmp.extend_from_slice(&head[..d]);
        gate.extend_from_slice(&head[d..]);
    }
    std::mem::swap(q, tmp);
}

/// Multiplies each attention output by the sigmoid of its gate.
fn gate_outputs(attn: &mut [f32], gate: &[f32]) {
    for (a, &g) in attn.iter_mut().zip(gate) {
        *a /= 1.0 + (-g).exp();
    }
}

/// RMSNorm of each `weight.len()`-wide row of `x` (a head, or a whole hidden row), in place.
fn norm_in_place(
    x: &mut [f32],
    weight: &[f32],
    eps: f32,
    tmp: &mut Vec<f32>,
) -> Result<(), ModelError> {
    tmp.clear();
    tmp.extend_from_slice(x);
    Ok(rms_norm(tmp, weight, eps, x)?)
}

/// `out` = `x` normalized with `weight`, or `x` itself where the layer has no such norm.
fn pre_norm(
    x: &[f32],
    weight: Option<&[f32]>,
    eps: f32,
    out: &mut [f32],
) -> Result<(), ModelError> {
    match weight {
        Some(weight) => Ok(rms_norm(x, weight, eps, out)?),
        None => {
            out.copy_from_slice(x);
            Ok(())
        }
    }
}

/// Granite's residual multiplier on a layer's contribution, or Gemma 4's on the residual
/// stream at a layer's end, where the family has one.
fn scale_residual(proj: &mut [f32], scale: Option<f32>) {
    if let Some(scale) = scale {
        proj.iter_mut().for_each(|v| *v *= scale);
    }
}

fn add_in_place(x: &mut [f32], y: &[f32]) {
    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
}
