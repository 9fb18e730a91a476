//! RoPE as the families configure it: the rotation style, the base, the file's context
//! stretch (linear, or YaRN as llama.cpp runs it) and Llama 3's per-pair frequency divisors
//! (`rope_freqs.weight`).

use super::hparams::{Hparams, RopeScalingKind};
use super::weights::vector;
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::{Rope, RopeStyle, Yarn};

/// Llama 3.1+ ships per-pair frequency divisors as a tensor, not as metadata.
const ROPE_FREQS: &str = "rope_freqs.weight";

/// How a rotation stretches positions past the trained context.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stretch {
    None,
    /// Positions divided by the factor.
    Linear(f32),
    /// YaRN's per-pair mix, then every rotated pair scaled by the file's
    /// `rope.scaling.attn_factor` (1 when absent).
    Yarn {
        yarn: Yarn,
        attn_factor: f32,
    },
}

/// The stretch the file's `{arch}.rope.scaling.*` declares. LongRoPE is refused here (a
/// factor of 1 means it does not apply): `phi3` reads its factors itself.
pub fn declared_stretch(file: &GgufFile, hp: &Hparams) -> Result<Stretch, ModelError> {
    let Some(s) = hp.rope_scaling else {
        return Ok(Stretch::None);
    };
    match s.kind {
        RopeScalingKind::Linear => Ok(Stretch::Linear(s.factor)),
        RopeScalingKind::Yarn => {
            let keys = Keys::new(file.metadata());
            let attn_key = hp.key("rope.scaling.attn_factor");
            let attn_factor = keys.optional_f32(&attn_key)?.unwrap_or(1.0);
            if !(attn_factor.is_finite() && attn_factor > 0.0) {
                return Err(invalid(&attn_key, format!("{attn_factor} is not positive")).into());
            }
            // 0 means none given, as in llama.cpp.
            let original = s
                .original_context_length
                .filter(|&n| n > 0)
                .unwrap_or(hp.context_length);
            Ok(Stretch::Yarn {
                yarn: Yarn::new(s.factor, original),
                attn_factor,
            })
        }
        RopeScalingKind::LongRope if s.factor == 1.0 => Ok(Stretch::None),
        RopeScalingKind::LongRope => Err(ModelError::Unsupported(format!(
            "RoPE scaling {:?} ({} declares it)",
            s.kind,
            hp.key("rope.scaling.type")
        ))),
    }
}

/// The rotation of `hp` with `base`, stretched by `stretch`, and `rope_freqs.weight` if the
/// file has it.
pub fn rope_for(
    file: &GgufFile,
    hp: &Hparams,
    style: RopeStyle,
    base: f32,
    stretch: Stretch,
) -> Result<Rope, ModelError> {
    let linear = match stretch {
        Stretch::Linear(factor) => factor,
        Stretch::None | Stretch::Yarn { .. } => 1.0,
    };
    let mut rope = Rope::new(hp.key_length, hp.rope_dimension_count, base, style, linear)?;
    if let Stretch::Yarn { yarn, attn_factor } = stretch {
        rope = rope.with_yarn(yarn)?.with_mscale(attn_factor)?;
    }
    match file.tensor(ROPE_FREQS) {
        None => Ok(rope),
        Some(_) => {
            let factors = vector(file, ROPE_FREQS, hp.rope_dimension_count / 2)?;
            Ok(rope.with_freq_factors(&factors)?)
        }
    }
}

/// llama.cpp's YaRN magnitude where a file gives `{arch}.rope.scaling.yarn_log_multiplier`
/// `m` (Ministral 3; DeepSeek's own rule is in `deepseek2::scale`): the rotated pairs are
/// scaled by `(1 + 0.1 ln f) / (1 + 0.1 m ln f)` rather than YaRN's `1 + 0.1 ln f`, so a
/// multiplier of 1 leaves only the file's `attn_factor`.
pub fn with_yarn_log_multiplier(
    file: &GgufFile,
    hp: &Hparams,
    rope: Rope,
    stretch: Stretch,
) -> Result<Rope, ModelError> {
    let key = hp.key("rope.scaling.yarn_log_multiplier");
    let multiplier = Keys::new(file.metadata())
        .optional_f32(&key)?
        .unwrap_or(0.0);
    if !multiplier.is_finite() {
        return Err(invalid(&key, format!("{multiplier} is not finite")).into());
    }
    match stretch {
        Stretch::Yarn { yarn, .. } if multiplier != 0.0 && yarn.factor > 1.0 => {
            let magnitude = 1.0 + 0.1 * multiplier * yarn.factor.ln();
            if !(magnitude.is_finite() && magnitude > 0.0) {
                return Err(invalid(&key, format!("a YaRN magnitude of {magnitude}")).into());
            }
            Ok(rope.with_mscale(1.0 / magnitude)?)
        }
        _ => Ok(rope),
    }
}

/// The file's own RoPE: `{arch}.rope.freq_base` with its declared stretch.
pub fn declared(file: &GgufFile, hp: &Hparams, style: RopeStyle) -> Result<Rope, ModelError> {
    rope_for(
        file,
        hp,
        style,
        hp.rope_freq_base,
        declared_stretch(file, hp)?,
    )
}

/// The rotation of a family's sliding layers: `global` (the file's own), unless the file
/// declares `{arch}.rope.freq_base_swa` (a positive, finite base, refused by name
/// otherwise), then that base with the file's stretch (Gemma 2, gpt-oss).
pub fn sliding_base(
    file: &GgufFile,
    hp: &Hparams,
    style: RopeStyle,
    global: &Rope,
) -> Result<Rope, ModelError> {
    let key = hp.key("rope.freq_base_swa");
    match Keys::new(file.metadata()).optional_f32(&key)? {
        Some(base) if !(base.is_finite() && base > 0.0) => {
            Err(invalid(&key, format!("base {base} is not positive and finite")).into())
        }
        Some(base) => rope_for(file, hp, style, base, declared_stretch(file, hp)?),
        None => Ok(global.clone()),
    }
}
