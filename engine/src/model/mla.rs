//! Multi-head latent attention (DeepSeek V2/V3, Kimi K2), computed as SGLang computes it and
//! llama.cpp does for files with split tensors, the projections absorbed (older files too,
//! which llama.cpp runs decompressed): a token's keys and values are one compressed
//! latent row (`kv_lora_rank` values, RMS-normed) and one rotated row (`rope` values) that
//! every head shares, so the pool keeps `kv_lora_rank + rope` values per token and layer
//! where plain attention would keep `2 * heads * head_dim`, and attention runs as one K/V
//! head ([`pools::KvLayout::values_in_keys`]).
//!
//! Each head's query is `[q_nope W_kb, q_pe]`, its "no-position" part carried into the
//! latent space by the head's `attn_k_b`, so `q . k` over the latent row equals the score
//! against the decompressed key. The head's output is a mix of latent rows; its first
//! `kv_lora_rank` values, through the head's `attn_v_b`, are the head's value output. Files
//! from before the split (`attn_kv_b`) are split when loaded.

use super::weights::{checked, tensor, vector};
use super::{ModelConfig, ModelError};
use crate::gguf::GgufFile;
use kernels::matmul::QMatrix;
use kernels::norm::rms_norm;
use kernels::quant::{dequantize, GgmlType};
use kernels::rope::{Rope, RopeAngles};

/// The sizes of a latent attention layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MlaPlan {
    /// Queries pass a low-rank bottleneck of this size (`attn_q_a`, `attn_q_a_norm`,
    /// `attn_q_b`); `None`: one projection (`attn_q`).
    pub q_lora_rank: Option<usize>,
    /// The latent row every head's keys and values are made from.
    pub kv_lora_rank: usize,
    /// Each head's query/key dims without position.
    pub nope: usize,
    /// Each head's rotated dims (the key's are shared by the heads).
    pub rope: usize,
    /// Each head's value size.
    pub v_dim: usize,
    /// The file holds `attn_k_b` and `attn_v_b` per head; `false`: the older `attn_kv_b`.
    pub split_kv_b: bool,
}

impl MlaPlan {
    /// Values a token keeps per layer: the latent row, then the rotated row.
    pub fn latent_row(&self) -> usize {
        self.kv_lora_rank + self.rope
    }

    /// What the layer's first projection (fused: the query's, then `attn_kv_a_mqa`) gives
    /// each token, in order.
    pub fn first_widths(&self, heads: usize) -> [usize; 2] {
        let q_in = self.q_lora_rank.unwrap_or(heads * (self.nope + self.rope));
        [q_in, self.latent_row()]
    }

    /// The names of the tensors the first projection fuses.
    pub fn first_tensors(&self, i: usize) -> [String; 2] {
        let q = if self.q_lora_rank.is_some() {
            "attn_q_a"
        } else {
            "attn_q"
        };
        [
            format!("blk.{i}.{q}.weight"),
            format!("blk.{i}.attn_kv_a_mqa.weight"),
        ]
    }
}

/// Scratch of one layer's pass, reused across steps.
#[derive(Default)]
pub struct MlaScratch {
    q_a: Vec<f32>,
    q_a_normed: Vec<f32>,
    q: Vec<f32>,
    latent: Vec<f32>,
    q_pe: Vec<f32>,
    k_pe: Vec<f32>,
    head_in: Vec<f32>,
    head_out: Vec<f32>,
}

pub struct LatentAttention {
    plan: MlaPlan,
    heads: usize,
    /// `[q_lora_rank]`, where queries have the bottleneck.
    q_a_norm: Option<Vec<f32>>,
    /// `heads * (nope + rope)` rows over `q_lora_rank`, where queries have the bottleneck.
    q_b: Option<QMatrix>,
    /// `[kv_lora_rank]`.
    kv_a_norm: Vec<f32>,
    /// Per head: `kv_lora_rank` rows over `nope` (a query's way into the latent space).
    k_b: Vec<QMatrix>,
    /// Per head: `v_dim` rows over `kv_lora_rank` (the latent mix's way out).
    v_b: Vec<QMatrix>,
}

impl LatentAttention {
    /// Layer `i`'s latent attention parts (the first projection and `attn_output` are the
    /// layer's own).
    pub fn load(
        file: &GgufFile,
        i: usize,
        config: &ModelConfig,
        plan: MlaPlan,
    ) -> Result<Self, ModelError> {
        let heads = config.num_heads;
        let name = |s: &str| format!("blk.{i}.{s}.weight");
        let (q_a_norm, q_b) = match plan.q_lora_rank {
            Some(rank) => {
                let q_b = tensor(file, &name("attn_q_b"))?;
                let rows = heads * (plan.nope + plan.rope);
                let bytes = checked(&q_b, &[rank, rows])?;
                (
                    Some(vector(file, &name("attn_q_a_norm"), rank)?),
                    Some(QMatrix::new(q_b.ggml_type(), rows, rank, bytes)?),
                )
            }
            None => (None, None),
        };
        let kv_a_norm = vector(file, &name("attn_kv_a_norm"), plan.kv_lora_rank)?;
        let (k_b, v_b) = if plan.split_kv_b {
            split_tensors(file, i, heads, &plan)?
        } else {
            split_kv_b(file, i, heads, &plan)?
        };
        Ok(Self {
            plan,
            heads,
            q_a_norm,
            q_b,
            kv_a_norm,
            k_b,
            v_b,
        })
    }

    /// From the first projection's rows (`[t, q_in | latent | rope]`), each token's queries
    /// (`[t, heads, kv_lora_rank + rope]`: the absorbed part, then the rotated one) into
    /// `q` and its latent key row into `k` (`[t, kv_lora_rank + rope]`).
    #[allow(clippy::too_many_arguments)]
    pub fn queries_and_keys(
        &self,
        first: &[f32],
        t: usize,
        eps: f32,
        rope: &Rope,
        angles: &RopeAngles,
        s: &mut MlaScratch,
        q: &mut Vec<f32>,
        k: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        let p = &self.plan;
        let heads = self.heads;
        let [q_in, latent_in] = p.first_widths(heads);
        let q_head = p.nope + p.rope;
        s.q_a.clear();
        s.latent.clear();
        s.k_pe.clear();
        split_rows(first, &[q_in, p.kv_lora_rank, p.rope], t, |part, row| {
            match part {
                0 => s.q_a.extend_from_slice(row),
                1 => s.latent.extend_from_slice(row),
                _ => s.k_pe.extend_from_slice(row),
            };
        });
        debug_assert_eq!(s.latent.len() + s.k_pe.len(), t * latent_in);
        match (&self.q_b, &self.q_a_norm) {
            (Some(q_b), Some(norm)) => {
                s.q_a_normed.resize(s.q_a.len(), 0.0);
                rms_norm(&s.q_a, norm, eps, &mut s.q_a_normed)?;
                s.q.resize(t * heads * q_head, 0.0);
                q_b.matmul(&s.q_a_normed, t, &mut s.q)?;
            }
            _ => std::mem::swap(&mut s.q, &mut s.q_a),
        }
        let normed_latent = &mut s.q_a_normed;
        normed_latent.resize(s.latent.len(), 0.0);
        rms_norm(&s.latent, &self.kv_a_norm, eps, normed_latent)?;
        // Each head's rotated query part, then the shared rotated key part.
        s.q_pe.clear();
        for head in s.q.chunks_exact(q_head) {
            s.q_pe.extend_from_slice(&head[p.nope..]);
        }
        rope.apply_angles(&mut s.q_pe, heads, angles)?;
        rope.apply_angles(&mut s.k_pe, 1, angles)?;
        let row = p.latent_row();
        k.clear();
        for (latent, pe) in normed_latent
            .chunks_exact(p.kv_lora_rank)
            .zip(s.k_pe.chunks_exact(p.rope))
        {
            k.extend_from_slice(latent);
            k.extend_from_slice(pe);
        }
        q.resize(t * heads * row, 0.0);
        for (h, k_b) in self.k_b.iter().enumerate() {
            s.head_in.clear();
            for token in s.q.chunks_exact(heads * q_head) {
                s.head_in.extend_from_slice(&token[h * q_head..][..p.nope]);
            }
            s.head_out.resize(t * p.kv_lora_rank, 0.0);
            k_b.matmul(&s.head_in, t, &mut s.head_out)?;
            for (tok, absorbed) in s.head_out.chunks_exact(p.kv_lora_rank).enumerate() {
                let dst = &mut q[(tok * heads + h) * row..][..row];
                dst[..p.kv_lora_rank].copy_from_slice(absorbed);
                dst[p.kv_lora_rank..]
                    .copy_from_slice(&s.q_pe[(tok * heads + h) * p.rope..][..p.rope]);
            }
        }
        Ok(())
    }

    /// From attention's rows (`[t, heads, kv_lora_rank + rope]`) to the heads' value
    /// outputs (`[t, heads * v_dim]`), the input of `attn_output`.
    pub fn values(
        &self,
        attn: &[f32],
        t: usize,
        s: &mut MlaScratch,
        out: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        let p = &self.plan;
        let (heads, row) = (self.heads, p.latent_row());
        out.resize(t * heads * p.v_dim, 0.0);
        for (h, v_b) in self.v_b.iter().enumerate() {
            s.head_in.clear();
            for token in attn.chunks_exact(heads * row) {
                s.head_in
                    .extend_from_slice(&token[h * row..][..p.kv_lora_rank]);
            }
            s.head_out.resize(t * p.v_dim, 0.0);
            v_b.matmul(&s.head_in, t, &mut s.head_out)?;
            for (tok, v) in s.head_out.chunks_exact(p.v_dim).enumerate() {
                out[(tok * heads + h) * p.v_dim..][..p.v_dim].copy_from_slice(v);
            }
        }
        Ok(())
    }
}

/// Calls `put(part, values)` for each part of each of the `t` rows of `x`, whose rows are
/// the parts' `widths` side by side.
fn split_rows(x: &[f32], widths: &[usize], t: usize, mut put: impl FnMut(usize, &[f32])) {
    let total: usize = widths.iter().sum();
    for row in x.chunks_exact(total).take(t) {
        let mut at = 0;
        for (part, &w) in widths.iter().enumerate() {
            put(part, &row[at..at + w]);
            at += w;
        }
    }
}

type HeadMatrices = (Vec<QMatrix>, Vec<QMatrix>);

/// `attn_k_b` (`[nope, kv_lora_rank, heads]`) and `attn_v_b` (`[kv_lora_rank, v_dim,
/// heads]`), one matrix per head each, in the file's type.
fn split_tensors(
    file: &GgufFile,
    i: usize,
    heads: usize,
    p: &MlaPlan,
) -> Result<HeadMatrices, ModelError> {
    let per_head = |part: &str, n_out: usize, k_in: usize| -> Result<Vec<QMatrix>, ModelError> {
        let v = tensor(file, &format!("blk.{i}.{part}.weight"))?;
        let bytes = checked(&v, &[k_in, n_out, heads])?;
        let per = bytes.len() / heads;
        bytes
            .chunks_exact(per)
            .map(|head| Ok(QMatrix::new(v.ggml_type(), n_out, k_in, head)?))
            .collect()
    };
    Ok((
        per_head("attn_k_b", p.kv_lora_rank, p.nope)?,
        per_head("attn_v_b", p.v_dim, p.kv_lora_rank)?,
    ))
}

/// The older `attn_kv_b` (`[kv_lora_rank, heads * (nope + v_dim)]`: per head, the rows that
/// decompress its keys, then its values) split per head as [`split_tensors`] gives them,
/// in f32: the key rows transposed (a query goes in through them), the value rows as they
/// are.
fn split_kv_b(
    file: &GgufFile,
    i: usize,
    heads: usize,
    p: &MlaPlan,
) -> Result<HeadMatrices, ModelError> {
    let name = format!("blk.{i}.attn_kv_b.weight");
    let v = tensor(file, &name)?;
    let (rank, per_head) = (p.kv_lora_rank, p.nope + p.v_dim);
    let bytes = checked(&v, &[rank, heads * per_head])?;
    let mut all = vec![0.0f32; rank * heads * per_head];
    dequantize(v.ggml_type(), bytes, &mut all)?;
    let f32_matrix = |n_out: usize, k_in: usize, values: &[f32]| {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        QMatrix::new(GgmlType::F32, n_out, k_in, &bytes)
    };
    let (mut k_b, mut v_b) = (Vec::with_capacity(heads), Vec::with_capacity(heads));
    for head in all.chunks_exact(per_head * rank) {
        let (keys, values) = head.split_at(p.nope * rank);
        let mut transposed = vec![0.0f32; rank * p.nope];
        for (d, key_row) in keys.chunks_exact(rank).enumerate() {
            for (r, &w) in key_row.iter().enumerate() {
                transposed[r * p.nope + d] = w;
            }
        }
        k_b.push(f32_matrix(rank, p.nope, &transposed)?);
        v_b.push(f32_matrix(p.v_dim, rank, values)?);
    }
    Ok((k_b, v_b))
}
