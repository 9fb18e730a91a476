//! Llama 2 and 3.x, Mistral (which GGUF files call `llama`) and SmolLM: pre-norm attention and
//! SwiGLU, RoPE over adjacent pairs (GGUF's converter permutes Q and K for it) with linear
//! scaling and Llama 3's per-pair `rope_freqs.weight`; every layer slides where the file
//! declares `llama.attention.sliding_window` (Mistral 7B v0.1). Mixtral is this family with
//! `llama.expert_count` experts in every layer (see `moe`).

use super::hparams::Hparams;
use super::moe;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "llama";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    // Mixtral: experts as wide as the dense MLP would be.
    let moe = moe::mlp_wide_experts(file, &hp)?;
    let plan = LayerPlan {
        window: hp.sliding_window,
        moe,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
