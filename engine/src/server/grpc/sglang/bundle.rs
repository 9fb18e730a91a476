//! `GetTokenizer`'s bundle: a zip of the files a gateway loads a tokenizer from
//! (`tokenizer.json`, `tokenizer_config.json` with the chat template, `chat_template.jinja`,
//! `generation_config.json` with the stop ids, `special_tokens_map.json`, `config.json`),
//! built from the GGUF, so that the gateway needs no model files of its own.

use crate::handle::EngineHandle;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::io::{Cursor, Write};
use tonic::Status;
use zip::write::SimpleFileOptions;
use zip::CompressionMethod;

/// Bytes per streamed chunk (as SGLang's worker sends them).
pub(super) const CHUNK_BYTES: usize = 64 << 10;

/// The zip and the lowercase hex SHA-256 of all of it.
pub(super) struct Bundle {
    pub zip: Vec<u8>,
    pub sha256: String,
}

fn token_text(engine: &EngineHandle, id: Option<u32>) -> Option<String> {
    id.and_then(|id| engine.tokenizer().token_text(id))
        .map(str::to_string)
}

/// `generation_config.json`'s `eos_token_id`: a number for one, a list for several.
fn eos_json(ids: &[u32]) -> serde_json::Value {
    match ids {
        [one] => json!(one),
        many => json!(many),
    }
}

fn files(engine: &EngineHandle) -> Result<Vec<(&'static str, String)>, Status> {
    let tokenizer = engine.tokenizer();
    let tokenizer_json = tokenizer
        .to_hf_json()
        .ok_or_else(|| {
            Status::failed_precondition(
                "this model's SentencePiece vocabulary has no tokenizer.json form; \
                 give the gateway the model's tokenizer with --tokenizer-path",
            )
        })?
        .map_err(|e| Status::internal(format!("cannot export the tokenizer: {e}")))?;
    let info = engine.model_info();
    let template = engine.chat_template().source().to_string();
    let bos = token_text(engine, tokenizer.bos_token_id());
    let eos = token_text(engine, tokenizer.eos_token_id());
    let pad = token_text(engine, tokenizer.pad_token_id());
    let unk = token_text(engine, tokenizer.unk_token_id());
    let tokenizer_config = json!({
        "tokenizer_class": "PreTrainedTokenizerFast",
        "chat_template": template,
        "bos_token": bos,
        "eos_token": eos,
        "pad_token": pad,
        "unk_token": unk,
        "add_bos_token": tokenizer.add_bos_token(),
        "add_eos_token": tokenizer.add_eos_token(),
        "clean_up_tokenization_spaces": false,
        "model_max_length": engine.max_context_len(),
    });
    let special_tokens = json!({
        "bos_token": bos,
        "eos_token": eos,
        "pad_token": pad,
        "unk_token": unk,
    });
    let generation_config = json!({
        "eos_token_id": eos_json(&info.eos_token_ids),
        "bos_token_id": tokenizer.bos_token_id(),
        "pad_token_id": tokenizer.pad_token_id(),
    });
    let config = json!({
        "architectures": [info.architecture],
        "model_type": info.architecture,
        "vocab_size": info.vocab_size,
        "max_position_embeddings": engine.max_context_len(),
        "num_hidden_layers": info.num_layers,
        "hidden_size": info.hidden_size,
        "num_attention_heads": info.num_heads,
        "num_key_value_heads": info.num_kv_heads,
        "eos_token_id": eos_json(&info.eos_token_ids),
        "bos_token_id": tokenizer.bos_token_id(),
    });
    Ok(vec![
        ("tokenizer.json", tokenizer_json),
        ("tokenizer_config.json", tokenizer_config.to_string()),
        ("chat_template.jinja", template),
        ("special_tokens_map.json", special_tokens.to_string()),
        ("generation_config.json", generation_config.to_string()),
        ("config.json", config.to_string()),
    ])
}

/// Builds the bundle (deterministic: stored entries, fixed timestamps).
pub(super) fn build(engine: &EngineHandle) -> Result<Bundle, Status> {
    let zip_err =
        |e: zip::result::ZipError| Status::internal(format!("cannot write the tokenizer zip: {e}"));
    let io_err =
        |e: std::io::Error| Status::internal(format!("cannot write the tokenizer zip: {e}"));
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, text) in files(engine)? {
        writer.start_file(name, options).map_err(zip_err)?;
        writer.write_all(text.as_bytes()).map_err(io_err)?;
    }
    let zip = writer.finish().map_err(zip_err)?.into_inner();
    let sha256 = hex::encode(Sha256::digest(&zip));
    Ok(Bundle { zip, sha256 })
}
