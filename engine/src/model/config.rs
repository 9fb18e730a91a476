//! The shape and constants of a loaded model, and the per-family choices its forward pass
//! makes (activation, scales, soft-capping of scores and logits); per-layer choices live in
//! each layer's weights.

use super::hparams::Hparams;
use super::weights::{matrix_shape, tensor};
use super::ModelError;
use crate::gguf::keys::invalid;
use crate::gguf::GgufFile;
use kernels::cuda_index::ATTN_MAX_HEAD_DIM;

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
    /// Attention reads its values from the key rows (multi-head latent attention: one
    /// K/V head of `head_dim` latent values), so the pool keeps no V buffers.
    pub values_in_keys: bool,
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
            values_in_keys: false,
        })
    }

    /// Refuses constants a forward pass cannot use: every scalar the family set must be
    /// finite, and those that divide, scale scores or cap (`logit_scale`,
    /// `attention.scale`, the soft-caps) positive. Each is named by the `{arch}.*` key it
    /// is read from. Called by the weight loader before any tensor is read.
    pub fn validate(&self) -> Result<(), ModelError> {
        let scalars = [
            ("embedding_scale", self.embedding_scale, false),
            ("residual_scale", self.residual_scale, false),
            ("logit_scale", self.logit_divisor, true),
            ("attention.scale", self.score_scale, true),
            ("final_logit_softcapping", self.final_logit_softcap, true),
            ("attn_logit_softcapping", self.attn_logit_softcap, true),
        ];
        for (suffix, value, must_be_positive) in scalars {
            let Some(value) = value else { continue };
            if !value.is_finite() || (must_be_positive && value <= 0.0) {
                let need = if must_be_positive {
                    "a positive finite number"
                } else {
                    "a finite number"
                };
                let key = format!("{}.{suffix}", self.architecture);
                return Err(invalid(&key, format!("{value} is not {need}")).into());
            }
        }
        Ok(())
    }

    /// Refuses a model the GPU runner cannot compute: its attention kernel holds at most
    /// [`ATTN_MAX_HEAD_DIM`] dims of a head, and would refuse every request of a wider one.
    pub fn check_gpu_attention(&self) -> Result<(), ModelError> {
        if self.head_dim > ATTN_MAX_HEAD_DIM {
            return Err(ModelError::Unsupported(format!(
                "head size {} on the GPU: its attention kernel handles heads of at most \
                 {ATTN_MAX_HEAD_DIM} (serve this model with --device cpu)",
                self.head_dim
            )));
        }
        Ok(())
    }

    pub fn q_dim(&self) -> usize {
        self.num_heads * self.head_dim
    }

    pub fn kv_dim(&self) -> usize {
        self.num_kv_heads * self.head_dim
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ModelConfig {
        ModelConfig {
            architecture: "granite".into(),
            hidden: 64,
            num_layers: 1,
            num_heads: 1,
            num_kv_heads: 1,
            head_dim: 64,
            ffn: 128,
            vocab_size: 16,
            rms_norm_eps: 1e-5,
            context_length: 32,
            activation: Activation::Silu,
            embedding_scale: None,
            score_scale: None,
            final_logit_softcap: None,
            attn_logit_softcap: None,
            residual_scale: None,
            logit_divisor: None,
            values_in_keys: false,
        }
    }

    #[test]
    fn scalars_must_be_finite_and_divisors_and_caps_positive() {
        let mut ok = config();
        ok.embedding_scale = Some(-2.0);
        ok.residual_scale = Some(0.25);
        ok.logit_divisor = Some(8.0);
        ok.score_scale = Some(0.125);
        ok.final_logit_softcap = Some(30.0);
        ok.attn_logit_softcap = Some(50.0);
        ok.validate().unwrap();
        type Spoil = fn(&mut ModelConfig);
        let cases: [(Spoil, &str); 7] = [
            (
                |c| c.embedding_scale = Some(f32::NAN),
                "granite.embedding_scale",
            ),
            (
                |c| c.residual_scale = Some(f32::INFINITY),
                "granite.residual_scale",
            ),
            (|c| c.logit_divisor = Some(0.0), "granite.logit_scale"),
            (|c| c.score_scale = Some(-0.1), "granite.attention.scale"),
            (
                |c| c.score_scale = Some(f32::INFINITY),
                "granite.attention.scale",
            ),
            (
                |c| c.final_logit_softcap = Some(f32::INFINITY),
                "granite.final_logit_softcapping",
            ),
            (
                |c| c.attn_logit_softcap = Some(f32::NAN),
                "granite.attn_logit_softcapping",
            ),
        ];
        for (spoil, key) in cases {
            let mut bad = ok.clone();
            spoil(&mut bad);
            let err = bad.validate().unwrap_err().to_string();
            assert!(err.contains(key), "{err}");
        }
    }

    #[test]
    fn the_gpu_refuses_heads_wider_than_its_attention_kernel() {
        let mut c = config();
        c.head_dim = ATTN_MAX_HEAD_DIM;
        c.check_gpu_attention().unwrap();
        c.head_dim = ATTN_MAX_HEAD_DIM + 1;
        let err = c.check_gpu_attention().unwrap_err();
        assert!(
            matches!(&err, ModelError::Unsupported(m) if m.contains(&format!("head size {}", ATTN_MAX_HEAD_DIM + 1))),
            "{err}"
        );
    }
}
