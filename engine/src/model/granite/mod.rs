//! Granite 3.x: Llama's layer with four multipliers: embeddings times
//! `granite.embedding_scale`, scores times `granite.attention.scale` (instead of
//! `1/sqrt(head_dim)`), each layer's attention and MLP output times `granite.residual_scale`
//! before the residual add, and logits divided by `granite.logit_scale`. RoPE over adjacent
//! pairs, unless `granite.rope.scaling.finetuned` is false (then no layer rotates). Granite
//! MoE (`granitemoe`: 1B-A400M, 3B-A800M) is the same layer with a mixture of experts as wide
//! as `feed_forward_length` (Mixtral's routing, see `moe`), and Granite MoE Shared adds shared
//! experts `granitemoe.expert_shared_feed_forward_length` wide. The optional projection biases
//! are refused.

use super::hparams::Hparams;
use super::moe;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "granite";
/// Granite with experts.
pub const MOE_ARCHITECTURE: &str = "granitemoe";

/// Biases some Granite files carry, which this loader does not apply.
const BIASES: [&str; 4] = ["attn_output", "ffn_gate", "ffn_up", "ffn_down"];

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let shared_key = hp.key("expert_shared_feed_forward_length");
    let shared = keys.optional_usize(&shared_key)?.filter(|&n| n > 0);
    let moe = match (moe::mlp_wide_experts(file, &hp)?, shared) {
        (Some(plan), shared) => Some(moe::MoePlan {
            shared_ffn: shared,
            ..plan
        }),
        (None, Some(_)) => {
            return Err(invalid(&shared_key, "shared experts without experts".to_string()).into())
        }
        (None, None) => None,
    };
    let biased = (0..hp.block_count)
        .flat_map(|i| BIASES.map(|part| format!("blk.{i}.{part}.bias")))
        .find(|name| file.tensor(name).is_some());
    if let Some(name) = biased {
        return Err(ModelError::Unsupported(format!(
            "a projection bias ({name}) in a Granite model"
        )));
    }
    let mut config = ModelConfig::from_hparams(&hp, file)?;
    let nonzero = |key: &str| -> Result<Option<f32>, ModelError> {
        Ok(keys.optional_f32(&hp.key(key))?.filter(|v| *v != 0.0))
    };
    config.embedding_scale = nonzero("embedding_scale")?;
    config.residual_scale = nonzero("residual_scale")?;
    config.logit_divisor = nonzero("logit_scale")?;
    config.score_scale = nonzero("attention.scale")?;
    let rotates = keys
        .optional_bool(&hp.key("rope.scaling.finetuned"))?
        .unwrap_or(true);
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    let plan = LayerPlan {
        no_rope: !rotates,
        moe,
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
