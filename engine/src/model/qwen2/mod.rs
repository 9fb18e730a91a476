//! Qwen2 and Qwen2.5: Llama's layer with biases on Q, K and V, and RoPE over the two halves
//! of each head (NeoX style).

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "qwen2";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let plan = LayerPlan {
        qkv_bias: true,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
