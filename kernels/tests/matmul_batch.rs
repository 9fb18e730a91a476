//! Batch invariance: a row of x gives bitwise the same output alone, inside any batch, at any
//! position, with any thread count; plus the API's shape checks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "matmul_common.rs"]
mod common;

use common::*;
use kernels::matmul::{KernelPath, QActs, QMatrix};
use kernels::quant::GgmlType;
use kernels::KernelError;

fn matmul(mat: &QMatrix, x: &[f32], m: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; m * mat.n_out()];
    mat.matmul(x, m, &mut out).unwrap();
    out
}

#[test]
fn row_alone_equals_row_in_batch() {
    let mut rng = Rng(11);
    let cases = [
        (GgmlType::Q4_1, 200, 576),
        (GgmlType::Q8_0, 300, 576),
        (GgmlType::Q4_0, 33, 96),
        (GgmlType::Q4K, 40, 512),
        (GgmlType::Q6K, 24, 256),
        (GgmlType::F16, 50, 100),
    ];
    for (ty, n, k) in cases {
        let bytes = random_weights(&mut rng, ty, n, k);
        let mut mat = QMatrix::new(ty, n, k, &bytes).unwrap();
        for path in KernelPath::available() {
            mat.set_path(path).unwrap();
            let m = 13;
            let x = rng.vec(m * k, 1.0);
            let batch = matmul(&mat, &x, m);
            // Each row alone.
            for r in 0..m {
                let alone = matmul(&mat, &x[r * k..(r + 1) * k], 1);
                let what = format!("{} {} row {r} alone", ty.name(), path.name());
                assert_bits_eq(&alone, &batch[r * n..(r + 1) * n], &what);
            }
            // Reversed order, and sub-batches of every size from the middle.
            let rev: Vec<f32> = (0..m)
                .rev()
                .flat_map(|r| x[r * k..(r + 1) * k].to_vec())
                .collect();
            let out = matmul(&mat, &rev, m);
            for r in 0..m {
                let what = format!("{} {} row {r} reversed", ty.name(), path.name());
                assert_bits_eq(
                    &out[(m - 1 - r) * n..(m - r) * n],
                    &batch[r * n..(r + 1) * n],
                    &what,
                );
            }
            for size in 1..m {
                let start = (m - size) / 2;
                let sub = matmul(&mat, &x[start * k..(start + size) * k], size);
                let what = format!("{} {} sub-batch of {size}", ty.name(), path.name());
                assert_bits_eq(&sub, &batch[start * n..(start + size) * n], &what);
            }
        }
    }
}

#[test]
fn large_batches_match_single_rows() {
    // A prefill-sized batch on the model's largest projection shape.
    let mut rng = Rng(12);
    let (n, k, m) = (1536, 576, 67);
    let bytes = random_weights(&mut rng, GgmlType::Q4_1, n, k);
    let mat = QMatrix::new(GgmlType::Q4_1, n, k, &bytes).unwrap();
    let x = rng.vec(m * k, 1.0);
    let batch = matmul(&mat, &x, m);
    for r in [0, 1, 31, 32, 63, 66] {
        let alone = matmul(&mat, &x[r * k..(r + 1) * k], 1);
        assert_bits_eq(&alone, &batch[r * n..(r + 1) * n], &format!("row {r}"));
    }
}

#[test]
fn thread_count_does_not_matter() {
    let mut rng = Rng(13);
    let (n, k, m) = (1000, 576, 9);
    for ty in [GgmlType::Q4_1, GgmlType::Q8_0, GgmlType::F32] {
        let bytes = random_weights(&mut rng, ty, n, k);
        let mat = QMatrix::new(ty, n, k, &bytes).unwrap();
        let x = rng.vec(m * k, 1.0);
        let want = matmul(&mat, &x, m);
        for threads in [1, 2, 3, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let got = pool.install(|| matmul(&mat, &x, m));
            assert_bits_eq(
                &got,
                &want,
                &format!("{} with {threads} threads", ty.name()),
            );
        }
    }
}

#[test]
fn pre_quantized_activations_match() {
    let mut rng = Rng(14);
    let (k, m) = (576, 5);
    let x = rng.vec(m * k, 1.0);
    let mut acts = QActs::new();
    acts.quantize(&x, m, k).unwrap();
    for ty in [GgmlType::Q4_1, GgmlType::Q8_0, GgmlType::F32] {
        let n = 192;
        let bytes = random_weights(&mut rng, ty, n, k);
        let mat = QMatrix::new(ty, n, k, &bytes).unwrap();
        let mut out = vec![0f32; m * n];
        mat.matmul_quantized(&acts, &mut out).unwrap();
        assert_bits_eq(&out, &matmul(&mat, &x, m), ty.name());
    }
}

#[test]
fn shape_errors() {
    let mut rng = Rng(15);
    let (n, k) = (20, 64);
    let bytes = random_weights(&mut rng, GgmlType::Q4_1, n, k);
    let shape = |r: Result<_, KernelError>| matches!(r, Err(KernelError::Shape(_)));
    assert!(shape(
        QMatrix::new(GgmlType::Q4_1, n, k, &bytes[1..]).map(|_| ())
    ));
    // Same element count, but rows of 16 are not whole blocks.
    assert!(shape(
        QMatrix::new(GgmlType::Q4_1, n * 4, k / 4, &bytes).map(|_| ())
    ));
    assert!(matches!(
        QMatrix::new(GgmlType::Q2K, 1, 256, &[0u8; 84]),
        Err(KernelError::UnsupportedType(_))
    ));
    let mat = QMatrix::new(GgmlType::Q4_1, n, k, &bytes).unwrap();
    let x = vec![0f32; 2 * k];
    let mut out = vec![0f32; 2 * n];
    assert!(shape(mat.matmul(&x[1..], 2, &mut out)));
    assert!(shape(mat.matmul(&x, 2, &mut out[1..])));
    assert!(shape(mat.matmul(&x, 3, &mut out)));
    assert!(mat.matmul(&[], 0, &mut []).is_ok());
    let mut row = vec![0f32; k];
    assert!(shape(mat.row(n, &mut row)));
    assert!(shape(mat.row(0, &mut row[1..])));
    let mut acts = QActs::new();
    acts.quantize(&[0f32; 32], 1, 32).unwrap();
    assert!(shape(mat.matmul_quantized(&acts, &mut out[..n])));
}
