//! SmolLM3: Llama's layer (RoPE over adjacent pairs, SwiGLU), except that every fourth layer
//! has no positional encoding at all ("NoPE": layer `i` rotates unless `(i + 1) % 4 == 0`,
//! llama.cpp's rule for this architecture).

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "smollm3";

/// Every this many layers, the last one rotates nothing.
const NO_ROPE_LAYER_STEP: usize = 4;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    Weights::load(file, config, vec![rope], |i| LayerPlan {
        no_rope: (i + 1) % NO_ROPE_LAYER_STEP == 0,
        ..LayerPlan::default()
    })
}
