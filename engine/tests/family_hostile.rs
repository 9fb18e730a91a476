//! Family files that do not hold what their family needs get a clear error, never a panic or
//! a model that computes something else: the family test models rebuilt with a part broken.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::common::gguf_writer;

use common::family_model_path;
use engine::gguf::{GgufFile, MetadataValue};
use engine::model::Model;
use gguf_writer::{rebuild, NewTensor};
use kernels::quant::GgmlType;

pub(crate) fn open(name: &str) -> GgufFile {
    GgufFile::open(family_model_path(name)).unwrap()
}

/// An f32 tensor of `values`, shaped `dims`.
pub(crate) fn f32_tensor(name: &str, dims: &[u64], values: &[f32]) -> NewTensor {
    let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    (name.to_string(), dims.to_vec(), GgmlType::F32, bytes)
}

/// The error loading `file` gives; it must mention every one of `words`.
pub(crate) fn refused(file: &GgufFile, words: &[&str]) {
    let err = Model::from_gguf(file).err().expect("loaded").to_string();
    for word in words {
        assert!(err.contains(word), "{err:?} does not mention {word:?}");
    }
}

#[test]
fn a_fused_qkv_tensor_of_the_wrong_height_is_refused() {
    let file = open("phi3");
    let hidden = 384;
    // One row short of Q (384) + K (384) + V (384).
    let rows = 3 * 384 - 1;
    let short = f32_tensor(
        "blk.0.attn_qkv.weight",
        &[hidden, rows],
        &vec![0.01; (hidden * rows) as usize],
    );
    refused(
        &rebuild(&file, &[], &[], vec![short]),
        &["attn_qkv", "rows"],
    );
}

#[test]
fn long_rope_needs_both_factor_tensors_of_the_right_length() {
    let file = open("phi3_longrope_short");
    refused(
        &rebuild(&file, &[], &["rope_factors_long.weight"], Vec::new()),
        &["rope_factors_long.weight", "rope_factors_short.weight"],
    );
    // 48 rotated pairs of a 96-wide head: 47 factors are refused.
    let wrong = f32_tensor("rope_factors_short.weight", &[47], &[1.0; 47]);
    refused(
        &rebuild(&file, &[], &[], vec![wrong]),
        &["rope_factors_short.weight"],
    );
}

#[test]
fn a_biased_output_head_is_refused_by_phi3() {
    let file = open("phi3");
    let bias = f32_tensor("output.bias", &[4], &[0.0; 4]);
    refused(&rebuild(&file, &[], &[], vec![bias]), &["output.bias"]);
}

#[test]
fn impossible_experts_are_refused() {
    let file = open("qwen3moe");
    // More experts used per token than the layer has.
    let greedy = [("qwen3moe.expert_used_count", MetadataValue::U32(9))];
    refused(&rebuild(&file, &greedy, &[], Vec::new()), &["9 of 8"]);
    // An expert tensor of the wrong shape (7 experts' worth of down projections).
    let (hidden, ffn) = (256u64, 192u64);
    let down = f32_tensor(
        "blk.1.ffn_down_exps.weight",
        &[ffn, hidden, 7],
        &vec![0.0; (ffn * hidden * 7) as usize],
    );
    refused(
        &rebuild(&file, &[], &[], vec![down]),
        &["blk.1.ffn_down_exps.weight", "dims"],
    );
    // A router that is missing.
    refused(
        &rebuild(&file, &[], &["blk.0.ffn_gate_inp.weight"], Vec::new()),
        &["blk.0.ffn_gate_inp.weight"],
    );
}

/// An output head must have one row per token of the embedding's vocabulary (7584 here).
#[test]
fn an_output_head_of_another_vocabulary_size_is_refused() {
    let file = open("phi3");
    let hidden = 384u64;
    for rows in [7583u64, 7585] {
        let head = f32_tensor(
            "output.weight",
            &[hidden, rows],
            &vec![0.0; (hidden * rows) as usize],
        );
        refused(
            &rebuild(&file, &[], &[], vec![head]),
            &["output.weight", &rows.to_string(), "7584"],
        );
    }
}

#[test]
fn an_absurd_expert_count_is_refused_by_name_before_any_tensor() {
    let file = open("qwen3moe");
    let huge = [("qwen3moe.expert_count", MetadataValue::U32(1 << 20))];
    refused(
        &rebuild(&file, &huge, &[], Vec::new()),
        &["qwen3moe.expert_count", "512"],
    );
    let none_used = [("qwen3moe.expert_used_count", MetadataValue::U32(0))];
    refused(
        &rebuild(&file, &none_used, &[], Vec::new()),
        &["qwen3moe.expert_used_count"],
    );
    let file = open("llama_moe");
    let huge = [("llama.expert_count", MetadataValue::U32(513))];
    refused(
        &rebuild(&file, &huge, &[], Vec::new()),
        &["llama.expert_count", "512"],
    );
}

#[test]
fn family_scalars_that_are_not_finite_or_not_positive_are_refused_by_name() {
    let granite = open("granite");
    for (key, value) in [
        ("granite.logit_scale", f32::NAN),
        ("granite.embedding_scale", f32::INFINITY),
        ("granite.residual_scale", f32::NEG_INFINITY),
        ("granite.attention.scale", -0.015625),
    ] {
        refused(
            &rebuild(
                &granite,
                &[(key, MetadataValue::F32(value))],
                &[],
                Vec::new(),
            ),
            &[key],
        );
    }
    let gemma2 = open("gemma2");
    for (key, value) in [
        ("gemma2.final_logit_softcapping", f32::INFINITY),
        ("gemma2.attn_logit_softcapping", f32::NAN),
        ("gemma2.rope.freq_base_swa", f32::INFINITY),
    ] {
        refused(
            &rebuild(
                &gemma2,
                &[(key, MetadataValue::F32(value))],
                &[],
                Vec::new(),
            ),
            &[key],
        );
    }
    let gemma3 = open("gemma3");
    let key = "gemma3.final_logit_softcapping";
    refused(
        &rebuild(
            &gemma3,
            &[(key, MetadataValue::F32(f32::INFINITY))],
            &[],
            Vec::new(),
        ),
        &[key],
    );
}

/// gpt-oss's own parts, missing or broken, are refused by name: the sinks, the expert
/// biases, the sliding window, YaRN's attention factor.
#[test]
fn broken_gpt_oss_parts_are_refused_by_name() {
    let file = open("gpt_oss");
    for missing in [
        "blk.0.attn_sinks.weight",
        "blk.1.ffn_up_exps.bias",
        "blk.0.attn_output.bias",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let short = f32_tensor("blk.0.attn_sinks.weight", &[7], &[0.0; 7]);
    refused(
        &rebuild(&file, &[], &[], vec![short]),
        &["blk.0.attn_sinks.weight", "7"],
    );
    let mut values = [0.0f32; 8];
    values[3] = f32::NAN;
    let nan = f32_tensor("blk.1.attn_sinks.weight", &[8], &values);
    refused(
        &rebuild(&file, &[], &[], vec![nan]),
        &["blk.1.attn_sinks.weight", "finite"],
    );
    let key = "gpt-oss.attention.sliding_window";
    refused(
        &rebuild(&file, &[(key, MetadataValue::U32(0))], &[], Vec::new()),
        &[key],
    );
    let swa = "gpt-oss.rope.freq_base_swa";
    refused(
        &rebuild(
            &file,
            &[(swa, MetadataValue::F32(f32::INFINITY))],
            &[],
            Vec::new(),
        ),
        &[swa],
    );
    let key = "gpt-oss.rope.scaling.attn_factor";
    refused(
        &rebuild(
            &file,
            &[(key, MetadataValue::F32(f32::NAN))],
            &[],
            Vec::new(),
        ),
        &[key],
    );
}

/// Which layers slide, as `sliding_window_pattern` says it: a flag per layer (what OLMo 3's
/// converter writes), a period (0: all), or the family's default; a list of the wrong length
/// is refused by name; so are shared experts a Granite file declares but does not hold.
#[test]
fn sliding_patterns_are_read_as_llama_cpp_reads_them() {
    let file = open("olmo2");
    let key = "olmo2.attention.sliding_window_pattern";
    let windows = |pattern: Option<MetadataValue>| -> Vec<Option<usize>> {
        let kvs: Vec<(&str, MetadataValue)> = pattern.into_iter().map(|p| (key, p)).collect();
        let model = Model::from_gguf(&rebuild(&file, &kvs, &[], Vec::new())).unwrap();
        model.weights().layers.iter().map(|l| l.window).collect()
    };
    let flags = |f: [bool; 4]| Some(MetadataValue::Array(f.map(MetadataValue::Bool).to_vec()));
    let (w, n) = (Some(16), None);
    assert_eq!(windows(None), [w, w, w, n]);
    assert_eq!(windows(flags([true, true, true, false])), [w, w, w, n]);
    assert_eq!(windows(flags([false, true, false, true])), [n, w, n, w]);
    assert_eq!(windows(Some(MetadataValue::U32(2))), [w, n, w, n]);
    assert_eq!(windows(Some(MetadataValue::U32(0))), [w, w, w, w]);
    let short = MetadataValue::Array(vec![MetadataValue::Bool(true); 3]);
    refused(
        &rebuild(&file, &[(key, short)], &[], Vec::new()),
        &[key, "3 entries"],
    );

    // Granite MoE declaring shared experts it does not hold.
    let granite = open("granite_moe");
    let shared = "granitemoe.expert_shared_feed_forward_length";
    refused(
        &rebuild(
            &granite,
            &[(shared, MetadataValue::U32(64))],
            &[],
            Vec::new(),
        ),
        &["blk.0.ffn_gate_shexp.weight"],
    );
}

/// The last logits of `ids` by the model of `file`.
fn logits(file: &GgufFile, ids: &[u32]) -> Vec<f32> {
    let mut runner = common::Runner::new(Model::from_gguf(file).unwrap(), 1, 4096);
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, ids)]).remove(0);
    runner.release(req);
    logits
}

/// Dense Granite files declaring shared experts beside no experts, as the converter writes
/// Granite 4.0's dense models (whose MLP is their `shared_mlp`), are the dense model they
/// hold: llama.cpp reads the key only for experts.
#[test]
fn dense_granite_declaring_a_shared_mlp_width_is_the_dense_model() {
    for (name, arch) in [("granite", "granite"), ("granite_hybrid", "granitehybrid")] {
        let dense = open(name);
        let shared = format!("{arch}.expert_shared_feed_forward_length");
        let declared = rebuild(
            &dense,
            &[(&shared, MetadataValue::U32(64))],
            &[],
            Vec::new(),
        );
        let ids = [1, 450, 4996, 17354, 1701, 29916];
        assert_eq!(logits(&declared, &ids), logits(&dense, &ids), "{name}");
    }
}

/// DeepSeek files whose latent attention or routing cannot be what the keys say: each is
/// refused naming the key or tensor at fault.
#[test]
fn broken_deepseek2_parts_are_refused_by_name() {
    let file = open("deepseek2");
    for missing in [
        "blk.1.attn_k_b.weight",
        "blk.0.attn_kv_a_norm.weight",
        "blk.0.attn_q_b.weight",
        "blk.2.ffn_up_shexp.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let bad_keys = [
        ("deepseek2.attention.key_length", MetadataValue::U32(81)),
        ("deepseek2.attention.kv_lora_rank", MetadataValue::U32(0)),
        ("deepseek2.attention.key_length_mla", MetadataValue::U32(16)),
        ("deepseek2.expert_gating_func", MetadataValue::U32(7)),
        ("deepseek2.expert_group_used_count", MetadataValue::U32(5)),
        (
            "deepseek2.expert_weights_scale",
            MetadataValue::F32(f32::NAN),
        ),
        (
            "deepseek2.rope.scaling.yarn_log_multiplier",
            MetadataValue::F32(f32::INFINITY),
        ),
        ("deepseek2.nextn_predict_layers", MetadataValue::U32(3)),
    ];
    for (key, value) in bad_keys {
        // The group count is named for an impossible used count.
        let named = key.replace("group_used_count", "group_count");
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[&named]);
    }
    let mut bias = [0.0f32; 8];
    bias[5] = f32::INFINITY;
    let bias = f32_tensor("blk.1.exp_probs_b.bias", &[8], &bias);
    refused(
        &rebuild(&file, &[], &[], vec![bias]),
        &["blk.1.exp_probs_b.bias", "finite"],
    );
    let k_b = f32_tensor("blk.2.attn_k_b.weight", &[32, 64, 3], &[0.0; 32 * 64 * 3]);
    refused(
        &rebuild(&file, &[], &[], vec![k_b]),
        &["blk.2.attn_k_b.weight", "dims"],
    );
    // The last layer declared a multi-token-prediction one: the model is the two before it.
    let key = "deepseek2.nextn_predict_layers";
    let trunk = rebuild(&file, &[(key, MetadataValue::U32(1))], &[], Vec::new());
    let model = Model::from_gguf(&trunk).unwrap();
    assert_eq!(model.weights().layers.len(), 2);
    assert_eq!(model.config().num_layers, 2);
    // A file from before the split that declares a query bottleneck it does not have.
    let lite = open("deepseek2_lite");
    let key = "deepseek2.attention.q_lora_rank";
    refused(
        &rebuild(&lite, &[(key, MetadataValue::U32(96))], &[], Vec::new()),
        &["blk.0.attn_q_a.weight"],
    );
}

#[test]
fn broken_qwen2moe_minimax_and_mistral3_parts_are_refused_by_name() {
    let qwen = open("qwen2moe");
    let gate = "blk.1.ffn_gate_inp_shexp.weight";
    refused(&rebuild(&qwen, &[], &[gate], Vec::new()), &[gate]);
    let short = f32_tensor(gate, &[128], &[0.5; 128]);
    refused(&rebuild(&qwen, &[], &[], vec![short]), &[gate, "256"]);

    let minimax = open("minimax_m2");
    refused(
        &rebuild(&minimax, &[], &["blk.0.exp_probs_b.bias"], Vec::new()),
        &["blk.0.exp_probs_b.bias"],
    );
    for (key, value) in [
        ("minimax-m2.expert_gating_func", MetadataValue::U32(0)),
        ("minimax-m2.expert_gating_func", MetadataValue::U32(9)),
        (
            "minimax-m2.expert_feed_forward_length",
            MetadataValue::U32(0),
        ),
    ] {
        refused(&rebuild(&minimax, &[(key, value)], &[], Vec::new()), &[key]);
    }

    let mistral = open("mistral3");
    for (key, value) in [
        (
            "mistral3.attention.temperature_scale",
            MetadataValue::F32(f32::NAN),
        ),
        (
            "mistral3.rope.scaling.original_context_length",
            MetadataValue::U32(0),
        ),
        (
            "mistral3.rope.scaling.yarn_beta_fast",
            MetadataValue::F32(-32.0),
        ),
        (
            "mistral3.rope.scaling.yarn_log_multiplier",
            MetadataValue::F32(f32::INFINITY),
        ),
        // Finite, but a far position's factor would not be.
        (
            "mistral3.attention.temperature_scale",
            MetadataValue::F32(1e38),
        ),
    ] {
        refused(&rebuild(&mistral, &[(key, value)], &[], Vec::new()), &[key]);
    }
    let bias = f32_tensor("blk.0.ffn_up.bias", &[768], &[0.0; 768]);
    refused(
        &rebuild(&mistral, &[], &[], vec![bias]),
        &["MLP biases", "blk.0.ffn_up.bias"],
    );
    // Without a temperature the model still loads, with none on its layers.
    let key = "mistral3.attention.temperature_scale";
    let plain = rebuild(&mistral, &[(key, MetadataValue::F32(0.0))], &[], Vec::new());
    let model = Model::from_gguf(&plain).unwrap();
    assert!(model
        .weights()
        .layers
        .iter()
        .all(|l| l.temperature.is_none()));
}

/// Mistral Large 3 (`deepseek2` with a temperature): the step length is required, as
/// llama.cpp divides by it.
#[test]
fn a_latent_models_attention_temperature_needs_its_step_length() {
    let file = open("deepseek2");
    let scale = (
        "deepseek2.attention.temperature_scale",
        MetadataValue::F32(0.1),
    );
    let length = "deepseek2.attention.temperature_length";
    refused(&rebuild(&file, &[scale], &[], Vec::new()), &[length]);
}

#[test]
fn broken_llama4_parts_are_refused_by_name() {
    let file = open("llama4");
    for (key, value) in [
        ("llama4.expert_feed_forward_length", MetadataValue::U32(0)),
        ("llama4.rope.dimension_count", MetadataValue::U32(16)),
        ("llama4.expert_count", MetadataValue::U32(0)),
        // No chunks: llama.cpp's graph cannot run that either.
        ("llama4.attention.sliding_window", MetadataValue::U32(0)),
    ] {
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[key]);
    }
    for missing in ["blk.1.ffn_up_shexp.weight", "blk.3.ffn_gate_inp.weight"] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let yarn = rebuild(
        &file,
        &[
            (
                "llama4.rope.scaling.type",
                MetadataValue::String("yarn".into()),
            ),
            ("llama4.rope.scaling.factor", MetadataValue::F32(4.0)),
        ],
        &[],
        Vec::new(),
    );
    refused(&yarn, &["YaRN", "llama4.rope.scaling.type"]);
    // A step of 0: no expert layers, as llama.cpp reads it, so the experts' layers lack
    // their dense MLPs.
    let key = "llama4.interleave_moe_layer_step";
    let dense = rebuild(&file, &[(key, MetadataValue::U32(0))], &[], Vec::new());
    refused(&dense, &["blk.1.ffn_gate.weight"]);
    // A pattern of one full-attention layer in two: chunks on layers 0 and 2 only.
    let key = "llama4.attention.sliding_window_pattern";
    let two = rebuild(&file, &[(key, MetadataValue::U32(2))], &[], Vec::new());
    let model = Model::from_gguf(&two).unwrap();
    let chunks: Vec<Option<usize>> = model.weights().layers.iter().map(|l| l.chunk).collect();
    assert_eq!(chunks, [Some(8192), None, Some(8192), None]);
}

#[test]
fn broken_exaone4_parts_are_refused_by_name() {
    let file = open("exaone4");
    let flags = MetadataValue::Array(vec![MetadataValue::Bool(true); 3]);
    for (key, value) in [
        ("exaone4.attention.sliding_window_pattern", flags),
        ("exaone4.rope.dimension_count", MetadataValue::U32(16)),
        ("exaone4.nextn_predict_layers", MetadataValue::U32(64)),
    ] {
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), &[key]);
    }
    for missing in [
        "blk.0.post_attention_norm.weight",
        "blk.63.post_ffw_norm.weight",
        "blk.5.attn_k_norm.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
}

#[test]
fn broken_gemma4_parts_are_refused_by_name() {
    let file = open("gemma4");
    let numbers =
        |v: &[u32]| MetadataValue::Array(v.iter().map(|&n| MetadataValue::U32(n)).collect());
    let flags =
        |v: &[bool]| MetadataValue::Array(v.iter().map(|&b| MetadataValue::Bool(b)).collect());
    for (key, value) in [
        // Only one layer would keep K/V of its own.
        ("gemma4.attention.shared_kv_layers", MetadataValue::U32(6)),
        // Global layer 6 would read the K/V of sliding layer 5.
        ("gemma4.attention.shared_kv_layers", MetadataValue::U32(1)),
        // Global layers of two K/V head counts.
        (
            "gemma4.attention.head_count_kv",
            numbers(&[2, 1, 2, 2, 1, 2, 2]),
        ),
        ("gemma4.attention.sliding_window_pattern", flags(&[true; 6])),
        ("gemma4.attention.key_length_swa", MetadataValue::U32(0)),
        ("gemma4.attention.value_length_swa", MetadataValue::U32(8)),
        ("gemma4.rope.freq_base_swa", MetadataValue::F32(-1.0)),
        ("gemma4.rope.dimension_count_swa", MetadataValue::U32(18)),
    ] {
        let words: &[&str] = match key {
            "gemma4.rope.dimension_count_swa" => &["rotary dim 18"],
            _ => &[key],
        };
        refused(&rebuild(&file, &[(key, value)], &[], Vec::new()), words);
    }
    for missing in [
        "rope_freqs.weight",
        "per_layer_token_embd.weight",
        "blk.1.attn_k.weight",
        "blk.2.inp_gate.weight",
        "blk.6.attn_q_norm.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let nan_scale = f32_tensor("blk.3.layer_output_scale.weight", &[1], &[f32::NAN]);
    refused(
        &rebuild(&file, &[], &[], vec![nan_scale]),
        &["blk.3.layer_output_scale.weight"],
    );
    // Shared-K/V layer 5's MLP is twice as wide as the others'.
    let narrow = f32_tensor("blk.5.ffn_gate.weight", &[128, 128], &[0.0; 128 * 128]);
    refused(
        &rebuild(&file, &[], &[], vec![narrow]),
        &["gate and up sizes"],
    );
}

#[test]
fn broken_gemma4_experts_are_refused_by_name() {
    let file = open("gemma4moe");
    let widths = MetadataValue::Array([32, 32, 16, 32, 32, 32].map(MetadataValue::U32).to_vec());
    refused(
        &rebuild(
            &file,
            &[("gemma4.expert_feed_forward_length", widths)],
            &[],
            Vec::new(),
        ),
        &["gemma4.expert_feed_forward_length", "layer 2"],
    );
    refused(
        &rebuild(
            &file,
            &[("gemma4.expert_used_count", MetadataValue::U32(9))],
            &[],
            Vec::new(),
        ),
        &["gemma4.expert_used_count"],
    );
    for missing in [
        "blk.1.ffn_gate_inp.scale",
        "blk.2.pre_ffw_norm_2.weight",
        "blk.4.ffn_up_exps.weight",
    ] {
        refused(&rebuild(&file, &[], &[missing], Vec::new()), &[missing]);
    }
    let nan = f32_tensor(
        "blk.0.ffn_down_exps.scale",
        &[4],
        &[1.0, f32::NAN, 1.0, 1.0],
    );
    refused(
        &rebuild(&file, &[], &[], vec![nan]),
        &["blk.0.ffn_down_exps.scale"],
    );
}
