//! The CPU attention kernel against a dense f64 reference: causal, windowed and soft-capped
//! scores, batch invariance and the split pieces.
use super::*;

/// Straightforward reference: dense causal attention over one request's gathered K/V.
fn reference(
    shape: &AttentionShape,
    q: &[f32],
    k: &[Vec<f32>],
    v: &[Vec<f32>],
    q_len: usize,
) -> Vec<f32> {
    reference_windowed(shape, usize::MAX, q, k, v, q_len)
}

/// The dense reference where each query sees its last `window` keys.
fn reference_windowed(
    shape: &AttentionShape,
    window: usize,
    q: &[f32],
    k: &[Vec<f32>],
    v: &[Vec<f32>],
    q_len: usize,
) -> Vec<f32> {
    reference_capped(shape, (window, None), q, k, v, q_len)
}

/// The dense reference with a window and, if given, scores soft-capped at `cap`.
fn reference_capped(
    shape: &AttentionShape,
    (window, cap): (usize, Option<f64>),
    q: &[f32],
    k: &[Vec<f32>],
    v: &[Vec<f32>],
    q_len: usize,
) -> Vec<f32> {
    reference_sinks(shape, (window, cap, None), q, k, v, q_len)
}

/// The dense reference with a window, a cap and, if given, a sink logit per head that joins
/// each softmax's denominator.
fn reference_sinks(
    shape: &AttentionShape,
    (window, cap, sinks): (usize, Option<f64>, Option<&[f32]>),
    q: &[f32],
    k: &[Vec<f32>],
    v: &[Vec<f32>],
    q_len: usize,
) -> Vec<f32> {
    let (h, d) = (shape.num_heads, shape.head_dim);
    let group = h / shape.num_kv_heads;
    let mut out = vec![0.0f32; q_len * h * d];
    for i in 0..q_len {
        let vis = k.len() - (q_len - 1 - i);
        let from = vis.saturating_sub(window);
        for head in 0..h {
            let g = head / group;
            let qv = &q[(i * h + head) * d..][..d];
            let s: Vec<f64> = (from..vis)
                .map(|j| {
                    qv.iter()
                        .zip(&k[j][g * d..][..d])
                        .map(|(a, b)| *a as f64 * *b as f64)
                        .sum::<f64>()
                        / (d as f64).sqrt()
                })
                .map(|x| cap.map_or(x, |c| c * (x / c).tanh()))
                .collect();
            let sink = sinks.map(|sinks| sinks[head] as f64);
            let m = s
                .iter()
                .cloned()
                .chain(sink)
                .fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = s.iter().map(|x| (x - m).exp()).collect();
            let z: f64 = e.iter().sum::<f64>() + sink.map_or(0.0, |x| (x - m).exp());
            for (j, ej) in (from..vis).zip(&e) {
                for t in 0..d {
                    out[(i * h + head) * d + t] += (ej / z * v[j][g * d + t] as f64) as f32;
                }
            }
        }
    }
    out
}

/// The rows of `buf` (`kv_row` values each) at `slots`, for the dense reference.
fn gather_rows(slots: &[SlotId], buf: &[f32], kv_row: usize) -> Vec<Vec<f32>> {
    slots
        .iter()
        .map(|&s| buf[s as usize * kv_row..][..kv_row].to_vec())
        .collect()
}

pub(super) fn pseudo(seed: u32, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            (((i as u32).wrapping_mul(2654435761) ^ seed.wrapping_mul(40503)) % 2000) as f32
                / 1000.0
                - 1.0
        })
        .collect()
}

#[test]
fn extend_and_decode_match_the_dense_reference_and_each_other() {
    let shape = AttentionShape {
        num_heads: 6,
        num_kv_heads: 2,
        head_dim: 8,
    };
    let kv_row = 16;
    let slots = 64;
    let kbuf = pseudo(1, slots * kv_row);
    let vbuf = pseudo(2, slots * kv_row);
    let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
    // Request 0: 20 keys at scattered slots, 20 queries (a full prefill spanning 2 blocks);
    // request 1: 5 keys, 2 queries (extend over a cached prefix of 3).
    let kv0: Vec<SlotId> = (0..20).map(|i| (i * 3 + 1) % 64).collect();
    let kv1: Vec<SlotId> = vec![40, 2, 33, 7, 50];
    let q = pseudo(3, 22 * 48);
    let mut kv_indices = kv0.clone();
    kv_indices.extend(&kv1);
    let batch = PagedBatch {
        q_indptr: &[0, 20, 22],
        kv_indptr: &[0, 20, 25],
        kv_indices: &kv_indices,
    };
    let mut out = vec![0.0; q.len()];
    paged_attention(&shape, &batch, &q, &kc, &vc, &mut out).unwrap();
    let rows = |idx: &[SlotId], buf: &[f32]| gather_rows(idx, buf, kv_row);
    let want0 = reference(
        &shape,
        &q[..20 * 48],
        &rows(&kv0, &kbuf),
        &rows(&kv0, &vbuf),
        20,
    );
    let want1 = reference(
        &shape,
        &q[20 * 48..],
        &rows(&kv1, &kbuf),
        &rows(&kv1, &vbuf),
        2,
    );
    for (got, want) in out.iter().zip(want0.iter().chain(&want1)) {
        assert!((got - want).abs() < 1e-5, "{got} vs {want}");
    }
    // The last query of request 0, alone as a decode step, is bitwise the same.
    let solo = PagedBatch {
        q_indptr: &[0, 1],
        kv_indptr: &[0, 20],
        kv_indices: &kv0,
    };
    let mut one = vec![0.0; 48];
    paged_attention(&shape, &solo, &q[19 * 48..20 * 48], &kc, &vc, &mut one).unwrap();
    assert_eq!(one, out[19 * 48..20 * 48]);
}

/// A query under chunked attention attends as if its chunk's keys, from the last multiple of
/// the chunk up to itself, were all the request had.
#[test]
fn chunks_attend_as_their_own_keys_alone_and_are_batch_invariant() {
    // 2,500 keys, queries at positions 2,460 to 2,499: chunks ending inside the queries many
    // times (7), once (2,470), beginning before them (600), or never (10,000).
    for (head_dim, chunk) in [(64, 7), (64, 2470), (24, 600), (128, 10_000)] {
        let shape = AttentionShape {
            num_heads: 4,
            num_kv_heads: 2,
            head_dim,
        };
        let (kv_row, q_row, keys, q_len) = (2 * head_dim, 4 * head_dim, 2500, 40);
        let kbuf = pseudo(31, keys * kv_row);
        let vbuf = pseudo(32, keys * kv_row);
        let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
        let slots: Vec<SlotId> = (0..keys as SlotId).rev().collect();
        let q = pseudo(33, q_len * q_row);
        let batch = PagedBatch {
            q_indptr: &[0, q_len as u32],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let rules = ScoreRules {
            chunk: Some(chunk),
            ..ScoreRules::default()
        };
        let mut out = vec![0.0; q.len()];
        paged_attention_with_rules(&shape, rules, &batch, &q, &kc, &vc, &mut out).unwrap();
        let (k, v) = (
            gather_rows(&slots, &kbuf, kv_row),
            gather_rows(&slots, &vbuf, kv_row),
        );
        for i in 0..q_len {
            let position = keys - q_len + i;
            let start = position / chunk * chunk;
            let span = start..position + 1;
            let query = &q[i * q_row..][..q_row];
            let want = reference(&shape, query, &k[span.clone()], &v[span], 1);
            for (got, want) in out[i * q_row..][..q_row].iter().zip(&want) {
                assert!(
                    (got - want).abs() < 1e-4,
                    "d {head_dim} chunk {chunk} at {position}: {got} vs {want}"
                );
            }
        }
        // The last query alone (a decode step) gives bitwise the same row.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let mut one = vec![0.0; q_row];
        let last = &q[(q_len - 1) * q_row..];
        paged_attention_with_rules(&shape, rules, &solo, last, &kc, &vc, &mut one).unwrap();
        assert_eq!(one, out[(q_len - 1) * q_row..]);
    }
    let zero = ScoreRules {
        chunk: Some(0),
        ..ScoreRules::default()
    };
    assert!(zero.validate().is_err());
}

#[test]
fn sliding_windows_match_the_dense_reference_and_are_batch_invariant() {
    // 2,500 keys: three key splits, the window (700) inside one, across one boundary, or
    // past the first split entirely; head sizes with a fixed and a run-time path.
    for (head_dim, window) in [
        (64, 700),
        (64, 13),
        (24, 700),
        (24, 1),
        (128, 5000),
        (256, 30),
    ] {
        let shape = AttentionShape {
            num_heads: 4,
            num_kv_heads: 2,
            head_dim,
        };
        let (kv_row, q_row, keys, q_len) = (2 * head_dim, 4 * head_dim, 2500, 40);
        let kbuf = pseudo(11, keys * kv_row);
        let vbuf = pseudo(12, keys * kv_row);
        let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
        let slots: Vec<SlotId> = (0..keys as SlotId).rev().collect();
        let q = pseudo(13, q_len * q_row);
        let batch = PagedBatch {
            q_indptr: &[0, q_len as u32],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let mut out = vec![0.0; q.len()];
        paged_attention_windowed(&shape, Some(window), &batch, &q, &kc, &vc, &mut out).unwrap();
        let rows = |buf: &[f32]| gather_rows(&slots, buf, kv_row);
        let want = reference_windowed(&shape, window, &q, &rows(&kbuf), &rows(&vbuf), q_len);
        for (got, want) in out.iter().zip(&want) {
            assert!(
                (got - want).abs() < 1e-4,
                "d {head_dim} w {window}: {got} vs {want}"
            );
        }
        // The last query alone (a decode step) gives bitwise the same row.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let mut one = vec![0.0; q_row];
        let last = &q[(q_len - 1) * q_row..];
        paged_attention_windowed(&shape, Some(window), &solo, last, &kc, &vc, &mut one).unwrap();
        assert_eq!(one, out[(q_len - 1) * q_row..]);
    }
    let err = paged_attention_windowed(
        &AttentionShape {
            num_heads: 1,
            num_kv_heads: 1,
            head_dim: 8,
        },
        Some(0),
        &PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, 1],
            kv_indices: &[0],
        },
        &[0.0; 8],
        &LayerKv::F32(vec![0.0; 8]),
        &LayerKv::F32(vec![0.0; 8]),
        &mut [0.0; 8],
    );
    assert!(err.is_err());
}

#[test]
fn long_contexts_in_every_dtype_match_the_reference_across_key_tiles() {
    // 9 heads over 3 K/V heads of 64 (SmolLM2's layer), 300 keys: 5 key tiles, the last
    // partial; 40 queries in 3 blocks of an extend over a cached prefix of 260.
    let shape = AttentionShape {
        num_heads: 9,
        num_kv_heads: 3,
        head_dim: 64,
    };
    let (kv_row, q_row, keys, q_len) = (192, 576, 300, 40);
    let slots = 400;
    let kv: Vec<SlotId> = (0..keys).map(|i| ((i * 7 + 3) % slots) as SlotId).collect();
    let q = pseudo(5, q_len * q_row);
    let (kf, vf) = (pseudo(6, slots * kv_row), pseudo(7, slots * kv_row));
    let caches = [
        (LayerKv::F32(kf.clone()), LayerKv::F32(vf.clone())),
        (
            LayerKv::F16(kf.iter().map(|&x| f16::from_f32(x)).collect()),
            LayerKv::F16(vf.iter().map(|&x| f16::from_f32(x)).collect()),
        ),
        (
            LayerKv::Bf16(kf.iter().map(|&x| bf16::from_f32(x)).collect()),
            LayerKv::Bf16(vf.iter().map(|&x| bf16::from_f32(x)).collect()),
        ),
    ];
    for (kc, vc) in &caches {
        let row_of = |cache: &LayerKv, s: SlotId| {
            let mut r = vec![0.0; kv_row];
            cache.read_row(kv_row, s, &mut r);
            r
        };
        let k_rows: Vec<Vec<f32>> = kv.iter().map(|&s| row_of(kc, s)).collect();
        let v_rows: Vec<Vec<f32>> = kv.iter().map(|&s| row_of(vc, s)).collect();
        let want = reference(&shape, &q, &k_rows, &v_rows, q_len);
        let batch = PagedBatch {
            q_indptr: &[0, q_len as u32],
            kv_indptr: &[0, keys as u32],
            kv_indices: &kv,
        };
        let mut out = vec![0.0; q.len()];
        paged_attention(&shape, &batch, &q, kc, vc, &mut out).unwrap();
        for (got, want) in out.iter().zip(&want) {
            assert!((got - want).abs() < 2e-5, "{got} vs {want}");
        }
        // Query 17 as a decode step over its own 278 visible keys (alone, it runs as one
        // piece per K/V head): bitwise the same.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, 278],
            kv_indices: &kv[..278],
        };
        let mut one = vec![0.0; q_row];
        paged_attention(&shape, &solo, &q[17 * q_row..18 * q_row], kc, vc, &mut one).unwrap();
        assert_eq!(one, out[17 * q_row..18 * q_row]);
    }
}

#[test]
fn contexts_longer_than_a_split_merge_to_the_reference_and_stay_batch_invariant() {
    // 2,500 keys: three key ranges per row (1,024 + 1,024 + 452); the extend's 20
    // queries straddle no boundary, decode rows of 1,024 and 1,025 keys do.
    let shape = AttentionShape {
        num_heads: 9,
        num_kv_heads: 3,
        head_dim: 64,
    };
    let (kv_row, q_row) = (192, 576);
    let slots = 3000;
    let kbuf = pseudo(11, slots * kv_row);
    let vbuf: Vec<f32> = pseudo(12, slots * kv_row).iter().map(|x| x * 3.0).collect();
    let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
    let kv0: Vec<SlotId> = (0..2500)
        .map(|i| ((i * 11 + 5) % slots) as SlotId)
        .collect();
    let kv1: Vec<SlotId> = kv0[..1024].to_vec();
    let kv2: Vec<SlotId> = kv0[..1025].to_vec();
    let q = pseudo(13, 22 * q_row);
    let mut kv_indices = kv0.clone();
    kv_indices.extend(&kv1);
    kv_indices.extend(&kv2);
    let batch = PagedBatch {
        q_indptr: &[0, 20, 21, 22],
        kv_indptr: &[0, 2500, 3524, 4549],
        kv_indices: &kv_indices,
    };
    let mut out = vec![0.0; q.len()];
    paged_attention(&shape, &batch, &q, &kc, &vc, &mut out).unwrap();
    let rows = |idx: &[SlotId], buf: &[f32]| gather_rows(idx, buf, kv_row);
    let mut want = reference(
        &shape,
        &q[..20 * q_row],
        &rows(&kv0, &kbuf),
        &rows(&kv0, &vbuf),
        20,
    );
    for (kv, at) in [(&kv1, 20), (&kv2, 21)] {
        let one = &q[at * q_row..(at + 1) * q_row];
        want.extend(reference(
            &shape,
            one,
            &rows(kv, &kbuf),
            &rows(kv, &vbuf),
            1,
        ));
    }
    for (got, want) in out.iter().zip(&want) {
        assert!((got - want).abs() < 2e-5, "{got} vs {want}");
    }
    // Query 5 of the extend alone, as a decode over its 2,486 visible keys.
    let solo = PagedBatch {
        q_indptr: &[0, 1],
        kv_indptr: &[0, 2486],
        kv_indices: &kv0[..2486],
    };
    let mut one = vec![0.0; q_row];
    paged_attention(&shape, &solo, &q[5 * q_row..6 * q_row], &kc, &vc, &mut one).unwrap();
    assert_eq!(one, out[5 * q_row..6 * q_row]);
}

#[test]
fn half_widening_is_exact_for_every_bit_pattern() {
    use tile::KvElem;
    let halves: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    let mut got = vec![0.0f32; halves.len()];
    f16::widen(&halves, &mut got, false);
    for (h, g) in halves.iter().zip(&got) {
        let want = h.to_f32();
        assert!(
            g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
            "f16 {:#06x}: {g} vs {want}",
            h.to_bits()
        );
    }
    let brains: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
    bf16::widen(&brains, &mut got, false);
    for (h, g) in brains.iter().zip(&got) {
        let want = h.to_f32();
        assert!(g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()));
    }
}

#[test]
fn rejects_inconsistent_metadata() {
    let shape = AttentionShape {
        num_heads: 2,
        num_kv_heads: 1,
        head_dim: 4,
    };
    let c = LayerKv::F32(vec![0.0; 16]);
    let q = vec![0.0; 16];
    let mut out = vec![0.0; 16];
    let more_q_than_kv = PagedBatch {
        q_indptr: &[0, 2],
        kv_indptr: &[0, 1],
        kv_indices: &[1],
    };
    assert!(paged_attention(&shape, &more_q_than_kv, &q, &c, &c, &mut out).is_err());
    let out_of_pool = PagedBatch {
        q_indptr: &[0, 2],
        kv_indptr: &[0, 2],
        kv_indices: &[1, 4],
    };
    assert!(paged_attention(&shape, &out_of_pool, &q, &c, &c, &mut out).is_err());
}

#[test]
fn soft_capped_scores_match_the_dense_reference_and_are_batch_invariant() {
    // Queries scaled up so raw scores reach ~+-15 and a cap of 5 bends them hard; a fixed
    // and a run-time head size, with and without a window.
    for (head_dim, window) in [(64, None), (64, Some(300)), (24, None), (24, Some(7))] {
        let shape = AttentionShape {
            num_heads: 4,
            num_kv_heads: 2,
            head_dim,
        };
        let (kv_row, q_row, keys, q_len) = (2 * head_dim, 4 * head_dim, 1200, 20);
        let kbuf = pseudo(21, keys * kv_row);
        let vbuf = pseudo(22, keys * kv_row);
        let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
        let slots: Vec<SlotId> = (0..keys as SlotId).rev().collect();
        let q: Vec<f32> = pseudo(23, q_len * q_row).iter().map(|x| x * 12.0).collect();
        let batch = PagedBatch {
            q_indptr: &[0, q_len as u32],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let rules = ScoreRules {
            window,
            softcap: Some(5.0),
            ..ScoreRules::default()
        };
        let mut out = vec![0.0; q.len()];
        paged_attention_with_rules(&shape, rules, &batch, &q, &kc, &vc, &mut out).unwrap();
        let rows = |buf: &[f32]| gather_rows(&slots, buf, kv_row);
        let (k, v) = (rows(&kbuf), rows(&vbuf));
        let w = window.unwrap_or(usize::MAX);
        let want = reference_capped(&shape, (w, Some(5.0)), &q, &k, &v, q_len);
        let uncapped = reference_capped(&shape, (w, None), &q, &k, &v, q_len);
        let mut moved = 0.0f32;
        for ((got, want), plain) in out.iter().zip(&want).zip(&uncapped) {
            assert!(
                (got - want).abs() < 1e-4,
                "d {head_dim} {window:?}: {got} vs {want}"
            );
            moved = moved.max((want - plain).abs());
        }
        assert!(moved > 0.05, "the cap changed outputs by at most {moved}");
        // The last query alone gives bitwise the same row.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let mut one = vec![0.0; q_row];
        let last = &q[(q_len - 1) * q_row..];
        paged_attention_with_rules(&shape, rules, &solo, last, &kc, &vc, &mut one).unwrap();
        assert_eq!(one, out[(q_len - 1) * q_row..]);
    }
    let bad = ScoreRules {
        softcap: Some(0.0),
        ..ScoreRules::default()
    };
    assert!(bad.validate().is_err());
}

#[test]
fn a_declared_score_scale_replaces_one_over_sqrt_d() {
    let shape = AttentionShape {
        num_heads: 4,
        num_kv_heads: 2,
        head_dim: 64,
    };
    let (kv_row, q_row, keys, q_len) = (128, 256, 300, 5);
    let (kc, vc) = (
        LayerKv::F32(pseudo(31, keys * kv_row)),
        LayerKv::F32(pseudo(32, keys * kv_row)),
    );
    let slots: Vec<SlotId> = (0..keys as SlotId).collect();
    let batch = PagedBatch {
        q_indptr: &[0, q_len as u32],
        kv_indptr: &[0, keys as u32],
        kv_indices: &slots,
    };
    let q = pseudo(33, q_len * q_row);
    let rules = ScoreRules {
        scale: Some(1.0 / 64.0),
        ..ScoreRules::default()
    };
    let mut got = vec![0.0; q.len()];
    paged_attention_with_rules(&shape, rules, &batch, &q, &kc, &vc, &mut got).unwrap();
    // The same scores from queries scaled by (1/64) * sqrt(64) under the default 1/sqrt(64).
    let scaled: Vec<f32> = q.iter().map(|x| x * 0.125).collect();
    let mut want = vec![0.0; q.len()];
    paged_attention(&shape, &batch, &scaled, &kc, &vc, &mut want).unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-5, "{g} vs {w}");
    }
    let mut plain = vec![0.0; q.len()];
    paged_attention(&shape, &batch, &q, &kc, &vc, &mut plain).unwrap();
    assert!(got.iter().zip(&plain).any(|(g, p)| (g - p).abs() > 1e-3));
    let bad = ScoreRules {
        scale: Some(f32::NAN),
        ..ScoreRules::default()
    };
    assert!(bad.validate().is_err());
}

#[test]
fn head_sinks_join_the_softmax_as_the_dense_reference_says_and_stay_batch_invariant() {
    // 2,500 keys (three key ranges), with and without a window; sinks from far below the
    // scores to far above them, so some heads give almost all their weight to the sink.
    let shape = AttentionShape {
        num_heads: 4,
        num_kv_heads: 2,
        head_dim: 64,
    };
    let sinks = [-30.0f32, 0.0, 8.0, 40.0];
    let (kv_row, q_row, keys, q_len) = (128, 256, 2500, 12);
    let kbuf = pseudo(31, keys * kv_row);
    let vbuf = pseudo(32, keys * kv_row);
    let (kc, vc) = (LayerKv::F32(kbuf.clone()), LayerKv::F32(vbuf.clone()));
    let slots: Vec<SlotId> = (0..keys as SlotId)
        .map(|i| (i * 7) % keys as SlotId)
        .collect();
    let q: Vec<f32> = pseudo(33, q_len * q_row).iter().map(|x| x * 4.0).collect();
    let batch = PagedBatch {
        q_indptr: &[0, q_len as u32],
        kv_indptr: &[0, keys as u32],
        kv_indices: &slots,
    };
    let rows = |buf: &[f32]| gather_rows(&slots, buf, kv_row);
    let (k, v) = (rows(&kbuf), rows(&vbuf));
    for window in [None, Some(128)] {
        let rules = ScoreRules {
            window,
            ..ScoreRules::default()
        };
        let mut out = vec![0.0; q.len()];
        paged_attention_with_sinks(&shape, rules, Some(&sinks), &batch, &q, &kc, &vc, &mut out)
            .unwrap();
        let w = window.unwrap_or(usize::MAX);
        let want = reference_sinks(&shape, (w, None, Some(&sinks)), &q, &k, &v, q_len);
        let plain = reference_sinks(&shape, (w, None, None), &q, &k, &v, q_len);
        for (i, (got, want)) in out.iter().zip(&want).enumerate() {
            assert!(
                (got - want).abs() < 2e-5,
                "{window:?} at {i}: {got} vs {want}"
            );
        }
        // Per head: a sink far below changes nothing, one far above leaves almost nothing.
        let head = |buf: &[f32], h: usize| -> f32 {
            buf.chunks_exact(64)
                .skip(h)
                .step_by(4)
                .flatten()
                .map(|x| x.abs())
                .sum()
        };
        assert!((head(&out, 0) - head(&plain, 0)).abs() < 1e-3 * head(&plain, 0));
        assert!(head(&out, 3) < 1e-6 * head(&plain, 3));
        assert!(head(&out, 2) < 0.9 * head(&plain, 2));
        // The last query alone gives bitwise the same row.
        let solo = PagedBatch {
            q_indptr: &[0, 1],
            kv_indptr: &[0, keys as u32],
            kv_indices: &slots,
        };
        let mut one = vec![0.0; q_row];
        let last = &q[(q_len - 1) * q_row..];
        paged_attention_with_sinks(&shape, rules, Some(&sinks), &solo, last, &kc, &vc, &mut one)
            .unwrap();
        assert_eq!(one, out[(q_len - 1) * q_row..]);
    }
    let mut out = vec![0.0; q.len()];
    let rules = ScoreRules::default();
    let short = paged_attention_with_sinks(
        &shape,
        rules,
        Some(&sinks[..3]),
        &batch,
        &q,
        &kc,
        &vc,
        &mut out,
    );
    assert!(short.is_err());
    let nan = [0.0, f32::NAN, 0.0, 0.0];
    assert!(
        paged_attention_with_sinks(&shape, rules, Some(&nan), &batch, &q, &kc, &vc, &mut out)
            .is_err()
    );
}
