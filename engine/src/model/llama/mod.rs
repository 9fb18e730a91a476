//! Llama 2 and 3.x, Mistral (which GGUF files call `llama`) and SmolLM: pre-norm attention and
//! SwiGLU, RoPE over adjacent pairs (GGUF's converter permutes Q and K for it) with linear
//! scaling and Llama 3's per-pair `rope_freqs.weight`; every layer slides where the file
//! declares `llama.attention.sliding_window` (Mistral 7B v0.1).

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "llama";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    let plan = LayerPlan {
        window: hp.sliding_window,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
