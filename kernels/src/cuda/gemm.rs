//! GEMM through cuBLAS on f16/bf16 weights, `out = x W^T` with row-major `x [m, k]`,
//! `W [n, k]` (the layout of a linear layer's weight) and `out [m, n]`, accumulating in f32;
//! and the f32 <-> half casts that put f32 activations in front of it.
//!
//! cuBLAS is column-major: a row-major `[r, c]` matrix is its column-major `[c, r]`
//! transpose. So `out^T (n x m) = W (n x k, i.e. W^T stored k x n, transposed) * x^T (k x m)`:
//! one `gemm(op_T, op_N, n, m, k, W, ldw = k, x, ldx = k, out, ldo = n)`, no copies.

use super::context::GpuContext;
use super::error::{bad_shape, CudaError};
use super::nvrtc::Module;
use super::ops::{need, stride_launch};
use cudarc::cublas::sys::{cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cudaDataType};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, DeviceRepr, PushKernelArg};
use half::{bf16, f16};
use std::ffi::c_void;

/// A 16-bit float type cuBLAS multiplies and the cast kernels convert.
pub trait HalfFloat: DeviceRepr {
    const DATA_TYPE: cudaDataType;
    const FROM_F32: &'static str;
    const TO_F32: &'static str;
}

impl HalfFloat for f16 {
    const DATA_TYPE: cudaDataType = cudaDataType::CUDA_R_16F;
    const FROM_F32: &'static str = "cast_f32_f16";
    const TO_F32: &'static str = "cast_f16_f32";
}

impl HalfFloat for bf16 {
    const DATA_TYPE: cudaDataType = cudaDataType::CUDA_R_16BF;
    const FROM_F32: &'static str = "cast_f32_bf16";
    const TO_F32: &'static str = "cast_bf16_f32";
}

fn dim(value: usize, what: &str) -> Result<i32, CudaError> {
    i32::try_from(value).map_err(|_| CudaError::Shape(format!("gemm {what} = {value} too large")))
}

impl GpuContext {
    /// `out = x W^T` in f16 (`x [m, k]`, `w [n, k]`, `out [m, n]`, f32 accumulation).
    pub fn gemm_f16(
        &self,
        x: &CudaSlice<f16>,
        w: &CudaSlice<f16>,
        out: &mut CudaSlice<f16>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<(), CudaError> {
        self.gemm_ex(x, w, out, f16::DATA_TYPE, (m, n, k))
    }

    /// `out = x W^T` in bf16.
    pub fn gemm_bf16(
        &self,
        x: &CudaSlice<bf16>,
        w: &CudaSlice<bf16>,
        out: &mut CudaSlice<bf16>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<(), CudaError> {
        self.gemm_ex(x, w, out, bf16::DATA_TYPE, (m, n, k))
    }

    /// `out = x W^T` from half operands into f32, for an f32 activation pipeline.
    /// `w` may be a view: rows of a stacked weight (Q, K or V of the merged QKV matrix).
    pub fn gemm_f32_out<T: HalfFloat>(
        &self,
        x: &CudaSlice<T>,
        w: &impl DevicePtr<T>,
        out: &mut CudaSlice<f32>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<(), CudaError> {
        self.gemm_ex(x, w, out, cudaDataType::CUDA_R_32F, (m, n, k))
    }

    fn gemm_ex<T: HalfFloat, C>(
        &self,
        x: &CudaSlice<T>,
        w: &impl DevicePtr<T>,
        out: &mut CudaSlice<C>,
        out_type: cudaDataType,
        (m, n, k): (usize, usize, usize),
    ) -> Result<(), CudaError> {
        if k == 0 {
            return bad_shape("gemm with k = 0".into());
        }
        need("gemm x", x.len(), m * k)?;
        need("gemm w", w.len(), n * k)?;
        need("gemm out", out.len(), m * n)?;
        if m == 0 || n == 0 {
            return Ok(());
        }
        let (mi, ni, ki) = (dim(m, "m")?, dim(n, "n")?, dim(k, "k")?);
        let blas = self.blas()?;
        let stream = self.stream();
        let (w_ptr, _w_sync) = w.device_ptr(stream);
        let (x_ptr, _x_sync) = x.device_ptr(stream);
        let (out_ptr, _out_sync) = out.device_ptr_mut(stream);
        let (alpha, beta) = (1.0f32, 0.0f32);
        // SAFETY: the handle runs on this context's stream; the three buffers hold at least
        // n*k, m*k and m*n elements of the declared types (checked above); alpha and beta are
        // f32, as CUBLAS_COMPUTE_32F requires.
        unsafe {
            cudarc::cublas::result::gemm_ex(
                *blas.handle(),
                cublasOperation_t::CUBLAS_OP_T,
                cublasOperation_t::CUBLAS_OP_N,
                ni,
                mi,
                ki,
                (&alpha as *const f32).cast::<c_void>(),
                w_ptr as *const c_void,
                T::DATA_TYPE,
                ki,
                x_ptr as *const c_void,
                T::DATA_TYPE,
                ki,
                (&beta as *const f32).cast::<c_void>(),
                out_ptr as *mut c_void,
                out_type,
                ni,
                cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }?;
        Ok(())
    }

    /// Converts the first `n` values of `src` to f16/bf16 (round to nearest even). f16
    /// saturates at ±65504 instead of overflowing to infinity (GEMM operands only; K/V
    /// stores round like `half`).
    pub fn cast_from_f32<T: HalfFloat>(
        &self,
        src: &CudaSlice<f32>,
        dst: &mut CudaSlice<T>,
        n: usize,
    ) -> Result<(), CudaError> {
        need("cast src", src.len(), n)?;
        need("cast dst", dst.len(), n)?;
        if n == 0 {
            return Ok(());
        }
        let f = self.function(Module::Cast, T::FROM_F32)?;
        let count = n as u64;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(src).arg(dst).arg(&count);
        // SAFETY: arguments match the cast kernel's signature; both buffers hold n values.
        unsafe { launch.launch(stride_launch(n)) }?;
        Ok(())
    }

    /// Converts the first `n` values of `src` from f16/bf16 to f32.
    pub fn cast_to_f32<T: HalfFloat>(
        &self,
        src: &CudaSlice<T>,
        dst: &mut CudaSlice<f32>,
        n: usize,
    ) -> Result<(), CudaError> {
        need("cast src", src.len(), n)?;
        need("cast dst", dst.len(), n)?;
        if n == 0 {
            return Ok(());
        }
        let f = self.function(Module::Cast, T::TO_F32)?;
        let count = n as u64;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(src).arg(dst).arg(&count);
        // SAFETY: arguments match the cast kernel's signature; both buffers hold n values.
        unsafe { launch.launch(stride_launch(n)) }?;
        Ok(())
    }
}
