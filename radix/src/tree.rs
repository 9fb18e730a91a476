//! The radix tree: match, insert, split, lock, evict and flush.

use crate::blocks::BlockJournal;
use crate::evict::{EvictionPolicy, LeafSet, Lru, NodeMeta};
use crate::lock::NodeLock;
use crate::namespace::{CacheScope, Namespace, NsId};
use crate::node::{common_prefix_len, Node, NodeId};
use crate::spill::EvictedPath;
use crate::{RadixError, SlotId, TokenId};
use rustc_hash::FxHashMap;
use slab::Slab;

/// Outcome of [`RadixCache::match_prefix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Number of leading tokens whose K/V the tree holds (a multiple of the page size).
    pub len: usize,
    /// The node where the match ended; lock it to keep the prefix alive.
    pub last_node: NodeId,
}

/// Tree-wide counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub queried_tokens: u64,
    pub hit_tokens: u64,
    pub inserted_tokens: u64,
    pub evicted_tokens: u64,
}

/// Per-namespace counters; `cached_tokens` is what the namespace holds now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NamespaceStats {
    pub cached_tokens: usize,
    /// Of `cached_tokens`, those no request locks (what eviction could take).
    pub evictable_tokens: usize,
    pub queried_tokens: u64,
    pub hit_tokens: u64,
}

/// Prompt tokens looked up in, and served from, the namespaces of one scope (kept per
/// scope, so the figures outlive the namespaces that are reclaimed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScopeHits {
    pub queried_tokens: u64,
    pub hit_tokens: u64,
}

pub(crate) struct NsEntry {
    pub ns: Namespace,
    pub root: NodeId,
    pub stats: NamespaceStats,
    /// Holders taken by [`RadixCache::acquire_namespace`] and not yet released.
    pub users: u32,
    /// Interned by [`RadixCache::namespace_id`]: never reclaimed.
    pub pinned: bool,
}

/// SGLang-style radix prefix cache over token ids, values are KV slot ids.
pub struct RadixCache {
    pub(crate) nodes: Slab<Node>,
    pub(crate) page_size: usize,
    pub(crate) namespaces: Slab<NsEntry>,
    ns_index: FxHashMap<Namespace, NsId>,
    /// Live salted namespaces per scope (what a per-tenant salt cap counts).
    salted_live: FxHashMap<CacheScope, usize>,
    scope_hits: FxHashMap<CacheScope, ScopeHits>,
    /// Salted namespaces reclaimed since the last [`RadixCache::take_reclaimed`].
    reclaimed: Vec<Namespace>,
    pub(crate) leaves: LeafSet,
    pub(crate) policy: Box<dyn EvictionPolicy>,
    pub(crate) evictable: usize,
    pub(crate) protected: usize,
    clock: u64,
    stats: CacheStats,
    /// Block events, when on ([`RadixCache::enable_block_events`]).
    pub(crate) blocks: Option<BlockJournal>,
}

impl RadixCache {
    /// A tree whose keys are compared and stored in pages of `page_size` tokens.
    pub fn new(page_size: usize) -> Result<Self, RadixError> {
        Self::with_policy(page_size, Box::new(Lru))
    }

    pub fn with_policy(
        page_size: usize,
        policy: Box<dyn EvictionPolicy>,
    ) -> Result<Self, RadixError> {
        if page_size == 0 {
            return Err(RadixError::ZeroPageSize);
        }
        Ok(Self {
            nodes: Slab::new(),
            page_size,
            namespaces: Slab::new(),
            ns_index: FxHashMap::default(),
            salted_live: FxHashMap::default(),
            scope_hits: FxHashMap::default(),
            reclaimed: Vec::new(),
            leaves: LeafSet::default(),
            policy,
            evictable: 0,
            protected: 0,
            clock: 0,
            stats: CacheStats::default(),
            blocks: None,
        })
    }

    pub fn page_size(&self) -> usize {
        self.page_size
    }

    /// Interns `ns`, creating its (empty) root on first use, and pins it: it is never
    /// reclaimed. For namespaces that live as long as the tree (tests, fixed scopes); request
    /// traffic uses [`RadixCache::acquire_namespace`].
    pub fn namespace_id(&mut self, ns: &Namespace) -> NsId {
        let id = self.intern(ns);
        self.namespaces[id.index()].pinned = true;
        id
    }

    /// Interns `ns` for one holder (a request): the namespace lives at least until the
    /// matching [`RadixCache::release_namespace`], and after that while it holds nodes.
    pub fn acquire_namespace(&mut self, ns: &Namespace) -> NsId {
        let id = self.intern(ns);
        self.namespaces[id.index()].users += 1;
        id
    }

    /// Drops one holder of `id`; a namespace left with no holder and no node is reclaimed
    /// (its id may then be reused). Returns whether it was.
    pub fn release_namespace(&mut self, id: NsId) -> bool {
        let Some(entry) = self.namespaces.get_mut(id.index()) else {
            return false;
        };
        debug_assert!(entry.users > 0, "release of an unheld namespace {id:?}");
        entry.users = entry.users.saturating_sub(1);
        self.reclaim_if_unused(id)
    }

    /// The id of `ns` if it is live, without creating it.
    pub fn find_namespace(&self, ns: &Namespace) -> Option<NsId> {
        self.ns_index.get(ns).copied()
    }

    /// Number of live namespaces (pinned, held or holding nodes).
    pub fn namespace_count(&self) -> usize {
        self.namespaces.len()
    }

    /// Namespaces some holder has not released (0 at idle, or a request leaked one).
    pub fn held_namespaces(&self) -> usize {
        self.namespaces.iter().filter(|(_, e)| e.users > 0).count()
    }

    /// Live salted namespaces of `scope`.
    pub fn salted_namespaces(&self, scope: CacheScope) -> usize {
        self.salted_live.get(&scope).copied().unwrap_or(0)
    }

    /// Salted namespaces reclaimed since the last call (for a caller's own bookkeeping).
    pub fn take_reclaimed(&mut self) -> Vec<Namespace> {
        std::mem::take(&mut self.reclaimed)
    }

    /// Lookup and hit counts of every scope seen, reclaimed namespaces included.
    pub fn scope_hits(&self) -> impl Iterator<Item = (CacheScope, ScopeHits)> + '_ {
        self.scope_hits.iter().map(|(scope, hits)| (*scope, *hits))
    }

    fn intern(&mut self, ns: &Namespace) -> NsId {
        if let Some(id) = self.ns_index.get(ns) {
            return *id;
        }
        let entry = self.namespaces.vacant_entry();
        let id = NsId(entry.key() as u32);
        let root = NodeId(self.nodes.insert(Node::root(id)));
        entry.insert(NsEntry {
            ns: ns.clone(),
            root,
            stats: NamespaceStats::default(),
            users: 0,
            pinned: false,
        });
        if ns.salt.is_some() {
            *self.salted_live.entry(ns.scope).or_insert(0) += 1;
        }
        self.ns_index.insert(ns.clone(), id);
        id
    }

    /// Removes namespace `id` if nothing holds it: no holder, no pin, no node.
    fn reclaim_if_unused(&mut self, id: NsId) -> bool {
        let Some(entry) = self.namespaces.get(id.index()) else {
            return false;
        };
        if entry.users > 0 || entry.pinned || !self.nodes[entry.root.0].children.is_empty() {
            return false;
        }
        let entry = self.namespaces.remove(id.index());
        self.nodes.remove(entry.root.0);
        self.ns_index.remove(&entry.ns);
        if entry.ns.salt.is_some() {
            if let Some(n) = self.salted_live.get_mut(&entry.ns.scope) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.salted_live.remove(&entry.ns.scope);
                }
            }
            self.reclaimed.push(entry.ns);
        }
        true
    }

    pub fn namespace(&self, id: NsId) -> Option<&Namespace> {
        self.namespaces.get(id.index()).map(|e| &e.ns)
    }

    pub fn namespace_stats(&self, id: NsId) -> Option<NamespaceStats> {
        self.namespaces.get(id.index()).map(|e| e.stats)
    }

    /// Every live namespace.
    pub fn namespace_ids(&self) -> impl Iterator<Item = NsId> + '_ {
        self.namespaces.iter().map(|(i, _)| NsId(i as u32))
    }

    /// Tokens held by unlocked nodes: what eviction could free right now.
    pub fn evictable_size(&self) -> usize {
        self.evictable
    }

    /// Tokens held by nodes on a locked path.
    pub fn protected_size(&self) -> usize {
        self.protected
    }

    pub fn total_size(&self) -> usize {
        self.evictable + self.protected
    }

    /// Number of nodes, namespace roots excluded.
    pub fn node_count(&self) -> usize {
        self.nodes.len() - self.namespaces.len()
    }

    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    fn root(&self, ns: NsId) -> Result<NodeId, RadixError> {
        self.namespaces
            .get(ns.index())
            .map(|e| e.root)
            .ok_or(RadixError::UnknownNamespace(ns))
    }

    fn aligned(&self, len: usize) -> usize {
        len / self.page_size * self.page_size
    }

    /// Longest cached prefix of `tokens` (page-aligned), appending its slot ids to `slots_out`.
    /// Splits a node when the match ends inside its edge (only ids move, never K/V), and
    /// refreshes the access time of every node on the path.
    pub fn match_prefix(
        &mut self,
        ns: NsId,
        tokens: &[TokenId],
        slots_out: &mut Vec<SlotId>,
    ) -> Result<MatchResult, RadixError> {
        let result = self.walk_and_split(ns, tokens, Some(slots_out), true)?;
        self.count_query(ns, tokens.len(), result.len);
        Ok(result)
    }

    /// Like [`RadixCache::match_prefix`] but leaving no trace in access times or hit
    /// statistics (only a split, which changes no match): for a lookup that may be undone.
    /// [`RadixCache::record_match`] makes it count once it is kept.
    pub fn match_prefix_untracked(
        &mut self,
        ns: NsId,
        tokens: &[TokenId],
        slots_out: &mut Vec<SlotId>,
    ) -> Result<MatchResult, RadixError> {
        self.walk_and_split(ns, tokens, Some(slots_out), false)
    }

    /// Counts a kept [`RadixCache::match_prefix_untracked`] of `queried` tokens that matched
    /// `found`: the hit statistics, and the access times of the path from the root.
    pub fn record_match(&mut self, ns: NsId, queried: usize, found: MatchResult) {
        if self.namespaces.get(ns.index()).is_none() {
            return;
        }
        if found.len > 0 {
            for id in self.path_from_root(found.last_node).into_iter().skip(1) {
                self.touch(id);
            }
        }
        self.count_query(ns, queried, found.len);
    }

    fn count_query(&mut self, ns: NsId, queried: usize, hit: usize) {
        self.stats.queried_tokens += queried as u64;
        self.stats.hit_tokens += hit as u64;
        let entry = &mut self.namespaces[ns.index()];
        entry.stats.queried_tokens += queried as u64;
        entry.stats.hit_tokens += hit as u64;
        let hits = self.scope_hits.entry(entry.ns.scope).or_default();
        hits.queried_tokens += queried as u64;
        hits.hit_tokens += hit as u64;
    }

    /// Like [`RadixCache::match_prefix`] but not counted in the hit statistics: for the
    /// engine's own re-matches (after an insert), which are not queries.
    pub fn lookup(
        &mut self,
        ns: NsId,
        tokens: &[TokenId],
        slots_out: &mut Vec<SlotId>,
    ) -> Result<MatchResult, RadixError> {
        self.walk_and_split(ns, tokens, Some(slots_out), true)
    }

    /// Length of the cached prefix without changing the tree (no split, no access update,
    /// no statistics): what a scheduling policy may peek at.
    pub fn prefix_len(&self, ns: NsId, tokens: &[TokenId]) -> Result<usize, RadixError> {
        self.match_node(ns, tokens).map(|(len, _)| len)
    }

    /// Read-only match: the cached prefix length and the deepest node wholly inside it.
    pub fn match_node(&self, ns: NsId, tokens: &[TokenId]) -> Result<(usize, NodeId), RadixError> {
        let mut unbounded = usize::MAX;
        let matched = self.match_node_within(ns, tokens, &mut unbounded)?;
        Ok(matched.unwrap_or((0, NodeId::NONE)))
    }

    /// [`RadixCache::match_node`] visiting at most `visits` nodes, taken from it: `None`
    /// once they run out. A caller matching many keys bounds its work by this, whatever the
    /// tree's shape (a path of thousands of one-page nodes costs a lookup per node).
    pub fn match_node_within(
        &self,
        ns: NsId,
        tokens: &[TokenId],
        visits: &mut usize,
    ) -> Result<Option<(usize, NodeId)>, RadixError> {
        let mut node = self.root(ns)?;
        let key = &tokens[..self.aligned(tokens.len())];
        let mut pos = 0;
        while pos < key.len() {
            let Some(left) = visits.checked_sub(1) else {
                return Ok(None);
            };
            *visits = left;
            let Some(&child) = self.nodes[node.0]
                .children
                .get(&key[pos..pos + self.page_size])
            else {
                break;
            };
            let edge = &self.nodes[child.0].key;
            let m = self.aligned(common_prefix_len(edge, &key[pos..]));
            pos += m;
            if m < edge.len() {
                break;
            }
            node = child;
        }
        Ok(Some((pos, node)))
    }

    /// The root node of namespace `ns`.
    pub fn root_of(&self, ns: NsId) -> Option<NodeId> {
        self.namespaces.get(ns.index()).map(|e| e.root)
    }

    /// Nodes from the namespace root down to `node`, both included (empty for an unknown id).
    pub fn path_from_root(&self, node: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut cur = Some(node);
        while let Some(id) = cur {
            let Some(n) = self.nodes.get(id.0) else {
                break;
            };
            path.push(id);
            cur = n.parent;
        }
        path.reverse();
        path
    }

    fn walk_and_split(
        &mut self,
        ns: NsId,
        tokens: &[TokenId],
        mut slots_out: Option<&mut Vec<SlotId>>,
        touch: bool,
    ) -> Result<MatchResult, RadixError> {
        let mut node = self.root(ns)?;
        let key = &tokens[..self.aligned(tokens.len())];
        let mut pos = 0;
        while pos < key.len() {
            let Some(&child) = self.nodes[node.0]
                .children
                .get(&key[pos..pos + self.page_size])
            else {
                break;
            };
            if touch {
                self.touch(child);
            }
            let edge_len = self.nodes[child.0].key.len();
            let m = self.aligned(common_prefix_len(&self.nodes[child.0].key, &key[pos..]));
            let reached = if m < edge_len {
                self.split(child, m)
            } else {
                child
            };
            if let Some(out) = slots_out.as_deref_mut() {
                out.extend_from_slice(&self.nodes[reached.0].slots);
            }
            pos += m;
            node = reached;
            if m < edge_len {
                break;
            }
        }
        Ok(MatchResult {
            len: pos,
            last_node: node,
        })
    }

    /// Inserts `tokens` with their `slots`, returning how many leading tokens were already
    /// present. The caller keeps ownership of `slots[..returned]` (duplicates it must free);
    /// the tree takes ownership of the rest.
    pub fn insert(
        &mut self,
        ns: NsId,
        tokens: &[TokenId],
        slots: &[SlotId],
    ) -> Result<usize, RadixError> {
        if tokens.len() != slots.len() {
            return Err(RadixError::LengthMismatch {
                keys: tokens.len(),
                slots: slots.len(),
            });
        }
        if !tokens.len().is_multiple_of(self.page_size) {
            return Err(RadixError::Unaligned {
                len: tokens.len(),
                page_size: self.page_size,
            });
        }
        let found = self.walk_and_split(ns, tokens, None, true)?;
        let present = found.len;
        if present < tokens.len() {
            self.add_leaf(
                found.last_node,
                tokens[present..].to_vec(),
                slots[present..].to_vec(),
            );
            self.stats.inserted_tokens += (tokens.len() - present) as u64;
        }
        Ok(present)
    }

    fn add_leaf(&mut self, parent: NodeId, key: Vec<TokenId>, slots: Vec<SlotId>) {
        self.leaf_set_remove(parent);
        let ns = self.nodes[parent.0].ns;
        let len = key.len();
        let first_page: Box<[TokenId]> = key[..self.page_size].into();
        let now = self.tick();
        let leaf = NodeId(
            self.nodes
                .insert(Node::new(Some(parent), ns, key, slots, now)),
        );
        self.nodes[parent.0].children.insert(first_page, leaf);
        self.evictable += len;
        let stats = &mut self.namespaces[ns.index()].stats;
        stats.cached_tokens += len;
        stats.evictable_tokens += len;
        self.leaf_set_refresh(leaf);
        self.journal_stored(leaf);
    }

    /// Splits `child` after `at` tokens; returns the new node holding the first part.
    fn split(&mut self, child: NodeId, at: usize) -> NodeId {
        let old = &mut self.nodes[child.0];
        let tail_key = old.key.split_off(at);
        let tail_slots = old.slots.split_off(at);
        let head_key = std::mem::replace(&mut old.key, tail_key);
        let head_slots = std::mem::replace(&mut old.slots, tail_slots);
        let tail_first: Box<[TokenId]> = old.key[..self.page_size].into();
        let (parent, ns, lock_ref, last_access, hits) =
            (old.parent, old.ns, old.lock_ref, old.last_access, old.hits);
        let head_first: Box<[TokenId]> = head_key[..self.page_size].into();
        let mut head = Node::new(parent, ns, head_key, head_slots, last_access);
        head.lock_ref = lock_ref;
        head.hits = hits;
        head.children.insert(tail_first, child);
        let head_id = NodeId(self.nodes.insert(head));
        self.nodes[child.0].parent = Some(head_id);
        if let Some(p) = parent {
            self.nodes[p.0].children.insert(head_first, head_id);
        }
        head_id
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn touch(&mut self, id: NodeId) {
        let now = self.tick();
        let node = &mut self.nodes[id.0];
        node.last_access = now;
        node.hits += 1;
        if node.leaf_key.is_some() {
            self.leaf_set_remove(id);
            self.leaf_set_refresh(id);
        }
    }

    pub(crate) fn meta(node: &Node) -> NodeMeta {
        NodeMeta {
            last_access: node.last_access,
            hits: node.hits,
            len: node.key.len(),
        }
    }

    fn leaf_set_remove(&mut self, id: NodeId) {
        if let Some(key) = self.nodes[id.0].leaf_key.take() {
            self.leaves.remove(key, id);
        }
    }

    /// Puts `id` into the eviction set if it belongs there (idempotent).
    fn leaf_set_refresh(&mut self, id: NodeId) {
        let node = &self.nodes[id.0];
        if node.leaf_key.is_none() && node.is_evictable_leaf() {
            let key = self.policy.priority(&Self::meta(node));
            self.leaves.insert(key, id);
            self.nodes[id.0].leaf_key = Some(key);
        }
    }

    /// Locks the path from `node` to its root: eviction will not touch it.
    pub fn lock(&mut self, node: NodeId) -> NodeLock {
        let mut cur = node;
        while let Some(parent) = self.nodes[cur.0].parent {
            if self.nodes[cur.0].lock_ref == 0 {
                let len = self.nodes[cur.0].key.len();
                self.evictable -= len;
                self.protected += len;
                self.namespaces[self.nodes[cur.0].ns.index()]
                    .stats
                    .evictable_tokens -= len;
                self.leaf_set_remove(cur);
            }
            self.nodes[cur.0].lock_ref += 1;
            cur = parent;
        }
        NodeLock::new(node)
    }

    /// Releases a lock taken by [`RadixCache::lock`].
    pub fn unlock(&mut self, lock: NodeLock) {
        let mut cur = lock.disarm();
        while let Some(parent) = self.nodes[cur.0].parent {
            let node = &mut self.nodes[cur.0];
            debug_assert!(node.lock_ref > 0, "unlock of an unlocked node {cur:?}");
            node.lock_ref = node.lock_ref.saturating_sub(1);
            if node.lock_ref == 0 {
                let len = node.key.len();
                let ns = node.ns;
                self.protected -= len;
                self.evictable += len;
                self.namespaces[ns.index()].stats.evictable_tokens += len;
                self.leaf_set_refresh(cur);
            }
            cur = parent;
        }
    }

    /// Evicts unlocked leaves in policy order (cascading to parents that become unlocked
    /// leaves) until at least `tokens` tokens are freed or nothing evictable is left.
    /// Each evicted node's slot ids are passed to `free`. Returns the tokens evicted.
    pub fn evict(&mut self, tokens: usize, mut free: impl FnMut(&[SlotId])) -> usize {
        let mut evicted = 0;
        while evicted < tokens {
            let Some(id) = self.leaves.pop_first() else {
                break;
            };
            self.nodes[id.0].leaf_key = None;
            evicted += self.remove_leaf(id, &mut free);
        }
        evicted
    }

    /// Like [`RadixCache::evict`], but only leaves of namespaces `allowed` accepts are
    /// taken (in policy order among them): lets a caller keep some namespaces' caches, e.g.
    /// those of tenants within their fair share. Returns the tokens evicted.
    pub fn evict_where(
        &mut self,
        tokens: usize,
        mut allowed: impl FnMut(NsId) -> bool,
        free: impl FnMut(&[SlotId]),
    ) -> usize {
        self.evict_where_observed(tokens, |ns, _| allowed(ns), free, None)
    }

    /// Like [`RadixCache::evict_where`], asking `allowed` about each candidate leaf with its
    /// namespace and its tokens (a leaf it accepts is evicted at once, so it can keep a
    /// budget per namespace), and showing each node to `observe` (with its whole path)
    /// before its slots go to `free`: a lower tier copies out the K/V it wants to keep.
    /// Without an observer no path is built. `allowed` must not accept, later in the same
    /// call, a leaf it refused (budgets only shrink): the scan goes on from the last leaf
    /// evicted instead of the front, so a namespace of many leaves that may not go costs one
    /// scan, not one per leaf evicted. (Under LRU and LFU a parent that becomes a leaf ranks
    /// after its child; a policy ranking it before makes the scan go back to it.)
    pub fn evict_where_observed(
        &mut self,
        tokens: usize,
        mut allowed: impl FnMut(NsId, usize) -> bool,
        mut free: impl FnMut(&[SlotId]),
        mut observe: Option<&mut dyn FnMut(&EvictedPath)>,
    ) -> usize {
        let mut evicted = 0;
        // Where the scan goes on: what lies before it was refused.
        let mut from = ((0, 0), NodeId(0));
        while evicted < tokens {
            let nodes = &self.nodes;
            let Some((key, id)) = self.leaves.iter_from(from.0, from.1).find(|&(_, id)| {
                let node = &nodes[id.0];
                allowed(node.ns, node.key.len())
            }) else {
                break;
            };
            let parent = self.nodes[id.0].parent;
            self.leaf_set_remove(id);
            if let Some(observe) = observe.as_deref_mut() {
                self.observe_eviction(id, observe);
            }
            evicted += self.remove_leaf(id, &mut free);
            from = (key, id);
            // A parent that became a leaf may rank anywhere (a custom policy): the scan
            // goes back to it if it ranks first.
            let parent_key = parent.and_then(|p| Some((self.nodes.get(p.0)?.leaf_key?, p)));
            if let Some((k, p)) = parent_key {
                if (k, p.0) < (from.0, from.1 .0) {
                    from = (k, p);
                }
            }
        }
        evicted
    }

    /// Evictable tokens summed over the namespaces `include` accepts.
    pub fn evictable_where(&self, mut include: impl FnMut(NsId) -> bool) -> usize {
        self.namespace_ids()
            .filter(|&ns| include(ns))
            .filter_map(|ns| self.namespace_stats(ns))
            .map(|s| s.evictable_tokens)
            .sum()
    }

    /// Removes an unlocked leaf, hands its slots to `free`, and lets its parent become a
    /// leaf candidate. The node must already be out of the eviction set.
    fn remove_leaf(&mut self, id: NodeId, free: &mut impl FnMut(&[SlotId])) -> usize {
        self.journal_removed(id);
        let node = self.nodes.remove(id.0);
        free(&node.slots);
        let len = node.key.len();
        self.evictable -= len;
        self.stats.evicted_tokens += len as u64;
        let stats = &mut self.namespaces[node.ns.index()].stats;
        stats.cached_tokens -= len;
        stats.evictable_tokens -= len;
        if let Some(parent) = node.parent {
            self.nodes[parent.0]
                .children
                .remove(&node.key[..self.page_size]);
            if self.nodes[parent.0].is_root() {
                self.reclaim_if_unused(node.ns);
            } else {
                self.leaf_set_refresh(parent);
            }
        }
        len
    }

    /// Removes every unlocked node of namespace `ns` (locked paths stay). Returns the tokens
    /// freed through `free`.
    pub fn flush_namespace(
        &mut self,
        ns: NsId,
        mut free: impl FnMut(&[SlotId]),
    ) -> Result<usize, RadixError> {
        let root = self.root(ns)?;
        // Locks cover whole paths, so an unlocked node has only unlocked descendants.
        let mut to_visit = vec![root];
        let mut unlocked_tops = Vec::new();
        while let Some(id) = to_visit.pop() {
            for &child in self.nodes[id.0].children.values() {
                if self.nodes[child.0].lock_ref == 0 {
                    unlocked_tops.push(child);
                } else {
                    to_visit.push(child);
                }
            }
        }
        let mut freed = 0;
        for top in unlocked_tops {
            freed += self.remove_subtree(top, &mut free);
        }
        Ok(freed)
    }

    /// Removes every unlocked node of every namespace.
    pub fn flush_all(&mut self, mut free: impl FnMut(&[SlotId])) -> usize {
        let ids: Vec<NsId> = self.namespace_ids().collect();
        ids.into_iter()
            .map(|ns| self.flush_namespace(ns, &mut free).unwrap_or(0))
            .sum()
    }

    fn remove_subtree(&mut self, top: NodeId, free: &mut impl FnMut(&[SlotId])) -> usize {
        // Post-order: collect the subtree, then remove leaves first.
        let mut order = vec![top];
        let mut i = 0;
        while i < order.len() {
            order.extend(self.nodes[order[i].0].children.values().copied());
            i += 1;
        }
        let mut freed = 0;
        for id in order.into_iter().rev() {
            self.leaf_set_remove(id);
            freed += self.remove_leaf(id, free);
        }
        freed
    }

    /// Calls `f` with every slot id the tree owns.
    pub fn for_each_slot(&self, mut f: impl FnMut(SlotId)) {
        for (_, node) in self.nodes.iter() {
            node.slots.iter().for_each(|&s| f(s));
        }
    }

    /// Number of leaves eviction could pick right now.
    pub fn evictable_leaf_count(&self) -> usize {
        self.leaves.len()
    }
}
