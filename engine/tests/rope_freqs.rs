//! `rope_freqs.weight`, the per-pair RoPE frequency divisors that Llama 3.1+ GGUF files carry
//! as a tensor, on the real model rebuilt with one added: factors of one change nothing, and a
//! uniform factor `f` acts exactly as linear position scaling by `f` (each pair turns by
//! `pos * freq / f` either way).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::common::gguf_writer;

use common::Runner;
use engine::gguf::{GgufFile, MetadataValue};
use engine::model::Model;
use gguf_writer::rebuild;
use kernels::quant::GgmlType;

/// Rotated pairs per head of the default model (head size 64).
const PAIRS: usize = 32;

/// The default model's file rewritten with `kvs` set and, if given, a `rope_freqs.weight`.
fn rebuilt(kvs: &[(&str, MetadataValue)], rope_freqs: Option<&[f32]>) -> GgufFile {
    let file = GgufFile::open(common::model_path()).unwrap();
    let add = rope_freqs
        .map(|factors| {
            let bytes = factors.iter().flat_map(|f| f.to_le_bytes()).collect();
            let dims = vec![factors.len() as u64];
            ("rope_freqs.weight".to_string(), dims, GgmlType::F32, bytes)
        })
        .into_iter()
        .collect();
    rebuild(&file, kvs, &[], add)
}

/// The last-token logits of a 48-token prompt.
fn last_logits(file: &GgufFile) -> Vec<f32> {
    let prompt: Vec<u32> = (0..48).map(|i| 200 + (i * 977) % 30_000).collect();
    let mut runner = Runner::new(Model::from_gguf(file).unwrap(), 1, 256);
    let mut req = runner.admit_uncached();
    let logits = runner.extend(&mut [(&mut req, &prompt)]).remove(0);
    runner.release(req);
    logits
}

#[test]
fn rope_freqs_divide_the_frequencies_like_linear_scaling() {
    let plain = last_logits(&rebuilt(&[], None));
    let ones = last_logits(&rebuilt(&[], Some(&[1.0; PAIRS])));
    assert_eq!(plain, ones, "factors of one must change nothing");

    let halved = last_logits(&rebuilt(&[], Some(&[2.0; PAIRS])));
    let linear = last_logits(&rebuilt(
        &[
            (
                "llama.rope.scaling.type",
                MetadataValue::String("linear".into()),
            ),
            ("llama.rope.scaling.factor", MetadataValue::F32(2.0)),
        ],
        None,
    ));
    assert_eq!(halved, linear, "factor 2 on every pair = positions / 2");
    let moved = plain
        .iter()
        .zip(&halved)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(moved > 1e-2, "the factors were ignored: max change {moved}");
}

#[test]
fn bad_rope_freqs_are_refused_with_the_tensor_named() {
    for factors in [&[1.0f32; PAIRS - 1][..], &[0.0; PAIRS][..]] {
        let err = Model::from_gguf(&rebuilt(&[], Some(factors)))
            .err()
            .expect("a bad rope_freqs tensor must be refused")
            .to_string();
        assert!(
            err.contains("rope_freqs") || err.contains("frequency factor"),
            "{err}"
        );
    }
}
