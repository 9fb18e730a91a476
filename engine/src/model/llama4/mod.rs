//! Llama 4 Scout and Maverick (`llama4`), as llama.cpp's graph runs them: Llama's layer (RoPE
//! over adjacent pairs, Llama 3's `rope_freqs.weight`) where every fourth layer rotates
//! nothing and scales its queries by position instead (by `1 + 0.1 ln(floor((pos + 1) /
//! 8192) + 1)`), the others attend within chunks of 8,192 positions (those
//! `sliding_window_pattern` names; three of every four by default) and, except in Maverick
//! (128 experts), RMS-normalize Q and K per head without weights. Every
//! `interleave_moe_layer_step`-th layer (none where 0) has `expert_count` experts of
//! `expert_feed_forward_length`, of which the `expert_used_count` of highest router logits
//! run, each on its input scaled by the logit's sigmoid, beside a shared expert as wide; the
//! others a dense MLP. Rotations stretched by YaRN are refused: the Q/K norms run before RoPE
//! here (after it in llama.cpp), the same only for rotations that keep lengths. llama.cpp
//! fixes the chunk and the temperature whatever the file says, and so does the loader; a file
//! declaring a sliding window of 0 (no chunks) is refused, as llama.cpp's graph cannot run one
//! either.

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
    // 0: no expert layers, as llama.cpp reads it.
    let step = keys.required_usize(&hp.key("interleave_moe_layer_step"))?;
    let ffn_key = hp.key("expert_feed_forward_length");
    let ffn = keys.required_usize(&ffn_key)?;
    if ffn == 0 {
        return Err(invalid(&ffn_key, "experts of width 0".into()).into());
    }
    if hp.rope_dimension_count != hp.key_length {
        return Err(invalid(
            &hp.key("rope.dimension_count"),
            format!(
                "{} of {} dims per head: llama.cpp rotates whole heads",
                hp.rope_dimension_count, hp.key_length
            ),
        )
        .into());
    }
    // The Q/K norms run before RoPE here, after it in llama.cpp: the same only where the
    // rotation keeps lengths, which YaRN's magnitude does not.
    if let rope::Stretch::Yarn { .. } = rope::declared_stretch(file, &hp)? {
        return Err(ModelError::Unsupported(format!(
            "YaRN on a Llama 4 file ({})",
            hp.key("rope.scaling.type")
        )));
    }
    let global = rope::declared(file, &hp, RopeStyle::Normal)?;
    // The chunked layers' own base where the file gives one, else the same table.
    let swa_base = keys.optional_f32(&hp.key("rope.freq_base_swa"))?.is_some();
    let mut ropes = vec![global.clone()];
    if swa_base {
        ropes.push(rope::sliding_base(file, &hp, RopeStyle::Normal, &global)?);
    }
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
            choose_by_logits: true,
            ..Routing::default()
        },
        shared_ffn: Some(ffn),
        weighs_inputs: true,
        ..MoePlan::default()
    };
    Weights::load(file, config, ropes, |i| {
        let rotates = (i + 1) % NO_ROPE_LAYER_STEP != 0;
        let chunks = chunked.get(i).copied().unwrap_or(false);
        LayerPlan {
            no_rope: !rotates,
            rope: usize::from(chunks && swa_base),
            temperature: (!rotates).then_some(temperature),
            unit_qk_norm: rotates && unit_qk_norm,
            chunk: chunks.then_some(CHUNK),
            moe: (step > 0 && (i + 1) % step == 0).then_some(experts_plan),
            ..LayerPlan::default()
        }
    })
}
