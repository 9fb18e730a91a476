//! Gemma 3 (text): embeddings scaled by `sqrt(hidden)`, GeGLU, per-head Q/K norms, norms
//! before and after both attention and MLP, and interleaved layers: five of every six attend
//! through a sliding window with RoPE base 10,000, the sixth attends globally with the file's
//! base and linear scaling (llama.cpp's rule: layer `i` slides unless `(i + 1) % 6 == 0`).
//! GGUF's converter already adds Gemma's `1 +` to the norm weights. Logits are soft-capped
//! where the file declares `gemma3.final_logit_softcapping`.

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, Activation, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "gemma3";

/// Sliding layers per global one, plus one (`gemma3.attention.sliding_window_pattern`).
const DEFAULT_PATTERN: usize = 6;
/// RoPE base of the sliding layers (fixed by the architecture, not in the file).
const LOCAL_ROPE_BASE: f32 = 10_000.0;
/// Gemma 3 27B: 62 layers, queries scaled by `1/sqrt(hidden / heads)`.
const LAYERS_27B: usize = 62;

/// What Gemma 2 and 3 share: GeGLU, embeddings scaled by `sqrt(hidden)`, and queries scaled
/// by `1/sqrt(hidden / heads)` instead of `1/sqrt(head_dim)` in the 27B model (`layers_27b`
/// layers).
pub(super) fn gemma_config(
    hp: &Hparams,
    file: &GgufFile,
    layers_27b: usize,
) -> Result<ModelConfig, ModelError> {
    let mut config = ModelConfig::from_hparams(hp, file)?;
    config.activation = Activation::GeluTanh;
    config.embedding_scale = Some((config.hidden as f32).sqrt());
    if hp.block_count == layers_27b {
        let per_head = config.hidden / config.num_heads;
        if per_head == 0 {
            return Err(invalid(
                &hp.key("attention.head_count"),
                format!(
                    "{} heads leave none of the {} hidden dims to each head",
                    config.num_heads, config.hidden
                ),
            )
            .into());
        }
        config.score_scale = Some(1.0 / (per_head as f32).sqrt());
    }
    Ok(config)
}

/// A soft-cap as Gemma files declare it: 0 or below means none; anything else, NaN and
/// infinity included, is kept for [`ModelConfig::validate`] to judge.
pub(super) fn declared_cap(cap: f32) -> Option<f32> {
    (cap > 0.0 || cap.is_nan()).then_some(cap)
}

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let mut config = gemma_config(&hp, file, LAYERS_27B)?;
    config.final_logit_softcap = keys
        .optional_f32(&hp.key("final_logit_softcapping"))?
        .and_then(declared_cap);
    let pattern = keys
        .optional_usize(&hp.key("attention.sliding_window_pattern"))?
        .unwrap_or(DEFAULT_PATTERN)
        .max(1);
    let global = rope::declared(file, &hp, RopeStyle::Neox)?;
    let local = rope::rope_for(
        file,
        &hp,
        RopeStyle::Neox,
        LOCAL_ROPE_BASE,
        rope::Stretch::None,
    )?;
    let window = hp.sliding_window;
    Weights::load(file, config, vec![global, local], |i| {
        let sliding = window.is_some() && (i + 1) % pattern != 0;
        LayerPlan {
            qk_norm: true,
            post_norms: true,
            rope: usize::from(sliding),
            window: window.filter(|_| sliding),
            ..LayerPlan::default()
        }
    })
}
