//! LFM2 (`lfm2`): Liquid AI's hybrid of short convolutions and attention. A layer whose
//! `attention.head_count_kv` entry is 0 is a short convolution (`short_conv`, which carries
//! its last inputs per request instead of K/V); the others attend with per-head Q/K RMS norms
//! and NeoX RoPE, over a sliding window where the file sets `attention.sliding_window`.
//! Every layer has a SwiGLU MLP; the final norm is stored as `token_embd_norm` and the head
//! is tied to the embedding unless the file has `output.weight`, as llama.cpp's `lfm2` graph
//! runs them.
//!
//! LFM2-MoE (`lfm2moe`: LFM2-8B-A1B, LFM2.5-8B-A1B) has the same layers, and from layer
//! `leading_dense_block_count` on a mixture of `expert_count` SwiGLU experts of
//! `expert_feed_forward_length` instead of the dense MLP: chosen by sigmoid scores plus a
//! per-expert selection bias (`exp_probs_b`), weighed by the scores alone and renormalized
//! (unscaled, and without sliding windows: llama.cpp's loader reads neither key for it).

use super::hparams::Hparams;
use super::moe::{self, MoePlan, Routing};
use super::short_conv::MAX_KERNEL;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "lfm2";
pub const MOE_ARCHITECTURE: &str = "lfm2moe";

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
    hp.attention_layers_share_kv_heads()?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let (dense, experts, window) = match hp.architecture.as_str() {
        MOE_ARCHITECTURE => {
            let dense = keys
                .optional_usize(&hp.key("leading_dense_block_count"))?
                .unwrap_or(0);
            (dense, Some(experts(&keys, &hp)?), None)
        }
        _ => (hp.block_count, None, hp.sliding_window),
    };
    let plan = |i: usize| {
        let base = LayerPlan {
            moe: experts.filter(|_| i >= dense),
            ..LayerPlan::default()
        };
        match counts.get(i).copied().unwrap_or(hp.head_count_kv) {
            0 => LayerPlan {
                short_conv: Some(kernel),
                no_rope: true,
                ..base
            },
            _ => LayerPlan {
                qk_norm: true,
                window,
                ..base
            },
        }
    };
    Weights::load_with_output_norm(file, config, vec![rope], "token_embd_norm.weight", plan)
}

/// LFM2-MoE's experts: the scores of the gating `expert_gating_func` names (sigmoid in
/// converted files) plus the selection bias choose, the scores renormalized weigh.
fn experts(keys: &Keys<'_>, hp: &Hparams) -> Result<MoePlan, ModelError> {
    let (experts, top_k) = moe::expert_counts(keys, hp)?;
    let ffn_key = hp.key("expert_feed_forward_length");
    let ffn = keys.required_usize(&ffn_key)?;
    keys.positive(&ffn_key, ffn)?;
    // Required, as llama.cpp's loader requires it (its converter writes sigmoid).
    let gating = moe::required_gating(keys, hp)?;
    // llama.cpp would route within expert groups; no LFM2-MoE file has them.
    let groups_key = hp.key("expert_group_count");
    if let Some(groups) = keys.optional_usize(&groups_key)?.filter(|&g| g > 1) {
        return Err(invalid(&groups_key, format!("{groups} expert groups (unsupported)")).into());
    }
    Ok(MoePlan {
        experts,
        top_k,
        ffn,
        routing: Routing {
            gating,
            normalize: true,
            // llama.cpp's lfm2moe loader reads no `expert_weights_scale`: unscaled.
            scale: 1.0,
            ..Routing::default()
        },
        selection_bias: true,
        ..MoePlan::default()
    })
}
