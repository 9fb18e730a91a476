//! DeepSeek's RoPE and score scale as llama.cpp computes them (its
//! `TAG_DEEPSEEK2_YARN_LOG_MUL_FIX`): with `rope.scaling.yarn_log_multiplier` (the
//! converter's `0.1 * mscale_all_dim`), YaRN's magnitude leaves the rotation and goes into
//! the scores instead, squared: `scale = (attn_factor (1 + 0.1 mscale_all_dim ln factor))^2
//! / sqrt(head)` over a head's `nope + rope` dims, not the latent row's.

use super::super::hparams::Hparams;
use super::super::mla::MlaPlan;
use super::super::rope::{self, Stretch};
use super::super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::{Rope, RopeStyle};

/// The rotation of a head's `rope` dims (adjacent pairs) and the factor `q . k` is
/// multiplied by.
pub fn rope_and_score_scale(
    file: &GgufFile,
    hp: &Hparams,
    mla: &MlaPlan,
) -> Result<(Rope, f32), ModelError> {
    let keys = Keys::new(file.metadata());
    let attn_key = hp.key("rope.scaling.attn_factor");
    let attn_factor = keys.optional_f32(&attn_key)?.unwrap_or(1.0);
    if !(attn_factor.is_finite() && attn_factor > 0.0) {
        return Err(invalid(&attn_key, format!("{attn_factor} is not positive")).into());
    }
    let log_key = hp.key("rope.scaling.yarn_log_multiplier");
    // The converter writes 0.1 * mscale_all_dim; llama.cpp divides the 0.1 out.
    let mscale_all_dim = keys.optional_f32(&log_key)?.unwrap_or(0.0) / 0.1;
    if !mscale_all_dim.is_finite() {
        return Err(invalid(&log_key, format!("{mscale_all_dim} is not finite")).into());
    }
    let stretch = rope::declared_stretch(file, hp)?;
    let rotated = Hparams {
        key_length: mla.rope,
        ..hp.clone()
    };
    let mut rope = rope::rope_for(
        file,
        &rotated,
        RopeStyle::Normal,
        hp.rope_freq_base,
        stretch,
    )?;
    let (factor, yarn) = match stretch {
        Stretch::Yarn { yarn, .. } => (yarn.factor, true),
        Stretch::Linear(factor) => (factor, false),
        Stretch::None => (1.0, false),
    };
    let ln_factor = factor.ln();
    // What YaRN's own magnitude (1 + 0.1 ln factor, where it stretches: the rotation's
    // rule) becomes: cancelled where the file moves it into the scores.
    let yarn_magnitude = if factor > 1.0 {
        1.0 + 0.1 * ln_factor
    } else {
        1.0
    };
    let moved = yarn && mscale_all_dim != 0.0;
    if moved {
        rope = rope.with_mscale(1.0 / yarn_magnitude)?;
    } else if !yarn {
        rope = rope.with_mscale(attn_factor)?;
    }
    let original = if moved {
        attn_factor
    } else {
        attn_factor * yarn_magnitude
    };
    let mscale = original * (1.0 + 0.1 * mscale_all_dim * ln_factor);
    let head = (mla.nope + mla.rope) as f32;
    let scale = mscale * mscale / head.sqrt();
    if !(scale.is_finite() && scale > 0.0) {
        return Err(invalid(&log_key, format!("a score scale of {scale}")).into());
    }
    Ok((rope, scale))
}
