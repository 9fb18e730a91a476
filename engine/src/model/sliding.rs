//! Which layers of a family with sliding windows slide, as llama.cpp's `load_swa_pattern`
//! reads `{arch}.attention.sliding_window_pattern`: one flag per layer (the array OLMo 3's
//! converter writes), or a period `n` (layer `i` slides when `i % n < n - 1`; 0: every layer
//! slides), the family's default period where the file says nothing.

use super::hparams::Hparams;
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::{GgufFile, MetadataValue};

/// One flag per layer: whether it slides.
pub fn sliding_layers(
    file: &GgufFile,
    hp: &Hparams,
    default_period: usize,
) -> Result<Vec<bool>, ModelError> {
    let key = hp.key("attention.sliding_window_pattern");
    if let Some(items) = file.metadata().get(&key).and_then(MetadataValue::as_array) {
        let flags: Option<Vec<bool>> = items.iter().map(MetadataValue::as_bool).collect();
        return match flags {
            Some(flags) if flags.len() == hp.block_count => Ok(flags),
            _ => Err(invalid(
                &key,
                format!(
                    "{} entries for {} layers, or not all of them booleans",
                    items.len(),
                    hp.block_count
                ),
            )
            .into()),
        };
    }
    let period = Keys::new(file.metadata())
        .optional_usize(&key)?
        .unwrap_or(default_period);
    Ok((0..hp.block_count)
        .map(|i| period == 0 || i % period < period - 1)
        .collect())
}
