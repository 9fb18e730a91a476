//! AVX2 + FMA + F16C kernels, for x86-64 CPUs without AVX-512 VNNI.
//!
//! Same tile layout and per-element arithmetic as the AVX-512 path, on 8-row halves of a
//! 16-row tile. Integer dot products use `pmaddubsw` (u8 x i8 -> i16 pairs) then `pmaddwd`:
//! - 4-bit codes: all 8 `pmaddubsw` of a block fit one i16 accumulator (8 * 2 * 15 * 127 =
//!   30480 < 32767), widened once per block;
//! - signed bytes (Q8_0, stored `q ^ 0x80`): `|w|` times `x` with `w`'s sign, so no pair
//!   exceeds 2 * 128 * 127 and no offset correction is needed;
//! - other byte codes (< 64): direct, widened per quad, then the offset correction.

// Index loops over the register arrays mirror the tile shape (G tiles x R rows).
#![allow(clippy::needless_range_loop)]

use std::arch::x86_64::*;
use std::ops::Range;

use super::acts::{block_scale, column_fits, Column, QActs};
use super::dispatch::{cache_blocks, check_float_stripe, check_int_stripe, fp4_layout};
use super::pack::{Codes, FloatWeights, IntWeights, ScaleFmt, BLOCK, FP4_CODES, TILE_ROWS};
use super::scalar;
use crate::KernelError;

/// Activation rows per micro-tile (16 ymm registers in all).
const R_MAX: usize = 2;
/// How far ahead (in blocks) weights are prefetched while they stream from memory.
const PREFETCH_BLOCKS: usize = 8;

/// Proof that the CPU has AVX2, FMA and F16C; only `new` can make one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token(());

impl Token {
    pub fn new() -> Option<Self> {
        let ok = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c");
        ok.then_some(Token(()))
    }
}

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
    signed: bool,
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
        signed: l.signed_codes(),
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
    // SAFETY: the token proves avx2/fma/f16c; `check_int_stripe` checked the tile range, the
    // activation buffers and every output row against the geometry the kernel addresses.
    unsafe { run(&geo, acts, tiles, out) };
    Ok(())
}

#[target_feature(enable = "avx2,fma,f16c")]
unsafe fn int_tiles<const NIB: bool, const F32S: bool, const MIN: bool, const FP4: bool>(
    geo: &Geometry,
    acts: &QActs,
    tiles: Range<usize>,
    out: &mut [&mut [f32]],
) {
    for (group, rows) in cache_blocks(tiles.clone(), geo.tile_bytes, out.len()) {
        for t in group {
            let col = (t - tiles.start) * TILE_ROWS;
            let mut r = rows.start;
            while r < rows.end {
                let n = (rows.end - r).min(R_MAX);
                let o = &mut out[r..r + n];
                // SAFETY: tile t and rows r..r+n are in range, as checked by the caller.
                unsafe {
                    if n == 1 {
                        micro::<1, NIB, F32S, MIN, FP4>(geo, acts, t, r, o, col, r == 0);
                    } else {
                        micro::<2, NIB, F32S, MIN, FP4>(geo, acts, t, r, o, col, r == 0);
                    }
                }
                r += n;
            }
        }
    }
}

#[target_feature(enable = "avx2,f16c")]
#[inline]
unsafe fn load_scales<const F32S: bool>(p: *const u8) -> __m256 {
    // SAFETY: the caller points `p` at 8 scales of the packed block.
    unsafe {
        if F32S {
            _mm256_loadu_ps(p.cast())
        } else {
            _mm256_cvtph_ps(_mm_loadu_si128(p.cast()))
        }
    }
}

/// One weight tile (two halves of 8 rows) x `R` activation rows.
#[target_feature(enable = "avx2,fma,f16c")]
#[inline]
unsafe fn micro<
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
    // SAFETY (whole body): pointers stay inside tile t of the packed data and activation rows
    // r0..r0+R, whose extents the caller validated; stores are clipped to the row length.
    unsafe {
        let wt = geo.data.add(t * geo.tile_bytes);
        let (q, dx, sx, xs) = (
            acts.q.as_ptr().add(r0 * BLOCK),
            acts.dx.as_ptr().add(r0),
            acts.sx.as_ptr().add(r0),
            acts.xs.as_ptr().add(r0),
        );
        let low4 = _mm256_set1_epi8(0x0F);
        let fp4 = _mm256_broadcastsi128_si256(_mm_loadu_si128(FP4_CODES.as_ptr().cast()));
        let flip = _mm256_set1_epi8(-128);
        let ones = _mm256_set1_epi16(1);
        let mut facc = [[_mm256_setzero_ps(); R]; 2];
        for b in 0..geo.nb {
            let wb = wt.add(b * geo.block_bytes);
            if first_rows {
                // The first rows stream the weights from memory: ask for them early (a
                // prefetch past the end of the data is harmless).
                let ahead = wb.wrapping_add(PREFETCH_BLOCKS * geo.block_bytes);
                for line in (0..geo.block_bytes).step_by(64) {
                    _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(line).cast());
                }
            }
            let mut isum = [[_mm256_setzero_si256(); R]; 2];
            if NIB {
                let mut acc16 = [[_mm256_setzero_si256(); R]; 2];
                for c in 0..4 {
                    let mut lo = [_mm256_setzero_si256(); 2];
                    let mut hi = [_mm256_setzero_si256(); 2];
                    for h in 0..2 {
                        let v = _mm256_loadu_si256(wb.add(c * 64 + h * 32).cast());
                        lo[h] = _mm256_and_si256(v, low4);
                        hi[h] = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low4);
                        if FP4 {
                            lo[h] = _mm256_shuffle_epi8(fp4, lo[h]);
                            hi[h] = _mm256_shuffle_epi8(fp4, hi[h]);
                        }
                    }
                    for r in 0..R {
                        let xq = q.add((b * geo.m + r) * BLOCK).cast::<i32>();
                        let xa = _mm256_set1_epi32(xq.add(c).read_unaligned());
                        let xb = _mm256_set1_epi32(xq.add(c + 4).read_unaligned());
                        for h in 0..2 {
                            let p = _mm256_add_epi16(
                                _mm256_maddubs_epi16(lo[h], xa),
                                _mm256_maddubs_epi16(hi[h], xb),
                            );
                            if FP4 {
                                // Codes up to 24 would overflow 16 bits over four chunks.
                                let wide = _mm256_madd_epi16(p, ones);
                                isum[h][r] = _mm256_add_epi32(isum[h][r], wide);
                            } else {
                                acc16[h][r] = _mm256_add_epi16(acc16[h][r], p);
                            }
                        }
                    }
                }
                if !FP4 {
                    for h in 0..2 {
                        for r in 0..R {
                            isum[h][r] = _mm256_madd_epi16(acc16[h][r], ones);
                        }
                    }
                }
            } else {
                for c in 0..8 {
                    for h in 0..2 {
                        let v = _mm256_loadu_si256(wb.add(c * 64 + h * 32).cast());
                        let (a, sign) = if geo.signed {
                            let w = _mm256_xor_si256(v, flip);
                            (_mm256_abs_epi8(w), w)
                        } else {
                            (v, ones)
                        };
                        for r in 0..R {
                            let xq = q.add((b * geo.m + r) * BLOCK).cast::<i32>();
                            let mut xa = _mm256_set1_epi32(xq.add(c).read_unaligned());
                            if geo.signed {
                                xa = _mm256_sign_epi8(xa, sign);
                            }
                            let p = _mm256_madd_epi16(_mm256_maddubs_epi16(a, xa), ones);
                            isum[h][r] = _mm256_add_epi32(isum[h][r], p);
                        }
                    }
                }
            }
            let mut dv = [_mm256_setzero_ps(); 2];
            let mut mv = [_mm256_setzero_ps(); 2];
            for h in 0..2 {
                let sp = wb.add(geo.code_bytes + h * geo.scale_bytes / 2);
                dv[h] = load_scales::<F32S>(sp);
                if MIN {
                    mv[h] = load_scales::<F32S>(sp.add(geo.scale_bytes));
                }
            }
            // Signed codes were summed as true values; others need Σ code*q - offset*Σq.
            if geo.offset != 0 && !geo.signed {
                for r in 0..R {
                    let corr = _mm256_set1_epi32(geo.offset * *xs.add(b * geo.m + r));
                    for h in 0..2 {
                        isum[h][r] = _mm256_sub_epi32(isum[h][r], corr);
                    }
                }
            }
            for r in 0..R {
                let i = b * geo.m + r;
                let dxv = _mm256_set1_ps(*dx.add(i));
                for h in 0..2 {
                    let s = isum[h][r];
                    let scale = _mm256_mul_ps(dv[h], dxv);
                    facc[h][r] = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(s), facc[h][r]);
                }
                if MIN {
                    let sxv = _mm256_set1_ps(*sx.add(i));
                    for h in 0..2 {
                        facc[h][r] = _mm256_fmadd_ps(mv[h], sxv, facc[h][r]);
                    }
                }
            }
        }
        for (r, row) in out.iter_mut().enumerate().take(R) {
            for (h, acc) in facc.iter().enumerate() {
                let c = col + h * 8;
                let valid = row.len().saturating_sub(c).min(8);
                if valid == 8 {
                    _mm256_storeu_ps(row.as_mut_ptr().add(c), acc[r]);
                } else if valid > 0 {
                    let mut tmp = [0f32; 8];
                    _mm256_storeu_ps(tmp.as_mut_ptr(), acc[r]);
                    row[c..c + valid].copy_from_slice(&tmp[..valid]);
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
        // SAFETY: the token proves avx2; `column_fits` checked that block b of row r lies
        // inside `x`, and `qb` is 32 bytes.
        let (d, sum) =
            unsafe { quantize_block(x.as_ptr().add(r * k + b * BLOCK), qb.as_mut_ptr()) };
        *dx = d;
        *xs = sum;
        *sx = d * sum as f32;
    }
}

#[target_feature(enable = "avx2")]
unsafe fn quantize_block(x: *const f32, q: *mut i8) -> (f32, i32) {
    let abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFF_FFFF));
    let (lo, hi) = (_mm256_set1_ps(-127.0), _mm256_set1_ps(127.0));
    let mut v = [_mm256_setzero_ps(); 4];
    for (j, vj) in v.iter_mut().enumerate() {
        // SAFETY: the caller passes 32 readable floats.
        *vj = unsafe { _mm256_loadu_ps(x.add(8 * j)) };
    }
    let a = |j: usize| _mm256_and_ps(v[j], abs_mask);
    let m8 = _mm256_max_ps(_mm256_max_ps(a(0), a(1)), _mm256_max_ps(a(2), a(3)));
    let m4 = _mm_max_ps(_mm256_castps256_ps128(m8), _mm256_extractf128_ps::<1>(m8));
    let m2 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    let amax = _mm_cvtss_f32(_mm_max_ss(m2, _mm_shuffle_ps::<1>(m2, m2)));
    let (d, id) = block_scale(amax);
    let idv = _mm256_set1_ps(id);
    let mut qi = [_mm256_setzero_si256(); 4];
    for (qj, vj) in qi.iter_mut().zip(v.iter()) {
        // max(v, -127) returns -127 for NaN, as f32::max does in the scalar path.
        *qj = _mm256_cvtps_epi32(_mm256_min_ps(
            _mm256_max_ps(_mm256_mul_ps(*vj, idv), lo),
            hi,
        ));
    }
    // Packing interleaves 128-bit lanes; the permute restores element order.
    let p01 = _mm256_packs_epi32(qi[0], qi[1]);
    let p23 = _mm256_packs_epi32(qi[2], qi[3]);
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    let bytes = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(p01, p23), order);
    // SAFETY: the caller passes 32 writable bytes.
    unsafe { _mm256_storeu_si256(q.cast(), bytes) };
    let s8 = _mm256_add_epi32(
        _mm256_add_epi32(qi[0], qi[1]),
        _mm256_add_epi32(qi[2], qi[3]),
    );
    let s4 = _mm_add_epi32(
        _mm256_castsi256_si128(s8),
        _mm256_extracti128_si256::<1>(s8),
    );
    let s2 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
    (
        d,
        _mm_cvtsi128_si32(_mm_add_epi32(s2, _mm_shuffle_epi32::<1>(s2))),
    )
}

/// Float kernel: 2 rows of W x up to 2 activation rows, 16 strided lanes as two ymm.
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
        let g = (end - n).min(2);
        let mut r = 0;
        while r < m {
            let rows = (m - r).min(2);
            let o = &mut out[r..r + rows];
            let (wp, xp) = (&w.data[n * w.k_in..], &x[r * w.k_in..]);
            let c = n - col0;
            // SAFETY: the token proves avx2/fma; rows n..n+g of W and r..r+rows of x exist
            // (checked by `check_float_stripe`), and `c + g` fits the output rows.
            unsafe {
                match (g, rows) {
                    (2, 1) => float_micro::<2, 1>(wp, xp, w.k_in, o, c),
                    (2, _) => float_micro::<2, 2>(wp, xp, w.k_in, o, c),
                    (_, 1) => float_micro::<1, 1>(wp, xp, w.k_in, o, c),
                    (_, _) => float_micro::<1, 2>(wp, xp, w.k_in, o, c),
                }
            }
            r += rows;
        }
        n += g;
    }
    Ok(())
}

/// Same tree as `scalar::reduce16`, with lanes 0..8 in `lo` and 8..16 in `hi`.
#[target_feature(enable = "avx2")]
#[inline]
fn reduce16(lo: __m256, hi: __m256) -> f32 {
    let s8 = _mm256_add_ps(lo, hi);
    let s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps::<1>(s8));
    let s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps::<1>(s2, s2)))
}

#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn float_micro<const G: usize, const R: usize>(
    w: &[f32],
    x: &[f32],
    k: usize,
    out: &mut [&mut [f32]],
    col: usize,
) {
    // SAFETY (whole body): `w` holds at least G rows of k and `x` at least R rows of k; the
    // tail uses masked loads.
    unsafe {
        let mut acc = [[[_mm256_setzero_ps(); 2]; R]; G];
        let full = k / 16 * 16;
        let (wp, xp) = (w.as_ptr(), x.as_ptr());
        let mut i = 0;
        while i < full {
            for h in 0..2 {
                let mut wv = [_mm256_setzero_ps(); G];
                for (g, v) in wv.iter_mut().enumerate() {
                    *v = _mm256_loadu_ps(wp.add(g * k + i + 8 * h));
                }
                for r in 0..R {
                    let xv = _mm256_loadu_ps(xp.add(r * k + i + 8 * h));
                    for g in 0..G {
                        acc[g][r][h] = _mm256_fmadd_ps(wv[g], xv, acc[g][r][h]);
                    }
                }
            }
            i += 16;
        }
        if k > full {
            // The upper half's address may lie past the row when fewer than 9 remain: only
            // masked-on lanes are read, so it is formed with `wrapping_add`.
            let rem = (k - full) as i32;
            for h in 0..2 {
                let base = 8 * h as i32;
                let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(rem - base), lane);
                let keep = _mm256_castsi256_ps(mask);
                for g in 0..G {
                    let wv = _mm256_maskload_ps(wp.wrapping_add(g * k + full + 8 * h), mask);
                    for r in 0..R {
                        let xv = _mm256_maskload_ps(xp.wrapping_add(r * k + full + 8 * h), mask);
                        let sum = _mm256_fmadd_ps(wv, xv, acc[g][r][h]);
                        // Lanes past the end keep their accumulator, as in the scalar path.
                        acc[g][r][h] = _mm256_blendv_ps(acc[g][r][h], sum, keep);
                    }
                }
            }
        }
        for (r, row) in out.iter_mut().enumerate().take(R) {
            for (g, a) in acc.iter().enumerate() {
                row[col + g] = reduce16(a[r][0], a[r][1]);
            }
        }
    }
}
