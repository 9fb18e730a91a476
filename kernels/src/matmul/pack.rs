//! Weight repacking: GGUF rows -> tiles of 16 output rows laid out for the integer kernels.
//!
//! Every supported quantized type is rewritten, exactly, as blocks of 32 integer codes with an
//! affine map per (row, block): `value = d * (code - offset) + m` (the `+ m` only where the
//! type has a min). Within a tile, block `b` is stored as
//!
//! ```text
//! codes:  Nib4:  4 chunks of 64 bytes; chunk c, row r, byte t (at c*64 + r*4 + t) holds
//!                element 4c+t in the low nibble and element 16+4c+t in the high nibble
//!         Byte8: 8 chunks of 64 bytes; chunk c, row r, byte t holds element 4c+t
//! d:      16 scales (f16 or f32), one per row
//! m:      16 mins (same format), only if the type has a min
//! ```
//!
//! so one 64-byte load gives 4 consecutive codes for each of 16 rows: a 32-bit lane per output
//! row, which is what `vpdpbusd`/`pmaddubsw` with a broadcast activation quad consume. Q4_1's
//! own nibble order (low = 0..16, high = 16..32) maps onto chunks without any shuffling.

use half::f16;
use rayon::prelude::*;

use crate::quant::{dequantize, kquants, legacy, mxfp4, GgmlType};
use crate::KernelError;

/// Output rows per tile (one 512-bit lane of i32/f32 per row).
pub(crate) const TILE_ROWS: usize = 16;
/// Elements per block: the activation quantization block too.
pub(crate) const BLOCK: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codes {
    /// Codes 0..16, two per byte.
    Nib4,
    /// Nibbles as `Nib4`, each standing for the code [`FP4_CODES`] gives it (MXFP4's
    /// values, shifted to 0..=24): the kernels look them up as they read them.
    Fp4,
    /// One code per byte.
    Byte8,
}

/// What MXFP4's table values are shifted by to become unsigned codes.
pub(crate) const MXFP4_OFFSET: i32 = 12;

/// The code of each FP4 nibble: twice its E2M1 value, plus [`MXFP4_OFFSET`].
pub(crate) const FP4_CODES: [u8; 16] = {
    let mut codes = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        codes[i] = (mxfp4::FP4_TWICE[i] as i32 + MXFP4_OFFSET) as u8;
        i += 1;
    }
    codes
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScaleFmt {
    /// The type's own f16 scales, kept as is (exact, and half the bytes).
    F16,
    /// Products of a super-block scale and a 6-bit sub-scale (K-quants): exact in f32 only.
    F32,
}

/// How one matrix is packed; everything the kernels need besides the bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IntLayout {
    pub codes: Codes,
    pub scales: ScaleFmt,
    pub has_min: bool,
    /// Subtracted from every code (8 for Q4_0, 16 for Q5_0, 128 for Q8_0, else 0).
    pub offset: i32,
    pub n_out: usize,
    pub k_in: usize,
}

impl IntLayout {
    /// Blocks per row.
    pub fn nb(&self) -> usize {
        self.k_in / BLOCK
    }
    pub fn n_tiles(&self) -> usize {
        self.n_out.div_ceil(TILE_ROWS)
    }
    /// Bytes of the codes of one block of a tile.
    pub fn code_bytes(&self) -> usize {
        match self.codes {
            Codes::Nib4 | Codes::Fp4 => TILE_ROWS * BLOCK / 2,
            Codes::Byte8 => TILE_ROWS * BLOCK,
        }
    }
    /// Bytes of one vector of 16 scales (or mins).
    pub fn scale_bytes(&self) -> usize {
        match self.scales {
            ScaleFmt::F16 => TILE_ROWS * 2,
            ScaleFmt::F32 => TILE_ROWS * 4,
        }
    }
    pub fn block_bytes(&self) -> usize {
        self.code_bytes() + self.scale_bytes() * if self.has_min { 2 } else { 1 }
    }
    pub fn tile_bytes(&self) -> usize {
        self.nb() * self.block_bytes()
    }
    /// Whether Byte8 codes are signed bytes stored as `q ^ 0x80` (Q8_0); the AVX2 kernel
    /// undoes the shift instead of correcting, because `pmaddubsw` would saturate on 255*127*2.
    pub fn signed_codes(&self) -> bool {
        self.codes == Codes::Byte8 && self.offset == 128
    }
}

/// A quantized matrix in tile layout. The data starts 64-byte aligned.
pub(crate) struct IntWeights {
    pub layout: IntLayout,
    buf: Vec<u8>,
    start: usize,
}

impl IntWeights {
    pub fn data(&self) -> &[u8] {
        let len = self.layout.n_tiles() * self.layout.tile_bytes();
        &self.buf[self.start..self.start + len]
    }

    /// Total bytes of the packed weights.
    pub fn bytes(&self) -> usize {
        self.layout.n_tiles() * self.layout.tile_bytes()
    }

    /// Dequantizes row `r` into `out` (`k_in` values), with the type's own arithmetic.
    pub fn row(&self, r: usize, out: &mut [f32]) {
        let l = &self.layout;
        let (tile, lane) = (r / TILE_ROWS, r % TILE_ROWS);
        let tile_data = &self.data()[tile * l.tile_bytes()..(tile + 1) * l.tile_bytes()];
        for (blk, y) in tile_data
            .chunks_exact(l.block_bytes())
            .zip(out.chunks_exact_mut(BLOCK))
        {
            let codes = lane_codes(l, blk, lane);
            let (d, m) = lane_scales(l, blk, lane);
            for (dst, &c) in y.iter_mut().zip(codes.iter()) {
                let v = (i32::from(c) - l.offset) as f32 * d;
                *dst = if l.has_min { v + m } else { v };
            }
        }
    }
}

/// The 32 codes of row `lane` in one packed block.
#[inline]
pub(crate) fn lane_codes(l: &IntLayout, blk: &[u8], lane: usize) -> [u8; BLOCK] {
    let mut codes = [0u8; BLOCK];
    match l.codes {
        Codes::Nib4 | Codes::Fp4 => {
            for c in 0..4 {
                for t in 0..4 {
                    let b = blk[c * 64 + lane * 4 + t];
                    codes[4 * c + t] = b & 0x0F;
                    codes[16 + 4 * c + t] = b >> 4;
                }
            }
            if l.codes == Codes::Fp4 {
                codes
                    .iter_mut()
                    .for_each(|c| *c = FP4_CODES[usize::from(*c)]);
            }
        }
        Codes::Byte8 => {
            for c in 0..8 {
                codes[4 * c..4 * c + 4]
                    .copy_from_slice(&blk[c * 64 + lane * 4..c * 64 + lane * 4 + 4]);
            }
        }
    }
    codes
}

/// `(d, m)` of row `lane` in one packed block (`m` is 0 where the type has no min).
#[inline]
pub(crate) fn lane_scales(l: &IntLayout, blk: &[u8], lane: usize) -> (f32, f32) {
    let at = |base: usize| -> f32 {
        match l.scales {
            ScaleFmt::F16 => {
                let p = base + lane * 2;
                f16::from_le_bytes([blk[p], blk[p + 1]]).to_f32()
            }
            ScaleFmt::F32 => {
                let p = base + lane * 4;
                f32::from_le_bytes([blk[p], blk[p + 1], blk[p + 2], blk[p + 3]])
            }
        }
    };
    let d = at(l.code_bytes());
    let m = if l.has_min {
        at(l.code_bytes() + l.scale_bytes())
    } else {
        0.0
    };
    (d, m)
}

/// One block of one row, decoded: `value = d * (code - offset) + m`.
#[derive(Clone, Copy)]
struct Group {
    d: f32,
    m: f32,
    codes: [u8; BLOCK],
}

const EMPTY: Group = Group {
    d: 0.0,
    m: 0.0,
    codes: [0; BLOCK],
};

/// The packed layout of `ty`, or `None` if it goes to the float path.
fn int_format(ty: GgmlType) -> Option<(Codes, ScaleFmt, bool, i32)> {
    use GgmlType::*;
    Some(match ty {
        Q4_0 => (Codes::Nib4, ScaleFmt::F16, false, 8),
        Q4_1 => (Codes::Nib4, ScaleFmt::F16, true, 0),
        Q4K => (Codes::Nib4, ScaleFmt::F32, true, 0),
        Q8_0 => (Codes::Byte8, ScaleFmt::F16, false, 128),
        Q5_0 => (Codes::Byte8, ScaleFmt::F16, false, 16),
        Q5_1 => (Codes::Byte8, ScaleFmt::F16, true, 0),
        Q5K => (Codes::Byte8, ScaleFmt::F32, true, 0),
        // Nibbles looked up as table values (-12..=12) shifted to unsigned codes; the
        // power-of-two scales span far more than f16 holds.
        Mxfp4 => (Codes::Fp4, ScaleFmt::F32, false, MXFP4_OFFSET),
        _ => return None,
    })
}

/// Decodes every block of one GGUF row into `groups` (`k_in / 32` entries).
fn decode_row(ty: GgmlType, row: &[u8], groups: &mut [Group]) {
    use crate::quant::float::f16_at;
    let nibbles = |qs: &[u8]| {
        let mut codes = [0u8; BLOCK];
        for j in 0..16 {
            codes[j] = qs[j] & 0x0F;
            codes[j + 16] = qs[j] >> 4;
        }
        codes
    };
    match ty {
        GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q8_0 | GgmlType::Q5_0 | GgmlType::Q5_1 => {
            let size = ty.type_size();
            for (blk, g) in row.chunks_exact(size).zip(groups.iter_mut()) {
                *g = match ty {
                    GgmlType::Q4_0 => Group {
                        d: f16_at(blk, 0),
                        m: 0.0,
                        codes: nibbles(&blk[2..legacy::Q4_0_BYTES]),
                    },
                    GgmlType::Q4_1 => Group {
                        d: f16_at(blk, 0),
                        m: f16_at(blk, 2),
                        codes: nibbles(&blk[4..legacy::Q4_1_BYTES]),
                    },
                    GgmlType::Q8_0 => {
                        let mut codes = [0u8; BLOCK];
                        for (c, &q) in codes.iter_mut().zip(blk[2..legacy::Q8_0_BYTES].iter()) {
                            *c = q ^ 0x80;
                        }
                        Group {
                            d: f16_at(blk, 0),
                            m: 0.0,
                            codes,
                        }
                    }
                    GgmlType::Q5_0 => Group {
                        d: f16_at(blk, 0),
                        m: 0.0,
                        codes: legacy::q5_codes(
                            &blk[6..legacy::Q5_0_BYTES],
                            legacy::q5_high_bits(&blk[2..6]),
                        ),
                    },
                    _ => Group {
                        d: f16_at(blk, 0),
                        m: f16_at(blk, 2),
                        codes: legacy::q5_codes(
                            &blk[8..legacy::Q5_1_BYTES],
                            legacy::q5_high_bits(&blk[4..8]),
                        ),
                    },
                };
            }
        }
        GgmlType::Mxfp4 => {
            for (blk, g) in row.chunks_exact(mxfp4::MXFP4_BYTES).zip(groups.iter_mut()) {
                *g = Group {
                    d: mxfp4::half_scale(blk[0]),
                    m: 0.0,
                    codes: nibbles(&blk[1..]),
                };
            }
        }
        GgmlType::Q4K | GgmlType::Q5K => {
            let size = ty.type_size();
            for (blk, gs) in row.chunks_exact(size).zip(groups.chunks_exact_mut(8)) {
                let subs = kquants::k4_sub_scales(blk);
                for (j, (g, &(d1, m1))) in gs.iter_mut().zip(subs.iter()).enumerate() {
                    let codes = if ty == GgmlType::Q4K {
                        kquants::q4_k_codes(&blk[16..kquants::Q4_K_BYTES], j)
                    } else {
                        kquants::q5_k_codes(&blk[16..48], &blk[48..kquants::Q5_K_BYTES], j)
                    };
                    // `d1 * q - m1` == `d1 * q + (-m1)` bit for bit.
                    *g = Group {
                        d: d1,
                        m: -m1,
                        codes,
                    };
                }
            }
        }
        _ => {}
    }
}

/// Writes one decoded row into lane `lane` of every block of a tile.
fn scatter_row(l: &IntLayout, tile: &mut [u8], lane: usize, groups: &[Group]) {
    let (cb, sb) = (l.code_bytes(), l.scale_bytes());
    for (blk, g) in tile.chunks_exact_mut(l.block_bytes()).zip(groups.iter()) {
        match l.codes {
            Codes::Nib4 | Codes::Fp4 => {
                for c in 0..4 {
                    for t in 0..4 {
                        blk[c * 64 + lane * 4 + t] =
                            g.codes[4 * c + t] | (g.codes[16 + 4 * c + t] << 4);
                    }
                }
            }
            Codes::Byte8 => {
                for c in 0..8 {
                    blk[c * 64 + lane * 4..c * 64 + lane * 4 + 4]
                        .copy_from_slice(&g.codes[4 * c..4 * c + 4]);
                }
            }
        }
        let mut put = |base: usize, v: f32| match l.scales {
            // Exact: these values were f16 to begin with.
            ScaleFmt::F16 => blk[base + lane * 2..base + lane * 2 + 2]
                .copy_from_slice(&f16::from_f32(v).to_le_bytes()),
            ScaleFmt::F32 => {
                blk[base + lane * 4..base + lane * 4 + 4].copy_from_slice(&v.to_le_bytes())
            }
        };
        put(cb, g.d);
        if l.has_min {
            put(cb + sb, g.m);
        }
    }
}

/// Packs a GGUF matrix (`n_out` rows of `k_in` elements of `ty`) for the integer kernels, or
/// returns `None` if `ty` has no integer layout.
pub(crate) fn pack_int(
    ty: GgmlType,
    n_out: usize,
    k_in: usize,
    bytes: &[u8],
) -> Result<Option<IntWeights>, KernelError> {
    let Some((codes, scales, has_min, offset)) = int_format(ty) else {
        return Ok(None);
    };
    let layout = IntLayout {
        codes,
        scales,
        has_min,
        offset,
        n_out,
        k_in,
    };
    let row_bytes = bytes.len() / n_out.max(1);
    let tile_bytes = layout.tile_bytes();
    let len = layout.n_tiles() * tile_bytes;
    // Over-allocate so the data can start on a cache line.
    let mut buf = vec![0u8; len + 64];
    let start = buf.as_ptr().align_offset(64).min(64);
    let data = &mut buf[start..start + len];
    if tile_bytes > 0 {
        data.par_chunks_mut(tile_bytes)
            .enumerate()
            .for_each(|(t, tile)| {
                let mut groups = vec![EMPTY; layout.nb()];
                for lane in 0..TILE_ROWS {
                    let r = t * TILE_ROWS + lane;
                    if r >= n_out {
                        break;
                    }
                    decode_row(ty, &bytes[r * row_bytes..(r + 1) * row_bytes], &mut groups);
                    scatter_row(&layout, tile, lane, &groups);
                }
            });
    }
    Ok(Some(IntWeights { layout, buf, start }))
}

/// A matrix kept as f32 rows (float types, and quantized types without an integer layout).
pub(crate) struct FloatWeights {
    pub n_out: usize,
    pub k_in: usize,
    pub data: Vec<f32>,
}

impl FloatWeights {
    pub fn n_tiles(&self) -> usize {
        self.n_out.div_ceil(TILE_ROWS)
    }
}

pub(crate) fn pack_float(
    ty: GgmlType,
    n_out: usize,
    k_in: usize,
    bytes: &[u8],
) -> Result<FloatWeights, KernelError> {
    let mut data = vec![0f32; n_out * k_in];
    if n_out > 0 && k_in > 0 {
        let row_bytes = bytes.len() / n_out;
        data.par_chunks_mut(k_in)
            .zip(bytes.par_chunks(row_bytes))
            .try_for_each(|(out, row)| dequantize(ty, row, out))?;
    }
    Ok(FloatWeights { n_out, k_in, data })
}
