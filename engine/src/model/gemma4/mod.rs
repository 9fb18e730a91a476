//! Gemma 4 (text: E2B, E4B, 31B): Gemma 3's frame (embeddings scaled by `sqrt(hidden)`,
//! GeGLU, norms before and after attention and MLP, Q/K norms per head, soft-capped logits)
//! with two kinds of layers that differ in shape. Sliding layers (`attention.
//! sliding_window_pattern`, one flag per layer) have `attention.key_length_swa`-wide heads
//! rotated with `rope.freq_base_swa` over `rope.dimension_count_swa` dims; global layers have
//! `attention.key_length`-wide heads, often fewer K/V heads (`attention.head_count_kv` per
//! layer), and "proportional" RoPE (`rope_freqs.weight` leaves all but the first pairs
//! unrotated); a global layer without `attn_v` uses its key projection as values. Values are
//! RMS-normalized without weights, scores are not scaled, and each layer may end by scaling the
//! residual stream (`layer_output_scale`). The last `attention.shared_kv_layers` layers project
//! only queries and attend over the K/V of the last earlier layer of their kind (llama.cpp's
//! rule: `first_shared - 2` for sliding, `first_shared - 1` for global layers), with MLPs as
//! wide as `feed_forward_length` says per layer. E2B and E4B add per-layer embeddings
//! (`embedding_length_per_layer_input`, see `per_layer`); the mixture-of-experts model
//! (26B-A4B) runs routed experts beside each layer's dense MLP (`moe::ParallelMoe`).

use super::gemma3::{declared_cap, gemma_config};
use super::hparams::Hparams;
use super::moe::{expert_counts, ExpertGate, MoePlan, Routing};
use super::per_layer::PerLayerEmbeddings;
use super::sliding::sliding_layers;
use super::weights::{LayerHeads, LayerPlan, Weights};
use super::{rope, LoadOptions, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::{GgufError, GgufFile};
use kernels::rope::{Rope, RopeStyle};
use pools::OtherRows;

pub const ARCHITECTURE: &str = "gemma4";

/// The widest head a file may declare (as `attention.key_length`).
const MAX_HEAD_SIZE: usize = 1 << 12;
/// The sliding layers' RoPE base where the file gives none (llama.cpp's).
const SWA_ROPE_BASE: f32 = 10_000.0;

/// What one kind of layer (sliding or global) attends with.
struct Kind {
    heads: LayerHeads,
    rope: usize,
    window: Option<usize>,
}

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let n = hp.block_count;
    let pattern_key = hp.key("attention.sliding_window_pattern");
    if file.metadata().get(&pattern_key).is_none() {
        return Err(GgufError::MissingKey { key: pattern_key }.into());
    }
    let sliding = sliding_layers(file, &hp, 0)?;
    let swa_dim_key = hp.key("attention.key_length_swa");
    let swa_dim = keys.optional_usize(&swa_dim_key)?.unwrap_or(hp.key_length);
    if swa_dim == 0 || swa_dim > MAX_HEAD_SIZE {
        return Err(invalid(&swa_dim_key, format!("{swa_dim} is no head size")).into());
    }
    let swa_value_key = hp.key("attention.value_length_swa");
    let swa_values = keys.optional_usize(&swa_value_key)?.unwrap_or(swa_dim);
    if swa_values != swa_dim {
        return Err(invalid(
            &swa_value_key,
            format!("{swa_values}, not the sliding key size {swa_dim} (llama.cpp refuses it too)"),
        )
        .into());
    }
    let kv_key = hp.key("attention.head_count_kv");
    let kv_heads_of = |slides: bool| -> Result<Option<usize>, ModelError> {
        let mut of_kind = (0..n).filter(|&i| sliding[i] == slides);
        let Some(first) = of_kind.next() else {
            return Ok(None);
        };
        let heads = hp.head_counts_kv[first];
        match of_kind.find(|&i| hp.head_counts_kv[i] != heads) {
            Some(i) => Err(invalid(
                &kv_key,
                format!(
                    "layer {i} has {} K/V heads, layer {first} of its kind {heads}",
                    hp.head_counts_kv[i]
                ),
            )
            .into()),
            None if heads == 0 => Err(invalid(&kv_key, format!("layer {first} has none")).into()),
            None => Ok(Some(heads)),
        }
    };
    let window = hp.sliding_window;
    if sliding.iter().any(|&s| s) && window.is_none() {
        return Err(invalid(
            &hp.key("attention.sliding_window"),
            "sliding layers without a window".into(),
        )
        .into());
    }
    let global = kv_heads_of(false)?.map(|kv| Kind {
        heads: LayerHeads {
            num_kv_heads: kv,
            head_dim: hp.key_length,
        },
        rope: 0,
        window: None,
    });
    let local = kv_heads_of(true)?.map(|kv| Kind {
        heads: LayerHeads {
            num_kv_heads: kv,
            head_dim: swa_dim,
        },
        rope: 1,
        window,
    });

    let mut config = gemma_config(&hp, file, 0)?;
    config.score_scale = Some(1.0);
    config.final_logit_softcap = keys
        .optional_f32(&hp.key("final_logit_softcapping"))?
        .and_then(declared_cap);
    // The model's own shape is the sliding layers' (most of them); global layers name theirs.
    let main = local.as_ref().or(global.as_ref()).map(|k| k.heads);
    if let Some(heads) = main {
        config.num_kv_heads = heads.num_kv_heads;
        config.head_dim = heads.head_dim;
    }
    config.ffn = hp.feed_forward_lengths[0];

    let shared_key = hp.key("attention.shared_kv_layers");
    let shared = keys.optional_usize(&shared_key)?.unwrap_or(0);
    let first_shared = n.checked_sub(shared).filter(|&f| shared == 0 || f >= 2);
    let Some(first_shared) = first_shared else {
        return Err(invalid(
            &shared_key,
            format!("{shared} of {n} layers leave fewer than 2 with K/V of their own"),
        )
        .into());
    };
    let source_of = |i: usize| -> Result<Option<usize>, ModelError> {
        if i < first_shared {
            return Ok(None);
        }
        let source = first_shared - if sliding[i] { 2 } else { 1 };
        if sliding[source] != sliding[i] {
            return Err(invalid(
                &shared_key,
                format!(
                    "layer {i} would read the K/V of layer {source}, a layer of the other kind"
                ),
            )
            .into());
        }
        Ok(Some(source))
    };
    // Global layers' K/V rows are named by a bit per pool layer (layer `i` below the first
    // sharing one is pool layer `i`).
    let mixed = local.is_some() && global.is_some();
    if let Some(i) = (0..first_shared).find(|&i| mixed && !sliding[i] && i > OtherRows::MAX_LAYER) {
        return Err(ModelError::Unsupported(format!(
            "a global layer ({i}) past the first {} layers with K/V",
            OtherRows::MAX_LAYER + 1
        )));
    }

    // llama.cpp requires the global layers' frequency factors (their partial rotation).
    if global.is_some() && file.tensor("rope_freqs.weight").is_none() {
        return Err(ModelError::MissingTensor("rope_freqs.weight".into()));
    }
    let full_rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let swa_base_key = hp.key("rope.freq_base_swa");
    // Absent keys: llama.cpp's defaults (base 10,000; the global layers' rotated dims).
    let swa_base = keys.optional_f32(&swa_base_key)?.unwrap_or(SWA_ROPE_BASE);
    if !(swa_base.is_finite() && swa_base > 0.0) {
        return Err(invalid(&swa_base_key, format!("base {swa_base} is not positive")).into());
    }
    let swa_rot = keys
        .optional_usize(&hp.key("rope.dimension_count_swa"))?
        .unwrap_or(hp.rope_dimension_count);
    let swa_rope = Rope::new(swa_dim, swa_rot, swa_base, RopeStyle::Neox, 1.0)?;

    let experts = experts_of(file, &keys, &hp)?;
    let per_layer_width = keys
        .optional_usize(&hp.key("embedding_length_per_layer_input"))?
        .unwrap_or(0);
    let mut plans = Vec::with_capacity(n);
    for (i, &slides) in sliding.iter().enumerate() {
        let kind = match slides {
            true => &local,
            false => &global,
        };
        let kind = kind
            .as_ref()
            .ok_or_else(|| ModelError::Shape(format!("layer {i} has no kind of attention")))?;
        let kv_source = source_of(i)?;
        let has = |name: &str| file.tensor(name).is_some();
        if has(&format!("blk.{i}.attn_qkv.weight")) {
            return Err(ModelError::Unsupported(format!(
                "blk.{i}.attn_qkv.weight: Gemma 4 with Q, K and V in one tensor"
            )));
        }
        let has_values = has(&format!("blk.{i}.attn_v.weight"));
        let ffn = hp.feed_forward_lengths[i];
        let output_scale = has(&format!("blk.{i}.layer_output_scale.weight"));
        plans.push(LayerPlan {
            qk_norm: true,
            post_norms: true,
            rope: kind.rope,
            window: kind.window,
            heads: Some(kind.heads),
            kv_source,
            keys_as_values: kv_source.is_none() && !has_values,
            unit_v_norm: true,
            output_scale,
            per_layer_input: (per_layer_width > 0).then_some(per_layer_width),
            ffn: (ffn != config.ffn).then_some(ffn),
            moe: experts
                .filter(|_| has(&format!("blk.{i}.ffn_gate_inp.weight")))
                .map(|plan| MoePlan {
                    down_scales: has(&format!("blk.{i}.ffn_down_exps.scale")),
                    ..plan
                }),
            parallel_experts: true,
            ..LayerPlan::default()
        });
    }
    let (hidden, vocab) = (config.hidden, config.vocab_size);
    let mut weights = Weights::load(file, config, vec![full_rope, swa_rope], |i| plans[i])?;
    if per_layer_width > 0 {
        let table = PerLayerEmbeddings::load(file, n, per_layer_width, hidden, vocab)?;
        weights.per_layer = Some(table);
    }
    Ok(weights)
}

/// The experts of the layers that have a router (26B-A4B): `expert_count`, `expert_used_count`
/// and `expert_feed_forward_length` (one width for all), chosen by softmax and renormalized,
/// GeGLU, each output scaled by `ffn_down_exps.scale` where the file has it; `None` where no
/// layer has experts.
fn experts_of(
    file: &GgufFile,
    keys: &Keys<'_>,
    hp: &Hparams,
) -> Result<Option<MoePlan>, ModelError> {
    let routed = (0..hp.block_count)
        .filter(|i| {
            file.tensor(&format!("blk.{i}.ffn_gate_inp.weight"))
                .is_some()
        })
        .collect::<Vec<_>>();
    let Some(&first) = routed.first() else {
        return Ok(None);
    };
    let (experts, top_k) = expert_counts(keys, hp)?;
    let width_key = hp.key("expert_feed_forward_length");
    let widths = keys
        .optional_usize_per_layer(&width_key, hp.block_count)?
        .ok_or_else(|| GgufError::MissingKey {
            key: width_key.clone(),
        })?;
    let ffn = widths[first];
    if let Some(&i) = routed.iter().find(|&&i| widths[i] != ffn || ffn == 0) {
        return Err(invalid(
            &width_key,
            format!(
                "layer {i}'s experts are {} wide, layer {first}'s {ffn}",
                widths[i]
            ),
        )
        .into());
    }
    Ok(Some(MoePlan {
        experts,
        top_k,
        ffn,
        gate: ExpertGate::Gelu,
        routing: Routing::default(),
        ..MoePlan::default()
    }))
}
