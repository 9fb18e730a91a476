//! The attention of one block of query rows of one request over one range of its keys, in
//! key tiles with an online softmax (FlashAttention's recurrence): a tile's K/V rows are
//! read once (f32 in place, f16/bf16 widened to f32) and used by every query row of the
//! block (each head's group of query heads times the block's queries), so each K/V row is
//! read once per block, not once per query and head.
//!
//! A row's result depends only on its query, its visible keys and the tile boundaries, which
//! sit at fixed key offsets (multiples of [`KEY_TILE`] from the request's first key): the
//! same row gives bitwise the same output alone, batched, or in a longer or shorter block.

use crate::vector::exp_approx;
use half::{bf16, f16};
use multiversion::multiversion;
use pools::SlotId;

/// Partial sums per score (`vector::dot`'s lane count).
const LANES: usize = 16;
/// Query rows a fixed-size head runs together, their accumulators held in registers while
/// each K and V row of the tile is loaded once for all of them.
const ROW_BLOCK: usize = 4;

/// Keys per tile (K and V tiles of 64 x head_dim f32 stay in L1/L2).
pub const KEY_TILE: usize = 64;

/// A K/V element type, widened to f32 without branches so tile loads vectorize.
pub trait KvElem: Copy + Send + Sync {
    /// Exact; `avx512` says the CPU has AVX-512 F (and so F16C's conversions).
    fn widen(src: &[Self], dst: &mut [f32], avx512: bool);
    /// The buffer itself when it already is f32 (its rows are read in place, not copied).
    fn as_f32(src: &[Self]) -> Option<&[f32]>;
}

impl KvElem for f32 {
    #[inline(always)]
    fn widen(src: &[f32], dst: &mut [f32], _avx512: bool) {
        dst.copy_from_slice(src);
    }

    #[inline(always)]
    fn as_f32(src: &[f32]) -> Option<&[f32]> {
        Some(src)
    }
}

impl KvElem for f16 {
    /// Exact: the 15 magnitude bits moved into f32 position and scaled by 2^112 give every
    /// normal and subnormal value; infinities and NaNs get the all-ones exponent.
    #[inline(always)]
    fn widen(src: &[f16], dst: &mut [f32], avx512: bool) {
        #[cfg(target_arch = "x86_64")]
        if avx512 {
            // SAFETY: AVX-512 F was detected by the caller.
            unsafe { super::tile_avx512::widen_f16(src, dst) };
            return;
        }
        let _ = avx512;
        const TWO_POW_112: f32 = f32::from_bits(0x7780_0000);
        for (d, s) in dst.iter_mut().zip(src) {
            let h = s.to_bits() as u32;
            let magnitude = h & 0x7fff;
            let scaled = f32::from_bits(magnitude << 13) * TWO_POW_112;
            let value = if magnitude >= 0x7c00 {
                f32::from_bits(0x7f80_0000 | ((magnitude & 0x3ff) << 13))
            } else {
                scaled
            };
            *d = f32::from_bits(value.to_bits() | ((h & 0x8000) << 16));
        }
    }

    #[inline(always)]
    fn as_f32(_: &[f16]) -> Option<&[f32]> {
        None
    }
}

impl KvElem for bf16 {
    #[inline(always)]
    fn widen(src: &[bf16], dst: &mut [f32], _avx512: bool) {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = f32::from_bits((s.to_bits() as u32) << 16);
        }
    }

    #[inline(always)]
    fn as_f32(_: &[bf16]) -> Option<&[f32]> {
        None
    }
}

/// One block: the query rows of one request, with everything the tile loop needs.
pub struct Block<'a> {
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
    /// The block's queries, `[queries, heads * d]`.
    pub queries: &'a [f32],
    /// Keys visible to each query of the block: `from[i]..visible[i]` (`from` is 0 without a
    /// sliding window).
    pub visible: &'a [usize],
    pub from: &'a [usize],
    /// The request's slots, in position order.
    pub kv: &'a [SlotId],
    /// The keys this block covers: `keys_from..keys_to` (clipped to each row's visible ones).
    pub keys_from: usize,
    pub keys_to: usize,
    /// The K/V heads this block computes (with their groups of query heads). A block of one
    /// query may cover a part of the heads; its [`Partial`] then holds only theirs.
    pub kv_heads: std::ops::Range<usize>,
    /// Scores become `cap * tanh(score / cap)` before the softmax (Gemma 2).
    pub softcap: Option<f32>,
    /// What `q . k` is multiplied by (folded into the block's copy of the queries).
    pub scale: f32,
}

/// What a block leaves for the merge, per query row and head: the running max of its scores,
/// the sum of their exponentials and the unnormalized weighted values over its key range.
pub struct Partial<'a> {
    /// `[queries, heads * d]`.
    pub acc: &'a mut [f32],
    /// `[queries, heads]` each.
    pub max: &'a mut [f32],
    pub sum: &'a mut [f32],
}

/// The head size: a constant for the common sizes, so loops over it are fully unrolled and
/// vectorized; any other size at run time. Both give bitwise the same results.
trait HeadDim: Copy {
    fn get(self) -> usize;
    /// Rows `first..first + rows` (one K/V head's) over the current tile.
    fn run_tile(self, st: &mut RowState, first: usize, rows: usize, tile: &Tile<'_>);
}

#[derive(Clone, Copy)]
struct Fixed<const D: usize>;

impl<const D: usize> HeadDim for Fixed<D> {
    #[inline(always)]
    fn get(self) -> usize {
        D
    }

    #[inline(always)]
    fn run_tile(self, st: &mut RowState, first: usize, rows: usize, tile: &Tile<'_>) {
        // Blocks of 3 when that divides the rows (a 3-head group's decode row: no padding).
        if rows.is_multiple_of(3) && !rows.is_multiple_of(ROW_BLOCK) {
            for r0 in (0..rows).step_by(3) {
                tile_block::<D, 3>(st, first, r0, 3, tile);
            }
        } else {
            for r0 in (0..rows).step_by(ROW_BLOCK) {
                tile_block::<D, ROW_BLOCK>(st, first, r0, ROW_BLOCK.min(rows - r0), tile);
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Runtime(usize);

impl HeadDim for Runtime {
    #[inline(always)]
    fn get(self) -> usize {
        self.0
    }

    #[inline(always)]
    fn run_tile(self, st: &mut RowState, first: usize, rows: usize, tile: &Tile<'_>) {
        for r in 0..rows {
            let vis = tile.visible[r / tile.group];
            let from = tile.from[r / tile.group].saturating_sub(tile.j0);
            if vis > tile.j0 && from < tile.n.min(vis - tile.j0) {
                tile_row(st, first + r, self, tile, tile.n.min(vis - tile.j0), from);
            }
        }
    }
}

/// The current tile: keys `j0..j0 + n` of the request, as rows of K and V.
struct Tile<'a> {
    /// Scores through [`super::tile_avx512`] (checked once per block).
    avx512: bool,
    group: usize,
    visible: &'a [usize],
    from: &'a [usize],
    j0: usize,
    n: usize,
    keys: &'a TileRows<'a>,
    values: &'a TileRows<'a>,
    softcap: Option<f32>,
}

/// One K/V head's rows of a K or V tile: `base[offsets[j] + shift..][..d]` is key j's row
/// (the cache itself for f32, the widened tile otherwise; `shift` selects the head).
pub(super) struct TileRows<'a> {
    pub(super) base: &'a [f32],
    pub(super) offsets: &'a [usize],
    pub(super) shift: usize,
}

impl TileRows<'_> {
    #[inline(always)]
    pub(super) fn row(&self, j: usize, d: usize) -> &[f32] {
        &self.base[self.offsets[j] + self.shift..][..d]
    }
}

/// Online-softmax state of every row (all K/V heads' rows of the block), and scratch.
struct RowState {
    q: Vec<f32>,
    acc: Vec<f32>,
    max: Vec<f32>,
    sum: Vec<f32>,
    /// Per key of the tile (and row of a block): the 16 partial sums of its score.
    lanes: Vec<[f32; LANES]>,
    /// One row's scores, then weights, over the tile ([`tile_row`]).
    p: Vec<f32>,
}

#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn attend_f32<'a>(block: &Block<'a>, k: &[f32], v: &[f32], out: Partial<'a>) {
    attend(block, k, v, out)
}

#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn attend_f16<'a>(block: &Block<'a>, k: &[f16], v: &[f16], out: Partial<'a>) {
    attend(block, k, v, out)
}

#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn attend_bf16<'a>(block: &Block<'a>, k: &[bf16], v: &[bf16], out: Partial<'a>) {
    attend(block, k, v, out)
}

#[inline(always)]
fn attend<E: KvElem>(block: &Block<'_>, k: &[E], v: &[E], out: Partial<'_>) {
    match block.head_dim {
        64 => attend_dim(block, Fixed::<64>, k, v, out),
        128 => attend_dim(block, Fixed::<128>, k, v, out),
        d => attend_dim(block, Runtime(d), k, v, out),
    }
}

/// The block's query rows over its key range, left as [`Partial`] states.
///
/// Tiles outer, K/V heads inner: a tile's K and V rows are read whole and in order (the
/// layout is `[slot, kv_head, d]`), then every head's query rows run over their part.
#[inline(always)]
fn attend_dim<E: KvElem, D: HeadDim>(
    block: &Block<'_>,
    dim: D,
    k: &[E],
    v: &[E],
    out: Partial<'_>,
) {
    let (heads, kv_heads, d) = (block.num_heads, block.num_kv_heads, dim.get());
    let group = heads / kv_heads;
    let (q_row, kv_row) = (heads * d, kv_heads * d);
    // Rows of one K/V head; row i * rows + r is (query r / group, head (g0 + i) * group +
    // r % group) for the block's K/V heads g0.. . Each row's work is its own, so which heads
    // share a block does not change any result.
    let rows = block.visible.len() * group;
    let g0 = block.kv_heads.start;
    let kv_heads = block.kv_heads.len();
    // Where head h of query t lands in `out`: its heads start at head g0 * group.
    let first_head = g0 * group;
    let max_keys = block
        .visible
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .min(block.keys_to);
    let scale = block.scale;
    let mut st = RowState {
        q: vec![0.0; kv_heads * rows * d],
        acc: vec![0.0; kv_heads * rows * d],
        max: vec![f32::NEG_INFINITY; kv_heads * rows],
        sum: vec![0.0; kv_heads * rows],
        lanes: vec![[0.0; LANES]; KEY_TILE * ROW_BLOCK],
        p: vec![0.0; KEY_TILE],
    };
    let head_of = |row: usize| (g0 + row / rows) * group + (row % rows) % group;
    let query_of = |row: usize| (row % rows) / group;
    for row in 0..kv_heads * rows {
        let src = &block.queries[query_of(row) * q_row + head_of(row) * d..][..d];
        for (dst, &x) in st.q[row * d..][..d].iter_mut().zip(src) {
            *dst = x * scale;
        }
    }
    #[cfg(target_arch = "x86_64")]
    let avx512 = crate::matmul::KernelPath::allows_avx512();
    #[cfg(not(target_arch = "x86_64"))]
    let avx512 = false;
    let in_place = E::as_f32(k).zip(E::as_f32(v));
    let (mut k_tile, mut v_tile) = match in_place {
        Some(_) => (Vec::new(), Vec::new()),
        None => (vec![0.0; KEY_TILE * kv_row], vec![0.0; KEY_TILE * kv_row]),
    };
    let tile_offsets: Vec<usize> = (0..KEY_TILE).map(|j| j * kv_row).collect();
    let mut cache_offsets = vec![0usize; KEY_TILE];
    // Tiles before every row's window hold nothing it sees; tiles stay at fixed offsets.
    let min_from = block.from.iter().copied().min().unwrap_or(0);
    let first_tile =
        block.keys_from + min_from.saturating_sub(block.keys_from) / KEY_TILE * KEY_TILE;
    for j0 in (first_tile..max_keys).step_by(KEY_TILE) {
        let n = KEY_TILE.min(max_keys - j0);
        for (off, &slot) in cache_offsets.iter_mut().zip(&block.kv[j0..j0 + n]) {
            *off = slot as usize * kv_row;
        }
        let (k_base, v_base, offsets): (&[f32], &[f32], &[usize]) = match in_place {
            Some((kf, vf)) => (kf, vf, &cache_offsets[..n]),
            None => {
                // Only the block's heads: the others are never read.
                let heads_at = g0 * d..(g0 + kv_heads) * d;
                for (jj, &at) in cache_offsets[..n].iter().enumerate() {
                    let src = at + heads_at.start..at + heads_at.end;
                    let dst = jj * kv_row + heads_at.start..jj * kv_row + heads_at.end;
                    E::widen(&k[src.clone()], &mut k_tile[dst.clone()], avx512);
                    E::widen(&v[src], &mut v_tile[dst], avx512);
                }
                (&k_tile, &v_tile, &tile_offsets[..n])
            }
        };
        for i in 0..kv_heads {
            let keys = TileRows {
                base: k_base,
                offsets,
                shift: (g0 + i) * d,
            };
            let values = TileRows {
                base: v_base,
                ..keys
            };
            let tile = Tile {
                avx512,
                group,
                visible: block.visible,
                from: block.from,
                j0,
                n,
                keys: &keys,
                values: &values,
                softcap: block.softcap,
            };
            dim.run_tile(&mut st, i * rows, rows, &tile);
        }
    }
    for row in 0..kv_heads * rows {
        let (query, head) = (query_of(row), head_of(row) - first_head);
        out.acc[query * q_row + head * d..][..d].copy_from_slice(&st.acc[row * d..][..d]);
        out.max[query * heads + head] = st.max[row];
        out.sum[query * heads + head] = st.sum[row];
    }
}

/// Rows `r0..r0 + count` (`count <= R`) over the current tile, for a head size known
/// at compile time: each K/V row is loaded once for the block, the accumulators stay in
/// registers across the tile. Per row the operations are those of [`tile_row`] (keys past a
/// row's visible range score -inf, so they add exact zeros), so both give the same results.
#[inline(always)]
fn tile_block<const D: usize, const R: usize>(
    st: &mut RowState,
    first: usize,
    r0: usize,
    count: usize,
    tile: &Tile<'_>,
) {
    let n = tile.n;
    // Local row i of the block: row r0 + i of this head (state index first + r0 + i).
    let local = |i: usize| r0 + i.min(count - 1);
    let row = |i: usize| first + local(i);
    let mut queries = [[0.0f32; D]; R];
    for (i, q) in queries.iter_mut().enumerate() {
        q.copy_from_slice(&st.q[row(i) * D..][..D]);
    }
    let mut p = [[0.0f32; KEY_TILE]; R];
    #[cfg(target_arch = "x86_64")]
    if tile.avx512 {
        // SAFETY: AVX-512 F was detected; 1 <= n <= KEY_TILE and key rows hold D values.
        unsafe { super::tile_avx512::scores::<D, R>(&queries, tile.keys, n, &mut p) };
    } else {
        portable_scores::<D, R>(&queries, tile.keys, n, &mut st.lanes, &mut p);
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable_scores::<D, R>(&queries, tile.keys, n, &mut st.lanes, &mut p);
    let mut correction = [1.0f32; R];
    let mut active = [false; R];
    for i in 0..R {
        let r = row(i);
        let visible = tile.visible[local(i) / tile.group]
            .saturating_sub(tile.j0)
            .min(n);
        let from = tile.from[local(i) / tile.group].saturating_sub(tile.j0);
        let pi = &mut p[i][..n];
        if i >= count || from >= visible {
            pi.fill(0.0);
            continue;
        }
        active[i] = true;
        if let Some(cap) = tile.softcap {
            soft_cap(&mut pi[from..visible], cap);
        }
        pi[..from].fill(f32::NEG_INFINITY);
        pi[visible..].fill(f32::NEG_INFINITY);
        correction[i] = online_softmax(&mut st.max[r], &mut st.sum[r], pi);
    }
    let mut acc = [[0.0f32; D]; R];
    for (i, a) in acc.iter_mut().enumerate() {
        if active[i] {
            a.copy_from_slice(&st.acc[row(i) * D..][..D]);
            if correction[i] != 1.0 {
                a.iter_mut().for_each(|x| *x *= correction[i]);
            }
        }
    }
    for j in 0..n {
        let value = tile.values.row(j, D);
        for (a, pi) in acc.iter_mut().zip(&p) {
            let pj = pi[j];
            for (x, &v) in a.iter_mut().zip(value) {
                *x = pj.mul_add(v, *x);
            }
        }
    }
    for (i, a) in acc.iter().enumerate() {
        if active[i] {
            st.acc[row(i) * D..][..D].copy_from_slice(a);
        }
    }
}

/// `p[i][j]`, the score of query row `i` and key `j < n` of the tile: [`dot_lanes`] then
/// [`reduce_lanes`] (kept apart: fused, the compiler vectorizes the pair two values wide).
#[inline(always)]
pub(super) fn portable_scores<const D: usize, const R: usize>(
    queries: &[[f32; D]; R],
    keys: &TileRows<'_>,
    n: usize,
    lanes: &mut [[f32; LANES]],
    p: &mut [[f32; KEY_TILE]; R],
) {
    // Key j, row i at lanes[j * R + i] (scratch: no zeroing per call).
    let lanes = &mut lanes[..n * R];
    for (j, block) in lanes.chunks_exact_mut(R).enumerate() {
        let key = keys.row(j, D);
        for (acc, q) in block.iter_mut().zip(queries) {
            *acc = dot_lanes(q, key);
        }
    }
    for (j, block) in lanes.chunks_exact(R).enumerate() {
        for (pi, acc) in p.iter_mut().zip(block) {
            pi[j] = reduce_lanes(acc);
        }
    }
}

/// Row `r` over the first `n` keys of the current tile, for a head size known only at run
/// time: scores, the online-softmax update of its running max and sum, and the weighted
/// values added to its accumulator.
#[inline(always)]
fn tile_row<D: HeadDim>(
    st: &mut RowState,
    r: usize,
    dim: D,
    tile: &Tile<'_>,
    n: usize,
    from: usize,
) {
    let d = dim.get();
    let q = &st.q[r * d..][..d];
    let lanes = &mut st.lanes[..n];
    for (j, acc) in lanes.iter_mut().enumerate() {
        *acc = dot_lanes(q, tile.keys.row(j, d));
    }
    let p = &mut st.p[..n];
    for (pj, acc) in p.iter_mut().zip(lanes.iter()) {
        *pj = reduce_lanes(acc);
    }
    if let Some(cap) = tile.softcap {
        soft_cap(&mut p[from..], cap);
    }
    p[..from].fill(f32::NEG_INFINITY);
    let correction = online_softmax(&mut st.max[r], &mut st.sum[r], p);
    let acc = &mut st.acc[r * d..][..d];
    if correction != 1.0 {
        acc.iter_mut().for_each(|a| *a *= correction);
    }
    for (j, &pj) in p.iter().enumerate() {
        for (a, &v) in acc.iter_mut().zip(tile.values.row(j, d)) {
            *a = pj.mul_add(v, *a);
        }
    }
}

/// The 16 partial sums of `q . k` (`vector::dot`'s lanes), each a chain of fused
/// multiply-adds: whole 16-value chunks as arrays, one register operation per chunk. Head
/// sizes that are not multiples of 16 fold their tail into the first lanes. (Without hardware
/// FMA, `mul_add` is a library call: exact, so every version agrees, but slow.)
#[inline(always)]
fn dot_lanes(q: &[f32], k: &[f32]) -> [f32; LANES] {
    let full = q.len() / LANES * LANES;
    let mut acc = [0.0f32; LANES];
    for (x, y) in q[..full]
        .chunks_exact(LANES)
        .zip(k[..full].chunks_exact(LANES))
    {
        let (Ok(x), Ok(y)) = (<&[f32; LANES]>::try_from(x), <&[f32; LANES]>::try_from(y)) else {
            continue;
        };
        acc = std::array::from_fn(|l| x[l].mul_add(y[l], acc[l]));
    }
    for (l, (x, y)) in q[full..].iter().zip(&k[full..]).enumerate() {
        acc[l] = x.mul_add(*y, acc[l]);
    }
    acc
}

/// Gemma 2's attention soft-capping of a row's visible scores: `cap * tanh(score / cap)`.
#[inline(always)]
fn soft_cap(scores: &mut [f32], cap: f32) {
    scores.iter_mut().for_each(|x| *x = cap * (*x / cap).tanh());
}

/// One tile's step of the online softmax for one row: turns the tile's `scores` into weights
/// `e^(s - max')`, updates the row's running `max` and `sum`, and returns the factor
/// `e^(max - max')` its accumulated values must be scaled by (0 on the row's first tile,
/// where `max` is -inf and nothing has been accumulated).
#[inline(always)]
fn online_softmax(max: &mut f32, sum: &mut f32, scores: &mut [f32]) -> f32 {
    let new_max = max.max(lane_max(scores));
    let correction = exp_approx(*max - new_max);
    scores
        .iter_mut()
        .for_each(|x| *x = exp_approx(*x - new_max));
    *sum = *sum * correction + lane_sum(scores);
    *max = new_max;
    correction
}

/// Largest of `x` (exact in any order: lanes, then a tree).
#[inline(always)]
fn lane_max(x: &[f32]) -> f32 {
    let mut m = [f32::NEG_INFINITY; LANES];
    let full = x.len() / LANES * LANES;
    for c in x[..full].chunks_exact(LANES) {
        m = std::array::from_fn(|l| m[l].max(c[l]));
    }
    for (l, &v) in x[full..].iter().enumerate() {
        m[l] = m[l].max(v);
    }
    m.iter().copied().fold(f32::NEG_INFINITY, f32::max)
}

/// Sum of `x` in 16 interleaved lanes and the fixed tree (a fixed order, independent of
/// what else is in the batch, that vectorizes).
#[inline(always)]
fn lane_sum(x: &[f32]) -> f32 {
    let mut acc = [0.0f32; LANES];
    let full = x.len() / LANES * LANES;
    for c in x[..full].chunks_exact(LANES) {
        acc = std::array::from_fn(|l| acc[l] + c[l]);
    }
    for (l, &v) in x[full..].iter().enumerate() {
        acc[l] += v;
    }
    reduce_lanes(&acc)
}

/// `vector::dot`'s fixed reduction tree. Kept out of the loop that fills the lanes: fused into
/// it, the compiler vectorizes the pair of loops two values wide instead of sixteen.
#[inline(always)]
fn reduce_lanes(acc: &[f32; LANES]) -> f32 {
    let w8: [f32; 8] = std::array::from_fn(|l| acc[l] + acc[l + 8]);
    let w4: [f32; 4] = std::array::from_fn(|l| w8[l] + w8[l + 4]);
    (w4[0] + w4[2]) + (w4[1] + w4[3])
}
