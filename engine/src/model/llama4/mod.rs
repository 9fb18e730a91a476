//! Llama 4 Scout and Maverick (`llama4`), as llama.cpp's graph runs them: Llama's layer (RoPE
//! over adjacent pairs, Llama 3's `rope_freqs.weight`) where every fourth layer rotates
//! nothing and scales its queries by position instead (by `1 + 0.1 ln(floor((pos + 1) /
//! 8192) + 1)`), the others attend within chunks of 8,192 positions (those
//! `sliding_window_pattern` names; three of every four by default) and, except in Maverick
//! (128 experts), RMS-normalize Q and K per head without weights. Every `interleave_moe_layer_step`-th layer has
//! `expert_count` experts of `expert_feed_forward_length`, of which `expert_used_count` run,
//! each on its input scaled by the sigmoid of its router logit, beside a shared expert as wide;
//! the others a dense MLP. llama.cpp fixes the chunk and the temperature whatever the file
//! says, and so does the loader; a file declaring a sliding window of 0 (no chunks) is refused,
//! as llama.cpp's graph cannot run one either.

use super::hparams::Hparams;
use super::moe::{self, Gating, MoePlan, Routing};
use super::temperature::AttentionTemperature;
use super::weights::{LayerPlan, Weights};
use super::{rope, sliding, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "llama4";

/// Positions per attention chunk, and per step of the NoPE layers' temperature.
const CHUNK: usize = 8192;
/// Every this many layers, the last one rotates nothing.
const NO_ROPE_LAYER_STEP: usize = 4;
/// Layers per full-attention one where the file gives no pattern.
const DEFAULT_PATTERN: usize = 4;
/// Maverick's expert count: its layers take no Q/K norm.
const MAVERICK_EXPERTS: usize = 128;

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let window_key = hp.key("attention.sliding_window");
    if keys.optional_usize(&window_key)? == Some(0) {
        return Err(ModelError::Unsupported(format!(
            "{window_key} = 0: a Llama 4 without chunked attention"
        )));
    }
    let config = ModelConfig::from_hparams(&hp, file)?;
    let (experts, top_k) = moe::expert_counts(&keys, &hp)?;
    let step_key = hp.key("interleave_moe_layer_step");
    let step = keys.required_usize(&step_key)?;
    keys.positive(&step_key, step)?;
    let ffn_key = hp.key("expert_feed_forward_length");
    let ffn = keys.required_usize(&ffn_key)?;
    if ffn == 0 {
        return Err(invalid(&ffn_key, "experts of width 0".into()).into());
    }
    let global = rope::declared(file, &hp, RopeStyle::Normal)?;
    let chunked_rope = rope::sliding_base(file, &hp, RopeStyle::Normal, &global)?;
    let chunked = sliding::sliding_layers(file, &hp, DEFAULT_PATTERN)?;
    let temperature = AttentionTemperature {
        scale: 0.1,
        floor: CHUNK as u32,
        offset: 1.0,
    };
    let unit_qk_norm = experts != MAVERICK_EXPERTS;
    let experts_plan = MoePlan {
        experts,
        top_k,
        ffn,
        routing: Routing {
            gating: Gating::Sigmoid,
            normalize: false,
            ..Routing::default()
        },
        shared_ffn: Some(ffn),
        weighs_inputs: true,
        ..MoePlan::default()
    };
    Weights::load(file, config, vec![global, chunked_rope], |i| {
        let rotates = (i + 1) % NO_ROPE_LAYER_STEP != 0;
        let chunks = chunked.get(i).copied().unwrap_or(false);
        LayerPlan {
            no_rope: !rotates,
            rope: usize::from(chunks),
            temperature: (!rotates).then_some(temperature),
            unit_qk_norm: rotates && unit_qk_norm,
            chunk: chunks.then_some(CHUNK),
            moe: ((i + 1) % step == 0).then_some(experts_plan),
            ..LayerPlan::default()
        }
    })
}
