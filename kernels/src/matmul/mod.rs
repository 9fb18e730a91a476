//! Quantized matrix multiplication: `out[m x n_out] = x[m x k_in] * W^T` for GGUF weights.
//!
//! # Design
//!
//! A [`QMatrix`] is built once from a GGUF tensor (rows of `k_in` elements, one per output
//! feature). Quantized types are repacked, exactly, into tiles of 16 output rows (see `pack`)
//! and stay quantized; activations are quantized per call to 8 bits in blocks of 32 (see
//! `acts`), and each (row, block) product is an exact integer dot product (`vpdpbusd` or
//! `pmaddubsw`) scaled into an f32 accumulator. Float types (and Q6_K, which has no integer
//! layout here) are kept as f32 rows and multiplied with unquantized activations.
//!
//! One kernel serves every batch size. Work is split over output tiles, so each thread reads
//! its own weights, once from memory: a micro-tile (2 weight tiles x 4 activation rows)
//! unpacks each weight load once for all its rows, the tile stays in L1 while every row of
//! the batch passes, and for large batches tiles are grouped (512 KiB, kept in L2) while rows
//! go by in chunks of 64. Decode (m = 1) is memory-bound: weights keep their GGUF size
//! (Q4_1: 20 bytes per 32) and are prefetched ahead of use.
//!
//! # Numerics: batch invariance
//!
//! For a given row of `x`, the result is bitwise identical whatever `m` is, whatever else is
//! in the batch, and however many threads run: each output element is produced by one fixed
//! sequence of operations (documented in `scalar`) that depends only on that row of `x` and
//! that row of `W`. All kernel paths (scalar, AVX2, AVX-512) use the same sequence, so they
//! also agree bit for bit with each other; the path is chosen once per matrix
//! ([`KernelPath::detect`]), never by batch size.
//!
//! Versus exact arithmetic, the error is that of 8-bit activation quantization (about
//! `0.5 / 127` of each block's largest magnitude per element) plus f32 rounding of the
//! per-block accumulation.

mod acts;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod dispatch;
mod pack;
mod scalar;

use std::cell::RefCell;

pub use acts::QActs;
pub use dispatch::{KernelPath, KERNEL_PATH_ENV};

use dispatch::{for_each_stripe, Isa};
use pack::{FloatWeights, IntWeights, BLOCK};

use crate::quant::{check_len, GgmlType};
use crate::KernelError;

enum Weights {
    Int(IntWeights),
    Float(FloatWeights),
}

/// A weight matrix `[n_out x k_in]` prepared for repeated multiplication.
pub struct QMatrix {
    ty: GgmlType,
    n_out: usize,
    k_in: usize,
    weights: Weights,
    path: KernelPath,
}

thread_local! {
    /// Per-thread activation scratch, so `matmul` does not allocate per call.
    static SCRATCH: RefCell<QActs> = RefCell::new(QActs::new());
}

impl QMatrix {
    /// Builds the matrix from GGUF bytes: `n_out` rows of `k_in` elements of `ty`. The bytes
    /// are copied (repacked); `bytes` can be dropped afterwards.
    pub fn new(ty: GgmlType, n_out: usize, k_in: usize, bytes: &[u8]) -> Result<Self, KernelError> {
        let elements = n_out
            .checked_mul(k_in)
            .ok_or_else(|| KernelError::Shape(format!("{n_out} x {k_in} overflows")))?;
        check_len(ty, bytes.len(), elements)?;
        if ty.row_bytes(k_in as u64).is_none() {
            return Err(KernelError::Shape(format!(
                "rows of {k_in} are not whole {} blocks",
                ty.name()
            )));
        }
        let weights = match pack::pack_int(ty, n_out, k_in, bytes)? {
            Some(int) => Weights::Int(int),
            None => Weights::Float(pack::pack_float(ty, n_out, k_in, bytes)?),
        };
        Ok(Self {
            ty,
            n_out,
            k_in,
            weights,
            path: KernelPath::detect(),
        })
    }

    /// Selects the kernel path (all give identical results; for tests and benchmarks).
    pub fn set_path(&mut self, path: KernelPath) -> Result<(), KernelError> {
        path.isa()?;
        self.path = path;
        Ok(())
    }

    pub fn path(&self) -> KernelPath {
        self.path
    }

    pub fn ggml_type(&self) -> GgmlType {
        self.ty
    }

    pub fn n_out(&self) -> usize {
        self.n_out
    }

    pub fn k_in(&self) -> usize {
        self.k_in
    }

    /// Whether activations are quantized to 8 bits (integer kernels) rather than used as f32.
    pub fn quantizes_activations(&self) -> bool {
        matches!(self.weights, Weights::Int(_))
    }

    /// Bytes of the prepared weights.
    pub fn storage_bytes(&self) -> usize {
        match &self.weights {
            Weights::Int(w) => w.bytes(),
            Weights::Float(w) => w.data.len() * 4,
        }
    }

    /// `out[m x n_out] = x[m x k_in] * W^T`, both row-major.
    pub fn matmul(&self, x: &[f32], m: usize, out: &mut [f32]) -> Result<(), KernelError> {
        self.check_io(x.len(), m, out.len())?;
        match &self.weights {
            Weights::Float(w) => self.run_float(w, x, m, out),
            Weights::Int(w) => SCRATCH.with(|cell| match cell.try_borrow_mut() {
                Ok(mut acts) => {
                    acts.quantize_inner(self.path, x, m, self.k_in)?;
                    self.run_int(w, &acts, out)
                }
                // Re-entered on this thread (a pool task inside a call): use a fresh buffer.
                Err(_) => {
                    let mut acts = QActs::new();
                    acts.quantize_inner(self.path, x, m, self.k_in)?;
                    self.run_int(w, &acts, out)
                }
            }),
        }
    }

    /// As `matmul`, with activations already quantized (reuse one `QActs` for the several
    /// matrices that read the same input, e.g. Q/K/V or gate/up).
    pub fn matmul_quantized(&self, acts: &QActs, out: &mut [f32]) -> Result<(), KernelError> {
        if acts.k != self.k_in {
            return Err(KernelError::Shape(format!(
                "activations have k = {}, matrix k_in = {}",
                acts.k, self.k_in
            )));
        }
        self.check_io(acts.x.len(), acts.m, out.len())?;
        match &self.weights {
            Weights::Float(w) => self.run_float(w, &acts.x, acts.m, out),
            Weights::Int(w) => self.run_int(w, acts, out),
        }
    }

    /// Dequantizes row `r` (an output feature; for a token embedding, the token id) into
    /// `out` (`k_in` values), bit-identical to `quant::dequantize` of that row.
    pub fn row(&self, r: usize, out: &mut [f32]) -> Result<(), KernelError> {
        if r >= self.n_out || out.len() != self.k_in {
            return Err(KernelError::Shape(format!(
                "row {r} into {} values of a {} x {} matrix",
                out.len(),
                self.n_out,
                self.k_in
            )));
        }
        match &self.weights {
            Weights::Int(w) => w.row(r, out),
            Weights::Float(w) => out.copy_from_slice(&w.data[r * self.k_in..(r + 1) * self.k_in]),
        }
        Ok(())
    }

    fn check_io(&self, x_len: usize, m: usize, out_len: usize) -> Result<(), KernelError> {
        if m.checked_mul(self.k_in) != Some(x_len) || m.checked_mul(self.n_out) != Some(out_len) {
            return Err(KernelError::Shape(format!(
                "matmul of {} x {} weights: x has {x_len} values, out {out_len}, m = {m}",
                self.n_out, self.k_in
            )));
        }
        Ok(())
    }

    fn run_int(&self, w: &IntWeights, acts: &QActs, out: &mut [f32]) -> Result<(), KernelError> {
        let isa = self.path.isa()?;
        let work = w.layout.n_tiles() * w.layout.nb() * acts.m;
        for_each_stripe(
            w.layout.n_tiles(),
            self.n_out,
            work,
            out,
            |tiles, rows| match isa {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512(token) => avx512::int_stripe(token, w, acts, tiles, rows),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2(token) => avx2::int_stripe(token, w, acts, tiles, rows),
                Isa::Scalar => scalar::int_stripe(w, acts, tiles, rows),
            },
        )
    }

    fn run_float(
        &self,
        w: &FloatWeights,
        x: &[f32],
        m: usize,
        out: &mut [f32],
    ) -> Result<(), KernelError> {
        let isa = self.path.isa()?;
        let work = w.n_tiles() * self.k_in.div_ceil(BLOCK) * m * 4;
        for_each_stripe(
            w.n_tiles(),
            self.n_out,
            work,
            out,
            |tiles, rows| match isa {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512(token) => avx512::float_stripe(token, w, x, m, tiles, rows),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2(token) => avx2::float_stripe(token, w, x, m, tiles, rows),
                Isa::Scalar => scalar::float_stripe(w, x, m, tiles, rows),
            },
        )
    }
}
