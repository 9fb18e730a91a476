//! AVX-512 parts of the tile loop, giving the results of the portable code they replace.
//!
//! Scores of a row block over a key tile, 16 keys at a time: the 16 lane sums of each key's
//! dot product are reduced together by a butterfly of shuffles, one vector add per level for
//! 16 keys, instead of one horizontal reduction per key. Each score goes through exactly the
//! additions of the portable path (`dot_lanes` then `reduce_lanes`). Half K/V rows are widened
//! with `vcvtph2ps`, exact like the portable bit manipulation (NaN payloads aside).

// Index loops over the register arrays mirror the butterfly's levels.
#![allow(clippy::needless_range_loop)]

use std::arch::x86_64::*;

use half::f16;

use super::tile::{TileRows, KEY_TILE};

/// Keys whose scores come out of one butterfly (one per f32 lane of a register).
const GROUP: usize = 16;

/// `p[i][j] = reduce_lanes(dot_lanes(queries[i], key j))` for keys `0..n` of the tile (lanes
/// `n..` of the last group of 16 hold scores of a repeated key; the caller reads `..n`).
///
/// # Safety
/// The CPU must support AVX-512 F; `1 <= n <= KEY_TILE` and every key row holds `D` values.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn scores<const D: usize, const R: usize>(
    queries: &[[f32; D]; R],
    keys: &TileRows<'_>,
    n: usize,
    p: &mut [[f32; KEY_TILE]; R],
) {
    let chunks = D / 16;
    // SAFETY: SCORE_LANE holds 16 i32 values.
    let order = unsafe { _mm512_loadu_si512(SCORE_LANE.as_ptr().cast()) };
    for g0 in (0..n).step_by(GROUP) {
        let rows: [&[f32]; GROUP] = std::array::from_fn(|k| keys.row((g0 + k).min(n - 1), D));
        for (q, out) in queries.iter().zip(p.iter_mut()) {
            let mut acc = [_mm512_setzero_ps(); GROUP];
            for c in 0..chunks {
                // SAFETY: `c * 16 + 16 <= D` for the query row and each D-value key row.
                let qc = unsafe { _mm512_loadu_ps(q.as_ptr().add(c * 16)) };
                for k in 0..GROUP {
                    let kc = unsafe { _mm512_loadu_ps(rows[k].as_ptr().add(c * 16)) };
                    // `x.mul_add(y, acc)`, chunk after chunk, as `dot_lanes` does.
                    acc[k] = _mm512_fmadd_ps(qc, kc, acc[k]);
                }
            }
            let sums = _mm512_permutexvar_epi32(order, _mm512_castps_si512(butterfly(&acc)));
            // SAFETY: g0 + 16 <= KEY_TILE (tiles are whole groups of 16 keys).
            unsafe { _mm512_storeu_ps(out.as_mut_ptr().add(g0), _mm512_castsi512_ps(sums)) };
        }
    }
}

/// `dst[i] = src[i]` as f32: exact, subnormals and infinities included (a NaN stays a NaN; the
/// hardware may quiet it).
///
/// # Safety
/// The CPU must support AVX-512 F.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn widen_f16(src: &[f16], dst: &mut [f32]) {
    let n = src.len().min(dst.len());
    let full = n / 16 * 16;
    for i in (0..full).step_by(16) {
        // SAFETY: i + 16 <= n for both slices.
        unsafe {
            let h = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            _mm512_storeu_ps(dst.as_mut_ptr().add(i), _mm512_cvtph_ps(h));
        }
    }
    for (d, s) in dst[full..n].iter_mut().zip(&src[full..n]) {
        *d = s.to_f32();
    }
}

/// The 16 lane sums of keys 0..16 reduced by `reduce_lanes`' tree, lane `SCORE_LANE[k]` holding
/// key k's: `w8[l] = a[l] + a[l + 8]`, `w4[l] = w8[l] + w8[l + 4]`, then
/// `(w4[0] + w4[2]) + (w4[1] + w4[3])`.
#[target_feature(enable = "avx512f")]
fn butterfly(acc: &[__m512; GROUP]) -> __m512 {
    // w8 of keys p (lanes 0..8) and p + 8 (lanes 8..16).
    let w8: [__m512; 8] = std::array::from_fn(|k| {
        let (a, b) = (acc[k], acc[k + 8]);
        _mm512_add_ps(
            _mm512_shuffle_f32x4::<0x44>(a, b),
            _mm512_shuffle_f32x4::<0xEE>(a, b),
        )
    });
    // w4, a 128-bit chunk per key: chunks hold keys p, p + 8, p + 4, p + 12.
    let w4: [__m512; 4] = std::array::from_fn(|k| {
        let (a, b) = (w8[k], w8[k + 4]);
        _mm512_add_ps(
            _mm512_shuffle_f32x4::<0x88>(a, b),
            _mm512_shuffle_f32x4::<0xDD>(a, b),
        )
    });
    // Per chunk: w4[0] + w4[2] and w4[1] + w4[3] of two keys (from w4[k] and w4[k + 2]).
    let halves: [__m512; 2] = std::array::from_fn(|k| {
        let (a, b) = (w4[k], w4[k + 2]);
        _mm512_add_ps(
            _mm512_shuffle_ps::<0x44>(a, b),
            _mm512_shuffle_ps::<0xEE>(a, b),
        )
    });
    let (a, b) = (halves[0], halves[1]);
    _mm512_add_ps(
        _mm512_shuffle_ps::<0x88>(a, b),
        _mm512_shuffle_ps::<0xDD>(a, b),
    )
}

/// Where the butterfly leaves key k's score: lane `4c + i` holds key
/// `[0, 2, 1, 3][i] + [0, 8, 4, 12][c]`.
const SCORE_LANE: [i32; GROUP] = {
    let mut lanes = [0i32; GROUP];
    let within = [0, 2, 1, 3];
    let mut k = 0;
    while k < GROUP {
        lanes[k] = 4 * within[k >> 2] + within[k & 3];
        k += 1;
    }
    lanes
};

#[cfg(test)]
mod tests {
    use super::super::tests::pseudo;
    use super::super::tile::portable_scores;
    use super::*;

    fn check<const D: usize, const R: usize>() {
        let keys = pseudo(D as u32, KEY_TILE * 3 * D);
        let offsets: Vec<usize> = (0..KEY_TILE).map(|j| j * 3 * D + 7 % D).collect();
        let queries: [[f32; D]; R] = std::array::from_fn(|i| {
            let v = pseudo((i + 100) as u32, D);
            std::array::from_fn(|d| v[d])
        });
        for shift in [0, D] {
            let rows = TileRows {
                base: &keys,
                offsets: &offsets,
                shift,
            };
            for n in [1, 5, 15, 16, 17, 40, 63, KEY_TILE] {
                let mut want = [[0.0f32; KEY_TILE]; R];
                let mut lanes = vec![[0.0f32; 16]; KEY_TILE * R];
                portable_scores::<D, R>(&queries, &rows, n, &mut lanes, &mut want);
                let mut got = [[0.0f32; KEY_TILE]; R];
                // SAFETY: the caller checked the feature; n is within the tile.
                unsafe { scores::<D, R>(&queries, &rows, n, &mut got) };
                for i in 0..R {
                    let (w, g) = (&want[i][..n], &got[i][..n]);
                    let same = w.iter().zip(g).all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(same, "D {D} R {R} n {n} row {i}: {w:?} vs {g:?}");
                }
            }
        }
    }

    #[test]
    fn f16_widening_matches_the_portable_widening_for_every_bit_pattern() {
        if !is_x86_feature_detected!("avx512f") {
            println!("SKIPPED f16 widening: this CPU has no AVX-512 F");
            return;
        }
        let all: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
        let (mut want, mut got) = (vec![0.0f32; all.len()], vec![0.0f32; all.len()]);
        <f16 as super::super::tile::KvElem>::widen(&all, &mut want, false);
        // A length that is not a multiple of 16 exercises the tail.
        let n = all.len() - 7;
        // SAFETY: the feature was checked above.
        unsafe { widen_f16(&all[..n], &mut got[..n]) };
        got[n..].copy_from_slice(&want[n..]);
        for (h, (w, g)) in all.iter().zip(want.iter().zip(&got)) {
            assert!(
                w.to_bits() == g.to_bits() || (w.is_nan() && g.is_nan()),
                "f16 {:#06x}: {g} vs {w}",
                h.to_bits()
            );
        }
    }

    #[test]
    fn butterfly_scores_equal_the_portable_scores_bit_for_bit() {
        if !is_x86_feature_detected!("avx512f") {
            println!("SKIPPED butterfly scores: this CPU has no AVX-512 F");
            return;
        }
        check::<64, 1>();
        check::<64, 3>();
        check::<64, 4>();
        check::<128, 2>();
        check::<128, 4>();
    }
}
