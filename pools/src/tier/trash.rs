//! Directory housekeeping of the disk tier. A flushed namespace is renamed into `trash/`
//! before the flush returns (one rename: out of the index's sight at once), and the writer
//! deletes it later: a process that dies in between leaves nothing a restart would index,
//! so flushed K/V never comes back. The writer syncs the store's directory before it
//! empties the trash (off the scheduler's thread: a tenant cycling cache salts flushes
//! often), so from then on a power loss cannot undo the rename either. Stores of other
//! models (another fingerprint: a different model file or K/V type) are removed when a
//! store opens: the byte budget is the directory's, and only one server uses a directory
//! at a time.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The directory under a store's root that flushed namespaces wait in.
pub(super) const TRASH_DIR: &str = "trash";

/// A first number for the trash's names that no earlier process of this store used (its
/// start time): a leftover that could not be deleted never blocks a rename.
pub(super) fn first_seq() -> AtomicU64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    AtomicU64::new(now.map_or(0, |d| d.as_nanos() as u64))
}

/// Moves the directory `name` under `root` into the trash (created when the store opens); a
/// missing one is nothing to do.
pub(super) fn discard(root: &Path, name: &str, seq: &AtomicU64) -> io::Result<()> {
    let trash = root.join(TRASH_DIR);
    let mut last = Ok(());
    for _ in 0..3 {
        let n = seq.fetch_add(1, Ordering::Relaxed);
        last = match fs::rename(root.join(name), trash.join(format!("{name}.{n}"))) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => Err(e),
            Ok(()) => return Ok(()),
        };
    }
    last
}

/// Deletes what the trash holds, once the store's directory is synced (the renames that
/// filled the trash then survive a power loss). An empty trash costs no sync.
pub(super) fn empty(root: &Path) {
    let Ok(entries) = fs::read_dir(root.join(TRASH_DIR)) else {
        return;
    };
    let entries: Vec<_> = entries.flatten().collect();
    if entries.is_empty() {
        return;
    }
    if let Err(e) = fs::File::open(root).and_then(|d| d.sync_all()) {
        tracing::warn!("KV disk tier: cannot sync {}: {e}", root.display());
    }
    for entry in entries {
        let _ = fs::remove_dir_all(entry.path());
    }
}

/// Removes the stores under `dir` of fingerprints other than `own`: directories (not links)
/// named by a fingerprint's first 32 lowercase hex digits and holding a store's `tmp`
/// directory. Returns how many went.
pub(super) fn remove_other_models(dir: &Path, own: &str) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        let named = name.len() == own.len() && name.bytes().all(hex) && name != own;
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if named && is_dir && entry.path().join("tmp").is_dir() {
            match fs::remove_dir_all(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) => tracing::warn!(
                    "KV disk tier: cannot remove another model's store {}: {e}",
                    entry.path().display()
                ),
            }
        }
    }
    removed
}
