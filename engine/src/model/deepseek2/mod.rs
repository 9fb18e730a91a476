//! DeepSeek V2, V2.5, V3 and R1, Kimi K2, GLM-4.7-Flash and the other `deepseek2` files:
//! multi-head latent attention (see `mla`; queries through a low-rank bottleneck where
//! `attention.q_lora_rank` is set, else one projection as in V2-Lite), RoPE on adjacent
//! pairs over `rope.dimension_count` dims per head, the first `leading_dense_block_count`
//! layers with a dense MLP and the others a mixture of experts with shared experts, routed
//! as the file says (softmax or sigmoid gating, a selection bias, expert groups,
//! renormalized and scaled weights; see `moe::Routing`).
//!
//! Files written since the split carry `attention.key_length_mla` / `value_length_mla`
//! (a head's query/key and value sizes) and per-head `attn_k_b` / `attn_v_b`, their
//! `key_length` / `value_length` being the latent row's; older files carry the head sizes
//! in `key_length` / `value_length` and one `attn_kv_b`. Both are served with the latent
//! cache: `kv_lora_rank + rope` values per token and layer. Multi-token-prediction layers
//! (`nextn_predict_layers`) are left out. Mistral Large 3's queries are scaled by their
//! position (`attention.temperature_scale`, stepping every `attention.temperature_length`).

mod scale;

use super::hparams::Hparams;
use super::mla::MlaPlan;
use super::moe::{self, Gating, MoePlan};
use super::temperature::AttentionTemperature;
use super::weights::{LayerPlan, Weights};
use super::{nextn, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;

pub const ARCHITECTURE: &str = "deepseek2";

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    let keys = Keys::new(file.metadata());
    // Mistral Large 3 scales queries by position, stepping every `temperature_length`.
    let temperature_length = hp.key("attention.temperature_length");
    let temperature = AttentionTemperature::declared(file, &hp, &temperature_length, None)?;
    let mla = mla_plan(&keys, &hp, file)?;
    // One K/V head whose rows are the latent ones, read as values too; the layers before
    // any multi-token-prediction ones.
    let latent = Hparams {
        key_length: mla.latent_row(),
        value_length: mla.latent_row(),
        head_count_kv: 1,
        block_count: nextn::trunk_layers(&keys, &hp)?,
        ..hp.clone()
    };
    let mut config = ModelConfig::from_hparams(&latent, file)?;
    config.values_in_keys = true;
    let (rope, score_scale) = scale::rope_and_score_scale(file, &hp, &mla)?;
    config.score_scale = Some(score_scale);
    let gating = match glm_4_7_lite(&latent, file) {
        true => Gating::Sigmoid,
        false => Gating::Softmax,
    };
    let moe = moe::with_shared_experts(&keys, &hp, gating)?;
    let dense = keys
        .optional_usize(&hp.key("leading_dense_block_count"))?
        .unwrap_or(0);
    let file_layers = file;
    Weights::load(file, config, vec![rope], |i| LayerPlan {
        mla: Some(mla),
        temperature,
        moe: (i >= dense).then(|| MoePlan {
            selection_bias: file_layers
                .tensor(&format!("blk.{i}.exp_probs_b.bias"))
                .is_some(),
            ..moe
        }),
        ..LayerPlan::default()
    })
}

/// The latent attention's sizes, from either kind of file.
fn mla_plan(keys: &Keys<'_>, hp: &Hparams, file: &GgufFile) -> Result<MlaPlan, ModelError> {
    let rank_key = hp.key("attention.kv_lora_rank");
    let kv_lora_rank = keys.required_usize(&rank_key)?;
    keys.positive(&rank_key, kv_lora_rank)?;
    keys.at_most(&rank_key, kv_lora_rank, MAX_RANK)?;
    let q_rank_key = hp.key("attention.q_lora_rank");
    let q_lora_rank = keys.optional_usize(&q_rank_key)?.filter(|&r| r > 0);
    if let Some(rank) = q_lora_rank {
        keys.at_most(&q_rank_key, rank, MAX_RANK)?;
    }
    let rope = hp.rope_dimension_count;
    let (k_mla, v_mla) = (
        keys.optional_usize(&hp.key("attention.key_length_mla"))?,
        keys.optional_usize(&hp.key("attention.value_length_mla"))?,
    );
    let (head_k, v_dim, split_kv_b) = match (k_mla, v_mla) {
        (Some(k), Some(v)) => {
            // The cache row the file was written for must be the latent one.
            if hp.key_length != kv_lora_rank + rope {
                return Err(invalid(
                    &hp.key("attention.key_length"),
                    format!(
                        "{} is not kv_lora_rank {kv_lora_rank} + {rope} rotated dims",
                        hp.key_length
                    ),
                )
                .into());
            }
            (k, v, true)
        }
        (None, None) => (hp.key_length, hp.value_length, false),
        _ => {
            return Err(invalid(
                &hp.key("attention.key_length_mla"),
                "key_length_mla and value_length_mla come together".to_string(),
            )
            .into())
        }
    };
    let key_mla = match split_kv_b {
        true => hp.key("attention.key_length_mla"),
        false => hp.key("attention.key_length"),
    };
    if head_k <= rope || head_k > MAX_HEAD || v_dim == 0 || v_dim > MAX_HEAD {
        return Err(invalid(
            &key_mla,
            format!("heads of {head_k} (of which {rope} rotated) and values of {v_dim}"),
        )
        .into());
    }
    // A head's query comes from the bottleneck or straight from the hidden row.
    let q_name = if q_lora_rank.is_some() {
        "attn_q_a"
    } else {
        "attn_q"
    };
    if file.tensor(&format!("blk.0.{q_name}.weight")).is_none() {
        return Err(ModelError::MissingTensor(format!(
            "blk.0.{q_name}.weight (attention.q_lora_rank is {})",
            q_lora_rank.unwrap_or(0)
        )));
    }
    Ok(MlaPlan {
        q_lora_rank,
        kv_lora_rank,
        nope: head_k - rope,
        rope,
        v_dim,
        split_kv_b,
    })
}

/// The largest low-rank bottleneck accepted (DeepSeek V3's are 1,536 and 512).
const MAX_RANK: usize = 1 << 14;
/// The largest head accepted (DeepSeek V3's are 192 and 128).
const MAX_HEAD: usize = 1 << 12;

/// GLM-4.7-Flash's files leave out their sigmoid gating (llama.cpp knows them by shape: 47
/// or 48 layers over a vocabulary of 154,880).
fn glm_4_7_lite(hp: &Hparams, file: &GgufFile) -> bool {
    let vocab = file
        .tensor("token_embd.weight")
        .and_then(|t| t.dims().get(1).copied());
    matches!(hp.block_count, 47 | 48) && vocab == Some(154_880)
}
