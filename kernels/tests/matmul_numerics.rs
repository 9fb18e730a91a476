//! Matmul numerics: every kernel path against the others (bit for bit) and against f64
//! references; `row` against `dequantize`.
//!
//! Tolerances:
//! - against the same-quantization f64 reference (W dequantized, x quantized to 8 bits
//!   exactly as documented): |got - ref| <= 1e-5 * Σ|w_j x_j| — only f32 rounding differs;
//! - against the float reference (x unquantized): the rigorous activation-quantization bound
//!   Σ_blocks (dx / 2) Σ|w_j| (see `act_quant_bound`) plus the same 1e-5 rounding term.
//!   For random data this is typically about 1% of Σ|w_j x_j|.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "matmul_common.rs"]
mod common;

use common::*;
use kernels::matmul::{KernelPath, QMatrix};
use kernels::quant::GgmlType;

const ROUNDING: f64 = 1e-5;

fn run(mat: &mut QMatrix, path: KernelPath, x: &[f32], m: usize) -> Vec<f32> {
    mat.set_path(path).unwrap();
    let mut out = vec![f32::NAN; m * mat.n_out()];
    mat.matmul(x, m, &mut out).unwrap();
    out
}

#[test]
fn paths_agree_bit_for_bit() {
    let paths = KernelPath::available();
    assert!(paths.contains(&KernelPath::Scalar));
    let mut rng = Rng(1);
    for ty in TYPES {
        for (n, k) in shapes(ty) {
            let bytes = random_weights(&mut rng, ty, n, k);
            let mut mat = QMatrix::new(ty, n, k, &bytes).unwrap();
            for m in [1, 2, 3, 5, 9] {
                let x = rng.vec(m * k, 2.0);
                let want = run(&mut mat, KernelPath::Scalar, &x, m);
                for &path in &paths {
                    let got = run(&mut mat, path, &x, m);
                    let what = format!("{} {n}x{k} m={m} {}", ty.name(), path.name());
                    assert_bits_eq(&got, &want, &what);
                }
            }
        }
    }
}

#[test]
fn matches_f64_references() {
    let mut rng = Rng(2);
    for ty in TYPES {
        for (n, k) in shapes(ty) {
            let bytes = random_weights(&mut rng, ty, n, k);
            let w = dequant_rows(ty, &bytes, n, k);
            let mut mat = QMatrix::new(ty, n, k, &bytes).unwrap();
            let m = 3;
            // Rows of different magnitudes, and one with a zero block.
            let mut x = rng.vec(m * k, 1.0);
            x[k..2 * k].iter_mut().for_each(|v| *v *= 1e-3);
            x[2 * k..2 * k + k.min(32)]
                .iter_mut()
                .for_each(|v| *v = 0.0);
            let quantized = mat.quantizes_activations();
            for path in KernelPath::available() {
                let out = run(&mut mat, path, &x, m);
                for r in 0..m {
                    let xr = &x[r * k..(r + 1) * k];
                    for j in 0..n {
                        let wr = &w[j * k..(j + 1) * k];
                        let got = f64::from(out[r * n + j]);
                        let what = format!("{} {n}x{k} {} out[{r},{j}]", ty.name(), path.name());
                        let (same_q, scale) = reference_dot(wr, xr, quantized);
                        let tol = ROUNDING * scale + 1e-30;
                        assert!(
                            (got - same_q).abs() <= tol,
                            "{what}: {got} vs {same_q} (tol {tol})"
                        );
                        let (exact, scale) = reference_dot(wr, xr, false);
                        let bound = if quantized {
                            act_quant_bound(wr, xr)
                        } else {
                            0.0
                        };
                        let tol = bound + ROUNDING * scale + 1e-30;
                        assert!(
                            (got - exact).abs() <= tol,
                            "{what}: {got} vs float {exact} (tol {tol})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn row_is_dequantize() {
    let mut rng = Rng(3);
    for ty in TYPES {
        for (n, k) in shapes(ty) {
            let bytes = random_weights(&mut rng, ty, n, k);
            let w = dequant_rows(ty, &bytes, n, k);
            let mat = QMatrix::new(ty, n, k, &bytes).unwrap();
            let mut row = vec![0f32; k];
            for r in 0..n {
                mat.row(r, &mut row).unwrap();
                assert_bits_eq(
                    &row,
                    &w[r * k..(r + 1) * k],
                    &format!("{} row {r}", ty.name()),
                );
            }
        }
    }
}

#[test]
fn model_shapes_agree_across_paths() {
    // The shapes of SmolLM2-135M, with a batch that exercises every micro-tile remainder
    // and the parallel split.
    let mut rng = Rng(4);
    let cases = [
        (GgmlType::Q4_1, 576, 576),
        (GgmlType::Q4_1, 192, 576),
        (GgmlType::Q4_1, 1536, 576),
        (GgmlType::Q4_1, 576, 1536),
        (GgmlType::Q8_0, 4099, 576),
    ];
    for (ty, n, k) in cases {
        let bytes = random_weights(&mut rng, ty, n, k);
        let mut mat = QMatrix::new(ty, n, k, &bytes).unwrap();
        let m = 7;
        let x = rng.vec(m * k, 1.0);
        let want = run(&mut mat, KernelPath::Scalar, &x, m);
        for path in KernelPath::available() {
            let got = run(&mut mat, path, &x, m);
            assert_bits_eq(
                &got,
                &want,
                &format!("{} {n}x{k} {}", ty.name(), path.name()),
            );
        }
    }
}

#[test]
fn extreme_activations() {
    // Subnormal, huge and exactly-tied values: the quantization must agree on every path.
    let mut rng = Rng(5);
    let (n, k) = (20, 128);
    let bytes = random_weights(&mut rng, GgmlType::Q4_1, n, k);
    let mut mat = QMatrix::new(GgmlType::Q4_1, n, k, &bytes).unwrap();
    let mut x = vec![0f32; 2 * k];
    for (i, v) in x.iter_mut().enumerate() {
        *v = match i / 32 {
            0 => 1e-40 * (i % 7) as f32,
            1 => 1e30 * if i % 2 == 0 { 1.0 } else { -0.5 },
            2 => (i % 32) as f32 * 0.5 - 8.0,
            3 => 127.0 * if i == 100 { 1.0 } else { 0.5 },
            _ => rng.f32(),
        };
    }
    let want = run(&mut mat, KernelPath::Scalar, &x, 2);
    for path in KernelPath::available() {
        let got = run(&mut mat, path, &x, 2);
        assert_bits_eq(&got, &want, path.name());
    }
}

/// MXFP4's largest codes (nibble 7, the value 6) against the largest activations on every
/// path: a block's integer sum (32 x 24 x 127 before the offset) is past what 16-bit
/// accumulators hold, and must come out exact.
#[test]
fn mxfp4_at_its_largest_values_is_exact_on_every_path() {
    let (n, k) = (16, 64);
    // Scale byte 127 (values times 2^-1), every nibble 7 (twice 6: 12), or 15 (-12).
    let block = |nibble: u8| -> Vec<u8> {
        let mut b = vec![127u8];
        b.extend(std::iter::repeat_n(nibble | (nibble << 4), 16));
        b
    };
    let mut bytes = Vec::new();
    for row in 0..n {
        let nibble = if row % 2 == 0 { 7 } else { 15 };
        bytes.extend(block(nibble));
        bytes.extend(block(nibble));
    }
    let mut mat = QMatrix::new(GgmlType::Mxfp4, n, k, &bytes).unwrap();
    let x = vec![1.0f32; k];
    for path in KernelPath::available() {
        let out = run(&mut mat, path, &x, 1);
        for (row, &got) in out.iter().enumerate() {
            let want = if row % 2 == 0 {
                6.0 * k as f32
            } else {
                -6.0 * k as f32
            };
            assert_eq!(got, want, "{} row {row}", path.name());
        }
    }
}
