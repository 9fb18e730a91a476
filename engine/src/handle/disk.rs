//! Opening the disk tier for a model: its fingerprint (the GGUF file's SHA-256 and every
//! setting that changes the K/V bytes) names the store, so pages of another model file,
//! dtype, page size or served context are never read.

use super::{EngineError, ModelInfo};
use crate::scheduler::DiskKv;
use pools::tier::key::model_fingerprint;
use pools::tier::{DiskTier, DiskTierConfig};
use pools::KvLayout;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// Tokens per disk page at least (rounded up to whole pool pages): small enough that a
/// turn boundary wastes little, large enough that a long prompt is few files.
const MIN_PAGE_TOKENS: usize = 16;

/// Writes queued and not yet on disk may hold this much memory; more spills are dropped.
const MAX_PENDING_BYTES: u64 = 256 << 20;

/// Where the disk tier lives and how large it may grow.
#[derive(Clone, Debug, PartialEq)]
pub struct KvDiskConfig {
    pub dir: PathBuf,
    pub budget_bytes: u64,
}

fn file_sha256(path: &str) -> std::io::Result<[u8; 32]> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hasher.finalize().into())
}

pub(super) fn open(
    config: &KvDiskConfig,
    model: &ModelInfo,
    layout: KvLayout,
    page_size: usize,
    max_context_len: usize,
    can_move_kv: bool,
) -> Result<DiskKv, EngineError> {
    if !can_move_kv {
        return Err(EngineError::Config(
            "--kv-disk-dir: this device's K/V pool cannot be copied to disk yet".into(),
        ));
    }
    // A model without a file (a test's scripted model) is named by its description.
    let file_hash = match file_sha256(&model.path) {
        Ok(hash) => hash.to_vec(),
        Err(_) => format!("{model:?}").into_bytes(),
    };
    let page_tokens = MIN_PAGE_TOKENS.next_multiple_of(page_size.max(1));
    // The served context is a setting too: a long-context model's RoPE factors follow it,
    // and K is stored rotated.
    let settings = format!(
        "dtype={:?} layers={} kv_heads={} head_dim={} page_tokens={page_tokens} endian={} \
         served_context={max_context_len}",
        layout.dtype,
        layout.num_layers,
        layout.num_kv_heads,
        layout.head_dim,
        if cfg!(target_endian = "little") {
            "little"
        } else {
            "big"
        }
    );
    // Layers of another row width (Gemma 4) name theirs; other layouts keep their old name.
    let settings = match layout.other_rows {
        Some(other) => format!("{settings} other_rows={:x}:{}", other.layers, other.row_len),
        None => settings,
    };
    let disk = DiskTier::open(DiskTierConfig {
        dir: config.dir.clone(),
        budget_bytes: config.budget_bytes,
        page_tokens,
        page_bytes: page_tokens * layout.bytes_per_token(),
        fingerprint: model_fingerprint(&file_hash, &settings),
        max_pending_bytes: MAX_PENDING_BYTES,
    })?;
    let adapters = model.adapters.iter().map(|a| a.sha256.clone()).collect();
    Ok(DiskKv::new(disk, layout, config.budget_bytes, adapters))
}
