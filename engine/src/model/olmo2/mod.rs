//! OLMo 2 and OLMo 3 (`olmo2`): nothing normalized before attention or the MLP, RMS norms
//! after both (`post_attention_norm`, `post_ffw_norm`) before the residual adds, and Q and K
//! normalized over their whole rows (not per head) before NeoX RoPE. OLMo 3's files declare
//! a sliding window: three layers of every four then slide (llama.cpp's pattern of 4,
//! `olmo2.attention.sliding_window_pattern` where given), rotating with
//! `olmo2.rope.freq_base_swa` (the base when absent) and no stretch, while the global
//! layers take the file's stretch (OLMo 3's YaRN).

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "olmo2";

/// Layers per global one where the file declares a window but no pattern.
const DEFAULT_PATTERN: usize = 4;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let config = ModelConfig::from_hparams(&hp, file)?;
    let global = rope::declared(file, &hp, RopeStyle::Neox)?;
    let local_base = keys
        .optional_f32(&hp.key("rope.freq_base_swa"))?
        .unwrap_or(hp.rope_freq_base);
    let local = rope::rope_for(file, &hp, RopeStyle::Neox, local_base, rope::Stretch::None)?;
    let pattern = keys
        .optional_usize(&hp.key("attention.sliding_window_pattern"))?
        .unwrap_or(DEFAULT_PATTERN)
        .max(1);
    let window = hp.sliding_window;
    Weights::load(file, config, vec![global, local], |i| {
        let sliding = window.is_some() && i % pattern < pattern - 1;
        LayerPlan {
            qk_norm: true,
            whole_qk_norm: true,
            post_norms: true,
            no_pre_norms: true,
            rope: usize::from(sliding),
            window: window.filter(|_| sliding),
            ..LayerPlan::default()
        }
    })
}
