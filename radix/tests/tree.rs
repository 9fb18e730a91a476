//! Unit tests of the radix tree, including SGLang's known cases.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use radix::{CacheScope, Lfu, Namespace, NsId, RadixCache, RadixError, SlotId};

fn tree(page: usize) -> (RadixCache, NsId) {
    let mut t = RadixCache::new(page).unwrap();
    let ns = t.namespace_id(&Namespace::global());
    (t, ns)
}

/// Slots distinct from the tokens so a mix-up shows.
fn slots_for(tokens: &[u32], base: SlotId) -> Vec<SlotId> {
    (0..tokens.len() as SlotId).map(|i| base + i).collect()
}

fn matched(t: &mut RadixCache, ns: NsId, tokens: &[u32]) -> (usize, Vec<SlotId>) {
    let mut out = Vec::new();
    let m = t.match_prefix(ns, tokens, &mut out).unwrap();
    assert_eq!(m.len, out.len());
    (m.len, out)
}

#[test]
fn empty_tree_matches_nothing() {
    let (mut t, ns) = tree(1);
    assert_eq!(matched(&mut t, ns, &[1, 2, 3]), (0, vec![]));
    t.sanity_check().unwrap();
}

#[test]
fn insert_then_match_returns_the_inserted_slots() {
    let (mut t, ns) = tree(1);
    let key = [1, 2, 3, 4, 5];
    assert_eq!(t.insert(ns, &key, &slots_for(&key, 100)).unwrap(), 0);
    assert_eq!(
        matched(&mut t, ns, &key),
        (5, vec![100, 101, 102, 103, 104])
    );
    assert_eq!(matched(&mut t, ns, &[1, 2, 3, 9]), (3, vec![100, 101, 102]));
    assert_eq!(matched(&mut t, ns, &[1, 2, 3, 4, 5, 6, 7]).0, 5);
    assert_eq!(t.total_size(), 5);
    t.sanity_check().unwrap();
}

#[test]
fn partial_match_splits_the_node_without_changing_slots() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3, 4, 5], &[10, 11, 12, 13, 14])
        .unwrap();
    assert_eq!(t.node_count(), 1);
    // SGLang's case: a match ending inside an edge splits it.
    assert_eq!(matched(&mut t, ns, &[1, 2, 3, 7]), (3, vec![10, 11, 12]));
    assert_eq!(t.node_count(), 2);
    assert_eq!(t.total_size(), 5, "a split moves ids, it adds no tokens");
    assert_eq!(
        matched(&mut t, ns, &[1, 2, 3, 4, 5]),
        (5, vec![10, 11, 12, 13, 14])
    );
    t.sanity_check().unwrap();
}

#[test]
fn insert_of_an_overlapping_key_reports_what_was_present() {
    let (mut t, ns) = tree(1);
    assert_eq!(t.insert(ns, &[1, 2, 3], &[10, 11, 12]).unwrap(), 0);
    // Overlap: first three present, caller keeps (and must free) its duplicates 20..22.
    assert_eq!(
        t.insert(ns, &[1, 2, 3, 4, 5], &[20, 21, 22, 23, 24])
            .unwrap(),
        3
    );
    assert_eq!(
        matched(&mut t, ns, &[1, 2, 3, 4, 5]).1,
        vec![10, 11, 12, 23, 24]
    );
    // Diverging in the middle of an edge: split, then a sibling.
    assert_eq!(t.insert(ns, &[1, 2, 9, 9], &[30, 31, 32, 33]).unwrap(), 2);
    assert_eq!(matched(&mut t, ns, &[1, 2, 9, 9]).1, vec![10, 11, 32, 33]);
    assert_eq!(t.insert(ns, &[1, 2, 3], &[40, 41, 42]).unwrap(), 3);
    assert_eq!(t.total_size(), 7);
    t.sanity_check().unwrap();
}

#[test]
fn insert_rejects_bad_arguments() {
    let (mut t, ns) = tree(2);
    assert_eq!(
        t.insert(ns, &[1, 2], &[1]).unwrap_err(),
        RadixError::LengthMismatch { keys: 2, slots: 1 }
    );
    assert_eq!(
        t.insert(ns, &[1, 2, 3], &[1, 2, 3]).unwrap_err(),
        RadixError::Unaligned {
            len: 3,
            page_size: 2
        }
    );
    assert!(RadixCache::new(0).is_err());
    let mut other = RadixCache::new(1).unwrap();
    other.namespace_id(&Namespace::global());
    other.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)));
    let foreign = other.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)));
    assert!(matches!(
        t.insert(foreign, &[1, 2], &[1, 2]),
        Err(RadixError::UnknownNamespace(_))
    ));
}

#[test]
fn lock_and_unlock_move_tokens_between_evictable_and_protected() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3, 4], &[10, 11, 12, 13]).unwrap();
    t.insert(ns, &[1, 2, 7, 8, 9], &[10, 11, 22, 23, 24])
        .unwrap();
    assert_eq!((t.evictable_size(), t.protected_size()), (7, 0));
    let mut out = Vec::new();
    let m = t.match_prefix(ns, &[1, 2, 3, 4], &mut out).unwrap();
    let lock = t.lock(m.last_node);
    // Path [1,2] + [3,4] is protected; [7,8,9] stays evictable.
    assert_eq!((t.evictable_size(), t.protected_size()), (3, 4));
    let m2 = t.match_prefix(ns, &[1, 2], &mut out).unwrap();
    let lock2 = t.lock(m2.last_node);
    assert_eq!(
        (t.evictable_size(), t.protected_size()),
        (3, 4),
        "shared path counted once"
    );
    t.unlock(lock);
    assert_eq!((t.evictable_size(), t.protected_size()), (5, 2));
    t.unlock(lock2);
    assert_eq!((t.evictable_size(), t.protected_size()), (7, 0));
    t.sanity_check().unwrap();
}

#[test]
fn eviction_never_touches_a_locked_path() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3], &[1, 2, 3]).unwrap();
    t.insert(ns, &[1, 2, 4], &[1, 2, 4]).unwrap();
    t.insert(ns, &[5, 6], &[5, 6]).unwrap();
    let mut out = Vec::new();
    let m = t.match_prefix(ns, &[1, 2, 3], &mut out).unwrap();
    let lock = t.lock(m.last_node);
    let mut freed = Vec::new();
    let n = t.evict(100, |s| freed.extend_from_slice(s));
    freed.sort();
    assert_eq!(freed, vec![4, 5, 6]);
    assert_eq!(n, 3);
    assert_eq!(
        matched(&mut t, ns, &[1, 2, 3]).0,
        3,
        "locked prefix survives"
    );
    t.unlock(lock);
    assert_eq!(t.evict(100, |s| freed.extend_from_slice(s)), 3);
    assert_eq!(t.total_size(), 0);
    t.sanity_check().unwrap();
}

#[test]
fn eviction_follows_lru_over_whole_leaves_and_cascades() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 1, 1], &[1, 2, 3]).unwrap();
    t.insert(ns, &[2, 2], &[4, 5]).unwrap();
    t.insert(ns, &[3, 3, 3, 3], &[6, 7, 8, 9]).unwrap();
    matched(&mut t, ns, &[1, 1, 1]); // [1,1,1] is now the most recent; [2,2] the oldest.
    let mut freed = Vec::new();
    assert_eq!(
        t.evict(1, |s| freed.extend_from_slice(s)),
        2,
        "a whole leaf goes"
    );
    assert_eq!(freed, vec![4, 5]);
    freed.clear();
    t.evict(1, |s| freed.extend_from_slice(s));
    assert_eq!(freed, vec![6, 7, 8, 9]);
    // Cascade: splitting creates a parent that becomes a leaf once its children go.
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3], &[1, 2, 3]).unwrap();
    t.insert(ns, &[1, 2, 4], &[1, 2, 4]).unwrap();
    assert_eq!(t.node_count(), 3);
    assert_eq!(t.evict(5, |_| {}), 4);
    assert_eq!(t.node_count(), 0);
    t.sanity_check().unwrap();
}

#[test]
fn lfu_policy_evicts_the_least_hit_leaf() {
    let mut t = RadixCache::with_policy(1, Box::new(Lfu)).unwrap();
    let ns = t.namespace_id(&Namespace::global());
    t.insert(ns, &[1], &[1]).unwrap();
    t.insert(ns, &[2], &[2]).unwrap();
    for _ in 0..3 {
        matched(&mut t, ns, &[1]);
    }
    matched(&mut t, ns, &[2]); // most recent, but hit less often
    let mut freed = Vec::new();
    t.evict(1, |s| freed.extend_from_slice(s));
    assert_eq!(freed, vec![2]);
    t.sanity_check().unwrap();
}

#[test]
fn page_alignment_for_several_page_sizes() {
    for page in [1usize, 2, 4, 16] {
        let (mut t, ns) = tree(page);
        let key: Vec<u32> = (0..(4 * page) as u32).collect();
        let slots: Vec<SlotId> = (0..key.len() as SlotId).map(|i| 1000 + i).collect();
        assert_eq!(t.insert(ns, &key, &slots).unwrap(), 0);
        // A query of 3.5 pages matches 3 pages.
        let q = &key[..3 * page + page / 2];
        let (len, got) = matched(&mut t, ns, q);
        assert_eq!(len, 3 * page, "page {page}");
        assert_eq!(got, slots[..3 * page]);
        // A divergence inside the second page matches only the first page.
        let mut diverge = key.clone();
        diverge[page + page / 2] = 999;
        assert_eq!(matched(&mut t, ns, &diverge).0, page, "page {page}");
        // Splits are page aligned too; sanity_check verifies every node's key length.
        let mut other = key[..2 * page].to_vec();
        other.extend(std::iter::repeat_n(7, page));
        let present = t
            .insert(
                ns,
                &other,
                &(0..other.len() as SlotId)
                    .map(|i| 5000 + i)
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        assert_eq!(present, 2 * page);
        assert_eq!(t.prefix_len(ns, &key[..page - 1]).unwrap(), 0);
        t.sanity_check().unwrap();
    }
}

#[test]
fn namespaces_are_isolated() {
    let mut t = RadixCache::new(1).unwrap();
    let a = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)));
    let b = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(2)));
    let a_salted = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)).with_salt("x"));
    let group = t.namespace_id(&Namespace::scoped(CacheScope::Group(1)));
    assert_eq!(
        t.namespace_id(&Namespace::scoped(CacheScope::Tenant(1))),
        a,
        "interned"
    );
    let key = [1, 2, 3, 4];
    t.insert(a, &key, &[1, 2, 3, 4]).unwrap();
    assert_eq!(matched(&mut t, a, &key).0, 4);
    for other in [b, a_salted, group] {
        assert_eq!(
            matched(&mut t, other, &key).0,
            0,
            "same tokens, other namespace: no hit"
        );
        assert_eq!(t.prefix_len(other, &key).unwrap(), 0);
    }
    // Each namespace may hold the same tokens with its own slots.
    assert_eq!(t.insert(b, &key, &[5, 6, 7, 8]).unwrap(), 0);
    assert_eq!(matched(&mut t, b, &key).1, vec![5, 6, 7, 8]);
    assert_eq!(t.namespace_stats(a).unwrap().cached_tokens, 4);
    assert_eq!(t.namespace_stats(b).unwrap().cached_tokens, 4);
    // Flushing one namespace leaves the other.
    let mut freed = Vec::new();
    t.flush_namespace(a, |s| freed.extend_from_slice(s))
        .unwrap();
    assert_eq!(freed, vec![1, 2, 3, 4]);
    assert_eq!(matched(&mut t, b, &key).0, 4);
    t.sanity_check().unwrap();
}

#[test]
fn filtered_eviction_spares_other_namespaces_and_tracks_evictable_per_namespace() {
    let mut t = RadixCache::new(1).unwrap();
    let a = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)));
    let b = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(2)));
    // b's entry is the least recently used, so plain LRU would take it first.
    t.insert(b, &[7, 8], &[10, 11]).unwrap();
    t.insert(a, &[1, 2, 3], &[1, 2, 3]).unwrap();
    t.insert(a, &[1, 2, 5], &[1, 2, 4]).unwrap();
    let mut out = Vec::new();
    let m = t.match_prefix(a, &[1, 2, 3], &mut out).unwrap();
    let lock = t.lock(m.last_node);
    let ev = |t: &RadixCache, ns| t.namespace_stats(ns).unwrap().evictable_tokens;
    // [1,2,3] is locked; only the [5] leaf of `a` is evictable there.
    assert_eq!((ev(&t, a), ev(&t, b)), (1, 2));
    assert_eq!(t.evictable_where(|ns| ns == a), 1);
    assert_eq!(t.evictable_where(|_| true), t.evictable_size());
    let mut freed = Vec::new();
    let n = t.evict_where(10, |ns| ns == a, |s| freed.extend_from_slice(s));
    assert_eq!((n, freed), (1, vec![4]));
    assert_eq!(matched(&mut t, b, &[7, 8]).0, 2, "b kept its cache");
    t.sanity_check().unwrap();
    t.unlock(lock);
    assert_eq!(ev(&t, a), 3);
    t.sanity_check().unwrap();
    let n = t.evict_where(2, |ns| ns == a, |_| {});
    assert_eq!(
        n, 3,
        "whole leaves go, the parent becomes a leaf and follows"
    );
    assert_eq!(t.namespace_stats(a).unwrap().cached_tokens, 0);
    assert_eq!(t.namespace_stats(b).unwrap().cached_tokens, 2);
    t.sanity_check().unwrap();
}

/// A namespace whose many leaves may not go, ranked before those that may, is scanned once
/// per eviction, not once per leaf evicted (it was: another tenant's thousands of small
/// leaves made every eviction for everyone else cost their number squared).
#[test]
fn filtered_eviction_asks_about_each_leaf_once() {
    let mut t = RadixCache::new(1).unwrap();
    let kept = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)));
    let taken = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(2)));
    // 1,000 one-token leaves of `kept`, used least recently: first in eviction order.
    for i in 0..1000u32 {
        let j = i as SlotId;
        t.insert(kept, &[7, i], &[2 * j, 2 * j + 1]).unwrap();
    }
    // 100 two-token paths of `taken`, each a leaf under a shared first token.
    for i in 0..100u32 {
        t.insert(
            taken,
            &[9, i, i],
            &[
                5000 + 3 * i as SlotId,
                5001 + 3 * i as SlotId,
                5002 + 3 * i as SlotId,
            ],
        )
        .unwrap();
    }
    let mut asked = 0;
    let mut freed = Vec::new();
    let n = t.evict_where(
        10_000,
        |ns| {
            asked += 1;
            ns == taken
        },
        |s| freed.extend_from_slice(s),
    );
    // Every token of `taken` goes (its shared first token once its last child is gone).
    assert_eq!(n, 201);
    assert_eq!(t.namespace_stats(taken).map_or(0, |s| s.cached_tokens), 0);
    assert_eq!(t.namespace_stats(kept).unwrap().cached_tokens, 1001);
    assert!(
        asked <= 1001 + 2 * 101,
        "asked {asked} times about {} leaves",
        1000 + 101
    );
    t.sanity_check().unwrap();
}

#[test]
fn salts_never_collide_by_concatenation() {
    // SGLang joined keys as strings, so ("ab", "c") and ("a", "bc") could collide; typed
    // namespaces compare fields.
    let mut t = RadixCache::new(1).unwrap();
    let x = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(12)).with_salt("3"));
    let y = t.namespace_id(&Namespace::scoped(CacheScope::Tenant(1)).with_salt("23"));
    assert_ne!(x, y);
}

#[test]
fn prefix_len_peeks_without_changing_the_tree() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3, 4], &[1, 2, 3, 4]).unwrap();
    let before = (t.node_count(), t.stats());
    assert_eq!(t.prefix_len(ns, &[1, 2, 9]).unwrap(), 2);
    assert_eq!(
        (t.node_count(), t.stats()),
        before,
        "no split, no statistics"
    );
}

#[test]
fn flush_keeps_locked_paths() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3], &[1, 2, 3]).unwrap();
    t.insert(ns, &[1, 2, 4, 5], &[1, 2, 4, 5]).unwrap();
    let mut out = Vec::new();
    let m = t.match_prefix(ns, &[1, 2, 3], &mut out).unwrap();
    let lock = t.lock(m.last_node);
    let freed = t.flush_namespace(ns, |_| {}).unwrap();
    assert_eq!(freed, 2);
    assert_eq!(t.total_size(), 3);
    t.sanity_check().unwrap();
    t.unlock(lock);
    assert_eq!(t.flush_all(|_| {}), 3);
    assert_eq!(t.total_size(), 0);
    t.sanity_check().unwrap();
}

#[test]
fn statistics_count_queried_and_hit_tokens() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3], &[1, 2, 3]).unwrap();
    matched(&mut t, ns, &[1, 2, 3, 4]);
    matched(&mut t, ns, &[9]);
    let s = t.stats();
    assert_eq!(
        (s.queried_tokens, s.hit_tokens, s.inserted_tokens),
        (5, 3, 3)
    );
    let n = t.namespace_stats(ns).unwrap();
    assert_eq!((n.queried_tokens, n.hit_tokens), (5, 3));
    t.evict(10, |_| {});
    assert_eq!(t.stats().evicted_tokens, 3);
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "dropped without RadixCache::unlock")]
fn a_dropped_lock_is_caught_in_debug_builds() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1], &[1]).unwrap();
    let mut out = Vec::new();
    let m = t.match_prefix(ns, &[1], &mut out).unwrap();
    let lock = t.lock(m.last_node);
    drop(lock);
}

#[test]
fn held_namespaces_live_until_released_and_empty_then_are_reclaimed() {
    let mut t = RadixCache::new(1).unwrap();
    let salted = |s: &str| Namespace::scoped(CacheScope::Tenant(3)).with_salt(s);
    // Held, never filled: reclaimed at release.
    let a = t.acquire_namespace(&salted("a"));
    assert_eq!(t.salted_namespaces(CacheScope::Tenant(3)), 1);
    assert!(t.release_namespace(a));
    assert_eq!(t.namespace_count(), 0);
    assert_eq!(t.take_reclaimed(), vec![salted("a")]);
    // Filled while held: lives on after release, until eviction empties it.
    let b = t.acquire_namespace(&salted("b"));
    assert_eq!(t.insert(b, &[1, 2, 3], &[10, 11, 12]).unwrap(), 0);
    assert!(!t.release_namespace(b));
    assert_eq!(t.find_namespace(&salted("b")), Some(b));
    let mut freed = Vec::new();
    assert_eq!(t.evict(3, |s| freed.extend_from_slice(s)), 3);
    assert_eq!(freed, vec![10, 11, 12]);
    assert_eq!(t.find_namespace(&salted("b")), None);
    assert_eq!(t.namespace_count(), 0);
    assert_eq!(t.salted_namespaces(CacheScope::Tenant(3)), 0);
    assert_eq!(t.take_reclaimed(), vec![salted("b")]);
    t.sanity_check().unwrap();
    // A pinned namespace is never reclaimed, and hit figures outlive reclaimed ones.
    let pinned = t.namespace_id(&Namespace::global());
    t.insert(pinned, &[5], &[50]).unwrap();
    t.evict(1, |_| {});
    assert_eq!(t.find_namespace(&Namespace::global()), Some(pinned));
    let c = t.acquire_namespace(&salted("c"));
    t.insert(c, &[7, 8], &[70, 71]).unwrap();
    let mut out = Vec::new();
    t.match_prefix(c, &[7, 8, 9], &mut out).unwrap();
    t.release_namespace(c);
    t.flush_all(|_| {});
    assert_eq!(t.find_namespace(&salted("c")), None);
    let hits: Vec<_> = t.scope_hits().collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].0, CacheScope::Tenant(3));
    assert_eq!((hits[0].1.queried_tokens, hits[0].1.hit_tokens), (3, 2));
    t.sanity_check().unwrap();
}

#[test]
fn many_short_lived_salts_leave_nothing_behind() {
    let mut t = RadixCache::new(1).unwrap();
    for i in 0..10_000u32 {
        let ns =
            t.acquire_namespace(&Namespace::scoped(CacheScope::Tenant(1)).with_salt(i.to_string()));
        t.insert(ns, &[i, i + 1], &[2 * i as i32, 2 * i as i32 + 1])
            .unwrap();
        t.release_namespace(ns);
        t.evict(2, |_| {});
    }
    assert_eq!(t.namespace_count(), 0);
    assert_eq!(t.node_count(), 0);
    t.sanity_check().unwrap();
}

#[test]
fn an_untracked_match_leaves_no_trace_until_recorded() {
    let (mut t, ns) = tree(1);
    t.insert(ns, &[1, 2, 3], &[10, 11, 12]).unwrap();
    t.insert(ns, &[4, 5], &[20, 21]).unwrap();
    let before = t.stats();
    let mut out = Vec::new();
    let found = t.match_prefix_untracked(ns, &[1, 2, 3], &mut out).unwrap();
    assert_eq!((found.len, out.as_slice()), (3, &[10, 11, 12][..]));
    assert_eq!(t.stats(), before, "no hit statistics");
    // [1, 2, 3] was inserted first, so it is still the least recently used leaf.
    let mut freed = Vec::new();
    t.evict(1, |s| freed.extend_from_slice(s));
    assert_eq!(freed, vec![10, 11, 12]);
    // Recorded, a match counts and refreshes its path: [4, 5] goes first now.
    let found = t.match_prefix_untracked(ns, &[4, 5], &mut out).unwrap();
    t.insert(ns, &[6], &[30]).unwrap();
    t.record_match(ns, 2, found);
    assert_eq!(t.stats().hit_tokens, before.hit_tokens + 2);
    let mut freed = Vec::new();
    t.evict(1, |s| freed.extend_from_slice(s));
    assert_eq!(freed, vec![30]);
    t.sanity_check().unwrap();
}
