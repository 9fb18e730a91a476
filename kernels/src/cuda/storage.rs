//! Device-side pools: `req_to_token` and the per-layer K/V buffers, laid out exactly as
//! `pools::ReqToTokenPool` and `pools::KvStorage` lay them out on the host.

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use crate::cuda_index::{stride_blocks, ELEMENTWISE_THREADS};
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use half::{bf16, f16};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv, ReqToTokenPool, SlotId};

/// `req_to_token` on the device: `[rows, max_context_len]` slot ids, row r being the page
/// table of the request that holds row r.
pub struct DeviceReqToToken {
    table: CudaSlice<SlotId>,
    rows: usize,
    max_context_len: usize,
}

impl DeviceReqToToken {
    pub fn new(gpu: &GpuContext, rows: usize, max_context_len: usize) -> Result<Self, CudaError> {
        let cells = rows
            .checked_mul(max_context_len)
            .filter(|&c| c > 0)
            .ok_or_else(|| CudaError::Shape(format!("req_to_token {rows} x {max_context_len}")))?;
        Ok(Self {
            table: gpu.zeros(cells)?,
            rows,
            max_context_len,
        })
    }

    /// A copy of the host pool's whole table.
    pub fn from_pool(gpu: &GpuContext, pool: &ReqToTokenPool) -> Result<Self, CudaError> {
        let mut dev = Self::new(gpu, pool.max_running_requests(), pool.max_context_len())?;
        dev.write(gpu, 0, 0, pool.table())?;
        Ok(dev)
    }

    /// Writes `slots` at `[row, start..]`, spilling into the next rows only if `start + len`
    /// says so (the whole table is one contiguous buffer, like the host one).
    pub fn write(
        &mut self,
        gpu: &GpuContext,
        row: usize,
        start: usize,
        slots: &[SlotId],
    ) -> Result<(), CudaError> {
        let at = row * self.max_context_len + start;
        let end = at + slots.len();
        if row >= self.rows || end > self.rows * self.max_context_len {
            return bad_shape(format!(
                "req_to_token write of {} slots at [{row}, {start}] outside {} x {}",
                slots.len(),
                self.rows,
                self.max_context_len
            ));
        }
        if slots.is_empty() {
            return Ok(());
        }
        let mut dst = self.table.slice_mut(at..end);
        gpu.stream().memcpy_htod(slots, &mut dst)?;
        Ok(())
    }

    /// `table[cells[i]] = slots[i]` in one launch (flat cells, `row * max_context_len + col`):
    /// the per-step update of a mirrored table, one pair per changed entry.
    pub fn write_cells(
        &mut self,
        gpu: &GpuContext,
        cells: &[u64],
        slots: &[SlotId],
    ) -> Result<(), CudaError> {
        let table_len = self.rows * self.max_context_len;
        if cells.len() != slots.len() {
            return bad_shape(format!(
                "req_to_token update: {} cells, {} slots",
                cells.len(),
                slots.len()
            ));
        }
        if let Some(bad) = cells.iter().find(|&&c| c >= table_len as u64) {
            return bad_shape(format!(
                "req_to_token update: cell {bad} outside {} x {}",
                self.rows, self.max_context_len
            ));
        }
        if cells.is_empty() {
            return Ok(());
        }
        let (dev_cells, dev_slots) = (gpu.upload(cells)?, gpu.upload(slots)?);
        let f = gpu.function(Module::KvIndices, "write_req_to_token")?;
        let (len, n) = (table_len as u64, cells.len() as u64);
        let mut launch = gpu.stream().launch_builder(&f);
        launch
            .arg(&mut self.table)
            .arg(&len)
            .arg(&dev_cells)
            .arg(&dev_slots)
            .arg(&n);
        let cfg = LaunchConfig {
            grid_dim: (stride_blocks(cells.len(), ELEMENTWISE_THREADS), 1, 1),
            block_dim: (ELEMENTWISE_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: arguments match write_req_to_token's signature; every cell was checked to
        // lie inside the table, and both pair arrays hold n values.
        unsafe { launch.launch(cfg) }?;
        Ok(())
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The row length (`max_context_len`), the `row_stride` of `create_kv_indices`.
    pub fn max_context_len(&self) -> usize {
        self.max_context_len
    }

    pub fn table(&self) -> &CudaSlice<SlotId> {
        &self.table
    }
}

/// Slot ids on the device (`out_cache_loc`), checked against the pool size on upload so the
/// kernels never see an id outside the pool.
pub struct DeviceSlots {
    slots: CudaSlice<SlotId>,
    len: usize,
    num_slots: usize,
}

impl DeviceSlots {
    pub fn upload(gpu: &GpuContext, slots: &[SlotId], num_slots: usize) -> Result<Self, CudaError> {
        if let Some(bad) = slots.iter().find(|&&s| s < 0 || s as usize >= num_slots) {
            return bad_shape(format!("slot {bad} outside the pool of {num_slots} slots"));
        }
        Ok(Self {
            slots: gpu.upload(slots)?,
            len: slots.len(),
            num_slots,
        })
    }

    /// Room for `capacity` slot ids at a fixed device address (a CUDA graph reads them
    /// there); empty until [`Self::refill`].
    pub fn with_capacity(
        gpu: &GpuContext,
        capacity: usize,
        num_slots: usize,
    ) -> Result<Self, CudaError> {
        Ok(Self {
            slots: gpu.zeros(capacity)?,
            len: 0,
            num_slots,
        })
    }

    /// Checks `slots` against the pool and writes them at the same address, followed by
    /// `-1` up to `len` entries: padding rows, for which the store kernel writes nothing.
    pub fn refill(
        &mut self,
        gpu: &GpuContext,
        slots: &[SlotId],
        len: usize,
        staging: &mut Vec<SlotId>,
    ) -> Result<(), CudaError> {
        if let Some(bad) = slots
            .iter()
            .find(|&&s| s < 0 || s as usize >= self.num_slots)
        {
            return bad_shape(format!(
                "slot {bad} outside the pool of {} slots",
                self.num_slots
            ));
        }
        if slots.len() > len || len > self.slots.len() {
            return bad_shape(format!(
                "{} slots padded to {len} in room for {}",
                slots.len(),
                self.slots.len()
            ));
        }
        staging.clear();
        staging.extend_from_slice(slots);
        staging.resize(len, -1);
        gpu.upload_into(staging, &mut self.slots)?;
        self.len = len;
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pool size these slots were checked against.
    pub(crate) fn checked_against(&self) -> usize {
        self.num_slots
    }

    pub fn as_slice(&self) -> &CudaSlice<SlotId> {
        &self.slots
    }
}

/// One layer's K or V buffer on the device, typed like `pools::LayerKv`.
pub enum DeviceLayerKv {
    F32(CudaSlice<f32>),
    F16(CudaSlice<f16>),
    Bf16(CudaSlice<bf16>),
}

impl DeviceLayerKv {
    fn zeros(gpu: &GpuContext, dtype: KvDtype, len: usize) -> Result<Self, CudaError> {
        Ok(match dtype {
            KvDtype::F32 => DeviceLayerKv::F32(gpu.zeros(len)?),
            KvDtype::F16 => DeviceLayerKv::F16(gpu.zeros(len)?),
            KvDtype::Bf16 => DeviceLayerKv::Bf16(gpu.zeros(len)?),
        })
    }

    pub fn upload(gpu: &GpuContext, host: &LayerKv) -> Result<Self, CudaError> {
        Ok(match host {
            LayerKv::F32(b) => DeviceLayerKv::F32(gpu.upload(b)?),
            LayerKv::F16(b) => DeviceLayerKv::F16(gpu.upload(b)?),
            LayerKv::Bf16(b) => DeviceLayerKv::Bf16(gpu.upload(b)?),
        })
    }

    pub fn download(&self, gpu: &GpuContext) -> Result<LayerKv, CudaError> {
        Ok(match self {
            DeviceLayerKv::F32(b) => LayerKv::F32(gpu.download(b)?),
            DeviceLayerKv::F16(b) => LayerKv::F16(gpu.download(b)?),
            DeviceLayerKv::Bf16(b) => LayerKv::Bf16(gpu.download(b)?),
        })
    }

    pub fn dtype(&self) -> KvDtype {
        match self {
            DeviceLayerKv::F32(_) => KvDtype::F32,
            DeviceLayerKv::F16(_) => KvDtype::F16,
            DeviceLayerKv::Bf16(_) => KvDtype::Bf16,
        }
    }

    /// Elements in the buffer.
    pub fn len(&self) -> usize {
        match self {
            DeviceLayerKv::F32(b) => b.len(),
            DeviceLayerKv::F16(b) => b.len(),
            DeviceLayerKv::Bf16(b) => b.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// K and V of every layer for every slot, on the device (SGLang's `MHATokenToKVPool`): per
/// layer `[num_slots, num_kv_heads, head_dim]` in the layout's dtype.
pub struct DeviceKvStorage {
    layout: KvLayout,
    num_slots: usize,
    k: Vec<DeviceLayerKv>,
    v: Vec<DeviceLayerKv>,
}

impl DeviceKvStorage {
    pub fn new(gpu: &GpuContext, layout: KvLayout, num_slots: usize) -> Result<Self, CudaError> {
        if !layout.is_uniform() {
            return Err(CudaError::Shape(format!(
                "KV storage {layout:?}: layers of several row widths"
            )));
        }
        if layout.values_in_keys {
            return Err(CudaError::Shape(
                "values read from the keys (latent attention) on the GPU".into(),
            ));
        }
        let len = num_slots
            .checked_mul(layout.row_len())
            .filter(|&l| l > 0 && layout.num_layers > 0)
            .ok_or_else(|| CudaError::Shape(format!("KV storage {layout:?}, {num_slots} slots")))?;
        let mut k = Vec::with_capacity(layout.num_layers);
        let mut v = Vec::with_capacity(layout.num_layers);
        for _ in 0..layout.num_layers {
            k.push(DeviceLayerKv::zeros(gpu, layout.dtype, len)?);
            v.push(DeviceLayerKv::zeros(gpu, layout.dtype, len)?);
        }
        Ok(Self {
            layout,
            num_slots,
            k,
            v,
        })
    }

    /// Storage sized to fit `budget_bytes` of device memory, rounded down to whole pages.
    pub fn with_budget(
        gpu: &GpuContext,
        layout: KvLayout,
        budget_bytes: usize,
        page_size: usize,
    ) -> Result<Self, CudaError> {
        Self::new(
            gpu,
            layout,
            layout.slots_for_budget(budget_bytes, page_size),
        )
    }

    /// A device copy of a host storage (same layout and contents).
    pub fn upload(gpu: &GpuContext, host: &KvStorage) -> Result<Self, CudaError> {
        let layout = host.layout();
        if !layout.is_uniform() || layout.values_in_keys {
            return Err(CudaError::Shape(format!(
                "KV storage {layout:?}: several row widths, or values in the keys"
            )));
        }
        let mut k = Vec::with_capacity(layout.num_layers);
        let mut v = Vec::with_capacity(layout.num_layers);
        for layer in 0..layout.num_layers {
            let (hk, hv) = host
                .layer(layer)
                .ok_or_else(|| CudaError::Shape(format!("host storage has no layer {layer}")))?;
            k.push(DeviceLayerKv::upload(gpu, hk)?);
            v.push(DeviceLayerKv::upload(gpu, hv)?);
        }
        Ok(Self {
            layout,
            num_slots: host.num_slots(),
            k,
            v,
        })
    }

    pub fn layout(&self) -> KvLayout {
        self.layout
    }

    pub fn num_slots(&self) -> usize {
        self.num_slots
    }

    pub fn bytes_per_token(&self) -> usize {
        self.layout.bytes_per_token()
    }

    /// Layer `layer`'s K and V buffers, for the attention kernels.
    pub fn layer(&self, layer: usize) -> Option<(&DeviceLayerKv, &DeviceLayerKv)> {
        Some((self.k.get(layer)?, self.v.get(layer)?))
    }

    pub(crate) fn layer_mut(
        &mut self,
        layer: usize,
    ) -> Option<(&mut DeviceLayerKv, &mut DeviceLayerKv)> {
        Some((self.k.get_mut(layer)?, self.v.get_mut(layer)?))
    }

    /// Scatters new tokens' K and V (`[n, kv_heads * head_dim]` f32 each, the first values of
    /// `k` and `v`) into `layer` at `out_cache_loc`, converting to the pool's dtype.
    pub fn set_kv(
        &mut self,
        gpu: &GpuContext,
        layer: usize,
        out_cache_loc: &DeviceSlots,
        k: &CudaSlice<f32>,
        v: &CudaSlice<f32>,
    ) -> Result<(), CudaError> {
        let row_len = self.layout.row_len();
        let total = out_cache_loc.len() * row_len;
        if k.len() < total || v.len() < total {
            return bad_shape(format!(
                "set_kv: {} tokens of {row_len} need {total} values, got k {} / v {}",
                out_cache_loc.len(),
                k.len(),
                v.len()
            ));
        }
        if out_cache_loc.num_slots > self.num_slots {
            return bad_shape(format!(
                "set_kv: slots checked against {} slots, pool has {}",
                out_cache_loc.num_slots, self.num_slots
            ));
        }
        let (Some(kc), Some(vc)) = (self.k.get_mut(layer), self.v.get_mut(layer)) else {
            return bad_shape(format!("set_kv: no layer {layer}"));
        };
        if total == 0 {
            return Ok(());
        }
        let args = StoreArgs {
            n_tokens: to_u32(out_cache_loc.len(), "tokens")?,
            row_len: to_u32(row_len, "row_len")?,
            num_slots: to_u32(self.num_slots, "num_slots")?,
            blocks: stride_blocks(total, ELEMENTWISE_THREADS),
        };
        let slots = out_cache_loc.as_slice();
        match (kc, vc) {
            (DeviceLayerKv::F32(kc), DeviceLayerKv::F32(vc)) => {
                store(gpu, "store_kv_f32", &args, slots, k, v, kc, vc)
            }
            (DeviceLayerKv::F16(kc), DeviceLayerKv::F16(vc)) => {
                store(gpu, "store_kv_f16", &args, slots, k, v, kc, vc)
            }
            (DeviceLayerKv::Bf16(kc), DeviceLayerKv::Bf16(vc)) => {
                store(gpu, "store_kv_bf16", &args, slots, k, v, kc, vc)
            }
            _ => bad_shape("set_kv: K and V buffers of different dtypes".into()),
        }
    }
}

struct StoreArgs {
    n_tokens: u32,
    row_len: u32,
    num_slots: u32,
    blocks: u32,
}

#[allow(clippy::too_many_arguments)]
fn store<T>(
    gpu: &GpuContext,
    name: &'static str,
    args: &StoreArgs,
    slots: &CudaSlice<SlotId>,
    k: &CudaSlice<f32>,
    v: &CudaSlice<f32>,
    k_cache: &mut CudaSlice<T>,
    v_cache: &mut CudaSlice<T>,
) -> Result<(), CudaError> {
    let f = gpu.function(Module::StoreKv, name)?;
    let mut launch = gpu.stream().launch_builder(&f);
    launch
        .arg(slots)
        .arg(k)
        .arg(v)
        .arg(k_cache)
        .arg(v_cache)
        .arg(&args.n_tokens)
        .arg(&args.row_len)
        .arg(&args.num_slots);
    let cfg = LaunchConfig {
        grid_dim: (args.blocks, 1, 1),
        block_dim: (ELEMENTWISE_THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: the argument list matches store_kv's signature; every index the kernel forms is
    // below n_tokens * row_len in k/v (checked above) and, via the slot guard, inside the pool.
    unsafe { launch.launch(cfg) }?;
    Ok(())
}
