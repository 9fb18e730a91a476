//! The disk tier seen from the scheduler. Eviction offers every full page that ends in an
//! evicted node (its K/V copied out before the slots are reused); a new request whose
//! prompt continues its cached prefix with pages on disk waits in `loading` while a
//! background thread reads and verifies them (the batch goes on), then restores them into
//! the pool at admission, where they count as cached tokens like any other hit. Shutdown
//! spills the whole tree, so a restart finds it on disk.
//!
//! Pages are keyed by names that outlive the process (tenant and group names from the
//! tenants file, salts, adapters), never by in-memory ids; a namespace whose scope has no
//! configured name is not tiered.

use super::fair::TenantBook;
use super::{Req, Scheduler};
use crate::io::{DiskTierInfo, ServerInfo};
use crate::metric_names as names;
use crate::model::{ForwardModel, KvPool};
use crate::tenants::TenantId;
use pools::tier::{Digest32, DiskTier};
use pools::{EvictedPath, KvLayout, PoolError};
use radix::{CacheScope, Namespace, NsId};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Reads one request may wait for: at arrival, and once more if what it found in the pool
/// was evicted before its admission (a request never bounces between queue and disk).
const MAX_LOADS_PER_REQUEST: u8 = 2;

/// A request waits this long for its pages at most; then it computes them, and no read
/// starts until the late one ends (a hung disk must not hold every disk hit).
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// K/V copied out per round of the shutdown spill (within the write queue's 256 MiB).
const SHUTDOWN_SPILL_ROUND_BYTES: usize = 128 << 20;

/// Pages being read or held for requests may take this much memory; a request whose pages
/// would exceed it loads fewer (the rest it computes).
const MAX_STAGED_BYTES: u64 = 1 << 30;

/// A share of [`MAX_STAGED_BYTES`], given back when dropped.
struct StagedBytes {
    bytes: u64,
    total: Arc<AtomicU64>,
}

impl Drop for StagedBytes {
    fn drop(&mut self) {
        self.total.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// K/V read back from disk for one request: whole pages, the first starting at token `from`.
pub(crate) struct StagedKv {
    from: usize,
    pages: Vec<Vec<u8>>,
    _bytes: StagedBytes,
}

struct Loaded {
    seq: u64,
    staged: StagedKv,
    /// [`DiskKv::flushes`] when the read started.
    flushes: u64,
}

/// A request waiting for its pages, and since when.
struct Loading {
    req: Req,
    since: Instant,
}

/// The disk tier and the requests waiting for it.
pub(crate) struct DiskKv {
    disk: DiskTier,
    budget_bytes: u64,
    /// Bytes of one token's K (or V) in each layer, in a page's order: its payload is a
    /// run of `page_tokens` rows per buffer (layer by layer, K then V).
    block_row_bytes: Vec<usize>,
    done_tx: Sender<Loaded>,
    done_rx: Receiver<Loaded>,
    loading: Vec<Loading>,
    /// Reads given up after [`READ_TIMEOUT`] (their request's `seq`) that have not ended:
    /// while any is left, no read starts.
    late_reads: rustc_hash::FxHashSet<u64>,
    loaded_tokens: u64,
    /// Bytes of pages being read or staged (at most [`MAX_STAGED_BYTES`]).
    staged_bytes: Arc<AtomicU64>,
    /// Flushes so far, and the flush count at the last flush of everything and of each
    /// namespace flushed while reads were under way: a read that started before a flush of
    /// its request's namespace may hold flushed pages, and they are dropped when it ends.
    flushes: u64,
    flushed_all_at: u64,
    flushed_at: rustc_hash::FxHashMap<NsId, u64>,
    /// Each LoRA adapter's file sha256, by adapter number: what names an adapter's pages,
    /// so that a restart loading adapters in another order never reads one's as another's.
    adapters: Vec<String>,
}

impl DiskKv {
    /// One adapter number per distinct adapter file whose pages may be on disk.
    pub fn adapter_files(&self) -> Vec<u32> {
        let mut seen = std::collections::BTreeSet::new();
        (self.adapters.iter().enumerate())
            .filter(|(_, sha)| !sha.is_empty() && seen.insert(sha.as_str()))
            .filter_map(|(id, _)| u32::try_from(id).ok())
            .collect()
    }

    /// Names adapter `id`'s pages by its file's sha256 (an adapter loaded while serving).
    pub fn name_adapter(&mut self, id: u32, sha256: &str) {
        let id = id as usize;
        if self.adapters.len() <= id {
            self.adapters.resize(id + 1, String::new());
        }
        self.adapters[id] = sha256.to_string();
    }

    /// The tier over `disk`; `adapters`: each LoRA adapter's file sha256, by number.
    pub fn new(disk: DiskTier, layout: KvLayout, budget_bytes: u64, adapters: Vec<String>) -> Self {
        let (done_tx, done_rx) = channel();
        Self {
            disk,
            budget_bytes,
            block_row_bytes: (layout.buffer_row_lens())
                .map(|row| row * layout.dtype.size_bytes())
                .collect(),
            done_tx,
            done_rx,
            loading: Vec::new(),
            late_reads: rustc_hash::FxHashSet::default(),
            loaded_tokens: 0,
            staged_bytes: Arc::new(AtomicU64::new(0)),
            flushes: 0,
            flushed_all_at: 0,
            flushed_at: rustc_hash::FxHashMap::default(),
            adapters,
        }
    }

    pub fn loading(&self) -> impl Iterator<Item = &Req> {
        self.loading.iter().map(|l| &l.req)
    }

    pub fn loading_mut(&mut self) -> impl Iterator<Item = &mut Req> {
        self.loading.iter_mut().map(|l| &mut l.req)
    }

    /// The bytes of tokens `skip..page_tokens` of a page, in the layout `import_slots` takes.
    fn page_tail(&self, page: &[u8], skip: usize) -> Vec<u8> {
        let p = self.disk.page_tokens();
        let tail: usize = self
            .block_row_bytes
            .iter()
            .map(|row| (p - skip) * row)
            .sum();
        let mut out = Vec::with_capacity(tail);
        let mut at = 0;
        for &row in &self.block_row_bytes {
            let run = page.get(at..at + p * row).unwrap_or_default();
            out.extend_from_slice(run.get(skip * row..).unwrap_or_default());
            at += p * row;
        }
        out
    }
}

/// The stable name of a namespace, if it has one (`adapters`: [`DiskKv::adapters`]).
fn identity(ns: &Namespace, tenants: &TenantBook, adapters: &[String]) -> Option<String> {
    let named = |kind: &str, name: &str| format!("{kind}:{}:{name}", name.len());
    let mut id = match ns.scope {
        CacheScope::Global => "global".to_string(),
        CacheScope::Tenant(_) => named("tenant", tenants.scope_name(ns.scope)?),
        CacheScope::Group(_) => named("group", tenants.scope_name(ns.scope)?),
    };
    if let Some(salt) = &ns.salt {
        id.push('/');
        id.push_str(&named("salt", salt));
    }
    if let Some(adapter) = ns.adapter {
        id.push_str("/adapter:");
        id.push_str(adapters.get(adapter as usize).filter(|s| !s.is_empty())?);
    }
    Some(id)
}

/// Copies out and queues the full pages that end inside the evicted node.
fn spill_path(disk_kv: &DiskKv, kv: &impl KvPool, tenants: &TenantBook, ev: &EvictedPath) {
    let disk = &disk_kv.disk;
    let p = disk.page_tokens();
    let pages = ev.tokens.len() / p;
    let first = ev.node_start / p;
    if first >= pages {
        return;
    }
    let identity = identity(ev.namespace, tenants, &disk_kv.adapters);
    let Some(tag) = identity.map(|id| disk.tag(&id)) else {
        return;
    };
    let owner = owner_tag(disk, ev.namespace, tenants);
    for (j, id) in disk
        .chain(&tag, ev.tokens, pages)
        .into_iter()
        .enumerate()
        .skip(first)
    {
        if !disk.claim(&id.key) {
            continue;
        }
        let mut payload = Vec::with_capacity(disk.page_bytes());
        if let Err(e) = kv.export_slots(&ev.slots[j * p..(j + 1) * p], &mut payload) {
            tracing::error!("copying K/V out for the disk tier: {e}");
            disk.give_up(&id.key);
            return;
        }
        disk.spill(id, owner, payload);
    }
}

/// The tag of who owns `ns` (its scope, whatever its salt and adapter): a caller's flush
/// drops every namespace it owns on disk, those of salts the tree no longer holds too.
fn owner_tag(disk: &DiskTier, ns: &Namespace, tenants: &TenantBook) -> Option<Digest32> {
    let scope = identity(&Namespace::scoped(ns.scope), tenants, &[])?;
    Some(disk.tag(&format!("owner/{scope}")))
}

impl<M: ForwardModel> Scheduler<M> {
    fn ns_tag(&self, ns: NsId) -> Option<Digest32> {
        let disk_kv = self.disk.as_ref()?;
        let namespace = self.cache.tree().namespace(ns)?;
        identity(namespace, &self.tenants, &disk_kv.adapters).map(|id| disk_kv.disk.tag(&id))
    }

    /// Starts reading the pages that continue `req`'s cached prefix, if the disk has any;
    /// the request then waits in `loading`. Otherwise hands it back.
    pub(super) fn start_load(&mut self, mut req: Req) -> Option<Req> {
        if req.disk_loads >= MAX_LOADS_PER_REQUEST {
            return Some(req);
        }
        let Some(tag) = self.ns_tag(req.ns) else {
            return Some(req);
        };
        let Some(disk) = &self.disk else {
            return Some(req);
        };
        if !disk.late_reads.is_empty() {
            return Some(req);
        }
        // As admission does: at least one prompt token is computed.
        let key = &req.input_ids[..req.input_ids.len() - 1];
        let cached = self.cache.tree().prefix_len(req.ns, key).unwrap_or(0);
        let first = cached / disk.disk.page_tokens();
        let mut run = disk.disk.present_run(&tag, key, first);
        let page_bytes = disk.disk.page_bytes() as u64;
        let in_use = disk.staged_bytes.load(Ordering::Relaxed);
        let room = MAX_STAGED_BYTES.saturating_sub(in_use) / page_bytes.max(1);
        run.truncate(room as usize);
        if run.is_empty() {
            return Some(req);
        }
        let bytes = StagedBytes {
            bytes: run.len() as u64 * page_bytes,
            total: disk.staged_bytes.clone(),
        };
        disk.staged_bytes.fetch_add(bytes.bytes, Ordering::Relaxed);
        let from = first * disk.disk.page_tokens();
        req.disk_loads += 1;
        let done = disk.done_tx.clone();
        let seq = req.seq;
        let flushes = disk.flushes;
        disk.disk.load(
            run,
            Box::new(move |pages| {
                // The scheduler may have stopped; nothing waits then.
                let _ = done.send(Loaded {
                    seq,
                    staged: StagedKv {
                        from,
                        pages,
                        _bytes: bytes,
                    },
                    flushes,
                });
            }),
        );
        self.disk.as_mut()?.loading.push(Loading {
            req,
            since: Instant::now(),
        });
        None
    }

    /// Requests waiting for the disk.
    pub(super) fn loading_count(&self) -> usize {
        self.disk.as_ref().map_or(0, |d| d.loading.len())
    }

    /// Whether a request waiting for its pages runs adapter `id`.
    pub(super) fn loading_uses_adapter(&self, id: u32) -> bool {
        (self.disk.iter()).any(|d| d.loading.iter().any(|l| l.req.adapter == Some(id)))
    }

    /// The tenant of each request waiting for its pages.
    pub(super) fn loading_tenants(&self) -> impl Iterator<Item = TenantId> + '_ {
        self.disk
            .iter()
            .flat_map(|d| d.loading.iter().map(|l| l.req.tenant))
    }

    /// Moves requests whose pages were read to the waiting queue; waits up to `wait` for
    /// the first if none is ready.
    pub(super) fn take_loaded(&mut self, wait: Duration) {
        let Some(disk) = &mut self.disk else {
            return;
        };
        let first = match disk.done_rx.try_recv() {
            Ok(loaded) => Some(loaded),
            Err(_) if wait.is_zero() || disk.loading.is_empty() => None,
            Err(_) => disk.done_rx.recv_timeout(wait).ok(),
        };
        let ready: Vec<Loaded> = first.into_iter().chain(disk.done_rx.try_iter()).collect();
        for loaded in ready {
            if disk.late_reads.remove(&loaded.seq) {
                continue; // its request computed the pages meanwhile
            }
            if let Some(i) = disk.loading.iter().position(|l| l.req.seq == loaded.seq) {
                let mut req = disk.loading.swap_remove(i).req;
                let flushed = disk
                    .flushed_all_at
                    .max(disk.flushed_at.get(&req.ns).copied().unwrap_or(0));
                if !loaded.staged.pages.is_empty() && loaded.flushes >= flushed {
                    req.staged = Some(loaded.staged);
                }
                self.waiting.push(req);
            }
        }
        // Reads under way started after every flush recorded so far.
        if disk.loading.is_empty() {
            disk.flushed_at.clear();
        }
    }

    /// Ends the requests waiting for the disk whose client left, whose deadline passed or
    /// that were aborted, without waiting for their reads (which may never end): a read
    /// that finishes later finds nobody and is dropped with its staged bytes. A request
    /// that waited [`READ_TIMEOUT`] goes back to the queue to compute its pages.
    pub(super) fn reap_loading(&mut self, now: Instant) {
        let Some(disk) = &mut self.disk else {
            return;
        };
        let mut abandoned = Vec::new();
        let mut i = 0;
        while i < disk.loading.len() {
            let loading = &disk.loading[i];
            if loading.req.is_abandoned(now) {
                abandoned.push(disk.loading.swap_remove(i).req);
            } else if now.saturating_duration_since(loading.since) >= READ_TIMEOUT {
                let mut req = disk.loading.swap_remove(i).req;
                if disk.late_reads.is_empty() {
                    tracing::warn!(
                        "KV disk tier: a read took over {}s; its prompt is computed, and no \
                         read starts until it ends",
                        READ_TIMEOUT.as_secs()
                    );
                }
                disk.late_reads.insert(req.seq);
                req.disk_loads = MAX_LOADS_PER_REQUEST;
                self.waiting.push(req);
            } else {
                i += 1;
            }
        }
        for req in abandoned {
            self.finish_aborted(req);
        }
    }

    /// Every request still waiting for the disk, back to the waiting queue (shutdown).
    pub(super) fn stop_loading(&mut self) {
        if let Some(disk) = &mut self.disk {
            self.waiting.extend(disk.loading.drain(..).map(|l| l.req));
        }
    }

    /// Puts `req`'s pages read from disk into the pool (when the tree does not hold them by
    /// now and room can be made), before its prefix is matched.
    /// Returns true when the pool has no room for them now: the request keeps them and
    /// waits (it could not be admitted without that room anyway). A request that would run
    /// `alone` may make that room from any cache.
    pub(super) fn restore_staged(&mut self, req: &mut Req, alone: bool) -> bool {
        let Some(staged) = req.staged.take() else {
            return false;
        };
        let Some(disk) = &self.disk else {
            return false;
        };
        let p = disk.disk.page_tokens();
        let end = staged.from + staged.pages.len() * p;
        let Some(tokens) = req.input_ids.get(..end) else {
            return false;
        };
        let cached = self.cache.tree().prefix_len(req.ns, tokens).unwrap_or(0);
        if cached >= end || cached < staged.from {
            return false;
        }
        self.make_room_for(req.tenant, end - cached, alone);
        if self.cache.allocator().available() < end - cached {
            req.staged = Some(staged);
            return true;
        }
        let Some(disk) = &self.disk else {
            return false;
        };
        let kv = &mut self.kv;
        let restored = self
            .cache
            .restore_prefix(req.ns, tokens, staged.from, |first, slots| {
                let mut at = 0;
                for (j, page) in staged.pages.iter().enumerate() {
                    let page_start = staged.from + j * p;
                    if page_start + p <= first {
                        continue;
                    }
                    let skip = first.saturating_sub(page_start);
                    let n = p - skip;
                    let bytes = disk.page_tail(page, skip);
                    kv.import_slots(&slots[at..at + n], &bytes)
                        .map_err(|e| PoolError::Tier(e.to_string()))?;
                    at += n;
                }
                Ok(())
            });
        match restored {
            Ok(n) => {
                if let Some(disk) = &mut self.disk {
                    disk.loaded_tokens += n as u64;
                }
                metrics::counter!(names::KV_TIER_LOADED_TOKENS, "tier" => "disk")
                    .increment(n as u64);
            }
            Err(e) => tracing::error!(rid = %req.rid, "restoring K/V from disk: {e}"),
        }
        false
    }

    /// Evicts up to `tokens` of the leaves `allowed` accepts (asked with each candidate's
    /// namespace and tokens, in eviction order), spilling to disk.
    pub(super) fn evict_marked(
        &mut self,
        tokens: usize,
        allowed: impl FnMut(NsId, usize) -> bool,
    ) -> usize {
        let (kv, tenants) = (&self.kv, &self.tenants);
        let mut spill = self
            .disk
            .as_ref()
            .map(|d| move |ev: &EvictedPath| spill_path(d, kv, tenants, ev));
        let observe = spill.as_mut().map(|f| f as &mut dyn FnMut(&EvictedPath));
        let result = self.cache.evict_where_spilling(tokens, allowed, observe);
        result.unwrap_or_else(|e| {
            tracing::error!("tenant-aware eviction: {e}");
            0
        })
    }

    /// [`Scheduler::flush_disk`] of `namespaces`, and of every namespace on disk that
    /// `owner` (a namespace naming neither salt nor adapter) owns.
    pub(super) fn flush_disk_owned(&mut self, namespaces: &[Namespace], owner: &Namespace) {
        self.flush_disk(Some(namespaces));
        if let Some(disk) = &self.disk {
            if let Some(tag) = owner_tag(&disk.disk, owner, &self.tenants) {
                disk.disk.flush_owner(&tag);
            }
        }
    }

    /// Drops the disk's pages of `namespaces` (of every namespace: `None`), and the pages
    /// of them read or being read for waiting requests, so that none re-enters the tree
    /// after the flush. Other namespaces' reads go on (a tenant's salts come and go with
    /// flushes).
    pub(super) fn flush_disk(&mut self, namespaces: Option<&[Namespace]>) {
        let tree = self.cache.tree();
        // Those the tree knows (one it does not know has no request).
        let known: Option<rustc_hash::FxHashSet<NsId>> = namespaces.map(|all| {
            all.iter()
                .filter_map(|ns| tree.find_namespace(ns))
                .collect()
        });
        let Some(disk) = &mut self.disk else {
            return;
        };
        disk.flushes += 1;
        match &known {
            None => disk.flushed_all_at = disk.flushes,
            Some(ids) if !disk.loading.is_empty() => {
                for &id in ids {
                    disk.flushed_at.insert(id, disk.flushes);
                }
            }
            Some(_) => {}
        }
        for req in self.waiting.iter_mut() {
            if known.as_ref().is_none_or(|ids| ids.contains(&req.ns)) {
                req.staged = None;
            }
        }
        match namespaces {
            None => disk.disk.flush_all(),
            Some(all) => {
                let tags: Vec<Digest32> = (all.iter())
                    .filter_map(|ns| identity(ns, &self.tenants, &disk.adapters))
                    .map(|id| disk.disk.tag(&id))
                    .collect();
                disk.disk.flush_namespaces(&tags);
            }
        }
    }

    /// At shutdown: writes every cached page to disk and waits for the writes (in rounds
    /// that stay within the tier's queue, so none is dropped).
    pub(super) fn spill_all(&mut self) {
        let Some(disk) = &self.disk else {
            return;
        };
        let round =
            (SHUTDOWN_SPILL_ROUND_BYTES / disk.disk.page_bytes()).max(1) * disk.disk.page_tokens();
        loop {
            let evicted = self.evict_marked(round, |_, _| true);
            if let Some(disk) = &self.disk {
                disk.disk.sync();
            }
            if evicted == 0 {
                break;
            }
        }
    }

    /// The disk tier's figures, into `info` and the metrics.
    pub(super) fn publish_disk(&self, info: &mut ServerInfo) {
        let Some(disk) = &self.disk else {
            info.kv_disk = None;
            return;
        };
        let s = disk.disk.stats();
        let p = disk.disk.page_tokens() as u64;
        let d = DiskTierInfo {
            budget_bytes: disk.budget_bytes,
            bytes: s.bytes,
            tokens: s.pages * p,
            page_tokens: p as usize,
            spilled_tokens: s.written_pages * p,
            loaded_tokens: disk.loaded_tokens,
            loading_requests: disk.loading.len(),
            bad_pages: s.bad_pages,
            evicted_tokens: s.evicted_pages * p,
            write_errors: s.write_errors,
            dropped_spills: s.dropped_spills,
            spills_paused: s.spills_paused,
        };
        metrics::gauge!(names::KV_TIER_TOKENS, "tier" => "disk").set(d.tokens as f64);
        metrics::gauge!(names::KV_TIER_BYTES, "tier" => "disk").set(d.bytes as f64);
        metrics::counter!(names::KV_TIER_SPILLED_TOKENS, "tier" => "disk")
            .absolute(d.spilled_tokens);
        metrics::counter!(names::KV_TIER_BAD_PAGES, "tier" => "disk").absolute(d.bad_pages);
        metrics::counter!(names::KV_TIER_WRITE_ERRORS, "tier" => "disk").absolute(d.write_errors);
        metrics::counter!(names::KV_TIER_DROPPED_SPILLS, "tier" => "disk")
            .absolute(d.dropped_spills);
        metrics::gauge!(names::KV_TIER_SPILLS_PAUSED, "tier" => "disk")
            .set(f64::from(u8::from(d.spills_paused)));
        info.kv_disk = Some(d);
    }
}
