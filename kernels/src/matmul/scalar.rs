//! Portable kernels: the reference that every SIMD path matches bit for bit, and the fallback
//! on CPUs without AVX2.
//!
//! Per output element (row `n` of W, row `r` of x) the sequence is fixed:
//!
//! ```text
//! acc = 0
//! for each block b, in order:
//!     isum = Σ (code - offset) * xq                (exact, i32)
//!     acc  = fma(d * dx, isum as f32, acc)
//!     if the type has a min: acc = fma(m, sx, acc)
//! ```
//!
//! and for float weights a 16-lane strided FMA accumulation followed by a fixed pairwise tree
//! (`reduce16`).

use std::ops::Range;

use super::acts::{block_scale, Column, QActs};
use super::dispatch::{check_float_stripe, check_int_stripe};
use super::pack::{lane_codes, lane_scales, FloatWeights, IntWeights, BLOCK, TILE_ROWS};
use crate::KernelError;

/// Quantizes one block of 32: returns `(dx, Σq)`. See `acts`.
pub(crate) fn quantize_block(x: &[f32], q: &mut [i8]) -> (f32, i32) {
    let amax = x.iter().fold(0f32, |a, v| a.max(v.abs()));
    let (d, id) = block_scale(amax);
    let mut sum = 0i32;
    for (qv, &v) in q.iter_mut().zip(x.iter()) {
        // Clamp before rounding, as the SIMD paths do; `max` maps NaN to -127 as their
        // `maxps` does, where `clamp` would keep NaN.
        #[allow(clippy::manual_clamp)]
        let r = (v * id).max(-127.0).min(127.0).round_ties_even() as i32;
        *qv = r as i8;
        sum += r;
    }
    (d, sum)
}

/// Quantizes block `b` of every row of `x` (rows of `k`) into `col`.
pub(crate) fn quantize_column(x: &[f32], k: usize, b: usize, col: Column<'_>) {
    let rows = x
        .chunks(k.max(1))
        .filter_map(|row| row.get(b * BLOCK..(b + 1) * BLOCK));
    let outs = col
        .q
        .chunks_exact_mut(BLOCK)
        .zip(col.dx.iter_mut())
        .zip(col.sx.iter_mut().zip(col.xs.iter_mut()));
    for (xb, ((qb, dx), (sx, xs))) in rows.zip(outs) {
        let (d, sum) = quantize_block(xb, qb);
        *dx = d;
        *xs = sum;
        *sx = d * sum as f32;
    }
}

/// Integer kernel over output tiles `tiles`; `out` holds the stripe's `m` row slices.
pub(crate) fn int_stripe(
    w: &IntWeights,
    acts: &QActs,
    tiles: Range<usize>,
    out: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    check_int_stripe(w, acts, &tiles, out)?;
    let l = &w.layout;
    let m = acts.m;
    let col0 = tiles.start * TILE_ROWS;
    let mut blocks = Vec::with_capacity(l.nb());
    for t in tiles {
        let tile = &w.data()[t * l.tile_bytes()..(t + 1) * l.tile_bytes()];
        for lane in 0..TILE_ROWS {
            let n = t * TILE_ROWS + lane;
            if n >= l.n_out {
                break;
            }
            blocks.clear();
            blocks.extend(
                tile.chunks_exact(l.block_bytes())
                    .map(|blk| (lane_codes(l, blk, lane), lane_scales(l, blk, lane))),
            );
            for (r, row) in out.iter_mut().enumerate() {
                let mut acc = 0f32;
                for (b, (codes, (d, mn))) in blocks.iter().enumerate() {
                    let i = b * m + r;
                    let xq = &acts.q[i * BLOCK..(i + 1) * BLOCK];
                    let isum: i32 = codes
                        .iter()
                        .zip(xq.iter())
                        .map(|(&c, &q)| (i32::from(c) - l.offset) * i32::from(q))
                        .sum();
                    acc = (d * acts.dx[i]).mul_add(isum as f32, acc);
                    if l.has_min {
                        acc = mn.mul_add(acts.sx[i], acc);
                    }
                }
                row[n - col0] = acc;
            }
        }
    }
    Ok(())
}

/// The fixed reduction of 16 lanes: halves, then quarters, then pairs.
#[inline]
pub(crate) fn reduce16(a: [f32; 16]) -> f32 {
    let mut s8 = [0f32; 8];
    for i in 0..8 {
        s8[i] = a[i] + a[i + 8];
    }
    let mut s4 = [0f32; 4];
    for i in 0..4 {
        s4[i] = s8[i] + s8[i + 4];
    }
    let s2 = [s4[0] + s4[2], s4[1] + s4[3]];
    s2[0] + s2[1]
}

/// Dot product with 16 strided accumulators (lane `i % 16` takes element `i`).
pub(crate) fn dot16(w: &[f32], x: &[f32]) -> f32 {
    let mut acc = [0f32; 16];
    for (wc, xc) in w.chunks(16).zip(x.chunks(16)) {
        for ((a, &wv), &xv) in acc.iter_mut().zip(wc.iter()).zip(xc.iter()) {
            *a = wv.mul_add(xv, *a);
        }
    }
    reduce16(acc)
}

/// Float kernel over output tiles `tiles`.
pub(crate) fn float_stripe(
    w: &FloatWeights,
    x: &[f32],
    m: usize,
    tiles: Range<usize>,
    out: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    check_float_stripe(w, x, m, &tiles, out)?;
    let k = w.k_in;
    let col0 = tiles.start * TILE_ROWS;
    let rows = col0..(tiles.end * TILE_ROWS).min(w.n_out);
    for n in rows {
        let wr = &w.data[n * k..(n + 1) * k];
        for (r, row) in out.iter_mut().enumerate() {
            row[n - col0] = dot16(wr, &x[r * k..(r + 1) * k]);
        }
    }
    Ok(())
}
