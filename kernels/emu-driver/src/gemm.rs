//! cuBLAS's `GemmEx` on the host, column-major as cuBLAS defines it:
//! `C = alpha op(A) op(B) + beta C`, products summed in f32. With `beta == 0`, C is only
//! written (cuBLAS does not read it then, so it may hold anything, NaN included).

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};
use rayon::prelude::*;

/// The element types the engine's GEMMs use (`cudaDataType` 0, 2 and 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataType {
    F32,
    F16,
    Bf16,
}

impl DataType {
    pub fn from_cuda(value: i32) -> Option<Self> {
        match value {
            0 => Some(DataType::F32),
            2 => Some(DataType::F16),
            14 => Some(DataType::Bf16),
            _ => None,
        }
    }

    pub fn size(self) -> usize {
        match self {
            DataType::F32 => 4,
            DataType::F16 | DataType::Bf16 => 2,
        }
    }
}

/// One input matrix: column-major with leading dimension `ld`, used transposed or not.
#[derive(Clone, Copy, Debug)]
pub struct Operand {
    pub ptr: usize,
    pub dtype: DataType,
    pub transposed: bool,
    pub ld: usize,
}

/// `op(A)` is m x k, `op(B)` is k x n, C is m x n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmShape {
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

impl Operand {
    /// Elements from the first to the last one `op(self)` reads, for a `rows x cols` op.
    pub fn extent(&self, rows: usize, cols: usize) -> usize {
        let (inner, outer) = if self.transposed {
            (cols, rows)
        } else {
            (rows, cols)
        };
        if inner == 0 || outer == 0 {
            0
        } else {
            self.ld * (outer - 1) + inner
        }
    }

    /// Row `row` of `op(self)` (`len` values) into `out`, as f32.
    ///
    /// # Safety
    /// The operand's memory holds `extent` elements of its type.
    unsafe fn read_row(&self, row: usize, out: &mut [f32]) {
        let len = out.len();
        if self.transposed {
            // op(X)(row, p) = X[p + row * ld]: contiguous.
            let at = self.ptr + row * self.ld * self.dtype.size();
            // SAFETY: the caller's contract covers these `len` elements.
            unsafe { read_contiguous(at, self.dtype, out) };
        } else {
            for (p, value) in out.iter_mut().enumerate().take(len) {
                let at = self.ptr + (row + p * self.ld) * self.dtype.size();
                // SAFETY: as above, element (row, p).
                *value = unsafe { read_one(at, self.dtype) };
            }
        }
    }

    /// Column `col` of `op(self)`, as f32.
    ///
    /// # Safety
    /// As for [`Self::read_row`].
    unsafe fn read_col(&self, col: usize, out: &mut [f32]) {
        let flipped = Operand {
            transposed: !self.transposed,
            ..*self
        };
        // SAFETY: column `col` of op(X) is row `col` of op(X)^T, the same elements.
        unsafe { flipped.read_row(col, out) }
    }
}

/// # Safety
/// `at` holds `out.len()` elements of `dtype`.
unsafe fn read_contiguous(at: usize, dtype: DataType, out: &mut [f32]) {
    let len = out.len();
    // SAFETY: the caller's contract; the element types have no invalid bit patterns.
    unsafe {
        match dtype {
            DataType::F32 => out.copy_from_slice(std::slice::from_raw_parts(at as *const f32, len)),
            DataType::F16 => {
                std::slice::from_raw_parts(at as *const f16, len).convert_to_f32_slice(out)
            }
            DataType::Bf16 => {
                std::slice::from_raw_parts(at as *const bf16, len).convert_to_f32_slice(out)
            }
        }
    }
}

/// # Safety
/// `at` holds one element of `dtype`.
unsafe fn read_one(at: usize, dtype: DataType) -> f32 {
    // SAFETY: the caller's contract.
    unsafe {
        match dtype {
            DataType::F32 => std::ptr::read_unaligned(at as *const f32),
            DataType::F16 => std::ptr::read_unaligned(at as *const f16).to_f32(),
            DataType::Bf16 => std::ptr::read_unaligned(at as *const bf16).to_f32(),
        }
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for lane in 0..8 {
            lanes[lane] += x[lane] * y[lane];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The output matrix C: column-major, leading dimension `ld`.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub ptr: usize,
    pub dtype: DataType,
    pub ld: usize,
}

/// `C = alpha op(A) op(B) + beta C`, rows of C in parallel.
///
/// # Safety
/// A, B and C hold the elements their extents cover; C does not overlap A or B.
pub unsafe fn gemm(shape: GemmShape, alpha: f32, a: Operand, b: Operand, beta: f32, c: Output) {
    let GemmShape { m, n, k } = shape;
    if m == 0 || n == 0 {
        return;
    }
    // op(B)'s columns, once: the small operand (the activations) in the engine's GEMMs.
    let mut columns = vec![0f32; n * k];
    for (col, out) in columns.chunks_exact_mut(k.max(1)).enumerate().take(n) {
        // SAFETY: the caller's contract for B.
        unsafe { b.read_col(col, out) };
    }
    let store = |row: usize, col: usize, value: f32| {
        let at = c.ptr + (row + col * c.ld) * c.dtype.size();
        // SAFETY: the caller's contract for C; each (row, col) is written by one task.
        unsafe {
            let old = if beta == 0.0 {
                0.0
            } else {
                read_one(at, c.dtype)
            };
            let value = alpha * value + beta * old;
            match c.dtype {
                DataType::F32 => std::ptr::write_unaligned(at as *mut f32, value),
                DataType::F16 => std::ptr::write_unaligned(at as *mut f16, f16::from_f32(value)),
                DataType::Bf16 => std::ptr::write_unaligned(at as *mut bf16, bf16::from_f32(value)),
            }
        }
    };
    (0..m).into_par_iter().for_each_init(
        || vec![0f32; k],
        |row_values, row| {
            // SAFETY: the caller's contract for A.
            unsafe { a.read_row(row, row_values) };
            for col in 0..n {
                let value = if k == 0 {
                    0.0
                } else {
                    dot(row_values, &columns[col * k..(col + 1) * k])
                };
                store(row, col, value);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column-major `op(X)(i, j)` from a dense row-major description.
    fn naive(m: usize, n: usize, k: usize, a: &[f32], a_t: bool, b: &[f32], b_t: bool) -> Vec<f32> {
        // A is m x k as op; stored column-major with ld = rows of the stored matrix.
        let a_at = |i: usize, p: usize| if a_t { a[p + i * k] } else { a[i + p * m] };
        let b_at = |p: usize, j: usize| if b_t { b[j + p * n] } else { b[p + j * k] };
        let mut c = vec![0f32; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i + j * m] = (0..k).map(|p| a_at(i, p) * b_at(p, j)).sum();
            }
        }
        c
    }

    #[test]
    fn every_transpose_matches_the_definition() {
        let (m, n, k) = (5, 3, 19);
        let a: Vec<f32> = (0..m * k)
            .map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25)
            .collect();
        let b: Vec<f32> = (0..k * n)
            .map(|i| ((i * 5 % 13) as f32 - 6.0) * 0.5)
            .collect();
        for (a_t, b_t) in [(false, false), (true, false), (false, true), (true, true)] {
            let want = naive(m, n, k, &a, a_t, &b, b_t);
            let mut got = vec![f32::NAN; m * n];
            let a_op = Operand {
                ptr: a.as_ptr() as usize,
                dtype: DataType::F32,
                transposed: a_t,
                ld: if a_t { k } else { m },
            };
            let b_op = Operand {
                ptr: b.as_ptr() as usize,
                dtype: DataType::F32,
                transposed: b_t,
                ld: if b_t { n } else { k },
            };
            let out = Output {
                ptr: got.as_mut_ptr() as usize,
                dtype: DataType::F32,
                ld: m,
            };
            // SAFETY: the buffers hold m*k, k*n and m*n values with these leading dimensions.
            unsafe { gemm(GemmShape { m, n, k }, 1.0, a_op, b_op, 0.0, out) };
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-4 * w.abs().max(1.0),
                    "{a_t} {b_t}: {g} vs {w}"
                );
            }
        }
    }

    #[test]
    fn half_operands_and_outputs_round_once() {
        let (m, n, k) = (4, 2, 8);
        let a: Vec<f16> = (0..m * k)
            .map(|i| f16::from_f32(i as f32 * 0.125))
            .collect();
        let b: Vec<bf16> = (0..k * n)
            .map(|i| bf16::from_f32(1.0 - i as f32 * 0.0625))
            .collect();
        let mut c = vec![f16::from_f32(3.0); m * n];
        let a_op = Operand {
            ptr: a.as_ptr() as usize,
            dtype: DataType::F16,
            transposed: true,
            ld: k,
        };
        let b_op = Operand {
            ptr: b.as_ptr() as usize,
            dtype: DataType::Bf16,
            transposed: false,
            ld: k,
        };
        let out = Output {
            ptr: c.as_mut_ptr() as usize,
            dtype: DataType::F16,
            ld: m,
        };
        // SAFETY: as above; beta = 0.5 reads C, which holds 3.0 everywhere.
        unsafe { gemm(GemmShape { m, n, k }, 2.0, a_op, b_op, 0.5, out) };
        for i in 0..m {
            for j in 0..n {
                let sum: f32 = (0..k)
                    .map(|p| a[p + i * k].to_f32() * b[p + j * k].to_f32())
                    .sum();
                assert_eq!(c[i + j * m], f16::from_f32(2.0 * sum + 1.5));
            }
        }
    }
}
