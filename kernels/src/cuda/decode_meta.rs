//! The attention metadata of decode steps at fixed device addresses, for CUDA graphs: room
//! for `capacity` requests of one query row each, rewritten before every replay. A step of
//! `n` requests is padded to the graph's batch size with rows that attend to one key of
//! `req_to_token` row 0 and write no K/V; their outputs are never read.

use super::attention::AttentionMeta;
use super::context::GpuContext;
use super::error::{bad_shape, CudaError};
use super::storage::DeviceReqToToken;
use cudarc::driver::CudaSlice;
use pools::SlotId;

pub struct DecodeMeta {
    capacity: usize,
    max_kv_len: usize,
    /// `0, 1, ..., capacity`: one query row per request, never rewritten.
    q_indptr: CudaSlice<u32>,
    kv_indptr: CudaSlice<u32>,
    /// Room for `capacity * max_kv_len` slots, gathered on the device from `req_to_token`.
    kv_indices: CudaSlice<SlotId>,
    pool_rows: CudaSlice<u32>,
    host_indptr: Vec<u32>,
    host_rows: Vec<u32>,
}

impl DecodeMeta {
    /// Room for `capacity` requests of at most `max_kv_len` keys each.
    pub fn new(gpu: &GpuContext, capacity: usize, max_kv_len: usize) -> Result<Self, CudaError> {
        let capacity_u32 = u32::try_from(capacity)
            .map_err(|_| CudaError::Shape(format!("decode capacity {capacity}")))?;
        let q_indptr: Vec<u32> = (0..=capacity_u32).collect();
        let slots = capacity
            .checked_mul(max_kv_len)
            .ok_or_else(|| CudaError::Shape("decode metadata size overflows".into()))?;
        Ok(Self {
            capacity,
            max_kv_len,
            q_indptr: gpu.upload(&q_indptr)?,
            kv_indptr: gpu.zeros(capacity + 1)?,
            kv_indices: gpu.zeros(slots)?,
            pool_rows: gpu.zeros(capacity)?,
            host_indptr: Vec::with_capacity(capacity + 1),
            host_rows: Vec::with_capacity(capacity),
        })
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Writes one step of `batch` rows: request `b < rows.len()` attends to the first
    /// `kv_lens[b]` entries of `req_to_token` row `rows[b]`; the rest are padding.
    pub fn write(
        &mut self,
        gpu: &GpuContext,
        table: &DeviceReqToToken,
        rows: &[u32],
        kv_lens: &[u32],
        batch: usize,
    ) -> Result<(), CudaError> {
        if rows.len() != kv_lens.len() || rows.len() > batch || batch > self.capacity {
            return bad_shape(format!(
                "decode step of {} rows and {} lengths padded to {batch} in room for {}",
                rows.len(),
                kv_lens.len(),
                self.capacity
            ));
        }
        let longest = self.max_kv_len.min(table.max_context_len());
        if let Some(b) = (0..rows.len()).find(|&b| {
            rows[b] as usize >= table.rows() || kv_lens[b] == 0 || kv_lens[b] as usize > longest
        }) {
            return bad_shape(format!(
                "decode request {b}: row {} with {} keys outside {} rows of at most {longest}",
                rows[b],
                kv_lens[b],
                table.rows()
            ));
        }
        self.host_rows.clear();
        self.host_rows.extend_from_slice(rows);
        self.host_rows.resize(batch, 0);
        self.host_indptr.clear();
        self.host_indptr.push(0);
        let mut total = 0u32;
        for b in 0..batch {
            // At most capacity * max_kv_len, which fit in memory: no overflow.
            total += kv_lens.get(b).copied().unwrap_or(1);
            self.host_indptr.push(total);
        }
        gpu.upload_into(&self.host_rows, &mut self.pool_rows)?;
        gpu.upload_into(&self.host_indptr, &mut self.kv_indptr)
    }

    /// Gathers the slots of the last [`Self::write`] of `batch` rows, which checked them
    /// against `table` (device data only: a graph records it).
    pub fn gather(
        &mut self,
        gpu: &GpuContext,
        table: &DeviceReqToToken,
        batch: usize,
    ) -> Result<(), CudaError> {
        if batch > self.capacity {
            return bad_shape(format!("decode gather of {batch} rows"));
        }
        gpu.gather_kv_indices(
            table,
            &self.pool_rows,
            &self.kv_indptr,
            None,
            &mut self.kv_indices,
            batch,
        )
    }

    /// The metadata of `batch` rows as attention reads it, planned for the longest row the
    /// buffers hold (the data changes under a recorded launch; the plan cannot).
    pub fn meta(&self, batch: usize) -> AttentionMeta<'_> {
        AttentionMeta {
            q_indptr: &self.q_indptr,
            kv_indptr: &self.kv_indptr,
            kv_indices: &self.kv_indices,
            batch: batch.min(self.capacity),
            rows: batch.min(self.capacity),
            max_visible: u32::try_from(self.max_kv_len).unwrap_or(u32::MAX),
        }
    }
}
