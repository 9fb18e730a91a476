//! Multi-token-prediction layers (`{arch}.nextn_predict_layers`: GLM-4.5, GLM-4.7-Flash,
//! DeepSeek V3 files that keep them): the file's last layers predict further tokens for
//! speculative decoding. The model is the layers before them (llama.cpp's `n_layer`), all
//! that is loaded and run; the others are left in the file.

use super::hparams::Hparams;
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};

/// The layers of the model proper: `block_count` less the prediction layers, at least one.
pub fn trunk_layers(keys: &Keys<'_>, hp: &Hparams) -> Result<usize, ModelError> {
    let key = hp.key("nextn_predict_layers");
    let nextn = keys.optional_usize(&key)?.unwrap_or(0);
    if nextn >= hp.block_count {
        return Err(invalid(
            &key,
            format!("{nextn} prediction layers of {} in all", hp.block_count),
        )
        .into());
    }
    Ok(hp.block_count - nextn)
}
