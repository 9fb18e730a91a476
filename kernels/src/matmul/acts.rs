//! Activations quantized to 8 bits in blocks of 32, the right-hand side of the integer kernels.
//!
//! Per block: `dx = amax / 127`, `q = round_ties_even(x * (1 / dx))` (clamped to ±127), the
//! integer sum `xs = Σ q` and `sx = dx * xs` (for the min term of Q4_1-like weights). Every
//! path computes these with the same IEEE operations (the SIMD conversions round to nearest
//! even, as `round_ties_even` does), so the quantized activations are identical on all paths.

use rayon::prelude::*;

use super::dispatch::{Isa, KernelPath};
use super::pack::BLOCK;
use super::scalar;
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512};
use crate::KernelError;

/// Rows below this many elements in total are quantized on the calling thread.
const PAR_MIN_ELEMS: usize = 1 << 16;

/// `m` rows of `k` activations: 8-bit codes plus per-block scales, and (when made through
/// the public `quantize`) the f32 input, which float weights use unquantized. Reusable:
/// `quantize` keeps the allocations.
///
/// Block-major: block `b` of every row is contiguous (`q[(b * m + r) * 32..]`, `dx[b * m + r]`),
/// so a kernel reaches the same block of several rows from one pointer.
#[derive(Default)]
pub struct QActs {
    pub(crate) m: usize,
    pub(crate) k: usize,
    /// `k / 32 * m * 32` codes.
    pub(crate) q: Vec<i8>,
    /// `k / 32 * m` each: block scale, `dx * Σq`, `Σq`.
    pub(crate) dx: Vec<f32>,
    pub(crate) sx: Vec<f32>,
    pub(crate) xs: Vec<i32>,
    pub(crate) x: Vec<f32>,
}

/// The quantized block `b` of every row: what one quantization task writes.
pub(crate) struct Column<'a> {
    pub q: &'a mut [i8],
    pub dx: &'a mut [f32],
    pub sx: &'a mut [f32],
    pub xs: &'a mut [i32],
}

impl QActs {
    pub fn new() -> Self {
        Self::default()
    }

    /// Rows held.
    pub fn m(&self) -> usize {
        self.m
    }

    /// Elements per row.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Quantizes `m` rows of `k` values (`x.len() == m * k`) with the detected kernel path.
    pub fn quantize(&mut self, x: &[f32], m: usize, k: usize) -> Result<(), KernelError> {
        self.quantize_with(KernelPath::detect(), x, m, k)
    }

    /// As `quantize`, on the given path (an error if this CPU lacks it). All paths give
    /// identical results; this exists to test that.
    pub fn quantize_with(
        &mut self,
        path: KernelPath,
        x: &[f32],
        m: usize,
        k: usize,
    ) -> Result<(), KernelError> {
        self.quantize_inner(path, x, m, k)?;
        self.x.clear();
        self.x.extend_from_slice(x);
        Ok(())
    }

    /// Quantizes without keeping a copy of `x` (for callers that hold `x` themselves).
    pub(crate) fn quantize_inner(
        &mut self,
        path: KernelPath,
        x: &[f32],
        m: usize,
        k: usize,
    ) -> Result<(), KernelError> {
        let isa = path.isa()?;
        if m.checked_mul(k) != Some(x.len()) {
            return Err(KernelError::Shape(format!(
                "activations: {} values for {} rows of {}",
                x.len(),
                m,
                k
            )));
        }
        self.m = m;
        self.k = k;
        self.x.clear();
        // Only whole blocks are quantized: a row of any other length can only meet float
        // weights, which read `x`.
        let nb = if k.is_multiple_of(BLOCK) {
            k / BLOCK
        } else {
            0
        };
        self.q.resize(nb * m * BLOCK, 0);
        self.dx.resize(nb * m, 0.0);
        self.sx.resize(nb * m, 0.0);
        self.xs.resize(nb * m, 0);
        if nb == 0 || m == 0 {
            return Ok(());
        }
        let column = |(b, ((q, dx), (sx, xs))): ColumnBufs<'_>| {
            quantize_column(isa, x, k, b, Column { q, dx, sx, xs })
        };
        if m * k >= PAR_MIN_ELEMS {
            self.q
                .par_chunks_mut(m * BLOCK)
                .zip(self.dx.par_chunks_mut(m))
                .zip(self.sx.par_chunks_mut(m).zip(self.xs.par_chunks_mut(m)))
                .enumerate()
                .for_each(column);
        } else {
            self.q
                .chunks_mut(m * BLOCK)
                .zip(self.dx.chunks_mut(m))
                .zip(self.sx.chunks_mut(m).zip(self.xs.chunks_mut(m)))
                .enumerate()
                .for_each(column);
        }
        Ok(())
    }
}

/// One block column's outputs, as the zipped iterators yield them.
type ColumnBufs<'a> = (
    usize,
    (
        (&'a mut [i8], &'a mut [f32]),
        (&'a mut [f32], &'a mut [i32]),
    ),
);

/// Quantizes block `b` of every row of `x` (rows of `k`) into `col`.
fn quantize_column(isa: Isa, x: &[f32], k: usize, b: usize, col: Column<'_>) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512(token) => avx512::quantize_column(token, x, k, b, col),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2(token) => avx2::quantize_column(token, x, k, b, col),
        Isa::Scalar => scalar::quantize_column(x, k, b, col),
    }
}

/// Whether `col` and `x` have the extents the SIMD quantizers index without checks.
pub(crate) fn column_fits(x: &[f32], k: usize, b: usize, col: &Column<'_>) -> bool {
    let m = col.dx.len();
    col.q.len() == m * BLOCK
        && col.sx.len() == m
        && col.xs.len() == m
        && (m == 0 || (m - 1) * k + (b + 1) * BLOCK <= x.len())
}

/// The block scale and its inverse, shared by every path so they agree bit for bit.
#[inline]
pub(crate) fn block_scale(amax: f32) -> (f32, f32) {
    let d = amax / 127.0;
    let id = if d != 0.0 { 1.0 / d } else { 0.0 };
    (d, id)
}
