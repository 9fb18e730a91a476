//! Radix tree throughput on SGLang-style traces: match_prefix and insert of 2,176-token keys
//! over a 64 x 16 shared-prefix tree, a multi-turn chat, and eviction over 100k+ nodes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use benches::traces::{multi_turn, shared_prefix, SplitMix, VOCAB};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use radix::{Namespace, NsId, RadixCache, SlotId};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn slots(n: usize, next: &mut SlotId) -> Vec<SlotId> {
    let s = (*next..*next + n as SlotId).collect();
    *next += n as SlotId;
    s
}

fn populated(reqs: &[Vec<u32>]) -> (RadixCache, NsId, SlotId) {
    let mut tree = RadixCache::new(1).unwrap();
    let ns = tree.namespace_id(&Namespace::global());
    let mut next = 1;
    for r in reqs {
        let s = slots(r.len(), &mut next);
        tree.insert(ns, r, &s).unwrap();
    }
    (tree, ns, next)
}

fn shared_prefix_trace(c: &mut Criterion) {
    let reqs = shared_prefix(64, 16, 2048, 128, 7);
    let (mut tree, ns, mut next) = populated(&reqs);
    let mut g = c.benchmark_group("radix/shared_prefix_64x16_2048+128");
    g.throughput(Throughput::Elements(2176));
    let mut i = 0;
    let mut out = Vec::with_capacity(4096);
    // Requests in arrival order: a group's 2,048-token prefix stays in cache across its 16.
    g.bench_function("match_prefix_hit_arrival_order", |b| {
        b.iter(|| {
            i = (i + 1) % reqs.len();
            out.clear();
            black_box(tree.match_prefix(ns, &reqs[i], &mut out).unwrap())
        })
    });
    // Requests in scattered order: every match reads its 26 KB of tokens and slots cold.
    g.bench_function("match_prefix_hit_scattered", |b| {
        b.iter(|| {
            i = (i + 97) % reqs.len();
            out.clear();
            black_box(tree.match_prefix(ns, &reqs[i], &mut out).unwrap())
        })
    });
    g.bench_function("insert_present", |b| {
        let s = slots(2176, &mut next);
        b.iter(|| {
            i = (i + 97) % reqs.len();
            black_box(tree.insert(ns, &reqs[i], &s).unwrap())
        })
    });
    // A new question under a cached group prefix: walk 2,048 tokens, add a 128-token leaf.
    let mut rng = SplitMix::new(11);
    g.bench_function("insert_new_suffix", |b| {
        b.iter_custom(|iters| {
            let keys: Vec<Vec<u32>> = (0..iters)
                .map(|k| {
                    let mut key = reqs[(k as usize * 16) % reqs.len()][..2048].to_vec();
                    key.extend(rng.tokens(128, VOCAB));
                    key
                })
                .collect();
            let s = slots(2176, &mut next);
            let start = Instant::now();
            for key in &keys {
                black_box(tree.insert(ns, key, &s).unwrap());
            }
            let elapsed = start.elapsed();
            // Rebuild (untimed) so every batch starts from the same tree.
            (tree, _, next) = populated(&reqs);
            elapsed
        })
    });
    g.finish();
}

fn multi_turn_trace(c: &mut Criterion) {
    let convs = multi_turn(64, 8, 64, 128, 5);
    let turns: usize = convs.iter().map(Vec::len).sum();
    let tokens: usize = convs
        .iter()
        .flatten()
        .map(|(p, full)| p.len() + full.len())
        .sum();
    let mut g = c.benchmark_group("radix/multi_turn_64x8");
    g.throughput(Throughput::Elements(tokens as u64));
    g.bench_function(format!("match+insert_{turns}_turns"), |b| {
        b.iter_batched(
            || {
                let mut tree = RadixCache::new(1).unwrap();
                let ns = tree.namespace_id(&Namespace::global());
                (tree, ns)
            },
            |(mut tree, ns)| {
                let mut next = 1;
                let mut out = Vec::new();
                for conv in &convs {
                    for (prompt, full) in conv {
                        out.clear();
                        black_box(tree.match_prefix(ns, prompt, &mut out).unwrap());
                        let s = slots(full.len(), &mut next);
                        black_box(tree.insert(ns, full, &s).unwrap());
                    }
                }
                tree
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

fn evict_many_nodes(c: &mut Criterion) {
    // 1,000 prefixes x 100 leaves of 16 tokens: 101,000 nodes, 1.7M tokens.
    let reqs = shared_prefix(1000, 100, 16, 16, 3);
    assert!(populated(&reqs).0.node_count() > 100_000);
    let mut g = c.benchmark_group("radix/evict_101k_nodes");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("evict_1000_leaves", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (mut t, _, _) = populated(&reqs);
                let start = Instant::now();
                black_box(t.evict(16 * 1000, |s| {
                    black_box(s);
                }));
                total += start.elapsed();
            }
            total
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = shared_prefix_trace, multi_turn_trace, evict_many_nodes
}
criterion_main!(benches);
