//! Model-based property test of the KV cache: random sequences of admit / prefill / decode /
//! cache_unfinished / finish / abort / evict / match / flush / free groups, over several page
//! sizes and tiny pools. After every step:
//! - the ownership rule holds (every slot free, in one tree node, or owned by one request;
//!   `free + evictable + protected + owned == capacity`) and the tree's counters are sane;
//! - every live request's row points at slots whose (shadow) K/V content is exactly that of its
//!   own tokens in its own namespace: cached prefixes are right, never another namespace's.
//!
//! Spill and restore stand for a lower K/V tier: eviction shows each node's path, whose K/V
//! is copied out (and must be right at that moment); a restore writes it back into fresh
//! slots after the tree's current match, and every slot the tree then hands out must hold
//! exactly its own prefix's K/V again.
//!
//! After all requests end, `free + evictable == capacity` (the idle leak check).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pools::{KvCache, KvCacheConfig, PoolError, ReqKv};
use proptest::prelude::*;
use radix::{CacheScope, Namespace, NsId};
use std::collections::HashMap;

#[derive(Clone, Debug)]
enum Op {
    /// A new request: a shared base prefix (to get hits and splits) plus a random tail.
    Admit {
        ns: u8,
        base: u8,
        base_len: u8,
        tail: Vec<u8>,
    },
    Decode {
        req: u8,
        token: u8,
    },
    /// A speculative step: K/V for a draft, then all but the first `keep` of it given back.
    Speculate {
        req: u8,
        draft: Vec<u8>,
        keep: u8,
    },
    CacheUnfinished {
        req: u8,
    },
    Finish {
        req: u8,
    },
    Abort {
        req: u8,
    },
    Evict {
        tokens: u8,
    },
    /// Tenant-aware eviction: only from the namespaces in the bit mask.
    EvictWhere {
        tokens: u8,
        mask: u8,
    },
    Match {
        ns: u8,
        base: u8,
        len: u8,
    },
    Flush {
        ns: u8,
    },
    ToggleFreeGroup,
    /// Eviction that copies out every evicted node's K/V into the lower tier.
    EvictSpilling {
        tokens: u8,
    },
    /// Loads what the lower tier holds after a prefix's cached part back into the tree.
    Restore {
        ns: u8,
        base: u8,
        len: u8,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3u8, 0..3u8, 0..40u8, proptest::collection::vec(0..3u8, 1..12))
            .prop_map(|(ns, base, base_len, tail)| Op::Admit { ns, base, base_len, tail }),
        6 => (any::<u8>(), 0..3u8).prop_map(|(req, token)| Op::Decode { req, token }),
        2 => (any::<u8>(), proptest::collection::vec(0..3u8, 1..6), any::<u8>())
            .prop_map(|(req, draft, keep)| Op::Speculate { req, draft, keep }),
        2 => any::<u8>().prop_map(|req| Op::CacheUnfinished { req }),
        2 => any::<u8>().prop_map(|req| Op::Finish { req }),
        1 => any::<u8>().prop_map(|req| Op::Abort { req }),
        1 => (0..40u8).prop_map(|tokens| Op::Evict { tokens }),
        1 => (0..40u8, 0..8u8).prop_map(|(tokens, mask)| Op::EvictWhere { tokens, mask }),
        1 => (0..3u8, 0..3u8, 0..48u8).prop_map(|(ns, base, len)| Op::Match { ns, base, len }),
        1 => (0..3u8).prop_map(|ns| Op::Flush { ns }),
        1 => Just(Op::ToggleFreeGroup),
        1 => (0..40u8).prop_map(|tokens| Op::EvictSpilling { tokens }),
        2 => (0..3u8, 0..3u8, 0..48u8).prop_map(|(ns, base, len)| Op::Restore { ns, base, len }),
    ]
}

/// Base prefixes over a 3-letter alphabet, so random tails often collide with them.
fn base(b: u8) -> Vec<u32> {
    (0..48u32).map(|i| (i * (b as u32 + 1) / 3) % 3).collect()
}

/// Content "hash" of the K/V a slot must hold: namespace + the whole token prefix.
fn content_of(ns: NsId, prefix: &[u32]) -> u64 {
    prefix
        .iter()
        .fold(0x9e37_79b9_7f4a_7c15 ^ ns.index() as u64, |h, &t| {
            (h ^ (t as u64 + 1))
                .wrapping_mul(0x0100_0000_01b3)
                .rotate_left(17)
        })
}

struct Live {
    kv: ReqKv,
    tokens: Vec<u32>,
}

struct Model {
    cache: KvCache,
    namespaces: Vec<NsId>,
    live: Vec<Live>,
    /// What each slot's K/V "contains": written when a request computes a token.
    content: Vec<u64>,
    in_group: bool,
    /// The lower tier: K/V of (namespace, prefix ending at the token) copied out at eviction.
    spilled: HashMap<(NsId, Vec<u32>), u64>,
}

impl Model {
    fn new(page: usize, pages: usize) -> Self {
        let mut cache = KvCache::new(KvCacheConfig {
            max_running_requests: 4,
            max_context_len: 96,
            num_slots: page * pages,
            page_size: page,
        })
        .unwrap();
        let namespaces = [
            Namespace::global(),
            Namespace::scoped(CacheScope::Tenant(1)),
            Namespace::scoped(CacheScope::Tenant(1)).with_salt("s"),
        ]
        .iter()
        .map(|ns| cache.namespace_id(ns))
        .collect();
        Self {
            cache,
            namespaces,
            live: Vec::new(),
            content: vec![0; page * pages],
            in_group: false,
            spilled: HashMap::new(),
        }
    }

    /// Allocates slots for `new` more tokens of request `i` and "computes" their K/V.
    fn compute(&mut self, i: usize, new: usize) -> Result<(), PoolError> {
        let req = &mut self.live[i];
        self.cache.alloc_tokens(&mut req.kv, new)?;
        let slots = self.cache.slots(&req.kv);
        let ns = req.kv.namespace();
        for pos in slots.len() - new..slots.len() {
            self.content[slots[pos] as usize] = content_of(ns, &req.tokens[..=pos]);
        }
        Ok(())
    }

    fn pick(&self, r: u8) -> Option<usize> {
        (!self.live.is_empty()).then(|| r as usize % self.live.len())
    }

    fn apply(&mut self, op: &Op) {
        match op {
            Op::Admit {
                ns,
                base: b,
                base_len,
                tail,
            } => {
                if self.cache.req_to_token().available_rows() == 0 {
                    return;
                }
                let ns = self.namespaces[*ns as usize];
                let mut tokens = base(*b)[..*base_len as usize].to_vec();
                tokens.extend(tail.iter().map(|&t| t as u32));
                // At most len - 1 tokens come from the cache: one is computed for logits.
                let kv = self.cache.admit(ns, &tokens[..tokens.len() - 1]).unwrap();
                assert!(kv.cached_len() < tokens.len());
                let cached = kv.cached_len();
                self.live.push(Live {
                    kv,
                    tokens: tokens[..cached].to_vec(),
                });
                let i = self.live.len() - 1;
                self.live[i].tokens = tokens.clone();
                match self.compute(i, tokens.len() - cached) {
                    Ok(()) => {}
                    Err(PoolError::OutOfSlots { .. }) => {
                        let live = self.live.pop().unwrap();
                        self.cache.release_req(live.kv).unwrap();
                    }
                    Err(e) => panic!("prefill: {e}"),
                }
            }
            Op::Decode { req, token } => {
                let Some(i) = self.pick(*req) else { return };
                if self.live[i].tokens.len() >= 90 {
                    return;
                }
                self.live[i].tokens.push(*token as u32);
                match self.compute(i, 1) {
                    Ok(()) => {}
                    Err(PoolError::OutOfSlots { .. }) => {
                        // Retract: keep the computed part in the tree, as the scheduler does.
                        let mut live = self.live.swap_remove(i);
                        live.tokens.pop();
                        self.cache
                            .cache_finished_req(live.kv, &live.tokens)
                            .unwrap();
                    }
                    Err(e) => panic!("decode: {e}"),
                }
            }
            Op::Speculate { req, draft, keep } => {
                let Some(i) = self.pick(*req) else { return };
                let before = self.live[i].tokens.len();
                if before + draft.len() > 90 {
                    return;
                }
                self.live[i].tokens.extend(draft.iter().map(|&t| t as u32));
                match self.compute(i, draft.len()) {
                    Ok(()) => {}
                    // No room for the draft: nothing was allocated.
                    Err(PoolError::OutOfSlots { .. }) => {
                        self.live[i].tokens.truncate(before);
                        return;
                    }
                    Err(e) => panic!("speculate: {e}"),
                }
                let len = before + *keep as usize % (draft.len() + 1);
                let live = &mut self.live[i];
                self.cache.truncate_tail(&mut live.kv, len).unwrap();
                live.tokens.truncate(len);
                assert_eq!(live.kv.kv_len(), len);
            }
            Op::CacheUnfinished { req } => {
                let Some(i) = self.pick(*req) else { return };
                let live = &mut self.live[i];
                self.cache
                    .cache_unfinished_req(&mut live.kv, &live.tokens)
                    .unwrap();
                assert_eq!(live.kv.cached_len() % self.cache.page_size(), 0);
                assert!(live.tokens.len() - live.kv.cached_len() < self.cache.page_size());
            }
            Op::Finish { req } => {
                let Some(i) = self.pick(*req) else { return };
                let live = self.live.swap_remove(i);
                self.cache
                    .cache_finished_req(live.kv, &live.tokens)
                    .unwrap();
            }
            Op::Abort { req } => {
                let Some(i) = self.pick(*req) else { return };
                let live = self.live.swap_remove(i);
                self.cache.release_req(live.kv).unwrap();
            }
            Op::Evict { tokens } => {
                let before = self.cache.tree().evictable_size();
                let evicted = self.cache.evict(*tokens as usize).unwrap();
                assert!(evicted >= (*tokens as usize).min(before));
                assert_eq!(self.cache.tree().evictable_size(), before - evicted);
            }
            Op::EvictWhere { tokens, mask } => {
                let tree = self.cache.tree();
                let chosen: Vec<_> = (0..self.namespaces.len())
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| self.namespaces[i])
                    .collect();
                let allowed = |ns| chosen.contains(&ns);
                let others = |t: &radix::RadixCache| {
                    self.namespaces
                        .iter()
                        .filter(|ns| !chosen.contains(ns))
                        .map(|&ns| t.namespace_stats(ns).unwrap().cached_tokens)
                        .collect::<Vec<_>>()
                };
                let before = tree.evictable_where(allowed);
                let others_before = others(tree);
                let evicted = self.cache.evict_where(*tokens as usize, allowed).unwrap();
                assert!(evicted >= (*tokens as usize).min(before));
                let tree = self.cache.tree();
                assert_eq!(tree.evictable_where(allowed), before - evicted);
                assert_eq!(others(tree), others_before, "other namespaces untouched");
            }
            Op::Match { ns, base: b, len } => {
                let ns = self.namespaces[*ns as usize];
                let key = &base(*b)[..*len as usize];
                let peek = self.cache.tree().prefix_len(ns, key).unwrap();
                let kv = self.cache.admit(ns, key);
                if let Ok(kv) = kv {
                    assert_eq!(kv.cached_len(), peek);
                    let slots = self.cache.slots(&kv);
                    for (pos, &s) in slots.iter().enumerate() {
                        assert_eq!(self.content[s as usize], content_of(ns, &key[..=pos]));
                    }
                    self.cache.release_req(kv).unwrap();
                }
            }
            Op::Flush { ns } => {
                self.cache
                    .flush_namespace(self.namespaces[*ns as usize])
                    .unwrap();
            }
            Op::EvictSpilling { tokens } => {
                let ids: Vec<(NsId, Namespace)> = self
                    .namespaces
                    .iter()
                    .map(|&id| (id, self.cache.tree().namespace(id).unwrap().clone()))
                    .collect();
                let (content, spilled) = (&self.content, &mut self.spilled);
                let mut observe = |ev: &pools::EvictedPath| {
                    let ns = ids.iter().find(|(_, n)| n == ev.namespace).unwrap().0;
                    assert_eq!(ev.tokens.len(), ev.slots.len());
                    for pos in ev.node_start..ev.tokens.len() {
                        let kv = content[ev.slots[pos] as usize];
                        assert_eq!(
                            kv,
                            content_of(ns, &ev.tokens[..=pos]),
                            "spilled K/V is right"
                        );
                        spilled.insert((ns, ev.tokens[..=pos].to_vec()), kv);
                    }
                };
                let before = self.cache.tree().evictable_size();
                let evicted = self
                    .cache
                    .evict_where_spilling(*tokens as usize, |_, _| true, Some(&mut observe))
                    .unwrap();
                assert!(evicted >= (*tokens as usize).min(before));
            }
            Op::Restore { ns, base: b, len } => {
                let ns = self.namespaces[*ns as usize];
                let key = base(*b)[..*len as usize].to_vec();
                let page = self.cache.page_size();
                let from = self.cache.tree().prefix_len(ns, &key).unwrap();
                let mut end = from;
                while end < key.len() && self.spilled.contains_key(&(ns, key[..=end].to_vec())) {
                    end += 1;
                }
                let end = end / page * page;
                if end <= from {
                    return;
                }
                let (content, spilled) = (&mut self.content, &self.spilled);
                let restored = self
                    .cache
                    .restore_prefix(ns, &key[..end], from, |first, slots| {
                        assert_eq!(first, from, "nothing changed the tree in between");
                        for (i, &slot) in slots.iter().enumerate() {
                            content[slot as usize] = spilled[&(ns, key[..=first + i].to_vec())];
                        }
                        Ok(())
                    })
                    .unwrap();
                let free_before = self.cache.allocator().available();
                if restored > 0 {
                    assert_eq!(restored, end - from);
                    assert_eq!(self.cache.tree().prefix_len(ns, &key).unwrap(), end);
                    // Read back through a request row (when one is free).
                    if let Ok(kv) = self.cache.admit(ns, &key[..end]) {
                        for (pos, &s) in self.cache.slots(&kv).iter().enumerate() {
                            assert_eq!(self.content[s as usize], content_of(ns, &key[..=pos]));
                        }
                        self.cache.release_req(kv).unwrap();
                    }
                } else {
                    assert!(
                        free_before < end - from,
                        "gave up only for want of free slots"
                    );
                }
            }
            Op::ToggleFreeGroup => {
                if self.in_group {
                    self.cache.end_free_group();
                } else {
                    self.cache.begin_free_group();
                }
                self.in_group = !self.in_group;
            }
        }
    }

    fn check(&self) {
        self.cache
            .check_ownership(self.live.iter().map(|l| &l.kv))
            .unwrap();
        for live in &self.live {
            let slots = self.cache.slots(&live.kv);
            assert_eq!(slots.len(), live.tokens.len());
            let ns = live.kv.namespace();
            for (pos, &s) in slots.iter().enumerate() {
                assert_eq!(
                    self.content[s as usize],
                    content_of(ns, &live.tokens[..=pos]),
                    "request row points at a slot with the wrong K/V at position {pos}"
                );
            }
        }
    }

    fn finish_all(mut self) {
        while let Some(live) = self.live.pop() {
            self.cache
                .cache_finished_req(live.kv, &live.tokens)
                .unwrap();
        }
        if self.in_group {
            self.cache.end_free_group();
        }
        self.cache.check_idle().unwrap();
        let a = self.cache.allocator();
        assert_eq!(
            a.available() + self.cache.tree().evictable_size(),
            a.capacity()
        );
        self.cache.flush_all().unwrap();
        assert_eq!(
            self.cache.allocator().available(),
            self.cache.allocator().capacity()
        );
    }
}

fn run(page: usize, pages: usize, ops: &[Op]) {
    let mut model = Model::new(page, pages);
    model.check();
    for op in ops {
        model.apply(op);
        model.check();
    }
    model.finish_all();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn ownership_holds_page_1(pages in 12usize..200, ops in proptest::collection::vec(op(), 1..80)) {
        run(1, pages, &ops);
    }

    #[test]
    fn ownership_holds_page_2(pages in 8usize..100, ops in proptest::collection::vec(op(), 1..80)) {
        run(2, pages, &ops);
    }

    #[test]
    fn ownership_holds_page_4(pages in 6usize..50, ops in proptest::collection::vec(op(), 1..80)) {
        run(4, pages, &ops);
    }

    #[test]
    fn ownership_holds_page_16(pages in 4usize..16, ops in proptest::collection::vec(op(), 1..80)) {
        run(16, pages, &ops);
    }
}
