//! Qwen3 (dense): no biases, a per-head RMSNorm on Q and K before RoPE (NeoX style), and a
//! head size of its own (`qwen3.attention.key_length`, 128, not hidden / heads).

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "qwen3";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let plan = LayerPlan {
        qk_norm: true,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
