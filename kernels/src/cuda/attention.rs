//! Paged attention on the device: the batch's CSR metadata and the launcher of
//! `attention_gqa` (one block per query row and KV head, for head_dim <= 128 and groups of at
//! most 8) or `attention_partial` (one block per query row and head, any other shape), plus
//! `attention_merge` when the KV range is split across blocks.

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, DeviceKvIndices};
use super::storage::DeviceLayerKv;
use crate::attention::{AttentionShape, PagedBatch, ScoreRules};
pub use crate::cuda_index::split_plan;
use crate::cuda_index::{
    attention_geometry, max_visible, SplitPlan, ATTN_MAX_HEAD_DIM, ATTN_THREADS,
};
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use pools::SlotId;

/// The batch's CSR metadata on the device, with the host copies of the two `indptr` arrays
/// (validated once here; the launcher plans the grid from them).
pub struct DeviceAttentionBatch {
    q_indptr_host: Vec<u32>,
    kv_indptr_host: Vec<u32>,
    q_indptr: CudaSlice<u32>,
    kv_indptr: CudaSlice<u32>,
    kv_indices: CudaSlice<SlotId>,
}

/// The checks of the CPU kernel: same length, monotone, `q_len <= kv_len` per request.
fn validate_indptr(q_indptr: &[u32], kv_indptr: &[u32]) -> Result<(), CudaError> {
    let n = q_indptr.len();
    if n == 0 || kv_indptr.len() != n || q_indptr[0] != 0 || kv_indptr[0] != 0 {
        return bad_shape(format!(
            "attention: q_indptr {n} vs kv_indptr {} entries, both from 0",
            kv_indptr.len()
        ));
    }
    for b in 0..n - 1 {
        let q_len = q_indptr[b + 1].checked_sub(q_indptr[b]);
        let kv_len = kv_indptr[b + 1].checked_sub(kv_indptr[b]);
        match (q_len, kv_len) {
            (Some(ql), Some(kl)) if ql <= kl => {}
            _ => {
                return bad_shape(format!(
                    "attention: request {b}: ranges not monotone or q_len > kv_len"
                ))
            }
        }
    }
    Ok(())
}

impl DeviceAttentionBatch {
    /// Uploads host metadata; `kv_indices` are checked against a pool of `num_slots` slots.
    pub fn upload(
        gpu: &GpuContext,
        batch: &PagedBatch<'_>,
        num_slots: usize,
    ) -> Result<Self, CudaError> {
        validate_indptr(batch.q_indptr, batch.kv_indptr)?;
        let kv_total = batch.kv_indptr[batch.kv_indptr.len() - 1] as usize;
        if kv_total != batch.kv_indices.len() {
            return bad_shape("attention: kv_indptr does not end at kv_indices.len()".into());
        }
        if let Some(s) = batch
            .kv_indices
            .iter()
            .find(|&&s| s < 0 || s as usize >= num_slots)
        {
            return bad_shape(format!(
                "kv index {s} outside the pool of {num_slots} slots"
            ));
        }
        Ok(Self {
            q_indptr_host: batch.q_indptr.to_vec(),
            kv_indptr_host: batch.kv_indptr.to_vec(),
            q_indptr: gpu.upload(batch.q_indptr)?,
            kv_indptr: gpu.upload(batch.kv_indptr)?,
            kv_indices: gpu.upload(batch.kv_indices)?,
        })
    }

    /// Pairs host `q_indptr` with KV metadata built on the device by
    /// [`GpuContext::create_kv_indices`]. Those slots come from `req_to_token` and are not
    /// seen by the host: the kernel masks any outside the pool instead of reading it.
    pub fn from_kv_indices(
        gpu: &GpuContext,
        q_indptr: &[u32],
        kv: DeviceKvIndices,
    ) -> Result<Self, CudaError> {
        validate_indptr(q_indptr, &kv.kv_indptr_host)?;
        Ok(Self {
            q_indptr_host: q_indptr.to_vec(),
            kv_indptr_host: kv.kv_indptr_host,
            q_indptr: gpu.upload(q_indptr)?,
            kv_indptr: kv.kv_indptr,
            kv_indices: kv.kv_indices,
        })
    }

    /// Query rows of the batch.
    pub fn rows(&self) -> usize {
        self.q_indptr_host[self.q_indptr_host.len() - 1] as usize
    }

    /// The metadata as the launcher reads it.
    pub fn meta(&self) -> AttentionMeta<'_> {
        AttentionMeta {
            q_indptr: &self.q_indptr,
            kv_indptr: &self.kv_indptr,
            kv_indices: &self.kv_indices,
            batch: self.q_indptr_host.len() - 1,
            rows: self.rows(),
            max_visible: max_visible(&self.q_indptr_host, &self.kv_indptr_host),
        }
    }

    /// The split-K plan [`GpuContext::paged_attention`] uses for `num_heads` heads.
    /// split-K only where the blocks of `shape` (one per row and KV head on the grouped
    /// path, per row and query head otherwise) cannot fill the GPU.
    pub fn default_plan(&self, shape: &AttentionShape) -> SplitPlan {
        let max_vis = max_visible(&self.q_indptr_host, &self.kv_indptr_host);
        split_plan(shape, self.rows(), max_vis)
    }
}

impl GpuContext {
    /// `out[t] = softmax(q[t] K^T / sqrt(d)) V` for every query row (`[rows, heads * d]`), as
    /// `crate::attention::paged_attention`; splits long KV ranges when the batch is small.
    pub fn paged_attention(
        &self,
        shape: &AttentionShape,
        batch: &DeviceAttentionBatch,
        q: &CudaSlice<f32>,
        k_cache: &DeviceLayerKv,
        v_cache: &DeviceLayerKv,
        out: &mut CudaSlice<f32>,
    ) -> Result<(), CudaError> {
        let rules = ScoreRules::default();
        self.paged_attention_with_rules(shape, rules, batch, q, k_cache, v_cache, out)
    }

    /// [`Self::paged_attention`] under a layer's [`ScoreRules`]: each query sees at most its
    /// last `window` keys, scores soft-capped where asked
    /// (`crate::attention::paged_attention_with_rules`).
    #[allow(clippy::too_many_arguments)]
    pub fn paged_attention_with_rules(
        &self,
        shape: &AttentionShape,
        rules: ScoreRules,
        batch: &DeviceAttentionBatch,
        q: &CudaSlice<f32>,
        k_cache: &DeviceLayerKv,
        v_cache: &DeviceLayerKv,
        out: &mut CudaSlice<f32>,
    ) -> Result<(), CudaError> {
        let plan = batch.default_plan(shape);
        self.paged_attention_with_plan(shape, rules, batch, q, k_cache, v_cache, out, plan)
    }

    /// [`Self::paged_attention_with_rules`] with an explicit split-K plan (tests force splits
    /// with it).
    #[allow(clippy::too_many_arguments)]
    pub fn paged_attention_with_plan(
        &self,
        shape: &AttentionShape,
        rules: ScoreRules,
        batch: &DeviceAttentionBatch,
        q: &CudaSlice<f32>,
        k_cache: &DeviceLayerKv,
        v_cache: &DeviceLayerKv,
        out: &mut CudaSlice<f32>,
        plan: SplitPlan,
    ) -> Result<(), CudaError> {
        let meta = batch.meta();
        // Partial states only exist with more than one split.
        let parts = if plan.num_splits > 1 {
            Some(SplitParts::new(self, meta.rows, shape, plan)?)
        } else {
            None
        };
        let layer = AttentionLayer {
            shape,
            rules,
            k_cache,
            v_cache,
        };
        self.paged_attention_into(&layer, meta, q, out, plan, parts.as_ref())
    }

    /// The attention launches of one layer over `meta`, with the split-K partial states in
    /// `parts` (needed when `plan` has more than one split). Reads nothing from the host and
    /// allocates nothing, so a CUDA graph can record it.
    pub fn paged_attention_into(
        &self,
        layer: &AttentionLayer<'_>,
        meta: AttentionMeta<'_>,
        q: &CudaSlice<f32>,
        out: &mut CudaSlice<f32>,
        plan: SplitPlan,
        parts: Option<&SplitParts>,
    ) -> Result<(), CudaError> {
        let AttentionLayer {
            shape,
            rules,
            k_cache,
            v_cache,
        } = *layer;
        rules
            .validate()
            .map_err(|e| CudaError::Shape(e.to_string()))?;
        if rules.chunk.is_some() {
            return bad_shape("attention: chunked attention has no CUDA kernel".into());
        }
        // A window wider than any row's keys is no window; the kernel reads ~0u as none.
        let window = rules
            .window
            .map_or(u32::MAX, |w| u32::try_from(w).unwrap_or(u32::MAX));
        let (heads, kv_heads, d) = (shape.num_heads, shape.num_kv_heads, shape.head_dim);
        if kv_heads == 0 || d == 0 || heads % kv_heads != 0 || heads > u16::MAX as usize {
            return bad_shape(format!("attention: {shape:?}"));
        }
        if d > ATTN_MAX_HEAD_DIM {
            return bad_shape(format!("attention: head_dim {d} above the kernel's limit"));
        }
        let max_vis = meta.max_visible;
        let covered = plan.num_splits as u64 * plan.chunk as u64;
        // The kernel forms split * chunk in 32 bits: the whole plan must fit. A per-row plan
        // (chunk 0) covers each row's keys by construction.
        let uncovered = plan.chunk != 0 && (covered < max_vis as u64 || covered > u32::MAX as u64);
        if plan.num_splits == 0 || plan.num_splits > u16::MAX as u32 || uncovered {
            return bad_shape(format!("attention: {plan:?} does not cover {max_vis} keys"));
        }
        let rows = meta.rows;
        need("attention q", q.len(), rows * heads * d)?;
        need("attention out", out.len(), rows * heads * d)?;
        if k_cache.dtype() != v_cache.dtype() || k_cache.len() != v_cache.len() {
            return bad_shape("attention: K and V buffers differ in dtype or size".into());
        }
        if rows == 0 {
            return Ok(());
        }
        let splits = plan.num_splits as usize;
        let parts = match parts {
            None if splits > 1 => {
                return bad_shape(format!("attention: {splits} splits need partial states"))
            }
            Some(p) if splits > 1 => {
                need(
                    "attention partial outputs",
                    p.acc.len(),
                    rows * heads * splits * d,
                )?;
                need(
                    "attention partial states",
                    p.ml.len(),
                    rows * heads * splits * 2,
                )?;
                Some(p)
            }
            _ => None,
        };
        let num_slots = k_cache.len() / (kv_heads * d);
        let args = PartialArgs {
            batch: to_u32(meta.batch, "batch")?,
            num_heads: heads as u32,
            num_kv_heads: kv_heads as u32,
            head_dim: to_u32(d, "head_dim")?,
            num_slots: to_u32(num_slots, "num_slots")?,
            scale: rules.score_scale(d),
            chunk: plan.chunk,
            window,
            softcap: rules.softcap.unwrap_or(0.0),
        };
        let geometry = attention_geometry(shape, to_u32(rows, "rows")?, plan.num_splits);
        let names = if geometry.grouped {
            [
                "attention_gqa_f32",
                "attention_gqa_f16",
                "attention_gqa_bf16",
            ]
        } else {
            [
                "attention_partial_f32",
                "attention_partial_f16",
                "attention_partial_bf16",
            ]
        };
        let grid = geometry.grid;
        let launch = Launch {
            gpu: self,
            meta,
            q,
            args: &args,
            cfg: LaunchConfig {
                grid_dim: grid,
                block_dim: (geometry.threads, 1, 1),
                shared_mem_bytes: to_u32(geometry.shared_bytes, "shared memory")?,
            },
        };
        match (k_cache, v_cache) {
            (DeviceLayerKv::F32(k), DeviceLayerKv::F32(v)) => {
                launch.partial(names[0], k, v, out, parts)
            }
            (DeviceLayerKv::F16(k), DeviceLayerKv::F16(v)) => {
                launch.partial(names[1], k, v, out, parts)
            }
            (DeviceLayerKv::Bf16(k), DeviceLayerKv::Bf16(v)) => {
                launch.partial(names[2], k, v, out, parts)
            }
            _ => bad_shape("attention: K and V buffers of different dtypes".into()),
        }?;
        if let Some(parts) = parts {
            let f = self.function(Module::Attention, "attention_merge")?;
            let mut merge = self.stream().launch_builder(&f);
            merge
                .arg(&parts.acc)
                .arg(&parts.ml)
                .arg(out)
                .arg(&args.num_heads)
                .arg(&args.head_dim)
                .arg(&plan.num_splits);
            let cfg = LaunchConfig {
                grid_dim: (grid.0, heads as u32, 1),
                block_dim: (ATTN_THREADS, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: arguments match attention_merge's signature; the partial buffers hold
            // rows * heads * splits states and out holds rows * heads * d values.
            unsafe { merge.launch(cfg) }?;
        }
        Ok(())
    }
}

/// What one layer's attention reads besides the batch: the head layout, the score rules and
/// the layer's K/V buffers.
#[derive(Clone, Copy)]
pub struct AttentionLayer<'a> {
    pub shape: &'a AttentionShape,
    pub rules: ScoreRules,
    pub k_cache: &'a DeviceLayerKv,
    pub v_cache: &'a DeviceLayerKv,
}

/// The CSR metadata of a batch on the device, with the sizes the launch is planned from:
/// borrowed from a [`DeviceAttentionBatch`] or from fixed buffers a CUDA graph reads.
#[derive(Clone, Copy)]
pub struct AttentionMeta<'a> {
    pub q_indptr: &'a CudaSlice<u32>,
    pub kv_indptr: &'a CudaSlice<u32>,
    pub kv_indices: &'a CudaSlice<SlotId>,
    /// Requests (`q_indptr` holds `batch + 1` entries).
    pub batch: usize,
    /// Query rows (`q_indptr[batch]`).
    pub rows: usize,
    /// The most keys any row sees; the split plan must cover it.
    pub max_visible: u32,
}

/// Split-K partial states (`[rows, heads, splits]` outputs and (max, sum) pairs), allocated
/// once by whoever launches attention many times over the same shape.
pub struct SplitParts {
    acc: CudaSlice<f32>,
    ml: CudaSlice<f32>,
}

impl SplitParts {
    /// Room for `rows` query rows of `shape` under `plan`.
    pub fn new(
        gpu: &GpuContext,
        rows: usize,
        shape: &AttentionShape,
        plan: SplitPlan,
    ) -> Result<Self, CudaError> {
        Self::covering(gpu, shape, [(rows, plan)])
    }

    /// Room for the largest of several `(rows, plan)` launches that use these states one
    /// after another.
    pub fn covering(
        gpu: &GpuContext,
        shape: &AttentionShape,
        launches: impl IntoIterator<Item = (usize, SplitPlan)>,
    ) -> Result<Self, CudaError> {
        let most = launches
            .into_iter()
            .map(|(rows, plan)| rows * plan.num_splits as usize)
            .max()
            .unwrap_or(0);
        let states = most * shape.num_heads;
        Ok(Self {
            acc: gpu.zeros(states * shape.head_dim)?,
            ml: gpu.zeros(states * 2)?,
        })
    }
}

struct PartialArgs {
    batch: u32,
    num_heads: u32,
    num_kv_heads: u32,
    head_dim: u32,
    num_slots: u32,
    scale: f32,
    chunk: u32,
    /// Keys each query sees at most; `u32::MAX`: all.
    window: u32,
    /// Soft cap of the scores; 0: none.
    softcap: f32,
}

struct Launch<'a> {
    gpu: &'a GpuContext,
    meta: AttentionMeta<'a>,
    q: &'a CudaSlice<f32>,
    args: &'a PartialArgs,
    cfg: LaunchConfig,
}

/// A null device pointer for the partial buffers of a single-split launch.
const NULL_PTR: u64 = 0;

impl Launch<'_> {
    fn partial<T>(
        &self,
        name: &'static str,
        k_cache: &CudaSlice<T>,
        v_cache: &CudaSlice<T>,
        out: &mut CudaSlice<f32>,
        parts: Option<&SplitParts>,
    ) -> Result<(), CudaError> {
        let f = self.gpu.function(Module::Attention, name)?;
        let a = self.args;
        let mut launch = self.gpu.stream().launch_builder(&f);
        launch
            .arg(self.q)
            .arg(k_cache)
            .arg(v_cache)
            .arg(self.meta.q_indptr)
            .arg(self.meta.kv_indptr)
            .arg(self.meta.kv_indices)
            .arg(&a.batch)
            .arg(&a.num_heads)
            .arg(&a.num_kv_heads)
            .arg(&a.head_dim)
            .arg(&a.num_slots)
            .arg(&a.scale)
            .arg(&a.chunk)
            .arg(&a.window)
            .arg(&a.softcap)
            .arg(out);
        match parts {
            Some(p) => launch.arg(&p.acc).arg(&p.ml),
            None => launch.arg(&NULL_PTR).arg(&NULL_PTR),
        };
        // SAFETY: arguments match the signature shared by attention_partial and attention_gqa.
        // The metadata was validated (monotone, q_len <= kv_len), q/out cover every row,
        // head_dim and the group fit the kernel's accumulators (checked by the caller), slots
        // outside the pool are masked by the kernel, the shared memory matches its layout, and
        // the partial buffers (touched only with more than one split) hold rows * heads *
        // splits states.
        unsafe { launch.launch(self.cfg) }?;
        Ok(())
    }
}
