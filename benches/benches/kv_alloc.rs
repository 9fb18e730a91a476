//! KV slot allocation for a scheduler step: the allocator alone for a 256-request decode step,
//! and the whole cache work of a step (prefix match + admit + allocation + caching) for 256
//! requests on the shared-prefix trace.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use benches::traces::shared_prefix;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pools::{KvCache, KvCacheConfig, KvSlotAllocator};
use radix::Namespace;
use std::hint::black_box;
use std::time::{Duration, Instant};

const BATCH: usize = 256;

fn allocator_decode_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("alloc/decode_step_batch_256");
    g.throughput(Throughput::Elements(BATCH as u64));
    for page in [1usize, 16] {
        let mut a = KvSlotAllocator::new(1 << 20, page).unwrap();
        // Every request's last slot sits at the end of a page, so each decode needs a page.
        g.bench_function(format!("page_{page}_alloc+free"), |b| {
            b.iter(|| {
                a.begin_free_group();
                for _ in 0..BATCH {
                    let s = a.alloc_extend(None, 1).unwrap();
                    a.free_owned(black_box(s)).unwrap();
                }
                a.end_free_group();
            })
        });
    }
    g.finish();
}

fn cache_decode_and_prefill_steps(c: &mut Criterion) {
    let reqs = shared_prefix(16, 16, 2048, 128, 9);
    let config = KvCacheConfig {
        max_running_requests: BATCH,
        max_context_len: 4096,
        num_slots: 1 << 20,
        page_size: 1,
    };
    let mut g = c.benchmark_group("kv_cache/step_256_requests");
    g.throughput(Throughput::Elements(BATCH as u64));
    // Prefill step: match each 2,176-token prompt, admit, allocate the uncached tail, cache it.
    g.bench_function("prefill_step_cache_work", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut cache = KvCache::new(config).unwrap();
                let ns = cache.namespace_id(&Namespace::global());
                // Warm: the group prefixes are cached, as in steady state.
                for r in reqs.iter().step_by(16) {
                    let mut kv = cache.admit(ns, &r[..r.len() - 1]).unwrap();
                    let new = r.len() - kv.cached_len();
                    cache.alloc_tokens(&mut kv, new).unwrap();
                    cache.cache_finished_req(kv, r).unwrap();
                }
                let start = Instant::now();
                let mut live = Vec::with_capacity(BATCH);
                for r in &reqs {
                    let mut kv = cache.admit(ns, &r[..r.len() - 1]).unwrap();
                    let new = r.len() - kv.cached_len();
                    cache.alloc_tokens(&mut kv, new).unwrap();
                    cache.cache_unfinished_req(&mut kv, r).unwrap();
                    live.push(kv);
                }
                total += start.elapsed();
                for (kv, r) in live.into_iter().zip(&reqs) {
                    cache
                        .release_req(kv)
                        .unwrap_or_else(|e| panic!("{e} {}", r.len()));
                }
            }
            total
        })
    });
    // Decode step: one new slot for each of 256 running requests.
    g.bench_function("decode_step_cache_work", |b| {
        let mut cache = KvCache::new(config).unwrap();
        let ns = cache.namespace_id(&Namespace::global());
        let mut live: Vec<_> = reqs
            .iter()
            .map(|r| {
                let mut kv = cache.admit(ns, &r[..1]).unwrap();
                cache.alloc_tokens(&mut kv, 1).unwrap();
                kv
            })
            .collect();
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                // Chunks of at most 1,000 steps, then an untimed reset so rows and the pool
                // never run out.
                let steps = left.min(1000);
                left -= steps;
                let start = Instant::now();
                for _ in 0..steps {
                    cache.begin_free_group();
                    for kv in live.iter_mut() {
                        cache.alloc_tokens(kv, 1).unwrap();
                        black_box(cache.slots(kv).last());
                    }
                    cache.end_free_group();
                }
                total += start.elapsed();
                for kv in std::mem::take(&mut live) {
                    cache.release_req(kv).unwrap();
                }
                for _ in 0..BATCH {
                    let mut kv = cache.admit(ns, &[]).unwrap();
                    cache.alloc_tokens(&mut kv, 1).unwrap();
                    live.push(kv);
                }
            }
            total
        });
        for kv in live.drain(..) {
            cache.release_req(kv).unwrap();
        }
        cache.check_idle().unwrap();
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = allocator_decode_step, cache_decode_and_prefill_steps
}
criterion_main!(benches);
