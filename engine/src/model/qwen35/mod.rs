//! Qwen3.5 (`qwen35`) and Qwen3.5-MoE (`qwen35moe`): a hybrid of linear and full attention.
//! Three of every four layers (`full_attention_interval`, or the file's
//! `attention.recurrent_layers`) are gated delta nets (`delta_net`), which carry a state per
//! request instead of K/V; the others attend with per-head Q/K norms, NeoX RoPE over the
//! first `rope.dimension_count` dimensions of each head, and an output gate per query head
//! (`attn_q` holds each head's query rows then its gate rows). Every layer's MLP norm is
//! stored as `post_attention_norm`. The MoE files have in every layer `expert_count` experts
//! of `expert_feed_forward_length`, chosen by softmax and renormalized, beside a shared
//! expert of `expert_shared_feed_forward_length` scaled by `sigmoid(x . ffn_gate_inp_shexp)`,
//! as llama.cpp's graphs run them. Multi-token-prediction layers are left in the file.
//!
//! Qwen3-Next (`qwen3next`) is the MoE model's forerunner: the same layers, plain NeoX RoPE
//! (no sections), experts in every layer, and its delta nets' files laid out as
//! [`DeltaLayout::Qwen3Next`] (value heads grouped by key head, beta and alpha fused).
//!
//! RoPE is llama.cpp's interleaved multi-section kind (`rope.dimension_sections`): for text
//! every section reads the token's position, which is NeoX's rotation, so long as no rotated
//! pair falls in the fourth section (position 0 for text); a file whose sections leave any
//! there is refused.

use super::delta_net::{self, DeltaLayout, DeltaPlan};
use super::hparams::Hparams;
use super::moe;
use super::nextn;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::{GgufFile, MetadataValue};
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "qwen35";
pub const MOE_ARCHITECTURE: &str = "qwen35moe";
pub const NEXT_ARCHITECTURE: &str = "qwen3next";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let next = hp.architecture == NEXT_ARCHITECTURE;
    if !next {
        check_sections(file, &hp)?;
    }
    let recurrent = delta_net::recurrent_layers(file, &hp)?;
    let trunk = Hparams {
        block_count: nextn::trunk_layers(&keys, &hp)?,
        ..hp.clone()
    };
    if recurrent[..trunk.block_count].iter().all(|&r| r) {
        return Err(ModelError::Unsupported(
            "no attention layer: every layer is a delta net".into(),
        ));
    }
    let config = ModelConfig::from_hparams(&trunk, file)?;
    let layout = match next {
        true => DeltaLayout::Qwen3Next,
        false => DeltaLayout::Qwen35,
    };
    let delta = DeltaPlan::new(delta_net::declared_shape(file, &hp)?, layout);
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let moe = match hp.architecture.as_str() {
        MOE_ARCHITECTURE | NEXT_ARCHITECTURE => Some(moe::qwen_experts(&keys, &hp, true)?),
        _ => None,
    };
    Weights::load(file, config, vec![rope], |i| {
        let base = LayerPlan {
            mlp_norm_named_post_attention: true,
            moe,
            ..LayerPlan::default()
        };
        match recurrent[i] {
            true => LayerPlan {
                delta_net: Some(delta),
                no_rope: true,
                ..base
            },
            false => LayerPlan {
                qk_norm: true,
                query_gate: true,
                ..base
            },
        }
    })
}

/// Refuses `rope.dimension_sections` that are absent, malformed, or send a rotated pair to
/// the fourth section, as llama.cpp's interleaved rule assigns them: pair `i`'s sector
/// `i % sum` reads the height when `sector % 3 == 1` and `sector < 3 s1`, the width when
/// `sector % 3 == 2` and `sector < 3 s2`, the time when `sector % 3 == 0` and
/// `sector < 3 s0`, the fourth section otherwise.
fn check_sections(file: &GgufFile, hp: &Hparams) -> Result<(), ModelError> {
    let key = hp.key("rope.dimension_sections");
    let sections: Option<Vec<u64>> = file
        .metadata()
        .get(&key)
        .and_then(MetadataValue::as_array)
        .and_then(|items| items.iter().map(MetadataValue::as_u64).collect());
    let s = match sections.as_deref() {
        Some(&[s0, s1, s2, s3]) => [s0, s1, s2, s3],
        _ => return Err(invalid(&key, "not four section sizes".into()).into()),
    };
    let total: u64 = s.iter().sum();
    if total == 0 || total > hp.key_length as u64 {
        return Err(invalid(&key, format!("{s:?} for heads of {}", hp.key_length)).into());
    }
    let reads_position = |sector: u64| match sector % 3 {
        1 => sector < 3 * s[1],
        2 => sector < 3 * s[2],
        _ => sector < 3 * s[0],
    };
    let pairs = hp.rope_dimension_count as u64 / 2;
    if let Some(pair) = (0..pairs).find(|&i| !reads_position(i % total)) {
        return Err(ModelError::Unsupported(format!(
            "{key} {s:?}: rotated pair {pair} reads the fourth section (images' positions)"
        )));
    }
    Ok(())
}
