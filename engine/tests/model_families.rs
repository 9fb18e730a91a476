//! Every supported family against llama.cpp on the same file: small GGUFs with random weights
//! at each family's real layer structure (`scripts/make-family-models.py`, regenerated
//! bit-identically), whose llama.cpp outputs are in `fixtures/families/<family>.json`
//! (`scripts/make-family-fixtures.py`). Per family: the tokenization and greedy continuations
//! of several prompts agree (criteria in `common/llama_reference.rs`), the prompt computed
//! four ways over the paged pool gives bitwise the same logits, and a model of an unknown
//! family is refused with the supported ones named. SentencePiece families (gemma3, phi3)
//! also tokenize awkward strings as llama.cpp does. The hybrid families (delta nets, short
//! convolutions) are in `model_families_hybrid`, with these helpers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::equivalence::assert_four_ways_agree;
use common::llama_reference::{assert_agrees_with_fixture, read_fixture, FAMILY_NEAR_TIE};
use common::{family_model_path, Runner};
use engine::gguf::GgufFile;
use engine::model::{LoadOptions, Mlp, Model, ModelConfig};
use engine::tokenizer::Tokenizer;
use pools::KvDtype;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn fixture(family: &str) -> Value {
    read_fixture(&format!(
        "{}/tests/fixtures/families/{family}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// The model file `name` (a family, or a variant of one), checked to be the file its fixture
/// was made from, its tokenizer and the fixture.
fn open_checked(name: &str) -> (GgufFile, Tokenizer, Value) {
    let fixture = fixture(name);
    let bytes = std::fs::read(family_model_path(name)).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&bytes)),
        fixture["gguf_sha256"].as_str().unwrap(),
        "{name}: the regenerated model differs from the one the fixture was made from"
    );
    let file = GgufFile::from_bytes(bytes).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    (file, tok, fixture)
}

/// Loads the family's model, checks it is the file the fixture was made from, and runs the
/// agreement and equivalence checks; returns the config for family-specific assertions.
pub(crate) fn check_family(family: &str) -> (ModelConfig, Tokenizer, Value) {
    check_model(family, family)
}

/// [`check_family`] for the model file `name`, a model of architecture `arch` (a variant of
/// a family has a name of its own).
pub(crate) fn check_model(name: &str, arch: &str) -> (ModelConfig, Tokenizer, Value) {
    let (file, tok, fixture) = open_checked(name);
    assert_eq!(file.architecture(), Some(arch));
    let model = Model::from_gguf(&file).unwrap();
    let config = model.config().clone();
    let mut runner = Runner::new(model, 1, 4096);
    assert_agrees_with_fixture(&mut runner, &tok, &fixture, FAMILY_NEAR_TIE);

    let prompts: Vec<Vec<u32>> = fixture["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|p| tok.encode(p["prompt"].as_str().unwrap(), true).unwrap())
        .collect();
    let other1 = tok
        .encode("Once upon a time, in a land far away,", true)
        .unwrap();
    let other2 = tok.encode("1 2 3", true).unwrap();
    assert_four_ways_agree(&mut runner, &prompts, [&other1, &other2]);
    (config, tok, fixture)
}

#[test]
fn llama_3_with_rope_freqs_agrees_with_llama_cpp() {
    let (config, tok, _) = check_family("llama");
    assert_eq!(config.architecture, "llama");
    assert_eq!(tok.pre_tokenizer(), "llama-bpe");
}

#[test]
fn qwen2_with_qkv_biases_agrees_with_llama_cpp() {
    let (config, tok, _) = check_family("qwen2");
    assert_eq!((config.num_heads, config.num_kv_heads), (7, 1));
    assert_eq!(tok.pre_tokenizer(), "qwen2");
}

#[test]
fn qwen3_with_qk_norms_and_wide_heads_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("qwen3");
    assert_ne!(config.head_dim * config.num_heads, config.hidden);
}

#[test]
fn gemma3_with_sliding_windows_and_sentencepiece_agrees_with_llama_cpp() {
    let (config, tok, fixture) = check_family("gemma3");
    assert!(config.embedding_scale.is_some());
    // Prompts longer than the window: the sliding layers' mask matters for them.
    let longest = fixture["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["token_ids"].as_array().unwrap().len())
        .max()
        .unwrap();
    assert!(longest > 2 * 16, "no prompt crosses the 16-token window");
    assert_tokenizes_like_llama_cpp(&tok, &fixture);
}

#[test]
fn qwen3moe_with_routed_experts_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("qwen3moe");
    assert_eq!(config.architecture, "qwen3moe");
    let file = GgufFile::open(family_model_path("qwen3moe")).unwrap();
    assert_experts(&Model::from_gguf(&file).unwrap(), (8, 2, 192));
}

/// Every layer of `model` is a mixture of (experts, used per token, width) experts.
pub(crate) fn assert_experts(model: &Model, want: (usize, usize, usize)) {
    for layer in &model.weights().layers {
        let Mlp::Experts(moe) = &layer.mlp else {
            panic!("a dense layer in a mixture-of-experts model");
        };
        assert_eq!((moe.plan.experts, moe.plan.top_k, moe.plan.ffn), want);
    }
}

/// Mixtral: the llama family with experts (sized by `feed_forward_length`).
#[test]
fn llama_with_experts_like_mixtral_agrees_with_llama_cpp() {
    check_model("llama_moe", "llama");
    let file = GgufFile::open(family_model_path("llama_moe")).unwrap();
    assert_experts(&Model::from_gguf(&file).unwrap(), (4, 2, 256));
}

#[test]
fn granite_with_its_four_multipliers_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("granite");
    assert_eq!(config.embedding_scale, Some(12.0));
    assert_eq!(config.residual_scale, Some(0.22));
    assert_eq!(config.logit_divisor, Some(8.0));
    assert_eq!(config.score_scale, Some(1.0 / 64.0));
}

#[test]
fn gemma2_with_soft_capped_scores_and_alternating_windows_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("gemma2");
    assert_eq!(config.attn_logit_softcap, Some(2.5));
    assert_eq!(config.final_logit_softcap, Some(40.0));
    let file = GgufFile::open(family_model_path("gemma2")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let windows: Vec<Option<usize>> = model.weights().layers.iter().map(|l| l.window).collect();
    assert_eq!(windows, [Some(16), None, Some(16), None]);
}

/// gpt-oss: biases, sinks, YaRN (which changes every position's angles) and MXFP4 experts
/// with biases and the clamped SwiGLU; the fixture's prompts and continuations reach past
/// the 16-key window. This model is the most sensitive to rounding of the family models:
/// llama.cpp's own two attention paths (`-fa on`, the fixture's, and `-fa off`) give
/// probabilities 0.0105 apart on average, and ours are 0.0103 apart from the fixture's
/// (0.0038 for qwen3moe).
#[test]
fn gpt_oss_with_sinks_yarn_and_mxfp4_experts_agrees_with_llama_cpp() {
    let (config, tok, _) = check_model("gpt_oss", "gpt-oss");
    assert_eq!((config.num_heads, config.num_kv_heads), (8, 2));
    assert_eq!(tok.pre_tokenizer(), "gpt-4o");
    let file = GgufFile::open(family_model_path("gpt_oss")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_experts(&model, (8, 4, 192));
    let layers = &model.weights().layers;
    let windows: Vec<Option<usize>> = layers.iter().map(|l| l.window).collect();
    assert_eq!(windows, [Some(16), None]);
    assert!(layers
        .iter()
        .all(|l| l.attn_sinks.is_some() && l.attn_output_bias.is_some()));
    let Mlp::Experts(moe) = &layers[0].mlp else {
        unreachable!()
    };
    assert_eq!(
        moe.experts[0].gate_up.ggml_type(),
        kernels::quant::GgmlType::Mxfp4
    );
}

/// Granite MoE: Granite's four multipliers around a mixture of experts as wide as its MLP.
#[test]
fn granite_moe_with_its_multipliers_and_experts_agrees_with_llama_cpp() {
    let (config, _, _) = check_model("granite_moe", "granitemoe");
    assert_eq!(config.embedding_scale, Some(12.0));
    assert_eq!(config.logit_divisor, Some(8.0));
    let file = GgufFile::open(family_model_path("granite_moe")).unwrap();
    assert_experts(&Model::from_gguf(&file).unwrap(), (4, 2, 256));
}

/// Granite MoE Shared: the same with shared experts beside the routed ones; llama.cpp's
/// greedy outputs all change with the shared experts' output zeroed.
#[test]
fn granite_moe_with_shared_experts_agrees_with_llama_cpp() {
    check_model("granite_moe_shared", "granitemoe");
    let file = GgufFile::open(family_model_path("granite_moe_shared")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_experts(&model, (4, 2, 256));
    for layer in &model.weights().layers {
        let Mlp::Experts(moe) = &layer.mlp else {
            unreachable!()
        };
        assert_eq!(moe.shared.as_ref().map(|s| s.width), Some(128));
    }
}

/// OLMo 3 (`olmo2` files): no pre-norms, post-norms, Q/K norms over whole rows, three of
/// four layers sliding with plain RoPE and the global one stretched by YaRN.
#[test]
fn olmo2_with_post_norms_whole_row_qk_norms_and_sliding_layers_agrees_with_llama_cpp() {
    check_family("olmo2");
    let file = GgufFile::open(family_model_path("olmo2")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    let windows: Vec<Option<usize>> = layers.iter().map(|l| l.window).collect();
    assert_eq!(windows, [Some(16), Some(16), Some(16), None]);
    for layer in layers {
        assert!(layer.attn_norm.is_none() && layer.ffn_norm.is_none());
        assert_eq!(layer.q_norm.as_ref().map(Vec::len), Some(256));
        assert_eq!(layer.k_norm.as_ref().map(Vec::len), Some(64));
        assert!(layer.post_attn_norm.is_some() && layer.post_ffn_norm.is_some());
    }
}

/// EXAONE 4.0 (`exaone4`) at the 32B's depth of 64 layers, where llama.cpp's loader makes
/// three of every four slide: post-norms only, per-head Q/K norms, the sliding layers rotated
/// within their window, the global ones attending to every key without RoPE.
#[test]
fn exaone4_with_post_norms_and_global_layers_without_rope_agrees_with_llama_cpp() {
    check_family("exaone4");
    let file = GgufFile::open(family_model_path("exaone4")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    assert_eq!(layers.len(), 64);
    for (i, layer) in layers.iter().enumerate() {
        let sliding = i % 4 < 3;
        assert_eq!(layer.window, sliding.then_some(16), "layer {i}");
        assert_eq!(layer.rope.is_some(), sliding, "layer {i}");
        assert!(layer.attn_norm.is_none() && layer.ffn_norm.is_none());
        assert_eq!(layer.q_norm.as_ref().map(Vec::len), Some(32));
        assert!(layer.post_attn_norm.is_some() && layer.post_ffn_norm.is_some());
    }
    // The same file with its last layer declared a prediction layer: a trunk of 63, which
    // llama.cpp attends globally and rotates in every layer.
    let key = "exaone4.nextn_predict_layers";
    let value = engine::gguf::MetadataValue::U32(1);
    let trunk = common::gguf_writer::rebuild(&file, &[(key, value)], &[], Vec::new());
    let model = Model::from_gguf(&trunk).unwrap();
    let layers = &model.weights().layers;
    assert_eq!(layers.len(), 63);
    assert!(layers
        .iter()
        .all(|l| l.window.is_none() && l.rope.is_some()));
}

/// SentencePiece tokenization of the fixture's tricky strings, id for id.
fn assert_tokenizes_like_llama_cpp(tok: &Tokenizer, fixture: &Value) {
    let cases = fixture["tokenization"].as_array().unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let parse_special = case["parse_special"].as_bool().unwrap_or(false);
        let want: Vec<u32> = case["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        let got = tok.encode_without_bos_eos(text, parse_special).unwrap();
        assert_eq!(got, want, "{text:?} (parse_special {parse_special})");
    }
}

#[test]
fn smollm3_with_layers_without_rope_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("smollm3");
    assert_eq!(config.num_layers, 4);
    let file = GgufFile::open(family_model_path("smollm3")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let rotated: Vec<bool> = model
        .weights()
        .layers
        .iter()
        .map(|l| l.rope.is_some())
        .collect();
    assert_eq!(rotated, [true, true, true, false]);
}

#[test]
fn phi3_with_fused_tensors_and_space_prefix_agrees_with_llama_cpp() {
    let (config, tok, fixture) = check_family("phi3");
    assert_eq!((config.num_heads, config.num_kv_heads), (4, 4));
    // The file declares a 16-token window that llama.cpp does not apply; prompts run past it,
    // so applying it would fail the agreement above.
    let file = GgufFile::open(family_model_path("phi3")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert!(model.weights().layers.iter().all(|l| l.window.is_none()));
    assert_tokenizes_like_llama_cpp(&tok, &fixture);
    // A rendered chat prompt: its turn tokens swallow the newlines after them whether the
    // whole text is parsed or only the template's parts (the message stays text).
    let text = "<|user|>\n  Hi there<|end|>\n<|assistant|>\n";
    let content = text.find("  Hi").unwrap()..text.find("<|end|>").unwrap();
    let whole = tok.encode_without_bos_eos(text, true).unwrap();
    assert_eq!(tok.encode_chat(text, &[content]).unwrap(), whole);
    let (user, end) = (
        tok.token_id("<|user|>").unwrap(),
        tok.token_id("<|end|>").unwrap(),
    );
    let hi = tok.encode_without_bos_eos("Hi there", false).unwrap();
    assert_eq!(whole[0], user);
    assert_eq!(whole[1..1 + hi.len()], hi[..]);
    assert_eq!(whole[1 + hi.len()], end);
    assert_eq!(whole.len(), hi.len() + 3);
}

/// Phi-3.5-style LongRoPE: the phi3 model with short and long frequency factors and an
/// attention factor, served in the 4,096-token context llama.cpp's server ran with, over an
/// original context of 4,096 (the short factors apply) and of 2,048 (the long ones, on a
/// rotation of 64 of 96 head dimensions as in Phi-4-mini): both agree with llama.cpp. The
/// served context decides: the same file served for its whole 16k context runs the long
/// factors, whose logits differ.
#[test]
fn phi3_long_rope_picks_its_factors_by_the_served_context_like_llama_cpp() {
    let served = LoadOptions {
        max_context_len: 4096,
    };
    for variant in ["phi3_longrope_short", "phi3_longrope_long"] {
        let (file, tok, fixture) = open_checked(variant);
        assert_eq!(file.architecture(), Some("phi3"));
        let model = Model::from_gguf_with(&file, &served).unwrap();
        let mut runner = Runner::new(model, 1, 4096);
        for line in assert_agrees_with_fixture(&mut runner, &tok, &fixture, FAMILY_NEAR_TIE) {
            eprintln!("{variant}: {line}");
        }
    }
    let (file, tok, _) = open_checked("phi3_longrope_short");
    let prompt = tok
        .encode("The quick brown fox jumps over the lazy dog.", true)
        .unwrap();
    let logits = |options: &LoadOptions| {
        let mut runner = Runner::new(Model::from_gguf_with(&file, options).unwrap(), 1, 256);
        let mut req = runner.admit_uncached();
        let row = runner.extend(&mut [(&mut req, &prompt)]).remove(0);
        runner.release(req);
        row
    };
    let (short, whole) = (logits(&served), logits(&LoadOptions::default()));
    let most = short
        .iter()
        .zip(&whole)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(
        most > 0.1,
        "short and long factors gave logits within {most}"
    );
}

#[test]
fn an_unknown_family_is_refused_naming_the_supported_ones() {
    let path = family_model_path("qwen2");
    let mut bytes = std::fs::read(path).unwrap();
    // Rename the architecture in place ("qwen2" -> "qwenX") without moving any offset.
    let key = b"general.architecture";
    let at = bytes.windows(key.len()).position(|w| w == key).unwrap();
    let value = bytes[at..].windows(5).position(|w| w == b"qwen2").unwrap() + at;
    bytes[value + 4] = b'X';
    let file = GgufFile::from_bytes(bytes).unwrap();
    let err = Model::from_gguf(&file).err().unwrap().to_string();
    for name in [
        "qwenX", "llama", "qwen2", "qwen3", "gemma3", "smollm3", "phi3", "gpt-oss", "olmo2",
    ] {
        assert!(err.contains(name), "{err}");
    }
}

/// Gemma 3 served by the engine: its own chat template (from the GGUF, through minijinja)
/// renders, the greedy output is the one the bare model gives, and the server reports what
/// the sliding layers hold for the cached tokens (5 of its 6 layers slide).
#[test]
fn gemma3_serves_through_the_engine_and_reports_sliding_window_memory() {
    use engine::handle::{EngineConfig, EngineHandle};
    use engine::tokenizer::ChatMessage;

    let path = family_model_path("gemma3");
    let engine = EngineHandle::start(EngineConfig::new(&path)).unwrap();
    let messages = [ChatMessage::user("Tell me about the sea.")];
    let text = engine.chat_template().render(&messages, true).unwrap();
    assert!(text.contains("Tell me about the sea."), "{text}");
    let ids = engine.tokenizer().encode_chat(&text, &[]).unwrap();

    assert_serves_like_the_runner(&engine, &path, &ids);

    let info = engine.server_info();
    assert_eq!(
        info.kv_sliding_bytes_per_token,
        info.kv_bytes_per_token * 5 / 6
    );
    let cached = info.kv_evictable_tokens + info.kv_protected_tokens;
    assert!(cached >= ids.len(), "{cached} cached tokens");
    assert_eq!(
        info.kv_sliding_cached_bytes,
        (cached * info.kv_sliding_bytes_per_token) as u64
    );
    engine.shutdown(std::time::Duration::from_secs(5));
}

/// The latent attention layers and experts of a `deepseek2` model: one K/V head of the
/// latent row, values read from the keys, and MoE layers after `dense` dense ones.
fn assert_latent_model(config: &ModelConfig, model: &Model, dense: usize, latent_row: usize) {
    assert_eq!((config.num_kv_heads, config.head_dim), (1, latent_row));
    assert!(config.values_in_keys);
    let layout = model.kv_layout(pools::KvDtype::F32);
    assert_eq!(layout.bytes_per_token(), config.num_layers * latent_row * 4);
    for (i, layer) in model.weights().layers.iter().enumerate() {
        assert!(layer.mla.is_some(), "layer {i}");
        let moe = matches!(&layer.mlp, Mlp::Experts(m) if m.shared.is_some());
        assert_eq!(moe, i >= dense, "layer {i}");
    }
}

/// DeepSeek V3 / Kimi K2 style: queries through a low-rank bottleneck, per-head `attn_k_b`
/// and `attn_v_b` absorbed around a latent cache, YaRN with its magnitude moved into the
/// score scale, a dense first layer, then experts chosen by sigmoid scores with a selection
/// bias among the best 2 of 4 groups, renormalized and scaled by 2.5, beside a shared
/// expert. llama.cpp's greedy outputs change with any one of these turned off.
#[test]
fn deepseek2_with_latent_attention_and_grouped_sigmoid_experts_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("deepseek2");
    // (1 + 0.1 ln 4)^2 / sqrt(32 + 16), as llama.cpp's log gives it.
    let mscale = 1.0 + 0.1 * 4.0f32.ln();
    let want = mscale * mscale / 48.0f32.sqrt();
    assert!((config.score_scale.unwrap() - want).abs() < 1e-6);
    let file = GgufFile::open(family_model_path("deepseek2")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_latent_model(&config, &model, 1, 64 + 16);
    let Mlp::Experts(moe) = &model.weights().layers[1].mlp else {
        unreachable!()
    };
    assert!(moe.selection_bias.is_some());
    assert_eq!(moe.plan.routing.groups, Some((4, 2)));
}

/// DeepSeek V2-Lite style, a file from before the split: one query projection, `attn_kv_b`
/// split per head when loaded, softmax routing without renormalization. llama.cpp runs
/// this file with a decompressed cache of 4 heads; the latent cache gives the same
/// continuations.
#[test]
fn deepseek2_lite_from_an_unsplit_file_agrees_with_llama_cpp() {
    let (config, _, _) = check_model("deepseek2_lite", "deepseek2");
    assert_eq!(config.score_scale, Some(1.0 / 48.0f32.sqrt()));
    let file = GgufFile::open(family_model_path("deepseek2_lite")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_latent_model(&config, &model, 1, 64 + 16);
}

/// GLM-4.5-Air style: Q/K/V biases, NeoX RoPE over half of each head, the MLP's norm stored
/// as `post_attention_norm`, a dense first layer, then experts chosen by sigmoid scores with
/// a selection bias, renormalized and scaled, beside a shared expert; a multi-token-
/// prediction layer after the three of the model, which llama.cpp's graph leaves out
/// (zeroing it changes none of its outputs) and so does the loader.
#[test]
fn glm4moe_with_a_prediction_layer_left_out_agrees_with_llama_cpp() {
    let (config, _, _) = check_family("glm4moe");
    assert_eq!(config.num_layers, 3);
    let file = GgufFile::open(family_model_path("glm4moe")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    assert_eq!(layers.len(), 3);
    assert!(layers.iter().all(|l| l.qkv_bias.is_some()));
    let Mlp::Experts(moe) = &layers[1].mlp else {
        unreachable!()
    };
    assert!(moe.selection_bias.is_some() && moe.shared.is_some());
    assert_eq!(moe.plan.routing.gating, engine::model::moe::Gating::Sigmoid);
    assert_eq!(moe.plan.routing.scale, 1.5);
}

/// Qwen1.5-MoE (`qwen2moe`): Qwen2's attention, softmax routing left unnormalized, and a
/// shared expert each token scales by a sigmoid gate of its own.
#[test]
fn qwen2moe_with_a_gated_shared_expert_agrees_with_llama_cpp() {
    check_family("qwen2moe");
    let file = GgufFile::open(family_model_path("qwen2moe")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_experts(&model, (8, 2, 64));
    for layer in &model.weights().layers {
        let Mlp::Experts(moe) = &layer.mlp else {
            unreachable!()
        };
        assert!(!moe.plan.routing.normalize);
        let shared = moe.shared.as_ref().unwrap();
        assert_eq!(shared.width, 256);
        assert_eq!(shared.gate.as_ref().map(Vec::len), Some(256));
    }
}

/// MiniMax-M2 (`minimax-m2`): Q/K norms over whole rows, NeoX RoPE over half of each head,
/// sigmoid routing with a selection bias.
#[test]
fn minimax_m2_with_whole_row_qk_norms_and_biased_sigmoid_routing_agrees_with_llama_cpp() {
    let (config, _, _) = check_model("minimax_m2", "minimax-m2");
    let file = GgufFile::open(family_model_path("minimax_m2")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    assert_experts(&model, (8, 2, 128));
    for layer in &model.weights().layers {
        assert_eq!(layer.q_norm.as_ref().map(Vec::len), Some(config.q_dim()));
        let Mlp::Experts(moe) = &layer.mlp else {
            unreachable!()
        };
        assert!(moe.selection_bias.is_some());
        assert_eq!(moe.plan.routing.gating, engine::model::moe::Gating::Sigmoid);
    }
}

/// Ministral 3 (`mistral3`): YaRN with the file's magnitude rule and queries scaled by their
/// position, stepping every 16 positions here, so the fixture's longer prompts and
/// continuations cross ten steps.
#[test]
fn mistral3_with_attention_temperature_and_yarn_agrees_with_llama_cpp() {
    check_family("mistral3");
    let file = GgufFile::open(family_model_path("mistral3")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let want = engine::model::AttentionTemperature {
        scale: 0.1,
        floor: 16,
        offset: 0.0,
    };
    for layer in &model.weights().layers {
        assert_eq!(layer.temperature, Some(want));
    }
}

/// Mistral Large 3 (`deepseek2` with an attention temperature): latent attention whose
/// queries are scaled by their position, stepping every 16 positions here.
#[test]
fn deepseek2_with_an_attention_temperature_agrees_with_llama_cpp() {
    check_model("deepseek2_temperature", "deepseek2");
    let file = GgufFile::open(family_model_path("deepseek2_temperature")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    for layer in &model.weights().layers {
        let t = layer.temperature.unwrap();
        assert_eq!((t.scale, t.floor, t.offset), (0.3, 16, 0.0));
    }
}

/// Llama 4 (`llama4`): RoPE layers (Llama 3's frequency factors) with Q/K normalized without
/// weights, a NoPE layer, dense and expert layers interleaved, each expert's input scaled by
/// its sigmoid weight, a shared expert beside it. (The chunks and the NoPE temperature begin
/// at position 8,192, past these prompts: the attention kernel's tests check the chunks.)
#[test]
fn llama4_with_interleaved_experts_and_nope_layers_agrees_with_llama_cpp() {
    check_family("llama4");
    let file = GgufFile::open(family_model_path("llama4")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let layers = &model.weights().layers;
    let ropes: Vec<bool> = layers.iter().map(|l| l.rope.is_some()).collect();
    assert_eq!(ropes, [true, true, true, false]);
    let chunks: Vec<Option<usize>> = layers.iter().map(|l| l.chunk).collect();
    assert_eq!(chunks, [Some(8192), Some(8192), Some(8192), None]);
    assert!(layers[3].temperature.is_some() && layers[0].temperature.is_none());
    assert_eq!(layers[0].q_norm.as_deref(), Some(&[1.0; 32][..]));
    assert!(layers[3].q_norm.is_none());
    for (i, layer) in layers.iter().enumerate() {
        match &layer.mlp {
            Mlp::Experts(moe) => {
                assert!(i % 2 == 1 && moe.plan.weighs_inputs && moe.shared.is_some());
                assert_eq!(
                    (moe.plan.experts, moe.plan.top_k, moe.plan.ffn),
                    (4, 1, 128)
                );
            }
            Mlp::Dense { .. } => assert!(i % 2 == 0),
            other => panic!("layer {i}: {} in Llama 4", other.kind()),
        }
    }
}

/// Llama 4 past its first chunk: a prompt of 8,506 tokens, so its last 314 positions and the
/// 16 generated ones attend within the second chunk of 8,192 (attending across it instead
/// changes llama.cpp's probabilities by up to 0.95), and the NoPE layer scales its queries
/// (by 1.07 there: within the tolerance, which mistral3's test checks).
#[test]
fn llama4_past_its_first_chunk_agrees_with_llama_cpp() {
    let (file, tok, fixture) = open_checked("llama4_long");
    let model = Model::from_gguf(&file).unwrap();
    let mut runner = Runner::sized(model, 16, 9216, KvDtype::F32, 9216);
    assert_agrees_with_fixture(&mut runner, &tok, &fixture, FAMILY_NEAR_TIE);
}

#[test]
fn gemma4_with_shared_kv_per_layer_inputs_and_two_head_shapes_agrees_with_llama_cpp() {
    let (config, tok, fixture) = check_family("gemma4");
    assert_tokenizes_like_llama_cpp(&tok, &fixture);
    let file = GgufFile::open(family_model_path("gemma4")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let w = model.weights();
    assert!(w.per_layer.is_some());
    let sources: Vec<Option<usize>> = w.layers.iter().map(|l| l.kv_source).collect();
    assert_eq!(sources, [None, None, None, None, None, Some(3), Some(4)]);
    let shapes: Vec<(usize, usize, bool)> = (w.layers.iter())
        .map(|l| (l.heads.num_kv_heads, l.heads.head_dim, l.keys_as_values))
        .collect();
    let (local, global) = ((2, 16, false), (1, 64, true));
    let mut want = vec![local, global, local, local, global, local, global];
    // Layers that read another's K/V project no values of their own.
    want[6].2 = false;
    assert_eq!(shapes, want);
    assert_eq!((config.num_kv_heads, config.head_dim), (2, 16));
    let layout = model.kv_layout(KvDtype::F32);
    assert_eq!(
        layout.num_layers, 5,
        "the two sharing layers own no pool layer"
    );
    let rows: Vec<usize> = (0..5).map(|l| layout.row_len_of(l)).collect();
    assert_eq!(
        rows,
        [32, 64, 32, 32, 64],
        "global layers' rows are their own"
    );
}

#[test]
fn gemma4moe_with_experts_beside_a_dense_mlp_agrees_with_llama_cpp() {
    let (config, _, _) = check_model("gemma4moe", "gemma4");
    let file = GgufFile::open(family_model_path("gemma4moe")).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    for (i, layer) in model.weights().layers.iter().enumerate() {
        let Mlp::Parallel(moe) = &layer.mlp else {
            panic!("layer {i} has no experts beside its MLP");
        };
        let plan = moe.experts.plan;
        assert_eq!(
            (plan.experts, plan.top_k, plan.ffn),
            (4, 2, 32),
            "layer {i}"
        );
        assert_eq!(moe.down.k_in(), config.ffn, "layer {i}: the dense half");
        assert!(moe.experts.down_scales.is_some(), "layer {i}");
    }
    let layout = model.kv_layout(KvDtype::F32);
    let rows: Vec<usize> = (0..6).map(|l| layout.row_len_of(l)).collect();
    assert_eq!(rows, [64, 64, 128, 64, 64, 128]);
}

/// The engine's greedy continuation of `ids` is the runner's on the model at `path`; returns
/// once the engine is idle.
fn assert_serves_like_the_runner(
    engine: &engine::handle::EngineHandle,
    path: &std::path::Path,
    ids: &[u32],
) {
    use engine::handle::GenerateRequest;
    use engine::sampling::SamplingParams;

    let file = GgufFile::open(path).unwrap();
    let mut runner = Runner::new(Model::from_gguf(&file).unwrap(), 1, 1024);
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, ids)]).remove(0);
    let want = runner.greedy_decode(&mut req, ids, &logits, 12);
    runner.release(req);

    let mut params = SamplingParams::greedy(12);
    params.ignore_eos = true;
    let stream = engine
        .submit(GenerateRequest::new(ids.to_vec(), params))
        .unwrap();
    assert_eq!(common::scripted::collect_tokens(stream), want);
    common::wait_idle(engine);
}

/// Gemma 4 under its own chat template (Gemma 4 31B's, as llama.cpp ships it): a turn renders
/// in its markup, the engine serves what the runner computes, `<turn|>` ends generation, and
/// the sliding-window memory counts only the sliding layers that own K/V, at their width.
#[test]
fn gemma4_serves_under_its_own_template_and_reports_its_sliding_window_memory() {
    use engine::handle::{EngineConfig, EngineHandle};
    use engine::tokenizer::ChatMessage;

    let path = family_model_path("gemma4");
    let mut config = EngineConfig::new(&path);
    config.chat_template = Some(include_str!("fixtures/gemma4_template.jinja").into());
    let engine = EngineHandle::start(config).unwrap();
    let messages = [ChatMessage::user("Tell me about the sea.")];
    let text = engine.chat_template().render(&messages, true).unwrap();
    assert!(
        text.contains("<|turn>user\nTell me about the sea.<turn|>"),
        "{text}"
    );
    // Thinking off: the template closes an empty thought channel for the model.
    assert!(
        text.ends_with("<|turn>model\n<|channel>thought\n<channel|>"),
        "{text}"
    );
    let tok = engine.tokenizer();
    let ids = tok.encode_chat(&text, &[]).unwrap();
    assert_eq!(
        ids.iter()
            .filter(|&&id| id == tok.bos_token_id().unwrap())
            .count(),
        1
    );
    let end_of_turn = tok.token_id("<turn|>").unwrap();
    assert!(tok.is_stop_token(end_of_turn));
    assert!(tok.is_stop_token(tok.token_id("<|tool_response>").unwrap()));
    assert_serves_like_the_runner(&engine, &path, &ids);

    let file = GgufFile::open(&path).unwrap();
    let model = Model::from_gguf(&file).unwrap();
    let owners = model
        .weights()
        .layers
        .iter()
        .filter(|l| l.kv_source.is_none());
    let row = |l: &engine::model::LayerWeights| l.heads.num_kv_heads * l.heads.head_dim;
    let (sliding, all) = owners.fold((0, 0), |(s, a), l| {
        (s + l.window.map_or(0, |_| row(l)), a + row(l))
    });
    let info = engine.server_info();
    assert_eq!(
        info.kv_bytes_per_token,
        2 * all * 4,
        "f32 K and V rows of the owners"
    );
    assert_eq!(
        info.kv_sliding_bytes_per_token,
        info.kv_bytes_per_token * sliding / all
    );
    engine.shutdown(std::time::Duration::from_secs(5));
}
