//! A scripted model for tests and scheduler benchmarks: no matrix work, but it reads and
//! writes the KV pool exactly like the real model does, so its output proves the scheduler
//! handed it the right slots.
//!
//! Each token's "K" is `(token id, position)`. The next token of a request is a hash of every
//! `(token, position)` its attention reads through `kv_indices`, so any wrong, missing or
//! foreign KV slot changes the output; [`ScriptedModel::reference_next`] computes the same
//! rule directly from a token sequence, independently of pools and batches.

use super::{ForwardBatch, ForwardModel, FutureToken, KvPoolSize, Launched, ModelError};
use kernels::sampling::{SampledRow, SamplingBatch};
use pools::{KvDtype, KvLayout, KvStorage, LayerKv};

/// Outputs are `FIRST_TOKEN..FIRST_TOKEN + RANGE`, away from special ids.
const FIRST_TOKEN: u32 = 100;
const RANGE: u64 = 1000;

pub struct ScriptedModel {
    vocab_size: usize,
    context_length: usize,
    logits: Vec<f32>,
    /// A batch holding this token id fails (to test how the engine handles model errors).
    failing_token: Option<u32>,
    /// Reports [`ForwardModel::samples_on_device`], so the scheduler samples through
    /// [`ForwardModel::forward_sampled`] (the kernel's CPU twin) as it does on a GPU.
    device_sampling: bool,
    /// Launches like the GPU runner: rows kept in one of two slots until collected, and
    /// the next launch's future inputs filled in from the last launch's tokens.
    asynchronous: bool,
    slots: [Option<Vec<SampledRow>>; 2],
    next_slot: usize,
    last_tokens: Vec<u32>,
}

impl ScriptedModel {
    pub fn new(vocab_size: usize, context_length: usize) -> Self {
        Self {
            vocab_size,
            context_length,
            logits: Vec::new(),
            failing_token: None,
            device_sampling: false,
            asynchronous: false,
            slots: [None, None],
            next_slot: 0,
            last_tokens: Vec::new(),
        }
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
        }
    }

    /// The token this model produces after `history` (prompt and output so far).
    pub fn reference_next(history: &[u32]) -> u32 {
        let h = history
            .iter()
            .enumerate()
            .fold(SEED, |h, (pos, &tok)| mix(h, tok as u64, pos as u64));
        FIRST_TOKEN + (h % RANGE) as u32
    }
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
        }
    }

    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<KvStorage, ModelError> {
        Ok(KvStorage::new(layout, size.num_slots)?)
    }

    fn samples_on_device(&self) -> bool {
        self.device_sampling
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
        let rows = self.forward_sampled(&resolved, kv, sampling)?;
        self.last_tokens = rows.iter().map(|r| r.token).collect();
        self.next_slot ^= 1;
        self.slots[slot] = Some(rows);
        Ok(Launched::Pending(slot))
    }

    fn collect_sampled(&mut self, launched: Launched) -> Result<Vec<SampledRow>, ModelError> {
        match launched {
            Launched::Ready(rows) => Ok(rows),
            Launched::Pending(slot) => self
                .slots
                .get_mut(slot)
                .and_then(Option::take)
                .ok_or_else(|| ModelError::Batch(format!("nothing launched in slot {slot}"))),
        }
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<&[f32], ModelError> {
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
        let keys: Vec<f32> = batch
            .input_ids
            .iter()
            .zip(&batch.positions)
            .flat_map(|(&id, &pos)| [id as f32, pos as f32])
            .collect();
        kv.set_kv(0, &batch.out_cache_loc, &keys, &vec![0.0; keys.len()])?;
        let Some((LayerKv::F32(k_cache), _)) = kv.layer(0) else {
            return Err(ModelError::Batch("scripted model needs an f32 pool".into()));
        };
        self.logits.clear();
        self.logits
            .resize(batch.logits_rows.len() * self.vocab_size, 0.0);
        for (out_row, &row) in batch.logits_rows.iter().enumerate() {
            let row = row as usize;
            // The request this token belongs to, and its visible keys (causal, end-aligned).
            let b = batch.q_indptr.partition_point(|&s| s as usize <= row) - 1;
            let q1 = batch.q_indptr[b + 1] as usize;
            let (k0, k1) = (batch.kv_indptr[b] as usize, batch.kv_indptr[b + 1] as usize);
            let visible = (k1 - k0) - (q1 - 1 - row);
            let h = batch.kv_indices[k0..k0 + visible]
                .iter()
                .fold(SEED, |h, &slot| {
                    let at = slot as usize * 2;
                    mix(h, k_cache[at] as u64, k_cache[at + 1] as u64)
                });
            let next = FIRST_TOKEN as usize + (h % RANGE) as usize;
            if next < self.vocab_size {
                self.logits[out_row * self.vocab_size + next] = 10.0;
            }
        }
        Ok(&self.logits)
    }
}
