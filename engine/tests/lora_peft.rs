//! LoRA adapters as Hugging Face PEFT saves them: `smollm2_lora_a_peft/` is the GGUF adapter
//! `smollm2_lora_a` (checked against llama.cpp in `lora.rs`) in PEFT's names and layout, its
//! Q and K rows in Hugging Face's order (`scripts/make-lora-adapters.py` writes them back from
//! the GGUF file through llama.cpp's converter's reordering). Loaded from either, the model
//! gives bitwise the same logits; `use_rslora` scales by alpha over the root of the rank; what
//! the loader would compute wrongly is refused by name.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::lora::{adapter_file, fixture};

use common::{family_model_path, load_model, Runner};
use engine::model::lora::LoraAdapter;
use engine::model::Model;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The PEFT directory, checked against its fixture's sha256.
fn peft_dir() -> PathBuf {
    let dir = family_model_path("smollm2_lora_a_peft");
    let dir = dir.with_extension("");
    let bytes = std::fs::read(dir.join("adapter_model.safetensors")).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&bytes)),
        fixture("smollm2_lora_a_peft")["file_sha256"]
            .as_str()
            .unwrap()
    );
    dir
}

/// A copy of the PEFT directory under a temporary name, its config changed by `edit`.
fn peft_copy(tag: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let src = peft_dir();
    let dir = std::env::temp_dir().join(format!("peft-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        src.join("adapter_model.safetensors"),
        dir.join("adapter_model.safetensors"),
    )
    .unwrap();
    let mut config: Value =
        serde_json::from_slice(&std::fs::read(src.join("adapter_config.json")).unwrap()).unwrap();
    edit(&mut config);
    std::fs::write(dir.join("adapter_config.json"), config.to_string()).unwrap();
    dir
}

fn logits_under(runner: &mut Runner, adapter: u32, prompt: &[u32]) -> Vec<f32> {
    runner.adapter = Some(adapter);
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, prompt)]).remove(0);
    runner.release(req);
    logits
}

fn load(model: &Model, path: &Path) -> Result<LoraAdapter, String> {
    LoraAdapter::from_peft(path, model.config()).map_err(|e| e.to_string())
}

#[test]
fn a_peft_adapter_computes_what_its_gguf_conversion_computes() {
    let (mut model, tok) = load_model();
    let gguf = LoraAdapter::from_gguf(&adapter_file("smollm2_lora_a"), model.config()).unwrap();
    model.add_adapter(gguf).unwrap();
    let dir = peft_dir();
    // Its directory, or its weights file with the config beside it.
    let peft = load(&model, &dir).unwrap();
    assert_eq!(peft.rank(), 8);
    model.add_adapter(peft).unwrap();
    let file = load(&model, &dir.join("adapter_model.safetensors")).unwrap();
    model.add_adapter(file).unwrap();
    // rsLoRA's scale, alpha / sqrt(r), is the GGUF file's alpha / r with alpha 16 sqrt(8).
    let rs = peft_copy("rslora", |c| c["use_rslora"] = json!(true));
    model.add_adapter(load(&model, &rs).unwrap()).unwrap();
    let alpha = common::gguf_writer::rebuild(
        &adapter_file("smollm2_lora_a"),
        &[(
            "adapter.lora.alpha",
            engine::gguf::MetadataValue::F32(16.0 * 8f32.sqrt()),
        )],
        &[],
        vec![],
    );
    model
        .add_adapter(LoraAdapter::from_gguf(&alpha, model.config()).unwrap())
        .unwrap();
    let mut runner = Runner::new(model, 1, 4096);
    for text in [
        "def fibonacci(n):",
        "The capital of France is",
        "Once upon a time",
    ] {
        let prompt = tok.encode(text, true).unwrap();
        let from_gguf = logits_under(&mut runner, 0, &prompt);
        for peft in [1, 2] {
            let from_peft = logits_under(&mut runner, peft, &prompt);
            assert!(
                from_gguf
                    .iter()
                    .zip(&from_peft)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{text:?}: adapter {peft}"
            );
        }
        let rslora = logits_under(&mut runner, 3, &prompt);
        let scaled = logits_under(&mut runner, 4, &prompt);
        let largest = (rslora.iter().zip(&scaled))
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(largest < 1e-3, "{text:?}: rsLoRA differs by {largest}");
        assert!(rslora != from_gguf, "{text:?}: rsLoRA changed nothing");
    }
}

#[test]
fn what_the_peft_loader_would_compute_wrongly_is_refused() {
    let (model, _) = load_model();
    for (tag, edit, want) in [
        ("dora", json!({"use_dora": true}), "DoRA"),
        ("fanin", json!({"fan_in_fan_out": true}), "fan_in_fan_out"),
        (
            "saved",
            json!({"modules_to_save": ["lm_head"]}),
            "modules_to_save",
        ),
        (
            "pattern",
            json!({"alpha_pattern": {"q_proj": 4}}),
            "alpha_pattern",
        ),
        ("bias", json!({"bias": "all"}), "biases"),
        ("type", json!({"peft_type": "IA3"}), "peft_type"),
        ("alpha", json!({"lora_alpha": "x"}), "adapter_config.json"),
    ] {
        let dir = peft_copy(tag, |c| {
            for (k, v) in edit.as_object().unwrap() {
                c[k] = v.clone();
            }
        });
        let err = load(&model, &dir).err();
        assert!(
            err.as_deref().is_some_and(|e| e.contains(want)),
            "{tag}: {err:?}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
    // Weights that are not what their names say.
    let weights = |tensors: &[(&str, Vec<usize>, &str)]| -> Vec<u8> {
        let mut header = serde_json::Map::new();
        let mut data = Vec::new();
        for (name, shape, dtype) in tensors {
            let width = match *dtype {
                "F32" => 4,
                "I64" => 8,
                _ => 2,
            };
            let len = shape.iter().product::<usize>() * width;
            let at = data.len();
            data.resize(at + len, 0u8);
            header.insert(
                (*name).into(),
                json!({"dtype": dtype, "shape": shape, "data_offsets": [at, at + len]}),
            );
        }
        let mut text = Value::Object(header).to_string().into_bytes();
        text.resize(text.len().next_multiple_of(8), b' ');
        let mut out = (text.len() as u64).to_le_bytes().to_vec();
        out.extend(text);
        out.extend(data);
        out
    };
    let q = "base_model.model.model.layers.0.self_attn.q_proj";
    let a = format!("{q}.lora_A.weight");
    let b = format!("{q}.lora_B.weight");
    for (tensors, want) in [
        (
            vec![(a.as_str(), vec![4, 576], "F32")],
            "a lora_A without its lora_B",
        ),
        (
            vec![(b.as_str(), vec![576, 4], "F32")],
            "a lora_B without its lora_A",
        ),
        (
            vec![
                (
                    "base_model.model.lm_head.lora_A.weight",
                    vec![4, 576],
                    "F32",
                ),
                (
                    "base_model.model.lm_head.lora_B.weight",
                    vec![49152, 4],
                    "F32",
                ),
            ],
            "only the attention and dense MLP projections",
        ),
        (
            vec![
                (a.as_str(), vec![4, 576], "F32"),
                (b.as_str(), vec![100, 4], "F32"),
            ],
            "maps 576 inputs to 100 outputs",
        ),
        (
            vec![
                (a.as_str(), vec![4, 576], "I64"),
                (b.as_str(), vec![576, 4], "F32"),
            ],
            "f32, f16 or bf16 only",
        ),
        (
            vec![
                (a.as_str(), vec![4, 576], "F32"),
                (b.as_str(), vec![576, 4], "F32"),
                (&format!("{q}.lora_A.default.weight"), vec![4, 576], "F32"),
                (&format!("{q}.lora_B.default.weight"), vec![576, 4], "F32"),
            ],
            "updated twice",
        ),
        (
            vec![("unrelated.weight", vec![4], "F32")],
            "neither a lora_A nor a lora_B",
        ),
        (vec![], "no LoRA tensors"),
    ] {
        let dir = peft_copy("weights", |_| {});
        std::fs::write(dir.join("adapter_model.safetensors"), weights(&tensors)).unwrap();
        let err = load(&model, &dir).err();
        assert!(
            err.as_deref().is_some_and(|e| e.contains(want)),
            "{want}: {err:?}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
    let err = load(&model, Path::new("/nonexistent/peft")).err();
    assert!(err.is_some_and(|e| e.contains("adapter_config.json")));
}

/// `--lora-paths` takes a PEFT directory as it takes a GGUF file.
#[test]
fn an_engine_serves_a_peft_directory() {
    let mut config = engine::handle::EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 16 << 20;
    config.lora_paths = vec![engine::handle::LoraSpec {
        name: "peft".into(),
        path: peft_dir(),
    }];
    let engine = engine::handle::EngineHandle::start(config).unwrap();
    let adapters = &engine.model_info().adapters;
    assert_eq!(adapters.len(), 1);
    assert_eq!((adapters[0].name.as_str(), adapters[0].rank), ("peft", 8));
    assert_eq!(adapters[0].sha256.len(), 64);
    assert_eq!(engine.adapter("peft"), Some(0));
    engine.shutdown(std::time::Duration::from_secs(1));
}
