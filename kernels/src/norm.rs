//! RMSNorm: `y = x / sqrt(mean(x^2) + eps) * weight`, row by row.

use crate::vector::sum_squares;
use crate::KernelError;

/// Normalizes each row of `x` (`[rows, weight.len()]`) into `out`.
pub fn rms_norm(x: &[f32], weight: &[f32], eps: f32, out: &mut [f32]) -> Result<(), KernelError> {
    let dim = weight.len();
    if dim == 0 || !x.len().is_multiple_of(dim) || out.len() != x.len() {
        return Err(KernelError::Shape(format!(
            "rms_norm: x {} and out {} values for rows of {dim}",
            x.len(),
            out.len()
        )));
    }
    for (row, dst) in x.chunks_exact(dim).zip(out.chunks_exact_mut(dim)) {
        let scale = 1.0 / (sum_squares(row) / dim as f32 + eps).sqrt();
        for ((d, &v), &w) in dst.iter_mut().zip(row).zip(weight) {
            *d = v * scale * w;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rms_norm_matches_the_formula() {
        let x = [1.0f32, -2.0, 3.0, -4.0, 0.5, 0.5, 0.5, 0.5];
        let w = [1.0f32, 2.0, 0.5, 1.0];
        let mut out = [0.0; 8];
        rms_norm(&x, &w, 1e-5, &mut out).unwrap();
        let r0 = (30.0f32 / 4.0 + 1e-5).sqrt();
        let want0 = [1.0 / r0, -4.0 / r0, 1.5 / r0, -4.0 / r0];
        for (o, w) in out[..4].iter().zip(want0) {
            assert!((o - w).abs() < 1e-6);
        }
        let r1 = (0.25f32 + 1e-5).sqrt();
        assert!((out[5] - 0.5 / r1 * 2.0).abs() < 1e-5);
        assert!(rms_norm(&x[..7], &w, 1e-5, &mut out[..7]).is_err());
    }
}
