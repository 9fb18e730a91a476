//! What a file says of its experts: how many, how many a token uses, how wide, the shared
//! ones and the routing, read from the `{arch}.expert_*` keys as llama.cpp reads them, checked
//! before any tensor is sized by them.

use super::super::hparams::Hparams;
use super::super::ModelError;
use super::{Gating, MoePlan, Routing};
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;

/// The most experts a layer may have (llama.cpp's `LLAMA_MAX_EXPERTS`): a hostile count is
/// refused before anything is sized by it.
pub const MAX_EXPERTS: usize = 512;

/// Checks `{arch}.expert_count` and `{arch}.expert_used_count` before any tensor is read:
/// at least one expert, at most [`MAX_EXPERTS`], and no more used per token than there are.
pub fn check_expert_counts(hp: &Hparams, experts: usize, top_k: usize) -> Result<(), ModelError> {
    let count_key = hp.key("expert_count");
    if experts == 0 || experts > MAX_EXPERTS {
        return Err(invalid(
            &count_key,
            format!("{experts} experts; a layer may have 1 to {MAX_EXPERTS}"),
        )
        .into());
    }
    if top_k == 0 || top_k > experts {
        return Err(invalid(
            &hp.key("expert_used_count"),
            format!("{top_k} of {experts} experts used per token"),
        )
        .into());
    }
    Ok(())
}

/// The experts of a family whose every layer has them: `{arch}.expert_count` and
/// `{arch}.expert_used_count`, both required and checked.
pub fn expert_counts(keys: &Keys<'_>, hp: &Hparams) -> Result<(usize, usize), ModelError> {
    let experts = keys.required_usize(&hp.key("expert_count"))?;
    let top_k = keys.required_usize(&hp.key("expert_used_count"))?;
    check_expert_counts(hp, experts, top_k)?;
    Ok((experts, top_k))
}

/// Qwen's experts in every layer (Qwen1.5-MoE, Qwen3.5-MoE, Qwen3-Next): `expert_count`
/// experts of `expert_feed_forward_length` (`feed_forward_length / expert_used_count` where 0
/// or absent), chosen by softmax (renormalized where `normalize`), beside one shared expert
/// of `expert_shared_feed_forward_length` (`feed_forward_length` where 0 or absent) scaled
/// per token by `sigmoid(x . ffn_gate_inp_shexp)`, as llama.cpp reads them.
pub fn qwen_experts(keys: &Keys<'_>, hp: &Hparams, normalize: bool) -> Result<MoePlan, ModelError> {
    let (experts, top_k) = expert_counts(keys, hp)?;
    let width = |key: &str, default: usize| -> Result<usize, ModelError> {
        Ok(match keys.optional_usize(&hp.key(key))? {
            None | Some(0) => default,
            Some(ffn) => ffn,
        })
    };
    Ok(MoePlan {
        experts,
        top_k,
        ffn: width("expert_feed_forward_length", hp.feed_forward_length / top_k)?,
        routing: Routing {
            normalize,
            ..Routing::default()
        },
        shared_ffn: Some(width(
            "expert_shared_feed_forward_length",
            hp.feed_forward_length,
        )?),
        shared_gate: true,
        ..MoePlan::default()
    })
}

/// The experts a file declares (`{arch}.expert_count`, if more than 0), each as wide as the
/// dense MLP (`feed_forward_length`), with SwiGLU and no biases: Mixtral's, Granite MoE's.
pub fn mlp_wide_experts(file: &GgufFile, hp: &Hparams) -> Result<Option<MoePlan>, ModelError> {
    let keys = Keys::new(file.metadata());
    match keys.optional_usize(&hp.key("expert_count"))? {
        Some(experts) if experts > 0 => {
            let top_k = keys.required_usize(&hp.key("expert_used_count"))?;
            check_expert_counts(hp, experts, top_k)?;
            Ok(Some(MoePlan {
                experts,
                top_k,
                ffn: hp.feed_forward_length,
                ..MoePlan::default()
            }))
        }
        _ => Ok(None),
    }
}

/// `{arch}.expert_gating_func` as llama.cpp numbers it (1 softmax, 2 sigmoid); `None` where
/// absent or 0 (llama.cpp's "none given"), a code it does not know refused by name.
fn declared_gating(keys: &Keys<'_>, hp: &Hparams) -> Result<Option<Gating>, ModelError> {
    let key = hp.key("expert_gating_func");
    match keys.optional_usize(&key)? {
        None | Some(0) => Ok(None),
        Some(code) => u32::try_from(code)
            .ok()
            .and_then(Gating::from_code)
            .map(Some)
            .ok_or_else(|| invalid(&key, format!("{code} (1 softmax, 2 sigmoid)")).into()),
    }
}

/// [`declared_gating`] for a family whose loader in llama.cpp requires the key.
pub fn required_gating(keys: &Keys<'_>, hp: &Hparams) -> Result<Gating, ModelError> {
    let key = hp.key("expert_gating_func");
    declared_gating(keys, hp)?
        .ok_or_else(|| invalid(&key, "absent or 0: a gating is required".into()).into())
}

/// The experts of a DeepSeek-style layer (DeepSeek, GLM-4.5): `expert_count` experts of
/// `expert_feed_forward_length` (0: `feed_forward_length / expert_used_count`, as llama.cpp's
/// GLM loader takes it) beside `expert_shared_count` shared ones as wide (both keys
/// required, as llama.cpp requires them), routed
/// by `expert_gating_func` (else `default_gating`), `expert_weights_norm`,
/// `expert_weights_scale` and the expert groups (`expert_group_count`,
/// `expert_group_used_count`).
pub fn with_shared_experts(
    keys: &Keys<'_>,
    hp: &Hparams,
    default_gating: Gating,
) -> Result<MoePlan, ModelError> {
    let (experts, top_k) = expert_counts(keys, hp)?;
    let ffn = match keys.required_usize(&hp.key("expert_feed_forward_length"))? {
        0 => hp.feed_forward_length / top_k,
        ffn => ffn,
    };
    let shared = keys.required_usize(&hp.key("expert_shared_count"))?;
    let gating = declared_gating(keys, hp)?.unwrap_or(default_gating);
    let groups = match (
        keys.optional_usize(&hp.key("expert_group_count"))?,
        keys.optional_usize(&hp.key("expert_group_used_count"))?,
    ) {
        (Some(groups), used) if groups > 1 => Some((groups, used.unwrap_or(0))),
        _ => None,
    };
    let scale_key = hp.key("expert_weights_scale");
    let scale = keys.optional_f32(&scale_key)?.unwrap_or(0.0);
    if !scale.is_finite() {
        return Err(invalid(&scale_key, format!("{scale} is not a finite number")).into());
    }
    let routing = Routing {
        gating,
        normalize: keys
            .optional_bool(&hp.key("expert_weights_norm"))?
            .unwrap_or(false),
        scale,
        groups,
        choose_by_logits: false,
    };
    routing
        .validate(experts, top_k)
        .map_err(|e| invalid(&hp.key("expert_group_count"), e.to_string()))?;
    let shared_ffn = match shared {
        0 => None,
        n => Some(ffn.checked_mul(n).ok_or_else(|| {
            invalid(
                &hp.key("expert_shared_count"),
                format!("{n} shared experts"),
            )
        })?),
    };
    Ok(MoePlan {
        experts,
        top_k,
        ffn,
        routing,
        shared_ffn,
        ..MoePlan::default()
    })
}
