//! RoPE as the families configure it: the rotation style, the base, linear position scaling
//! and Llama 3's per-pair frequency divisors (`rope_freqs.weight`).

use super::hparams::{Hparams, RopeScalingKind};
use super::weights::vector;
use super::ModelError;
use crate::gguf::GgufFile;
use kernels::rope::{Rope, RopeStyle};

/// Llama 3.1+ ships per-pair frequency divisors as a tensor, not as metadata.
const ROPE_FREQS: &str = "rope_freqs.weight";

/// The linear stretch factor of the file's `{arch}.rope.scaling.*`; YaRN and LongRoPE are
/// refused (a factor of 1 means none of them applies).
pub fn linear_factor(hp: &Hparams) -> Result<f32, ModelError> {
    match hp.rope_scaling {
        None => Ok(1.0),
        Some(s) if s.kind == RopeScalingKind::Linear => Ok(s.factor),
        Some(s) if s.factor == 1.0 => Ok(1.0),
        Some(s) => Err(ModelError::Unsupported(format!(
            "RoPE scaling {:?} ({} declares it)",
            s.kind,
            hp.key("rope.scaling.type")
        ))),
    }
}

/// The rotation of `hp` with `base` and `factor`, and `rope_freqs.weight` if the file has it.
pub fn rope_for(
    file: &GgufFile,
    hp: &Hparams,
    style: RopeStyle,
    base: f32,
    factor: f32,
) -> Result<Rope, ModelError> {
    let rope = Rope::new(hp.key_length, hp.rope_dimension_count, base, style, factor)?;
    match file.tensor(ROPE_FREQS) {
        None => Ok(rope),
        Some(_) => {
            let factors = vector(file, ROPE_FREQS, hp.rope_dimension_count / 2)?;
            Ok(rope.with_freq_factors(&factors)?)
        }
    }
}

/// The file's own RoPE: `{arch}.rope.freq_base` with its linear scaling.
pub fn declared(file: &GgufFile, hp: &Hparams, style: RopeStyle) -> Result<Rope, ModelError> {
    rope_for(file, hp, style, hp.rope_freq_base, linear_factor(hp)?)
}
