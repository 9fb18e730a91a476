//! The disk tier: one file per page under `<dir>/<fingerprint>/<namespace tag>/<key>.kvpage`,
//! written by a background thread (temp file, then rename: a crash leaves either the whole
//! file or none) and read back by another, so neither the scheduler nor the batch waits on
//! the disk. An LRU keeps the files within the byte budget; on start the directory is
//! indexed from file names alone and every page is verified when it is read. One process at
//! a time owns a directory (an exclusive lock on `<dir>/lock`): two would delete each
//! other's half-written pages, each keep its own budget, and miss each other's flushes.
//! Flushes and other models' stores are handled as [`super::trash`] says.

use super::index::{Generation, Index};
use super::key::{namespace_tag, Digest32};
use super::page::{decode, encode, PageIdentity};
use super::trash;
use crate::{PoolError, TokenId};
use parking_lot::Mutex;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The name ending of page files (`<key hex>.kvpage`).
pub const PAGE_FILE_EXTENSION: &str = "kvpage";

/// After a failed write, spills pause this long before the disk is tried again.
const WRITE_RETRY: Duration = Duration::from_secs(30);

/// How long opening waits for the directory's lock (a process that is shutting down).
const LOCK_WAIT: Duration = Duration::from_secs(3);

#[derive(Clone, Debug)]
pub struct DiskTierConfig {
    pub dir: PathBuf,
    pub budget_bytes: u64,
    /// Tokens per page (a multiple of the pool's page size).
    pub page_tokens: usize,
    /// K/V bytes of one page.
    pub page_bytes: usize,
    pub fingerprint: Digest32,
    /// Spills queued but not yet written may hold at most this much memory; more are dropped.
    pub max_pending_bytes: u64,
}

/// Counters and sizes of the disk tier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiskTierStats {
    pub pages: u64,
    pub bytes: u64,
    pub written_pages: u64,
    pub read_pages: u64,
    /// Pages whose file did not verify (deleted, read as a miss).
    pub bad_pages: u64,
    pub evicted_pages: u64,
    pub write_errors: u64,
    /// Spills not taken because too many writes were queued or writes are paused.
    pub dropped_spills: u64,
    /// Writes are paused after an error (disk full, unwritable).
    pub spills_paused: bool,
}

#[derive(Default)]
struct Counters {
    written: AtomicU64,
    read: AtomicU64,
    bad: AtomicU64,
    evicted: AtomicU64,
    write_errors: AtomicU64,
    dropped: AtomicU64,
    pending_bytes: AtomicU64,
    paused: AtomicBool,
}

struct Shared {
    config: DiskTierConfig,
    /// Holds the directory's lock until the last thread lets go.
    _lock: fs::File,
    root: PathBuf,
    index: Mutex<Index>,
    counters: Counters,
    paused_until: Mutex<Option<Instant>>,
    /// Numbers the namespaces moved to the trash.
    trash_seq: AtomicU64,
}

/// A page to write, with who owns its namespace and the flush generation it was queued in.
struct PageWrite {
    id: PageIdentity,
    owner: Option<Digest32>,
    payload: Vec<u8>,
    generation: Generation,
}

enum WriteJob {
    Page(Box<PageWrite>),
    /// Makes the flushes' renames durable, then deletes what they moved to the trash.
    EmptyTrash,
    Barrier(Sender<()>),
}

/// Pages read back for one request: payloads of consecutive pages, in order, up to the
/// first that was missing or did not verify.
pub type LoadDone = Box<dyn FnOnce(Vec<Vec<u8>>) + Send>;

struct LoadJob {
    pages: Vec<PageIdentity>,
    done: LoadDone,
}

pub struct DiskTier {
    shared: Arc<Shared>,
    writes: Option<Sender<WriteJob>>,
    loads: Option<Sender<LoadJob>>,
    threads: Vec<JoinHandle<()>>,
}

fn io_err(what: &str, path: &Path, e: std::io::Error) -> PoolError {
    PoolError::Tier(format!("{what} {}: {e}", path.display()))
}

/// Takes `dir`'s lock, waiting up to [`LOCK_WAIT`] for a process that is letting go.
fn lock_dir(dir: &Path) -> Result<fs::File, PoolError> {
    fs::create_dir_all(dir).map_err(|e| io_err("cannot create", dir, e))?;
    let path = dir.join("lock");
    let file = fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| io_err("cannot open", &path, e))?;
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(PoolError::Tier(format!(
                    "{} is in use by another process (or another engine of this one): \
                     give each server its own disk tier directory",
                    dir.display()
                )))
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_err("cannot lock", &path, e)),
        }
    }
}

impl DiskTier {
    /// Opens (creating) the store for `config.fingerprint`, indexes the pages already there
    /// and starts the writer and reader threads.
    pub fn open(config: DiskTierConfig) -> Result<Self, PoolError> {
        if config.page_tokens == 0 || config.page_bytes == 0 {
            return Err(PoolError::InvalidConfig("empty disk tier pages".into()));
        }
        let lock = lock_dir(&config.dir)?;
        let store = &config.fingerprint.hex()[..32];
        let others = trash::remove_other_models(&config.dir, store);
        if others > 0 {
            tracing::info!("KV disk tier: removed {others} store(s) of other models");
        }
        let root = config.dir.join(store);
        trash::empty(&root);
        let tmp = root.join("tmp");
        fs::create_dir_all(&tmp).map_err(|e| io_err("cannot create", &tmp, e))?;
        let bin = root.join(trash::TRASH_DIR);
        fs::create_dir_all(&bin).map_err(|e| io_err("cannot create", &bin, e))?;
        // Half-written pages of a process that died: never indexed, removed.
        for entry in fs::read_dir(&tmp)
            .map_err(|e| io_err("cannot read", &tmp, e))?
            .flatten()
        {
            let _ = fs::remove_file(entry.path());
        }
        let mut index = Index::default();
        let (pages, owners) = scan(&root, &config);
        for (key, tag, bytes) in pages {
            index.insert(key, tag, bytes);
        }
        for (tag, owner) in owners {
            index.set_owner(tag, owner);
        }
        let over = index.make_room(0, config.budget_bytes);
        let shared = Arc::new(Shared {
            root,
            config,
            _lock: lock,
            index: Mutex::new(index),
            counters: Counters::default(),
            paused_until: Mutex::new(None),
            trash_seq: trash::first_seq(),
        });
        for (key, entry) in over {
            let _ = fs::remove_file(shared.page_path(&entry.tag, &key));
        }
        let (writes, write_rx) = channel();
        let (loads, load_rx) = channel();
        let spawn = |name: &str, f: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .name(name.into())
                .spawn(f)
                .map_err(|e| PoolError::Tier(format!("cannot start the {name} thread: {e}")))
        };
        let w = shared.clone();
        let r = shared.clone();
        let threads = vec![
            spawn("kv-disk-write", Box::new(move || write_loop(&w, write_rx)))?,
            spawn("kv-disk-read", Box::new(move || read_loop(&r, load_rx)))?,
        ];
        Ok(Self {
            shared,
            writes: Some(writes),
            loads: Some(loads),
            threads,
        })
    }

    pub fn page_tokens(&self) -> usize {
        self.shared.config.page_tokens
    }

    pub fn page_bytes(&self) -> usize {
        self.shared.config.page_bytes
    }

    pub fn fingerprint(&self) -> Digest32 {
        self.shared.config.fingerprint
    }

    /// The tag of the namespace named `identity` (a stable name, never an in-memory id).
    pub fn tag(&self, identity: &str) -> Digest32 {
        namespace_tag(&self.shared.config.fingerprint, identity)
    }

    /// The pages of `tokens` on disk from page `first` on, as long as they are consecutive.
    pub fn present_run(
        &self,
        tag: &Digest32,
        tokens: &[TokenId],
        first: usize,
    ) -> Vec<PageIdentity> {
        let p = self.page_tokens();
        let pages = tokens.len() / p;
        if first >= pages {
            return Vec::new();
        }
        let chain = self.chain(tag, tokens, pages);
        let index = self.shared.index.lock();
        chain
            .into_iter()
            .skip(first)
            .take_while(|id| index.contains(&id.key))
            .collect()
    }

    /// The first `pages` full pages of `tokens` in namespace `tag`, as this store keys them.
    pub fn chain(&self, tag: &Digest32, tokens: &[TokenId], pages: usize) -> Vec<PageIdentity> {
        PageIdentity::chain(self.fingerprint(), *tag, tokens, self.page_tokens(), pages)
    }

    /// Whether page `key` should be spilled now (not on disk, not queued, writes not paused,
    /// room in the queue); if so it is marked queued and must be followed by
    /// [`DiskTier::spill`] or [`DiskTier::give_up`].
    pub fn claim(&self, key: &Digest32) -> bool {
        let c = &self.shared.counters;
        if self.shared.paused() {
            return false;
        }
        let bytes = self.page_bytes() as u64;
        if c.pending_bytes.load(Ordering::Relaxed) + bytes > self.shared.config.max_pending_bytes {
            c.dropped.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        self.shared.index.lock().claim(*key)
    }

    /// Releases a [`DiskTier::claim`] without writing.
    pub fn give_up(&self, key: &Digest32) {
        self.shared.index.lock().unclaim(key);
    }

    /// Queues the write of a claimed page; `owner` names who owns its namespace (see
    /// [`DiskTier::flush_owner`]).
    pub fn spill(&self, id: PageIdentity, owner: Option<Digest32>, payload: Vec<u8>) {
        let generation = self.shared.index.lock().generation(&id.tag, owner.as_ref());
        self.shared
            .counters
            .pending_bytes
            .fetch_add(payload.len() as u64, Ordering::Relaxed);
        let job = WriteJob::Page(Box::new(PageWrite {
            id,
            owner,
            payload,
            generation,
        }));
        let key = job_key(&job);
        let sent = self.writes.as_ref().is_some_and(|w| w.send(job).is_ok());
        if !sent {
            if let Some((key, bytes)) = key {
                self.shared.finish_pending(&key, bytes);
            }
        }
    }

    /// Reads `pages` on the reader thread and calls `done` with what verified.
    pub fn load(&self, pages: Vec<PageIdentity>, done: LoadDone) {
        if let Some(loads) = &self.loads {
            if let Err(e) = loads.send(LoadJob { pages, done }) {
                (e.0.done)(Vec::new());
            }
        }
    }

    /// Removes every page of namespace `tag`: from the index and out of the store's sight
    /// before this returns (into the trash, which the writer empties later).
    pub fn flush_namespace(&self, tag: &Digest32) {
        self.flush_namespaces(std::slice::from_ref(tag));
    }

    /// [`DiskTier::flush_namespace`] of each of `tags`, with one pass over the index.
    pub fn flush_namespaces(&self, tags: &[Digest32]) {
        let mut index = self.shared.index.lock();
        index.flush_namespaces(tags);
        // Under the index's lock: a write lands either before (and goes too) or after,
        // where it sees the new generation and is dropped.
        for tag in tags {
            self.shared.discard(&tag.hex());
        }
        drop(index);
        self.send(WriteJob::EmptyTrash);
    }

    /// Removes every page of every namespace `owner` owns (those its writers named it for,
    /// in this process or an earlier one), as [`DiskTier::flush_namespace`] does: a tenant's
    /// namespaces under all its salts, whose tags cannot be listed from its name.
    pub fn flush_owner(&self, owner: &Digest32) {
        let mut index = self.shared.index.lock();
        for tag in index.flush_owner(owner) {
            self.shared.discard(&tag.hex());
        }
        drop(index);
        self.send(WriteJob::EmptyTrash);
    }

    /// Removes every page of this model, as [`DiskTier::flush_namespace`] does.
    pub fn flush_all(&self) {
        let mut index = self.shared.index.lock();
        index.flush_all();
        for (tag, _) in namespace_dirs(&self.shared.root) {
            self.shared.discard(&tag.hex());
        }
        drop(index);
        self.send(WriteJob::EmptyTrash);
    }

    /// Waits until every write queued before this call is done.
    pub fn sync(&self) {
        let (tx, rx) = channel();
        self.send(WriteJob::Barrier(tx));
        let _ = rx.recv();
    }

    fn send(&self, job: WriteJob) {
        if let Some(w) = &self.writes {
            let _ = w.send(job);
        }
    }

    pub fn stats(&self) -> DiskTierStats {
        let (pages, bytes) = {
            let index = self.shared.index.lock();
            (index.pages() as u64, index.bytes())
        };
        let c = &self.shared.counters;
        DiskTierStats {
            pages,
            bytes,
            written_pages: c.written.load(Ordering::Relaxed),
            read_pages: c.read.load(Ordering::Relaxed),
            bad_pages: c.bad.load(Ordering::Relaxed),
            evicted_pages: c.evicted.load(Ordering::Relaxed),
            write_errors: c.write_errors.load(Ordering::Relaxed),
            dropped_spills: c.dropped.load(Ordering::Relaxed),
            spills_paused: self.shared.paused(),
        }
    }
}

impl Drop for DiskTier {
    fn drop(&mut self) {
        // Queued writes finish first: closing the channels ends the loops after them.
        self.writes = None;
        self.loads = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Shared {
    fn page_path(&self, tag: &Digest32, key: &Digest32) -> PathBuf {
        self.root
            .join(tag.hex())
            .join(format!("{}.{PAGE_FILE_EXTENSION}", key.hex()))
    }

    /// Moves a namespace directory into the trash. Should that fail, its pages are deleted
    /// here: slower, but nothing flushed may stay where a restart would index it.
    fn discard(&self, name: &str) {
        if let Err(e) = trash::discard(&self.root, name, &self.trash_seq) {
            tracing::warn!("KV disk tier: cannot move {name} to the trash ({e}); deleting it");
            let _ = fs::remove_dir_all(self.root.join(name));
        }
    }

    fn paused(&self) -> bool {
        let mut until = self.paused_until.lock();
        match *until {
            Some(t) if Instant::now() < t => true,
            Some(_) => {
                *until = None;
                self.counters.paused.store(false, Ordering::Relaxed);
                tracing::info!("KV disk tier: retrying spills");
                false
            }
            None => false,
        }
    }

    fn finish_pending(&self, key: &Digest32, bytes: usize) {
        self.index.lock().unclaim(key);
        self.counters
            .pending_bytes
            .fetch_sub(bytes as u64, Ordering::Relaxed);
    }

    fn write_page(
        &self,
        id: &PageIdentity,
        owner: Option<Digest32>,
        payload: &[u8],
        generation: Generation,
    ) {
        let file = encode(id, payload);
        let size = file.len() as u64;
        if size > self.config.budget_bytes {
            return;
        }
        if self.index.lock().generation(&id.tag, owner.as_ref()) != generation {
            return; // Flushed while queued.
        }
        let evicted = self.index.lock().make_room(size, self.config.budget_bytes);
        self.counters
            .evicted
            .fetch_add(evicted.len() as u64, Ordering::Relaxed);
        for (key, entry) in evicted {
            let _ = fs::remove_file(self.page_path(&entry.tag, &key));
        }
        let path = self.page_path(&id.tag, &id.key);
        let tmp = self.root.join("tmp").join(format!("{}.tmp", id.key.hex()));
        // The directory names its owner once (again after a flush removed it).
        let unnamed = owner.filter(|o| self.index.lock().owner_of(&id.tag) != Some(o));
        let written = fs::write(&tmp, &file).and_then(|()| match path.parent() {
            Some(dir) => fs::create_dir_all(dir).and_then(|()| self.write_owner(dir, unnamed)),
            None => Ok(()),
        });
        if let Err(e) = written {
            let flushed = self.index.lock().generation(&id.tag, owner.as_ref()) != generation;
            if flushed && e.kind() == std::io::ErrorKind::NotFound {
                // A flush moved the directory away meanwhile: the page goes with it.
                let _ = fs::remove_file(&tmp);
                return;
            }
            self.write_failed(&tmp, &path, e);
            return;
        }
        // Into place under the index's lock, so that a flush cannot come in between (see
        // `DiskTier::flush_namespace`): a flush since the directory was made changed the
        // generation.
        let mut index = self.index.lock();
        if index.generation(&id.tag, owner.as_ref()) != generation {
            drop(index);
            let _ = fs::remove_file(&tmp);
            return;
        }
        match fs::rename(&tmp, &path) {
            Ok(()) => {
                index.insert(id.key, id.tag, size);
                if let Some(owner) = unnamed {
                    index.set_owner(id.tag, owner);
                }
                self.counters.written.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                drop(index);
                self.write_failed(&tmp, &path, e);
            }
        }
    }

    /// Names `dir`'s owner (when `owner` is given): written aside and renamed in, so that
    /// the file is whole or absent.
    fn write_owner(&self, dir: &Path, owner: Option<Digest32>) -> std::io::Result<()> {
        let Some(owner) = owner else {
            return Ok(());
        };
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("namespace");
        let tmp = self
            .root
            .join("tmp")
            .join(format!("{name}.{OWNER_FILE}.tmp"));
        fs::write(&tmp, owner.hex())?;
        fs::rename(&tmp, dir.join(OWNER_FILE)).inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
    }

    /// A page could not be written: spills pause for [`WRITE_RETRY`].
    fn write_failed(&self, tmp: &Path, path: &Path, e: std::io::Error) {
        let _ = fs::remove_file(tmp);
        self.counters.write_errors.fetch_add(1, Ordering::Relaxed);
        *self.paused_until.lock() = Some(Instant::now() + WRITE_RETRY);
        if !self.counters.paused.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "KV disk tier: cannot write {}: {e}; spills paused for {}s (serving goes on)",
                path.display(),
                WRITE_RETRY.as_secs()
            );
        }
    }

    fn read_pages(&self, pages: &[PageIdentity]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for id in pages {
            let path = self.page_path(&id.tag, &id.key);
            let file = match fs::read(&path) {
                Ok(f) => f,
                Err(_) => {
                    self.index.lock().remove(&id.key);
                    break;
                }
            };
            match decode(&file, id, self.config.page_bytes) {
                Ok(payload) => {
                    self.index.lock().touch(&id.key);
                    self.counters.read.fetch_add(1, Ordering::Relaxed);
                    out.push(payload.to_vec());
                }
                Err(why) => {
                    tracing::warn!("KV disk tier: dropping {}: {why}", path.display());
                    self.counters.bad.fetch_add(1, Ordering::Relaxed);
                    self.index.lock().remove(&id.key);
                    let _ = fs::remove_file(&path);
                    break;
                }
            }
        }
        out
    }
}

/// The key and payload size of a page write.
fn job_key(job: &WriteJob) -> Option<(Digest32, usize)> {
    match job {
        WriteJob::Page(page) => Some((page.id.key, page.payload.len())),
        _ => None,
    }
}

fn write_loop(shared: &Shared, rx: Receiver<WriteJob>) {
    for job in rx {
        match job {
            WriteJob::Page(page) => {
                let PageWrite {
                    id,
                    owner,
                    payload,
                    generation,
                } = *page;
                shared.write_page(&id, owner, &payload, generation);
                shared.finish_pending(&id.key, payload.len());
            }
            WriteJob::EmptyTrash => trash::empty(&shared.root),
            WriteJob::Barrier(done) => {
                let _ = done.send(());
            }
        }
    }
}

fn read_loop(shared: &Shared, rx: Receiver<LoadJob>) {
    for job in rx {
        let pages = shared.read_pages(&job.pages);
        (job.done)(pages);
    }
}

/// Namespace directories under `root` (named by their tag).
fn namespace_dirs(root: &Path) -> Vec<(Digest32, PathBuf)> {
    let Ok(dir) = fs::read_dir(root) else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| {
            let tag = Digest32::from_hex(e.file_name().to_str()?)?;
            Some((tag, e.path()))
        })
        .collect()
}

/// The file in a namespace's directory that names its owner (hex), for owner flushes.
const OWNER_FILE: &str = "owner";

/// The owner `dir`'s file names, if it names one.
fn read_owner(dir: &Path) -> Option<Digest32> {
    let text = fs::read_to_string(dir.join(OWNER_FILE)).ok()?;
    Digest32::from_hex(text.trim())
}

/// Pages found on disk, least recently written first: (key, tag, file size), and each
/// namespace directory's owner where it names one. Only names and sizes are read; contents
/// are verified when a page is loaded.
type Scanned = (Vec<(Digest32, Digest32, u64)>, Vec<(Digest32, Digest32)>);

/// What the store under `root` holds (see [`Scanned`]).
fn scan(root: &Path, config: &DiskTierConfig) -> Scanned {
    let expected = (super::page_header_len(config.page_tokens) + config.page_bytes) as u64;
    let mut found = Vec::new();
    let mut owners = Vec::new();
    for (tag, dir) in namespace_dirs(root) {
        if let Some(owner) = read_owner(&dir) {
            owners.push((tag, owner));
        }
        let Ok(files) = fs::read_dir(&dir) else {
            continue;
        };
        for file in files.flatten() {
            let name = file.file_name();
            let Some(key) = name
                .to_str()
                .and_then(|n| n.strip_suffix(PAGE_FILE_EXTENSION)?.strip_suffix('.'))
                .and_then(Digest32::from_hex)
            else {
                continue;
            };
            let Ok(meta) = file.metadata() else {
                continue;
            };
            if meta.len() != expected {
                let _ = fs::remove_file(file.path());
                continue;
            }
            let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
            found.push((modified, key, tag, meta.len()));
        }
    }
    found.sort();
    let pages = (found.into_iter())
        .map(|(_, key, tag, len)| (key, tag, len))
        .collect();
    (pages, owners)
}
