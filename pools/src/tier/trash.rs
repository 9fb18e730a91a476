//! Directory housekeeping of the disk tier. A flushed namespace is renamed into `trash/`
//! before the flush returns (one rename: out of the index's sight at once), and the writer
//! deletes it later: a process that dies in between leaves nothing a restart would index,
//! so flushed K/V never comes back. Stores of other models (another fingerprint: a
//! different model file or K/V type) are removed when a store opens: the byte budget is
//! the directory's, and only one server uses a directory at a time.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The directory under a store's root that flushed namespaces wait in.
pub(super) const TRASH_DIR: &str = "trash";

/// Moves the directory `name` under `root` into the trash; a missing one is nothing to do.
pub(super) fn discard(root: &Path, name: &str, seq: &AtomicU64) -> io::Result<()> {
    let n = seq.fetch_add(1, Ordering::Relaxed);
    let trash = root.join(TRASH_DIR);
    fs::create_dir_all(&trash)?;
    match fs::rename(root.join(name), trash.join(format!("{name}.{n}"))) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Deletes what the trash holds.
pub(super) fn empty(root: &Path) {
    let Ok(entries) = fs::read_dir(root.join(TRASH_DIR)) else {
        return;
    };
    for entry in entries.flatten() {
        let _ = fs::remove_dir_all(entry.path());
    }
}

/// Removes the stores under `dir` of fingerprints other than `own` (store directories are
/// named by a fingerprint's first 32 hex digits); returns how many went.
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
        let is_store = name.len() == own.len() && name.bytes().all(|b| b.is_ascii_hexdigit());
        if is_store && name != own && entry.path().is_dir() {
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
