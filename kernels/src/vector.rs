//! Small vector primitives for the attention and norm kernels, compiled for AVX-512, AVX2+FMA
//! and the baseline, chosen at run time. Each uses a fixed 16-lane accumulation order, so
//! every target computes bitwise the same result (the vector width only changes speed).

use multiversion::multiversion;

const LANES: usize = 16;

/// `sum(a[i] * b[i])`, accumulated in 16 interleaved partial sums then reduced in a fixed tree.
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    dot_inline(a, b)
}

/// `out[r] = dot(rows[r], x)` for each `x.len()`-long row of `rows`, each bitwise what [`dot`]
/// gives. Four rows at a time: one [`dot`] waits on its single chain of additions; four
/// independent chains keep the vector unit busy (a LoRA adapter's `A x`, for one).
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn dot_rows(rows: &[f32], x: &[f32], out: &mut [f32]) {
    let n = x.len();
    if n == 0 {
        out.fill(0.0);
        return;
    }
    let blocks = rows.chunks_exact(4 * n);
    let rest = blocks.remainder();
    let mut outs = out.chunks_exact_mut(4);
    for (block, o) in blocks.zip(&mut outs) {
        o.copy_from_slice(&dot4_inline(block, x));
    }
    for (row, o) in rest.chunks_exact(n).zip(outs.into_remainder()) {
        *o = dot_inline(row, x);
    }
}

/// Four rows (`[4, x.len()]`) dotted with `x`, each exactly as [`dot_inline`] sums it.
#[inline(always)]
fn dot4_inline(block: &[f32], x: &[f32]) -> [f32; 4] {
    let n = x.len();
    let (r0, rest) = block.split_at(n);
    let (r1, rest) = rest.split_at(n);
    let (r2, r3) = rest.split_at(n);
    // Whole 16-lane chunks as arrays: the loop below then has no bounds to check.
    let (xc, xt) = x.as_chunks::<LANES>();
    let rows = [r0, r1, r2, r3].map(|r| r.as_chunks::<LANES>());
    let ([c0, c1, c2, c3], [t0, t1, t2, t3]) = (rows.map(|r| r.0), rows.map(|r| r.1));
    let mut acc = [[0.0f32; LANES]; 4];
    for ((((xs, y0), y1), y2), y3) in xc.iter().zip(c0).zip(c1).zip(c2).zip(c3) {
        for l in 0..LANES {
            acc[0][l] += y0[l] * xs[l];
            acc[1][l] += y1[l] * xs[l];
            acc[2][l] += y2[l] * xs[l];
            acc[3][l] += y3[l] * xs[l];
        }
    }
    for (acc, tail) in acc.iter_mut().zip([t0, t1, t2, t3]) {
        for (l, (y, x)) in tail.iter().zip(xt).enumerate() {
            acc[l] += y * x;
        }
    }
    acc.map(reduce)
}

/// `y[i] += alpha * x[i]`.
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    axpy_inline(alpha, x, y)
}

/// The body of [`dot`], for kernels that are themselves compiled per target: inlined there,
/// it is vectorized for that target and costs no call.
#[inline(always)]
pub(crate) fn dot_inline(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let mut acc = [0.0f32; LANES];
    let (ca, cb) = (a[..n].chunks_exact(LANES), b[..n].chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..LANES {
            acc[l] += x[l] * y[l];
        }
    }
    for (l, (x, y)) in ra.iter().zip(rb).enumerate() {
        acc[l] += x * y;
    }
    reduce(acc)
}

/// The body of [`axpy`] (see [`dot_inline`]).
#[inline(always)]
pub(crate) fn axpy_inline(alpha: f32, x: &[f32], y: &mut [f32]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// Packs a (value, id) pair into one integer whose ascending order is value descending,
/// then id ascending: the order every cut works in. Sorting and selecting plain u64s
/// avoids an indirect comparator.
#[inline(always)]
pub fn order_key(x: f32, id: u32) -> u64 {
    let bits = x.to_bits();
    // Flip so that unsigned order matches float order (NaN was sanitized away).
    let ascending = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 0x8000_0000
    };
    (u64::from(!ascending) << 32) | u64::from(id)
}

#[inline(always)]
pub fn key_id(key: u64) -> u32 {
    key as u32
}

/// `exp(x)` to about 1 ulp (Cephes `expf`), branch-free so a loop over it vectorizes.
/// Returns exactly 0 below -87 (including -inf) and exactly 1 at 0.
#[inline(always)]
pub fn exp_approx(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    // ln 2 split so that `n * LN2_HI` is exact for |n| <= 128.
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Adding 1.5 * 2^23 rounds to the nearest integer without a `round` call.
    const ROUNDER: f32 = 12_582_912.0;
    let xc = x.clamp(-87.0, 88.0);
    let shifted = xc * LOG2E + ROUNDER;
    let n = shifted - ROUNDER;
    let r = xc - n * LN2_HI - n * LN2_LO;
    let mut p = 1.987_569_1e-4_f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e = p * r * r + r + 1.0;
    // `shifted`'s bits are 0x4B40_0000 + n; rebias n into an exponent with wrapping integer
    // ops only (a float-to-int cast or checked add would stop the loop from vectorizing).
    // n is in [-126, 127] after the clamp, so the exponent is a normal one.
    let two_n = f32::from_bits(shifted.to_bits().wrapping_sub(0x4B40_0000 - 127) << 23);
    if x < -87.0 {
        0.0
    } else {
        e * two_n
    }
}

/// `sum(x[i]^2)` in the same fixed order as [`dot`].
pub fn sum_squares(x: &[f32]) -> f32 {
    dot(x, x)
}

#[inline(always)]
fn reduce(acc: [f32; LANES]) -> f32 {
    let mut w = acc;
    let mut half = LANES / 2;
    while half > 0 {
        for l in 0..half {
            w[l] += w[l + half];
        }
        half /= 2;
    }
    w[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_rows_gives_each_row_what_dot_gives() {
        for (rows, n) in [(1, 5), (4, 16), (7, 37), (8, 576), (9, 1536), (3, 0)] {
            let a: Vec<f32> = (0..rows * n)
                .map(|i| ((i * 37) % 101) as f32 * 0.013 - 0.6)
                .collect();
            let x: Vec<f32> = (0..n)
                .map(|i| ((i * 11) % 23) as f32 * 0.07 - 0.8)
                .collect();
            let mut out = vec![f32::NAN; rows];
            dot_rows(&a, &x, &mut out);
            for r in 0..rows {
                let want = if n == 0 {
                    0.0
                } else {
                    dot(&a[r * n..][..n], &x)
                };
                assert_eq!(out[r].to_bits(), want.to_bits(), "{rows}x{n} row {r}");
            }
        }
    }

    #[test]
    fn dot_matches_f64_reference() {
        for n in [0usize, 1, 15, 16, 17, 64, 100] {
            let a: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..n).map(|i| (i as f32 * 0.11).cos()).collect();
            let want: f64 = a.iter().zip(&b).map(|(x, y)| *x as f64 * *y as f64).sum();
            assert!((dot(&a, &b) as f64 - want).abs() < 1e-4, "n={n}");
        }
    }

    #[test]
    fn exp_approx_matches_the_library_and_handles_the_edges() {
        let mut worst = 0.0f64;
        let mut x = -87.0f32;
        while x < 88.0 {
            let want = f64::from(x).exp();
            let got = f64::from(exp_approx(x));
            worst = worst.max(((got - want) / want).abs());
            x += 0.0137;
        }
        assert!(worst < 5e-7, "worst relative error {worst}");
        assert_eq!(exp_approx(0.0), 1.0);
        assert_eq!(exp_approx(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_approx(-1000.0), 0.0);
        assert!(exp_approx(f32::NAN).is_nan());
    }

    #[test]
    fn axpy_adds_scaled() {
        let mut y = vec![1.0; 20];
        axpy(2.0, &[3.0; 20], &mut y);
        assert!(y.iter().all(|&v| v == 7.0));
    }
}
