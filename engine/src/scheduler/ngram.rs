//! Prompt lookup (n-gram) drafts for speculative decoding: the tokens that followed the
//! most recent earlier occurrence of the sequence's last few tokens. Rewrites, edits and
//! code completions copy long runs of their input, which this finds for free.

/// Longest and shortest suffix tried, longest first.
const MAX_NGRAM: usize = 4;
const MIN_NGRAM: usize = 2;

/// Up to `k` tokens that followed the latest earlier occurrence of the longest suffix of
/// `tokens` (`MAX_NGRAM` down to `MIN_NGRAM` tokens) seen before; empty when none repeats.
pub(super) fn draft(tokens: &[u32], k: usize) -> Vec<u32> {
    if k == 0 {
        return Vec::new();
    }
    let len = tokens.len();
    for n in (MIN_NGRAM..=MAX_NGRAM.min(len.saturating_sub(1))).rev() {
        let suffix = &tokens[len - n..];
        // Latest occurrence first (it may overlap the suffix, but ends before the last
        // token, so that something follows it).
        let found = (0..len - n)
            .rev()
            .find(|&start| &tokens[start..start + n] == suffix);
        if let Some(start) = found {
            let from = start + n;
            let to = (from + k).min(len);
            return tokens[from..to].to_vec();
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::draft;

    #[test]
    fn drafts_what_followed_the_latest_repeat_of_the_longest_suffix() {
        // "1 2 3 4 5 ... 1 2 3" -> "4 5".
        let tokens = [1, 2, 3, 4, 5, 9, 9, 1, 2, 3];
        assert_eq!(draft(&tokens, 2), vec![4, 5]);
        assert_eq!(draft(&tokens, 10), vec![4, 5, 9, 9, 1, 2, 3]);
        // The latest occurrence wins.
        let tokens = [7, 8, 1, 7, 8, 2, 7, 8];
        assert_eq!(draft(&tokens, 1), vec![2]);
        // A longer suffix beats a later shorter one.
        let tokens = [5, 7, 8, 3, 6, 7, 8, 4, 5, 7, 8];
        assert_eq!(draft(&tokens, 1), vec![3]);
        // Nothing repeats: no draft; one-token suffixes are not enough.
        assert!(draft(&[1, 2, 3, 4], 3).is_empty());
        assert!(draft(&[1, 2, 1], 3).is_empty());
        assert!(draft(&[1, 2, 3, 1, 2], 0).is_empty());
        assert!(draft(&[], 3).is_empty());
    }
}
