//! The request-level cache operations that tie the pools to the radix tree, named as in
//! SGLang so its scheduler maps onto ours: a request is admitted with its cached prefix
//! locked, allocates slots as it computes tokens, hands finished pages to the tree with
//! `cache_unfinished_req`, and ends with `cache_finished_req` (or `release_req` on abort).
//!
//! A request's KV state is a [`ReqKv`]: its row, the lock on its cached prefix, and two
//! lengths. Row entries `[0, cached_len)` are tree slots (protected by the lock), entries
//! `[cached_len, kv_len)` are slots the request owns, together with the rest of the page its
//! last slot is in.

use crate::{KvSlotAllocator, PoolError, ReqRow, ReqToTokenPool, SlotId, TokenId};
use radix::{BlockEvent, EvictedPath, Namespace, NodeLock, NsId, RadixCache};

/// Sizes of the pools behind a [`KvCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KvCacheConfig {
    pub max_running_requests: usize,
    pub max_context_len: usize,
    /// Slots in the K/V buffers, the reserved page 0 included.
    pub num_slots: usize,
    pub page_size: usize,
}

/// The KV state one request holds. It must end in [`KvCache::cache_finished_req`] or
/// [`KvCache::release_req`], which consume it.
#[must_use = "a request's KV must be finished or released"]
#[derive(Debug)]
pub struct ReqKv {
    row: ReqRow,
    ns: NsId,
    lock: NodeLock,
    cached_len: usize,
    kv_len: usize,
}

impl ReqKv {
    /// Row index in `req_to_token` (`req_pool_indices` for kernels).
    pub fn row_index(&self) -> usize {
        self.row.index()
    }

    pub fn namespace(&self) -> NsId {
        self.ns
    }

    /// Leading tokens whose slots belong to the tree (locked by this request).
    pub fn cached_len(&self) -> usize {
        self.cached_len
    }

    /// Tokens that have slots in the row.
    pub fn kv_len(&self) -> usize {
        self.kv_len
    }
}

/// Allocator, request rows and prefix tree, with the operations that move slots between them.
pub struct KvCache {
    allocator: KvSlotAllocator,
    req_to_token: ReqToTokenPool,
    tree: RadixCache,
    scratch: Vec<SlotId>,
}

impl KvCache {
    pub fn new(config: KvCacheConfig) -> Result<Self, PoolError> {
        Ok(Self {
            allocator: KvSlotAllocator::new(config.num_slots, config.page_size)?,
            req_to_token: ReqToTokenPool::new(config.max_running_requests, config.max_context_len)?,
            tree: RadixCache::new(config.page_size)?,
            scratch: Vec::new(),
        })
    }

    pub fn allocator(&self) -> &KvSlotAllocator {
        &self.allocator
    }

    pub fn req_to_token(&self) -> &ReqToTokenPool {
        &self.req_to_token
    }

    pub fn tree(&self) -> &RadixCache {
        &self.tree
    }

    pub fn page_size(&self) -> usize {
        self.allocator.page_size()
    }

    /// Starts the tree's block events (see [`RadixCache::enable_block_events`]).
    pub fn enable_block_events(&mut self, block_size: usize) -> Result<(), PoolError> {
        Ok(self.tree.enable_block_events(block_size)?)
    }

    /// The tree's block events since the last call.
    pub fn take_block_events(&mut self) -> Vec<BlockEvent> {
        self.tree.take_block_events()
    }

    /// Every cached full block (see [`RadixCache::block_snapshot`]).
    pub fn block_snapshot(&self) -> Vec<BlockEvent> {
        self.tree.block_snapshot()
    }

    pub fn namespace_id(&mut self, ns: &Namespace) -> NsId {
        self.tree.namespace_id(ns)
    }

    /// Interns `ns` for one request (see [`RadixCache::acquire_namespace`]).
    pub fn acquire_namespace(&mut self, ns: &Namespace) -> NsId {
        self.tree.acquire_namespace(ns)
    }

    /// Ends one request's hold on `ns`; returns whether the namespace was reclaimed.
    pub fn release_namespace(&mut self, ns: NsId) -> bool {
        self.tree.release_namespace(ns)
    }

    /// Salted namespaces the tree reclaimed since the last call.
    pub fn take_reclaimed_namespaces(&mut self) -> Vec<Namespace> {
        self.tree.take_reclaimed()
    }

    /// Slots a new allocation could get, counting what eviction would free.
    pub fn available_with_eviction(&self) -> usize {
        self.allocator.available() + self.tree.evictable_size()
    }

    /// The first `kv_len` entries of the request's row: its KV slots in token order.
    pub fn slots(&self, req: &ReqKv) -> &[SlotId] {
        &self.req_to_token.row(&req.row)[..req.kv_len]
    }

    /// Slots the request owns outside the tree (its tail, rounded up to whole pages).
    pub fn owned_slots(&self, req: &ReqKv) -> usize {
        (req.kv_len - req.cached_len).div_ceil(self.page_size()) * self.page_size()
    }

    fn aligned(&self, len: usize) -> usize {
        len / self.page_size() * self.page_size()
    }

    /// Takes a request row, matches `prefix_key` in the tree, writes the cached prefix into the
    /// row and locks it. The scheduler passes at most `len - 1` prompt tokens so that at least
    /// one token is computed for logits.
    pub fn admit(&mut self, ns: NsId, prefix_key: &[TokenId]) -> Result<ReqKv, PoolError> {
        let max = self.req_to_token.max_context_len();
        let key = &prefix_key[..prefix_key.len().min(max)];
        let row = self.req_to_token.alloc()?;
        self.scratch.clear();
        // Counted by `record_admission` once the scheduler keeps the request.
        let found = match self.tree.match_prefix_untracked(ns, key, &mut self.scratch) {
            Ok(found) => found,
            Err(e) => {
                self.req_to_token.free(row);
                return Err(e.into());
            }
        };
        // Cannot fail: the key was clipped to the row length above.
        self.req_to_token.write(&row, 0, &self.scratch)?;
        let lock = self.tree.lock(found.last_node);
        Ok(ReqKv {
            row,
            ns,
            lock,
            cached_len: found.len,
            kv_len: found.len,
        })
    }

    /// Counts a kept admission of `queried` prompt tokens in the tree's hit statistics and
    /// access times (an admission undone by `release_req` leaves no trace there).
    pub fn record_admission(&mut self, req: &ReqKv, queried: usize) {
        // `admit` looked up at most a row's length.
        let queried = queried.min(self.req_to_token.max_context_len());
        let found = radix::MatchResult {
            len: req.cached_len,
            last_node: req.lock.node(),
        };
        self.tree.record_match(req.ns, queried, found);
    }

    /// Allocates slots for the request's next `n` tokens (its `out_cache_loc`, readable from
    /// [`KvCache::slots`] afterwards), evicting from the tree first if the free list is short.
    pub fn alloc_tokens(&mut self, req: &mut ReqKv, n: usize) -> Result<(), PoolError> {
        self.alloc_with(req, n, true)
    }

    /// Like [`KvCache::alloc_tokens`], but from free slots only: never evicts (the caller
    /// evicted what it was allowed to). Fails with `OutOfSlots` when they are too few.
    pub fn alloc_tokens_from_free(&mut self, req: &mut ReqKv, n: usize) -> Result<(), PoolError> {
        self.alloc_with(req, n, false)
    }

    /// Slots (whole pages) that `n` more tokens of `req` take from the free list: none while
    /// its last page has room for them.
    pub fn slots_needed(&self, req: &ReqKv, n: usize) -> usize {
        self.allocator
            .pages_needed(self.slots(req).last().copied(), n)
    }

    fn alloc_with(&mut self, req: &mut ReqKv, n: usize, evict: bool) -> Result<(), PoolError> {
        let max = self.req_to_token.max_context_len();
        if req.kv_len + n > max {
            return Err(PoolError::RowOverflow {
                start: req.kv_len,
                end: req.kv_len + n,
                max_context_len: max,
            });
        }
        let last = self.slots(req).last().copied();
        let need = self.allocator.pages_needed(last, n);
        if evict {
            self.ensure_available(need)?;
        } else if self.allocator.available() < need {
            return Err(PoolError::OutOfSlots {
                requested: need,
                available: self.allocator.available(),
            });
        }
        self.alloc_checked(req, last, n)
    }

    /// Allocates `n` slots after `last` (room already made) and writes them into the row.
    fn alloc_checked(
        &mut self,
        req: &mut ReqKv,
        last: Option<SlotId>,
        n: usize,
    ) -> Result<(), PoolError> {
        let slots = self.allocator.alloc_extend(last, n)?;
        if let Err(slots) = self.req_to_token.assign(&req.row, req.kv_len, slots) {
            self.allocator.free_owned(slots)?;
            return Err(PoolError::Ownership(
                "row write failed after a bounds check".into(),
            ));
        }
        req.kv_len += n;
        Ok(())
    }

    /// Shortens the request's row to `len` tokens (K/V computed for tokens that were then
    /// rejected, e.g. speculative drafts), giving back the pages past it. The page holding
    /// token `len - 1` stays the request's whole: its later slots are reused by the next
    /// tokens, so no page is ever split between owners. `len` may not cut into the
    /// request's cached prefix.
    pub fn truncate_tail(&mut self, req: &mut ReqKv, len: usize) -> Result<(), PoolError> {
        if len >= req.kv_len {
            return Ok(());
        }
        if len < req.cached_len {
            return Err(PoolError::Ownership(format!(
                "truncating to {len} tokens would cut the cached prefix of {}",
                req.cached_len
            )));
        }
        let page = self.allocator.page_size();
        let keep = len.next_multiple_of(page).min(req.kv_len);
        let row = self.req_to_token.row(&req.row);
        if let Some(&first) = row.get(keep..req.kv_len).and_then(<[SlotId]>::first) {
            // Rows hold whole pages from their start; a page boundary elsewhere would free
            // slots the row still uses.
            if !(first as usize).is_multiple_of(page) {
                return Err(PoolError::Ownership(format!(
                    "row position {keep} holds slot {first}, not the start of a page of {page}"
                )));
            }
            self.allocator.free(&row[keep..req.kv_len])?;
        }
        req.kv_len = len;
        Ok(())
    }

    /// Makes at least `slots` free, evicting unlocked tree leaves if needed.
    pub fn ensure_available(&mut self, slots: usize) -> Result<(), PoolError> {
        let short = slots.saturating_sub(self.allocator.available());
        if short > 0 {
            self.evict(short)?;
        }
        if self.allocator.available() < slots {
            return Err(PoolError::OutOfSlots {
                requested: slots,
                available: self.allocator.available(),
            });
        }
        Ok(())
    }

    /// Evicts at least `tokens` tokens from the tree (if it holds that many unlocked).
    pub fn evict(&mut self, tokens: usize) -> Result<usize, PoolError> {
        let allocator = &mut self.allocator;
        let mut result = Ok(());
        // Evicted slots are released at once, even inside a free group: the caller needs them.
        let evicted = self.tree.evict(tokens, |slots| {
            if result.is_ok() {
                result = allocator.free_now(slots);
            }
        });
        result.map(|()| evicted)
    }

    /// Evicts at least `tokens` tokens, only from namespaces `allowed` accepts (tenant-aware
    /// eviction: a tenant's traffic must not take another's cache below its fair share).
    pub fn evict_where(
        &mut self,
        tokens: usize,
        mut allowed: impl FnMut(NsId) -> bool,
    ) -> Result<usize, PoolError> {
        self.evict_where_spilling(tokens, |ns, _| allowed(ns), None)
    }

    /// Like [`KvCache::evict_where`], with each candidate leaf's tokens beside its namespace
    /// (see [`radix::RadixCache::evict_where_observed`]), showing each evicted node to
    /// `observe` first (with its path from the namespace root) while its slots still hold
    /// its K/V: a lower tier copies out what it keeps.
    pub fn evict_where_spilling(
        &mut self,
        tokens: usize,
        allowed: impl FnMut(NsId, usize) -> bool,
        observe: Option<&mut dyn FnMut(&EvictedPath)>,
    ) -> Result<usize, PoolError> {
        let allocator = &mut self.allocator;
        let mut result = Ok(());
        let evicted = self.tree.evict_where_observed(
            tokens,
            allowed,
            |slots| {
                if result.is_ok() {
                    result = allocator.free_now(slots);
                }
            },
            observe,
        );
        result.map(|()| evicted)
    }

    /// Puts K/V loaded from a lower tier back into the tree: `tokens` is a prefix whose
    /// tokens from `from` on have K/V in hand. The tree's current match decides what is
    /// missing; `write(first, slots)` must fill fresh `slots` with the K/V of tokens
    /// `first..tokens.len()` (`first >= from`). Needs that many free slots (the caller makes
    /// room); gives up, returning 0, when they are short or the tree's match ends before
    /// `from`. Returns the tokens restored (they are then cached, unlocked).
    pub fn restore_prefix(
        &mut self,
        ns: NsId,
        tokens: &[TokenId],
        from: usize,
        write: impl FnOnce(usize, &[SlotId]) -> Result<(), PoolError>,
    ) -> Result<usize, PoolError> {
        let end = self.aligned(tokens.len().min(self.req_to_token.max_context_len()));
        self.scratch.clear();
        let found = self.tree.lookup(ns, &tokens[..end], &mut self.scratch)?;
        if found.len < from || found.len >= end {
            return Ok(0);
        }
        let n = end - found.len;
        if self.allocator.available() < n {
            return Ok(0);
        }
        let fresh = self.allocator.alloc(n)?;
        if let Err(e) = write(found.len, fresh.as_slice()) {
            self.allocator.free_owned(fresh)?;
            return Err(e);
        }
        let mut slots = std::mem::take(&mut self.scratch);
        let fresh = fresh.into_vec();
        slots.extend_from_slice(&fresh);
        let present = self.tree.insert(ns, &tokens[..end], &slots);
        self.scratch = slots;
        match present {
            // The tree takes the fresh slots past what it holds (all of them: nothing
            // changed it since the match); duplicates stay ours to free.
            Ok(p) => {
                let dup = p.saturating_sub(found.len).min(n);
                self.allocator.free(&fresh[..dup])?;
                Ok(n - dup)
            }
            Err(e) => {
                self.allocator.free(&fresh)?;
                Err(e.into())
            }
        }
    }

    /// SGLang's `cache_unfinished_req`: after a prefill chunk (or any step), inserts the
    /// request's computed tokens into the tree, frees the request's duplicates of tokens the tree
    /// already had, re-points the row at the tree's slots and moves the lock to the new end.
    /// `tokens` are the request's tokens with K/V, `kv_len` of them.
    pub fn cache_unfinished_req(
        &mut self,
        req: &mut ReqKv,
        tokens: &[TokenId],
    ) -> Result<(), PoolError> {
        self.check_tokens(req, tokens)?;
        let aligned = self.aligned(req.kv_len);
        if aligned <= req.cached_len {
            return Ok(());
        }
        self.insert_computed(req, &tokens[..aligned])?;
        self.scratch.clear();
        let found = self
            .tree
            .lookup(req.ns, &tokens[..aligned], &mut self.scratch)?;
        if found.len != aligned {
            return Err(PoolError::Ownership(format!(
                "re-match found {} of {aligned} just-inserted tokens",
                found.len
            )));
        }
        self.req_to_token
            .write(&req.row, req.cached_len, &self.scratch[req.cached_len..])?;
        let new_lock = self.tree.lock(found.last_node);
        let old_lock = std::mem::replace(&mut req.lock, new_lock);
        self.tree.unlock(old_lock);
        req.cached_len = aligned;
        Ok(())
    }

    /// SGLang's `cache_finished_req`: inserts the computed tokens, frees duplicates and the
    /// unaligned tail, unlocks the prefix and frees the row. `tokens` has `kv_len` entries.
    pub fn cache_finished_req(
        &mut self,
        mut req: ReqKv,
        tokens: &[TokenId],
    ) -> Result<(), PoolError> {
        if let Err(e) = self.check_tokens(&req, tokens) {
            self.release_req(req)?;
            return Err(e);
        }
        let aligned = self.aligned(req.kv_len);
        if aligned > req.cached_len {
            if let Err(e) = self.insert_computed(&req, &tokens[..aligned]) {
                self.release_req(req)?;
                return Err(e);
            }
            req.cached_len = aligned;
        }
        self.release_req(req)
    }

    /// Ends a request without caching (abort): frees what it owns, unlocks, frees the row.
    pub fn release_req(&mut self, req: ReqKv) -> Result<(), PoolError> {
        let ReqKv {
            row,
            lock,
            cached_len,
            kv_len,
            ..
        } = req;
        let freed = self
            .allocator
            .free(&self.req_to_token.row(&row)[cached_len..kv_len]);
        self.tree.unlock(lock);
        self.req_to_token.free(row);
        freed
    }

    /// Inserts `tokens` (aligned, at least `cached_len` long) with the row's slots and frees the
    /// request's duplicates of what the tree already held.
    fn insert_computed(&mut self, req: &ReqKv, tokens: &[TokenId]) -> Result<(), PoolError> {
        let row = self.req_to_token.row(&req.row);
        let present = self.tree.insert(req.ns, tokens, &row[..tokens.len()])?;
        if present < req.cached_len {
            return Err(PoolError::Ownership(format!(
                "locked prefix of {} tokens shrank to {present}",
                req.cached_len
            )));
        }
        self.allocator.free(&row[req.cached_len..present])
    }

    fn check_tokens(&self, req: &ReqKv, tokens: &[TokenId]) -> Result<(), PoolError> {
        if tokens.len() != req.kv_len {
            return Err(PoolError::Ownership(format!(
                "{} tokens given for a request with {} KV slots",
                tokens.len(),
                req.kv_len
            )));
        }
        Ok(())
    }

    /// Starts a scheduler step's free group (frees become available at its end).
    pub fn begin_free_group(&mut self) {
        self.allocator.begin_free_group();
    }

    pub fn end_free_group(&mut self) {
        self.allocator.end_free_group();
    }

    /// Frees every unlocked node of `ns`; returns the tokens freed.
    pub fn flush_namespace(&mut self, ns: NsId) -> Result<usize, PoolError> {
        let allocator = &mut self.allocator;
        let mut result = Ok(());
        let freed = self.tree.flush_namespace(ns, |slots| {
            if result.is_ok() {
                result = allocator.free_now(slots);
            }
        })?;
        result.map(|()| freed)
    }

    /// Frees every unlocked node of every namespace; returns the tokens freed.
    pub fn flush_all(&mut self) -> Result<usize, PoolError> {
        let ids: Vec<NsId> = self.tree.namespace_ids().collect();
        let mut freed = 0;
        for ns in ids {
            freed += self.flush_namespace(ns)?;
        }
        Ok(freed)
    }

    /// The ownership rule, recomputed from scratch: every usable slot is free, in exactly one
    /// tree node, or owned by exactly one of `live` (which must be every live request), and
    /// `free + evictable + protected + owned == capacity`.
    pub fn check_ownership<'a>(
        &self,
        live: impl IntoIterator<Item = &'a ReqKv>,
    ) -> Result<(), PoolError> {
        self.tree.sanity_check()?;
        let page = self.page_size();
        let num_slots = self.allocator.num_slots();
        let mut owner = vec![0u8; num_slots];
        let mut claim = |slot: SlotId, who: &str| -> Result<(), PoolError> {
            let cell = owner.get_mut(slot as usize).ok_or_else(|| {
                PoolError::Ownership(format!("{who} holds slot {slot} out of range"))
            })?;
            if slot < page as SlotId {
                return Err(PoolError::Ownership(format!(
                    "{who} holds reserved slot {slot}"
                )));
            }
            if *cell != 0 {
                return Err(PoolError::Ownership(format!(
                    "slot {slot} owned twice ({who})"
                )));
            }
            *cell = 1;
            Ok(())
        };
        let mut free = 0;
        let mut free_result = Ok(());
        self.allocator.for_each_free_page(|first| {
            free += page;
            for s in first..first + page as SlotId {
                if free_result.is_ok() {
                    free_result = claim(s, "the free list");
                }
            }
        });
        free_result?;
        let mut tree_result = Ok(());
        self.tree.for_each_slot(|s| {
            if tree_result.is_ok() {
                tree_result = claim(s, "the tree");
            }
        });
        tree_result?;
        let mut owned = 0;
        let mut live_count = 0;
        for req in live {
            live_count += 1;
            owned += self.owned_slots(req);
            let row = self.req_to_token.row(&req.row);
            for &s in &row[req.cached_len..req.kv_len] {
                claim(s, "a request")?;
            }
            if req.kv_len > req.cached_len {
                let last = row[req.kv_len - 1];
                let room = page - 1 - (last as usize % page);
                for s in last + 1..=last + room as SlotId {
                    claim(s, "a request's last page")?;
                }
            }
        }
        let rows_in_use =
            self.req_to_token.max_running_requests() - self.req_to_token.available_rows();
        if rows_in_use != live_count {
            return Err(PoolError::Ownership(format!(
                "{rows_in_use} rows in use but {live_count} live requests"
            )));
        }
        let unclaimed = owner[page..].iter().filter(|&&o| o == 0).count();
        if unclaimed != 0 {
            return Err(PoolError::Ownership(format!(
                "{unclaimed} slots have no owner"
            )));
        }
        let total = free + self.tree.evictable_size() + self.tree.protected_size() + owned;
        if total != self.allocator.capacity() {
            return Err(PoolError::Ownership(format!(
                "free {free} + evictable {} + protected {} + owned {owned} != capacity {}",
                self.tree.evictable_size(),
                self.tree.protected_size(),
                self.allocator.capacity()
            )));
        }
        Ok(())
    }

    /// SGLang's idle leak check: no live request, so `free + evictable == capacity`, nothing
    /// protected, every row free.
    pub fn check_idle(&self) -> Result<(), PoolError> {
        self.check_ownership(std::iter::empty())?;
        let held = self.tree.held_namespaces();
        if held != 0 {
            return Err(PoolError::Ownership(format!(
                "{held} namespaces still held by requests at idle"
            )));
        }
        if self.tree.protected_size() != 0 {
            return Err(PoolError::Ownership(format!(
                "{} tokens still protected at idle",
                self.tree.protected_size()
            )));
        }
        Ok(())
    }
}
