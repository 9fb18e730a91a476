//! The 32-element block types: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0.
//!
//! Each function mirrors ggml's `dequantize_row_*` operation for operation (an integer code
//! converted to f32, one multiply, then one add where the type has a min), so results are
//! bit-identical to ggml built without floating-point contraction.

use super::float::f16_at;

/// Block bytes of each type (see `GgmlType::type_size`).
pub(crate) const Q4_0_BYTES: usize = 18;
pub(crate) const Q4_1_BYTES: usize = 20;
pub(crate) const Q5_0_BYTES: usize = 22;
pub(crate) const Q5_1_BYTES: usize = 24;
pub(crate) const Q8_0_BYTES: usize = 34;

/// Q4_0: f16 d, 16 bytes of nibbles; value = (q - 8) * d. Low nibbles are elements 0..16,
/// high nibbles elements 16..32.
pub(crate) fn dequantize_q4_0(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes.chunks_exact(Q4_0_BYTES).zip(out.chunks_exact_mut(32)) {
        let d = f16_at(blk, 0);
        let qs = &blk[2..18];
        for j in 0..16 {
            y[j] = (i32::from(qs[j] & 0x0F) - 8) as f32 * d;
            y[j + 16] = (i32::from(qs[j] >> 4) - 8) as f32 * d;
        }
    }
}

/// Q4_1: f16 d, f16 m, 16 bytes of nibbles; value = q * d + m.
pub(crate) fn dequantize_q4_1(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes.chunks_exact(Q4_1_BYTES).zip(out.chunks_exact_mut(32)) {
        let d = f16_at(blk, 0);
        let m = f16_at(blk, 2);
        let qs = &blk[4..20];
        for j in 0..16 {
            y[j] = f32::from(qs[j] & 0x0F) * d + m;
            y[j + 16] = f32::from(qs[j] >> 4) * d + m;
        }
    }
}

/// The fifth bits of a Q5 block: bit j of the little-endian u32 is element j's high bit.
#[inline]
pub(crate) fn q5_high_bits(qh: &[u8]) -> u32 {
    u32::from_le_bytes([qh[0], qh[1], qh[2], qh[3]])
}

/// The 5-bit codes (0..32) of one Q5 block from its nibbles and high bits.
#[inline]
pub(crate) fn q5_codes(qs: &[u8], qh: u32) -> [u8; 32] {
    let mut codes = [0u8; 32];
    for j in 0..16 {
        let h0 = (((qh >> j) << 4) & 0x10) as u8;
        let h1 = ((qh >> (j + 12)) & 0x10) as u8;
        codes[j] = (qs[j] & 0x0F) | h0;
        codes[j + 16] = (qs[j] >> 4) | h1;
    }
    codes
}

/// Q5_0: f16 d, 4 bytes of high bits, 16 bytes of nibbles; value = (q - 16) * d.
pub(crate) fn dequantize_q5_0(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes.chunks_exact(Q5_0_BYTES).zip(out.chunks_exact_mut(32)) {
        let d = f16_at(blk, 0);
        let codes = q5_codes(&blk[6..22], q5_high_bits(&blk[2..6]));
        for (dst, &q) in y.iter_mut().zip(codes.iter()) {
            *dst = (i32::from(q) - 16) as f32 * d;
        }
    }
}

/// Q5_1: f16 d, f16 m, 4 bytes of high bits, 16 bytes of nibbles; value = q * d + m.
pub(crate) fn dequantize_q5_1(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes.chunks_exact(Q5_1_BYTES).zip(out.chunks_exact_mut(32)) {
        let d = f16_at(blk, 0);
        let m = f16_at(blk, 2);
        let codes = q5_codes(&blk[8..24], q5_high_bits(&blk[4..8]));
        for (dst, &q) in y.iter_mut().zip(codes.iter()) {
            *dst = f32::from(q) * d + m;
        }
    }
}

/// Q8_0: f16 d, 32 signed bytes; value = q * d.
pub(crate) fn dequantize_q8_0(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes.chunks_exact(Q8_0_BYTES).zip(out.chunks_exact_mut(32)) {
        let d = f16_at(blk, 0);
        for (dst, &q) in y.iter_mut().zip(blk[2..34].iter()) {
            *dst = f32::from(q as i8) * d;
        }
    }
}
