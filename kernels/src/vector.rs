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
