//! Launch wrappers of the small kernels: `create_kv_indices`, RMSNorm, RoPE, the residual add
//! and the embedding gather. Arguments mean what they mean for the CPU kernels; device buffers
//! may be longer than needed (only the leading values are used), never shorter.

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use super::storage::DeviceReqToToken;
use crate::cuda_index::{stride_blocks, ELEMENTWISE_THREADS, ROW_THREADS};
use crate::rope::{Rope, RopeStyle};
use cudarc::driver::{CudaSlice, DeviceRepr, LaunchConfig, PushKernelArg};
use half::{bf16, f16};
use pools::SlotId;

/// A null device pointer, for optional kernel arguments.
const NULL_PTR: u64 = 0;

pub(crate) fn row_launch(rows: u32, threads: u32, shared_mem_bytes: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (rows, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes,
    }
}

pub(crate) fn stride_launch(total: usize) -> LaunchConfig {
    row_launch(
        stride_blocks(total, ELEMENTWISE_THREADS),
        ELEMENTWISE_THREADS,
        0,
    )
}

pub(crate) fn need(what: &str, have: usize, want: usize) -> Result<(), CudaError> {
    if have < want {
        return bad_shape(format!("{what} holds {have} values, {want} needed"));
    }
    Ok(())
}

/// FlashInfer's CSR KV metadata on the device, with the host copy of `kv_indptr` that the
/// attention launcher plans with.
pub struct DeviceKvIndices {
    pub kv_indptr_host: Vec<u32>,
    pub kv_indptr: CudaSlice<u32>,
    pub kv_indices: CudaSlice<SlotId>,
}

/// Element types of tables the embedding kernel reads.
pub trait EmbeddingElem: DeviceRepr {
    const KERNEL: &'static str;
}

impl EmbeddingElem for f32 {
    const KERNEL: &'static str = "embedding_f32";
}

impl EmbeddingElem for f16 {
    const KERNEL: &'static str = "embedding_f16";
}

impl EmbeddingElem for bf16 {
    const KERNEL: &'static str = "embedding_bf16";
}

/// RoPE on the device, built from the same parameters as [`Rope`].
pub struct DeviceRope {
    pub(crate) head_dim: usize,
    pub(crate) pairs: usize,
    pub(crate) style: RopeStyle,
    pub(crate) linear_factor: f64,
    /// Multiplies the rotated pairs (LongRoPE's attention factor; 1 for most models).
    pub(crate) mscale: f64,
    /// `base^(-2i / rot_dim)` in f64, as the CPU computes it.
    pub(crate) inv_freq: CudaSlice<f64>,
}

impl DeviceRope {
    pub fn new(
        gpu: &GpuContext,
        head_dim: usize,
        rot_dim: usize,
        base: f32,
        style: RopeStyle,
        linear_factor: f32,
    ) -> Result<Self, CudaError> {
        // Same validation as the CPU kernel.
        Rope::new(head_dim, rot_dim, base, style, linear_factor)?;
        let inv_freq: Vec<f64> = (0..rot_dim / 2)
            .map(|i| (base as f64).powf(-2.0 * i as f64 / rot_dim as f64))
            .collect();
        Ok(Self {
            head_dim,
            pairs: rot_dim / 2,
            style,
            linear_factor: linear_factor as f64,
            mscale: 1.0,
            inv_freq: gpu.upload(&inv_freq)?,
        })
    }

    /// The device copy of a CPU [`Rope`] (the same frequencies, bit for bit).
    pub fn from_rope(gpu: &GpuContext, rope: &Rope) -> Result<Self, CudaError> {
        let (head_dim, inv_freq, style, linear_factor, mscale) = rope.parts();
        Ok(Self {
            head_dim,
            pairs: inv_freq.len(),
            style,
            linear_factor,
            mscale,
            inv_freq: gpu.upload(inv_freq)?,
        })
    }

    /// Rotates every head of the first `n_tokens` rows of `x` (`[tokens, n_heads * head_dim]`)
    /// in place; `positions` holds each token's position.
    pub fn apply(
        &self,
        gpu: &GpuContext,
        x: &mut CudaSlice<f32>,
        n_heads: usize,
        positions: &CudaSlice<u32>,
        n_tokens: usize,
    ) -> Result<(), CudaError> {
        need("rope x", x.len(), n_tokens * n_heads * self.head_dim)?;
        need("rope positions", positions.len(), n_tokens)?;
        let total = n_tokens * n_heads * self.pairs;
        if total == 0 {
            return Ok(());
        }
        let f = gpu.function(Module::Rope, "rope")?;
        let (tokens, heads) = (to_u32(n_tokens, "tokens")?, to_u32(n_heads, "heads")?);
        let (head_dim, pairs) = (to_u32(self.head_dim, "head_dim")?, self.pairs as u32);
        let neox = i32::from(self.style == RopeStyle::Neox);
        let mut launch = gpu.stream().launch_builder(&f);
        launch
            .arg(x)
            .arg(positions)
            .arg(&self.inv_freq)
            .arg(&tokens)
            .arg(&heads)
            .arg(&head_dim)
            .arg(&pairs)
            .arg(&neox)
            .arg(&self.linear_factor)
            .arg(&self.mscale);
        // SAFETY: arguments match rope's signature; x and positions were checked to cover
        // n_tokens rows, and pair indices stay below rot_dim <= head_dim.
        unsafe { launch.launch(stride_launch(total)) }?;
        Ok(())
    }
}

impl GpuContext {
    /// `create_kv_indices` on the device: gathers each request's slots from `req_to_token`
    /// into the CSR `kv_indices`. The lengths are host values (the scheduler has them), so
    /// `kv_indptr` is their prefix sum computed here and checked like the CPU kernel does.
    pub fn create_kv_indices(
        &self,
        req_to_token: &DeviceReqToToken,
        req_pool_indices: &[u32],
        kv_lens: &[u32],
        kv_start: Option<&[u32]>,
    ) -> Result<DeviceKvIndices, CudaError> {
        let batch = req_pool_indices.len();
        if kv_lens.len() != batch || kv_start.is_some_and(|s| s.len() != batch) {
            return bad_shape(format!(
                "create_kv_indices: {batch} rows, {} lengths",
                kv_lens.len()
            ));
        }
        let row_stride = req_to_token.max_context_len();
        let mut kv_indptr_host = Vec::with_capacity(batch + 1);
        kv_indptr_host.push(0u32);
        let mut total = 0u32;
        for b in 0..batch {
            let start = kv_start.map_or(0, |s| s[b] as usize);
            if req_pool_indices[b] as usize >= req_to_token.rows()
                || start + kv_lens[b] as usize > row_stride
            {
                return bad_shape(format!(
                    "create_kv_indices: request {b} (row {}, {}..{}) outside {} x {row_stride}",
                    req_pool_indices[b],
                    start,
                    start + kv_lens[b] as usize,
                    req_to_token.rows()
                ));
            }
            total = total
                .checked_add(kv_lens[b])
                .ok_or_else(|| CudaError::Shape("kv_indptr overflows u32".into()))?;
            kv_indptr_host.push(total);
        }
        let kv_indptr = self.upload(&kv_indptr_host)?;
        let mut kv_indices = self.zeros::<SlotId>(total as usize)?;
        if batch > 0 && total > 0 {
            let pool_rows = self.upload(req_pool_indices)?;
            let starts = kv_start.map(|s| self.upload(s)).transpose()?;
            // Every row and range was checked against the table above, and kv_indices holds
            // kv_indptr[batch] slots.
            self.gather_kv_indices(
                req_to_token,
                &pool_rows,
                &kv_indptr,
                starts.as_ref(),
                &mut kv_indices,
                batch,
            )?;
        }
        Ok(DeviceKvIndices {
            kv_indptr_host,
            kv_indptr,
            kv_indices,
        })
    }

    /// The `create_kv_indices` launch over device metadata: `batch` requests whose rows,
    /// (optional) starts and `kv_indptr` the caller checked against the table and `out`.
    pub(crate) fn gather_kv_indices(
        &self,
        req_to_token: &DeviceReqToToken,
        pool_rows: &CudaSlice<u32>,
        kv_indptr: &CudaSlice<u32>,
        starts: Option<&CudaSlice<u32>>,
        out: &mut CudaSlice<SlotId>,
        batch: usize,
    ) -> Result<(), CudaError> {
        need("create_kv_indices rows", pool_rows.len(), batch)?;
        need("create_kv_indices kv_indptr", kv_indptr.len(), batch + 1)?;
        if batch == 0 {
            return Ok(());
        }
        let f = self.function(Module::KvIndices, "create_kv_indices")?;
        let stride = to_u32(req_to_token.max_context_len(), "row_stride")?;
        let mut launch = self.stream().launch_builder(&f);
        launch
            .arg(req_to_token.table())
            .arg(&stride)
            .arg(pool_rows)
            .arg(kv_indptr);
        match starts {
            Some(s) => launch.arg(s),
            None => launch.arg(&NULL_PTR),
        };
        launch.arg(out);
        // SAFETY: arguments match create_kv_indices' signature; the caller checked every
        // row and range against the table and `out` against kv_indptr[batch].
        unsafe { launch.launch(row_launch(to_u32(batch, "batch")?, ROW_THREADS, 0)) }?;
        Ok(())
    }

    /// RMSNorm of `rows` rows of `weight.len()` values: `out = x / rms(x) * weight`.
    pub fn rms_norm(
        &self,
        x: &CudaSlice<f32>,
        weight: &CudaSlice<f32>,
        eps: f32,
        out: &mut CudaSlice<f32>,
        rows: usize,
    ) -> Result<(), CudaError> {
        let dim = weight.len();
        need("rms_norm x", x.len(), rows * dim)?;
        need("rms_norm out", out.len(), rows * dim)?;
        if rows == 0 {
            return Ok(());
        }
        let f = self.function(Module::Norm, "rms_norm")?;
        let dim_u = to_u32(dim, "dim")?;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(x).arg(weight).arg(out).arg(&dim_u).arg(&eps);
        // SAFETY: arguments match rms_norm's signature; x and out hold rows * dim values.
        unsafe { launch.launch(row_launch(to_u32(rows, "rows")?, ROW_THREADS, 0)) }?;
        Ok(())
    }

    /// [`Self::rms_norm`] in place, over `rows` rows of `weight.len()` values (a row may be
    /// one head: per-head Q/K norms pass `rows = tokens * heads`).
    pub fn rms_norm_in_place(
        &self,
        x: &mut CudaSlice<f32>,
        weight: &CudaSlice<f32>,
        eps: f32,
        rows: usize,
    ) -> Result<(), CudaError> {
        let dim = weight.len();
        need("rms_norm_in_place x", x.len(), rows * dim)?;
        if rows == 0 {
            return Ok(());
        }
        let f = self.function(Module::Norm, "rms_norm_inplace")?;
        let dim_u = to_u32(dim, "dim")?;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(x).arg(weight).arg(&dim_u).arg(&eps);
        // SAFETY: arguments match rms_norm_inplace's signature; x holds rows * dim values.
        unsafe { launch.launch(row_launch(to_u32(rows, "rows")?, ROW_THREADS, 0)) }?;
        Ok(())
    }

    /// The residual add, RMSNorm and cast of the next GEMM's input in one launch: `x +=
    /// residual` (when given) over `rows` rows of `weight.len()` values, then `out =
    /// f16(x / rms(x) * weight)`; bit for bit [`Self::add_in_place`], [`Self::rms_norm`] and
    /// [`Self::cast_from_f32`] in turn.
    pub fn add_rms_norm_f16(
        &self,
        x: &mut CudaSlice<f32>,
        residual: Option<&CudaSlice<f32>>,
        weight: &CudaSlice<f32>,
        eps: f32,
        out: &mut CudaSlice<f16>,
        rows: usize,
    ) -> Result<(), CudaError> {
        let dim = weight.len();
        need("add_rms_norm x", x.len(), rows * dim)?;
        need("add_rms_norm out", out.len(), rows * dim)?;
        if let Some(r) = residual {
            need("add_rms_norm residual", r.len(), rows * dim)?;
        }
        if rows == 0 {
            return Ok(());
        }
        let f = self.function(Module::Norm, "add_rms_norm_f16")?;
        let dim_u = to_u32(dim, "dim")?;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(x);
        match residual {
            Some(r) => launch.arg(r),
            None => launch.arg(&NULL_PTR),
        };
        launch.arg(weight).arg(out).arg(&dim_u).arg(&eps);
        // SAFETY: arguments match add_rms_norm_f16's signature; x, out and the residual hold
        // rows * dim values.
        unsafe { launch.launch(row_launch(to_u32(rows, "rows")?, ROW_THREADS, 0)) }?;
        Ok(())
    }

    /// The residual connection: `x += y` over the first `n` values.
    pub fn add_in_place(
        &self,
        x: &mut CudaSlice<f32>,
        y: &CudaSlice<f32>,
        n: usize,
    ) -> Result<(), CudaError> {
        need("add x", x.len(), n)?;
        need("add y", y.len(), n)?;
        if n == 0 {
            return Ok(());
        }
        let f = self.function(Module::Activation, "add_inplace")?;
        let count = n as u64;
        let mut launch = self.stream().launch_builder(&f);
        launch.arg(x).arg(y).arg(&count);
        // SAFETY: arguments match add_inplace's signature; both buffers hold n values.
        unsafe { launch.launch(stride_launch(n)) }?;
        Ok(())
    }

    /// `out[t] = table[ids[t]]` as f32 for the first `n_tokens` ids of a `[vocab, hidden]`
    /// table; an id past the table gives a zero row (ids should be checked on upload).
    pub fn embedding<T: EmbeddingElem>(
        &self,
        ids: &CudaSlice<u32>,
        n_tokens: usize,
        table: &CudaSlice<T>,
        hidden: usize,
        out: &mut CudaSlice<f32>,
    ) -> Result<(), CudaError> {
        if hidden == 0 || !table.len().is_multiple_of(hidden) {
            return bad_shape(format!(
                "embedding: table of {} values, rows of {hidden}",
                table.len()
            ));
        }
        need("embedding ids", ids.len(), n_tokens)?;
        need("embedding out", out.len(), n_tokens * hidden)?;
        if n_tokens == 0 {
            return Ok(());
        }
        let f = self.function(Module::Embedding, T::KERNEL)?;
        let vocab = to_u32(table.len() / hidden, "vocab")?;
        let hidden_u = to_u32(hidden, "hidden")?;
        let mut launch = self.stream().launch_builder(&f);
        launch
            .arg(ids)
            .arg(table)
            .arg(out)
            .arg(&hidden_u)
            .arg(&vocab);
        // SAFETY: arguments match the embedding kernel's signature; reads stay inside the
        // table (ids are clamped by the kernel), writes inside n_tokens * hidden.
        unsafe { launch.launch(row_launch(to_u32(n_tokens, "tokens")?, ROW_THREADS, 0)) }?;
        Ok(())
    }
}
