//! OLMo 2 and OLMo 3 (`olmo2`): nothing normalized before attention or the MLP, RMS norms
//! after both (`post_attention_norm`, `post_ffw_norm`) before the residual adds, and Q and K
//! normalized over their whole rows (not per head) before NeoX RoPE. OLMo 3's files declare
//! a sliding window: the layers `olmo2.attention.sliding_window_pattern` names then slide
//! (its converter writes a flag per layer; three of every four where absent), rotating with
//! the file's base and no stretch, while the global layers take the file's stretch (OLMo
//! 3's YaRN), as llama.cpp's graph does.

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{rope, sliding, LoadOptions, ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "olmo2";

/// Layers per global one where the file declares a window but no pattern.
const DEFAULT_PATTERN: usize = 4;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let global = rope::declared(file, &hp, RopeStyle::Neox)?;
    // As llama.cpp's olmo2 graph: the sliding layers rotate with the file's base, unstretched.
    let local = rope::rope_for(
        file,
        &hp,
        RopeStyle::Neox,
        hp.rope_freq_base,
        rope::Stretch::None,
    )?;
    let slides = sliding::sliding_layers(file, &hp, DEFAULT_PATTERN)?;
    let window = hp.sliding_window;
    Weights::load(file, config, vec![global, local], |i| {
        let sliding = window.is_some() && slides.get(i).copied().unwrap_or(false);
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
