//! The hybrid families, whose layers carry a state per request beside attention: Qwen3.5,
//! Qwen3.5-MoE and Qwen3-Next (gated delta nets), LFM2 and LFM2-MoE (short convolutions),
//! Granite 4.0's hybrids and Nemotron-H (Mamba-2 layers), each checked against llama.cpp on
//! a small random-weight file as `model_families` checks the others (with its helpers).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use super::model_families::{assert_experts, check_family, check_model};
use common::family_model_path;
use engine::gguf::GgufFile;
use engine::model::moe::Gating;
use engine::model::{Mlp, Model};
use pools::KvDtype;

/// Which of `model`'s layers are delta nets, and the K/V layers the others take.
fn assert_hybrid_layers(model: &Model, delta_nets: &[bool]) {
    let kinds: Vec<bool> = (model.weights().layers.iter())
        .map(|l| l.delta_net.is_some())
        .collect();
    assert_eq!(kinds, delta_nets);
    let attention = delta_nets.iter().filter(|&&d| !d).count();
    assert_eq!(model.kv_layout(KvDtype::F32).num_layers, attention);
    // Per delta net: three earlier inputs of 256 channels, and four 32x32 head states.
    let per_layer = (3 * 256 + 4 * 32 * 32) * 4;
    let delta_layers = delta_nets.len() - attention;
    assert_eq!(model.recurrent_state_bytes(), delta_layers * per_layer);
}

/// Qwen3.5 (`qwen35`): gated delta nets carrying a state per request in four layers of six
/// (`full_attention_interval` 3), attention with a sigmoid gate per query head and partial
/// RoPE in the others; the prompt split into passes, token by token or batched gives the
/// same bits, and a request resumed from the tree's K/V alone is refused.
#[test]
fn qwen35_with_delta_nets_and_gated_attention_agrees_with_llama_cpp() {
    check_family("qwen35");
    let file = GgufFile::open(family_model_path("qwen35")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_hybrid_layers(&model, &[true, true, false, true, true, false]);
    let gated: Vec<bool> = model
        .weights()
        .layers
        .iter()
        .map(|l| l.query_gate)
        .collect();
    assert_eq!(gated, [false, false, true, false, false, true]);
}

/// Qwen3.5-MoE (`qwen35moe`): Qwen3.5's layers with softmax-routed experts, renormalized,
/// beside a shared expert scaled by its sigmoid gate.
#[test]
fn qwen35moe_with_delta_nets_and_gated_shared_experts_agrees_with_llama_cpp() {
    check_family("qwen35moe");
    let file = GgufFile::open(family_model_path("qwen35moe")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_hybrid_layers(&model, &[true, true, false, true, true, false]);
    assert_experts(&model, (8, 2, 64));
    for layer in &model.weights().layers {
        let Mlp::Experts(moe) = &layer.mlp else {
            unreachable!()
        };
        assert!(moe.plan.routing.normalize);
        let shared = moe.shared.as_ref().unwrap();
        assert_eq!(shared.width, 128);
        assert!(shared.gate.is_some());
    }
}

/// LFM2 (`lfm2`): short convolutions in four layers of six (those whose
/// `attention.head_count_kv` entry is 0) carrying their last two inputs per request, attention
/// with per-head Q/K norms in the others, the final norm stored as `token_embd_norm`; the
/// prompt split into passes, token by token or batched gives the same bits.
#[test]
fn lfm2_with_short_convolutions_agrees_with_llama_cpp() {
    check_family("lfm2");
    let file = GgufFile::open(family_model_path("lfm2")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    let convolutions: Vec<bool> = layers.iter().map(|l| l.short_conv.is_some()).collect();
    assert_eq!(convolutions, [true, true, false, true, true, false]);
    assert!(layers.iter().all(|l| l.delta_net.is_none()));
    assert_eq!(model.kv_layout(KvDtype::F32).num_layers, 2);
    // Per convolution: the last two inputs of its 256 channels.
    assert_eq!(model.recurrent_state_bytes(), 4 * 2 * 256 * 4);
}

/// LFM2-MoE (`lfm2moe`): LFM2's layers, the first two with a dense MLP, the others with
/// eight experts chosen by sigmoid scores plus a selection bias and weighed by the scores
/// alone, renormalized.
#[test]
fn lfm2moe_with_biased_sigmoid_experts_agrees_with_llama_cpp() {
    check_family("lfm2moe");
    let file = GgufFile::open(family_model_path("lfm2moe")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    let convolutions: Vec<bool> = layers.iter().map(|l| l.short_conv.is_some()).collect();
    assert_eq!(convolutions, [true, true, false, true, true, false]);
    for (i, layer) in layers.iter().enumerate() {
        match &layer.mlp {
            Mlp::Experts(moe) => {
                assert!(i >= 2, "layer {i}");
                assert_eq!((moe.plan.experts, moe.plan.top_k, moe.plan.ffn), (8, 2, 64));
                assert!(moe.plan.selection_bias && moe.plan.routing.normalize);
                assert_eq!(moe.plan.routing.gating, Gating::Sigmoid);
            }
            Mlp::Dense { .. } => assert!(i < 2, "layer {i}"),
            other => panic!("layer {i}: {} in LFM2-MoE", other.kind()),
        }
    }
}

/// Qwen3-Next (`qwen3next`): Qwen3.5-MoE's layers with plain NeoX RoPE and its delta nets'
/// value heads grouped by key head, beta and alpha fused per key head (`ssm_ba`); the older
/// files' `ssm_in` (queries, keys, values and gates grouped per key head) loads to the same
/// model: both agree with llama.cpp on the same weights.
#[test]
fn qwen3next_with_grouped_value_heads_agrees_with_llama_cpp_in_both_layouts() {
    for name in ["qwen3next", "qwen3next_ssm_in"] {
        check_model(name, "qwen3next");
        let file = GgufFile::open(family_model_path(name)).unwrap();
        let model = Model::from_gguf(&file).unwrap();
        let layers = &model.weights().layers;
        let delta_nets: Vec<bool> = layers.iter().map(|l| l.delta_net.is_some()).collect();
        assert_eq!(
            delta_nets.iter().filter(|&&d| d).count(),
            delta_nets.len() * 3 / 4
        );
        for net in layers.iter().filter_map(|l| l.delta_net.as_ref()) {
            assert!(net.plan.shape.grouped_values);
        }
        assert_experts(&model, (8, 2, 64));
    }
}

/// Which of `model`'s layers are Mamba-2 layers; the others take K/V layers, and each Mamba-2
/// layer holds per request its convolution's last three inputs (`x` of 8 heads of 16 and `B`,
/// `C` of 2 groups of 16) and 8 head states of 16 x 16.
fn assert_mamba2_layers(model: &Model, mamba2: &[bool]) {
    let layers = &model.weights().layers;
    let kinds: Vec<bool> = layers.iter().map(|l| l.mamba2.is_some()).collect();
    assert_eq!(kinds, mamba2);
    let attention = mamba2.iter().filter(|&&m| !m).count();
    assert_eq!(model.kv_layout(KvDtype::F32).num_layers, attention);
    let per_layer = (3 * (128 + 2 * 2 * 16) + 8 * 16 * 16) * 4;
    let mamba2_layers = mamba2.len() - attention;
    assert_eq!(model.recurrent_state_bytes(), mamba2_layers * per_layer);
}

/// Granite 4.0-H (`granitehybrid`): Mamba-2 layers in four layers of six (those whose
/// `attention.head_count_kv` entry is 0), attention without RoPE in the others (the file's
/// `rope.scaling.finetuned` is false, as the converter writes for Granite 4.0), Granite's four
/// multipliers; the prompt split into passes, token by token or batched gives the same bits.
#[test]
fn granite_hybrid_with_mamba2_layers_agrees_with_llama_cpp() {
    let (config, _, _) = check_model("granite_hybrid", "granitehybrid");
    assert!(config.embedding_scale.is_some() && config.residual_scale.is_some());
    assert!(config.logit_divisor.is_some() && config.score_scale.is_some());
    let file = GgufFile::open(family_model_path("granite_hybrid")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_mamba2_layers(&model, &[true, true, false, true, true, false]);
    assert!(model.weights().layers.iter().all(|l| l.rope.is_none()));
}

/// Granite 4.0-H-Tiny's experts with shared experts, and Bamba's RoPE in the attention
/// layers (`rope.scaling.finetuned` true).
#[test]
fn granite_hybrid_moe_with_shared_experts_and_rope_agrees_with_llama_cpp() {
    check_model("granite_hybrid_moe", "granitehybrid");
    let file = GgufFile::open(family_model_path("granite_hybrid_moe")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_mamba2_layers(&model, &[true, true, false, true, true, false]);
    for layer in &model.weights().layers {
        assert_eq!(layer.rope.is_some(), layer.mamba2.is_none());
        let Mlp::Experts(moe) = &layer.mlp else {
            panic!("a dense layer in Granite 4.0-H-Tiny's layout")
        };
        assert_eq!(moe.shared.as_ref().map(|s| s.width), Some(128));
    }
}

/// Nemotron-H (`nemotron_h`): blocks of one part each, Mamba-2, attention without RoPE or an
/// MLP of ReLU squared without a gate, in the pattern M - M * - M * -: each mixer and the MLP
/// block after it are one layer, a mixer followed by another mixer a layer alone.
#[test]
fn nemotron_h_with_one_part_per_block_agrees_with_llama_cpp() {
    check_model("nemotron_h", "nemotron_h");
    let file = GgufFile::open(family_model_path("nemotron_h")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    let blocks: Vec<(usize, Option<usize>)> = layers.iter().map(|l| l.blocks).collect();
    assert_eq!(
        blocks,
        [
            (0, Some(1)),
            (2, None),
            (3, Some(4)),
            (5, None),
            (6, Some(7))
        ]
    );
    assert_mamba2_layers(&model, &[true, true, false, true, false]);
    assert!(layers.iter().all(|l| l.rope.is_none()));
    for layer in layers {
        match (&layer.mlp, layer.blocks.1) {
            (Mlp::Squared { down, .. }, Some(_)) => assert_eq!(down.k_in(), 192),
            (Mlp::Absent, None) => assert!(layer.ffn_norm.is_none()),
            (other, mlp) => panic!("{} for an MLP block {mlp:?}", other.kind()),
        }
    }
}
