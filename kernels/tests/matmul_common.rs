//! Helpers shared by the matmul tests (included with `#[path]`): random GGUF-style weights,
//! and f64 references.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use half::f16;
use kernels::quant::{dequantize, GgmlType};

pub struct Rng(pub u64);

impl Rng {
    pub fn u64(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    pub fn f32(&mut self) -> f32 {
        (self.u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    pub fn vec(&mut self, n: usize, scale: f32) -> Vec<f32> {
        (0..n).map(|_| self.f32() * scale).collect()
    }
}

/// Byte offsets of the f16 scale fields inside one block of `ty`.
fn f16_fields(ty: GgmlType) -> &'static [usize] {
    match ty {
        GgmlType::Q4_0 | GgmlType::Q5_0 | GgmlType::Q8_0 => &[0],
        GgmlType::Q4_1 | GgmlType::Q5_1 | GgmlType::Q4K | GgmlType::Q5K => &[0, 2],
        GgmlType::Q6K => &[208],
        _ => &[],
    }
}

/// Random bytes for `n_out` rows of `k` elements of `ty`: random codes everywhere, sane
/// random f16 scales (mins of either sign) in the scale fields.
pub fn random_weights(rng: &mut Rng, ty: GgmlType, n_out: usize, k: usize) -> Vec<u8> {
    let n = n_out * k;
    match ty {
        GgmlType::F32 => {
            return rng
                .vec(n, 1.0)
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect()
        }
        GgmlType::F16 => {
            return rng
                .vec(n, 1.0)
                .iter()
                .flat_map(|&v| f16::from_f32(v).to_le_bytes())
                .collect()
        }
        GgmlType::Bf16 => {
            return rng
                .vec(n, 1.0)
                .iter()
                .flat_map(|&v| half::bf16::from_f32(v).to_le_bytes())
                .collect()
        }
        _ => {}
    }
    let len = ty.row_bytes(n as u64).unwrap() as usize;
    let mut bytes: Vec<u8> = (0..len).map(|_| rng.u64() as u8).collect();
    let k_quant = matches!(ty, GgmlType::Q4K | GgmlType::Q5K | GgmlType::Q6K);
    for blk in bytes.chunks_exact_mut(ty.type_size()) {
        for (i, &at) in f16_fields(ty).iter().enumerate() {
            // K-quant super-scales multiply 6/8-bit sub-scales: keep them small.
            let mag = if k_quant { 0.002 } else { 0.05 };
            let v = if i == 0 {
                (rng.f32() * 0.5 + 0.6) * mag
            } else {
                rng.f32() * mag
            };
            blk[at..at + 2].copy_from_slice(&f16::from_f32(v).to_le_bytes());
        }
        if ty == GgmlType::Mxfp4 {
            // E8M0 scales from 2^-9 to 2^-2 (as stored, halved).
            blk[0] = 120 + (rng.u64() % 8) as u8;
        }
    }
    bytes
}

/// Row `n` of the matrix, dequantized by the crate's (ggml-exact) dequantizer.
pub fn dequant_rows(ty: GgmlType, bytes: &[u8], n_out: usize, k: usize) -> Vec<f32> {
    let mut w = vec![0f32; n_out * k];
    dequantize(ty, bytes, &mut w).unwrap();
    w
}

/// The activation quantization the kernels document, written out independently:
/// per block of 32, `dx = amax / 127`, `q = round_ties_even(x / dx)`.
pub fn quantize_acts(x: &[f32]) -> (Vec<i8>, Vec<f32>) {
    let mut q = Vec::with_capacity(x.len());
    let mut dx = Vec::new();
    for b in x.chunks(32) {
        let amax = b.iter().fold(0f32, |a, v| a.max(v.abs()));
        let d = amax / 127.0;
        let id = if d != 0.0 { 1.0 / d } else { 0.0 };
        q.extend(
            b.iter()
                .map(|&v| (v * id).round_ties_even().clamp(-127.0, 127.0) as i8),
        );
        dx.push(d);
    }
    (q, dx)
}

/// f64 reference for one output: `(value, scale)`, where `scale` is Σ|w_j * x_j| (the size
/// against which rounding error is measured). With `quantized`, x is replaced by its 8-bit
/// quantization, which is what the integer kernels compute exactly up to f32 rounding.
pub fn reference_dot(w: &[f32], x: &[f32], quantized: bool) -> (f64, f64) {
    let xs: Vec<f64> = if quantized {
        let (q, dx) = quantize_acts(x);
        q.iter()
            .enumerate()
            .map(|(j, &v)| f64::from(v) * f64::from(dx[j / 32]))
            .collect()
    } else {
        x.iter().map(|&v| f64::from(v)).collect()
    };
    w.iter().zip(&xs).fold((0.0, 0.0), |(s, a), (&wv, &xv)| {
        let p = f64::from(wv) * xv;
        (s + p, a + p.abs())
    })
}

/// A rigorous bound on the effect of 8-bit activation quantization on one output: each x_j
/// moves by at most half a step (dx / 2, plus f32 rounding of x * (1 / dx)).
pub fn act_quant_bound(w: &[f32], x: &[f32]) -> f64 {
    let (_, dx) = quantize_acts(x);
    w.chunks(32)
        .zip(&dx)
        .map(|(wb, &d)| f64::from(d) * 0.5001 * wb.iter().map(|v| f64::from(v.abs())).sum::<f64>())
        .sum()
}

pub fn assert_bits_eq(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}: element {i}: {g} vs {w}");
    }
}

/// Every type with a matmul path, and a shape family for it.
pub const TYPES: [GgmlType; 12] = [
    GgmlType::Q4_0,
    GgmlType::Q4_1,
    GgmlType::Q5_0,
    GgmlType::Q5_1,
    GgmlType::Q8_0,
    GgmlType::Q4K,
    GgmlType::Q5K,
    GgmlType::Q6K,
    GgmlType::Mxfp4,
    GgmlType::F32,
    GgmlType::F16,
    GgmlType::Bf16,
];

/// Odd shapes `(n_out, k)` valid for `ty`: n not a multiple of the 16-row tile, k a few
/// blocks (with a tail for plain float types).
pub fn shapes(ty: GgmlType) -> Vec<(usize, usize)> {
    match ty.block_size() {
        256 => vec![(1, 256), (17, 256), (35, 512)],
        32 => vec![(1, 32), (17, 96), (40, 64), (33, 576)],
        _ => vec![(1, 16), (17, 37), (5, 50), (33, 576)],
    }
}
