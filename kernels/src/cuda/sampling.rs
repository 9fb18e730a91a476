//! Launch wrappers of `sampling.cu`: samples logits rows where they are, so only the chosen
//! tokens, their log-probabilities and the asked-for top-n come back to the host, through
//! pinned memory. Meaning and arithmetic are those of [`crate::sampling::twin`].
//!
//! A launch does not wait: its results are copied into one of two pinned host slots, and
//! [`GpuContext::collect_sample_rows`] waits for that copy alone. Two slots let the next
//! batch be launched before the previous one is collected (overlap scheduling), and
//! [`GpuContext::resolve_futures`] feeds that next batch the tokens the last launch chose,
//! on the device.

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, row_launch, stride_launch};
use crate::sampling::{LogitEdit, RowPlan, SampledRow, SamplingBatch, MAX_TOP, THREADS};
use cudarc::driver::{
    CudaEvent, CudaSlice, DeviceRepr, PinnedHostSlice, PushKernelArg, ValidAsZeroBits,
};

// SAFETY: both are #[repr(C)] structs of plain numbers, laid out as sampling.cu declares
// them; any bit pattern (zeros included) is a value.
unsafe impl DeviceRepr for RowPlan {}
unsafe impl ValidAsZeroBits for RowPlan {}
unsafe impl DeviceRepr for LogitEdit {}
unsafe impl ValidAsZeroBits for LogitEdit {}

/// The kernel's device buffers, sized for the largest batch so far, and the two pinned
/// host slots its results are copied to.
#[derive(Default)]
pub struct SamplingBuffers {
    rows: usize,
    vocab: usize,
    weights: Option<CudaSlice<f32>>,
    tokens: Option<CudaSlice<u32>>,
    logprobs: Option<CudaSlice<f32>>,
    top_ids: Option<CudaSlice<u32>>,
    top_logprobs: Option<CudaSlice<f32>>,
    slots: [Option<HostSlot>; 2],
    /// Rows of the last launch: what `resolve_futures` may name.
    last_rows: usize,
}

/// One launch's results in pinned host memory.
struct HostSlot {
    /// Rows it holds.
    capacity: usize,
    tokens: PinnedHostSlice<u32>,
    logprobs: PinnedHostSlice<f32>,
    top_ids: PinnedHostSlice<u32>,
    top_logprobs: PinnedHostSlice<f32>,
    /// Recorded after the launch's copies into this slot; collecting waits for it alone.
    copied: CudaEvent,
    /// The launch copied here: its row count and each row's top-n; None once collected.
    pending: Option<Vec<usize>>,
}

fn missing() -> CudaError {
    CudaError::Shape("sampling buffers not allocated".into())
}

/// Page-locked host memory for `len` values (readable by the host at full speed).
fn pinned<T: DeviceRepr>(gpu: &GpuContext, len: usize) -> Result<PinnedHostSlice<T>, CudaError> {
    // SAFETY: the memory starts unset; it is only read after a copy filled it (a slot is
    // read only while `pending`, which a launch sets after enqueueing its copies).
    Ok(unsafe { gpu.context().alloc_pinned_with_flags::<T>(len.max(1), 0) }?)
}

impl SamplingBuffers {
    /// Device buffers for `rows` rows (grown by powers of two: a launch still running keeps
    /// the old ones until it is done, as frees are stream-ordered), and pinned memory for
    /// them in host slot `slot`, which holds no uncollected launch.
    fn reserve(
        &mut self,
        gpu: &GpuContext,
        rows: usize,
        vocab: usize,
        slot: usize,
    ) -> Result<(), CudaError> {
        if self.rows < rows || self.vocab != vocab || self.weights.is_none() {
            let size = rows.next_power_of_two().max(16);
            self.weights = Some(gpu.zeros(size * vocab)?);
            self.tokens = Some(gpu.zeros(size)?);
            self.logprobs = Some(gpu.zeros(size)?);
            self.top_ids = Some(gpu.zeros(size * MAX_TOP)?);
            self.top_logprobs = Some(gpu.zeros(size * MAX_TOP)?);
            (self.rows, self.vocab) = (size, vocab);
        }
        let host = self
            .slots
            .get_mut(slot)
            .ok_or_else(|| CudaError::Shape(format!("host slot {slot} of 2")))?;
        if host.as_ref().is_some_and(|h| h.pending.is_some()) {
            return bad_shape(format!("host slot {slot} holds a launch not yet collected"));
        }
        if host.as_ref().is_none_or(|h| h.capacity < self.rows) {
            let size = self.rows;
            *host = Some(HostSlot {
                capacity: size,
                tokens: pinned(gpu, size)?,
                logprobs: pinned(gpu, size)?,
                top_ids: pinned(gpu, size * MAX_TOP)?,
                top_logprobs: pinned(gpu, size * MAX_TOP)?,
                copied: gpu.context().new_event(None)?,
                pending: None,
            });
        }
        Ok(())
    }
}

impl GpuContext {
    /// Samples the first `rows` rows of `logits` (`[rows, vocab]`, edited in place) by
    /// `batch`'s plans and waits for the result: [`Self::launch_sample_rows`] then
    /// [`Self::collect_sample_rows`] in slot 0.
    pub fn sample_rows(
        &self,
        logits: &mut CudaSlice<f32>,
        rows: usize,
        vocab: usize,
        batch: &SamplingBatch,
        buffers: &mut SamplingBuffers,
    ) -> Result<Vec<SampledRow>, CudaError> {
        self.launch_sample_rows(logits, rows, vocab, batch, buffers, 0)?;
        self.collect_sample_rows(buffers, 0)
    }

    /// Enqueues the sampling of the first `rows` rows of `logits` and the copies of its
    /// results into host slot `slot` (0 or 1, not holding an uncollected launch); returns
    /// without waiting.
    pub fn launch_sample_rows(
        &self,
        logits: &mut CudaSlice<f32>,
        rows: usize,
        vocab: usize,
        batch: &SamplingBatch,
        buffers: &mut SamplingBuffers,
        slot: usize,
    ) -> Result<(), CudaError> {
        batch.validate(rows, vocab)?;
        need("sample_rows logits", logits.len(), rows * vocab)?;
        buffers.reserve(self, rows, vocab, slot)?;
        let b = &mut *buffers;
        let host = b
            .slots
            .get_mut(slot)
            .and_then(Option::as_mut)
            .ok_or_else(missing)?;
        if rows > 0 {
            let plans = self.upload(&batch.plans)?;
            let edits = self.upload(&batch.edits)?;
            let masks = self.upload(&batch.masks)?;
            let f = self.function(Module::Sampling, "sample_rows")?;
            let (rows_u, vocab_u) = (to_u32(rows, "rows")?, to_u32(vocab, "vocab")?);
            let weights = b.weights.as_mut().ok_or_else(missing)?;
            let tokens = b.tokens.as_mut().ok_or_else(missing)?;
            let logprobs = b.logprobs.as_mut().ok_or_else(missing)?;
            let top_ids = b.top_ids.as_mut().ok_or_else(missing)?;
            let top_logprobs = b.top_logprobs.as_mut().ok_or_else(missing)?;
            let mut launch = self.stream().launch_builder(&f);
            launch
                .arg(&mut *logits)
                .arg(&mut *weights)
                .arg(&vocab_u)
                .arg(&plans)
                .arg(&edits)
                .arg(&masks)
                .arg(&mut *tokens)
                .arg(&mut *logprobs)
                .arg(&mut *top_ids)
                .arg(&mut *top_logprobs);
            // SAFETY: the arguments match sample_rows' signature; `validate` checked every
            // edit range, token id and mask row against `edits`, `masks` and the
            // vocabulary; logits and weights hold `rows * vocab` values and the outputs
            // `rows` (top-n: `rows * MAX_TOP`) slots, for a grid of `rows` blocks of THREADS
            // threads.
            unsafe { launch.launch(row_launch(rows_u, THREADS as u32, 0)) }?;
            // Stream order puts each copy after the kernel; the slot's own event marks them.
            // Each copies exactly the launch's rows into the front of the slot (a copy into
            // the whole pinned slice would read its length from the device buffer, which
            // may be shorter).
            let stream = self.stream();
            stream.memcpy_dtoh(
                &tokens.slice(..rows),
                &mut host.tokens.as_mut_slice()?[..rows],
            )?;
            stream.memcpy_dtoh(
                &logprobs.slice(..rows),
                &mut host.logprobs.as_mut_slice()?[..rows],
            )?;
            if batch.plans.iter().any(|p| p.n_top > 0) {
                let n = rows * MAX_TOP;
                stream.memcpy_dtoh(&top_ids.slice(..n), &mut host.top_ids.as_mut_slice()?[..n])?;
                stream.memcpy_dtoh(
                    &top_logprobs.slice(..n),
                    &mut host.top_logprobs.as_mut_slice()?[..n],
                )?;
            }
            host.copied.record(stream)?;
        }
        let n_top = batch.plans.iter().map(|p| (p.n_top as usize).min(vocab));
        host.pending = Some(n_top.collect());
        b.last_rows = rows;
        Ok(())
    }

    /// Waits for the launch in host slot `slot` and returns its rows.
    pub fn collect_sample_rows(
        &self,
        buffers: &mut SamplingBuffers,
        slot: usize,
    ) -> Result<Vec<SampledRow>, CudaError> {
        let host = buffers
            .slots
            .get_mut(slot)
            .and_then(Option::as_mut)
            .ok_or_else(|| CudaError::Shape(format!("no sampling launched in slot {slot}")))?;
        if host.pending.is_none() {
            return bad_shape(format!("no sampling launched in slot {slot}"));
        }
        // The slot counts as collected only once its copies are done: a failed wait leaves
        // it pending, so `reserve` never frees pinned memory a copy may still write.
        host.copied.synchronize()?;
        let n_top = host.pending.take().unwrap_or_default();
        if n_top.is_empty() {
            return Ok(Vec::new());
        }
        let tokens = host.tokens.as_slice()?;
        let logprobs = host.logprobs.as_slice()?;
        let wants_top = n_top.iter().any(|&n| n > 0);
        let (top_ids, top_logprobs): (&[u32], &[f32]) = if wants_top {
            (host.top_ids.as_slice()?, host.top_logprobs.as_slice()?)
        } else {
            (&[], &[])
        };
        Ok(n_top
            .iter()
            .enumerate()
            .map(|(r, &n)| {
                let top = (r * MAX_TOP..r * MAX_TOP + n)
                    .filter_map(|j| Some((*top_ids.get(j)?, *top_logprobs.get(j)?)))
                    .collect();
                SampledRow {
                    token: tokens.get(r).copied().unwrap_or(0),
                    logprob: logprobs.get(r).copied().unwrap_or(f32::NAN),
                    top,
                }
            })
            .collect())
    }

    /// `ids[at[i]] = ` the token the last [`Self::launch_sample_rows`] chose in its row
    /// `rows[i]`, on the device and in stream order (after that launch, before the next):
    /// the future inputs of overlap scheduling. `ids` holds `tokens` values.
    pub fn resolve_futures(
        &self,
        ids: &mut CudaSlice<u32>,
        tokens: usize,
        at: &[u32],
        rows: &[u32],
        buffers: &SamplingBuffers,
    ) -> Result<(), CudaError> {
        if at.len() != rows.len() {
            return bad_shape(format!(
                "{} future positions, {} rows",
                at.len(),
                rows.len()
            ));
        }
        if at.is_empty() {
            return Ok(());
        }
        need("resolve_futures ids", ids.len(), tokens)?;
        if let Some(&a) = at.iter().find(|&&a| a as usize >= tokens) {
            return bad_shape(format!("future at token {a} of {tokens}"));
        }
        if let Some(&r) = rows.iter().find(|&&r| r as usize >= buffers.last_rows) {
            return bad_shape(format!(
                "future from row {r} of a launch of {} rows",
                buffers.last_rows
            ));
        }
        let sampled = buffers.tokens.as_ref().ok_or_else(missing)?;
        let (at_dev, rows_dev) = (self.upload(at)?, self.upload(rows)?);
        let n = to_u32(at.len(), "futures")?;
        let f = self.function(Module::Sampling, "resolve_futures")?;
        let mut launch = self.stream().launch_builder(&f);
        launch
            .arg(&mut *ids)
            .arg(&at_dev)
            .arg(&rows_dev)
            .arg(sampled)
            .arg(&n);
        // SAFETY: the arguments match resolve_futures' signature; every position is below
        // `tokens` (held by `ids`) and every row below the last launch's rows (held by the
        // device token buffer).
        unsafe { launch.launch(stride_launch(at.len())) }?;
        Ok(())
    }
}
