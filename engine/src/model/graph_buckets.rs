//! The batch sizes decode steps are recorded at for CUDA graphs (SGLang's buckets): 1, 2, 4,
//! 8, then every multiple of 8, up to the largest batch served, which is a bucket itself so
//! that every decode batch has one. A batch runs in the smallest bucket that holds it.

/// The buckets for batches of up to `max_batch` requests, ascending; none for 0.
pub fn graph_buckets(max_batch: usize) -> Vec<usize> {
    let powers = [1, 2, 4, 8].into_iter();
    let eights = (16..).step_by(8);
    let mut sizes: Vec<usize> = powers
        .chain(eights)
        .take_while(|&s| s < max_batch)
        .collect();
    if max_batch > 0 {
        sizes.push(max_batch);
    }
    sizes
}

/// Index of the smallest of `buckets` (ascending) that holds `n` requests.
pub fn bucket_for(buckets: &[usize], n: usize) -> Option<usize> {
    buckets.iter().position(|&b| b >= n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_sglangs_sizes_capped_by_the_largest_batch() {
        assert_eq!(graph_buckets(0), Vec::<usize>::new());
        assert_eq!(graph_buckets(1), vec![1]);
        assert_eq!(graph_buckets(3), vec![1, 2, 3]);
        assert_eq!(graph_buckets(8), vec![1, 2, 4, 8]);
        assert_eq!(graph_buckets(20), vec![1, 2, 4, 8, 16, 20]);
        assert_eq!(graph_buckets(32), vec![1, 2, 4, 8, 16, 24, 32]);
    }

    #[test]
    fn every_batch_gets_the_smallest_bucket_that_holds_it() {
        for max in [1, 5, 8, 9, 64, 100, 256] {
            let buckets = graph_buckets(max);
            assert!(buckets.windows(2).all(|w| w[0] < w[1]), "{buckets:?}");
            for n in 1..=max {
                let i = bucket_for(&buckets, n).unwrap();
                assert!(buckets[i] >= n);
                // No smaller bucket holds it; padding past 8 is under 8 rows.
                assert!(i == 0 || buckets[i - 1] < n);
                assert!(n <= 8 || buckets[i] - n < 8, "{n} in {}", buckets[i]);
            }
            assert_eq!(bucket_for(&buckets, max + 1), None);
        }
    }
}
