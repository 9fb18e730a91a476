//! Qwen1.5-MoE and Qwen2-57B-A14B (`qwen2moe`): Qwen2's attention (Q/K/V biases, NeoX RoPE)
//! and in every layer `expert_count` experts of `expert_feed_forward_length`
//! (`feed_forward_length / expert_used_count` where 0 or absent), chosen by softmax and not
//! renormalized, beside one shared expert of `expert_shared_feed_forward_length`
//! (`feed_forward_length` where 0 or absent) whose output each token scales by
//! `sigmoid(x . ffn_gate_inp_shexp)`, as llama.cpp's graph runs them. llama.cpp's graph
//! takes no `expert_weights_*` keys for this family, and neither does the loader.

use super::hparams::Hparams;
use super::moe;
use super::weights::{LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::Keys;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "qwen2moe";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    let config = ModelConfig::from_hparams(&hp, file)?;
    let rope = rope::declared(file, &hp, RopeStyle::Neox)?;
    let plan = LayerPlan {
        qkv_bias: true,
        moe: Some(moe::qwen_experts(&keys, &hp, false)?),
        ..LayerPlan::default()
    };
    Weights::load(file, config, vec![rope], |_| plan)
}
