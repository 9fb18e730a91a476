//! A batch of sampling rows mixing every mode, shared by the sampling kernel's GPU and
//! emulated tests (included with `#[path]`, after `xorshift.rs` as `xorshift`).
#![allow(dead_code)]

use super::xorshift::Rng;
use kernels::sampling::{mask_words, LogitEdit, RowPlan, SamplingBatch};

/// A batch of `rows` rows mixing every mode, with edits and masks on some rows.
pub fn mixed_batch(rng: &mut Rng, rows: usize, vocab: usize) -> (Vec<f32>, SamplingBatch) {
    let mut logits = rng.f32s(rows * vocab);
    for v in &mut logits {
        *v *= 6.0;
    }
    let mut batch = SamplingBatch::default();
    let words = mask_words(vocab);
    for r in 0..rows {
        let edit_lo = batch.edits.len() as u32;
        if r % 3 == 1 {
            for id in rng.distinct(40.min(vocab), vocab) {
                batch.edits.push(LogitEdit {
                    id: id as u32,
                    flags: 1 + rng.below(15) as u32,
                    rep: 1.3,
                    sub: 0.4,
                    bias: -0.7,
                });
            }
        }
        let mask_row = if r % 4 == 2 {
            let at = batch.masks.len() / words;
            batch
                .masks
                .extend((0..words).map(|_| rng.next_u64() as u32 | 0x0101_0101));
            at as i32
        } else {
            -1
        };
        batch.plans.push(RowPlan {
            uniform: (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64,
            scale: 1.0 / [1.0, 0.6, 1.4, 0.9][r % 4],
            logprob_scale: if r % 5 == 0 { 1.0 / 0.7 } else { 1.0 },
            top_k: [0, 1, 7, 64, 0, 0, 300][r % 7],
            top_p: [1.0, 0.9, 1.0, 0.6, 0.95, 1.0][r % 6],
            min_p: [0.0, 0.0, 0.05][r % 3],
            greedy: u32::from(r % 5 == 0),
            n_top: (r % 21) as u32,
            want_logprob: u32::from(r % 2 == 0),
            edit_lo,
            edit_hi: batch.edits.len() as u32,
            mask_row,
            reserved: 0,
        });
    }
    (logits, batch)
}
