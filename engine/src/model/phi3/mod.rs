//! Phi-3 and Phi-4 (`phi3`): Llama's layer with Q|K|V in one tensor (`attn_qkv`), gate|up in
//! one (`ffn_up`, gate first) and RoPE over the two halves of each head (NeoX style). A
//! declared `phi3.attention.sliding_window` is not applied, as llama.cpp does not apply it
//! (the converters' values do not match how the models were trained). LongRoPE files (the
//! 128k variants, with `rope_factors_long`/`rope_factors_short`) are refused.

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "phi3";

/// Tensors this family's loader does not read: refused rather than silently ignored.
const UNSUPPORTED: [(&str, &str); 3] = [
    (
        "rope_factors_long.weight",
        "LongRoPE (the 128k-context variants)",
    ),
    (
        "rope_factors_short.weight",
        "LongRoPE (the 128k-context variants)",
    ),
    ("output.bias", "a bias on the output head"),
];

pub fn load(file: &GgufFile) -> Result<Weights, ModelError> {
    if let Some((tensor, what)) = UNSUPPORTED
        .iter()
        .find(|(name, _)| file.tensor(name).is_some())
    {
        return Err(ModelError::Unsupported(format!(
            "{what} ({tensor}) in a {ARCHITECTURE} model"
        )));
    }
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let plan = LayerPlan {
        fused_tensors: true,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
