//! Ministral 3 (`mistral3`; the text model of Mistral's vision files): Llama's layer (RoPE
//! over adjacent pairs, optional Q/K/V and attention output biases) stretched by YaRN with the file's
//! own betas (`rope.scaling.yarn_beta_fast`/`_slow`) and magnitude
//! (`rope.scaling.yarn_log_multiplier`), and queries scaled by their position
//! (`attention.temperature_scale`, stepping every `rope.scaling.original_context_length`
//! positions; see `temperature`), as llama.cpp's graph runs them. Files with experts
//! (`expert_count`) route as Mixtral's; MLP biases are refused.

use super::hparams::Hparams;
use super::moe;
use super::rope::{self, Stretch};
use super::temperature::AttentionTemperature;
use super::weights::{LayerPlan, Weights};
use super::{LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "mistral3";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let config = ModelConfig::from_hparams(&hp, file)?;
    if let Some(bias) = ["ffn_gate", "ffn_up", "ffn_down"]
        .iter()
        .map(|p| format!("blk.0.{p}.bias"))
        .find(|name| file.tensor(name).is_some())
    {
        return Err(ModelError::Unsupported(format!("MLP biases ({bias})")));
    }
    let stretch = with_declared_betas(file, &hp, rope::declared_stretch(file, &hp)?)?;
    let rope = rope::rope_for(file, &hp, RopeStyle::Normal, hp.rope_freq_base, stretch)?;
    let rope = rope::with_yarn_log_multiplier(file, &hp, rope, stretch)?;
    // llama.cpp steps the temperature by the context YaRN was trained on (n_ctx_orig_yarn).
    let temperature = AttentionTemperature::declared(
        file,
        &hp,
        &hp.key("rope.scaling.original_context_length"),
        Some(hp.context_length),
    )?;
    // Biases are the file's choice, as llama.cpp reads them.
    let plan = LayerPlan {
        qkv_bias: file.tensor("blk.0.attn_q.bias").is_some(),
        attn_output_bias: file.tensor("blk.0.attn_output.bias").is_some(),
        moe: moe::mlp_wide_experts(file, &hp)?,
        temperature,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}

/// `stretch` with YaRN's betas as the file gives them (llama.cpp's defaults otherwise).
fn with_declared_betas(
    file: &GgufFile,
    hp: &Hparams,
    stretch: Stretch,
) -> Result<Stretch, ModelError> {
    let Stretch::Yarn {
        mut yarn,
        attn_factor,
    } = stretch
    else {
        return Ok(stretch);
    };
    let keys = Keys::new(file.metadata());
    for (name, beta) in [
        ("rope.scaling.yarn_beta_fast", &mut yarn.beta_fast),
        ("rope.scaling.yarn_beta_slow", &mut yarn.beta_slow),
    ] {
        let key = hp.key(name);
        if let Some(value) = keys.optional_f32(&key)? {
            if !(value.is_finite() && value > 0.0) {
                return Err(invalid(&key, format!("{value} is not positive")).into());
            }
            *beta = value;
        }
    }
    Ok(Stretch::Yarn { yarn, attn_factor })
}
