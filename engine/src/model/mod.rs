//! The Llama-family model: weights loaded from GGUF and a forward pass over the paged KV pool.

mod batch;
mod forward;
pub mod scripted;
mod weights;

pub use batch::ForwardBatch;
pub use forward::Model;
pub use weights::{ModelConfig, Weights};

use crate::gguf::GgufError;
use kernels::KernelError;
use pools::PoolError;
use pools::{KvDtype, KvLayout, KvStorage};

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
}

/// What the scheduler needs from a model: the real [`Model`], or a scripted one in tests.
pub trait ForwardModel: Send {
    fn vocab_size(&self) -> usize;
    /// Longest sequence the model supports.
    fn context_length(&self) -> usize;
    fn kv_layout(&self, dtype: KvDtype) -> KvLayout;
    /// Runs `batch`, writing K/V into `kv`; returns logits of `batch.logits_rows`.
    fn forward(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<&[f32], ModelError>;
}

impl ForwardModel for Model {
    fn vocab_size(&self) -> usize {
        self.config().vocab_size
    }

    fn context_length(&self) -> usize {
        self.config().context_length
    }

    fn kv_layout(&self, dtype: KvDtype) -> KvLayout {
        Model::kv_layout(self, dtype)
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<&[f32], ModelError> {
        Model::forward(self, batch, kv)
    }
}
