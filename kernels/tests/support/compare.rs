//! The error measure of the kernel tests, GPU and emulated (included with `#[path]`).
#![allow(dead_code)]

/// Largest |a - b| / (1 + |b|) over two equally long slices.
pub fn max_rel_err(got: &[f32], want: &[f32]) -> f32 {
    assert_eq!(got.len(), want.len());
    got.iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs() / (1.0 + w.abs()))
        .fold(0.0, f32::max)
}
