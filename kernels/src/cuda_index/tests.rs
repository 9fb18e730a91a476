//! The index twins run as CPU loops over every block and thread, against the CPU kernels.
use super::*;
use crate::attention::{paged_attention, AttentionShape, PagedBatch};
use crate::kv_indices::{create_kv_indices, KvGather};
use crate::rope::{Rope, RopeStyle};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv};

#[path = "../../tests/support/xorshift.rs"]
mod xorshift;

use xorshift::Rng;

/// Runs `body(block, tid)` for every thread of a `grid x threads` launch.
fn for_each_thread(grid: u32, threads: u32, mut body: impl FnMut(u32, u32)) {
    for block in 0..grid {
        for tid in 0..threads {
            body(block, tid);
        }
    }
}

#[test]
fn kv_indices_blocks_copy_each_entry_once_and_match_the_cpu_gather() {
    let mut rng = Rng(7);
    let (rows, row_stride) = (6, 700);
    let table: Vec<SlotId> = (0..rows * row_stride)
        .map(|i| i as SlotId * 3 + 1)
        .collect();
    let req_pool_indices = [4u32, 0, 5, 2];
    let kv_lens = [513u32, 0, 1, 300];
    let kv_start = [10u32, 0, 699, 400];
    let g = KvGather {
        req_to_token: &table,
        row_stride,
        req_pool_indices: &req_pool_indices,
        kv_lens: &kv_lens,
        kv_start: Some(&kv_start),
    };
    let (mut indptr, mut want) = (Vec::new(), Vec::new());
    create_kv_indices(&g, &mut indptr, &mut want).unwrap();
    for threads in [ROW_THREADS, 32, 1 + rng.below(100) as u32] {
        let mut got = vec![-1; want.len()];
        let mut writes = vec![0u32; want.len()];
        for_each_thread(kv_lens.len() as u32, threads, |b, tid| {
            let pairs = kv_indices_thread(
                row_stride,
                &req_pool_indices,
                &indptr,
                Some(&kv_start),
                b as usize,
                tid,
                threads,
            );
            for (dst, src) in pairs {
                got[dst] = table[src];
                writes[dst] += 1;
            }
        });
        assert_eq!(got, want);
        assert!(writes.iter().all(|&w| w == 1));
    }
}

#[test]
fn store_kv_threads_scatter_like_set_kv() {
    let mut rng = Rng(11);
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads: 3,
        head_dim: 20,
        dtype: KvDtype::F32,
    };
    let (num_slots, n) = (97, 41);
    let row_len = layout.row_len();
    let slots = rng.distinct(n, num_slots);
    let (k, v) = (rng.f32s(n * row_len), rng.f32s(n * row_len));
    let mut cpu = KvStorage::new(layout, num_slots).unwrap();
    cpu.set_kv(0, &slots, &k, &v).unwrap();
    let Some((LayerKv::F32(want_k), LayerKv::F32(want_v))) = cpu.layer(0) else {
        panic!("f32 layer expected");
    };
    let total = n * row_len;
    // The real launch, and a small grid that makes every thread loop.
    for (grid, threads) in [
        (
            stride_blocks(total, ELEMENTWISE_THREADS),
            ELEMENTWISE_THREADS,
        ),
        (3, 32),
    ] {
        let (mut got_k, mut got_v) = (
            vec![0.0; num_slots * row_len],
            vec![0.0; num_slots * row_len],
        );
        let mut seen = vec![false; total];
        for_each_thread(grid, threads, |block, tid| {
            for idx in grid_stride(block, tid, threads, grid, total) {
                assert!(!std::mem::replace(&mut seen[idx], true));
                let dst = store_kv_element(idx, row_len, &slots, num_slots).unwrap();
                got_k[dst] = k[idx];
                got_v[dst] = v[idx];
            }
        });
        assert!(seen.iter().all(|&s| s));
        assert_eq!(&got_k, want_k);
        assert_eq!(&got_v, want_v);
    }
    assert_eq!(store_kv_element(0, row_len, &[-1], num_slots), None);
    assert_eq!(store_kv_element(0, row_len, &[97], num_slots), None);
}

#[test]
fn req_to_token_write_threads_match_the_cpu_scatter() {
    let mut rng = Rng(13);
    let table_len = 4 * 300;
    let n = 257;
    let cells: Vec<u64> = rng
        .distinct(n, table_len)
        .into_iter()
        .map(|c| c as u64)
        .collect();
    let slots: Vec<SlotId> = (0..n).map(|_| rng.below(1 << 20) as SlotId).collect();
    let mut want = vec![-1; table_len];
    crate::kv_indices::write_req_to_token(&mut want, &cells, &slots).unwrap();
    for (grid, threads) in [
        (stride_blocks(n, ELEMENTWISE_THREADS), ELEMENTWISE_THREADS),
        (2, 32),
    ] {
        let mut got = vec![-1; table_len];
        for_each_thread(grid, threads, |block, tid| {
            for i in grid_stride(block, tid, threads, grid, n) {
                let (cell, slot) = req_to_token_write(i, &cells, &slots, table_len).unwrap();
                got[cell] = slot;
            }
        });
        assert_eq!(got, want);
    }
    assert_eq!(req_to_token_write(0, &[1200], &[5], table_len), None);
}

#[test]
fn rope_threads_rotate_the_same_pairs_as_the_cpu() {
    let mut rng = Rng(5);
    let (tokens, heads, head_dim) = (7, 3, 16);
    let positions: Vec<u32> = (0..tokens).map(|_| rng.below(9000) as u32).collect();
    for (style, rot_dim, factor) in [
        (RopeStyle::Normal, 16, 1.0f32),
        (RopeStyle::Neox, 16, 1.0),
        (RopeStyle::Normal, 8, 2.0),
        (RopeStyle::Neox, 12, 4.0),
    ] {
        let rope = Rope::new(head_dim, rot_dim, 10000.0, style, factor).unwrap();
        let x = rng.f32s(tokens * heads * head_dim);
        let mut want = x.clone();
        rope.apply(&mut want, heads, &positions).unwrap();
        let pairs = rot_dim / 2;
        let inv_freq: Vec<f64> = (0..pairs)
            .map(|i| 10000f64.powf(-2.0 * i as f64 / rot_dim as f64))
            .collect();
        let total = tokens * heads * pairs;
        let grid = stride_blocks(total, ELEMENTWISE_THREADS);
        let mut got = x.clone();
        let mut touched = vec![0u32; x.len()];
        for_each_thread(grid, ELEMENTWISE_THREADS, |block, tid| {
            for idx in grid_stride(block, tid, ELEMENTWISE_THREADS, grid, total) {
                let p = rope_pair(idx, heads, head_dim, pairs, style == RopeStyle::Neox);
                let angle = positions[p.token] as f64 / factor as f64 * inv_freq[p.pair];
                let (s, c) = angle.sin_cos();
                let (s, c) = (s as f32, c as f32);
                let (x0, x1) = (got[p.a], got[p.b]);
                got[p.a] = x0 * c - x1 * s;
                got[p.b] = x0 * s + x1 * c;
                touched[p.a] += 1;
                touched[p.b] += 1;
            }
        });
        assert_eq!(got, want, "{style:?} rot_dim {rot_dim}");
        assert!(touched.iter().all(|&t| t <= 1));
        assert_eq!(touched.iter().sum::<u32>() as usize, 2 * total);
    }
}

/// The fused RoPE + K/V store's work items, run on the CPU with the kernel's arithmetic, give
/// what RoPE on q and k followed by the pool's `set_kv` gives, skipping padding slots.
#[test]
fn rope_store_items_rotate_and_store_like_rope_then_set_kv() {
    let mut rng = Rng(23);
    let (tokens, heads, kv_heads, head_dim, num_slots) = (5, 6, 2, 16, 40);
    let positions: Vec<u32> = (0..tokens).map(|_| rng.below(9000) as u32).collect();
    // Token 3 is a padding row (-1): it stores nothing.
    let slots: Vec<SlotId> = vec![7, 0, 39, -1, 12];
    let layout = KvLayout {
        num_layers: 1,
        num_kv_heads: kv_heads,
        head_dim,
        dtype: KvDtype::F32,
    };
    let row_len = layout.row_len();
    for (style, rot_dim) in [
        (RopeStyle::Normal, 16),
        (RopeStyle::Neox, 16),
        (RopeStyle::Neox, 10),
        (RopeStyle::Normal, 10),
        (RopeStyle::Normal, 0),
    ] {
        let (q, k, v) = (
            rng.f32s(tokens * heads * head_dim),
            rng.f32s(tokens * row_len),
            rng.f32s(tokens * row_len),
        );
        let (mut want_q, mut want_k) = (q.clone(), k.clone());
        if rot_dim > 0 {
            let rope = Rope::new(head_dim, rot_dim, 10000.0, style, 1.0).unwrap();
            rope.apply(&mut want_q, heads, &positions).unwrap();
            rope.apply(&mut want_k, kv_heads, &positions).unwrap();
        }
        let mut want = KvStorage::new(layout, num_slots).unwrap();
        let stored: Vec<usize> = (0..tokens).filter(|&t| slots[t] >= 0).collect();
        let rows = |x: &[f32]| -> Vec<f32> {
            stored
                .iter()
                .flat_map(|&t| x[t * row_len..(t + 1) * row_len].to_vec())
                .collect()
        };
        let stored_slots: Vec<SlotId> = stored.iter().map(|&t| slots[t]).collect();
        want.set_kv(0, &stored_slots, &rows(&want_k), &rows(&v))
            .unwrap();

        let pairs = rot_dim / 2;
        let inv_freq: Vec<f64> = (0..pairs)
            .map(|i| 10000f64.powf(-2.0 * i as f64 / rot_dim as f64))
            .collect();
        let shape = RopeStoreShape {
            tokens,
            heads,
            kv_heads,
            head_dim,
            pairs,
            neox: style == RopeStyle::Neox,
        };
        let (mut got_q, mut k_cache, mut v_cache) = (
            q.clone(),
            vec![0.0f32; num_slots * row_len],
            vec![0.0f32; num_slots * row_len],
        );
        let total = shape.items();
        let grid = stride_blocks(total, ELEMENTWISE_THREADS);
        let mut visits = vec![0u32; total];
        for_each_thread(grid, ELEMENTWISE_THREADS, |block, tid| {
            for idx in grid_stride(block, tid, ELEMENTWISE_THREADS, grid, total) {
                visits[idx] += 1;
                let rotation = |token: usize, pair: usize| {
                    let angle = positions[token] as f64 / 1.0 * inv_freq[pair];
                    let (s, c) = angle.sin_cos();
                    (c as f32, s as f32)
                };
                match rope_store_item(idx, &shape) {
                    RopeStoreItem::Q(p) => {
                        let (c, s) = rotation(p.token, p.pair);
                        let (x0, x1) = (got_q[p.a], got_q[p.b]);
                        got_q[p.a] = x0 * c - x1 * s;
                        got_q[p.b] = x0 * s + x1 * c;
                    }
                    RopeStoreItem::K {
                        pair: p,
                        cache_a,
                        cache_b,
                    } => {
                        let Ok(slot) = usize::try_from(slots[p.token]) else {
                            continue;
                        };
                        let (c, s) = rotation(p.token, p.pair);
                        let (x0, x1) = (k[p.a], k[p.b]);
                        k_cache[slot * row_len + cache_a] = x0 * c - x1 * s;
                        k_cache[slot * row_len + cache_b] = x0 * s + x1 * c;
                    }
                    RopeStoreItem::Element {
                        token,
                        element,
                        col,
                        store_k,
                    } => {
                        let Ok(slot) = usize::try_from(slots[token]) else {
                            continue;
                        };
                        v_cache[slot * row_len + col] = v[element];
                        if store_k {
                            k_cache[slot * row_len + col] = k[element];
                        }
                    }
                }
            }
        });
        assert!(visits.iter().all(|&n| n == 1), "{style:?} {rot_dim}");
        assert_eq!(got_q, want_q, "{style:?} {rot_dim}: q");
        let (LayerKv::F32(wk), LayerKv::F32(wv)) = want.layer(0).unwrap() else {
            unreachable!()
        };
        assert_eq!(&k_cache, wk, "{style:?} {rot_dim}: K pool");
        assert_eq!(&v_cache, wv, "{style:?} {rot_dim}: V pool");
    }
}

#[test]
fn silu_mul_embedding_and_row_threads_cover_their_elements() {
    let mut rng = Rng(3);
    let (rows, ffn) = (5, 37);
    let gate_up = rng.f32s(rows * 2 * ffn);
    let mut want = vec![0.0; rows * ffn];
    crate::activation::silu_mul(&gate_up, ffn, &mut want).unwrap();
    let total = rows * ffn;
    let mut got = vec![f32::NAN; total];
    for_each_thread(2, 64, |block, tid| {
        for idx in grid_stride(block, tid, 64, 2, total) {
            let (g, u) = silu_mul_element(idx, ffn);
            let (g, u) = (gate_up[g], gate_up[u]);
            got[idx] = g / (1.0 + crate::vector::exp_approx(-g)) * u;
        }
    });
    assert_eq!(got, want);

    let (vocab, hidden) = (11, 9);
    let table = rng.f32s(vocab * hidden);
    let ids = [3u32, 10, 0, 3, 11];
    let mut emb = vec![f32::NAN; ids.len() * hidden];
    for_each_thread(ids.len() as u32, 4, |t, tid| {
        for i in block_stride(tid, 4, hidden) {
            let v = embedding_element(&ids, t as usize, i, hidden, vocab).map_or(0.0, |s| table[s]);
            emb[t as usize * hidden + i] = v;
        }
    });
    assert_eq!(&emb[hidden..2 * hidden], &table[10 * hidden..11 * hidden]);
    assert_eq!(&emb[3 * hidden..4 * hidden], &table[3 * hidden..4 * hidden]);
    assert!(emb[4 * hidden..].iter().all(|&v| v == 0.0));

    // rms_norm: one block per row, each element of a row visited by exactly one thread.
    for len in [1, 31, 576, 1000] {
        let mut hits = vec![0; len];
        for tid in 0..ROW_THREADS {
            block_stride(tid, ROW_THREADS, len).for_each(|i| hits[i] += 1);
        }
        assert!(hits.iter().all(|&h| h == 1));
    }
}

#[test]
fn split_plans_cover_every_visible_key_exactly_once() {
    for max_vis in [0u32, 1, 127, 128, 255, 256, 257, 1000, 8192, 100_000] {
        for plan in [
            SplitPlan::single(max_vis),
            SplitPlan::with_splits(max_vis, 3),
            SplitPlan::with_splits(max_vis, 1000),
            SplitPlan::for_batch(1, 9, max_vis),
            SplitPlan::for_batch(4, 32, max_vis),
            SplitPlan::for_batch(512, 9, max_vis),
            SplitPlan::per_row(1),
            SplitPlan::per_row(7),
            SplitPlan::per_row(MAX_SPLITS),
        ] {
            assert!(plan.num_splits >= 1 && plan.num_splits <= MAX_SPLITS);
            // A per-row plan (chunk 0) covers whatever each row sees; the others cover the
            // longest row with no split wholly past it.
            if plan.chunk != 0 {
                assert!(
                    plan.num_splits as u64 * plan.chunk as u64 >= max_vis as u64,
                    "{plan:?}"
                );
                assert!(
                    ((plan.num_splits - 1) * plan.chunk) < max_vis.max(1),
                    "{plan:?}"
                );
            }
            // A request whose last query sees `vis <= max_vis` keys, with and without a
            // sliding window: the splits cover the window's keys once, in order.
            for (vis, window) in [0, 1, max_vis / 2, max_vis]
                .into_iter()
                .flat_map(|v| [u32::MAX, 1, 100, 300].map(|w| (v, w)))
            {
                let q_indptr = [0u32, 1];
                let kv_indptr = [0u32, vis.max(1)];
                let first = vis.max(1).saturating_sub(window) as usize;
                let mut next = first;
                for split in 0..plan.num_splits {
                    let blk = attention_block(
                        &q_indptr,
                        &kv_indptr,
                        (4, 2),
                        (plan.chunk, window, plan.num_splits),
                        (0, 3, split),
                    );
                    assert_eq!(blk.kv_head, 1);
                    assert!(blk.key_lo <= blk.key_hi);
                    if blk.key_lo < blk.key_hi {
                        assert_eq!(blk.key_lo, next, "{plan:?} window {window}");
                        next = blk.key_hi;
                    }
                }
                assert_eq!(next, vis.max(1) as usize);
            }
        }
    }
    // A per-row plan spreads each row's own keys: 2,000 keys over 8 splits of 256, 100 keys
    // in the first split alone.
    let spans = |vis: u32| -> Vec<(usize, usize)> {
        (0..8)
            .map(|split| {
                let blk =
                    attention_block(&[0, 1], &[0, vis], (4, 2), (0, u32::MAX, 8), (0, 0, split));
                (blk.key_lo, blk.key_hi)
            })
            .filter(|(lo, hi)| lo < hi)
            .collect()
    };
    assert_eq!(spans(2000).len(), 8);
    assert_eq!(spans(2000)[0], (0, 256));
    assert_eq!(spans(2000)[7], (1792, 2000));
    assert_eq!(spans(100), vec![(0, 100)]);
    assert_eq!(row_chunk(300, 5000, 8), 300);
    // Small decode batches split; big batches and short contexts do not.
    assert!(SplitPlan::for_batch(2, 9, 8192).num_splits > 1);
    assert_eq!(SplitPlan::for_batch(64, 9, 8192).num_splits, 1);
    assert_eq!(SplitPlan::for_batch(2, 9, 200).num_splits, 1);
}

/// The twins above restate these lines of the CUDA sources; a change to one of them must
/// come with the matching change here (and the tests then check it).
#[test]
fn cuda_sources_still_use_the_twinned_index_math() {
    let acc = format!("#define ATTN_ACC_PER_THREAD {ATTN_ACC_PER_THREAD}");
    let warps = format!("#define GQA_WARPS {GQA_WARPS}");
    let group = format!("#define GQA_MAX_GROUP {GQA_MAX_GROUP}");
    let lanes = format!("#define GQA_ACC_PER_LANE {GQA_ACC_PER_LANE}");
    let anchors: [(&str, &str, &[&str]); 6] = [
        (
            "common.cuh",
            include_str!("../../cuda/common.cuh"),
            &[
                "return (size_t)blockIdx.x * blockDim.x + threadIdx.x;",
                "return (size_t)gridDim.x * blockDim.x;",
            ],
        ),
        (
            "kv_indices.cu",
            include_str!("../../cuda/kv_indices.cu"),
            &[
                "const size_t src = (size_t)req_pool_indices[b] * row_stride + start;",
                "for (unsigned i = threadIdx.x; i < len; i += blockDim.x) {",
                "kv_indices[out_lo + i] = req_to_token[src + i];",
            ],
        ),
        (
            "store_kv.cu",
            include_str!("../../cuda/store_kv.cu"),
            &[
                "const size_t token = idx / row_len;",
                "if (slot < 0 || (unsigned)slot >= num_slots) continue;",
                "const size_t dst = (size_t)slot * row_len + col;",
            ],
        ),
        (
            "rope.cu",
            include_str!("../../cuda/rope.cu"),
            &[
                "const size_t per_token = (size_t)n_heads * pairs;",
                "const unsigned a = neox ? i : 2u * i;",
                "const unsigned b = neox ? i + pairs : 2u * i + 1u;",
                "return RopeItem{token, i, base + a, base + b};",
                "const double angle = ((double)position / linear_factor) * inv_freq;",
                "*y0 = __fsub_rn(__fmul_rn(x0, cf), __fmul_rn(x1, sf));",
                "*y1 = __fadd_rn(__fmul_rn(x0, sf), __fmul_rn(x1, cf));",
                "const size_t pair_items = q_items + (size_t)n_tokens * kv_heads * pairs;",
                "const size_t base = (token * n_heads + head) * head_dim;",
                "k_cache[dst + (p.a - row_first)] = from_f32<T>(y0);",
                "if (col % head_dim >= 2u * pairs) k_cache[dst] = from_f32<T>(k[element]);",
            ],
        ),
        (
            "activation.cu",
            include_str!("../../cuda/activation.cu"),
            &[
                "const float g = gate_up[row * 2 * ffn + col];",
                "const float u = gate_up[row * 2 * ffn + ffn + col];",
            ],
        ),
        (
            "attention.cu",
            include_str!("../../cuda/attention.cu"),
            &[
                acc.as_str(),
                "if (q_indptr[mid] <= row) lo = mid; else hi = mid;",
                "const unsigned visible = kv_len - (q_len - 1u - (row - q_lo));",
                "const unsigned split_first = split_lo < visible ? split_lo : visible;",
                "const unsigned span = row_chunk(chunk, visible, splits);",
                "const unsigned split_lo = split * span;",
                "const unsigned key_hi = split_first + min(span, visible - split_first);",
                "const unsigned per_split = (visible + splits - 1u) / splits;",
                "const unsigned tiles = (per_split + 127u) / 128u;",
                "return tiles > 0u ? tiles * 128u : 1u;",
                "const unsigned window_lo = visible > window ? visible - window : 0u;",
                "const unsigned key_lo = max(split_first, min(window_lo, key_hi));",
                "const unsigned kv_head = head / (num_heads / num_kv_heads);",
                "const size_t part = ((size_t)row * num_heads + head) * splits + split;",
                "const size_t first = ((size_t)row * num_heads + head) * splits;",
                "const unsigned head0 = kv_head * group;",
                "for (unsigned tile = key_lo + warp * 32u; tile < key_hi; tile += GQA_WARPS * 32u) {",
                "const unsigned n = min(32u, key_hi - tile);",
                warps.as_str(),
                group.as_str(),
                lanes.as_str(),
            ],
        ),
    ];
    for (file, src, lines) in anchors {
        for line in lines {
            assert!(src.contains(line), "{file} no longer contains `{line}`");
        }
    }
}

#[test]
fn find_request_skips_empty_requests() {
    let q_indptr = [0u32, 2, 2, 3, 3, 7];
    let owners: Vec<usize> = (0..7).map(|r| find_request(&q_indptr, r)).collect();
    assert_eq!(owners, vec![0, 0, 2, 4, 4, 4, 4]);
    assert_eq!(find_request(&[0, 5], 4), 0);
}

/// One online-softmax state over keys: running max, sum and unnormalized output.
struct SoftmaxState {
    m: f32,
    l: f32,
    acc: Vec<f32>,
}

/// K and V rows of one layer as the twins read them.
struct KvRows<'a> {
    k: &'a [f32],
    v: &'a [f32],
    kv_row: usize,
    /// Offset of the KV head in a row.
    off: usize,
}

impl SoftmaxState {
    fn new(d: usize) -> Self {
        Self {
            m: f32::NEG_INFINITY,
            l: 0.0,
            acc: vec![0.0; d],
        }
    }

    /// One tile of keys (`None`: masked) against the pre-scaled query `qv`, as one step of
    /// the kernels' online softmax.
    fn absorb(&mut self, qv: &[f32], slots: &[Option<usize>], kv: &KvRows<'_>) {
        let (d, row, off) = (qv.len(), kv.kv_row, kv.off);
        let scores: Vec<f32> = slots
            .iter()
            .map(|s| {
                s.map_or(f32::NEG_INFINITY, |s| {
                    (0..d).map(|i| qv[i] * kv.k[s * row + off + i]).sum()
                })
            })
            .collect();
        let m_new = scores.iter().fold(self.m, |a, &b| a.max(b));
        if m_new == f32::NEG_INFINITY {
            return;
        }
        let p: Vec<f32> = scores
            .iter()
            .map(|&s| {
                if s == f32::NEG_INFINITY {
                    0.0
                } else {
                    (s - m_new).exp()
                }
            })
            .collect();
        let corr = (self.m - m_new).exp();
        self.l = self.l * corr + p.iter().sum::<f32>();
        for (i, a) in self.acc.iter_mut().enumerate() {
            *a *= corr;
            for (t, s) in slots.iter().enumerate() {
                if let Some(s) = s {
                    *a += p[t] * kv.v[s * row + off + i];
                }
            }
        }
        self.m = m_new;
    }
}

/// The slots of keys `first..first + n` of a block (`None` outside the pool: masked).
fn tile_slots(
    batch: &PagedBatch<'_>,
    kv_lo: usize,
    first: usize,
    n: usize,
    num_slots: usize,
) -> Vec<Option<usize>> {
    (0..n)
        .map(|t| {
            let s = batch.kv_indices[kv_lo + first + t];
            (s >= 0 && (s as usize) < num_slots).then_some(s as usize)
        })
        .collect()
}

/// Merges the splits' partial states of every (row, head) into `out` (`attention_merge`).
fn merge_splits(
    part_ml: &[(f32, f32)],
    part_acc: &[f32],
    out: &mut [f32],
    d: usize,
    splits: usize,
) {
    for (o, row_head) in out.chunks_exact_mut(d).zip(0..) {
        let first = row_head * splits;
        merge_partials(
            &part_ml[first..first + splits],
            &part_acc[first * d..(first + splits) * d],
            o,
        );
    }
}

/// Runs `attention_partial` and `attention_merge` block by block on the CPU: the twins'
/// indices, tiles of `ATTN_THREADS` keys and the kernel's online softmax.
fn simulate_attention(
    shape: &AttentionShape,
    window: u32,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    plan: SplitPlan,
) -> Vec<f32> {
    let (heads, d) = (shape.num_heads, shape.head_dim);
    let kv_row = shape.num_kv_heads * d;
    let num_slots = k.len() / kv_row;
    let rows = *batch.q_indptr.last().unwrap() as usize;
    let splits = plan.num_splits as usize;
    let scale = 1.0 / (d as f32).sqrt();
    let mut part_acc = vec![0.0f32; rows * heads * splits * d];
    let mut part_ml = vec![(0.0f32, 0.0f32); rows * heads * splits];
    let mut out = vec![0.0f32; rows * heads * d];
    for row in 0..rows {
        for head in 0..heads {
            for split in 0..splits {
                let blk = attention_block(
                    batch.q_indptr,
                    batch.kv_indptr,
                    (heads as u32, shape.num_kv_heads as u32),
                    (plan.chunk, window, plan.num_splits),
                    (row as u32, head as u32, split as u32),
                );
                let qv: Vec<f32> = q[(row * heads + head) * d..][..d]
                    .iter()
                    .map(|x| x * scale)
                    .collect();
                let kv = KvRows {
                    k,
                    v,
                    kv_row,
                    off: blk.kv_head * d,
                };
                let mut st = SoftmaxState::new(d);
                for tile in (blk.key_lo..blk.key_hi).step_by(ATTN_THREADS as usize) {
                    let n = (ATTN_THREADS as usize).min(blk.key_hi - tile);
                    st.absorb(&qv, &tile_slots(batch, blk.kv_lo, tile, n, num_slots), &kv);
                }
                if splits == 1 {
                    let inv = if st.l > 0.0 { 1.0 / st.l } else { 0.0 };
                    for (o, a) in out[(row * heads + head) * d..][..d].iter_mut().zip(&st.acc) {
                        *o = a * inv;
                    }
                } else {
                    let p = part_index(row, head, split, heads, splits);
                    part_acc[p * d..][..d].copy_from_slice(&st.acc);
                    part_ml[p] = (st.m, st.l);
                }
            }
        }
    }
    if splits > 1 {
        merge_splits(&part_ml, &part_acc, &mut out, d, splits);
    }
    out
}

/// Runs `attention_gqa` (and `attention_merge`) block by block and warp by warp on the CPU:
/// the twins' indices, each warp's 32-key tiles, the per-warp online softmax and the merge of
/// the warps' states.
fn simulate_gqa_attention(
    shape: &AttentionShape,
    window: u32,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    plan: SplitPlan,
) -> Vec<f32> {
    let (heads, kv_heads, d) = (shape.num_heads, shape.num_kv_heads, shape.head_dim);
    assert!(gqa_fits(heads, kv_heads, d));
    let group = heads / kv_heads;
    let kv_row = kv_heads * d;
    let num_slots = k.len() / kv_row;
    let rows = *batch.q_indptr.last().unwrap() as usize;
    let splits = plan.num_splits as usize;
    let scale = 1.0 / (d as f32).sqrt();
    let mut part_acc = vec![0.0f32; rows * heads * splits * d];
    let mut part_ml = vec![(0.0f32, 0.0f32); rows * heads * splits];
    let mut out = vec![0.0f32; rows * heads * d];
    for row in 0..rows {
        for kv_head in 0..kv_heads {
            let head0 = kv_head * group;
            let qvs: Vec<Vec<f32>> = (0..group)
                .map(|g| {
                    q[(row * heads + head0 + g) * d..][..d]
                        .iter()
                        .map(|x| x * scale)
                        .collect()
                })
                .collect();
            for split in 0..splits {
                let blk = attention_block(
                    batch.q_indptr,
                    batch.kv_indptr,
                    (heads as u32, kv_heads as u32),
                    (plan.chunk, window, plan.num_splits),
                    (row as u32, head0 as u32, split as u32),
                );
                assert_eq!(blk.kv_head, kv_head);
                let kv = KvRows {
                    k,
                    v,
                    kv_row,
                    off: kv_head * d,
                };
                // warps[w][g]
                let warps: Vec<Vec<SoftmaxState>> = (0..GQA_WARPS)
                    .map(|warp| {
                        let mut states: Vec<SoftmaxState> =
                            (0..group).map(|_| SoftmaxState::new(d)).collect();
                        for (tile, n) in gqa_warp_tiles(blk.key_lo, blk.key_hi, warp) {
                            let slots = tile_slots(batch, blk.kv_lo, tile, n, num_slots);
                            for (st, qv) in states.iter_mut().zip(&qvs) {
                                st.absorb(qv, &slots, &kv);
                            }
                        }
                        states
                    })
                    .collect();
                for g in 0..group {
                    let ml: Vec<(f32, f32)> = warps.iter().map(|w| (w[g].m, w[g].l)).collect();
                    let acc: Vec<f32> = warps.iter().flat_map(|w| w[g].acc.clone()).collect();
                    let head = head0 + g;
                    if splits == 1 {
                        merge_partials(&ml, &acc, &mut out[(row * heads + head) * d..][..d]);
                    } else {
                        let p = part_index(row, head, split, heads, splits);
                        part_ml[p] = combine_states(&ml, &acc, &mut part_acc[p * d..][..d]);
                    }
                }
            }
        }
    }
    if splits > 1 {
        merge_splits(&part_ml, &part_acc, &mut out, d, splits);
    }
    out
}

/// CSR metadata for requests of `q_lens` queries over `kv_lens` keys in distinct random slots.
fn csr(
    rng: &mut Rng,
    q_lens: &[u32],
    kv_lens: &[u32],
    num_slots: usize,
) -> (Vec<u32>, Vec<u32>, Vec<SlotId>) {
    let mut q_indptr = vec![0u32];
    let mut kv_indptr = vec![0u32];
    for (ql, kl) in q_lens.iter().zip(kv_lens) {
        q_indptr.push(q_indptr.last().unwrap() + ql);
        kv_indptr.push(kv_indptr.last().unwrap() + kl);
    }
    let kv_indices = rng.distinct(*kv_indptr.last().unwrap() as usize, num_slots);
    (q_indptr, kv_indptr, kv_indices)
}

#[test]
fn gqa_warp_tiles_cover_a_block_range_once() {
    for (lo, hi) in [
        (0usize, 0usize),
        (0, 1),
        (5, 37),
        (0, 128),
        (100, 1000),
        (256, 513),
    ] {
        let mut hits = vec![0u8; hi];
        for warp in 0..GQA_WARPS {
            for (tile, n) in gqa_warp_tiles(lo, hi, warp) {
                assert!((1..=32).contains(&n));
                for h in &mut hits[tile..tile + n] {
                    *h += 1;
                }
            }
        }
        assert!(hits[..lo].iter().all(|&h| h == 0));
        assert!(hits[lo..].iter().all(|&h| h == 1), "{lo}..{hi}");
    }
}

#[test]
fn simulated_attention_matches_the_cpu_kernel_with_and_without_split_k() {
    let mut rng = Rng(21);
    let shape = AttentionShape {
        num_heads: 6,
        num_kv_heads: 2,
        head_dim: 8,
    };
    let (num_slots, kv_row) = (1200, 16);
    let (k, v) = (rng.f32s(num_slots * kv_row), rng.f32s(num_slots * kv_row));
    // A decode row over 700 keys, an empty request, an extend of 5 over a prefix of 300,
    // and a prefill of 3.
    let q_lens = [1u32, 0, 5, 3];
    let kv_lens = [700u32, 0, 305, 3];
    let (q_indptr, kv_indptr, kv_indices) = csr(&mut rng, &q_lens, &kv_lens, num_slots);
    let batch = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let rows = *q_indptr.last().unwrap() as usize;
    let q = rng.f32s(rows * 48);
    let mut want = vec![0.0; q.len()];
    let (kc, vc) = (LayerKv::F32(k.clone()), LayerKv::F32(v.clone()));
    paged_attention(&shape, &batch, &q, &kc, &vc, &mut want).unwrap();
    let max_vis = max_visible(&q_indptr, &kv_indptr);
    assert_eq!(max_vis, 700);
    for plan in [
        SplitPlan::single(max_vis),
        SplitPlan::with_splits(max_vis, 3),
        SplitPlan::with_splits(max_vis, 64),
        SplitPlan::for_batch(rows, shape.num_heads, max_vis),
        SplitPlan::for_batch(rows, shape.num_kv_heads, max_vis),
    ] {
        let per_head = simulate_attention(&shape, u32::MAX, &batch, &q, &k, &v, plan);
        let grouped = simulate_gqa_attention(&shape, u32::MAX, &batch, &q, &k, &v, plan);
        for (got, kernel) in [(per_head, "attention_partial"), (grouped, "attention_gqa")] {
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() < 1e-5, "{kernel} {plan:?}: {g} vs {w}");
            }
        }
    }
}

#[test]
fn simulated_windowed_attention_matches_the_cpu_kernel_with_and_without_split_k() {
    let mut rng = Rng(22);
    let shape = AttentionShape {
        num_heads: 4,
        num_kv_heads: 2,
        head_dim: 8,
    };
    let (num_slots, kv_row) = (1500, 16);
    let (k, v) = (rng.f32s(num_slots * kv_row), rng.f32s(num_slots * kv_row));
    // A decode row over 900 keys, an extend of 40 over a prefix of 260 (its rows' windows
    // start at different keys), and a prefill of 7 shorter than the window.
    let q_lens = [1u32, 40, 7];
    let kv_lens = [900u32, 300, 7];
    let (q_indptr, kv_indptr, kv_indices) = csr(&mut rng, &q_lens, &kv_lens, num_slots);
    let batch = PagedBatch {
        q_indptr: &q_indptr,
        kv_indptr: &kv_indptr,
        kv_indices: &kv_indices,
    };
    let rows = *q_indptr.last().unwrap() as usize;
    let q = rng.f32s(rows * 32);
    let (kc, vc) = (LayerKv::F32(k.clone()), LayerKv::F32(v.clone()));
    let max_vis = max_visible(&q_indptr, &kv_indptr);
    for window in [1usize, 30, 129, 512] {
        let mut want = vec![0.0; q.len()];
        crate::attention::paged_attention_windowed(
            &shape,
            Some(window),
            &batch,
            &q,
            &kc,
            &vc,
            &mut want,
        )
        .unwrap();
        for plan in [
            SplitPlan::single(max_vis),
            SplitPlan::with_splits(max_vis, 4),
            SplitPlan::for_batch(rows, shape.num_kv_heads, max_vis),
        ] {
            let w = window as u32;
            let per_head = simulate_attention(&shape, w, &batch, &q, &k, &v, plan);
            let grouped = simulate_gqa_attention(&shape, w, &batch, &q, &k, &v, plan);
            for (got, kernel) in [(per_head, "attention_partial"), (grouped, "attention_gqa")] {
                for (g, want) in got.iter().zip(&want) {
                    assert!(
                        (g - want).abs() < 1e-5,
                        "{kernel} window {window} {plan:?}: {g} vs {want}"
                    );
                }
            }
        }
    }
}
