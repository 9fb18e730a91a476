//! The index twins run as CPU loops over every block and thread, against the CPU kernels.
use super::*;
use crate::kv_indices::{create_kv_indices, KvGather};
use crate::rope::{Rope, RopeStyle};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv};

#[path = "../../tests/support/xorshift.rs"]
pub(super) mod xorshift;

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
        values_in_keys: false,
        other_rows: None,
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

/// Q, K and V of `tokens` rows, laid out as one GEMM's `[tokens, q | k | v]` output
/// (`merged`) or as three buffers: the buffer and each part's first index and row stride.
struct QkvLayoutTwin {
    buf: Vec<f32>,
    q: (usize, usize),
    k: (usize, usize),
    v: (usize, usize),
}

impl QkvLayoutTwin {
    fn new(q: &[f32], k: &[f32], v: &[f32], tokens: usize, merged: bool) -> Self {
        let (q_len, kv_len) = (q.len() / tokens, k.len() / tokens);
        if !merged {
            let buf = [q, k, v].concat();
            let (k0, v0) = (q.len(), q.len() + k.len());
            return Self {
                buf,
                q: (0, q_len),
                k: (k0, kv_len),
                v: (v0, kv_len),
            };
        }
        let width = q_len + 2 * kv_len;
        let mut buf = Vec::with_capacity(tokens * width);
        for t in 0..tokens {
            buf.extend_from_slice(&q[t * q_len..(t + 1) * q_len]);
            buf.extend_from_slice(&k[t * kv_len..(t + 1) * kv_len]);
            buf.extend_from_slice(&v[t * kv_len..(t + 1) * kv_len]);
        }
        Self {
            buf,
            q: (0, width),
            k: (q_len, width),
            v: (q_len + kv_len, width),
        }
    }

    fn at(&self, (first, stride): (usize, usize), token: usize, offset: usize) -> usize {
        first + token * stride + offset
    }
}

/// The fused RoPE + K/V store's work items, run on the CPU with the kernel's arithmetic over
/// Q, K and V in one GEMM's merged rows (Q rotated into another buffer) and in three buffers
/// (Q rotated in place), give what RoPE on q and k followed by the pool's `set_kv` gives,
/// skipping padding slots.
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
        values_in_keys: false,
        other_rows: None,
    };
    let (row_len, q_len) = (layout.row_len(), heads * head_dim);
    for ((style, rot_dim), merged) in [
        (RopeStyle::Normal, 16),
        (RopeStyle::Neox, 16),
        (RopeStyle::Neox, 10),
        (RopeStyle::Normal, 10),
        (RopeStyle::Normal, 0),
    ]
    .into_iter()
    .flat_map(|rope| [(rope, true), (rope, false)])
    {
        let what = format!("{style:?} {rot_dim} merged {merged}");
        let (q, k, v) = (
            rng.f32s(tokens * q_len),
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
            copy_q: merged,
        };
        let input = QkvLayoutTwin::new(&q, &k, &v, tokens, merged);
        // Merged: Q goes to its own `[tokens, q_len]` buffer; else back in place.
        let mut buf = input.buf.clone();
        let mut q_out = vec![f32::NAN; tokens * q_len];
        let (mut k_cache, mut v_cache) = (
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
                let mut write_q = |token: usize, offset: usize, value: f32| {
                    if merged {
                        q_out[token * q_len + offset] = value;
                    } else {
                        buf[input.at(input.q, token, offset)] = value;
                    }
                };
                let read = |part, token, offset| input.buf[input.at(part, token, offset)];
                match rope_store_item(idx, &shape) {
                    RopeStoreItem::Q(p) => {
                        let (c, s) = rotation(p.token, p.pair);
                        let (x0, x1) = (read(input.q, p.token, p.a), read(input.q, p.token, p.b));
                        write_q(p.token, p.a, x0 * c - x1 * s);
                        write_q(p.token, p.b, x0 * s + x1 * c);
                    }
                    RopeStoreItem::K(p) => {
                        let Ok(slot) = usize::try_from(slots[p.token]) else {
                            continue;
                        };
                        let (c, s) = rotation(p.token, p.pair);
                        let (x0, x1) = (read(input.k, p.token, p.a), read(input.k, p.token, p.b));
                        k_cache[slot * row_len + p.a] = x0 * c - x1 * s;
                        k_cache[slot * row_len + p.b] = x0 * s + x1 * c;
                    }
                    RopeStoreItem::Element {
                        token,
                        col,
                        store_k,
                    } => {
                        let Ok(slot) = usize::try_from(slots[token]) else {
                            continue;
                        };
                        v_cache[slot * row_len + col] = read(input.v, token, col);
                        if store_k {
                            k_cache[slot * row_len + col] = read(input.k, token, col);
                        }
                    }
                    RopeStoreItem::QElement { token, col } => {
                        assert!(merged, "{what}: Q copied while rotated in place");
                        assert!(col % head_dim >= rot_dim, "{what}: a rotated dim copied");
                        write_q(token, col, read(input.q, token, col));
                    }
                }
            }
        });
        assert!(visits.iter().all(|&n| n == 1), "{what}");
        let got_q = if merged {
            q_out
        } else {
            buf[..tokens * q_len].to_vec()
        };
        assert_eq!(got_q, want_q, "{what}: q");
        let (LayerKv::F32(wk), LayerKv::F32(wv)) = want.layer(0).unwrap() else {
            unreachable!()
        };
        assert_eq!(&k_cache, wk, "{what}: K pool");
        assert_eq!(&v_cache, wv, "{what}: V pool");
    }
}

/// `qk_norm_inplace`'s blocks, run on the CPU over merged rows and over separate Q and K
/// buffers, normalize every Q and K head once with its own weight, as the CPU's RMSNorm
/// over one head per row does, and touch nothing else (V stays as it was).
#[test]
fn qk_norm_rows_normalize_each_head_once() {
    let mut rng = Rng(31);
    let (tokens, heads, kv_heads, head_dim) = (4, 6, 2, 8);
    let (q_len, kv_len) = (heads * head_dim, kv_heads * head_dim);
    let (q, k, v) = (
        rng.f32s(tokens * q_len),
        rng.f32s(tokens * kv_len),
        rng.f32s(tokens * kv_len),
    );
    let (q_weight, k_weight) = (rng.f32s(head_dim), rng.f32s(head_dim));
    let (mut want_q, mut want_k) = (vec![0.0; q.len()], vec![0.0; k.len()]);
    crate::norm::rms_norm(&q, &q_weight, 1e-6, &mut want_q).unwrap();
    crate::norm::rms_norm(&k, &k_weight, 1e-6, &mut want_k).unwrap();
    for merged in [true, false] {
        let layout = QkvLayoutTwin::new(&q, &k, &v, tokens, merged);
        let mut buf = layout.buf.clone();
        let mut visits = vec![0u32; buf.len()];
        for block in 0..tokens * (heads + kv_heads) {
            let row = qk_norm_row(block, heads, kv_heads, head_dim);
            let (part, weight) = if row.is_q {
                (layout.q, &q_weight)
            } else {
                (layout.k, &k_weight)
            };
            let first = layout.at(part, row.token, row.offset);
            let head = &mut buf[first..first + head_dim];
            let mut normed = vec![0.0; head_dim];
            crate::norm::rms_norm(head, weight, 1e-6, &mut normed).unwrap();
            head.copy_from_slice(&normed);
            for n in &mut visits[first..first + head_dim] {
                *n += 1;
            }
        }
        let gather = |part: (usize, usize), width: usize| -> Vec<f32> {
            (0..tokens)
                .flat_map(|t| {
                    let first = layout.at(part, t, 0);
                    buf[first..first + width].to_vec()
                })
                .collect()
        };
        assert_eq!(gather(layout.q, q_len), want_q, "merged {merged}: Q");
        assert_eq!(gather(layout.k, kv_len), want_k, "merged {merged}: K");
        assert_eq!(gather(layout.v, kv_len), v, "merged {merged}: V");
        let once = (0..tokens).all(|t| {
            [(layout.q, q_len), (layout.k, kv_len)]
                .iter()
                .all(|&(part, width)| {
                    let first = layout.at(part, t, 0);
                    visits[first..first + width].iter().all(|&n| n == 1)
                })
        });
        assert!(once, "merged {merged}: a head normalized twice or never");
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
fn cuda_sources_still_use_the_twinned_index_math() {
    let acc = format!("#define ATTN_ACC_PER_THREAD {ATTN_ACC_PER_THREAD}");
    let warps = format!("#define GQA_WARPS {GQA_WARPS}");
    let group = format!("#define GQA_MAX_GROUP {GQA_MAX_GROUP}");
    let lanes = format!("#define GQA_ACC_PER_LANE {GQA_ACC_PER_LANE}");
    let anchors: [(&str, &str, &[&str]); 7] = [
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
                "const size_t row_first = p.token * n_heads * head_dim;",
                "const size_t a = p.a - row_first, b = p.b - row_first;",
                "const size_t total = kv_end + (copy_q ? (size_t)n_tokens * heads * unrotated : 0);",
                "const size_t src = token * kv_stride + col;",
                "if (col % head_dim >= 2u * pairs) k_cache[dst] = from_f32<T>(k[src]);",
                "const size_t head_row = element / unrotated;  // token * heads + head",
                "const size_t col = (head_row - token * heads) * head_dim + 2u * pairs +",
                "q_out[token * q_out_stride + col] = q[token * q_stride + col];",
            ],
        ),
        (
            "norm.cu",
            include_str!("../../cuda/norm.cu"),
            &[
                "const size_t token = blockIdx.x / per_token;",
                "const bool is_q = head < heads;",
                "float* row = is_q ? q + token * q_stride + (size_t)head * head_dim",
                ": k + token * k_stride + (size_t)(head - heads) * head_dim;",
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
