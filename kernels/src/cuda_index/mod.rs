//! The index math of the CUDA kernels in `kernels/cuda/*.cu`, written once more in Rust.
//!
//! No GPU is needed to check which element each CUDA thread touches: every function here is
//! the twin of one kernel's mapping (block and thread ids to elements), and the tests below
//! run them in plain CPU loops over every block and thread, comparing with the CPU kernels.
//! The launch wrappers in `crate::cuda` take their block sizes and the split-K plan from this
//! module, so the host side and these twins cannot drift apart. Always compiled.

use crate::attention::AttentionShape;
use pools::SlotId;

/// Threads per block of `attention_partial` (one key per thread per tile).
pub const ATTN_THREADS: u32 = 128;
/// Output dims held per thread by `attention_partial` (`ATTN_ACC_PER_THREAD` in attention.cu):
/// head_dim may be at most `ATTN_THREADS * ATTN_ACC_PER_THREAD`.
pub const ATTN_ACC_PER_THREAD: u32 = 4;
/// The widest head `attention_partial` computes: each of its threads holds
/// `ATTN_ACC_PER_THREAD` of the head's output dims.
pub const ATTN_MAX_HEAD_DIM: usize = (ATTN_THREADS * ATTN_ACC_PER_THREAD) as usize;
/// Warps per block of `attention_gqa` (`GQA_WARPS` in attention.cu).
pub const GQA_WARPS: u32 = 4;
/// Query heads per KV head `attention_gqa` handles at most (`GQA_MAX_GROUP`).
pub const GQA_MAX_GROUP: usize = 8;
/// Output dims per lane of `attention_gqa` (`GQA_ACC_PER_LANE`): head_dim <= 32 * this.
pub const GQA_ACC_PER_LANE: usize = 4;
/// Threads per block of the one-block-per-row kernels (kv_indices, rms_norm, embedding).
pub const ROW_THREADS: u32 = 256;
/// Threads per block of the grid-stride element-wise kernels.
pub const ELEMENTWISE_THREADS: u32 = 256;
/// Grid-stride kernels launch at most this many blocks; each thread then loops.
pub const MAX_STRIDE_BLOCKS: u32 = 1 << 16;

/// split-K: keys per split never go below this (smaller chunks cost more in the merge).
pub const MIN_SPLIT_KEYS: u32 = 256;
/// split-K: at most this many splits per query.
pub const MAX_SPLITS: u32 = 64;
/// split-K: blocks worth having in flight (about four 4-warp blocks per SM of a 132-SM H100).
pub const TARGET_BLOCKS: usize = 528;

/// Blocks of a grid-stride kernel over `total` elements.
pub fn stride_blocks(total: usize, threads: u32) -> u32 {
    let blocks = total
        .div_ceil(threads as usize)
        .clamp(1, MAX_STRIDE_BLOCKS as usize);
    blocks as u32
}

/// Elements visited by thread `tid` of block `block` in a grid-stride loop
/// (`grid_first`/`grid_step` in common.cuh).
pub fn grid_stride(
    block: u32,
    tid: u32,
    threads: u32,
    grid: u32,
    total: usize,
) -> impl Iterator<Item = usize> {
    let first = block as usize * threads as usize + tid as usize;
    let step = (grid as usize * threads as usize).max(1);
    (first..total).step_by(step)
}

/// Elements `i` of a row visited by thread `tid` of a one-block-per-row kernel.
pub fn block_stride(tid: u32, threads: u32, len: usize) -> impl Iterator<Item = usize> {
    (tid as usize..len).step_by(threads.max(1) as usize)
}

/// `create_kv_indices`: the (index into `kv_indices`, index into `req_to_token`) pairs that
/// thread `tid` of block `b` (= request `b`) copies.
pub fn kv_indices_thread<'a>(
    row_stride: usize,
    req_pool_indices: &'a [u32],
    kv_indptr: &'a [u32],
    kv_start: Option<&'a [u32]>,
    b: usize,
    tid: u32,
    threads: u32,
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let out_lo = kv_indptr[b] as usize;
    let len = (kv_indptr[b + 1] - kv_indptr[b]) as usize;
    let start = kv_start.map_or(0, |s| s[b] as usize);
    let src = req_pool_indices[b] as usize * row_stride + start;
    block_stride(tid, threads, len).map(move |i| (out_lo + i, src + i))
}

/// `store_kv`: element `idx` of the `[n_tokens, row_len]` inputs goes to this index of the
/// layer buffer, or nowhere when its slot is outside the pool.
pub fn store_kv_element(
    idx: usize,
    row_len: usize,
    out_cache_loc: &[SlotId],
    num_slots: usize,
) -> Option<usize> {
    let token = idx / row_len;
    let col = idx - token * row_len;
    let slot = out_cache_loc[token];
    if slot < 0 || slot as usize >= num_slots {
        return None;
    }
    Some(slot as usize * row_len + col)
}

/// `write_req_to_token`: the (table cell, slot) pair thread index `i` writes, or none when its
/// cell is past the table.
pub fn req_to_token_write(
    i: usize,
    cells: &[u64],
    slots: &[SlotId],
    table_len: usize,
) -> Option<(usize, SlotId)> {
    let cell = cells[i];
    (cell < table_len as u64).then(|| (cell as usize, slots[i]))
}

/// One pair rotated by `rope`: its token, its frequency index and the two element indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RopePair {
    pub token: usize,
    pub pair: usize,
    pub a: usize,
    pub b: usize,
}

/// `rope`: the pair handled at grid-stride index `idx` of `[tokens, n_heads, pairs]`.
pub fn rope_pair(
    idx: usize,
    n_heads: usize,
    head_dim: usize,
    pairs: usize,
    neox: bool,
) -> RopePair {
    let per_token = n_heads * pairs;
    let token = idx / per_token;
    let rem = idx - token * per_token;
    let head = rem / pairs;
    let i = rem - head * pairs;
    let (a, b) = if neox {
        (i, i + pairs)
    } else {
        (2 * i, 2 * i + 1)
    };
    let base = (token * n_heads + head) * head_dim;
    RopePair {
        token,
        pair: i,
        a: base + a,
        b: base + b,
    }
}

/// What work item `idx` of `rope_store_kv` does. Offsets are within the token's row (Q's
/// `[heads * head_dim]`, K's and V's `[kv_heads * head_dim]`, which is also the pool row's),
/// so the caller applies each buffer's row stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RopeStoreItem {
    /// Rotates the pair at row offsets `pair.a`, `pair.b` of Q into `q_out`.
    Q(RopePair),
    /// Rotates the pair at row offsets `pair.a`, `pair.b` of K into its token's pool row.
    K(RopePair),
    /// Stores V (and K, past the rotated dims) at column `col` of the token's pool row.
    Element {
        token: usize,
        col: usize,
        store_k: bool,
    },
    /// Copies Q at column `col` of the token's row (an unrotated dim) to `q_out`.
    QElement { token: usize, col: usize },
}

/// The shape `rope_store_kv` runs over.
#[derive(Clone, Copy, Debug)]
pub struct RopeStoreShape {
    pub tokens: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
    pub pairs: usize,
    pub neox: bool,
    /// Whether Q is rotated into another buffer, so its unrotated dims (if any) are copied
    /// there.
    pub copy_q: bool,
}

impl RopeStoreShape {
    /// Work items of one launch.
    pub fn items(&self) -> usize {
        let pairs = self.tokens * (self.heads + self.kv_heads) * self.pairs;
        let q_copies = if self.copy_q {
            self.tokens * self.heads * (self.head_dim - 2 * self.pairs)
        } else {
            0
        };
        pairs + self.tokens * self.kv_heads * self.head_dim + q_copies
    }
}

/// `rope_store_kv`: the work item at grid-stride index `idx`.
pub fn rope_store_item(idx: usize, s: &RopeStoreShape) -> RopeStoreItem {
    let q_items = s.tokens * s.heads * s.pairs;
    let pair_items = q_items + s.tokens * s.kv_heads * s.pairs;
    let row_len = s.kv_heads * s.head_dim;
    let kv_end = pair_items + s.tokens * row_len;
    let in_row = |p: RopePair, n_heads: usize| {
        let row_first = p.token * n_heads * s.head_dim;
        RopePair {
            a: p.a - row_first,
            b: p.b - row_first,
            ..p
        }
    };
    if idx < q_items {
        let pair = rope_pair(idx, s.heads, s.head_dim, s.pairs, s.neox);
        return RopeStoreItem::Q(in_row(pair, s.heads));
    }
    if idx < pair_items {
        let pair = rope_pair(idx - q_items, s.kv_heads, s.head_dim, s.pairs, s.neox);
        return RopeStoreItem::K(in_row(pair, s.kv_heads));
    }
    let rotated = 2 * s.pairs;
    if idx < kv_end {
        let element = idx - pair_items;
        let token = element / row_len;
        let col = element - token * row_len;
        return RopeStoreItem::Element {
            token,
            col,
            store_k: col % s.head_dim >= rotated,
        };
    }
    let unrotated = s.head_dim - rotated;
    let element = idx - kv_end;
    let head_row = element / unrotated;
    let token = head_row / s.heads;
    let col =
        (head_row - token * s.heads) * s.head_dim + rotated + (element - head_row * unrotated);
    RopeStoreItem::QElement { token, col }
}

/// `qk_norm_inplace`: block `block` normalizes head `head` of token `token`'s Q row (`is_q`)
/// or K row, at `offset` within that row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QkNormRow {
    pub token: usize,
    pub is_q: bool,
    pub offset: usize,
}

/// `qk_norm_inplace`: the head row of block `block` over `[tokens, heads + kv_heads]`.
pub fn qk_norm_row(block: usize, heads: usize, kv_heads: usize, head_dim: usize) -> QkNormRow {
    let per_token = heads + kv_heads;
    let token = block / per_token;
    let head = block - token * per_token;
    let is_q = head < heads;
    let head_in_buffer = if is_q { head } else { head - heads };
    QkNormRow {
        token,
        is_q,
        offset: head_in_buffer * head_dim,
    }
}

/// `silu_mul`: output element `idx` reads these gate and up indices of `gate_up`.
pub fn silu_mul_element(idx: usize, ffn: usize) -> (usize, usize) {
    let row = idx / ffn;
    let col = idx - row * ffn;
    (row * 2 * ffn + col, row * 2 * ffn + ffn + col)
}

/// `embedding_*`: the table index element `i` of token `t` reads (None: id past the table,
/// written as zero).
pub fn embedding_element(
    ids: &[u32],
    t: usize,
    i: usize,
    hidden: usize,
    vocab: usize,
) -> Option<usize> {
    let id = ids[t] as usize;
    (id < vocab).then_some(id * hidden + i)
}

/// `find_request` in attention.cu: the largest `b < batch` with `q_indptr[b] <= row`, which
/// skips requests that have no queries.
pub fn find_request(q_indptr: &[u32], row: u32) -> usize {
    let (mut lo, mut hi) = (0usize, q_indptr.len() - 1);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if q_indptr[mid] <= row {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// What block (row, head, split) of `attention_partial` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionBlock {
    pub request: usize,
    /// Offset of the request's first entry in `kv_indices`.
    pub kv_lo: usize,
    /// The keys `key_lo..key_hi` of the request (positions in its KV range).
    pub key_lo: usize,
    pub key_hi: usize,
    pub kv_head: usize,
}

/// The mapping at the top of `attention_partial` (and of `attention_gqa`, whose `head` is
/// the group's first): `window` is the sliding window in keys, `u32::MAX` for none.
pub fn attention_block(
    q_indptr: &[u32],
    kv_indptr: &[u32],
    (num_heads, num_kv_heads): (u32, u32),
    (chunk, window, splits): (u32, u32, u32),
    (row, head, split): (u32, u32, u32),
) -> AttentionBlock {
    let b = find_request(q_indptr, row);
    let (q_lo, q_len) = (q_indptr[b], q_indptr[b + 1] - q_indptr[b]);
    let (kv_lo, kv_len) = (kv_indptr[b], kv_indptr[b + 1] - kv_indptr[b]);
    let visible = kv_len - (q_len - 1 - (row - q_lo));
    let chunk = row_chunk(chunk, visible, splits);
    let split_first = (split * chunk).min(visible);
    let key_hi = split_first + chunk.min(visible - split_first);
    let window_lo = visible.saturating_sub(window);
    let key_lo = split_first.max(window_lo.min(key_hi));
    AttentionBlock {
        request: b,
        kv_lo: kv_lo as usize,
        key_lo: key_lo as usize,
        key_hi: key_hi as usize,
        kv_head: (head / (num_heads / num_kv_heads)) as usize,
    }
}

/// Keys per split of a row that sees `visible` keys: the plan's `chunk`, or for a per-row
/// plan (`chunk` 0, [`SplitPlan::per_row`]) the row's keys cut into `splits` runs of whole
/// tiles.
pub fn row_chunk(chunk: u32, visible: u32, splits: u32) -> u32 {
    if chunk != 0 {
        return chunk;
    }
    let tiles = visible.div_ceil(splits.max(1)).div_ceil(ATTN_THREADS);
    (tiles * ATTN_THREADS).max(1)
}

/// The split-K plan for `rows` query rows of `shape` that see at most `max_visible` keys:
/// as many splits as fill the GPU with the blocks one row already takes (one per KV head for
/// `attention_gqa`, one per query head otherwise).
pub fn split_plan(shape: &AttentionShape, rows: usize, max_visible: u32) -> SplitPlan {
    let per_row = if gqa_fits(shape.num_heads, shape.num_kv_heads, shape.head_dim) {
        shape.num_kv_heads
    } else {
        shape.num_heads
    };
    SplitPlan::for_batch(rows, per_row, max_visible)
}

/// How an attention launch over `rows` query rows and `splits` splits is shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionGeometry {
    /// `attention_gqa` (one block per row and KV head), else `attention_partial`.
    pub grouped: bool,
    pub grid: (u32, u32, u32),
    pub threads: u32,
    /// Dynamic shared memory, as laid out at the top of the kernel.
    pub shared_bytes: usize,
}

/// The grid, block and shared memory of the attention kernel that serves `shape`.
/// `attention_gqa`: the group's pre-scaled queries, its tile probabilities and slots, and each
/// warp's softmax states and outputs. `attention_partial`: the pre-scaled query, one
/// probability and one slot per thread, and 32 floats of reduction scratch.
pub fn attention_geometry(shape: &AttentionShape, rows: u32, splits: u32) -> AttentionGeometry {
    let (heads, kv_heads, d) = (shape.num_heads, shape.num_kv_heads, shape.head_dim);
    if gqa_fits(heads, kv_heads, d) {
        let (g, w) = (heads / kv_heads, GQA_WARPS as usize);
        let floats = g * d + w * g * 32 + w * 32 + w * g * 2 + w * g * d;
        AttentionGeometry {
            grouped: true,
            grid: (rows, kv_heads as u32, splits),
            threads: GQA_WARPS * 32,
            shared_bytes: floats * 4,
        }
    } else {
        AttentionGeometry {
            grouped: false,
            grid: (rows, heads as u32, splits),
            threads: ATTN_THREADS,
            shared_bytes: (d + 2 * ATTN_THREADS as usize + 32) * 4,
        }
    }
}

/// Whether `attention_gqa` (one block per query row and KV head) serves this shape.
pub fn gqa_fits(num_heads: usize, num_kv_heads: usize, head_dim: usize) -> bool {
    num_kv_heads > 0
        && num_heads.is_multiple_of(num_kv_heads)
        && num_heads / num_kv_heads <= GQA_MAX_GROUP
        && head_dim <= 32 * GQA_ACC_PER_LANE
}

/// The keys warp `warp` of an `attention_gqa` block takes from `key_lo..key_hi`, as
/// (first key, count) tiles of at most 32: the loop header of the kernel's key loop.
pub fn gqa_warp_tiles(
    key_lo: usize,
    key_hi: usize,
    warp: u32,
) -> impl Iterator<Item = (usize, usize)> {
    let stride = GQA_WARPS as usize * 32;
    (key_lo + warp as usize * 32..key_hi)
        .step_by(stride)
        .map(move |tile| (tile, 32.min(key_hi - tile)))
}

/// Keys the row with the most keys sees: a request's last query sees all of its KV.
pub fn max_visible(q_indptr: &[u32], kv_indptr: &[u32]) -> u32 {
    (0..q_indptr.len().saturating_sub(1))
        .filter(|&b| q_indptr[b + 1] > q_indptr[b])
        .map(|b| kv_indptr[b + 1] - kv_indptr[b])
        .max()
        .unwrap_or(0)
}

/// How the KV range of each query is split across blocks (grid z) and how long each split is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitPlan {
    pub num_splits: u32,
    /// Keys per split; 0: each row's own share ([`row_chunk`]).
    pub chunk: u32,
}

impl SplitPlan {
    /// One split covering every key: `attention_partial` writes the output directly.
    pub fn single(max_visible: u32) -> Self {
        Self {
            num_splits: 1,
            chunk: max_visible.max(1),
        }
    }

    /// `splits` splits of equal length (rounded up to whole tiles), at least one.
    pub fn with_splits(max_visible: u32, splits: u32) -> Self {
        let splits = splits.clamp(1, MAX_SPLITS);
        let chunk = max_visible
            .div_ceil(splits)
            .checked_next_multiple_of(ATTN_THREADS)
            .unwrap_or(u32::MAX)
            .max(1);
        Self {
            num_splits: max_visible.div_ceil(chunk).max(1),
            chunk,
        }
    }

    /// `splits` splits of every row's own keys ([`row_chunk`]): a plan that holds for any
    /// lengths, as a CUDA graph needs (recorded once, replayed over new lengths).
    pub fn per_row(splits: u32) -> Self {
        Self {
            num_splits: splits.clamp(1, MAX_SPLITS),
            chunk: 0,
        }
    }

    /// Splits only when `rows * blocks_per_row` blocks cannot fill the GPU (decode of a small
    /// batch over long contexts); a prefill has enough rows and stays in one pass.
    pub fn for_batch(rows: usize, blocks_per_row: usize, max_visible: u32) -> Self {
        let blocks = rows * blocks_per_row;
        if blocks >= TARGET_BLOCKS || max_visible <= MIN_SPLIT_KEYS {
            return Self::single(max_visible);
        }
        let wanted = TARGET_BLOCKS.div_ceil(blocks.max(1)) as u32;
        Self::with_splits(
            max_visible,
            wanted.min(max_visible.div_ceil(MIN_SPLIT_KEYS)),
        )
    }
}

/// Index of the partial state of (row, head, split) in `part_acc` rows / `part_ml` pairs.
pub fn part_index(row: usize, head: usize, split: usize, num_heads: usize, splits: usize) -> usize {
    (row * num_heads + head) * splits + split
}

/// Combines softmax states (max, sum, unnormalized output; one `acc` row per state) into one
/// such state relative to the largest max: the merge of `attention_gqa`'s warps and, followed
/// by the division, of `attention_merge`'s splits. Returns (max, sum); `acc_out` gets the sum
/// of the rescaled outputs.
pub fn combine_states(ml: &[(f32, f32)], acc: &[f32], acc_out: &mut [f32]) -> (f32, f32) {
    let d = acc_out.len();
    let m = ml.iter().fold(f32::NEG_INFINITY, |m, s| m.max(s.0));
    let mut l = 0.0f32;
    acc_out.fill(0.0);
    if m == f32::NEG_INFINITY {
        return (m, l);
    }
    for (s, &(ms, ls)) in ml.iter().enumerate() {
        if ms != f32::NEG_INFINITY {
            let f = (ms - m).exp();
            l += ls * f;
            for (o, a) in acc_out.iter_mut().zip(&acc[s * d..(s + 1) * d]) {
                *o += a * f;
            }
        }
    }
    (m, l)
}

/// `attention_merge`: combines the splits' (max, sum, unnormalized output) into `out`.
pub fn merge_partials(ml: &[(f32, f32)], acc: &[f32], out: &mut [f32]) {
    let (_, l) = combine_states(ml, acc, out);
    let inv = if l > 0.0 { 1.0 / l } else { 0.0 };
    for o in out.iter_mut() {
        *o *= inv;
    }
}

#[cfg(test)]
mod attention_tests;
#[cfg(test)]
mod tests;
