//! Small vector primitives for the attention and norm kernels, compiled for AVX-512, AVX2+FMA
//! and the baseline, chosen at run time. Each uses a fixed 16-lane accumulation order, so
//! every target computes bitwise the same result (the vector width only changes speed).

use multiversion::multiversion;

const LANES: usize = 16;

/// `sum(a[i] * b[i])`, accumulated in 16 interleaved partial sums then reduced in a fixed tree.
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
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

/// `y[i] += alpha * x[i]`.
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
pub fn axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
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
    fn axpy_adds_scaled() {
        let mut y = vec![1.0; 20];
        axpy(2.0, &[3.0; 20], &mut y);
        assert!(y.iter().all(|&v| v == 7.0));
    }
}
