//! AVX-512 (F, BW) + VNNI kernels.
//!
//! Integer kernel: one i32 lane per output row. For each weight block a 64-byte load gives 4
//! codes of 16 rows; `vpdpbusd` multiplies them (unsigned) with a broadcast quad of one
//! activation row (signed) and accumulates. A micro-tile is up to 2 weight tiles (32 rows) x
//! `R_MAX` activation rows: each weight load is unpacked once and used for every row of the
//! micro-tile, and the weight tile stays in L1 while all activation rows stream past it.
//! After each block the i32 sums are scaled into f32 accumulators with exactly the scalar
//! reference's operations (see `scalar`), lane by lane, so results match it bit for bit.

// Index loops over the register arrays mirror the tile shape (G tiles x R rows).
#![allow(clippy::needless_range_loop)]

use std::arch::x86_64::*;
use std::ops::Range;

use super::acts::{block_scale, column_fits, Column, QActs};
use super::dispatch::{cache_blocks, check_float_stripe, check_int_stripe, fp4_layout};
use super::pack::{Codes, FloatWeights, IntWeights, ScaleFmt, BLOCK, FP4_CODES, TILE_ROWS};
use super::scalar;
use crate::KernelError;

/// Activation rows per micro-tile.
const R_MAX: usize = 4;
/// How far ahead (in blocks) weights are prefetched while they stream from memory (32 beat 8
/// for prompts and decode; BENCHMARKS.md).
const PREFETCH_BLOCKS: usize = 32;

/// Proof that the CPU has AVX-512 F/BW and VNNI; only `new` can make one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token(());

impl Token {
    pub fn new() -> Option<Self> {
        let ok = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vnni");
        ok.then_some(Token(()))
    }
}

/// What the micro-kernel needs to address a matrix and its activations.
struct Geometry {
    data: *const u8,
    tile_bytes: usize,
    block_bytes: usize,
    code_bytes: usize,
    scale_bytes: usize,
    nb: usize,
    /// Activation rows (the stride of the block-major activation buffers).
    m: usize,
    offset: i32,
}

pub(crate) fn int_stripe(
    _token: Token,
    w: &IntWeights,
    acts: &QActs,
    tiles: Range<usize>,
    out: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    check_int_stripe(w, acts, &tiles, out)?;
    let l = &w.layout;
    let geo = Geometry {
        data: w.data().as_ptr(),
        tile_bytes: l.tile_bytes(),
        block_bytes: l.block_bytes(),
        code_bytes: l.code_bytes(),
        scale_bytes: l.scale_bytes(),
        nb: l.nb(),
        m: acts.m,
        offset: l.offset,
    };
    let run = match (l.codes, l.scales, l.has_min) {
        (Codes::Nib4, ScaleFmt::F16, false) => int_tiles::<true, false, false, false>,
        (Codes::Nib4, ScaleFmt::F16, true) => int_tiles::<true, false, true, false>,
        (Codes::Nib4, ScaleFmt::F32, false) => int_tiles::<true, true, false, false>,
        (Codes::Nib4, ScaleFmt::F32, true) => int_tiles::<true, true, true, false>,
        (Codes::Byte8, ScaleFmt::F16, false) => int_tiles::<false, false, false, false>,
        (Codes::Byte8, ScaleFmt::F16, true) => int_tiles::<false, false, true, false>,
        (Codes::Byte8, ScaleFmt::F32, false) => int_tiles::<false, true, false, false>,
        (Codes::Byte8, ScaleFmt::F32, true) => int_tiles::<false, true, true, false>,
        (Codes::Fp4, ScaleFmt::F32, false) => int_tiles::<true, true, false, true>,
        (Codes::Fp4, ..) => return Err(fp4_layout()),
    };
    // SAFETY: the token proves the CPU supports avx512f/bw/vnni; `check_int_stripe` checked
    // that the tile range, the activation buffers and every output row match the geometry
    // the kernel addresses.
    unsafe { run(&geo, acts, tiles, out) };
    Ok(())
}

#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn int_tiles<const NIB: bool, const F32S: bool, const MIN: bool, const FP4: bool>(
    geo: &Geometry,
    acts: &QActs,
    tiles: Range<usize>,
    out: &mut [&mut [f32]],
) {
    for (group, rows) in cache_blocks(tiles.clone(), geo.tile_bytes, out.len()) {
        let mut t = group.start;
        while t < group.end {
            let pair = group.end - t >= 2;
            let col = (t - tiles.start) * TILE_ROWS;
            let mut r = rows.start;
            while r < rows.end {
                let n = (rows.end - r).min(R_MAX);
                let o = &mut out[r..r + n];
                let kernel = match (pair, n) {
                    (true, 1) => micro::<2, 1, NIB, F32S, MIN, FP4>,
                    (true, 2) => micro::<2, 2, NIB, F32S, MIN, FP4>,
                    (true, 3) => micro::<2, 3, NIB, F32S, MIN, FP4>,
                    (true, _) => micro::<2, 4, NIB, F32S, MIN, FP4>,
                    (false, 1) => micro::<1, 1, NIB, F32S, MIN, FP4>,
                    (false, 2) => micro::<1, 2, NIB, F32S, MIN, FP4>,
                    (false, 3) => micro::<1, 3, NIB, F32S, MIN, FP4>,
                    (false, _) => micro::<1, 4, NIB, F32S, MIN, FP4>,
                };
                // SAFETY: tiles t (and t + 1 for a pair) and rows r..r+n are in range, as
                // checked by the caller; the CPU has the features (caller's token).
                unsafe { kernel(geo, acts, t, r, o, col, r == 0) };
                r += n;
            }
            t += if pair { 2 } else { 1 };
        }
    }
}

#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load_scales<const F32S: bool>(p: *const u8) -> __m512 {
    // SAFETY: the caller points `p` at 16 scales of the packed block.
    unsafe {
        if F32S {
            _mm512_loadu_ps(p.cast())
        } else {
            _mm512_cvtph_ps(_mm256_loadu_si256(p.cast()))
        }
    }
}

/// `G` weight tiles (16 rows each) starting at tile `t` times `R` activation rows starting at
/// `r0`; writes `out[i][col..col + 16 * G]` (clipped to the row).
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
#[inline]
unsafe fn micro<
    const G: usize,
    const R: usize,
    const NIB: bool,
    const F32S: bool,
    const MIN: bool,
    const FP4: bool,
>(
    geo: &Geometry,
    acts: &QActs,
    t: usize,
    r0: usize,
    out: &mut [&mut [f32]],
    col: usize,
    first_rows: bool,
) {
    // SAFETY (whole body): pointers stay inside the tiles t..t+G of the packed data and the
    // activation rows r0..r0+R, whose extents the caller validated; stores are masked to the
    // output row's length.
    unsafe {
        let wt = geo.data.add(t * geo.tile_bytes);
        let (q, dx, sx, xs) = (
            acts.q.as_ptr().add(r0 * BLOCK),
            acts.dx.as_ptr().add(r0),
            acts.sx.as_ptr().add(r0),
            acts.xs.as_ptr().add(r0),
        );
        let low4 = _mm512_set1_epi8(0x0F);
        let fp4 = _mm512_broadcast_i32x4(_mm_loadu_si128(FP4_CODES.as_ptr().cast()));
        let mut facc = [[_mm512_setzero_ps(); R]; G];
        for b in 0..geo.nb {
            let wb = wt.add(b * geo.block_bytes);
            if first_rows {
                // The first rows stream the weights from memory: ask for them early (a
                // prefetch past the end of the data is harmless).
                let ahead = wb.wrapping_add(PREFETCH_BLOCKS * geo.block_bytes);
                for g in 0..G {
                    for line in (0..geo.block_bytes).step_by(64) {
                        let p = ahead.wrapping_add(g * geo.tile_bytes + line);
                        _mm_prefetch::<_MM_HINT_T0>(p.cast());
                    }
                }
            }
            let mut iacc = [[_mm512_setzero_si512(); R]; G];
            if NIB {
                // Low and high nibbles in separate chains (integer sums: the order is free),
                // so the dependent `vpdpbusd`s of one output are half as many per block.
                let mut iacc_hi = [[_mm512_setzero_si512(); R]; G];
                for c in 0..4 {
                    let mut lo = [_mm512_setzero_si512(); G];
                    let mut hi = [_mm512_setzero_si512(); G];
                    for g in 0..G {
                        let v = _mm512_loadu_si512(wb.add(g * geo.tile_bytes + c * 64).cast());
                        lo[g] = _mm512_and_si512(v, low4);
                        hi[g] = _mm512_and_si512(_mm512_srli_epi16::<4>(v), low4);
                        if FP4 {
                            lo[g] = _mm512_shuffle_epi8(fp4, lo[g]);
                            hi[g] = _mm512_shuffle_epi8(fp4, hi[g]);
                        }
                    }
                    for r in 0..R {
                        let xq = q.add((b * geo.m + r) * BLOCK).cast::<i32>();
                        let xa = _mm512_set1_epi32(xq.add(c).read_unaligned());
                        let xb = _mm512_set1_epi32(xq.add(c + 4).read_unaligned());
                        for g in 0..G {
                            iacc[g][r] = _mm512_dpbusd_epi32(iacc[g][r], lo[g], xa);
                            iacc_hi[g][r] = _mm512_dpbusd_epi32(iacc_hi[g][r], hi[g], xb);
                        }
                    }
                }
                for g in 0..G {
                    for r in 0..R {
                        iacc[g][r] = _mm512_add_epi32(iacc[g][r], iacc_hi[g][r]);
                    }
                }
            } else {
                for c in 0..8 {
                    let mut v = [_mm512_setzero_si512(); G];
                    for (g, vg) in v.iter_mut().enumerate() {
                        *vg = _mm512_loadu_si512(wb.add(g * geo.tile_bytes + c * 64).cast());
                    }
                    for r in 0..R {
                        let xq = q.add((b * geo.m + r) * BLOCK).cast::<i32>();
                        let xa = _mm512_set1_epi32(xq.add(c).read_unaligned());
                        for g in 0..G {
                            iacc[g][r] = _mm512_dpbusd_epi32(iacc[g][r], v[g], xa);
                        }
                    }
                }
            }
            let mut dv = [_mm512_setzero_ps(); G];
            let mut mv = [_mm512_setzero_ps(); G];
            for g in 0..G {
                let sp = wb.add(g * geo.tile_bytes + geo.code_bytes);
                dv[g] = load_scales::<F32S>(sp);
                if MIN {
                    mv[g] = load_scales::<F32S>(sp.add(geo.scale_bytes));
                }
            }
            if geo.offset != 0 {
                for r in 0..R {
                    // Σ (code - offset) * q = Σ code * q - offset * Σ q, exactly.
                    let corr = _mm512_set1_epi32(geo.offset * *xs.add(b * geo.m + r));
                    for g in 0..G {
                        iacc[g][r] = _mm512_sub_epi32(iacc[g][r], corr);
                    }
                }
            }
            for r in 0..R {
                let i = b * geo.m + r;
                let dxv = _mm512_set1_ps(*dx.add(i));
                for g in 0..G {
                    let isum = iacc[g][r];
                    let scale = _mm512_mul_ps(dv[g], dxv);
                    facc[g][r] = _mm512_fmadd_ps(scale, _mm512_cvtepi32_ps(isum), facc[g][r]);
                }
                if MIN {
                    let sxv = _mm512_set1_ps(*sx.add(i));
                    for g in 0..G {
                        facc[g][r] = _mm512_fmadd_ps(mv[g], sxv, facc[g][r]);
                    }
                }
            }
        }
        for (r, row) in out.iter_mut().enumerate().take(R) {
            for (g, acc) in facc.iter().enumerate() {
                let c = col + g * TILE_ROWS;
                let valid = row.len().saturating_sub(c).min(TILE_ROWS);
                if valid > 0 {
                    let mask = if valid == TILE_ROWS {
                        u16::MAX
                    } else {
                        (1u16 << valid) - 1
                    };
                    _mm512_mask_storeu_ps(row.as_mut_ptr().add(c), mask, acc[r]);
                }
            }
        }
    }
}

/// Quantizes block `b` of every row of `x` (rows of `k`): see `acts` (same operations as
/// `scalar::quantize_block`).
pub(crate) fn quantize_column(_token: Token, x: &[f32], k: usize, b: usize, col: Column<'_>) {
    if !column_fits(x, k, b, &col) {
        return scalar::quantize_column(x, k, b, col);
    }
    for (r, (qb, ((dx, sx), xs))) in col
        .q
        .chunks_exact_mut(BLOCK)
        .zip(
            col.dx
                .iter_mut()
                .zip(col.sx.iter_mut())
                .zip(col.xs.iter_mut()),
        )
        .enumerate()
    {
        // SAFETY: the token proves avx512f/bw; `column_fits` checked that block b of row r
        // lies inside `x`, and `qb` is 32 bytes.
        let (d, sum) =
            unsafe { quantize_block(x.as_ptr().add(r * k + b * BLOCK), qb.as_mut_ptr()) };
        *dx = d;
        *xs = sum;
        *sx = d * sum as f32;
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn quantize_block(x: *const f32, q: *mut i8) -> (f32, i32) {
    // SAFETY (whole body): the caller passes 32 readable floats and 32 writable bytes.
    unsafe {
        let (a, c) = (_mm512_loadu_ps(x), _mm512_loadu_ps(x.add(16)));
        let amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(a), _mm512_abs_ps(c)));
        let (d, id) = block_scale(amax);
        let idv = _mm512_set1_ps(id);
        let (lo, hi) = (_mm512_set1_ps(-127.0), _mm512_set1_ps(127.0));
        // max(v, -127) returns -127 for NaN, as f32::max does in the scalar path.
        let qa = _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(_mm512_mul_ps(a, idv), lo), hi));
        let qc = _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(_mm512_mul_ps(c, idv), lo), hi));
        _mm_storeu_si128(q.cast(), _mm512_cvtepi32_epi8(qa));
        _mm_storeu_si128(q.add(16).cast(), _mm512_cvtepi32_epi8(qc));
        (d, _mm512_reduce_add_epi32(_mm512_add_epi32(qa, qc)))
    }
}

/// Float kernel: rows of W in groups of up to 4 x activation rows in groups of up to 4, each
/// output a 16-lane strided FMA dot product reduced by the scalar path's fixed tree.
pub(crate) fn float_stripe(
    _token: Token,
    w: &FloatWeights,
    x: &[f32],
    m: usize,
    tiles: Range<usize>,
    out: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    check_float_stripe(w, x, m, &tiles, out)?;
    let col0 = tiles.start * TILE_ROWS;
    let end = (tiles.end * TILE_ROWS).min(w.n_out);
    let mut n = col0;
    while n < end {
        let g = (end - n).min(4);
        let mut r = 0;
        while r < m {
            let rows = (m - r).min(4);
            let o = &mut out[r..r + rows];
            let (wp, xp) = (&w.data[n * w.k_in..], &x[r * w.k_in..]);
            let c = n - col0;
            // SAFETY: the token proves avx512f; rows n..n+g of W and r..r+rows of x exist
            // (checked by `check_float_stripe`), and `c + g` fits the output rows.
            unsafe {
                match (g, rows) {
                    (4, 1) => float_micro::<4, 1>(wp, xp, w.k_in, o, c),
                    (4, 2) => float_micro::<4, 2>(wp, xp, w.k_in, o, c),
                    (4, 3) => float_micro::<4, 3>(wp, xp, w.k_in, o, c),
                    (4, _) => float_micro::<4, 4>(wp, xp, w.k_in, o, c),
                    (_, 1) => float_micro::<1, 1>(wp, xp, w.k_in, o, c),
                    (_, 2) => float_micro::<1, 2>(wp, xp, w.k_in, o, c),
                    (_, 3) => float_micro::<1, 3>(wp, xp, w.k_in, o, c),
                    (_, _) => float_micro::<1, 4>(wp, xp, w.k_in, o, c),
                }
            }
            r += rows;
        }
        n += if g == 4 { 4 } else { 1 };
    }
    Ok(())
}

/// Same tree as `scalar::reduce16`: halves, quarters, pairs.
#[target_feature(enable = "avx512f")]
#[inline]
fn reduce16(a: __m512) -> f32 {
    let lo = _mm512_castps512_ps256(a);
    let hi = _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(a)));
    let s8 = _mm256_add_ps(lo, hi);
    let s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps::<1>(s8));
    let s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps::<1>(s2, s2)))
}

#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn float_micro<const G: usize, const R: usize>(
    w: &[f32],
    x: &[f32],
    k: usize,
    out: &mut [&mut [f32]],
    col: usize,
) {
    // SAFETY (whole body): `w` holds at least G rows of k and `x` at least R rows of k (the
    // caller sliced them from validated buffers); the tail uses masked loads.
    unsafe {
        let mut acc = [[_mm512_setzero_ps(); R]; G];
        let full = k / 16 * 16;
        let (wp, xp) = (w.as_ptr(), x.as_ptr());
        let mut i = 0;
        while i < full {
            let mut wv = [_mm512_setzero_ps(); G];
            for (g, v) in wv.iter_mut().enumerate() {
                *v = _mm512_loadu_ps(wp.add(g * k + i));
            }
            for r in 0..R {
                let xv = _mm512_loadu_ps(xp.add(r * k + i));
                for g in 0..G {
                    acc[g][r] = _mm512_fmadd_ps(wv[g], xv, acc[g][r]);
                }
            }
            i += 16;
        }
        if k > full {
            // Lanes past the end keep their accumulator, as the scalar path never touches them.
            let mask = ((1u32 << (k - full)) - 1) as u16;
            for g in 0..G {
                let wv = _mm512_maskz_loadu_ps(mask, wp.add(g * k + full));
                for r in 0..R {
                    let xv = _mm512_maskz_loadu_ps(mask, xp.add(r * k + full));
                    acc[g][r] = _mm512_mask3_fmadd_ps(wv, xv, acc[g][r], mask);
                }
            }
        }
        for (r, row) in out.iter_mut().enumerate().take(R) {
            for (g, a) in acc.iter().enumerate() {
                row[col + g] = reduce16(a[r]);
            }
        }
    }
}
