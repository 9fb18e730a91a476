//! EXAONE 4.0 (`exaone4`): nothing normalized before attention or the MLP, RMS norms after
//! both (`post_attention_norm`, `post_ffw_norm`) before the residual adds, as OLMo 2; Q and K
//! RMS-normalized per head before NeoX RoPE (with Llama 3's `rope_freqs.weight` where the file
//! has it). As llama.cpp's graph, only a model of 64 layers (the 32B) slides: three layers of
//! every four (`attention.sliding_window_pattern` where the file sets it) attend within
//! `attention.sliding_window` keys (4,096 where absent) and rotate, the others attend to
//! every key without RoPE; a model of another depth (the 1.2B) attends globally with RoPE
//! in every layer.

use super::hparams::Hparams;
use super::weights::{LayerPlan, Weights};
use super::{nextn, rope, sliding, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "exaone4";

/// The depth at which llama.cpp's loader gives the model sliding windows (EXAONE 4.0 32B's).
const SLIDING_DEPTH: usize = 64;
/// Layers per global one where the file declares no pattern.
const DEFAULT_PATTERN: usize = 4;
/// The window where the file declares none.
const DEFAULT_WINDOW: usize = 4096;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let all = Hparams::from_metadata(file.metadata())?;
    // Multi-token-prediction layers a file keeps after the model's own are left unread.
    let hp = Hparams {
        block_count: nextn::trunk_layers(&Keys::new(file.metadata()), &all)?,
        ..all
    };
    // llama.cpp's graph rotates whole heads (it asserts so).
    if hp.rope_dimension_count != hp.key_length {
        return Err(invalid(
            &hp.key("rope.dimension_count"),
            format!(
                "{} rotated dims of heads of {}",
                hp.rope_dimension_count, hp.key_length
            ),
        )
        .into());
    }
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let (slides, window) = match hp.block_count {
        SLIDING_DEPTH => (
            sliding::sliding_layers(file, &hp, DEFAULT_PATTERN)?,
            Some(hp.sliding_window.unwrap_or(DEFAULT_WINDOW)),
        ),
        _ => (Vec::new(), None),
    };
    Weights::load(file, config, vec![rope], |i| {
        let sliding = slides.get(i).copied().unwrap_or(false);
        LayerPlan {
            qk_norm: true,
            post_norms: true,
            no_pre_norms: true,
            // Where some layers slide, the global ones do not rotate.
            no_rope: window.is_some() && !sliding,
            window: window.filter(|_| sliding),
            ..LayerPlan::default()
        }
    })
}
