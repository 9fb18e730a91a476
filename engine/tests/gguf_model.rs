//! The GGUF reader against the real default model, SmolLM2-135M-Instruct Q4_1.

use std::path::{Path, PathBuf};
use std::process::Command;

use engine::gguf::GgufFile;
use engine::model::Hparams;
use kernels::quant::GgmlType;

const MODEL: &str = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
const FETCH: &str = "scripts/fetch-model.sh";

/// The model file, fetched with `scripts/fetch-model.sh` if absent; never skipped silently.
fn model_path() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join(MODEL);
    if !path.exists() {
        let status = Command::new("bash").arg(root.join(FETCH)).status();
        assert!(
            matches!(status, Ok(s) if s.success()) && path.exists(),
            "{MODEL} is missing and {FETCH} could not fetch it ({status:?}); run {FETCH}"
        );
    }
    path
}

#[test]
fn smollm2_directory_and_hparams() {
    let file = GgufFile::open(model_path()).unwrap();
    assert_eq!(file.version(), 3);
    assert_eq!(file.architecture(), Some("llama"));
    assert_eq!(file.tensors().len(), 272);

    let hp = Hparams::from_metadata(file.metadata()).unwrap();
    assert_eq!(hp.block_count, 30);
    assert_eq!(hp.embedding_length, 576);
    assert_eq!(hp.head_count, 9);
    assert_eq!(hp.head_count_kv, 3);
    assert_eq!(hp.key_length, 64);
    assert_eq!(hp.feed_forward_length, 1536);
    assert_eq!(hp.rope_freq_base, 100_000.0);
    assert!((hp.rms_norm_eps - 1e-5).abs() < 1e-9, "{}", hp.rms_norm_eps);
    assert_eq!(hp.context_length, 8192);
    assert_eq!(hp.rope_dimension_count, 64);
    assert_eq!(hp.vocab_size, Some(49152));

    let embd = file.tensor("token_embd.weight").unwrap();
    assert_eq!(embd.ggml_type(), GgmlType::Q8_0);
    assert_eq!(embd.dims(), &[576, 49152]);
    assert_eq!(embd.data().len(), 576 / 32 * 34 * 49152);
    assert!(file.tensor("output.weight").is_none());

    let count = |t: GgmlType| file.tensors().iter().filter(|i| i.ggml_type == t).count();
    assert_eq!(count(GgmlType::Q4_1), 210);
    assert_eq!(count(GgmlType::F32), 61);
    assert_eq!(count(GgmlType::Q8_0), 1);

    // Every tensor ends inside the file, and the last one ends at its end (modulo padding).
    let end = file
        .tensors()
        .iter()
        .map(|t| file.data_offset() + t.offset + t.n_bytes)
        .max();
    let len = file.bytes().len() as u64;
    assert!(end.is_some_and(|end| end <= len && len - end < file.alignment()));

    let norm = file.tensor("blk.0.attn_norm.weight").unwrap();
    assert_eq!(
        (norm.ggml_type(), norm.dims()),
        (GgmlType::F32, &[576u64][..])
    );
    let tokens = file
        .metadata()
        .get_str_array("tokenizer.ggml.tokens")
        .unwrap();
    assert_eq!(tokens[2], "<|im_end|>");
}
