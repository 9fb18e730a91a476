//! The shape and constants of a loaded model, and the per-family choices its forward pass
//! makes (activation, scales, soft-capping of scores and logits); per-layer choices live in
//! each layer's weights.

use super::hparams::Hparams;
use super::weights::{matrix_shape, tensor};
use super::ModelError;
use crate::gguf::GgufFile;

/// The gated MLP's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// SwiGLU: `silu(gate) * up` (Llama, Qwen).
    Silu,
    /// GeGLU with GELU's tanh form: `gelu(gate) * up` (Gemma).
    GeluTanh,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ModelConfig {
    /// `general.architecture`: the family that loaded the model.
    pub architecture: String,
    pub hidden: usize,
    pub num_layers: usize,
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
    pub ffn: usize,
    pub vocab_size: usize,
    pub rms_norm_eps: f32,
    pub context_length: usize,
    pub activation: Activation,
    /// Multiplies the token embeddings (Gemma: `sqrt(hidden)`).
    pub embedding_scale: Option<f32>,
    /// What attention multiplies `q . k` by instead of `1/sqrt(head_dim)` (Gemma's 27B models:
    /// `1/sqrt(hidden / heads)`; Granite: its `attention.scale`).
    pub score_scale: Option<f32>,
    /// `cap * tanh(logits / cap)` on the output logits, where the file declares it.
    pub final_logit_softcap: Option<f32>,
    /// `cap * tanh(score / cap)` on every attention score (Gemma 2).
    pub attn_logit_softcap: Option<f32>,
    /// Multiplies what attention and the MLP add to the residual stream (Granite).
    pub residual_scale: Option<f32>,
    /// Divides the output logits (Granite's `logit_scale`).
    pub logit_divisor: Option<f32>,
}

impl ModelConfig {
    /// The shared part from the hyper-parameters; the family then sets its own choices.
    pub fn from_hparams(hp: &Hparams, file: &GgufFile) -> Result<Self, ModelError> {
        if hp.head_count == 0
            || hp.head_count_kv == 0
            || !hp.head_count.is_multiple_of(hp.head_count_kv)
        {
            return Err(ModelError::Shape(format!(
                "{} heads cannot be grouped over {} KV heads",
                hp.head_count, hp.head_count_kv
            )));
        }
        if hp.key_length != hp.value_length {
            return Err(ModelError::Unsupported(
                "key and value head sizes differ".into(),
            ));
        }
        let embd = tensor(file, "token_embd.weight")?;
        let vocab_size = matrix_shape(&embd, hp.embedding_length)?;
        Ok(Self {
            architecture: hp.architecture.clone(),
            hidden: hp.embedding_length,
            num_layers: hp.block_count,
            num_heads: hp.head_count,
            num_kv_heads: hp.head_count_kv,
            head_dim: hp.key_length,
            ffn: hp.feed_forward_length,
            vocab_size,
            rms_norm_eps: hp.rms_norm_eps,
            context_length: hp.context_length,
            activation: Activation::Silu,
            embedding_scale: None,
            score_scale: None,
            final_logit_softcap: None,
            attn_logit_softcap: None,
            residual_scale: None,
            logit_divisor: None,
        })
    }

    pub fn q_dim(&self) -> usize {
        self.num_heads * self.head_dim
    }

    pub fn kv_dim(&self) -> usize {
        self.num_kv_heads * self.head_dim
    }
}
