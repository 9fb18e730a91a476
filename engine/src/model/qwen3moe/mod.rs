//! Qwen3-MoE: Qwen3's attention (per-head Q/K norms, NeoX RoPE) with a mixture of experts in
//! every layer: `qwen3moe.expert_count` experts of width `qwen3moe.expert_feed_forward_length`
//! (llama.cpp's default: `feed_forward_length / expert_used_count`), of which
//! `qwen3moe.expert_used_count` run per token (see `moe`).

use super::hparams::Hparams;
use super::moe::{self, MoePlan};
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "qwen3moe";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let config = ModelConfig::from_hparams(&hp, file)?;
    let (experts, top_k) = moe::expert_counts(&keys, &hp)?;
    let ffn = match keys.optional_usize(&hp.key("expert_feed_forward_length"))? {
        Some(ffn) => ffn,
        None => hp.feed_forward_length / top_k,
    };
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let plan = LayerPlan {
        qk_norm: true,
        moe: Some(MoePlan {
            experts,
            top_k,
            ffn,
            ..MoePlan::default()
        }),
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
