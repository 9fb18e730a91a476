//! SGLang's `GenerateReqInput` as clients send it to `/generate`, and its sampling
//! parameters in SGLang's names, mapped onto the OpenAI doors' [`SamplingFields`] so that
//! both check and build requests the same way. Unknown sampling parameters are refused
//! (SGLang's `SamplingParams(**dict)` refuses them too); request fields that ask for what
//! this server does not do are refused by name.

use super::super::error::ApiError;
use super::super::protocol::{SamplingFields, Stop};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

/// `POST /generate`.
#[derive(Debug, Deserialize)]
pub struct NativeRequest {
    /// One prompt or a batch (exactly one of `text` and `input_ids`).
    pub text: Option<Value>,
    pub input_ids: Option<Value>,
    /// An object, or one per prompt (then all the same): see [`sampling_of`].
    pub sampling_params: Option<Value>,
    pub rid: Option<Value>,
    pub return_logprob: Option<PerPrompt<bool>>,
    /// Where input logprobs start; -1 (the default): the last prompt token only.
    pub logprob_start_len: Option<PerPrompt<i64>>,
    pub top_logprobs_num: Option<PerPrompt<u32>>,
    /// Tokens whose logprobs every position reports: one list, or one per prompt (all the
    /// same).
    pub token_ids_logprob: Option<PerPrompt<Vec<u32>>>,
    pub return_text_in_logprobs: Option<bool>,
    pub stream: Option<bool>,
    /// The LoRA adapter to run, by name; a batch may give one per prompt (all the same).
    pub lora_path: Option<Value>,
    #[serde(flatten)]
    pub unsupported: NativeUnsupported,
}

/// Fields of SGLang's request that ask for what this server does not do.
#[derive(Debug, Default, Deserialize)]
pub struct NativeUnsupported {
    pub input_embeds: Option<Value>,
    pub image_data: Option<Value>,
    pub audio_data: Option<Value>,
    pub video_data: Option<Value>,
    pub lora_id: Option<Value>,
    pub return_hidden_states: Option<Value>,
    pub custom_logit_processor: Option<Value>,
    pub bootstrap_host: Option<Value>,
    pub data_parallel_rank: Option<Value>,
}

/// A field given once for every prompt, or once per prompt (each the same here).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum PerPrompt<T> {
    One(T),
    Each(Vec<T>),
}

impl<T: PartialEq> PerPrompt<T> {
    /// The one value, or refused when the prompts were given different ones.
    pub fn uniform(self, field: &str) -> Result<T, ApiError> {
        match self {
            PerPrompt::One(v) => Ok(v),
            PerPrompt::Each(mut values) => {
                let first = values.pop().ok_or_else(|| {
                    ApiError::invalid_param(field, format!("{field} is an empty list"))
                })?;
                if values.iter().any(|v| v != &first) {
                    return Err(ApiError::invalid_param(
                        field,
                        format!("{field} must be the same for every prompt of a batch"),
                    ));
                }
                Ok(first)
            }
        }
    }
}

/// SGLang's sampling parameters (`sampling_params.py`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeSampling {
    pub max_new_tokens: Option<u32>,
    pub min_new_tokens: Option<u32>,
    pub temperature: Option<f32>,
    pub top_p: Option<f32>,
    pub top_k: Option<i32>,
    pub min_p: Option<f32>,
    pub frequency_penalty: Option<f32>,
    pub presence_penalty: Option<f32>,
    pub repetition_penalty: Option<f32>,
    pub stop: Option<StopSpec>,
    pub stop_token_ids: Option<Vec<u32>>,
    pub ignore_eos: Option<bool>,
    pub skip_special_tokens: Option<bool>,
    pub spaces_between_special_tokens: Option<bool>,
    pub no_stop_trim: Option<bool>,
    pub n: Option<u32>,
    pub json_schema: Option<String>,
    pub regex: Option<String>,
    pub ebnf: Option<String>,
    pub structural_tag: Option<String>,
    pub logit_bias: Option<HashMap<String, f32>>,
    pub sampling_seed: Option<i64>,
    pub stream_interval: Option<u32>,
    pub custom_params: Option<Value>,
}

/// The sampling parameters of `value` (an object, or a list of equal ones), each unknown
/// or mistyped one named.
pub fn sampling_of(value: Option<Value>) -> Result<NativeSampling, ApiError> {
    let parse = |v: Value| {
        serde_json::from_value::<NativeSampling>(v).map_err(|e| {
            ApiError::invalid_param("sampling_params", format!("sampling_params: {e}"))
        })
    };
    match value {
        None | Some(Value::Null) => Ok(NativeSampling::default()),
        Some(Value::Array(each)) => {
            let each = each.into_iter().map(parse).collect::<Result<Vec<_>, _>>()?;
            PerPrompt::Each(each).uniform("sampling_params")
        }
        Some(one) => parse(one),
    }
}

/// `stop` as a string or a list (comparable, unlike [`Stop`]).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum StopSpec {
    One(String),
    Many(Vec<String>),
}

/// SGLang's default `max_new_tokens`.
pub const DEFAULT_MAX_NEW_TOKENS: u32 = 128;

impl NativeSampling {
    /// The same request in the OpenAI doors' terms; what has no counterpart there is
    /// honoured in its no-op value or refused by name.
    pub fn into_fields(self) -> Result<SamplingFields, ApiError> {
        let refusals = [
            (
                self.spaces_between_special_tokens == Some(false),
                "spaces_between_special_tokens",
                "control tokens are never spaced apart",
            ),
            (
                self.no_stop_trim == Some(true),
                "no_stop_trim",
                "the stop string is never part of the output",
            ),
            (
                self.stream_interval.is_some_and(|i| i > 1),
                "stream_interval",
                "tokens are streamed every step; send 1",
            ),
            (
                self.custom_params.as_ref().is_some_and(|v| !v.is_null()),
                "custom_params",
                "custom sampling parameters are not supported",
            ),
        ];
        if let Some((_, field, why)) = refusals.iter().find(|(set, _, _)| *set) {
            return Err(ApiError::invalid_param(field, format!("{field}: {why}")));
        }
        Ok(SamplingFields {
            max_tokens: self.max_new_tokens,
            temperature: self.temperature,
            top_p: self.top_p,
            top_k: self.top_k,
            min_p: self.min_p,
            frequency_penalty: self.frequency_penalty,
            presence_penalty: self.presence_penalty,
            repetition_penalty: self.repetition_penalty,
            seed: self.sampling_seed,
            stop: self.stop.map(|s| match s {
                StopSpec::One(s) => Stop::One(s),
                StopSpec::Many(v) => Stop::Many(v),
            }),
            stop_token_ids: self.stop_token_ids,
            ignore_eos: self.ignore_eos,
            min_tokens: self.min_new_tokens,
            skip_special_tokens: self.skip_special_tokens,
            n: self.n,
            json_schema: self.json_schema.map(Value::String),
            regex: self.regex,
            ebnf: self.ebnf,
            structural_tag: self.structural_tag.map(Value::String),
            logit_bias: self.logit_bias,
            ..SamplingFields::default()
        })
    }
}

impl NativeUnsupported {
    pub fn refuse(&self) -> Result<(), ApiError> {
        let set = |v: &Option<Value>| {
            v.as_ref().is_some_and(|v| {
                !(v.is_null() || v == &Value::Bool(false) || v == &Value::Array(vec![]))
            })
        };
        let fields = [
            (
                &self.input_embeds,
                "input_embeds",
                "input embeddings are not supported",
            ),
            (
                &self.image_data,
                "image_data",
                "multimodal input is not supported",
            ),
            (
                &self.audio_data,
                "audio_data",
                "multimodal input is not supported",
            ),
            (
                &self.video_data,
                "video_data",
                "multimodal input is not supported",
            ),
            (
                &self.lora_id,
                "lora_id",
                "name the LoRA adapter with lora_path",
            ),
            (
                &self.return_hidden_states,
                "return_hidden_states",
                "hidden states are not returned",
            ),
            (
                &self.custom_logit_processor,
                "custom_logit_processor",
                "custom logit processors are not supported",
            ),
            (
                &self.bootstrap_host,
                "bootstrap_host",
                "prefill/decode disaggregation is not supported",
            ),
        ];
        if let Some((_, field, why)) = fields.iter().find(|(v, _, _)| set(v)) {
            return Err(ApiError::invalid_param(field, format!("{field}: {why}")));
        }
        if matches!(&self.data_parallel_rank, Some(r) if !r.is_null() && r != &Value::from(0)) {
            return Err(ApiError::invalid_param(
                "data_parallel_rank",
                "data_parallel_rank: this server has one rank (0)",
            ));
        }
        Ok(())
    }
}
