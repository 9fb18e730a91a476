//! Paged attention on the CPU over FlashInfer's CSR layout: the queries of request `b` are
//! rows `q_indptr[b]..q_indptr[b+1]`, its keys and values are the pool slots
//! `kv_indices[kv_indptr[b]..kv_indptr[b+1]]` in position order. Query `i` of a request with
//! `q_len` queries and `kv_len` keys sees the first `kv_len - (q_len - 1 - i)` keys (causal,
//! aligned at the end), so one kernel serves extend, decode and mixed batches.
//!
//! Every query's result is computed by the same sequence of operations whatever else is in
//! the batch (scores in key order, a fixed softmax reduction, values accumulated in key
//! order): a request gives bitwise the same output alone or batched.

use crate::vector::{axpy, dot};
use crate::KernelError;
use pools::{LayerKv, SlotId};
use rayon::prelude::*;

/// Head layout of the attention layer (grouped-query when `num_kv_heads < num_heads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionShape {
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
}

impl AttentionShape {
    fn q_row(&self) -> usize {
        self.num_heads * self.head_dim
    }

    fn kv_row(&self) -> usize {
        self.num_kv_heads * self.head_dim
    }
}

/// The batch's CSR metadata.
#[derive(Clone, Copy, Debug)]
pub struct PagedBatch<'a> {
    pub q_indptr: &'a [u32],
    pub kv_indptr: &'a [u32],
    pub kv_indices: &'a [SlotId],
}

/// Queries handled together: each K/V row is read once per block instead of once per query.
const QUERY_BLOCK: usize = 16;

struct Task {
    request: usize,
    /// Query rows `first..last` of the batch.
    first: usize,
    last: usize,
}

/// `out[t] = softmax(q[t] K^T / sqrt(d)) V` for every query row `t` (`[tokens, heads * d]`).
pub fn paged_attention(
    shape: &AttentionShape,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    v_cache: &LayerKv,
    out: &mut [f32],
) -> Result<(), KernelError> {
    validate(shape, batch, q, k_cache, out)?;
    let q_row = shape.q_row();
    let mut tasks = Vec::new();
    for b in 0..batch.q_indptr.len() - 1 {
        let (lo, hi) = (batch.q_indptr[b] as usize, batch.q_indptr[b + 1] as usize);
        let mut first = lo;
        while first < hi {
            let last = (first + QUERY_BLOCK).min(hi);
            tasks.push(Task {
                request: b,
                first,
                last,
            });
            first = last;
        }
    }
    // Tasks cover the query rows in order, so `out` splits into matching disjoint chunks.
    let mut chunks = Vec::with_capacity(tasks.len());
    let mut rest = out;
    for t in &tasks {
        let (head, tail) = rest.split_at_mut((t.last - t.first) * q_row);
        chunks.push(head);
        rest = tail;
    }
    tasks
        .par_iter()
        .zip(chunks.into_par_iter())
        .for_each(|(task, out_block)| {
            attend_block(shape, batch, task, q, k_cache, v_cache, out_block)
        });
    Ok(())
}

fn validate(
    shape: &AttentionShape,
    batch: &PagedBatch<'_>,
    q: &[f32],
    k_cache: &LayerKv,
    out: &[f32],
) -> Result<(), KernelError> {
    let bad = |m: String| Err(KernelError::Shape(format!("paged_attention: {m}")));
    if shape.num_kv_heads == 0
        || shape.head_dim == 0
        || !shape.num_heads.is_multiple_of(shape.num_kv_heads)
    {
        return bad(format!("{shape:?}"));
    }
    let n = batch.q_indptr.len();
    if n == 0 || batch.kv_indptr.len() != n {
        return bad(format!(
            "q_indptr {n} vs kv_indptr {} entries",
            batch.kv_indptr.len()
        ));
    }
    let tokens = batch.q_indptr[n - 1] as usize;
    if q.len() != tokens * shape.q_row() || out.len() != q.len() {
        return bad(format!(
            "{tokens} queries but q {} / out {} values",
            q.len(),
            out.len()
        ));
    }
    if batch.kv_indptr[n - 1] as usize != batch.kv_indices.len() {
        return bad("kv_indptr does not end at kv_indices.len()".into());
    }
    for b in 0..n - 1 {
        let q_len = batch.q_indptr[b + 1].checked_sub(batch.q_indptr[b]);
        let kv_len = batch.kv_indptr[b + 1].checked_sub(batch.kv_indptr[b]);
        match (q_len, kv_len) {
            (Some(ql), Some(kl)) if ql <= kl => {}
            _ => {
                return bad(format!(
                    "request {b}: query/KV ranges not monotone or q_len > kv_len"
                ))
            }
        }
    }
    let slots = cache_slots(k_cache, shape.kv_row());
    if let Some(s) = batch
        .kv_indices
        .iter()
        .find(|&&s| s < 0 || s as usize >= slots)
    {
        return bad(format!("kv index {s} outside the pool of {slots} slots"));
    }
    Ok(())
}

fn cache_slots(cache: &LayerKv, row: usize) -> usize {
    let len = match cache {
        LayerKv::F32(b) => b.len(),
        LayerKv::F16(b) => b.len(),
        LayerKv::Bf16(b) => b.len(),
    };
    len / row
}

fn attend_block(
    shape: &AttentionShape,
    batch: &PagedBatch<'_>,
    task: &Task,
    q: &[f32],
    k_cache: &LayerKv,
    v_cache: &LayerKv,
    out: &mut [f32],
) {
    let (heads, d) = (shape.num_heads, shape.head_dim);
    let group = heads / shape.num_kv_heads;
    let (q_row, kv_row) = (shape.q_row(), shape.kv_row());
    let b = task.request;
    let q_start = batch.q_indptr[b] as usize;
    let q_len = batch.q_indptr[b + 1] as usize - q_start;
    let kv = &batch.kv_indices[batch.kv_indptr[b] as usize..batch.kv_indptr[b + 1] as usize];
    let nq = task.last - task.first;
    // Keys visible to each query of the block (causal, aligned at the end).
    let visible: Vec<usize> = (task.first..task.last)
        .map(|t| kv.len() - (q_len - 1 - (t - q_start)))
        .collect();
    let max_keys = visible.iter().copied().max().unwrap_or(0);
    let scale = 1.0 / (d as f32).sqrt();
    let queries = &q[task.first * q_row..task.last * q_row];

    let mut scores = vec![0.0f32; nq * heads * max_keys];
    let mut row = vec![0.0f32; kv_row];
    for (j, &slot) in kv[..max_keys].iter().enumerate() {
        k_cache.read_row(kv_row, slot, &mut row);
        for (qi, &vis) in visible.iter().enumerate() {
            if j >= vis {
                continue;
            }
            for h in 0..heads {
                let qh = &queries[qi * q_row + h * d..][..d];
                let kh = &row[(h / group) * d..][..d];
                scores[(qi * heads + h) * max_keys + j] = dot(qh, kh) * scale;
            }
        }
    }
    for (qi, &vis) in visible.iter().enumerate() {
        for h in 0..heads {
            softmax_in_place(&mut scores[(qi * heads + h) * max_keys..][..vis]);
        }
    }
    out.fill(0.0);
    for (j, &slot) in kv[..max_keys].iter().enumerate() {
        v_cache.read_row(kv_row, slot, &mut row);
        for (qi, &vis) in visible.iter().enumerate() {
            if j >= vis {
                continue;
            }
            for h in 0..heads {
                let p = scores[(qi * heads + h) * max_keys + j];
                axpy(
                    p,
                    &row[(h / group) * d..][..d],
                    &mut out[qi * q_row + h * d..][..d],
                );
            }
        }
    }
}

/// Numerically stable softmax with a sequential (fixed-order) sum.
fn softmax_in_place(x: &mut [f32]) {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f32;
    for v in x.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    let inv = 1.0 / sum;
    x.iter_mut().for_each(|v| *v *= inv);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Straightforward reference: dense causal attention over one request's gathered K/V.
    fn reference(
        shape: &AttentionShape,
        q: &[f32],
        k: &[Vec<f32>],
        v: &[Vec<f32>],
        q_len: usize,
    ) -> Vec<f32> {
        let (h, d) = (shape.num_heads, shape.head_dim);
        let group = h / shape.num_kv_heads;
        let mut out = vec![0.0f32; q_len * h * d];
        for i in 0..q_len {
            let vis = k.len() - (q_len - 1 - i);
            for head in 0..h {
                let g = head / group;
                let qv = &q[(i * h + head) * d..][..d];
                let s: Vec<f64> = (0..vis)
                    .map(|j| {
                        qv.iter()
                            .zip(&k[j][g * d..][..d])
                            .map(|(a, b)| *a as f64 * *b as f64)
                            .sum::<f64>()
                            / (d as f64).sqrt()
                    })
                    .collect();
                let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = s.iter().map(|x| (x - m).exp()).collect();
                let z: f64 = e.iter().sum();
                for j in 0..vis {
                    for t in 0..d {
                        out[(i * h + head) * d + t] += (e[j] / z * v[j][g * d + t] as f64) as f32;
                    }
                }
            }
        }
        out
    }

    fn pseudo(seed: u32, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| {
                (((i as u32).wrapping_mul(2654435761) ^ seed.wrapping_mul(40503)) % 2000) as f32
                    / 1000.0
                    - 1.0
            })
            .collect()
    }

    #[test]
    fn extend_and_decode_match_the_dense_reference_and_each_other() {
        let shape = AttentionShape {
            num_heads: 6,
            num_kv_heads: 2,
            head_dim: 8,
        };
        let kv_row = 16;
        let slots = 64;
        let kbuf = pseudo(1, slots * kv_row);
        let vbuf = pseudo(2, slots * kv_row);
        let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
        // Request 0: 20 keys at scattered slots, 20 queries (a full prefill spanning 2 blocks);
        // request 1: 5 keys, 2 queries (extend over a cached prefix of 3).
        let kv0: Vec<SlotId> = (0..20).map(|i| (i * 3 + 1) % 64).collect();
        let kv1: Vec<SlotId> = vec![40, 2, 33, 7, 50];
        let q = pseudo(3, 22 * 48);
        let mut kv_indices = kv0.clone();
        kv_indices.extend(&kv1);
        let batch = PagedBatch {
            q_indptr: &[0, 20, 22],
            kv_indptr: &[0, 20, 25],
            kv_indices: &kv_indices,
        };
        let mut out = vec![0.0; q.len()];
        paged_attention(&shape, &batch, &q, &kc, &vc, &mut out).unwrap();
        let rows = |idx: &[SlotId], buf: &[f32]| -> Vec<Vec<f32>> {
            idx.iter()
                .map(|&s| buf[s as usize * kv_row..][..kv_row].to_vec())
                .collect()
        };
        let want0 = reference(
            &shape,
            &q[..20 * 48],
            &rows(&kv0, &kbuf),
            &rows(&kv0, &vbuf),
            20,
        );
        let want1 = reference(
            &shape,
            &q[20 * 48..],
            &rows(&kv1, &kbuf),
            &rows(&kv1, &vbuf),
            2,
        );
        for (got, want) in out.iter().zip(want0.iter().chain(&want1)) {
            assert!((got - want).abs() < 1e-5, "{got} vs {want}");
        }
        // The last query of request 0, alone as a decode step, is bitwise the same.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, 20],
            kv_indices: &kv0,
        };
        let mut one = vec![0.0; 48];
        paged_attention(&shape, &solo, &q[19 * 48..20 * 48], &kc, &vc, &mut one).unwrap();
        assert_eq!(one, out[19 * 48..20 * 48]);
    }

    #[test]
    fn rejects_inconsistent_metadata() {
        let shape = AttentionShape {
            num_heads: 2,
            num_kv_heads: 1,
            head_dim: 4,
        };
        let c = LayerKv::F32(vec![0.0; 16]);
        let q = vec![0.0; 16];
        let mut out = vec![0.0; 16];
        let more_q_than_kv = PagedBatch {
            q_indptr: &[0, 2],
            kv_indptr: &[0, 1],
            kv_indices: &[1],
        };
        assert!(paged_attention(&shape, &more_q_than_kv, &q, &c, &c, &mut out).is_err());
        let out_of_pool = PagedBatch {
            q_indptr: &[0, 2],
            kv_indptr: &[0, 2],
            kv_indices: &[1, 4],
        };
        assert!(paged_attention(&shape, &out_of_pool, &q, &c, &c, &mut out).is_err());
    }
}
