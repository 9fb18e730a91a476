//! Every byte-level BPE pre-tokenizer the engine accepts against llama.cpp: SmolLM2's
//! vocabulary and merges under each `tokenizer.ggml.pre` name, and the ids llama.cpp's
//! llama-tokenize gives for awkward strings (`fixtures/pre_tokenizers.json`, written by
//! `scripts/make-pretokenizer-fixtures.py`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::gguf::{GgufFile, MetadataValue};
use engine::tokenizer::Tokenizer;
use serde_json::Value;
use sha2::{Digest, Sha256};

#[test]
fn every_pre_tokenizer_splits_like_llama_cpp() {
    let fixture: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/pre_tokenizers.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let bytes = std::fs::read(common::model_path()).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&bytes)),
        fixture["vocabulary_sha256"].as_str().unwrap(),
        "not the vocabulary the fixture was made from"
    );
    let file = GgufFile::from_bytes(bytes).unwrap();
    let texts: Vec<&str> = fixture["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let cases = fixture["ids"].as_object().unwrap();
    assert!(cases.len() >= 7, "{} pre-tokenizers", cases.len());
    for (pre, per_text) in cases {
        let mut metadata = file.metadata().clone();
        metadata.insert(
            "tokenizer.ggml.pre".into(),
            MetadataValue::String(pre.clone()),
        );
        let tok = Tokenizer::from_gguf_metadata(&metadata).unwrap();
        assert_eq!(tok.pre_tokenizer(), pre);
        for (text, want) in texts.iter().zip(per_text.as_array().unwrap()) {
            let want: Vec<u32> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
                .collect();
            let got = tok.encode_without_bos_eos(text, false).unwrap();
            assert_eq!(got, want, "pre-tokenizer {pre:?}, text {text:?}");
        }
    }
}
