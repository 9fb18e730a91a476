//! A layer's new Q, K and V rows as the fused kernels read them: one GEMM's
//! `[tokens, q | k | v]` output over the stacked weights, or three buffers. Either way each
//! part is a first address and a row stride, so the kernels need no copy to split them. Also
//! the per-head Q and K RMSNorms over such rows in one launch.

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, row_launch};
use crate::cuda_index::ROW_THREADS;
use cudarc::driver::{CudaSlice, DevicePtr, PushKernelArg};
use std::marker::PhantomData;

const F32_BYTES: u64 = std::mem::size_of::<f32>() as u64;

/// The head layout of `tokens` tokens' Q, K and V rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QkvShape {
    pub tokens: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
}

impl QkvShape {
    /// Values of one token's Q.
    pub fn q_len(&self) -> usize {
        self.heads * self.head_dim
    }

    /// Values of one token's K (and V).
    pub fn kv_len(&self) -> usize {
        self.kv_heads * self.head_dim
    }

    /// Values of one token's merged `q | k | v` row.
    pub fn merged_len(&self) -> usize {
        self.q_len() + 2 * self.kv_len()
    }
}

/// Q, K and V rows on the device, borrowed (Q and K for writing: the norms and an in-place
/// rotation rewrite them) for as long as the kernels may use them.
pub struct QkvRows<'a> {
    shape: QkvShape,
    pub(crate) q: u64,
    pub(crate) q_stride: u32,
    pub(crate) k: u64,
    pub(crate) v: u64,
    /// Row stride of K and of V.
    pub(crate) kv_stride: u32,
    _buffers: PhantomData<&'a mut CudaSlice<f32>>,
}

impl<'a> QkvRows<'a> {
    /// `qkv [tokens, q | k | v]`: one GEMM's output over the stacked Q, K and V weights.
    pub fn merged(
        gpu: &GpuContext,
        qkv: &'a mut CudaSlice<f32>,
        shape: QkvShape,
    ) -> Result<Self, CudaError> {
        let width = shape.merged_len();
        need("merged qkv", qkv.len(), shape.tokens * width)?;
        let stride = to_u32(width, "qkv row")?;
        let (base, _sync) = qkv.device_ptr(gpu.stream());
        let at = |values: usize| base + values as u64 * F32_BYTES;
        Ok(Self {
            shape,
            q: base,
            q_stride: stride,
            k: at(shape.q_len()),
            v: at(shape.q_len() + shape.kv_len()),
            kv_stride: stride,
            _buffers: PhantomData,
        })
    }

    /// Three buffers: `q [tokens, heads * head_dim]`, `k` and `v [tokens, kv_heads *
    /// head_dim]`.
    pub fn separate(
        gpu: &GpuContext,
        q: &'a mut CudaSlice<f32>,
        k: &'a mut CudaSlice<f32>,
        v: &'a CudaSlice<f32>,
        shape: QkvShape,
    ) -> Result<Self, CudaError> {
        need("q rows", q.len(), shape.tokens * shape.q_len())?;
        need("k rows", k.len(), shape.tokens * shape.kv_len())?;
        need("v rows", v.len(), shape.tokens * shape.kv_len())?;
        let stream = gpu.stream();
        Ok(Self {
            shape,
            q: q.device_ptr(stream).0,
            q_stride: to_u32(shape.q_len(), "q row")?,
            k: k.device_ptr(stream).0,
            v: v.device_ptr(stream).0,
            kv_stride: to_u32(shape.kv_len(), "kv row")?,
            _buffers: PhantomData,
        })
    }

    pub fn shape(&self) -> QkvShape {
        self.shape
    }
}

impl GpuContext {
    /// Qwen3's and Gemma 3's per-head RMSNorms on Q (`q_norm`) and K (`k_norm`, both
    /// `[head_dim]`) in place, in one launch: bit for bit [`Self::rms_norm_in_place`] over
    /// Q's heads and then over K's.
    pub fn qk_norm_in_place(
        &self,
        rows: &QkvRows<'_>,
        q_norm: &CudaSlice<f32>,
        k_norm: &CudaSlice<f32>,
        eps: f32,
    ) -> Result<(), CudaError> {
        let s = rows.shape;
        if q_norm.len() != s.head_dim || k_norm.len() != s.head_dim {
            return bad_shape(format!(
                "qk_norm: norms of {} and {} values for heads of {}",
                q_norm.len(),
                k_norm.len(),
                s.head_dim
            ));
        }
        let blocks = to_u32(s.tokens * (s.heads + s.kv_heads), "qk_norm rows")?;
        if blocks == 0 {
            return Ok(());
        }
        let f = self.function(Module::Norm, "qk_norm_inplace")?;
        let scalars = [
            to_u32(s.heads, "heads")?,
            to_u32(s.kv_heads, "kv_heads")?,
            to_u32(s.head_dim, "head_dim")?,
        ];
        let mut launch = self.stream().launch_builder(&f);
        launch
            .arg(&rows.q)
            .arg(&rows.q_stride)
            .arg(&rows.k)
            .arg(&rows.kv_stride)
            .arg(q_norm)
            .arg(k_norm);
        for s in &scalars {
            launch.arg(s);
        }
        launch.arg(&eps);
        // SAFETY: arguments match qk_norm_inplace's signature; `rows` borrows buffers that
        // hold every token's Q and K heads at its strides (checked when it was made), and the
        // norms hold head_dim values (checked above).
        unsafe { launch.launch(row_launch(blocks, ROW_THREADS, 0)) }?;
        Ok(())
    }
}
