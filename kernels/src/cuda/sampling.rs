//! Launch wrapper of `sampling.cu`: samples logits rows where they are, so only the chosen
//! tokens, their log-probabilities and the asked-for top-n come back to the host. Meaning
//! and arithmetic are those of [`crate::sampling::twin`].

use super::context::GpuContext;
use super::error::{to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, row_launch};
use crate::sampling::{LogitEdit, RowPlan, SampledRow, SamplingBatch, MAX_TOP, THREADS};
use cudarc::driver::{CudaSlice, DeviceRepr, PushKernelArg, ValidAsZeroBits};

// SAFETY: both are #[repr(C)] structs of plain numbers, laid out as sampling.cu declares
// them; any bit pattern (zeros included) is a value.
unsafe impl DeviceRepr for RowPlan {}
unsafe impl ValidAsZeroBits for RowPlan {}
unsafe impl DeviceRepr for LogitEdit {}
unsafe impl ValidAsZeroBits for LogitEdit {}

/// The kernel's scratch and output buffers, sized for the largest batch so far and reused.
#[derive(Default)]
pub struct SamplingBuffers {
    rows: usize,
    vocab: usize,
    weights: Option<CudaSlice<f32>>,
    tokens: Option<CudaSlice<u32>>,
    logprobs: Option<CudaSlice<f32>>,
    top_ids: Option<CudaSlice<u32>>,
    top_logprobs: Option<CudaSlice<f32>>,
    host_tokens: Vec<u32>,
    host_logprobs: Vec<f32>,
    host_top_ids: Vec<u32>,
    host_top_logprobs: Vec<f32>,
}

fn missing() -> CudaError {
    CudaError::Shape("sampling buffers not allocated".into())
}

impl SamplingBuffers {
    fn reserve(&mut self, gpu: &GpuContext, rows: usize, vocab: usize) -> Result<(), CudaError> {
        if self.rows >= rows && self.vocab == vocab && self.weights.is_some() {
            return Ok(());
        }
        let rows = rows.next_power_of_two().max(16);
        self.weights = Some(gpu.zeros(rows * vocab)?);
        self.tokens = Some(gpu.zeros(rows)?);
        self.logprobs = Some(gpu.zeros(rows)?);
        self.top_ids = Some(gpu.zeros(rows * MAX_TOP)?);
        self.top_logprobs = Some(gpu.zeros(rows * MAX_TOP)?);
        (self.rows, self.vocab) = (rows, vocab);
        Ok(())
    }
}

impl GpuContext {
    /// Samples the first `rows` rows of `logits` (`[rows, vocab]`, edited in place) by
    /// `batch`'s plans, as [`crate::sampling::twin::sample_rows`] does on the host.
    pub fn sample_rows(
        &self,
        logits: &mut CudaSlice<f32>,
        rows: usize,
        vocab: usize,
        batch: &SamplingBatch,
        buffers: &mut SamplingBuffers,
    ) -> Result<Vec<SampledRow>, CudaError> {
        batch.validate(rows, vocab)?;
        need("sample_rows logits", logits.len(), rows * vocab)?;
        if rows == 0 {
            return Ok(Vec::new());
        }
        buffers.reserve(self, rows, vocab)?;
        let plans = self.upload(&batch.plans)?;
        let edits = self.upload(&batch.edits)?;
        let masks = self.upload(&batch.masks)?;
        let f = self.function(Module::Sampling, "sample_rows")?;
        let (rows_u, vocab_u) = (to_u32(rows, "rows")?, to_u32(vocab, "vocab")?);
        let b = &mut *buffers;
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
        // SAFETY: the arguments match sample_rows' signature; `validate` checked every edit
        // range, token id and mask row against `edits`, `masks` and the vocabulary; logits
        // and weights hold `rows * vocab` values and the outputs `rows` (top-n: `rows *
        // MAX_TOP`) slots, for a grid of `rows` blocks of THREADS threads.
        unsafe { launch.launch(row_launch(rows_u, THREADS as u32, 0)) }?;
        self.download_prefix(tokens, rows, &mut b.host_tokens)?;
        self.download_prefix(logprobs, rows, &mut b.host_logprobs)?;
        let wants_top = batch.plans.iter().any(|p| p.n_top > 0);
        if wants_top {
            self.download_prefix(top_ids, rows * MAX_TOP, &mut b.host_top_ids)?;
            self.download_prefix(top_logprobs, rows * MAX_TOP, &mut b.host_top_logprobs)?;
        }
        Ok((0..rows)
            .map(|r| {
                let n = (batch.plans[r].n_top as usize).min(vocab);
                let top = (r * MAX_TOP..r * MAX_TOP + n)
                    .filter_map(|j| Some((*b.host_top_ids.get(j)?, *b.host_top_logprobs.get(j)?)))
                    .collect();
                SampledRow {
                    token: b.host_tokens[r],
                    logprob: b.host_logprobs[r],
                    top,
                }
            })
            .collect())
    }
}
