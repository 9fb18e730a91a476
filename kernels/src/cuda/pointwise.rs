//! Launch wrappers of the element-wise kernels of the layers: the gated activations (SwiGLU,
//! GeGLU), projection biases, scaling and logit soft-capping. Arguments mean what they
//! mean for the CPU code they mirror; buffers may be longer than needed, never shorter.

use super::context::GpuContext;
use super::error::{to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, stride_launch};
use cudarc::driver::{CudaSlice, DeviceRepr, PushKernelArg};
use half::f16;

/// The gated activations: SwiGLU's silu, GeGLU's tanh-form gelu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Silu,
    GeluTanh,
}

impl GpuContext {
    /// SwiGLU's gate over `rows` rows of `gate_up` (`[gate (ffn) | up (ffn)]`) into `out`:
    /// `silu(gate) * up` (`kernels::activation::silu_mul`).
    pub fn silu_mul(
        &self,
        gate_up: &CudaSlice<f32>,
        ffn: usize,
        out: &mut CudaSlice<f32>,
        rows: usize,
    ) -> Result<(), CudaError> {
        self.gated("silu_mul", gate_up, ffn, out, rows)
    }

    /// GeGLU's gate: `gelu(gate) * up` with GELU's tanh form
    /// (`kernels::activation::gelu_mul`), otherwise as [`Self::silu_mul`].
    pub fn gelu_tanh_mul(
        &self,
        gate_up: &CudaSlice<f32>,
        ffn: usize,
        out: &mut CudaSlice<f32>,
        rows: usize,
    ) -> Result<(), CudaError> {
        self.gated("gelu_tanh_mul", gate_up, ffn, out, rows)
    }

    /// `gate`'s activation writing the f16 input of the next GEMM: bit for bit
    /// [`Self::silu_mul`] (or [`Self::gelu_tanh_mul`]) then [`Self::cast_from_f32`].
    pub fn gate_f16(
        &self,
        gate: Gate,
        gate_up: &CudaSlice<f32>,
        ffn: usize,
        out: &mut CudaSlice<f16>,
        rows: usize,
    ) -> Result<(), CudaError> {
        let kernel = match gate {
            Gate::Silu => "silu_mul_f16",
            Gate::GeluTanh => "gelu_tanh_mul_f16",
        };
        self.gated(kernel, gate_up, ffn, out, rows)
    }

    /// One of the gated activations, which share the signature (gate_up, out, rows, ffn).
    fn gated<T: DeviceRepr>(
        &self,
        kernel: &'static str,
        gate_up: &CudaSlice<f32>,
        ffn: usize,
        out: &mut CudaSlice<T>,
        rows: usize,
    ) -> Result<(), CudaError> {
        need(kernel, gate_up.len(), rows * 2 * ffn)?;
        need(kernel, out.len(), rows * ffn)?;
        if rows * ffn == 0 {
            return Ok(());
        }
        let f = self.function(Module::Activation, kernel)?;
        let (rows_u, ffn_u) = (to_u32(rows, "rows")?, to_u32(ffn, "ffn")?);
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(gate_up).arg(out).arg(&rows_u).arg(&ffn_u);
        // SAFETY: the gated kernels share this signature, each called with its output type
        // (f32, or f16 for the _f16 ones); gate_up holds rows
        // [gate | up] of 2 * ffn values and out rows of ffn, as checked above.
        unsafe { launch.launch(stride_launch(rows * ffn)) }?;
        Ok(())
    }

    /// Adds `bias` (one value per column) to each of the first `rows` rows of `x`, which are
    /// `bias.len()` wide.
    pub fn add_bias(
        &self,
        x: &mut CudaSlice<f32>,
        bias: &CudaSlice<f32>,
        rows: usize,
    ) -> Result<(), CudaError> {
        let width = bias.len();
        need("add_bias x", x.len(), rows * width)?;
        if rows * width == 0 {
            return Ok(());
        }
        let f = self.function(Module::Activation, "add_bias")?;
        let (rows_u, width_u) = (to_u32(rows, "rows")?, to_u32(width, "width")?);
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(x).arg(bias).arg(&rows_u).arg(&width_u);
        // SAFETY: arguments match add_bias' signature; x holds rows * width values and every
        // bias index is taken modulo width.
        unsafe { launch.launch(stride_launch(rows * width)) }?;
        Ok(())
    }

    /// `x *= factor` over the first `n` values.
    pub fn scale_in_place(
        &self,
        x: &mut CudaSlice<f32>,
        factor: f32,
        n: usize,
    ) -> Result<(), CudaError> {
        self.in_place("scale_inplace", x, factor, n)
    }

    /// `x = cap * tanh(x / cap)` over the first `n` values (logit soft-capping).
    pub fn softcap_in_place(
        &self,
        x: &mut CudaSlice<f32>,
        cap: f32,
        n: usize,
    ) -> Result<(), CudaError> {
        self.in_place("softcap_inplace", x, cap, n)
    }

    /// One of the `(x, f32 parameter, n)` kernels over the first `n` values of `x`.
    fn in_place(
        &self,
        kernel: &'static str,
        x: &mut CudaSlice<f32>,
        param: f32,
        n: usize,
    ) -> Result<(), CudaError> {
        need(kernel, x.len(), n)?;
        if n == 0 {
            return Ok(());
        }
        let f = self.function(Module::Activation, kernel)?;
        let count = n as u64;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(x).arg(&param).arg(&count);
        // SAFETY: scale_inplace and softcap_inplace share the signature (x, float, count);
        // x holds at least n values.
        unsafe { launch.launch(stride_launch(n)) }?;
        Ok(())
    }
}
