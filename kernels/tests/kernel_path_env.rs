//! `RADIXSERVE_KERNEL_PATH` picks a narrower kernel path than the CPU's best. Its own test
//! binary: the choice is made once per process, before anything else asks for it.

use kernels::matmul::{KernelPath, QMatrix, KERNEL_PATH_ENV};
use kernels::quant::GgmlType;

#[test]
fn the_named_path_is_used_and_disables_avx512_elsewhere() {
    std::env::set_var(KERNEL_PATH_ENV, "scalar");
    assert_eq!(KernelPath::detect(), KernelPath::Scalar);
    assert!(!KernelPath::allows_avx512());
    // A matrix built now runs the scalar path and still multiplies correctly.
    let (n_out, k_in) = (3, 32);
    let w: Vec<f32> = (0..n_out * k_in).map(|i| (i % 7) as f32 - 3.0).collect();
    let bytes: Vec<u8> = w.iter().flat_map(|v| v.to_le_bytes()).collect();
    let m = QMatrix::new(GgmlType::F32, n_out, k_in, &bytes).expect("f32 matrix");
    assert_eq!(m.path(), KernelPath::Scalar);
    let x: Vec<f32> = (0..k_in).map(|i| i as f32 / 8.0).collect();
    let mut out = vec![0.0f32; n_out];
    m.matmul(&x, 1, &mut out).expect("matmul");
    for (r, got) in out.iter().enumerate() {
        let want: f32 = (0..k_in).map(|j| w[r * k_in + j] * x[j]).sum();
        assert!(
            (got - want).abs() <= 1e-3 * want.abs().max(1.0),
            "row {r}: {got} vs {want}"
        );
    }
}
