//! Paged attention on the CPU, SmolLM2-135M's layer shape (9 query heads over 3 K/V heads of
//! 64): one layer's attention, as the model runs it 30 times per step.
//!
//! - `decode/<dtype>/b<batch>/ctx<len>`: one query per request over `len` cached keys;
//! - `extend/<dtype>/q<chunk>/ctx<len>`: one request's chunk of new tokens over its prefix.
//!
//! Throughput is in keys visited (query rows x visible keys). Quick run:
//! `cargo bench -p kernels --bench attention -- --quick`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kernels::attention::{paged_attention, AttentionShape, PagedBatch};
use pools::{KvDtype, KvLayout, KvStorage, SlotId};
use std::hint::black_box;
use std::time::Duration;

const SHAPE: AttentionShape = AttentionShape {
    num_heads: 9,
    num_kv_heads: 3,
    head_dim: 64,
};

struct Case {
    q_indptr: Vec<u32>,
    kv_indptr: Vec<u32>,
    kv_indices: Vec<SlotId>,
    q: Vec<f32>,
    out: Vec<f32>,
    keys_visited: u64,
}

/// `q_lens[b]` new tokens of request `b` over `ctx` keys each; request `b` owns the slot range
/// starting at `1 + b * ctx` (the allocator hands out mostly contiguous runs).
fn case(q_lens: &[usize], ctx: usize) -> Case {
    let (mut q_indptr, mut kv_indptr, mut kv_indices) = (vec![0u32], vec![0u32], Vec::new());
    let mut keys_visited = 0u64;
    for (b, &q_len) in q_lens.iter().enumerate() {
        q_indptr.push(q_indptr[b] + q_len as u32);
        kv_indices.extend((0..ctx).map(|j| (1 + b * ctx + j) as SlotId));
        kv_indptr.push(kv_indices.len() as u32);
        keys_visited += (0..q_len)
            .map(|i| (ctx - (q_len - 1 - i)) as u64)
            .sum::<u64>();
    }
    let rows = q_indptr[q_lens.len()] as usize;
    let q_row = SHAPE.num_heads * SHAPE.head_dim;
    let q = (0..rows * q_row)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0 - 0.5)
        .collect();
    Case {
        q_indptr,
        kv_indptr,
        kv_indices,
        q,
        out: vec![0.0; rows * q_row],
        keys_visited,
    }
}

fn storage(dtype: KvDtype, slots: usize) -> KvStorage {
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads: SHAPE.num_kv_heads,
        head_dim: SHAPE.head_dim,
        dtype,
        values_in_keys: false,
        other_rows: None,
    };
    let mut kv = KvStorage::new(layout, slots).unwrap();
    let row = layout.row_len();
    let all: Vec<SlotId> = (0..slots as SlotId).collect();
    let k: Vec<f32> = (0..slots * row)
        .map(|i| ((i * 104_729) % 2000) as f32 / 1000.0 - 1.0)
        .collect();
    let v: Vec<f32> = k.iter().rev().copied().collect();
    kv.set_kv(0, &all, &k, &v).unwrap();
    kv
}

fn run(
    c: &mut Criterion,
    group: &str,
    dtype: KvDtype,
    label: String,
    q_lens: &[usize],
    ctx: usize,
) {
    let mut case = case(q_lens, ctx);
    let kv = storage(dtype, 1 + q_lens.len() * ctx);
    let (k, v) = kv.layer(0).unwrap();
    let mut g = c.benchmark_group(format!("{group}/{dtype:?}"));
    g.throughput(Throughput::Elements(case.keys_visited));
    g.bench_function(BenchmarkId::from_parameter(label), |bench| {
        bench.iter(|| {
            let batch = PagedBatch {
                q_indptr: &case.q_indptr,
                kv_indptr: &case.kv_indptr,
                kv_indices: &case.kv_indices,
            };
            paged_attention(&SHAPE, &batch, &case.q, k, v, &mut case.out).unwrap();
            black_box(&case.out);
        })
    });
    g.finish();
}

fn attention(c: &mut Criterion) {
    for dtype in [KvDtype::F32, KvDtype::F16] {
        for (batch, ctx) in [(1, 1024), (16, 128), (16, 1024), (1, 4096)] {
            let label = format!("b{batch}/ctx{ctx}");
            run(c, "decode", dtype, label, &vec![1; batch], ctx);
        }
        for (chunk, ctx) in [(256, 256), (256, 1280)] {
            let label = format!("q{chunk}/ctx{ctx}");
            run(c, "extend", dtype, label, &[chunk], ctx);
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = attention
}
criterion_main!(benches);
