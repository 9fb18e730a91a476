//! The sampling kernel (`sample_rows`) against its CPU twin, bit for bit: tokens, top-n ids
//! and the edited logits exactly, log-probabilities up to `log`'s last ulp; every cut, edits
//! and masks, greedy and sampled rows in one batch. And `resolve_futures`. Mirrors
//! tests/cuda_sampling.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::sampling_batch::mixed_batch;
use common::{bits, Rng};
use cuda_emu::{cu, launch, Launch};
use kernels::cuda_index::{stride_blocks, ELEMENTWISE_THREADS};
use kernels::sampling::{edit_flags, twin, LogitEdit, RowPlan, SampledRow, SamplingBatch};
use kernels::sampling::{MAX_TOP, THREADS};

/// `sample_rows` over `logits` (edited in place), one block of THREADS per row as the
/// launcher runs it; the rows as `collect_sample_rows` reads them back.
fn emulated_sample(logits: &mut [f32], vocab: usize, batch: &SamplingBatch) -> Vec<SampledRow> {
    let rows = batch.plans.len();
    let mut weights = vec![f32::NAN; rows * vocab];
    let mut tokens = vec![u32::MAX; rows];
    let mut logprobs = vec![f32::NAN; rows];
    let mut top_ids = vec![u32::MAX; rows * MAX_TOP];
    let mut top_logprobs = vec![f32::NAN; rows * MAX_TOP];
    // Empty uploads are one zeroed element on the device (GpuContext::upload).
    let edits = if batch.edits.is_empty() {
        vec![LogitEdit::default()]
    } else {
        batch.edits.clone()
    };
    let masks = if batch.masks.is_empty() {
        vec![0]
    } else {
        batch.masks.clone()
    };
    let (l, w, t, lp) = (
        logits.as_mut_ptr(),
        weights.as_mut_ptr(),
        tokens.as_mut_ptr(),
        logprobs.as_mut_ptr(),
    );
    let (ti, tl) = (top_ids.as_mut_ptr(), top_logprobs.as_mut_ptr());
    let (p, e, m) = (batch.plans.as_ptr(), edits.as_ptr(), masks.as_ptr());
    let cfg = Launch::linear(rows as u32, THREADS as u32, 0);
    unsafe {
        launch(cfg, || {
            cu::sample_rows(l, w, vocab as u32, p, e, m, t, lp, ti, tl)
        })
    }
    .unwrap();
    (0..rows)
        .map(|r| {
            let n = (batch.plans[r].n_top as usize).min(vocab);
            SampledRow {
                token: tokens[r],
                logprob: logprobs[r],
                top: (r * MAX_TOP..r * MAX_TOP + n)
                    .map(|j| (top_ids[j], top_logprobs[j]))
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn sampling_kernel_matches_its_cpu_twin() {
    let mut rng = Rng(0xface);
    for (rows, vocab) in [(1, 7), (5, 256), (9, 257), (33, 3_001), (8, 49_152)] {
        let (logits, batch) = mixed_batch(&mut rng, rows, vocab);
        let mut host = logits.clone();
        let want = twin::sample_rows(&mut host, vocab, &batch).unwrap();
        let mut dev = logits.clone();
        let got = emulated_sample(&mut dev, vocab, &batch);
        for (r, (g, w)) in got.iter().zip(&want).enumerate() {
            let what = format!("rows {rows}, vocab {vocab}, row {r}: {:?}", batch.plans[r]);
            assert_eq!(g.token, w.token, "{what}");
            let ids = |row: &SampledRow| -> Vec<u32> { row.top.iter().map(|&(i, _)| i).collect() };
            assert_eq!(ids(g), ids(w), "{what}");
            let close = |a: f32, b: f32| (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-6;
            assert!(
                close(g.logprob, w.logprob),
                "{what}: {} vs {}",
                g.logprob,
                w.logprob
            );
            for (&(_, a), &(_, b)) in g.top.iter().zip(&w.top) {
                assert!(close(a, b), "{what}: top {a} vs {b}");
            }
        }
        // The edited logits the kernel left behind are the twin's, bit for bit.
        assert!(
            bits(&dev) == bits(&host),
            "rows {rows}, vocab {vocab}: edited logits differ"
        );
    }
    // A ban flag alone forces the row off its best token.
    let vocab = 64;
    let mut logits: Vec<f32> = (0..vocab).map(|i| i as f32).collect();
    let batch = SamplingBatch {
        plans: vec![RowPlan {
            edit_hi: 1,
            ..RowPlan::default()
        }],
        edits: vec![LogitEdit {
            id: 63,
            flags: edit_flags::BAN,
            ..LogitEdit::default()
        }],
        masks: Vec::new(),
    };
    assert_eq!(emulated_sample(&mut logits, vocab, &batch)[0].token, 62);
}

#[test]
fn future_inputs_take_the_sampled_tokens() {
    // ids[at[i]] = sampled[rows[i]]; the other ids stay.
    let mut rng = Rng(77);
    let n_ids = 3000;
    let mut ids: Vec<u32> = (0..n_ids as u32).collect();
    let sampled: Vec<u32> = (0..500).map(|_| rng.below(50_000) as u32).collect();
    let at: Vec<u32> = rng.distinct(700, n_ids).iter().map(|&i| i as u32).collect();
    let rows: Vec<u32> = (0..at.len())
        .map(|_| rng.below(sampled.len()) as u32)
        .collect();
    let mut want = ids.clone();
    for (&a, &r) in at.iter().zip(&rows) {
        want[a as usize] = sampled[r as usize];
    }
    let (i, a, r, s, n) = (
        ids.as_mut_ptr(),
        at.as_ptr(),
        rows.as_ptr(),
        sampled.as_ptr(),
        at.len(),
    );
    let cfg = Launch::linear(
        stride_blocks(n, ELEMENTWISE_THREADS),
        ELEMENTWISE_THREADS,
        0,
    );
    unsafe { launch(cfg, || cu::resolve_futures(i, a, r, s, n as u32)) }.unwrap();
    assert_eq!(ids, want);
}
