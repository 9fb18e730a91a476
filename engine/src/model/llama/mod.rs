//! Llama 2 and 3.x, Mistral (which GGUF files call `llama`) and SmolLM: pre-norm attention and
//! SwiGLU, RoPE over adjacent pairs (GGUF's converter permutes Q and K for it) with linear
//! scaling and Llama 3's per-pair `rope_freqs.weight`; every layer slides where the file
//! declares `llama.attention.sliding_window` (Mistral 7B v0.1). Mixtral is this family with
//! `llama.expert_count` experts in every layer (see `moe`).

use super::hparams::Hparams;
use super::moe::{self, ExpertGate, MoePlan};
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "llama";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    let keys = Keys::new(file.metadata());
    // Mixtral: experts as wide as the dense MLP would be.
    let moe = match keys.optional_usize(&hp.key("expert_count"))? {
        Some(experts) if experts > 0 => {
            let top_k = keys.required_usize(&hp.key("expert_used_count"))?;
            moe::check_expert_counts(&hp, experts, top_k)?;
            Some(MoePlan {
                experts,
                top_k,
                ffn: hp.feed_forward_length,
                biases: false,
                gate: ExpertGate::Silu,
            })
        }
        _ => None,
    };
    let plan = LayerPlan {
        window: hp.sliding_window,
        moe,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
