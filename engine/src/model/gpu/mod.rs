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

mod req_to_token;
mod weights;

pub use req_to_token::ReqToTokenMirror;

use super::{
    Activation, ForwardBatch, ForwardModel, FutureToken, KvPool, KvPoolSize, Launched, Model,
    ModelConfig, ModelError,
};
use half::f16;
use kernels::attention::{AttentionShape, ScoreRules};
use kernels::cuda::{
    CudaSlice, DeviceAttentionBatch, DeviceKvStorage, DeviceRope, DeviceSlots, GpuContext,
    GpuOptions, SamplingBuffers,
};
use kernels::sampling::{SampledRow, SamplingBatch};
use pools::{KvDtype, KvLayout};
use weights::DeviceWeights;

/// The K/V pool of the GPU runner: K/V buffers and the `req_to_token` mirror, on the device.
pub struct GpuKv {
    pub storage: DeviceKvStorage,
    pub req_to_token: ReqToTokenMirror,
}

impl KvPool for GpuKv {
    fn bytes_per_token(&self) -> usize {
        self.storage.bytes_per_token()
    }
}

/// Activation buffers on the device, sized for `tokens` rows (grown, never shrunk).
struct Scratch {
    tokens: usize,
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
}

impl Scratch {
    fn new(gpu: &GpuContext, c: &ModelConfig, tokens: usize) -> Result<Self, ModelError> {
        let widest = c.hidden.max(c.q_dim()).max(c.ffn);
        Ok(Self {
            tokens,
            x: gpu.zeros(tokens * c.hidden)?,
            normed: gpu.zeros(tokens * c.hidden)?,
            q: gpu.zeros(tokens * c.q_dim())?,
            k: gpu.zeros(tokens * c.kv_dim())?,
            v: gpu.zeros(tokens * c.kv_dim())?,
            attn: gpu.zeros(tokens * c.q_dim())?,
            proj: gpu.zeros(tokens * c.hidden)?,
            gate_up: gpu.zeros(tokens * 2 * c.ffn)?,
            act: gpu.zeros(tokens * c.ffn)?,
            half: gpu.zeros(tokens * widest)?,
        })
    }
}

/// The model on one CUDA device.
pub struct GpuModel {
    gpu: GpuContext,
    config: ModelConfig,
    weights: DeviceWeights,
    /// The model's RoPE tables; each layer names its own.
    ropes: Vec<DeviceRope>,
    scratch: Option<Scratch>,
    /// Final-norm rows and logits of the wanted rows (grown like the activations).
    selected: Option<CudaSlice<f32>>,
    logits: Option<CudaSlice<f32>>,
    logits_host: Vec<f32>,
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
    /// missing header or library fails at startup, not at the first request.
    pub fn with_context(model: &Model, gpu: GpuContext) -> Result<Self, ModelError> {
        let w = model.weights();
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
            scratch: None,
            selected: None,
            logits: None,
            logits_host: Vec::new(),
            sampling: SamplingBuffers::default(),
            next_slot: 0,
        })
    }

    pub fn gpu(&self) -> &GpuContext {
        &self.gpu
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    fn validate(&self, batch: &ForwardBatch, kv: &GpuKv) -> Result<(), ModelError> {
        batch.validate(self.config.vocab_size)?;
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

    /// Grows the activation and logits buffers to hold `tokens` rows and `rows` logits rows.
    fn reserve(&mut self, tokens: usize, rows: usize) -> Result<(), ModelError> {
        if self.scratch.as_ref().is_none_or(|s| s.tokens < tokens) {
            // Powers of two: a handful of reallocations over a server's life.
            let size = tokens.next_power_of_two().max(16);
            self.scratch = None;
            self.scratch = Some(Scratch::new(&self.gpu, &self.config, size)?);
        }
        let vocab = self.config.vocab_size;
        if self.logits.as_ref().is_none_or(|l| l.len() < rows * vocab) {
            let size = rows.next_power_of_two().max(16);
            self.selected = Some(self.gpu.zeros(size * self.config.hidden)?);
            self.logits = Some(self.gpu.zeros(size * self.config.vocab_size)?);
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

fn missing(what: &str) -> ModelError {
    ModelError::Batch(format!("GPU {what} buffer not allocated"))
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
        }
    }

    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<GpuKv, ModelError> {
        Ok(GpuKv {
            storage: DeviceKvStorage::new(&self.gpu, layout, size.num_slots)?,
            req_to_token: ReqToTokenMirror::new(&self.gpu, size.req_rows, size.max_context_len)?,
        })
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut GpuKv) -> Result<&[f32], ModelError> {
        let rows = self.run(batch, kv, &[])?;
        let logits = self.logits.as_ref().ok_or_else(|| missing("logits"))?;
        let n = rows * self.config.vocab_size;
        self.gpu.download_prefix(logits, n, &mut self.logits_host)?;
        Ok(&self.logits_host)
    }

    fn samples_on_device(&self) -> bool {
        true
    }

    fn forward_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        sampling: &SamplingBatch,
    ) -> Result<Vec<SampledRow>, ModelError> {
        let rows = self.run(batch, kv, &[])?;
        let logits = self.logits.as_mut().ok_or_else(|| missing("logits"))?;
        let vocab = self.config.vocab_size;
        Ok(self
            .gpu
            .sample_rows(logits, rows, vocab, sampling, &mut self.sampling)?)
    }

    fn launch_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        sampling: &SamplingBatch,
        futures: &[FutureToken],
    ) -> Result<Launched, ModelError> {
        let rows = self.run(batch, kv, futures)?;
        let logits = self.logits.as_mut().ok_or_else(|| missing("logits"))?;
        let vocab = self.config.vocab_size;
        let slot = self.next_slot;
        self.gpu
            .launch_sample_rows(logits, rows, vocab, sampling, &mut self.sampling, slot)?;
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
    /// how many) in the device buffer `logits`, without waiting for it. `futures` name
    /// input ids that are tokens the last sampling launch chose (filled in on the device).
    fn run(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        futures: &[FutureToken],
    ) -> Result<usize, ModelError> {
        self.validate(batch, kv)?;
        let (t, rows) = (batch.num_tokens(), batch.logits_rows.len());
        self.reserve(t.max(rows), rows)?;
        let Self {
            gpu,
            config: c,
            weights: w,
            ropes,
            scratch,
            selected,
            logits,
            sampling,
            ..
        } = self;
        let s = scratch.as_mut().ok_or_else(|| missing("activation"))?;
        let selected = selected.as_mut().ok_or_else(|| missing("selected-row"))?;
        let logits = logits.as_mut().ok_or_else(|| missing("logits"))?;
        let (hidden, q_dim, kv_dim, ffn) = (c.hidden, c.q_dim(), c.kv_dim(), c.ffn);
        let eps = c.rms_norm_eps;

        let mut ids = gpu.upload(&batch.input_ids)?;
        if !futures.is_empty() {
            let at: Vec<u32> = futures.iter().map(|f| f.at).collect();
            let from: Vec<u32> = futures.iter().map(|f| f.row).collect();
            gpu.resolve_futures(&mut ids, t, &at, &from, sampling)?;
        }
        let positions = gpu.upload(&batch.positions)?;
        let out_cache_loc = DeviceSlots::upload(gpu, &batch.out_cache_loc, kv.storage.num_slots())?;
        kv.req_to_token.sync(gpu, batch)?;
        let kv_indices = kv.req_to_token.kv_indices(gpu, batch)?;
        let attention = DeviceAttentionBatch::from_kv_indices(gpu, &batch.q_indptr, kv_indices)?;
        let shape = AttentionShape {
            num_heads: c.num_heads,
            num_kv_heads: c.num_kv_heads,
            head_dim: c.head_dim,
        };

        gpu.embedding(&ids, t, &w.token_embd, hidden, &mut s.x)?;
        if let Some(scale) = c.embedding_scale {
            gpu.scale_in_place(&mut s.x, scale, t * hidden)?;
        }
        for (layer, lw) in w.layers.iter().enumerate() {
            gpu.rms_norm(&s.x, &lw.attn_norm, eps, &mut s.normed, t)?;
            // Q, K and V share one f16 copy of the normed rows.
            gpu.cast_from_f32(&s.normed, &mut s.half, t * hidden)?;
            for (weight, out, width) in [
                (&lw.wq, &mut s.q, q_dim),
                (&lw.wk, &mut s.k, kv_dim),
                (&lw.wv, &mut s.v, kv_dim),
            ] {
                gpu.gemm_f32_out(&s.half, weight, out, t, width, hidden)?;
            }
            if let Some([qb, kb, vb]) = &lw.qkv_bias {
                gpu.add_bias(&mut s.q, qb, t)?;
                gpu.add_bias(&mut s.k, kb, t)?;
                gpu.add_bias(&mut s.v, vb, t)?;
            }
            if let Some([q_norm, k_norm]) = &lw.qk_norm {
                // One row per head.
                gpu.rms_norm_in_place(&mut s.q, q_norm, eps, t * c.num_heads)?;
                gpu.rms_norm_in_place(&mut s.k, k_norm, eps, t * c.num_kv_heads)?;
            }
            if let Some(r) = lw.rope {
                let rope = ropes
                    .get(r)
                    .ok_or_else(|| ModelError::Batch(format!("no RoPE table {r}")))?;
                rope.apply(gpu, &mut s.q, c.num_heads, &positions, t)?;
                rope.apply(gpu, &mut s.k, c.num_kv_heads, &positions, t)?;
            }
            kv.storage.set_kv(gpu, layer, &out_cache_loc, &s.k, &s.v)?;
            let (k_cache, v_cache) = kv
                .storage
                .layer(layer)
                .ok_or_else(|| ModelError::Batch(format!("KV pool has no layer {layer}")))?;
            let rules = ScoreRules {
                window: lw.window,
                softcap: c.attn_logit_softcap,
                scale: c.score_scale,
            };
            gpu.paged_attention_with_rules(
                &shape,
                rules,
                &attention,
                &s.q,
                k_cache,
                v_cache,
                &mut s.attn,
            )?;
            linear(
                gpu,
                &s.attn,
                &mut s.half,
                &lw.wo,
                &mut s.proj,
                (t, hidden, q_dim),
            )?;
            if let Some(post) = &lw.post_attn_norm {
                gpu.rms_norm_in_place(&mut s.proj, post, eps, t)?;
            }
            if let Some(scale) = c.residual_scale {
                gpu.scale_in_place(&mut s.proj, scale, t * hidden)?;
            }
            gpu.add_in_place(&mut s.x, &s.proj, t * hidden)?;

            gpu.rms_norm(&s.x, &lw.ffn_norm, eps, &mut s.normed, t)?;
            linear(
                gpu,
                &s.normed,
                &mut s.half,
                &lw.w_gate_up,
                &mut s.gate_up,
                (t, 2 * ffn, hidden),
            )?;
            match c.activation {
                Activation::Silu => gpu.silu_mul(&s.gate_up, ffn, &mut s.act, t)?,
                Activation::GeluTanh => gpu.gelu_tanh_mul(&s.gate_up, ffn, &mut s.act, t)?,
            }
            linear(
                gpu,
                &s.act,
                &mut s.half,
                &lw.w_down,
                &mut s.proj,
                (t, hidden, ffn),
            )?;
            if let Some(post) = &lw.post_ffn_norm {
                gpu.rms_norm_in_place(&mut s.proj, post, eps, t)?;
            }
            if let Some(scale) = c.residual_scale {
                gpu.scale_in_place(&mut s.proj, scale, t * hidden)?;
            }
            gpu.add_in_place(&mut s.x, &s.proj, t * hidden)?;
        }
        // The final norm and the head only for the wanted rows: gathered from the residual
        // stream with the embedding kernel (a row gather over a `[tokens, hidden]` table).
        if rows > 0 {
            let wanted = gpu.upload(&batch.logits_rows)?;
            gpu.embedding(&wanted, rows, &s.x, hidden, selected)?;
            gpu.rms_norm(selected, &w.output_norm, eps, &mut s.normed, rows)?;
            linear(
                gpu,
                &s.normed,
                &mut s.half,
                w.output_head(),
                logits,
                (rows, c.vocab_size, hidden),
            )?;
            if let Some(divisor) = c.logit_divisor {
                gpu.scale_in_place(logits, 1.0 / divisor, rows * c.vocab_size)?;
            }
            if let Some(cap) = c.final_logit_softcap {
                gpu.softcap_in_place(logits, cap, rows * c.vocab_size)?;
            }
        }
        Ok(rows)
    }
}
