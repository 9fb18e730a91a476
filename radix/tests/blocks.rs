//! Block events against an independent model: replaying the journal into a map of blocks
//! must give exactly the full-block prefixes that prefix matching finds in the tree, after
//! any sequence of inserts, matches (which split nodes), evictions and flushes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use radix::{BlockChange, BlockEvent, CacheScope, Namespace, NsId, RadixCache};
use std::collections::{BTreeSet, HashMap};

/// Blocks as a subscriber holds them: handle -> (namespace, parent handle, tokens).
#[derive(Default)]
struct Mirror {
    blocks: HashMap<u64, (Namespace, Option<u64>, Vec<u32>)>,
}

impl Mirror {
    fn apply(&mut self, events: Vec<BlockEvent>, block: usize) {
        for event in events {
            match event.change {
                BlockChange::Stored { parent, blocks } => {
                    let mut parent = parent;
                    if let Some(p) = parent {
                        assert!(self.blocks.contains_key(&p), "parent {p} unknown");
                    }
                    for b in blocks {
                        assert_eq!(b.tokens.len(), block);
                        let old = self
                            .blocks
                            .insert(b.hash, (event.namespace.clone(), parent, b.tokens));
                        assert!(old.is_none(), "block {} stored twice", b.hash);
                        parent = Some(b.hash);
                    }
                }
                BlockChange::Removed { hashes } => {
                    for h in hashes {
                        assert!(
                            self.blocks.remove(&h).is_some(),
                            "unknown block {h} removed"
                        );
                        assert!(
                            self.blocks.values().all(|(_, p, _)| *p != Some(h)),
                            "block {h} removed before its children"
                        );
                    }
                }
            }
        }
    }

    /// Every block's whole prefix, rebuilt by following parents.
    fn prefixes(&self) -> BTreeSet<(Namespace, Vec<u32>)> {
        self.blocks
            .iter()
            .map(|(&h, (ns, _, _))| {
                let mut chain = Vec::new();
                let mut cur = Some(h);
                while let Some(c) = cur {
                    let (_, parent, tokens) = &self.blocks[&c];
                    chain.push(tokens.clone());
                    cur = *parent;
                }
                (ns.clone(), chain.into_iter().rev().flatten().collect())
            })
            .collect()
    }
}

/// The full-block prefixes of everything ever inserted that prefix matching still finds.
fn expected(
    t: &RadixCache,
    inserted: &[(usize, Vec<u32>)],
    ids: &[NsId],
    names: &[Namespace],
    block: usize,
) -> BTreeSet<(Namespace, Vec<u32>)> {
    let mut out = BTreeSet::new();
    for (n, seq) in inserted {
        for k in 1..=seq.len() / block {
            let prefix = &seq[..k * block];
            if t.prefix_len(ids[*n], prefix).unwrap() == prefix.len() {
                out.insert((names[*n].clone(), prefix.to_vec()));
            }
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Op {
    Insert { ns: usize, tokens: Vec<u32> },
    Match { ns: usize, tokens: Vec<u32> },
    Evict(usize),
    Flush(usize),
}

fn op() -> impl Strategy<Value = Op> {
    // A two-letter alphabet makes shared prefixes and splits common.
    let tokens = prop::collection::vec(1u32..3, 0..24);
    prop_oneof![
        4 => (0usize..2, tokens.clone()).prop_map(|(ns, tokens)| Op::Insert { ns, tokens }),
        2 => (0usize..2, tokens).prop_map(|(ns, tokens)| Op::Match { ns, tokens }),
        2 => (1usize..20).prop_map(Op::Evict),
        1 => (0usize..2).prop_map(Op::Flush),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn replayed_events_equal_the_cached_full_blocks(
        page in prop::sample::select(vec![1usize, 2, 4]),
        block in prop::sample::select(vec![4usize, 8]),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let mut t = RadixCache::new(page).unwrap();
        t.enable_block_events(block).unwrap();
        let names = [Namespace::global(), Namespace::scoped(CacheScope::Tenant(1))];
        let ids: Vec<NsId> = names.iter().map(|n| t.namespace_id(n)).collect();
        let mut mirror = Mirror::default();
        let mut inserted = Vec::new();
        let mut next_slot = 0;
        for op in ops {
            match op {
                Op::Insert { ns, mut tokens } => {
                    tokens.truncate(tokens.len() / page * page);
                    let slots: Vec<i32> = (next_slot..next_slot + tokens.len() as i32).collect();
                    next_slot += tokens.len() as i32;
                    t.insert(ids[ns], &tokens, &slots).unwrap();
                    inserted.push((ns, tokens));
                }
                Op::Match { ns, tokens } => {
                    t.match_prefix(ids[ns], &tokens, &mut Vec::new()).unwrap();
                }
                Op::Evict(n) => {
                    t.evict(n, |_| {});
                }
                Op::Flush(ns) => {
                    t.flush_namespace(ids[ns], |_| {}).unwrap();
                }
            }
            mirror.apply(t.take_block_events(), block);
            let want = expected(&t, &inserted, &ids, &names, block);
            prop_assert_eq!(&mirror.prefixes(), &want);
            // A snapshot lists the same blocks with the same handles.
            let mut fresh = Mirror::default();
            fresh.apply(t.block_snapshot(), block);
            let mut a: Vec<u64> = fresh.blocks.keys().copied().collect();
            let mut b: Vec<u64> = mirror.blocks.keys().copied().collect();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn equal_prefixes_of_two_namespaces_get_different_handles() {
    let mut t = RadixCache::new(1).unwrap();
    t.enable_block_events(4).unwrap();
    let a = t.namespace_id(&Namespace::global());
    let b = t.namespace_id(&Namespace::global().with_salt("x"));
    let tokens = [1, 2, 3, 4, 5, 6, 7, 8];
    t.insert(a, &tokens, &[0, 1, 2, 3, 4, 5, 6, 7]).unwrap();
    t.insert(b, &tokens, &[8, 9, 10, 11, 12, 13, 14, 15])
        .unwrap();
    let hashes: Vec<Vec<u64>> = t
        .take_block_events()
        .into_iter()
        .map(|e| match e.change {
            BlockChange::Stored { blocks, .. } => blocks.iter().map(|b| b.hash).collect(),
            BlockChange::Removed { .. } => panic!("nothing was removed"),
        })
        .collect();
    assert_eq!(hashes.len(), 2);
    assert_eq!(hashes[0].len(), 2);
    assert!(hashes[0].iter().all(|h| !hashes[1].contains(h)));
}

#[test]
fn a_partial_block_is_not_stored_until_completed() {
    let mut t = RadixCache::new(1).unwrap();
    t.enable_block_events(4).unwrap();
    let ns = t.namespace_id(&Namespace::global());
    t.insert(ns, &[1, 2, 3, 4, 5, 6], &[0, 1, 2, 3, 4, 5])
        .unwrap();
    let first = t.take_block_events();
    assert_eq!(first.len(), 1);
    let BlockChange::Stored { parent, blocks } = &first[0].change else {
        panic!("expected a store");
    };
    assert_eq!((*parent, blocks.len()), (None, 1));
    // Completing the second block reports it, chained to the first.
    t.insert(ns, &[1, 2, 3, 4, 5, 6, 7, 8], &[0, 1, 2, 3, 4, 5, 6, 7])
        .unwrap();
    let second = t.take_block_events();
    let BlockChange::Stored {
        parent: p2,
        blocks: b2,
    } = &second[0].change
    else {
        panic!("expected a store");
    };
    assert_eq!(*p2, Some(blocks[0].hash));
    assert_eq!(b2[0].tokens, vec![5, 6, 7, 8]);
    assert!(t.take_block_events().is_empty());
}
