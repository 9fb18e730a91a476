//! MXFP4 (the OCP microscaling format; gpt-oss ships its experts in it): blocks of 32 FP4
//! (E2M1) values sharing one power-of-two scale (E8M0). A block is the scale byte, then 16
//! bytes of nibbles: low nibbles are elements 0..16, high nibbles elements 16..32.
//!
//! As in ggml, a nibble indexes twice the E2M1 value (so the table holds integers) and the
//! scale is halved to match; every value is an integer times a power of two, so the
//! products are exact.

/// Block bytes (see `GgmlType::type_size`).
pub(crate) const MXFP4_BYTES: usize = 17;

/// Twice each E2M1 value, by nibble (sign in bit 3).
pub(crate) const FP4_TWICE: [i8; 16] = [0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12];

/// Half the E8M0 scale `e`: `2^(e - 128)`, exact in f32 (a subnormal for `e` 0 and 1).
pub(crate) fn half_scale(e: u8) -> f32 {
    let bits = if e < 2 {
        0x0020_0000u32 << e
    } else {
        u32::from(e - 1) << 23
    };
    f32::from_bits(bits)
}

/// The 32 table values of one block's nibbles, in element order.
pub(crate) fn block_values(qs: &[u8]) -> [i8; 32] {
    let mut values = [0i8; 32];
    for j in 0..16 {
        values[j] = FP4_TWICE[usize::from(qs[j] & 0x0F)];
        values[j + 16] = FP4_TWICE[usize::from(qs[j] >> 4)];
    }
    values
}

pub(crate) fn dequantize_mxfp4(bytes: &[u8], out: &mut [f32]) {
    for (blk, y) in bytes
        .chunks_exact(MXFP4_BYTES)
        .zip(out.chunks_exact_mut(32))
    {
        let d = half_scale(blk[0]);
        for (dst, &v) in y.iter_mut().zip(block_values(&blk[1..]).iter()) {
            *dst = f32::from(v) * d;
        }
    }
}
