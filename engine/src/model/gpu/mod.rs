//! The GPU model runner (feature `cuda`, `--device cuda:N`): the forward pass of
//! [`super::Model`] with every tensor on the device and the CUDA kernels of
//! `kernels::cuda`. The scheduler is unchanged: it hands the same [`ForwardBatch`] to this
//! runner; only where K/V live ([`GpuKv`]) and which kernels run differ.
//!
//! Every family's layer runs here as on the CPU ([`super::forward`]): Q/K/V biases, per-head
//! Q/K norms, per-layer RoPE tables (either pairing, or none), sliding-window layers,
//! post-norms, GeGLU, the embedding, score, residual and logit scales and soft-capping of
//! scores and logits, each where the family's weights and config have it.
//!
//! Numerics: projections run as cuBLAS GEMMs on f16 weights dequantized once at load, with
//! activations cast to f16 in front of each GEMM and f32 accumulation; norms, RoPE,
//! attention and the residual stream stay in f32. Logits therefore differ slightly from the
//! CPU path, which multiplies the quantized weights directly.

mod graphs;
mod layers;
mod req_to_token;
mod weights;

pub use req_to_token::ReqToTokenMirror;

use super::{
    ForwardBatch, ForwardModel, FutureToken, KvPool, KvPoolSize, Launched, Model, ModelConfig,
    ModelError,
};
use crate::sampling::SampleOutput;
use graphs::DecodeGraphs;
use kernels::cuda::{
    CudaSlice, DeviceAttentionBatch, DeviceKvStorage, DeviceRope, DeviceSlots, GpuContext,
    GpuOptions, SamplingBuffers, SplitParts,
};
use kernels::sampling::{SampledRow, SamplingBatch};
use layers::{Activations, DeviceModel, StepInputs};
use pools::{KvDtype, KvLayout};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use weights::DeviceWeights;

/// The K/V pool of the GPU runner: K/V buffers and the `req_to_token` mirror, on the device.
pub struct GpuKv {
    pub storage: DeviceKvStorage,
    pub req_to_token: ReqToTokenMirror,
    /// Tells pools apart (CUDA graphs hold one pool's addresses).
    id: u64,
}

impl KvPool for GpuKv {
    fn bytes_per_token(&self) -> usize {
        self.storage.bytes_per_token()
    }
}

/// How the runner runs its steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuRunOptions {
    /// Decode batches of up to this many requests replay CUDA graphs; 0: every step eager.
    pub cuda_graph_max_batch: usize,
    /// One launch for each residual add, RMSNorm and cast to f16, for each gated activation
    /// and cast, for both per-head Q/K norms, and for RoPE on Q and K with the K/V store (the
    /// same bits as the separate kernels, seven launches fewer per layer, eight with Q/K
    /// norms).
    pub fused_kernels: bool,
    /// With `fused_kernels`: Q, K and V from one GEMM over their stacked weights, and one
    /// bias add (two launches fewer per layer, four with biases). cuBLAS may sum in another
    /// order for the wider matrix than for three, so logits agree within rounding.
    pub merged_qkv: bool,
}

impl Default for GpuRunOptions {
    /// No graphs (they are recorded against the first pool; the engine turns them on),
    /// fused kernels, one Q/K/V GEMM.
    fn default() -> Self {
        Self {
            cuda_graph_max_batch: 0,
            fused_kernels: true,
            merged_qkv: true,
        }
    }
}

struct Outputs<'a> {
    gpu: &'a GpuContext,
    logits: &'a mut CudaSlice<f32>,
    sampling: &'a mut SamplingBuffers,
    logits_host: &'a mut Vec<f32>,
}

/// Source of [`GpuKv`] ids.
static NEXT_KV_ID: AtomicU64 = AtomicU64::new(0);

/// The model on one CUDA device.
pub struct GpuModel {
    gpu: GpuContext,
    config: ModelConfig,
    weights: DeviceWeights,
    /// The model's RoPE tables; each layer names its own.
    ropes: Vec<DeviceRope>,
    options: GpuRunOptions,
    /// Buffers of eager steps; decode steps under a graph use the graphs' own.
    acts: Option<Activations>,
    graphs: Option<DecodeGraphs>,
    /// Whether the last step ran from a graph (its logits are in the graphs' buffers).
    last_graphed: bool,
    logits_host: Vec<f32>,
    /// The last pass's final hidden states of its `hidden_rows` (embeddings), downloaded
    /// when the pass had any.
    hidden_host: Vec<f32>,
    /// The last pass's scores of its `score_rows` (prompt log-probabilities), reduced on
    /// the host from their logits rows.
    scores: Vec<SampleOutput>,
    score_logits_host: Vec<f32>,
    sampling: SamplingBuffers,
    /// The host slot (0 or 1) the next launch copies its sampled rows to.
    next_slot: usize,
}

impl GpuModel {
    /// Opens CUDA device `ordinal` and uploads `model`'s weights to it.
    pub fn from_model(model: &Model, ordinal: usize) -> Result<Self, ModelError> {
        let gpu = GpuContext::with_options(ordinal, GpuOptions::default())?;
        Self::with_context(model, gpu)
    }

    /// Uploads `model`'s weights to the device of `gpu`, and compiles every kernel now so a
    /// missing header or library fails at startup, not at the first request. Every step
    /// runs eagerly, with fused kernels, until [`Self::set_run_options`] says otherwise.
    pub fn with_context(model: &Model, gpu: GpuContext) -> Result<Self, ModelError> {
        let w = model.weights();
        w.config.check_gpu_attention()?;
        gpu.preload()?;
        let weights = DeviceWeights::upload(&gpu, w)?;
        let ropes = w
            .ropes
            .iter()
            .map(|r| DeviceRope::from_rope(&gpu, r))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(bad) = weights
            .layers
            .iter()
            .filter_map(|l| l.rope)
            .find(|&r| r >= ropes.len())
        {
            return Err(ModelError::Shape(format!(
                "a layer uses RoPE table {bad} of {}",
                ropes.len()
            )));
        }
        Ok(Self {
            gpu,
            config: w.config.clone(),
            weights,
            ropes,
            options: GpuRunOptions::default(),
            acts: None,
            graphs: None,
            last_graphed: false,
            logits_host: Vec::new(),
            hidden_host: Vec::new(),
            scores: Vec::new(),
            score_logits_host: Vec::new(),
            sampling: SamplingBuffers::default(),
            next_slot: 0,
        })
    }

    /// Sets how steps run; CUDA graphs recorded so far are dropped.
    pub fn set_run_options(&mut self, options: GpuRunOptions) -> Result<(), ModelError> {
        self.options = options;
        self.graphs = None;
        self.last_graphed = false;
        if options.cuda_graph_max_batch > 0 {
            let graphs = DecodeGraphs::new(&self.device_model(), options.cuda_graph_max_batch)?;
            self.graphs = Some(graphs);
        }
        Ok(())
    }

    pub fn gpu(&self) -> &GpuContext {
        &self.gpu
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    fn device_model(&self) -> DeviceModel<'_> {
        DeviceModel {
            gpu: &self.gpu,
            config: &self.config,
            weights: &self.weights,
            ropes: &self.ropes,
            fused: self.options.fused_kernels,
            merged_qkv: self.options.merged_qkv,
        }
    }

    fn validate(&self, batch: &ForwardBatch, kv: &GpuKv) -> Result<(), ModelError> {
        batch.validate(self.config.vocab_size)?;
        if batch.uses_adapters() {
            return Err(ModelError::Unsupported(
                "LoRA adapters on the GPU runner".into(),
            ));
        }
        let layout = kv.storage.layout();
        if layout != ForwardModel::kv_layout(self, layout.dtype) {
            return Err(ModelError::Batch(
                "KV pool layout does not match the model".into(),
            ));
        }
        let (rows, max_len) = (kv.req_to_token.rows(), kv.req_to_token.max_context_len());
        for (b, &row) in batch.req_pool_indices.iter().enumerate() {
            let kv_len = (batch.kv_indptr[b + 1] - batch.kv_indptr[b]) as usize;
            if row as usize >= rows || kv_len > max_len {
                return Err(ModelError::Batch(format!(
                    "request {b}: row {row} with {kv_len} KV entries outside the \
                     req_to_token table of {rows} x {max_len}"
                )));
            }
        }
        let num_slots = kv.storage.num_slots();
        if let Some(s) = batch
            .kv_indices
            .iter()
            .find(|&&s| s < 0 || s as usize >= num_slots)
        {
            return Err(ModelError::Batch(format!(
                "KV slot {s} outside the pool of {num_slots}"
            )));
        }
        Ok(())
    }

    /// The device, the last step's logits (on the device), the sampling buffers and the
    /// host logits, borrowed together.
    fn outputs(&mut self) -> Result<Outputs<'_>, ModelError> {
        let Self {
            gpu,
            acts,
            graphs,
            last_graphed,
            logits_host,
            sampling,
            ..
        } = self;
        let logits = if *last_graphed {
            graphs.as_mut().map(DecodeGraphs::logits)
        } else {
            acts.as_mut().map(|a| &mut a.logits)
        };
        let logits =
            logits.ok_or_else(|| ModelError::Batch("GPU logits buffer not allocated".into()))?;
        Ok(Outputs {
            gpu,
            logits,
            sampling,
            logits_host,
        })
    }
}

impl ForwardModel for GpuModel {
    type Kv = GpuKv;

    fn vocab_size(&self) -> usize {
        self.config.vocab_size
    }

    fn context_length(&self) -> usize {
        self.config.context_length
    }

    fn kv_layout(&self, dtype: KvDtype) -> KvLayout {
        KvLayout {
            num_layers: self.config.num_layers,
            num_kv_heads: self.config.num_kv_heads,
            head_dim: self.config.head_dim,
            dtype,
            values_in_keys: false,
            other_rows: None,
        }
    }

    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<GpuKv, ModelError> {
        Ok(GpuKv {
            storage: DeviceKvStorage::new(&self.gpu, layout, size.num_slots)?,
            req_to_token: ReqToTokenMirror::new(&self.gpu, size.req_rows, size.max_context_len)?,
            id: NEXT_KV_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut GpuKv) -> Result<&[f32], ModelError> {
        let rows = self.run(batch, kv, &[])?;
        let n = rows * self.config.vocab_size;
        let out = self.outputs()?;
        out.gpu.download_prefix(out.logits, n, out.logits_host)?;
        Ok(out.logits_host)
    }

    fn samples_on_device(&self) -> bool {
        true
    }

    fn computes_hidden_states(&self) -> bool {
        true
    }

    fn hidden_states(&self) -> Result<&[f32], ModelError> {
        Ok(&self.hidden_host)
    }

    fn computes_scores(&self) -> bool {
        true
    }

    fn scores(&self) -> Result<&[SampleOutput], ModelError> {
        Ok(&self.scores)
    }

    fn graph_replays(&self) -> u64 {
        self.graphs.as_ref().map_or(0, DecodeGraphs::replays)
    }

    fn forward_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        sampling: &SamplingBatch,
    ) -> Result<Vec<SampledRow>, ModelError> {
        let rows = self.run(batch, kv, &[])?;
        let vocab = self.config.vocab_size;
        let out = self.outputs()?;
        Ok(out
            .gpu
            .sample_rows(out.logits, rows, vocab, sampling, out.sampling)?)
    }

    fn launch_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        sampling: &SamplingBatch,
        futures: &[FutureToken],
    ) -> Result<Launched, ModelError> {
        let rows = self.run(batch, kv, futures)?;
        let vocab = self.config.vocab_size;
        let slot = self.next_slot;
        let out = self.outputs()?;
        out.gpu
            .launch_sample_rows(out.logits, rows, vocab, sampling, out.sampling, slot)?;
        self.next_slot ^= 1;
        Ok(Launched::Pending(slot))
    }

    fn collect_sampled(&mut self, launched: Launched) -> Result<Vec<SampledRow>, ModelError> {
        match launched {
            Launched::Ready(rows) => Ok(rows),
            Launched::Pending(slot) => {
                Ok(self.gpu.collect_sample_rows(&mut self.sampling, slot)?)
            }
        }
    }
}

impl GpuModel {
    /// The forward pass of `batch`, leaving the logits of its `logits_rows` (returned:
    /// how many) on the device ([`Self::logits`]), without waiting for it. `futures` name
    /// input ids that are tokens the last sampling launch chose (filled in on the device).
    fn run(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        futures: &[FutureToken],
    ) -> Result<usize, ModelError> {
        self.validate(batch, kv)?;
        let rows = batch.logits_rows.len();
        self.last_graphed = false;
        if let Some(mut graphs) = self.graphs.take() {
            let ran = match graphs.bucket_of(batch) {
                Some(bucket) => {
                    let resolve = |ids: &mut CudaSlice<u32>, tokens: usize| {
                        resolve_futures(&self.gpu, ids, tokens, futures, &self.sampling)
                    };
                    graphs.run(&self.device_model(), batch, kv, resolve, bucket)
                }
                None => Ok(false),
            };
            self.graphs = Some(graphs);
            self.last_graphed = ran?;
            if self.last_graphed {
                return Ok(rows);
            }
        }
        self.run_eager(batch, kv, futures)?;
        if !batch.hidden_rows.is_empty() {
            self.download_hidden(batch)?;
        }
        self.scores.clear();
        if !batch.score_rows.is_empty() {
            self.score_on_host(batch)?;
        }
        Ok(rows)
    }

    /// Scores the eager pass's `score_rows` (their logits follow the logits and hidden
    /// rows'), waiting for the pass: their logits rows come back and are reduced here.
    fn score_on_host(&mut self, batch: &ForwardBatch) -> Result<(), ModelError> {
        let vocab = self.config.vocab_size;
        let first = batch.logits_rows.len() + batch.hidden_rows.len();
        let all = first + batch.score_rows.len();
        let acts = self
            .acts
            .as_ref()
            .ok_or_else(|| ModelError::Batch("GPU activations not allocated".into()))?;
        (self.gpu).download_prefix(&acts.logits, all * vocab, &mut self.score_logits_host)?;
        self.scores = self.score_logits_host[first * vocab..]
            .par_chunks_exact_mut(vocab)
            .zip(&batch.score_rows)
            .map(|(logits, r)| r.score(logits))
            .collect();
        Ok(())
    }

    /// The final hidden states of the eager pass just launched for `batch`'s
    /// `hidden_rows` (normed after its logits rows), waiting for the pass.
    fn download_hidden(&mut self, batch: &ForwardBatch) -> Result<(), ModelError> {
        let hidden = self.config.hidden;
        let (logits_rows, all) = (
            batch.logits_rows.len(),
            batch.logits_rows.len() + batch.hidden_rows.len(),
        );
        let acts = self
            .acts
            .as_ref()
            .ok_or_else(|| ModelError::Batch("GPU activations not allocated".into()))?;
        self.gpu
            .download_prefix(acts.normed(), all * hidden, &mut self.hidden_host)?;
        self.hidden_host.drain(..logits_rows * hidden);
        Ok(())
    }

    /// A step launch by launch, with this step's metadata in buffers of its own.
    fn run_eager(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        futures: &[FutureToken],
    ) -> Result<(), ModelError> {
        // Hidden rows go through the final norm (and, unused, the head) after the logits
        // rows, then score rows through both.
        let (t, rows) = (
            batch.num_tokens(),
            batch.logits_rows.len() + batch.hidden_rows.len() + batch.score_rows.len(),
        );
        let merged = self.device_model().merges_qkv();
        if self.acts.as_ref().is_none_or(|a| !a.fits(t, rows, merged)) {
            // Powers of two: a handful of reallocations over a server's life.
            let tokens = t.max(rows).next_power_of_two().max(16);
            let rows = rows.next_power_of_two().max(16);
            self.acts = None;
            let sizes = (tokens, rows);
            self.acts = Some(Activations::new(&self.gpu, &self.config, sizes, merged)?);
        }
        let Self {
            gpu,
            config,
            weights,
            ropes,
            options,
            acts,
            sampling,
            ..
        } = self;
        let mut ids = gpu.upload(&batch.input_ids)?;
        resolve_futures(gpu, &mut ids, t, futures, sampling)?;
        let positions = gpu.upload(&batch.positions)?;
        let out_cache_loc = DeviceSlots::upload(gpu, &batch.out_cache_loc, kv.storage.num_slots())?;
        kv.req_to_token.sync(gpu, batch)?;
        let kv_indices = kv.req_to_token.kv_indices(gpu, batch)?;
        let attention = DeviceAttentionBatch::from_kv_indices(gpu, &batch.q_indptr, kv_indices)?;
        let model = DeviceModel {
            gpu,
            config,
            weights,
            ropes,
            fused: options.fused_kernels,
            merged_qkv: options.merged_qkv,
        };
        let plan = attention.default_plan(&model.attention_shape());
        let parts = if plan.num_splits > 1 {
            Some(SplitParts::new(gpu, t, &model.attention_shape(), plan)?)
        } else {
            None
        };
        let wanted = if batch.hidden_rows.is_empty() && batch.score_rows.is_empty() {
            gpu.upload(&batch.logits_rows)?
        } else {
            let rows: Vec<u32> = (batch.logits_rows.iter().copied())
                .chain(batch.hidden_rows.iter().copied())
                .chain(batch.score_rows.iter().map(|r| r.row))
                .collect();
            gpu.upload(&rows)?
        };
        let inputs = StepInputs {
            tokens: t,
            rows,
            ids: &ids,
            positions: &positions,
            slots: &out_cache_loc,
            attention: attention.meta(),
            plan,
            parts: parts.as_ref(),
            wanted: &wanted,
        };
        let acts = acts
            .as_mut()
            .ok_or_else(|| ModelError::Batch("GPU activations not allocated".into()))?;
        model.forward_pass(&inputs, &mut kv.storage, acts)
    }
}

/// Fills the input ids that are tokens of the last sampling launch, on the device.
fn resolve_futures(
    gpu: &GpuContext,
    ids: &mut CudaSlice<u32>,
    tokens: usize,
    futures: &[FutureToken],
    sampling: &SamplingBuffers,
) -> Result<(), ModelError> {
    if futures.is_empty() {
        return Ok(());
    }
    let at: Vec<u32> = futures.iter().map(|f| f.at).collect();
    let from: Vec<u32> = futures.iter().map(|f| f.row).collect();
    gpu.resolve_futures(ids, tokens, &at, &from, sampling)?;
    Ok(())
}
