//! CUDA graphs for decode steps (SGLang's CUDA-graph runner): the forward pass of a decode
//! batch padded to a bucket size is recorded once per bucket and replayed every step, one
//! launch instead of ~15 per layer. Prefill and mixed steps stay eager.
//!
//! A graph reads its inputs at fixed addresses, so every bucket shares one set of input
//! buffers and activations sized for the largest, rewritten before each replay. Padding rows
//! read token 0 at position 0, attend to one key of `req_to_token` row 0 and write no K/V;
//! every kernel treats rows independently, so they change nothing for the real rows. A graph
//! also holds the K/V pool's addresses: graphs recorded against one pool are dropped when
//! another comes.

use super::layers::{Activations, DeviceModel, StepInputs};
use super::GpuKv;
use crate::model::{ForwardBatch, ModelError};
use kernels::cuda::{
    split_plan, CudaSlice, DecodeMeta, DeviceGraph, DeviceSlots, GpuContext, SplitParts,
};
use kernels::cuda_index::SplitPlan;
use pools::SlotId;

use crate::model::graph_buckets::{bucket_for, graph_buckets};

/// A bucket's graph, once it has been tried.
enum Recorded {
    Graph(DeviceGraph),
    /// Recording failed (logged once); this bucket's steps run eagerly.
    Failed,
}

pub struct DecodeGraphs {
    buckets: Vec<usize>,
    recorded: Vec<Option<Recorded>>,
    /// The pool the graphs were recorded against.
    kv_id: Option<u64>,
    acts: Activations,
    ids: CudaSlice<u32>,
    positions: CudaSlice<u32>,
    slots: Option<DeviceSlots>,
    meta: Option<DecodeMeta>,
    /// `0, 1, ..., largest bucket`: every row's logits.
    wanted: CudaSlice<u32>,
    parts: Option<SplitParts>,
    host_u32: Vec<u32>,
    host_slots: Vec<SlotId>,
    kv_lens: Vec<u32>,
    replays: u64,
}

impl DecodeGraphs {
    /// Buffers for decode batches of up to `max_batch` requests (graphs are recorded on
    /// first use of each bucket).
    pub fn new(model: &DeviceModel<'_>, max_batch: usize) -> Result<Self, ModelError> {
        let buckets = graph_buckets(max_batch);
        let largest = buckets.last().copied().unwrap_or(0);
        let gpu = model.gpu;
        let wanted: Vec<u32> = (0..largest as u32).collect();
        Ok(Self {
            recorded: buckets.iter().map(|_| None).collect(),
            buckets,
            kv_id: None,
            acts: Activations::new(gpu, model.config, (largest, largest), model.merges_qkv())?,
            ids: gpu.zeros(largest)?,
            positions: gpu.zeros(largest)?,
            slots: None,
            meta: None,
            wanted: gpu.upload(&wanted)?,
            parts: None,
            host_u32: Vec::with_capacity(largest),
            host_slots: Vec::with_capacity(largest),
            kv_lens: Vec::with_capacity(largest),
            replays: 0,
        })
    }

    /// Steps replayed from a graph so far.
    pub fn replays(&self) -> u64 {
        self.replays
    }

    /// The logits of the last replayed step.
    pub fn logits(&mut self) -> &mut CudaSlice<f32> {
        &mut self.acts.logits
    }

    /// The bucket of `batch` when it is a decode step a graph can run: one token for each
    /// request (`q_indptr` is `0, 1, ..., n`), every request's logits wanted in order, and
    /// no more requests than the largest bucket.
    pub fn bucket_of(&self, batch: &ForwardBatch) -> Option<usize> {
        let n = batch.num_requests();
        let decode = batch.num_tokens() == n
            && batch.hidden_rows.is_empty()
            && batch.score_rows.is_empty()
            && batch.logits_rows.len() == n
            && batch
                .logits_rows
                .iter()
                .enumerate()
                .all(|(i, &r)| r as usize == i);
        if !decode {
            return None;
        }
        let index = bucket_for(&self.buckets, n)?;
        match self.recorded[index] {
            Some(Recorded::Failed) => None,
            _ => Some(index),
        }
    }

    /// Runs decode `batch` (validated, its bucket from [`Self::bucket_of`]) through its
    /// bucket's graph, recording it first if needed; the logits of its rows are left in
    /// [`Self::logits`]. `futures` are resolved into the inputs as on the eager path.
    /// Returns `false`, having run nothing, when the graph could not be recorded.
    pub fn run(
        &mut self,
        model: &DeviceModel<'_>,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        resolve: impl FnOnce(&mut CudaSlice<u32>, usize) -> Result<(), ModelError>,
        index: usize,
    ) -> Result<bool, ModelError> {
        let gpu = model.gpu;
        let size = self.buckets[index];
        if self.kv_id != Some(kv.id) {
            self.forget(gpu, kv)?;
        }
        self.stage(gpu, batch, kv, size)?;
        resolve(&mut self.ids, batch.num_tokens())?;
        if self.recorded[index].is_none() {
            self.recorded[index] = Some(self.record(model, kv, size));
        }
        match &self.recorded[index] {
            Some(Recorded::Graph(graph)) => {
                graph.replay()?;
                self.replays += 1;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Drops the graphs of another pool and sizes the buffers that depend on this one.
    fn forget(&mut self, gpu: &GpuContext, kv: &GpuKv) -> Result<(), ModelError> {
        self.recorded.iter_mut().for_each(|r| *r = None);
        // The split count follows the pool's context length.
        self.parts = None;
        let largest = self.buckets.last().copied().unwrap_or(0);
        let max_kv_len = kv.req_to_token.max_context_len();
        self.slots = Some(DeviceSlots::with_capacity(
            gpu,
            largest,
            kv.storage.num_slots(),
        )?);
        self.meta = Some(DecodeMeta::new(gpu, largest, max_kv_len)?);
        self.kv_id = Some(kv.id);
        Ok(())
    }

    /// Writes the step's inputs, padded to `size` rows, into the fixed buffers.
    fn stage(
        &mut self,
        gpu: &GpuContext,
        batch: &ForwardBatch,
        kv: &mut GpuKv,
        size: usize,
    ) -> Result<(), ModelError> {
        let (Some(slots), Some(meta)) = (self.slots.as_mut(), self.meta.as_mut()) else {
            return Err(ModelError::Batch("decode graph buffers not sized".into()));
        };
        for (host, dev) in [
            (&batch.input_ids, &mut self.ids),
            (&batch.positions, &mut self.positions),
        ] {
            self.host_u32.clear();
            self.host_u32.extend_from_slice(host);
            self.host_u32.resize(size, 0);
            gpu.upload_into(&self.host_u32, dev)?;
        }
        slots.refill(gpu, &batch.out_cache_loc, size, &mut self.host_slots)?;
        kv.req_to_token.sync(gpu, batch)?;
        self.kv_lens.clear();
        self.kv_lens.extend(batch.kv_lens());
        let table = kv.req_to_token.device();
        meta.write(gpu, table, &batch.req_pool_indices, &self.kv_lens, size)?;
        Ok(())
    }

    /// Runs the staged step once eagerly (loading whatever the first launch of each kernel
    /// loads), then records it. An error of either is logged and leaves the bucket eager:
    /// the step then runs launch by launch, which repeats the warm-up's writes harmlessly.
    fn record(&mut self, model: &DeviceModel<'_>, kv: &mut GpuKv, size: usize) -> Recorded {
        let recorded = self.warm_up(model, kv, size).and_then(|()| {
            let graph = model.gpu.capture(|| self.pass(model, kv, size))?;
            Ok(graph)
        });
        match recorded {
            Ok(graph) => {
                tracing::info!("recorded the decode graph for batches of {size}");
                Recorded::Graph(graph)
            }
            Err(e) => {
                tracing::warn!("decode graph for {size} requests not recorded, runs eagerly: {e}");
                Recorded::Failed
            }
        }
    }

    /// The pass run once outside a capture, with the partial states its plan needs.
    fn warm_up(
        &mut self,
        model: &DeviceModel<'_>,
        kv: &mut GpuKv,
        size: usize,
    ) -> Result<(), ModelError> {
        if plan_for(model, kv, size).num_splits > 1 && self.parts.is_none() {
            // Room for every bucket's partial states, shared as the graphs run one at a time.
            let launches = self.buckets.iter().map(|&b| (b, plan_for(model, kv, b)));
            let shape = model.attention_shape();
            self.parts = Some(SplitParts::covering(model.gpu, &shape, launches)?);
        }
        self.pass(model, kv, size)?;
        Ok(model.gpu.synchronize()?)
    }

    /// The recorded work: the gather of the attention metadata and the forward pass.
    fn pass(
        &mut self,
        model: &DeviceModel<'_>,
        kv: &mut GpuKv,
        size: usize,
    ) -> Result<(), ModelError> {
        let (Some(slots), Some(meta)) = (self.slots.as_ref(), self.meta.as_mut()) else {
            return Err(ModelError::Batch("decode graph buffers not sized".into()));
        };
        meta.gather(model.gpu, kv.req_to_token.device(), size)?;
        let attention = meta.meta(size);
        let plan = plan_for(model, kv, size);
        let inputs = StepInputs {
            tokens: size,
            rows: size,
            ids: &self.ids,
            positions: &self.positions,
            slots,
            attention,
            plan,
            parts: self.parts.as_ref(),
            wanted: &self.wanted,
        };
        model.forward_pass(&inputs, &mut kv.storage, &mut self.acts)
    }
}

/// The split-K plan of a `size`-row graph, fixed when recorded: as many splits as the
/// eager plan would use for rows of the pool's longest context, each row cutting its own
/// keys into that many runs when the graph replays.
fn plan_for(model: &DeviceModel<'_>, kv: &GpuKv, size: usize) -> SplitPlan {
    let longest = u32::try_from(kv.req_to_token.max_context_len()).unwrap_or(u32::MAX);
    SplitPlan::per_row(split_plan(&model.attention_shape(), size, longest).num_splits)
}
