//! `req_to_token` on the device, kept equal to the rows the batches describe.
//!
//! The host pool stays the truth (the scheduler and the radix cache run there). Each step the
//! runner compares every request's slots in the batch with what it last wrote to that row
//! and sends only the entries that differ, in one scatter launch: a decode step sends one
//! slot per request, a new request its whole row once. The attention metadata is then
//! gathered on the device by `create_kv_indices`, as SGLang does, instead of uploading every
//! request's full slot list each step.

use super::super::table_diff::req_to_token_updates;
use super::super::{ForwardBatch, ModelError};
use kernels::cuda::{DeviceKvIndices, DeviceReqToToken, GpuContext};
use kernels::kv_indices::write_req_to_token;
use pools::SlotId;

pub struct ReqToTokenMirror {
    device: DeviceReqToToken,
    /// What the device table holds, entry for entry.
    shadow: Vec<SlotId>,
    cells: Vec<u64>,
    slots: Vec<SlotId>,
    kv_lens: Vec<u32>,
}

impl ReqToTokenMirror {
    pub fn new(gpu: &GpuContext, rows: usize, max_context_len: usize) -> Result<Self, ModelError> {
        let device = DeviceReqToToken::new(gpu, rows, max_context_len)?;
        Ok(Self {
            device,
            shadow: vec![0; rows * max_context_len],
            cells: Vec::new(),
            slots: Vec::new(),
            kv_lens: Vec::new(),
        })
    }

    pub fn rows(&self) -> usize {
        self.device.rows()
    }

    pub fn max_context_len(&self) -> usize {
        self.device.max_context_len()
    }

    /// The device table (what [`Self::sync`] keeps up to date).
    pub fn device(&self) -> &DeviceReqToToken {
        &self.device
    }

    /// Brings the rows of `batch`'s requests up to date on the device; returns how many
    /// entries were sent. The batch must have been validated against this table's shape.
    pub fn sync(&mut self, gpu: &GpuContext, batch: &ForwardBatch) -> Result<usize, ModelError> {
        self.cells.clear();
        self.slots.clear();
        req_to_token_updates(
            &self.shadow,
            self.device.max_context_len(),
            batch,
            &mut self.cells,
            &mut self.slots,
        );
        self.device.write_cells(gpu, &self.cells, &self.slots)?;
        // The CPU reference of the scatter keeps the shadow equal to the device.
        write_req_to_token(&mut self.shadow, &self.cells, &self.slots)?;
        Ok(self.cells.len())
    }

    /// `kv_indptr` / `kv_indices` of `batch` gathered on the device from the table.
    pub fn kv_indices(
        &mut self,
        gpu: &GpuContext,
        batch: &ForwardBatch,
    ) -> Result<DeviceKvIndices, ModelError> {
        self.kv_lens.clear();
        self.kv_lens.extend(batch.kv_lens());
        Ok(gpu.create_kv_indices(&self.device, &batch.req_pool_indices, &self.kv_lens, None)?)
    }

    /// The device table, read back (tests compare it with the host pool).
    pub fn download(&self, gpu: &GpuContext) -> Result<Vec<SlotId>, ModelError> {
        Ok(gpu.download(self.device.table())?)
    }
}
