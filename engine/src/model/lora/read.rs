//! An adapter's file, whichever form it has: a PEFT directory (or its `.safetensors` file)
//! or llama.cpp's GGUF adapter; and the sha256 of the bytes read, which names it where its
//! K/V outlives the process (the disk tier).

use super::LoraAdapter;
use crate::gguf::GgufFile;
use crate::model::{ModelConfig, ModelError};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Largest adapter file read (a rank-256 adapter of every projection of a 70B model is
/// about 3 GB in f16).
const MAX_ADAPTER_FILE_BYTES: u64 = 8 << 30;

/// The adapter at `path` for a base model of `config`, and its sha256 (a PEFT adapter's
/// weights and configuration together).
pub fn read_adapter(
    path: &Path,
    config: &ModelConfig,
) -> Result<(LoraAdapter, String), ModelError> {
    if is_peft(path) {
        return LoraAdapter::read_peft(path, config);
    }
    let bytes = read_file(path)?;
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let file = GgufFile::from_bytes(bytes)?;
    Ok((LoraAdapter::from_gguf(&file, config)?, sha256))
}

/// The bytes of the regular file at `path` (never a pipe or a device, which could block or
/// never end), at most [`MAX_ADAPTER_FILE_BYTES`].
pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, ModelError> {
    let bad = |m: String| ModelError::Adapter(format!("{}: {m}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if !meta.is_file() {
        return Err(bad("not a regular file".into()));
    }
    if meta.len() > MAX_ADAPTER_FILE_BYTES {
        return Err(bad(format!(
            "{} bytes; at most {MAX_ADAPTER_FILE_BYTES} are read",
            meta.len()
        )));
    }
    std::fs::read(path).map_err(|e| bad(e.to_string()))
}

/// Whether `path` is a PEFT adapter: a directory, or a `.safetensors` file.
fn is_peft(path: &Path) -> bool {
    path.is_dir() || path.extension().is_some_and(|e| e == "safetensors")
}

/// A PEFT adapter's directory and weights file, from either.
pub(super) fn peft_files(path: &Path) -> (PathBuf, PathBuf) {
    if path.is_dir() {
        (path.to_path_buf(), path.join("adapter_model.safetensors"))
    } else {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        (dir, path.to_path_buf())
    }
}
