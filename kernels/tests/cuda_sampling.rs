//! The sampling kernel against its CPU twin: the same tokens and top-n ids bit for bit, the
//! same log-probabilities up to `log`'s last ulp, for every cut, edits and masks, greedy
//! and sampled rows in one batch. Needs a GPU: without one the test prints "SKIPPED ..."
//! and passes. Run with `--features cuda` (see scripts/check-cuda.sh).
#![cfg(feature = "cuda")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "cuda_common.rs"]
mod cuda_common;
#[path = "support/sampling_batch.rs"]
mod sampling_batch;
#[path = "support/xorshift.rs"]
mod xorshift;

use cuda_common::gpu;
use kernels::cuda::SamplingBuffers;
use kernels::sampling::{edit_flags, twin, LogitEdit, RowPlan, SamplingBatch};
use sampling_batch::mixed_batch;
use xorshift::Rng;

#[test]
fn sampling_kernel_matches_its_cpu_twin() {
    let Some(gpu) = gpu("sampling_kernel_matches_its_cpu_twin") else {
        return;
    };
    let mut rng = Rng(0xface);
    let mut buffers = SamplingBuffers::default();
    for (rows, vocab) in [(1, 7), (5, 256), (9, 257), (33, 3_001), (64, 49_152)] {
        let (logits, batch) = mixed_batch(&mut rng, rows, vocab);
        let mut host = logits.clone();
        let want = twin::sample_rows(&mut host, vocab, &batch).unwrap();
        let mut dev = gpu.upload(&logits).unwrap();
        let got = gpu
            .sample_rows(&mut dev, rows, vocab, &batch, &mut buffers)
            .unwrap();
        assert_eq!(got.len(), rows);
        for (r, (g, w)) in got.iter().zip(&want).enumerate() {
            let what = format!("rows {rows}, vocab {vocab}, row {r}: {:?}", batch.plans[r]);
            assert_eq!(g.token, w.token, "{what}");
            let ids = |row: &kernels::sampling::SampledRow| -> Vec<u32> {
                row.top.iter().map(|&(i, _)| i).collect()
            };
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
        let edited = gpu.download(&dev).unwrap();
        let same = edited
            .iter()
            .zip(&host)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "rows {rows}, vocab {vocab}: edited logits differ");
    }
    // A ban flag alone forces the row off its best token on the device too.
    let vocab = 64;
    let logits: Vec<f32> = (0..vocab).map(|i| i as f32).collect();
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
    let mut dev = gpu.upload(&logits).unwrap();
    let got = gpu
        .sample_rows(&mut dev, 1, vocab, &batch, &mut buffers)
        .unwrap();
    assert_eq!(got[0].token, 62);
}

/// Two launches in flight at once (the overlap scheduler's pattern): each lands in its own
/// pinned slot, collected in either order, and the tokens of the last launch feed the
/// next batch's future inputs on the device.
#[test]
fn launches_overlap_and_feed_future_inputs() {
    let Some(gpu) = gpu("launches_overlap_and_feed_future_inputs") else {
        return;
    };
    let mut rng = Rng(0xbeef);
    let mut buffers = SamplingBuffers::default();
    let vocab = 4_000;
    let (first, first_batch) = mixed_batch(&mut rng, 12, vocab);
    let (second, second_batch) = mixed_batch(&mut rng, 40, vocab);
    let want_first = twin::sample_rows(&mut first.clone(), vocab, &first_batch).unwrap();
    let want_second = twin::sample_rows(&mut second.clone(), vocab, &second_batch).unwrap();
    let mut dev_first = gpu.upload(&first).unwrap();
    let mut dev_second = gpu.upload(&second).unwrap();
    gpu.launch_sample_rows(&mut dev_first, 12, vocab, &first_batch, &mut buffers, 0)
        .unwrap();
    // The second launch grows the buffers while the first is still uncollected.
    gpu.launch_sample_rows(&mut dev_second, 40, vocab, &second_batch, &mut buffers, 1)
        .unwrap();
    // Slot 0 is taken until collected.
    assert!(gpu
        .launch_sample_rows(&mut dev_first, 12, vocab, &first_batch, &mut buffers, 0)
        .is_err());
    // Future inputs from the last launch: positions 1, 3 and 4 of a 6-token batch.
    let mut ids = gpu.upload(&[7u32, 0, 7, 0, 0, 7]).unwrap();
    gpu.resolve_futures(&mut ids, 6, &[1, 3, 4], &[39, 0, 17], &buffers)
        .unwrap();
    assert!(gpu
        .resolve_futures(&mut ids, 6, &[1], &[40], &buffers)
        .is_err());
    let got_second = gpu.collect_sample_rows(&mut buffers, 1).unwrap();
    let got_first = gpu.collect_sample_rows(&mut buffers, 0).unwrap();
    let tokens = |rows: &[kernels::sampling::SampledRow]| -> Vec<u32> {
        rows.iter().map(|r| r.token).collect()
    };
    assert_eq!(tokens(&got_first), tokens(&want_first));
    assert_eq!(tokens(&got_second), tokens(&want_second));
    let resolved = gpu.download(&ids).unwrap();
    let t = tokens(&want_second);
    assert_eq!(resolved, [7, t[39], 7, t[0], t[17], 7]);
    assert!(
        gpu.collect_sample_rows(&mut buffers, 0).is_err(),
        "collected twice"
    );
}
