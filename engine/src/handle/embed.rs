//! What an embedding request's hidden state becomes for a client: the first `dimensions`
//! values (Matryoshka models keep their meaning in a prefix), L2-normalized, as embedding
//! servers and OpenAI return them.

/// The first `dimensions` values of `hidden`, L2-normalized (a zero vector stays zero).
pub fn normalized_embedding(hidden: &[f32], dimensions: usize) -> Vec<f32> {
    let kept = &hidden[..dimensions.min(hidden.len())];
    let norm = kept
        .iter()
        .map(|&v| f64::from(v) * f64::from(v))
        .sum::<f64>()
        .sqrt();
    if norm == 0.0 {
        return kept.to_vec();
    }
    kept.iter().map(|&v| (f64::from(v) / norm) as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates_then_normalizes() {
        assert_eq!(normalized_embedding(&[3.0, 4.0, 12.0], 2), [0.6, 0.8]);
        let v = normalized_embedding(&[3.0, 4.0, 12.0], 3);
        let expected = [3.0 / 13.0, 4.0 / 13.0, 12.0 / 13.0];
        for (a, b) in v.iter().zip(expected) {
            assert!((a - b).abs() < 1e-7, "{v:?}");
        }
        assert_eq!(normalized_embedding(&[0.0, 0.0], 2), [0.0, 0.0]);
    }
}
