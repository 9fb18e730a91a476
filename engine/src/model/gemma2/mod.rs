//! Gemma 2: embeddings scaled by `sqrt(hidden)`, GeGLU, norms before and after both attention
//! and MLP (no Q/K norms), and every other layer sliding (llama.cpp's pattern of 2: layer `i`
//! slides when `i % 2 == 0`) through `gemma2.attention.sliding_window` keys (4,096 when
//! absent). Attention scores are soft-capped at `gemma2.attn_logit_softcapping` (50 when
//! absent) and logits at `gemma2.final_logit_softcapping` (30 when absent). Queries are scaled
//! by `1/sqrt(head_dim)`, or by `1/sqrt(hidden / heads)` in the 27B model. RoPE pairs the two
//! halves of each head; sliding layers use `gemma2.rope.freq_base_swa` where the file has it.

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, sliding, LoadOptions, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "gemma2";

/// Layers per global one (`gemma2.attention.sliding_window_pattern`): the last of each group
/// of this many attends globally.
const DEFAULT_PATTERN: usize = 2;
const DEFAULT_WINDOW: usize = 4096;
const DEFAULT_ATTN_SOFTCAP: f32 = 50.0;
const DEFAULT_FINAL_SOFTCAP: f32 = 30.0;
/// Gemma 2 27B: 46 layers, queries scaled by `1/sqrt(hidden / heads)`.
const LAYERS_27B: usize = 46;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let mut config = super::gemma3::gemma_config(&hp, file, LAYERS_27B)?;
    let cap = |key: &str, default: f32| -> Result<Option<f32>, ModelError> {
        let value = keys.optional_f32(&hp.key(key))?.unwrap_or(default);
        Ok(super::gemma3::declared_cap(value))
    };
    config.attn_logit_softcap = cap("attn_logit_softcapping", DEFAULT_ATTN_SOFTCAP)?;
    config.final_logit_softcap = cap("final_logit_softcapping", DEFAULT_FINAL_SOFTCAP)?;
    let slides = sliding::sliding_layers(file, &hp, DEFAULT_PATTERN)?;
    let window = hp.sliding_window.unwrap_or(DEFAULT_WINDOW);
    let global = rope::declared(file, &hp, RopeStyle::Neox)?;
    let local = rope::sliding_base(file, &hp, RopeStyle::Neox, &global)?;
    Weights::load(file, config, vec![global, local], |i| {
        let sliding = slides.get(i).copied().unwrap_or(false);
        LayerPlan {
            post_norms: true,
            rope: usize::from(sliding),
            window: sliding.then_some(window),
            ..LayerPlan::default()
        }
    })
}
