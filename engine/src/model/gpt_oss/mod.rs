//! gpt-oss (`gpt-oss`): Q/K/V and output projections with biases, a learned sink logit per
//! head in every attention softmax, NeoX RoPE stretched by YaRN, every other layer sliding
//! (llama.cpp's pattern of 2: layer `i` slides when `i % 2 == 0`) over
//! `gpt-oss.attention.sliding_window` keys, and a mixture of experts in every layer whose
//! router and experts have biases and whose experts gate with the clamped SwiGLU (see
//! `moe`). The norm before the MLP is stored as `post_attention_norm`.

use super::hparams::Hparams;
use super::moe::{self, ExpertGate, MoePlan};
use super::weights::{LayerPlan, Weights};
use super::{rope, sliding, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "gpt-oss";

/// Layers per global one (`gpt-oss.attention.sliding_window_pattern`).
const DEFAULT_PATTERN: usize = 2;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let config = ModelConfig::from_hparams(&hp, file)?;
    let (experts, top_k) = moe::expert_counts(&keys, &hp)?;
    let ffn = keys.required_usize(&hp.key("expert_feed_forward_length"))?;
    let window_key = hp.key("attention.sliding_window");
    let window = hp
        .sliding_window
        .ok_or_else(|| ModelError::from(invalid(&window_key, "missing or 0".to_string())))?;
    let slides = sliding::sliding_layers(file, &hp, DEFAULT_PATTERN)?;
    let global = rope::declared(file, &hp, RopeStyle::Neox)?;
    let local = rope::sliding_base(file, &hp, RopeStyle::Neox, &global)?;
    let moe = MoePlan {
        experts,
        top_k,
        ffn,
        biases: true,
        gate: ExpertGate::Clamped,
        ..MoePlan::default()
    };
    Weights::load(file, config, vec![global, local], |i| {
        let sliding = slides.get(i).copied().unwrap_or(false);
        LayerPlan {
            qkv_bias: true,
            rope: usize::from(sliding),
            window: sliding.then_some(window),
            moe: Some(moe),
            attn_sinks: true,
            attn_output_bias: true,
            mlp_norm_named_post_attention: true,
            ..LayerPlan::default()
        }
    })
}
