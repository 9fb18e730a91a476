//! Granite 3.x: Llama's layer with four multipliers: embeddings times
//! `granite.embedding_scale`, scores times `granite.attention.scale` (instead of
//! `1/sqrt(head_dim)`), each layer's attention and MLP output times `granite.residual_scale`
//! before the residual add, and logits divided by `granite.logit_scale`. RoPE over adjacent
//! pairs, unless `granite.rope.scaling.finetuned` is false (then no layer rotates). Granite
//! MoE (`granitemoe`: 1B-A400M, 3B-A800M) is the same layer with a mixture of experts as wide
//! as `feed_forward_length` (Mixtral's routing, see `moe`), and Granite MoE Shared adds shared
//! experts `granitemoe.expert_shared_feed_forward_length` wide. The optional projection biases
//! are refused.
//!
//! Granite 4.0's hybrids (`granitehybrid`: H-Micro, H-Tiny, H-Small; Bamba) have the same
//! multipliers, MLPs and experts, and in each layer whose `attention.head_count_kv` entry is
//! 0 a Mamba-2 layer (`mamba2`) instead of attention. Their converter turns RoPE off
//! (`rope.scaling.finetuned` false) unless the model is Bamba.

use super::hparams::Hparams;
use super::mamba2;
use super::moe;
use super::weights::{refuse_biases, LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::mamba2::Mamba2Shape;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "granite";
/// Granite with experts.
pub const MOE_ARCHITECTURE: &str = "granitemoe";
/// Granite 4.0's hybrids of Mamba-2 and attention layers.
pub const HYBRID_ARCHITECTURE: &str = "granitehybrid";

/// Biases some Granite files carry, which this loader does not apply.
const BIASES: [&str; 9] = [
    "attn_q",
    "attn_k",
    "attn_v",
    "attn_output",
    "ffn_gate",
    "ffn_up",
    "ffn_down",
    "ssm_in",
    "ssm_out",
];

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let shared_key = hp.key("expert_shared_feed_forward_length");
    let shared = keys.optional_usize(&shared_key)?.filter(|&n| n > 0);
    // Without experts the key is ignored, as llama.cpp does: the converter writes it for
    // Granite 4.0's dense models, whose one MLP it names their shared MLP.
    let moe = (moe::mlp_wide_experts(file, &hp)?).map(|plan| moe::MoePlan {
        shared_ffn: shared,
        ..plan
    });
    refuse_biases(file, hp.block_count, &BIASES, "Granite")?;
    let mut config = ModelConfig::from_hparams(&hp, file)?;
    let nonzero = |key: &str| -> Result<Option<f32>, ModelError> {
        Ok(keys.optional_f32(&hp.key(key))?.filter(|v| *v != 0.0))
    };
    config.embedding_scale = nonzero("embedding_scale")?;
    config.residual_scale = nonzero("residual_scale")?;
    config.logit_divisor = nonzero("logit_scale")?;
    config.score_scale = nonzero("attention.scale")?;
    let rotates = keys
        .optional_bool(&hp.key("rope.scaling.finetuned"))?
        .unwrap_or(true);
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    let plan = LayerPlan {
        no_rope: !rotates,
        moe,
        ..LayerPlan::default()
    };
    let mamba2_layers = match hp.architecture.as_str() {
        HYBRID_ARCHITECTURE => mamba2_layers(file, &hp)?,
        _ => Vec::new(),
    };
    Weights::load(file, config, vec![rope], |i| {
        match mamba2_layers.get(i).copied().flatten() {
            Some(shape) => LayerPlan {
                mamba2: Some(shape),
                no_rope: true,
                ..plan
            },
            None => plan,
        }
    })
}

/// Each layer's Mamba-2 shape, `None` for the attention layers: a hybrid's Mamba-2 layers are
/// those whose `attention.head_count_kv` entry is 0, and its attention layers share one K/V
/// head count.
fn mamba2_layers(file: &GgufFile, hp: &Hparams) -> Result<Vec<Option<Mamba2Shape>>, ModelError> {
    let counts = &hp.head_counts_kv;
    // (A file of Mamba-2 layers alone has no positive K/V head count: `Hparams` refuses it.)
    hp.attention_layers_share_kv_heads()?;
    let shape = mamba2::declared_shape(file, hp)?;
    Ok((0..hp.block_count)
        .map(|i| (counts.get(i).copied() == Some(0)).then_some(shape))
        .collect())
}
