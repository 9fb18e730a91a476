//! Phi-3 and Phi-4 (`phi3`): Llama's layer with Q|K|V in one tensor (`attn_qkv`), gate|up in
//! one (`ffn_up`, gate first) and RoPE over the two halves of each head (NeoX style). A
//! declared `phi3.attention.sliding_window` is not applied, as llama.cpp does not apply it
//! (the converters' values do not match how the models were trained).
//!
//! LongRoPE (Phi-3.5-mini, Phi-4-mini, the 128k Phi-3 variants) as llama.cpp runs it: the
//! frequencies are divided by `rope_factors_short` when the served context fits the original
//! one (`phi3.rope.scaling.original_context_length`), by `rope_factors_long` otherwise, and the
//! rotated dimensions of Q and K are multiplied by `phi3.rope.scaling.attn_factor`.

use super::hparams::Hparams;
use super::weights::{vector, LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "phi3";

const LONG_FACTORS: &str = "rope_factors_long.weight";
const SHORT_FACTORS: &str = "rope_factors_short.weight";

pub fn load(file: &GgufFile, options: &LoadOptions) -> Result<Weights, ModelError> {
    if file.tensor("output.bias").is_some() {
        return Err(ModelError::Unsupported(format!(
            "a bias on the output head (output.bias) in a {ARCHITECTURE} model"
        )));
    }
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let mut rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    if let Some((factors, attn_factor)) = long_rope(file, &hp, options)? {
        rope = rope.with_freq_factors(&factors)?.with_mscale(attn_factor)?;
    }
    let plan = LayerPlan {
        fused_tensors: true,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}

/// The frequency divisors and the Q/K factor of a LongRoPE file for the context `options`
/// serve; `None` for a file without LongRoPE factors.
fn long_rope(
    file: &GgufFile,
    hp: &Hparams,
    options: &LoadOptions,
) -> Result<Option<(Vec<f32>, f32)>, ModelError> {
    let (has_long, has_short) = (
        file.tensor(LONG_FACTORS).is_some(),
        file.tensor(SHORT_FACTORS).is_some(),
    );
    if !has_long && !has_short {
        return Ok(None);
    }
    if !(has_long && has_short) {
        return Err(ModelError::Shape(format!(
            "a LongRoPE {ARCHITECTURE} model needs both {LONG_FACTORS} and {SHORT_FACTORS}"
        )));
    }
    let keys = Keys::new(file.metadata());
    let original = keys
        .optional_usize(&hp.key("rope.scaling.original_context_length"))?
        .unwrap_or(hp.context_length);
    let attn_factor = keys
        .optional_f32(&hp.key("rope.scaling.attn_factor"))?
        .unwrap_or(1.0);
    // Both are read, so a broken one is refused whichever this context needs.
    let pairs = hp.rope_dimension_count / 2;
    let (long, short) = (
        vector(file, LONG_FACTORS, pairs)?,
        vector(file, SHORT_FACTORS, pairs)?,
    );
    let factors = if options.served_context(hp.context_length) > original {
        long
    } else {
        short
    };
    Ok(Some((factors, attn_factor)))
}
