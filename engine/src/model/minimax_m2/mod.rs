//! MiniMax-M2 and M2.1 (`minimax-m2`): RMS norms of Q and K over whole rows (not per head),
//! NeoX RoPE over the first `rope.dimension_count` dims of each head (64 of 128), and in
//! every layer `expert_count` experts of `expert_feed_forward_length`, chosen by the scores
//! `expert_gating_func` names (the released files: sigmoid) plus a selection bias
//! (`exp_probs_b`), their weights renormalized, as llama.cpp's graph runs them (it cannot run
//! without the gating key, which the loader requires, and takes no `expert_weights_*` keys for
//! this family, nor does the loader).

use super::hparams::Hparams;
use super::moe::{self, MoePlan, Routing};
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "minimax-m2";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let config = ModelConfig::from_hparams(&hp, file)?;
    let (experts, top_k) = moe::expert_counts(&keys, &hp)?;
    let ffn_key = hp.key("expert_feed_forward_length");
    let ffn = keys.required_usize(&ffn_key)?;
    if ffn == 0 {
        return Err(invalid(&ffn_key, "experts of width 0".into()).into());
    }
    let gating = moe::required_gating(&keys, &hp)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let plan = LayerPlan {
        qk_norm: true,
        whole_qk_norm: true,
        moe: Some(MoePlan {
            experts,
            top_k,
            ffn,
            routing: Routing {
                gating,
                ..Routing::default()
            },
            selection_bias: true,
            ..MoePlan::default()
        }),
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
