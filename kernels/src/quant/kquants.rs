//! The 256-element super-block types: Q4_K, Q5_K, Q6_K.
//!
//! Layouts and arithmetic follow ggml's `block_q*_K` and `dequantize_row_q*_K` exactly
//! (including the evaluation order of the products), so results are bit-identical.

use super::float::f16_at;

pub(crate) const QK_K: usize = 256;
/// d, dmin, 12 bytes of packed 6-bit scales/mins, 128 bytes of nibbles.
pub(crate) const Q4_K_BYTES: usize = 144;
/// d, dmin, 12 scale bytes, 32 bytes of high bits, 128 bytes of nibbles.
pub(crate) const Q5_K_BYTES: usize = 176;
/// 128 bytes of low nibbles, 64 bytes of 2-bit highs, 16 signed scales, d.
pub(crate) const Q6_K_BYTES: usize = 210;

/// Scale and min of sub-block `j` (0..8) from the 12 packed bytes (ggml's `get_scale_min_k4`):
/// sub-blocks 0..4 keep 6 bits in bytes 0..8; 4..8 split them into a nibble of bytes 8..12
/// and the top two bits of bytes 0..8.
#[inline]
pub(crate) fn scale_min_k4(j: usize, q: &[u8]) -> (u8, u8) {
    if j < 4 {
        (q[j] & 63, q[j + 4] & 63)
    } else {
        (
            (q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4),
            (q[j + 4] >> 4) | ((q[j] >> 6) << 4),
        )
    }
}

/// The per-32 sub-block affine maps of a Q4_K/Q5_K super-block: `(d * sc, dmin * m)`, computed
/// as ggml does; a value is `scale * q - min`.
#[inline]
pub(crate) fn k4_sub_scales(blk: &[u8]) -> [(f32, f32); 8] {
    let d = f16_at(blk, 0);
    let dmin = f16_at(blk, 2);
    let scales = &blk[4..16];
    let mut out = [(0.0, 0.0); 8];
    for (j, slot) in out.iter_mut().enumerate() {
        let (sc, m) = scale_min_k4(j, scales);
        *slot = (d * f32::from(sc), dmin * f32::from(m));
    }
    out
}

/// The 4-bit codes of sub-block `j` (0..8) of a Q4_K super-block: pairs of sub-blocks share
/// 32 bytes, the even one in the low nibbles.
#[inline]
pub(crate) fn q4_k_codes(qs: &[u8], j: usize) -> [u8; 32] {
    let bytes = &qs[32 * (j / 2)..32 * (j / 2) + 32];
    let shift = 4 * (j % 2);
    let mut codes = [0u8; 32];
    for (c, &b) in codes.iter_mut().zip(bytes.iter()) {
        *c = (b >> shift) & 0x0F;
    }
    codes
}

/// The 5-bit codes of sub-block `j` of a Q5_K super-block: the nibble as in Q4_K plus bit `j`
/// of byte `l` of `qh` as the fifth bit.
#[inline]
pub(crate) fn q5_k_codes(qh: &[u8], qs: &[u8], j: usize) -> [u8; 32] {
    let mut codes = q4_k_codes(qs, j);
    for (c, &h) in codes.iter_mut().zip(qh.iter()) {
        *c += ((h >> j) & 1) << 4;
    }
    codes
}

pub(crate) fn dequantize_q4_k(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes
        .chunks_exact(Q4_K_BYTES)
        .zip(out.chunks_exact_mut(QK_K))
    {
        let subs = k4_sub_scales(blk);
        let qs = &blk[16..144];
        for (j, (ys, &(d1, m1))) in y.chunks_exact_mut(32).zip(subs.iter()).enumerate() {
            for (dst, q) in ys.iter_mut().zip(q4_k_codes(qs, j)) {
                *dst = d1 * f32::from(q) - m1;
            }
        }
    }
}

pub(crate) fn dequantize_q5_k(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes
        .chunks_exact(Q5_K_BYTES)
        .zip(out.chunks_exact_mut(QK_K))
    {
        let subs = k4_sub_scales(blk);
        let qh = &blk[16..48];
        let qs = &blk[48..176];
        for (j, (ys, &(d1, m1))) in y.chunks_exact_mut(32).zip(subs.iter()).enumerate() {
            for (dst, q) in ys.iter_mut().zip(q5_k_codes(qh, qs, j)) {
                *dst = d1 * f32::from(q) - m1;
            }
        }
    }
}

/// Q6_K: each half (128 elements) uses 64 bytes of `ql` and 32 of `qh`; element `l + 32 * i`
/// (i in 0..4) takes the low or high nibble of `ql[l]` / `ql[l + 32]` and bits `2i..2i+2` of
/// `qh[l]`; sub-blocks of 16 have signed 8-bit scales.
pub(crate) fn dequantize_q6_k(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes
        .chunks_exact(Q6_K_BYTES)
        .zip(out.chunks_exact_mut(QK_K))
    {
        let d = f16_at(blk, 208);
        for half in 0..2 {
            let ql = &blk[64 * half..64 * half + 64];
            let qh = &blk[128 + 32 * half..128 + 32 * half + 32];
            let sc = &blk[192 + 8 * half..192 + 8 * half + 8];
            let ys = &mut y[128 * half..128 * half + 128];
            for l in 0..32 {
                let is = l / 16;
                let q1 = i32::from((ql[l] & 0x0F) | ((qh[l] & 3) << 4)) - 32;
                let q2 = i32::from((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
                let q3 = i32::from((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                let q4 = i32::from((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                ys[l] = d * f32::from(sc[is] as i8) * q1 as f32;
                ys[l + 32] = d * f32::from(sc[is + 2] as i8) * q2 as f32;
                ys[l + 64] = d * f32::from(sc[is + 4] as i8) * q3 as f32;
                ys[l + 96] = d * f32::from(sc[is + 6] as i8) * q4 as f32;
            }
        }
    }
}
