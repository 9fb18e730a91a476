//! LFM2 (`lfm2`): Liquid AI's hybrid of short convolutions and attention. A layer whose
//! `attention.head_count_kv` entry is 0 is a short convolution (`short_conv`, which carries
//! its last inputs per request instead of K/V); the others attend with per-head Q/K RMS norms
//! and NeoX RoPE, over a sliding window where the file sets `attention.sliding_window`.
//! Every layer has a SwiGLU MLP; the final norm is stored as `token_embd_norm` and the head
//! is tied to the embedding unless the file has `output.weight`, as llama.cpp's `lfm2` graph
//! runs them.

use super::hparams::Hparams;
use super::short_conv::MAX_KERNEL;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "lfm2";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let kernel_key = hp.key("shortconv.l_cache");
    let kernel = keys.required_usize(&kernel_key)?;
    // The state is the last `kernel - 1` inputs: a kernel of one tap would keep none.
    if !(2..=MAX_KERNEL).contains(&kernel) {
        return Err(invalid(&kernel_key, format!("{kernel} taps, not 2 to {MAX_KERNEL}")).into());
    }
    let counts = &hp.head_counts_kv;
    // (A file of convolutions alone has no positive K/V head count: `Hparams` refuses it.)
    let mut attending = counts.iter().filter(|&&kv| kv != 0);
    if let Some(other) = attending.find(|&&kv| kv != hp.head_count_kv) {
        return Err(invalid(
            &hp.key("attention.head_count_kv"),
            format!(
                "attention layers with {other} and {} K/V heads",
                hp.head_count_kv
            ),
        )
        .into());
    }
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let window = hp.sliding_window;
    let plan = |i: usize| match counts.get(i).copied().unwrap_or(hp.head_count_kv) {
        0 => LayerPlan {
            short_conv: Some(kernel),
            no_rope: true,
            ..LayerPlan::default()
        },
        _ => LayerPlan {
            qk_norm: true,
            window,
            ..LayerPlan::default()
        },
    };
    Weights::load_with_output_norm(file, config, vec![rope], "token_embd_norm.weight", plan)
}
