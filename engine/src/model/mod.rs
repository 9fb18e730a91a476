//! The models: one folder per family (`llama/`, `qwen2/`, `qwen3/`, `gemma3/`), each reading its
//! hyper-parameters and weight names from GGUF and choosing the blocks its layers run; beside
//! them, what the families share: the hyper-parameters every decoder has, RoPE set-up, the
//! weight loader, the decoder pass over the paged KV pool, the [`ForwardModel`] contract the
//! scheduler calls, and [`load`], which dispatches on `general.architecture`.

mod batch;
mod config;
mod delta_net;
mod device;
mod forward;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod graph_buckets;
pub mod hparams;
mod launch;
mod load;
pub mod lora;
mod mamba2;
mod mla;
pub mod moe;
mod nextn;
mod per_layer;
mod recurrent;
mod rope;
pub mod scripted;
mod short_conv;
mod sliding;
mod table_diff;
mod temperature;
mod weights;

mod deepseek2;
mod exaone4;
mod gemma2;
mod gemma3;
mod gemma4;
mod glm4moe;
mod gpt_oss;
mod granite;
mod lfm2;
mod llama;
mod llama4;
mod minimax_m2;
mod mistral3;
mod nemotron_h;
mod olmo2;
mod phi3;
mod qwen2;
mod qwen2moe;
mod qwen3;
mod qwen35;
mod qwen3moe;
mod smollm3;

pub use batch::{ForwardBatch, ScoreRow};
pub use config::{Activation, ModelConfig};
pub use device::Device;
pub use forward::Model;
pub use hparams::{Hparams, RopeScaling, RopeScalingKind};
pub use launch::{FutureToken, Launched};
pub use load::{load, load_weights, supported_architectures, LoadOptions, LoadedModel};
pub use table_diff::req_to_token_updates;
pub use temperature::AttentionTemperature;
pub use weights::{LayerPlan, LayerWeights, Mlp, Weights};

use crate::gguf::GgufError;
use crate::sampling::SampleOutput;
use kernels::sampling::{SampledRow, SamplingBatch};
use kernels::KernelError;
use pools::PoolError;
use pools::{KvDtype, KvLayout, KvStorage, SlotId};

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error(transparent)]
    Gguf(#[from] GgufError),
    #[error(transparent)]
    Kernel(#[from] KernelError),
    #[error(transparent)]
    Pool(#[from] PoolError),
    #[error("the model file has no tensor {0:?}")]
    MissingTensor(String),
    #[error("bad tensor shape: {0}")]
    Shape(String),
    #[error("unsupported model: {0}")]
    Unsupported(String),
    #[error("invalid batch: {0}")]
    Batch(String),
    #[error("LoRA adapter: {0}")]
    Adapter(String),
    #[cfg(feature = "cuda")]
    #[error("CUDA: {0}")]
    Cuda(#[from] kernels::cuda::CudaError),
}

/// How large a model's KV pool must be: K/V slots, and `req_to_token` rows of
/// `max_context_len` (a runner that keeps its own copy of the table sizes it from these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KvPoolSize {
    pub num_slots: usize,
    pub req_rows: usize,
    pub max_context_len: usize,
}

/// A model's K/V memory, as the scheduler sees it.
pub trait KvPool: Send {
    /// Bytes one token's K and V take over all layers.
    fn bytes_per_token(&self) -> usize;

    /// Whether [`KvPool::export_slots`] and [`KvPool::import_slots`] work (lower K/V tiers
    /// need them).
    fn can_move_kv(&self) -> bool {
        false
    }

    /// Appends the K/V of `slots` as bytes (per layer, K rows then any V rows, in the pool's
    /// dtype), `slots.len() * bytes_per_token` of them.
    fn export_slots(&self, _slots: &[SlotId], _out: &mut Vec<u8>) -> Result<(), ModelError> {
        Err(ModelError::Unsupported(
            "moving K/V out of this pool".into(),
        ))
    }

    /// Writes bytes from [`KvPool::export_slots`] at `slots`, bit for bit.
    fn import_slots(&mut self, _slots: &[SlotId], _bytes: &[u8]) -> Result<(), ModelError> {
        Err(ModelError::Unsupported("moving K/V into this pool".into()))
    }
}

impl KvPool for KvStorage {
    fn bytes_per_token(&self) -> usize {
        KvStorage::bytes_per_token(self)
    }

    fn can_move_kv(&self) -> bool {
        true
    }

    fn export_slots(&self, slots: &[SlotId], out: &mut Vec<u8>) -> Result<(), ModelError> {
        Ok(KvStorage::export_slots(self, slots, out)?)
    }

    fn import_slots(&mut self, slots: &[SlotId], bytes: &[u8]) -> Result<(), ModelError> {
        Ok(KvStorage::import_slots(self, slots, bytes)?)
    }
}

/// What the scheduler needs from a model: the real [`Model`], the GPU runner, or a scripted
/// model in tests. The scheduler is the same for all; only where K/V live differs.
pub trait ForwardModel: Send {
    /// The K/V pool this model reads and writes: host memory for the CPU model, device
    /// memory for the GPU runner.
    type Kv: KvPool;

    fn vocab_size(&self) -> usize;
    /// Longest sequence the model supports.
    fn context_length(&self) -> usize;
    fn kv_layout(&self, dtype: KvDtype) -> KvLayout;
    /// Allocates the K/V pool for `layout` (from [`Self::kv_layout`]).
    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<Self::Kv, ModelError>;
    /// Runs `batch`, writing K/V into `kv`; returns logits of `batch.logits_rows`.
    fn forward(&mut self, batch: &ForwardBatch, kv: &mut Self::Kv) -> Result<&[f32], ModelError>;

    /// Whether [`Self::hidden_states`] gives the hidden states of `hidden_rows`
    /// (embeddings).
    fn computes_hidden_states(&self) -> bool {
        false
    }

    /// The final hidden states (after the output norm, `[rows, hidden]`) of the last
    /// batch's `hidden_rows`; valid until the next pass.
    fn hidden_states(&self) -> Result<&[f32], ModelError> {
        Err(ModelError::Unsupported(
            "hidden states (embeddings) from this runner".into(),
        ))
    }

    /// Whether [`Self::scores`] gives the scores of `score_rows` (prompt
    /// log-probabilities).
    fn computes_scores(&self) -> bool {
        false
    }

    /// The scores of the last batch's `score_rows`, in their order; valid until the next
    /// pass.
    fn scores(&self) -> Result<&[SampleOutput], ModelError> {
        Err(ModelError::Unsupported(
            "prompt log-probabilities from this runner".into(),
        ))
    }

    /// LoRA adapters this runner holds: a batch's requests may name `0..adapters()`.
    fn adapters(&self) -> usize {
        0
    }

    /// The configuration adapters are read against ([`lora::read_adapter`]), if this runner
    /// takes adapter files.
    fn adapter_base(&self) -> Option<ModelConfig> {
        None
    }

    /// Adds `adapter` as number [`Self::adapters`].
    fn add_adapter(&mut self, adapter: lora::LoraAdapter) -> Result<u32, ModelError> {
        let _ = adapter;
        Err(ModelError::Unsupported(
            "LoRA adapters on this runner".into(),
        ))
    }

    /// Unloads adapter `id` (its number is not given out again).
    fn remove_adapter(&mut self, id: u32) -> Result<(), ModelError> {
        Err(ModelError::Adapter(format!(
            "no LoRA adapter {id} is loaded"
        )))
    }

    /// Decode steps this model replayed from a CUDA graph (the GPU runner's count).
    fn graph_replays(&self) -> u64 {
        0
    }

    /// Whether this model samples its logits where they are ([`Self::forward_sampled`]):
    /// the GPU runner does, so only the chosen tokens cross to the host.
    fn samples_on_device(&self) -> bool {
        false
    }

    /// Runs `batch` like [`Self::forward`] and samples each of its logits rows by the plan
    /// of the same index in `sampling`. The GPU runner samples on the device; any other
    /// model runs the kernel's CPU twin over the rows [`Self::forward`] returns, which
    /// gives the same result.
    fn forward_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut Self::Kv,
        sampling: &SamplingBatch,
    ) -> Result<Vec<SampledRow>, ModelError> {
        let vocab = self.vocab_size();
        let mut rows = self.forward(batch, kv)?.to_vec();
        Ok(kernels::sampling::twin::sample_rows(
            &mut rows, vocab, sampling,
        )?)
    }

    /// Starts [`Self::forward_sampled`] on `batch` without waiting for it (overlap
    /// scheduling), its `futures` resolved from the previous launch's rows. A runner that
    /// finishes the batch here returns [`Launched::Ready`] and takes no futures (the caller
    /// resolves them from the rows it has); this default is such a runner.
    fn launch_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut Self::Kv,
        sampling: &SamplingBatch,
        futures: &[FutureToken],
    ) -> Result<Launched, ModelError> {
        if !futures.is_empty() {
            return Err(ModelError::Batch(
                "future tokens reached a runner that completes each launch".into(),
            ));
        }
        Ok(Launched::Ready(self.forward_sampled(batch, kv, sampling)?))
    }

    /// The rows of a batch [`Self::launch_sampled`] started, waiting for it if needed.
    fn collect_sampled(&mut self, launched: Launched) -> Result<Vec<SampledRow>, ModelError> {
        match launched {
            Launched::Ready(rows) => Ok(rows),
            Launched::Pending(slot) => Err(ModelError::Batch(format!(
                "no batch pending in slot {slot} of this runner"
            ))),
        }
    }

    /// The K/V values per token of the layers that attend through a sliding window or in
    /// chunks (their K/V of tokens past the window, or before the current chunk, is kept with
    /// the other layers' but never read again by requests extending further), and of all
    /// layers.
    fn sliding_window_share(&self) -> (usize, usize) {
        (0, 1)
    }

    /// Bytes of recurrent state each running request holds beside its K/V (Qwen3.5's delta
    /// nets, LFM2's short convolutions); 0 for a model of attention alone. Such a state cannot be rebuilt from a cached
    /// prefix's K/V, so the scheduler reuses a prefix only with a saved copy of the state at
    /// its end ([`Self::snapshot_recurrent`]) and drafts no tokens for such a model.
    fn recurrent_state_bytes(&self) -> usize {
        0
    }

    /// Copies row `row`'s recurrent state, which must have absorbed exactly `len` tokens;
    /// returns the copy's id (for [`Self::restore_recurrent`]).
    fn snapshot_recurrent(&mut self, row: u32, len: u32) -> Result<u64, ModelError> {
        let _ = (row, len);
        Err(ModelError::Unsupported(
            "recurrent state on this runner".into(),
        ))
    }

    /// Makes row `row` resume from snapshot `id` (its next pass starts at the snapshot's
    /// length).
    fn restore_recurrent(&mut self, id: u64, row: u32) -> Result<(), ModelError> {
        let _ = (id, row);
        Err(ModelError::Unsupported(
            "recurrent state on this runner".into(),
        ))
    }

    /// Frees snapshot `id`.
    fn drop_recurrent(&mut self, id: u64) {
        let _ = id;
    }
}

impl ForwardModel for Model {
    type Kv = KvStorage;

    fn vocab_size(&self) -> usize {
        self.config().vocab_size
    }

    fn context_length(&self) -> usize {
        self.config().context_length
    }

    fn kv_layout(&self, dtype: KvDtype) -> KvLayout {
        Model::kv_layout(self, dtype)
    }

    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<KvStorage, ModelError> {
        Ok(KvStorage::new(layout, size.num_slots)?)
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<&[f32], ModelError> {
        Model::forward(self, batch, kv)
    }

    fn computes_hidden_states(&self) -> bool {
        true
    }

    fn hidden_states(&self) -> Result<&[f32], ModelError> {
        Ok(Model::hidden_states(self))
    }

    fn computes_scores(&self) -> bool {
        true
    }

    fn scores(&self) -> Result<&[SampleOutput], ModelError> {
        Ok(Model::scores(self))
    }

    fn adapters(&self) -> usize {
        Model::adapters(self)
    }

    fn add_adapter(&mut self, adapter: lora::LoraAdapter) -> Result<u32, ModelError> {
        Model::add_adapter(self, adapter)
    }

    fn remove_adapter(&mut self, id: u32) -> Result<(), ModelError> {
        Model::remove_adapter(self, id)
    }

    fn adapter_base(&self) -> Option<ModelConfig> {
        Some(self.config().clone())
    }

    fn recurrent_state_bytes(&self) -> usize {
        Model::recurrent_state_bytes(self)
    }

    fn snapshot_recurrent(&mut self, row: u32, len: u32) -> Result<u64, ModelError> {
        self.recurrent_mut().snapshot(row, len)
    }

    fn restore_recurrent(&mut self, id: u64, row: u32) -> Result<(), ModelError> {
        self.recurrent_mut().restore(id, row)
    }

    fn drop_recurrent(&mut self, id: u64) {
        self.recurrent_mut().drop_snapshot(id);
    }

    fn sliding_window_share(&self) -> (usize, usize) {
        let layout = self.kv_layout(KvDtype::F32);
        let owners = self.weights().layers.iter().filter(|l| l.owns_kv());
        let sliding = (owners.enumerate())
            .filter(|(_, l)| l.window.is_some() || l.chunk.is_some())
            .map(|(pool_layer, _)| layout.row_len_of(pool_layer))
            .sum();
        let all = (0..layout.num_layers).map(|l| layout.row_len_of(l)).sum();
        (sliding, all)
    }
}
