//! GLM-4.5, GLM-4.5-Air, GLM-4.6 and GLM-4.7 (`glm4moe`): Q/K/V projections with biases,
//! per-head Q/K norms where the file has them (GLM-4.5's largest model), NeoX RoPE over
//! `rope.dimension_count` of each head's dims (half of them), the norm before the MLP
//! stored as `post_attention_norm`, the first `leading_dense_block_count` layers with a
//! dense MLP and the others a mixture of experts beside shared ones, chosen by sigmoid scores
//! with a selection bias (`exp_probs_b`) and renormalized (see `moe::Routing`). Files keep a
//! multi-token-prediction layer after the model's own (`nextn_predict_layers`), which is not
//! loaded. The vision models' multi-section RoPE is refused.

use super::hparams::Hparams;
use super::moe::{self, Gating, MoePlan};
use super::weights::{LayerPlan, Weights};
use super::{nextn, rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::{GgufFile, MetadataValue};
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "glm4moe";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let sections_key = hp.key("rope.dimension_sections");
    if let Some(MetadataValue::Array(sections)) = file.metadata().get(&sections_key) {
        let zero = |v: &MetadataValue| matches!(v, MetadataValue::I32(0) | MetadataValue::U32(0));
        if !sections.iter().all(zero) {
            return Err(ModelError::Unsupported(format!(
                "multi-section RoPE ({sections_key}: a vision model)"
            )));
        }
    }
    let trunk = Hparams {
        block_count: nextn::trunk_layers(&keys, &hp)?,
        ..hp.clone()
    };
    let config = ModelConfig::from_hparams(&trunk, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let moe = moe::with_shared_experts(&keys, &hp, Gating::Sigmoid)?;
    let dense = keys
        .optional_usize(&hp.key("leading_dense_block_count"))?
        .unwrap_or(0);
    // Biases and Q/K norms are the file's choice, as llama.cpp reads them.
    let qkv_bias = file.tensor("blk.0.attn_q.bias").is_some();
    let qk_norm = file.tensor("blk.0.attn_q_norm.weight").is_some();
    Weights::load(file, config, vec![rope], |i| LayerPlan {
        qkv_bias,
        qk_norm,
        mlp_norm_named_post_attention: true,
        moe: (i >= dense).then_some(MoePlan {
            selection_bias: true,
            ..moe
        }),
        ..LayerPlan::default()
    })
}
