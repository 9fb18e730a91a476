//! Vocabulary-wide numeric passes, written as fixed-width lane loops so they vectorize.

/// Independent accumulators per reduction: wide enough for AVX-512, fine on narrower targets.
const LANES: usize = 16;
/// Elements per partial sum; short enough that the f32 lane sums stay accurate.
pub(crate) const CHUNK: usize = 1024;

pub(crate) use kernels::vector::{exp_approx, key_id, order_key};

#[inline(always)]
fn lane_max(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
}

/// Multiplies every logit by `scale`, maps NaN to `f32::MIN` and clamps infinities to the
/// finite range (so later `x - max` never yields NaN), and returns the maximum.
pub(crate) fn scale_sanitize_max(row: &mut [f32], scale: f32) -> f32 {
    #[inline(always)]
    fn fix(v: f32, scale: f32) -> f32 {
        let y = v * scale;
        if y.is_nan() {
            f32::MIN
        } else {
            y.clamp(f32::MIN, f32::MAX)
        }
    }
    let mut lanes = [f32::MIN; LANES];
    let mut chunks = row.chunks_exact_mut(LANES);
    for c in &mut chunks {
        for (v, m) in c.iter_mut().zip(lanes.iter_mut()) {
            *v = fix(*v, scale);
            *m = lane_max(*m, *v);
        }
    }
    let mut max = lanes.into_iter().fold(f32::MIN, lane_max);
    for v in chunks.into_remainder() {
        *v = fix(*v, scale);
        max = lane_max(max, *v);
    }
    max
}

/// Sanitizes the row (as [`scale_sanitize_max`] with scale 1) and returns the first index
/// holding the maximum together with that maximum.
pub(crate) fn sanitize_argmax(row: &mut [f32]) -> (usize, f32) {
    let max = scale_sanitize_max(row, 1.0);
    // `max` is one of the stored values, so exact comparison finds it.
    let at = row.iter().position(|&x| x == max).unwrap_or(0);
    (at, max)
}

fn lane_sum(values: &[f32]) -> f32 {
    let mut acc = [0.0f32; LANES];
    let mut it = values.chunks_exact(LANES);
    for c in &mut it {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a += x;
        }
    }
    acc.iter().sum::<f32>() + it.remainder().iter().sum::<f32>()
}

/// `sum(exp((x - max) * scale))` over the row, without storing the terms.
pub(crate) fn sum_exp(row: &[f32], max: f32, scale: f32) -> f64 {
    let mut total = 0.0f64;
    for chunk in row.chunks(CHUNK) {
        let mut acc = [0.0f32; LANES];
        let mut it = chunk.chunks_exact(LANES);
        for c in &mut it {
            for (a, &x) in acc.iter_mut().zip(c) {
                *a += exp_approx((x - max) * scale);
            }
        }
        let rest: f32 = it
            .remainder()
            .iter()
            .map(|&x| exp_approx((x - max) * scale))
            .sum();
        total += f64::from(acc.iter().sum::<f32>() + rest);
    }
    total
}

/// Fills `weights[i] = exp(row[i] - max)` and `chunk_sums[c]` = sum of chunk `c` (of
/// [`CHUNK`] elements); returns the total.
pub(crate) fn exp_weights(
    row: &[f32],
    max: f32,
    weights: &mut Vec<f32>,
    chunk_sums: &mut Vec<f64>,
) -> f64 {
    weights.clear();
    weights.resize(row.len(), 0.0);
    for (w, &x) in weights.iter_mut().zip(row) {
        *w = exp_approx(x - max);
    }
    refresh_chunk_sums(weights, chunk_sums)
}

/// Recomputes the per-chunk sums of `weights`; returns the total.
pub(crate) fn refresh_chunk_sums(weights: &[f32], chunk_sums: &mut Vec<f64>) -> f64 {
    chunk_sums.clear();
    chunk_sums.extend(weights.chunks(CHUNK).map(|c| f64::from(lane_sum(c))));
    chunk_sums.iter().sum()
}

/// Ids of the `n` largest values, largest first, ties broken by the lower id.
pub(crate) fn top_n(row: &[f32], n: usize) -> Vec<u32> {
    if n == 0 {
        return Vec::new();
    }
    let mut best: Vec<(f32, u32)> = Vec::with_capacity(n + 1);
    // Entries must beat the current n-th; an equal one has a higher id and ranks below it.
    let mut bar = f32::NEG_INFINITY;
    for (i, &x) in (0u32..).zip(row) {
        if x > bar {
            let at = best.partition_point(|&(v, _)| v >= x);
            best.insert(at, (x, i));
            best.truncate(n);
            if best.len() == n {
                bar = best.last().map_or(bar, |&(v, _)| v);
            }
        }
    }
    best.into_iter().map(|(_, i)| i).collect()
}

/// Leaves in `keys` the order keys of the `k` best entries of `row`, unordered, in one
/// pass: candidates above the current k-th best are buffered, and the buffer is cut back
/// to k whenever it fills, raising the bar. Most entries cost one comparison.
pub(crate) fn top_k_keys(row: &[f32], k: usize, keys: &mut Vec<u64>) {
    keys.clear();
    if k == 0 {
        return;
    }
    let cap = (2 * k).max(256);
    keys.reserve(cap);
    // Sanitized values are finite, so everything passes until the first cut. An entry equal
    // to the bar has a higher id than the k-th best and so ranks below it: `>` is exact.
    let mut bar = f32::NEG_INFINITY;
    for (i, &x) in (0u32..).zip(row) {
        if x > bar {
            keys.push(order_key(x, i));
            if keys.len() >= cap {
                keys.select_nth_unstable(k - 1);
                keys.truncate(k);
                let kth = keys.get(k - 1).map_or(0, |&key| key_id(key));
                bar = row.get(kth as usize).copied().unwrap_or(bar);
            }
        }
    }
    if keys.len() > k {
        keys.select_nth_unstable(k - 1);
        keys.truncate(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_maps_nan_and_inf() {
        let mut row = vec![1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 2.0];
        let (at, max) = sanitize_argmax(&mut row);
        assert_eq!((at, max), (2, f32::MAX));
        assert_eq!(row[1], f32::MIN);
        assert_eq!(row[3], f32::MIN);
    }

    #[test]
    fn argmax_ties_pick_lowest_id() {
        let mut row: Vec<f32> = (0..100).map(|i| (i % 7) as f32).collect();
        assert_eq!(sanitize_argmax(&mut row).0, 6);
        // Long rows exercise the lane loop plus the remainder.
        let mut row = vec![0.5f32; 1000];
        row[513] = 3.0;
        row[999] = 3.0;
        assert_eq!(sanitize_argmax(&mut row), (513, 3.0));
    }

    #[test]
    fn sums_agree_with_f64_reference() {
        let row: Vec<f32> = (0..5000).map(|i| ((i * 37) % 101) as f32 / 10.0).collect();
        let max = 10.0f32;
        let want: f64 = row.iter().map(|&x| f64::from(x - max).exp()).sum();
        let got = sum_exp(&row, max, 1.0);
        assert!((got - want).abs() / want < 1e-6);
        let (mut w, mut c) = (Vec::new(), Vec::new());
        let total = exp_weights(&row, max, &mut w, &mut c);
        assert!((total - want).abs() / want < 1e-6);
        assert_eq!(c.len(), 5000usize.div_ceil(CHUNK));
    }

    #[test]
    fn order_keys_sort_by_value_then_id() {
        let vals = [0.5f32, -1.0, 3.0, -0.0, 0.0, 3.0, f32::MIN, f32::MAX, 1e-30];
        let mut keys: Vec<u64> = (0u32..).zip(vals).map(|(i, x)| order_key(x, i)).collect();
        keys.sort_unstable();
        let ids: Vec<u32> = keys.into_iter().map(key_id).collect();
        // -0.0 orders just below +0.0, which is fine for a tie-break.
        assert_eq!(ids, vec![7, 2, 5, 0, 8, 4, 3, 1, 6]);
    }

    #[test]
    fn top_k_keys_matches_full_sort() {
        let row: Vec<f32> = (0..5000u32).map(|i| ((i * 7919) % 641) as f32).collect();
        let mut all: Vec<u64> = (0u32..).zip(&row).map(|(i, &x)| order_key(x, i)).collect();
        all.sort_unstable();
        let mut keys = Vec::new();
        for k in [1, 5, 64, 300, 4999, 5000] {
            top_k_keys(&row, k, &mut keys);
            keys.sort_unstable();
            assert_eq!(keys, all[..k], "k = {k}");
        }
    }

    #[test]
    fn top_n_sorted_with_tie_order() {
        let row = [1.0, 5.0, 3.0, 5.0, 4.0, -1.0];
        assert_eq!(top_n(&row, 3), vec![1, 3, 4]);
        assert_eq!(top_n(&row, 10), vec![1, 3, 4, 2, 0, 5]);
        assert!(top_n(&row, 0).is_empty());
    }
}
