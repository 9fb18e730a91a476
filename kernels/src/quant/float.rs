//! Plain float element types: F32, F16, BF16 (little-endian, as GGUF stores them).

use half::f16;

/// Reads the little-endian f16 at byte offset `at` as f32 (exact: every f16 is an f32).
#[inline]
pub(crate) fn f16_at(bytes: &[u8], at: usize) -> f32 {
    f16::from_le_bytes([bytes[at], bytes[at + 1]]).to_f32()
}

pub(crate) fn dequantize_f32(bytes: &[u8], out: &mut [f32]) {
    for (src, dst) in bytes.chunks_exact(4).zip(out.iter_mut()) {
        *dst = f32::from_le_bytes([src[0], src[1], src[2], src[3]]);
    }
}

pub(crate) fn dequantize_f16(bytes: &[u8], out: &mut [f32]) {
    for (src, dst) in bytes.chunks_exact(2).zip(out.iter_mut()) {
        *dst = f16::from_le_bytes([src[0], src[1]]).to_f32();
    }
}

/// BF16 is the top half of an f32, so widening is a shift (what ggml does too).
pub(crate) fn dequantize_bf16(bytes: &[u8], out: &mut [f32]) {
    for (src, dst) in bytes.chunks_exact(2).zip(out.iter_mut()) {
        *dst = f32::from_bits(u32::from(u16::from_le_bytes([src[0], src[1]])) << 16);
    }
}
