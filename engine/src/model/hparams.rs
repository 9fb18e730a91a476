//! The hyper-parameters every decoder family shares, read from the `{arch}.*` metadata keys
//! (a family reads its own extras in its folder).
//!
//! Required and optional keys, and the defaults of the optional ones, follow llama.cpp's
//! loader, so that any file it loads loads here too.

use crate::gguf::file::ARCHITECTURE_KEY;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::{GgufError, Metadata, MetadataValue};

/// RoPE frequency base when `{arch}.rope.freq_base` is absent (llama.cpp's default).
pub const DEFAULT_ROPE_FREQ_BASE: f32 = 10_000.0;

/// How positions are stretched for contexts longer than training (`{arch}.rope.scaling.type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RopeScalingKind {
    Linear,
    Yarn,
    LongRope,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeScaling {
    pub kind: RopeScalingKind,
    /// Context stretch factor (`{arch}.rope.scaling.factor`, or the older
    /// `{arch}.rope.scale_linear`); 1.0 when absent.
    pub factor: f32,
    /// `{arch}.rope.scaling.original_context_length`, if present.
    pub original_context_length: Option<usize>,
}

/// The shape and constants of a decoder-only model.
#[derive(Clone, Debug, PartialEq)]
pub struct Hparams {
    /// `general.architecture`, the prefix of every other key.
    pub architecture: String,
    /// Transformer layers (`{arch}.block_count`).
    pub block_count: usize,
    /// Hidden size (`{arch}.embedding_length`).
    pub embedding_length: usize,
    /// Gated MLP inner size (`{arch}.feed_forward_length`; the widest layer's where it is
    /// given per layer).
    pub feed_forward_length: usize,
    /// Each layer's MLP inner size (Gemma 4 widens the layers that share K/V).
    pub feed_forward_lengths: Vec<usize>,
    /// Query heads (`{arch}.attention.head_count`).
    pub head_count: usize,
    /// K/V heads (`{arch}.attention.head_count_kv`; default `head_count`, i.e. no GQA; the
    /// most of any layer where it is given per layer).
    pub head_count_kv: usize,
    /// Each layer's K/V heads (Gemma 4's global layers have fewer than its sliding ones).
    pub head_counts_kv: Vec<usize>,
    /// Per-head key size (`{arch}.attention.key_length`; default `embedding_length / head_count`).
    pub key_length: usize,
    /// Per-head value size (`{arch}.attention.value_length`; default `key_length`).
    pub value_length: usize,
    /// RMSNorm epsilon (`{arch}.attention.layer_norm_rms_epsilon`).
    pub rms_norm_eps: f32,
    /// Training context length (`{arch}.context_length`).
    pub context_length: usize,
    /// RoPE base (`{arch}.rope.freq_base`; default 10000).
    pub rope_freq_base: f32,
    /// Rotated dimensions per head (`{arch}.rope.dimension_count`; default `key_length`).
    pub rope_dimension_count: usize,
    /// Present when the file asks for a scaling other than "none".
    pub rope_scaling: Option<RopeScaling>,
    /// `{arch}.vocab_size`, else the length of `tokenizer.ggml.tokens`, if either is present.
    pub vocab_size: Option<usize>,
    /// Keys a sliding-window layer's query sees (`{arch}.attention.sliding_window`; absent or
    /// 0: none). Which layers slide is the family's rule.
    pub sliding_window: Option<usize>,
}

/// Upper bounds on sizes read from a model file, far above any real model's: a hostile
/// file's huge values are refused before anything is allocated or multiplied by them.
const MAX_LAYERS: usize = 1 << 10;
const MAX_WIDTH: usize = 1 << 17;
const MAX_HEADS: usize = 1 << 10;
const MAX_HEAD_SIZE: usize = 1 << 12;
const MAX_FEED_FORWARD: usize = 1 << 20;
const MAX_CONTEXT: usize = 1 << 24;
const MAX_VOCAB: usize = 1 << 24;

impl Hparams {
    pub fn from_metadata(metadata: &Metadata) -> Result<Hparams, GgufError> {
        let keys = Keys::new(metadata);
        let architecture = keys.required_str(ARCHITECTURE_KEY)?.to_owned();
        let arch_key = |suffix: &str| format!("{architecture}.{suffix}");

        let block_count_key = arch_key("block_count");
        let block_count = keys.required_usize(&block_count_key)?;
        keys.positive(&block_count_key, block_count)?;
        keys.at_most(&block_count_key, block_count, MAX_LAYERS)?;
        let embedding_key = arch_key("embedding_length");
        let embedding_length = keys.required_usize(&embedding_key)?;
        keys.positive(&embedding_key, embedding_length)?;
        keys.at_most(&embedding_key, embedding_length, MAX_WIDTH)?;
        let feed_forward_key = arch_key("feed_forward_length");
        let feed_forward_lengths =
            match keys.optional_usize_per_layer(&feed_forward_key, block_count)? {
                Some(lengths) => lengths,
                // Absent: the missing key's own error.
                None => vec![keys.required_usize(&feed_forward_key)?; block_count],
            };
        let feed_forward_length = feed_forward_lengths.iter().copied().max().unwrap_or(0);
        keys.at_most(&feed_forward_key, feed_forward_length, MAX_FEED_FORWARD)?;
        let context_key = arch_key("context_length");
        let context_length = keys.required_usize(&context_key)?;
        keys.at_most(&context_key, context_length, MAX_CONTEXT)?;
        let eps_key = arch_key("attention.layer_norm_rms_epsilon");
        let rms_norm_eps = keys.required_f32(&eps_key)?;

        let head_count_key = arch_key("attention.head_count");
        let head_count = keys.required_usize(&head_count_key)?;
        keys.positive(&head_count_key, head_count)?;
        keys.at_most(&head_count_key, head_count, MAX_HEADS)?;
        let kv_key = arch_key("attention.head_count_kv");
        let head_counts_kv = keys
            .optional_usize_per_layer(&kv_key, block_count)?
            .unwrap_or_else(|| vec![head_count; block_count]);
        let head_count_kv = head_counts_kv.iter().copied().max().unwrap_or(0);
        keys.positive(&kv_key, head_count_kv)?;
        // 0 in a per-layer array: a layer without attention.
        if let Some(kv) = (head_counts_kv.iter()).find(|&&kv| kv != 0 && head_count % kv != 0) {
            return Err(invalid(
                &kv_key,
                format!("{kv} K/V heads do not divide {head_count} query heads"),
            ));
        }

        let key_length_key = arch_key("attention.key_length");
        let key_length = match keys.optional_usize(&key_length_key)? {
            Some(length) => length,
            None if embedding_length % head_count == 0 => embedding_length / head_count,
            None => {
                return Err(invalid(
                    &head_count_key,
                    format!("{head_count} heads do not divide embedding length {embedding_length}"),
                ))
            }
        };
        keys.positive(&key_length_key, key_length)?;
        keys.at_most(&key_length_key, key_length, MAX_HEAD_SIZE)?;
        let value_length_key = arch_key("attention.value_length");
        let value_length = keys
            .optional_usize(&value_length_key)?
            .unwrap_or(key_length);
        keys.at_most(&value_length_key, value_length, MAX_HEAD_SIZE)?;

        if !(rms_norm_eps.is_finite() && rms_norm_eps > 0.0) {
            return Err(invalid(
                &eps_key,
                format!("epsilon {rms_norm_eps} is not positive"),
            ));
        }

        let base_key = arch_key("rope.freq_base");
        let rope_freq_base = keys
            .optional_f32(&base_key)?
            .unwrap_or(DEFAULT_ROPE_FREQ_BASE);
        if !(rope_freq_base.is_finite() && rope_freq_base > 0.0) {
            return Err(invalid(
                &base_key,
                format!("base {rope_freq_base} is not positive"),
            ));
        }
        let rope_dim_key = arch_key("rope.dimension_count");
        let rope_dimension_count = keys.optional_usize(&rope_dim_key)?.unwrap_or(key_length);
        if rope_dimension_count > key_length || rope_dimension_count % 2 != 0 {
            return Err(invalid(
                &rope_dim_key,
                format!("{rope_dimension_count} is odd or exceeds the head size {key_length}"),
            ));
        }

        let rope_scaling = rope_scaling(&keys, &architecture)?;
        let vocab_key = arch_key("vocab_size");
        let vocab_size = match keys.optional_usize(&vocab_key)? {
            Some(size) => {
                keys.at_most(&vocab_key, size, MAX_VOCAB)?;
                Some(size)
            }
            None => metadata
                .get("tokenizer.ggml.tokens")
                .and_then(MetadataValue::as_array)
                .map(<[MetadataValue]>::len),
        };

        let sliding_window = keys
            .optional_usize(&arch_key("attention.sliding_window"))?
            .filter(|&w| w > 0);

        Ok(Hparams {
            architecture,
            block_count,
            embedding_length,
            feed_forward_length,
            feed_forward_lengths,
            head_count,
            head_count_kv,
            head_counts_kv,
            key_length,
            value_length,
            rms_norm_eps,
            context_length,
            rope_freq_base,
            rope_dimension_count,
            rope_scaling,
            vocab_size,
            sliding_window,
        })
    }

    /// Query heads that share one K/V head.
    pub fn gqa_group_size(&self) -> usize {
        self.head_count / self.head_count_kv
    }

    /// `{architecture}.{suffix}`: where a family's own keys live.
    pub fn key(&self, suffix: &str) -> String {
        format!("{}.{suffix}", self.architecture)
    }

    /// Refuses a hybrid whose attention layers (the nonzero entries of
    /// `attention.head_count_kv`; 0 marks a recurrent layer) differ in K/V head count.
    pub fn attention_layers_share_kv_heads(&self) -> Result<(), GgufError> {
        let mut attending = self.head_counts_kv.iter().filter(|&&kv| kv != 0);
        match attending.find(|&&kv| kv != self.head_count_kv) {
            Some(other) => Err(invalid(
                &self.key("attention.head_count_kv"),
                format!(
                    "attention layers with {other} and {} K/V heads",
                    self.head_count_kv
                ),
            )),
            None => Ok(()),
        }
    }
}

/// `{arch}.rope.scaling.*`; as in llama.cpp, the type defaults to linear when only a factor
/// is given, and a factor of 0 means none.
fn rope_scaling(keys: &Keys<'_>, architecture: &str) -> Result<Option<RopeScaling>, GgufError> {
    let type_key = format!("{architecture}.rope.scaling.type");
    let kind = match keys.optional_str(&type_key)? {
        None => None,
        Some("none") => return Ok(None),
        Some("linear") => Some(RopeScalingKind::Linear),
        Some("yarn") => Some(RopeScalingKind::Yarn),
        Some("longrope") => Some(RopeScalingKind::LongRope),
        Some(other) => {
            return Err(invalid(
                &type_key,
                format!("unknown RoPE scaling type {other:?}"),
            ));
        }
    };
    let factor_key = format!("{architecture}.rope.scaling.factor");
    let factor = match keys.optional_f32(&factor_key)? {
        Some(factor) => Some((factor, factor_key)),
        None => {
            let legacy_key = format!("{architecture}.rope.scale_linear");
            keys.optional_f32(&legacy_key)?
                .map(|factor| (factor, legacy_key))
        }
    };
    let factor = match factor {
        Some((0.0, _)) => None,
        Some((factor, key)) if !(factor.is_finite() && factor > 0.0) => {
            return Err(invalid(&key, format!("factor {factor} is not positive")));
        }
        Some((factor, _)) => Some(factor),
        None => None,
    };
    if kind.is_none() && factor.is_none() {
        return Ok(None);
    }
    let original_context_length = keys.optional_usize(&format!(
        "{architecture}.rope.scaling.original_context_length"
    ))?;
    Ok(Some(RopeScaling {
        kind: kind.unwrap_or(RopeScalingKind::Linear),
        factor: factor.unwrap_or(1.0),
        original_context_length,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smollm2_like() -> Metadata {
        let mut md = Metadata::default();
        let mut put = |key: &str, value: MetadataValue| md.insert(key.to_owned(), value);
        put(
            "general.architecture",
            MetadataValue::String("llama".into()),
        );
        put("llama.block_count", MetadataValue::U32(30));
        put("llama.embedding_length", MetadataValue::U32(576));
        put("llama.feed_forward_length", MetadataValue::U32(1536));
        put("llama.context_length", MetadataValue::U32(8192));
        put("llama.attention.head_count", MetadataValue::U32(9));
        put("llama.attention.head_count_kv", MetadataValue::U32(3));
        put(
            "llama.attention.layer_norm_rms_epsilon",
            MetadataValue::F32(1e-5),
        );
        put("llama.rope.freq_base", MetadataValue::F32(100_000.0));
        md
    }

    #[test]
    fn reads_required_keys_and_fills_defaults() {
        let hp = Hparams::from_metadata(&smollm2_like()).unwrap();
        assert_eq!(hp.block_count, 30);
        assert_eq!(hp.key_length, 64);
        assert_eq!(hp.value_length, 64);
        assert_eq!(hp.rope_dimension_count, 64);
        assert_eq!(hp.gqa_group_size(), 3);
        assert_eq!(hp.rope_scaling, None);
        assert_eq!(hp.vocab_size, None);
    }

    #[test]
    fn per_layer_arrays_give_each_layer_its_value_and_the_widest_as_the_scalar() {
        let mut md = smollm2_like();
        let per_layer = |values: &[u32]| {
            MetadataValue::Array(values.iter().map(|&v| MetadataValue::U32(v)).collect())
        };
        md.insert("llama.block_count".into(), MetadataValue::U32(3));
        md.insert(
            "llama.attention.head_count_kv".into(),
            per_layer(&[3, 1, 3]),
        );
        md.insert(
            "llama.feed_forward_length".into(),
            per_layer(&[64, 64, 128]),
        );
        let hp = Hparams::from_metadata(&md).unwrap();
        assert_eq!(
            (hp.head_counts_kv.as_slice(), hp.head_count_kv),
            (&[3, 1, 3][..], 3)
        );
        assert_eq!(hp.feed_forward_lengths, [64, 64, 128]);
        assert_eq!(hp.feed_forward_length, 128);
        md.insert(
            "llama.attention.head_count_kv".into(),
            per_layer(&[3, 2, 3]),
        );
        let err = Hparams::from_metadata(&md).unwrap_err().to_string();
        assert!(err.contains("2 K/V heads do not divide 9"), "{err}");
        md.insert("llama.attention.head_count_kv".into(), per_layer(&[3, 3]));
        let err = Hparams::from_metadata(&md).unwrap_err().to_string();
        assert!(err.contains("2 entries for 3 layers"), "{err}");
    }

    #[test]
    fn missing_key_is_named() {
        let mut md = smollm2_like();
        md.insert(
            "general.architecture".into(),
            MetadataValue::String("qwen2".into()),
        );
        let err = Hparams::from_metadata(&md).unwrap_err();
        assert_eq!(
            err.to_string(),
            "metadata key \"qwen2.block_count\" is missing"
        );
    }

    #[test]
    fn wrong_type_is_named() {
        let mut md = smollm2_like();
        md.insert(
            "llama.attention.head_count".into(),
            MetadataValue::String("9".into()),
        );
        let err = Hparams::from_metadata(&md).unwrap_err();
        assert!(
            matches!(err, GgufError::WrongType { ref key, .. } if key == "llama.attention.head_count")
        );
    }

    #[test]
    fn rope_scaling_is_read() {
        let mut md = smollm2_like();
        md.insert(
            "llama.rope.scaling.type".into(),
            MetadataValue::String("yarn".into()),
        );
        md.insert("llama.rope.scaling.factor".into(), MetadataValue::F32(4.0));
        let hp = Hparams::from_metadata(&md).unwrap();
        let scaling = hp.rope_scaling.unwrap();
        assert_eq!(scaling.kind, RopeScalingKind::Yarn);
        assert_eq!(scaling.factor, 4.0);

        md.insert(
            "llama.rope.scaling.type".into(),
            MetadataValue::String("bogus".into()),
        );
        assert!(Hparams::from_metadata(&md).is_err());
    }

    #[test]
    fn zero_heads_is_an_error_not_a_division_by_zero() {
        let mut md = smollm2_like();
        md.insert(
            "llama.attention.head_count_kv".into(),
            MetadataValue::U32(0),
        );
        assert!(Hparams::from_metadata(&md).is_err());
        md.insert("llama.attention.head_count".into(), MetadataValue::U32(0));
        assert!(Hparams::from_metadata(&md).is_err());
    }

    /// Sizes a hostile file sets huge are refused by name, before the loader allocates or
    /// multiplies by them (each would abort or overflow otherwise).
    #[test]
    fn huge_sizes_are_refused_by_name() {
        for (key, value) in [
            ("llama.block_count", u64::from(u32::MAX)),
            ("llama.embedding_length", 1 << 40),
            ("llama.feed_forward_length", 1 << 40),
            ("llama.context_length", 1 << 36),
            ("llama.attention.head_count", 1 << 20),
            ("llama.attention.key_length", 1 << 30),
            ("llama.attention.value_length", 1 << 30),
            ("llama.vocab_size", 1 << 40),
        ] {
            let mut md = smollm2_like();
            md.insert(key.into(), MetadataValue::U64(value));
            let err = Hparams::from_metadata(&md).unwrap_err().to_string();
            assert!(
                err.contains(key) && err.contains("exceeds the largest allowed"),
                "{key}: {err}"
            );
        }
        // Real models' sizes pass: a long context and a wide feed-forward.
        let mut md = smollm2_like();
        md.insert("llama.context_length".into(), MetadataValue::U32(1 << 20));
        md.insert(
            "llama.feed_forward_length".into(),
            MetadataValue::U32(53_248),
        );
        assert!(Hparams::from_metadata(&md).is_ok());
    }
}
