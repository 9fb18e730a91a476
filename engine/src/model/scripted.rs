//! A scripted model for tests and scheduler benchmarks: no matrix work, but it reads and
//! writes the KV pool exactly like the real model does, so its output proves the scheduler
//! handed it the right slots.
//!
//! Each token's "K" is `(token id, position)`. The next token of a request is a hash of every
//! `(token, position)` its attention reads through `kv_indices`, so any wrong, missing or
//! foreign KV slot changes the output; [`ScriptedModel::reference_next`] computes the same
//! rule directly from a token sequence, independently of pools and batches. Its "V" is the
//! LoRA adapter the token was computed under (0: none, `n + 1`: adapter `n`), hashed in too:
//! K/V computed under one adapter and read under another changes the output, as it would
//! in a real model ([`ScriptedModel::reference_next_for`]).

use super::{ForwardBatch, ForwardModel, FutureToken, KvPoolSize, Launched, ModelError};
use crate::sampling::SampleOutput;
use kernels::sampling::{RowPlan, SampledRow, SamplingBatch};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv};

/// Outputs are `FIRST_TOKEN..FIRST_TOKEN + RANGE`, away from special ids.
const FIRST_TOKEN: u32 = 100;
const RANGE: u64 = 1000;

pub struct ScriptedModel {
    vocab_size: usize,
    context_length: usize,
    logits: Vec<f32>,
    /// The last batch's hidden states of its `hidden_rows`.
    hidden: Vec<f32>,
    /// The last batch's scores of its `score_rows`.
    scores: Vec<SampleOutput>,
    /// A batch holding this token id fails (to test how the engine handles model errors).
    failing_token: Option<u32>,
    /// The first launched batch holding this token id (once its future inputs are filled
    /// in) writes wrong K/V and fails when collected, as a GPU fault reported late would.
    failing_collect_token: Option<u32>,
    /// Per launch slot: its batch failed and its collect must say so.
    failed_slots: [bool; 2],
    /// Reports [`ForwardModel::samples_on_device`], so the scheduler samples through
    /// [`ForwardModel::forward_sampled`] (the kernel's CPU twin) as it does on a GPU.
    device_sampling: bool,
    /// Launches like the GPU runner: rows kept in one of two slots until collected, and
    /// the next launch's future inputs filled in from the last launch's tokens.
    asynchronous: bool,
    slots: [Option<Vec<SampledRow>>; 2],
    next_slot: usize,
    last_tokens: Vec<u32>,
    /// Plain greedy rows come back as tokens without a logits row (benchmarks of the
    /// scheduler alone).
    tokens_only: bool,
    /// Called with every batch before it runs (tests that act between steps).
    on_forward: Option<ForwardHook>,
    /// LoRA adapter numbers given out; a batch's requests may name those not `removed`.
    adapters: usize,
    removed: Vec<u32>,
}

/// See [`ScriptedModel::with_forward_hook`].
pub type ForwardHook = Box<dyn FnMut(&ForwardBatch) + Send>;

impl ScriptedModel {
    pub fn new(vocab_size: usize, context_length: usize) -> Self {
        Self {
            vocab_size,
            context_length,
            logits: Vec::new(),
            hidden: Vec::new(),
            scores: Vec::new(),
            failing_token: None,
            failing_collect_token: None,
            failed_slots: [false; 2],
            device_sampling: false,
            asynchronous: false,
            slots: [None, None],
            next_slot: 0,
            last_tokens: Vec::new(),
            tokens_only: false,
            on_forward: None,
            adapters: 0,
            removed: Vec::new(),
        }
    }

    /// The same model holding `n` LoRA adapters (each changes every token's K/V).
    pub fn with_adapters(mut self, n: usize) -> Self {
        self.adapters = n;
        self
    }

    /// The same model, calling `hook` with every batch before running it, on the
    /// scheduler's thread: a test can count tokens or hold the scheduler at a chosen step.
    pub fn with_forward_hook(mut self, hook: ForwardHook) -> Self {
        self.on_forward = Some(hook);
        self
    }

    /// The same model sampling on the device, where a plain greedy row (no edits, mask or
    /// log-probabilities) is its token without a vocabulary-wide logits row: the token the
    /// sampler would pick from that row, at none of its cost. For measuring the scheduler
    /// alone, as it runs beside a GPU.
    pub fn tokens_only(mut self) -> Self {
        self.device_sampling = true;
        self.tokens_only = true;
        self
    }

    /// The same model, launching batches as the GPU runner does
    /// ([`ForwardModel::launch_sampled`] returns [`Launched::Pending`]).
    pub fn launching_asynchronously(mut self) -> Self {
        self.asynchronous = true;
        self
    }

    /// The same model, sampling through [`ForwardModel::forward_sampled`] like the GPU
    /// runner.
    pub fn sampling_on_device(mut self) -> Self {
        self.device_sampling = true;
        self
    }

    /// With [`ScriptedModel::launching_asynchronously`]: the first launched batch holding
    /// `token` writes wrong K/V and fails at its collect.
    pub fn failing_collect_on(mut self, token: u32) -> Self {
        self.failing_collect_token = Some(token);
        self
    }

    /// The same model, failing every forward pass whose batch holds `token`.
    pub fn failing_on(mut self, token: u32) -> Self {
        self.failing_token = Some(token);
        self
    }

    /// What `GetModelInfo` reports for this model (tokenizer's vocabulary and stop ids).
    pub fn model_info(&self, eos_token_ids: &[u32]) -> crate::io::ModelInfo {
        crate::io::ModelInfo {
            name: "scripted".into(),
            path: String::new(),
            architecture: "scripted".into(),
            vocab_size: self.vocab_size,
            context_length: self.context_length,
            num_layers: 1,
            hidden_size: 2,
            num_heads: 1,
            num_kv_heads: 1,
            eos_token_ids: eos_token_ids.to_vec(),
            pooling: None,
            adapters: (0..self.adapters)
                .map(|i| crate::io::AdapterInfo {
                    name: format!("adapter-{i}"),
                    path: String::new(),
                    rank: 1,
                    sha256: format!("{i:064x}"),
                })
                .collect(),
        }
    }

    /// Writes the batch's K/V and returns each logits row's next token (`None`: past the
    /// vocabulary, a row of zeros).
    fn next_tokens(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut KvStorage,
    ) -> Result<Vec<Option<u32>>, ModelError> {
        if let Some(hook) = self.on_forward.as_mut() {
            hook(batch);
        }
        let t = batch.num_tokens();
        if batch.positions.len() != t || batch.out_cache_loc.len() != t {
            return Err(ModelError::Batch("positions / out_cache_loc length".into()));
        }
        if let Some(bad) = self.failing_token {
            if batch.input_ids.contains(&bad) {
                return Err(ModelError::Batch(format!(
                    "scripted failure on token {bad}"
                )));
            }
        }
        let loaded = |a: u32| (a as usize) < self.adapters && !self.removed.contains(&a);
        if let Some(a) = (batch.adapters.iter().flatten()).find(|&&a| !loaded(a)) {
            return Err(ModelError::Batch(format!("LoRA adapter {a} is not loaded")));
        }
        let keys: Vec<f32> = batch
            .input_ids
            .iter()
            .zip(&batch.positions)
            .flat_map(|(&id, &pos)| [id as f32, pos as f32])
            .collect();
        // Each token's adapter tag, twice (the value is as wide as the key).
        let mut values = Vec::with_capacity(keys.len());
        for b in 0..batch.num_requests() {
            let tag = adapter_tag(batch.adapters.get(b).copied().flatten());
            let rows = batch.q_indptr[b + 1] - batch.q_indptr[b];
            values.extend((0..rows).flat_map(|_| [tag as f32; 2]));
        }
        kv.set_kv(0, &batch.out_cache_loc, &keys, &values)?;
        let Some((LayerKv::F32(k_cache), LayerKv::F32(v_cache))) = kv.layer(0) else {
            return Err(ModelError::Batch("scripted model needs an f32 pool".into()));
        };
        // The hash of every (token, position) row `row` reads.
        let row_hash = |row: u32| {
            let row = row as usize;
            // The request this token belongs to, and its visible keys (causal, end-aligned).
            let b = batch.q_indptr.partition_point(|&s| s as usize <= row) - 1;
            let q1 = batch.q_indptr[b + 1] as usize;
            let (k0, k1) = (batch.kv_indptr[b] as usize, batch.kv_indptr[b + 1] as usize);
            let visible = (k1 - k0) - (q1 - 1 - row);
            batch.kv_indices[k0..k0 + visible]
                .iter()
                .fold(SEED, |h, &slot| {
                    let at = slot as usize * 2;
                    let token = k_cache[at] as u64 + ((v_cache[at] as u64) << 32);
                    mix(h, token, k_cache[at + 1] as u64)
                })
        };
        self.hidden = batch
            .hidden_rows
            .iter()
            .flat_map(|&row| hidden_of(row_hash(row)))
            .collect();
        let vocab = self.vocab_size;
        let next_of = |row: u32| {
            let next = FIRST_TOKEN as u64 + row_hash(row) % RANGE;
            (next < vocab as u64).then_some(next as u32)
        };
        self.scores = batch
            .score_rows
            .iter()
            .map(|r| r.score(&mut one_hot_logits(next_of(r.row), vocab)))
            .collect();
        Ok(batch.logits_rows.iter().map(|&row| next_of(row)).collect())
    }

    /// The hidden state this model gives the last token of `history` (an embedding).
    pub fn reference_hidden(history: &[u32]) -> [f32; 2] {
        Self::reference_hidden_for(history, None)
    }

    /// [`Self::reference_hidden`] under LoRA adapter `adapter`.
    pub fn reference_hidden_for(history: &[u32], adapter: Option<u32>) -> [f32; 2] {
        hidden_of(history_hash_for(history, adapter))
    }

    /// The score this model gives `target` after `history` with `top` alternatives (a
    /// prompt log-probability), written out: its logits row is 10 at the next token and 0
    /// elsewhere.
    pub fn reference_score(history: &[u32], target: u32, top: usize, vocab: usize) -> SampleOutput {
        Self::reference_score_for(history, None, target, top, vocab)
    }

    /// [`Self::reference_score`] under LoRA adapter `adapter`.
    pub fn reference_score_for(
        history: &[u32],
        adapter: Option<u32>,
        target: u32,
        top: usize,
        vocab: usize,
    ) -> SampleOutput {
        let next = Self::reference_next_for(history, adapter);
        let ln_z = (10f64.exp() + (vocab - 1) as f64).ln();
        let logprob_of = |t: u32| (if t == next { 10.0 - ln_z } else { -ln_z }) as f32;
        // Ties among the zeros go to the lower ids.
        let others = (0..vocab as u32).filter(|&t| t != next);
        SampleOutput {
            token: target,
            logprob: logprob_of(target),
            top: std::iter::once(next)
                .chain(others)
                .take(top)
                .map(|t| (t, logprob_of(t)))
                .collect(),
            given: Vec::new(),
        }
    }

    /// The token this model produces after `history` (prompt and output so far).
    pub fn reference_next(history: &[u32]) -> u32 {
        Self::reference_next_for(history, None)
    }

    /// [`Self::reference_next`] under LoRA adapter `adapter`.
    pub fn reference_next_for(history: &[u32], adapter: Option<u32>) -> u32 {
        FIRST_TOKEN + (history_hash_for(history, adapter) % RANGE) as u32
    }
}

/// What a token's V holds: 0 without an adapter, `n + 1` under adapter `n`.
fn adapter_tag(adapter: Option<u32>) -> u64 {
    adapter.map_or(0, |a| a as u64 + 1)
}

/// A logits row of 10 at `next` (if within the vocabulary) and 0 elsewhere.
fn one_hot_logits(next: Option<u32>, vocab: usize) -> Vec<f32> {
    let mut logits = vec![0.0; vocab];
    if let Some(next) = next {
        logits[next as usize] = 10.0;
    }
    logits
}

fn history_hash_for(history: &[u32], adapter: Option<u32>) -> u64 {
    let tag = adapter_tag(adapter) << 32;
    history
        .iter()
        .enumerate()
        .fold(SEED, |h, (pos, &tok)| mix(h, tok as u64 + tag, pos as u64))
}

/// A two-wide hidden state from a row's hash (exact small integers).
fn hidden_of(h: u64) -> [f32; 2] {
    [(h % 4096) as f32, ((h >> 32) % 4096) as f32]
}

const SEED: u64 = 0x51_7cc1_b727_220a;

fn mix(h: u64, token: u64, pos: u64) -> u64 {
    let x = (h ^ token.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ pos.rotate_left(32))
        .wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

impl ForwardModel for ScriptedModel {
    type Kv = KvStorage;

    fn vocab_size(&self) -> usize {
        self.vocab_size
    }

    fn context_length(&self) -> usize {
        self.context_length
    }

    fn kv_layout(&self, _dtype: KvDtype) -> KvLayout {
        // Exact small integers need f32.
        KvLayout {
            num_layers: 1,
            num_kv_heads: 1,
            head_dim: 2,
            dtype: KvDtype::F32,
            values_in_keys: false,
            other_rows: None,
        }
    }

    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<KvStorage, ModelError> {
        Ok(KvStorage::new(layout, size.num_slots)?)
    }

    fn samples_on_device(&self) -> bool {
        self.device_sampling
    }

    fn adapters(&self) -> usize {
        self.adapters
    }

    /// Takes any adapter as the next number (its weights mean nothing to this model: each
    /// number tags K/V differently).
    fn add_adapter(&mut self, _adapter: super::lora::LoraAdapter) -> Result<u32, ModelError> {
        self.adapters += 1;
        Ok(self.adapters as u32 - 1)
    }

    fn remove_adapter(&mut self, id: u32) -> Result<(), ModelError> {
        if id as usize >= self.adapters || self.removed.contains(&id) {
            return Err(ModelError::Adapter(format!(
                "no LoRA adapter {id} is loaded"
            )));
        }
        self.removed.push(id);
        Ok(())
    }

    fn computes_hidden_states(&self) -> bool {
        true
    }

    fn hidden_states(&self) -> Result<&[f32], ModelError> {
        Ok(&self.hidden)
    }

    fn computes_scores(&self) -> bool {
        true
    }

    fn scores(&self) -> Result<&[SampleOutput], ModelError> {
        Ok(&self.scores)
    }

    fn launch_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut KvStorage,
        sampling: &SamplingBatch,
        futures: &[FutureToken],
    ) -> Result<Launched, ModelError> {
        if !self.asynchronous {
            if !futures.is_empty() {
                return Err(ModelError::Batch("unresolved future tokens".into()));
            }
            return Ok(Launched::Ready(self.forward_sampled(batch, kv, sampling)?));
        }
        let mut resolved = batch.clone();
        for f in futures {
            let token = self.last_tokens.get(f.row as usize).copied();
            let slot = resolved.input_ids.get_mut(f.at as usize);
            match (token, slot) {
                (Some(token), Some(slot)) => *slot = token,
                _ => return Err(ModelError::Batch(format!("bad future token {f:?}"))),
            }
        }
        let slot = self.next_slot;
        if self.slots[slot].is_some() {
            // As the GPU runner: a slot is reused only once collected.
            return Err(ModelError::Batch(format!(
                "slot {slot} was never collected"
            )));
        }
        let failing = self
            .failing_collect_token
            .is_some_and(|bad| resolved.input_ids.contains(&bad));
        if failing {
            self.failing_collect_token = None;
            // Garbage where the batch's K/V should be, found out only at the collect.
            resolved.input_ids.iter_mut().for_each(|t| *t ^= 0x5a5a);
        }
        let rows = self.forward_sampled(&resolved, kv, sampling)?;
        self.last_tokens = rows.iter().map(|r| r.token).collect();
        self.next_slot ^= 1;
        self.slots[slot] = Some(rows);
        self.failed_slots[slot] = failing;
        Ok(Launched::Pending(slot))
    }

    fn collect_sampled(&mut self, launched: Launched) -> Result<Vec<SampledRow>, ModelError> {
        match launched {
            Launched::Ready(rows) => Ok(rows),
            Launched::Pending(slot) => {
                let rows = self
                    .slots
                    .get_mut(slot)
                    .and_then(Option::take)
                    .ok_or_else(|| ModelError::Batch(format!("nothing launched in slot {slot}")))?;
                if std::mem::take(&mut self.failed_slots[slot % 2]) {
                    return Err(ModelError::Batch(format!(
                        "scripted fault reported at the collect of slot {slot}"
                    )));
                }
                Ok(rows)
            }
        }
    }

    fn forward_sampled(
        &mut self,
        batch: &ForwardBatch,
        kv: &mut KvStorage,
        sampling: &SamplingBatch,
    ) -> Result<Vec<SampledRow>, ModelError> {
        let plain = |p: &RowPlan| {
            p.greedy != 0
                && p.n_top == 0
                && p.want_logprob == 0
                && p.edit_lo == p.edit_hi
                && p.mask_row < 0
        };
        if !(self.tokens_only && sampling.plans.iter().all(plain)) {
            let vocab = self.vocab_size;
            let mut rows = self.forward(batch, kv)?.to_vec();
            return Ok(kernels::sampling::twin::sample_rows(
                &mut rows, vocab, sampling,
            )?);
        }
        if sampling.plans.len() != batch.logits_rows.len() {
            return Err(ModelError::Batch("one sampling plan per logits row".into()));
        }
        let rows = self
            .next_tokens(batch, kv)?
            .into_iter()
            .map(|next| SampledRow {
                // A row without its 10.0 is all zeros: the first token is the largest.
                token: next.unwrap_or(0),
                logprob: f32::NAN,
                top: Vec::new(),
            });
        Ok(rows.collect())
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<&[f32], ModelError> {
        let next = self.next_tokens(batch, kv)?;
        self.logits.clear();
        self.logits.resize(next.len() * self.vocab_size, 0.0);
        for (out_row, next) in next.into_iter().enumerate() {
            if let Some(next) = next {
                self.logits[out_row * self.vocab_size + next as usize] = 10.0;
            }
        }
        Ok(&self.logits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels::sampling::SamplingBatch;

    /// Plain greedy rows come back from `tokens_only` as the tokens the sampler's twin picks
    /// from the full logits rows, past-the-vocabulary rows included; rows that want more
    /// (log-probabilities) go through the twin.
    #[test]
    fn tokens_only_gives_the_tokens_the_sampler_picks() {
        for vocab in [49_152, 600] {
            let size = KvPoolSize {
                num_slots: 64,
                req_rows: 4,
                max_context_len: 64,
            };
            let mut batch = ForwardBatch::default();
            let mut next_slot = 0;
            for (row, ids) in [&[5u32, 9, 13][..], &[7, 7], &[2, 4, 6, 8, 10]]
                .into_iter()
                .enumerate()
            {
                let slots: Vec<i32> = (next_slot..next_slot + ids.len() as i32).collect();
                next_slot += ids.len() as i32;
                batch.push_request(row as u32, ids, 0, &slots, &slots, true);
            }
            let run = |model: ScriptedModel, sampling: &SamplingBatch| {
                let mut model = model;
                let mut kv = model.new_kv(model.kv_layout(KvDtype::F32), size).unwrap();
                model.forward_sampled(&batch, &mut kv, sampling).unwrap()
            };
            let mut sampling = SamplingBatch {
                plans: vec![RowPlan::default(); 3],
                ..SamplingBatch::default()
            };
            let model = || ScriptedModel::new(vocab, 64);
            let fast = run(model().tokens_only(), &sampling);
            let twin = run(model().sampling_on_device(), &sampling);
            // Log-probabilities as bits: a greedy row's unasked one is NaN.
            let bits = |rows: &[SampledRow]| {
                let row = |r: &SampledRow| (r.token, r.logprob.to_bits(), r.top.clone());
                rows.iter().map(row).collect::<Vec<_>>()
            };
            assert_eq!(bits(&fast), bits(&twin), "vocab {vocab}");
            sampling.plans[1].want_logprob = 1;
            let fast = run(model().tokens_only(), &sampling);
            let twin = run(model().sampling_on_device(), &sampling);
            assert_eq!(
                bits(&fast),
                bits(&twin),
                "vocab {vocab}, a log-probability asked"
            );
        }
    }
}
