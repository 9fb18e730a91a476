//! From a `radixserve.v1.GenerateRequest` to the engine's request: tokenize the input (text,
//! or chat turns through the model's chat template), fill unset sampling parameters with the
//! engine's defaults, and place the request in the caller's namespace; the same for an
//! `EmbedRequest`.

use crate::grammar::GrammarSpec;
use crate::handle::{EngineHandle, GenerateRequest, PromptInput, MAX_SAMPLES};
use crate::sampling::SamplingParams;
use crate::server::adapters::{usable_adapter, usable_adapters};
use crate::tenants::Caller;
use crate::tokenizer::ChatMessage;
use proto::v1 as pb;
use proto::v1::embed_request::Input as EmbedInput;
use proto::v1::generate_request::Input;
use std::time::Instant;
use tonic::Status;

/// Request ids are echoed in every response and logged: keep them short.
const MAX_REQUEST_ID_BYTES: usize = 256;
/// A request ready for [`EngineHandle::submit`].
pub(super) struct Prepared {
    pub request: GenerateRequest,
    /// Samples of the prompt (`n`).
    pub samples: u32,
}

/// Validates and converts `request`. Range checks of the sampling parameters are left to
/// `submit`, which knows the vocabulary and the context.
pub(super) async fn prepare(
    engine: &EngineHandle,
    caller: &Caller,
    request: pb::GenerateRequest,
    deadline: Option<Instant>,
) -> Result<Prepared, Status> {
    let rid = request_id(request.request_id)?;
    // Registered before the prompt is built and the grammar compiles: an `Abort` by the
    // id meanwhile ends the request before it is queued.
    let call =
        (engine.open_call(caller.tenant, rid.as_deref())).map_err(super::status::from_submit)?;
    let input_ids = match request.input {
        None => {
            return Err(Status::invalid_argument(
                "the request has no input: set one of text, chat or token_ids",
            ))
        }
        Some(Input::TokenIds(ids)) => PromptInput::Tokens(ids.ids),
        Some(Input::Text(text)) => PromptInput::Text(text),
        Some(Input::Chat(chat)) if chat.messages.is_empty() => {
            return Err(Status::invalid_argument("chat.messages is empty"))
        }
        Some(Input::Chat(chat)) => PromptInput::chat(
            chat.messages
                .into_iter()
                .map(|m| ChatMessage::new(m.role, m.content))
                .collect(),
        ),
    };
    let input_ids = engine
        .build_prompt(input_ids, caller.tenant)
        .await
        .map_err(super::status::from_submit)?;
    let explicit = request
        .sampling_params
        .as_ref()
        .is_some_and(|p| p.max_new_tokens.is_some());
    let samples = request
        .sampling_params
        .as_ref()
        .and_then(|p| p.n)
        .unwrap_or(1);
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(Status::invalid_argument(format!(
            "n must be between 1 and {MAX_SAMPLES}, got {samples}"
        )));
    }
    let spec = grammar_spec(request.sampling_params.as_ref())?;
    let mut params = sampling_params(request.sampling_params);
    params.skip_special_tokens = request.skip_special_tokens.unwrap_or(true);
    let mut generate = GenerateRequest::new(input_ids, params);
    generate.max_new_tokens_explicit = explicit;
    generate.rid = Some(call.rid().to_string());
    generate.call = Some(call);
    generate.namespace = caller.namespace_for(request.cache_salt.as_deref());
    generate.namespace.adapter = adapter_named(
        engine,
        caller,
        request.lora_adapter.as_deref(),
        "lora_adapter",
    )?;
    generate.tenant = caller.tenant;
    generate.deadline = deadline;
    if let Some(spec) = spec {
        // Bad parameters and the tenant's limits refuse it before the costly compile.
        let cost = engine
            .precheck_group(std::slice::from_ref(&generate), samples)
            .map_err(super::status::from_submit)?;
        let constraint = engine
            .compile_grammar(spec, generate.namespace.clone(), caller.tenant, cost)
            .await
            .map_err(super::status::from_submit)?;
        generate.constraint = Some(constraint);
    }
    Ok(Prepared {
        request: generate,
        samples,
    })
}

/// The engine's embedding request for `request` (its `dimensions` are the caller's to apply).
pub(super) async fn prepare_embedding(
    engine: &EngineHandle,
    caller: &Caller,
    request: pb::EmbedRequest,
    deadline: Option<Instant>,
) -> Result<GenerateRequest, Status> {
    let rid = request_id(request.request_id)?;
    let call =
        (engine.open_call(caller.tenant, rid.as_deref())).map_err(super::status::from_submit)?;
    let input = match request.input {
        None => {
            return Err(Status::invalid_argument(
                "the request has no input: set one of text or token_ids",
            ))
        }
        Some(EmbedInput::Text(text)) => PromptInput::Text(text),
        Some(EmbedInput::TokenIds(ids)) => PromptInput::Tokens(ids.ids),
    };
    let input_ids = engine
        .build_prompt(input, caller.tenant)
        .await
        .map_err(super::status::from_submit)?;
    let mut embed = GenerateRequest::embedding(input_ids);
    embed.rid = Some(call.rid().to_string());
    embed.call = Some(call);
    embed.namespace = caller.namespace_for(request.cache_salt.as_deref());
    embed.namespace.adapter = adapter_named(
        engine,
        caller,
        request.lora_adapter.as_deref(),
        "lora_adapter",
    )?;
    embed.tenant = caller.tenant;
    embed.deadline = deadline;
    Ok(embed)
}

/// An empty id counts as unset (some clients cannot leave a field out).
pub(super) fn request_id(id: Option<String>) -> Result<Option<String>, Status> {
    match id {
        Some(id) if id.len() > MAX_REQUEST_ID_BYTES => Err(Status::invalid_argument(format!(
            "request_id has {} bytes; at most {MAX_REQUEST_ID_BYTES} are allowed",
            id.len()
        ))),
        Some(id) if id.is_empty() => Ok(None),
        id => Ok(id),
    }
}

/// The engine's parameters, each unset field taking [`SamplingParams::default`]'s value.
pub(super) fn sampling_params(params: Option<pb::SamplingParams>) -> SamplingParams {
    let defaults = SamplingParams::default();
    let Some(p) = params else {
        return defaults;
    };
    SamplingParams {
        temperature: p.temperature.unwrap_or(defaults.temperature),
        top_k: p.top_k.unwrap_or(defaults.top_k),
        top_p: p.top_p.unwrap_or(defaults.top_p),
        min_p: p.min_p.unwrap_or(defaults.min_p),
        repetition_penalty: p.repetition_penalty.unwrap_or(defaults.repetition_penalty),
        frequency_penalty: p.frequency_penalty.unwrap_or(defaults.frequency_penalty),
        presence_penalty: p.presence_penalty.unwrap_or(defaults.presence_penalty),
        seed: p.seed.or(defaults.seed),
        max_new_tokens: p.max_new_tokens.unwrap_or(defaults.max_new_tokens),
        stop_token_ids: p.stop_token_ids,
        stop: p.stop,
        ignore_eos: p.ignore_eos.unwrap_or(defaults.ignore_eos),
        min_new_tokens: p.min_new_tokens.unwrap_or(defaults.min_new_tokens),
        logprobs: p.logprobs.or(defaults.logprobs),
        logit_bias: {
            // A fixed order: the same request gives the same logits.
            let mut bias: Vec<(u32, f32)> = p.logit_bias.into_iter().collect();
            bias.sort_unstable_by_key(|&(id, _)| id);
            bias
        },
        skip_special_tokens: defaults.skip_special_tokens,
        shown_control_tokens: Vec::new(),
        token_ids_logprob: Vec::new(),
    }
}

/// The output constraint of `params`, if any (at most one).
fn grammar_spec(params: Option<&pb::SamplingParams>) -> Result<Option<GrammarSpec>, Status> {
    let Some(p) = params else {
        return Ok(None);
    };
    let mut specs = Vec::new();
    if let Some(text) = &p.json_schema {
        let schema = serde_json::from_str(text)
            .map_err(|e| Status::invalid_argument(format!("json_schema is not valid JSON: {e}")))?;
        specs.push(GrammarSpec::JsonSchema(schema));
    }
    if p.json_object == Some(true) {
        specs.push(GrammarSpec::JsonObject);
    }
    specs.extend(p.regex.clone().map(GrammarSpec::Regex));
    specs.extend(p.ebnf.clone().map(GrammarSpec::Ebnf));
    specs.extend(p.lark.clone().map(GrammarSpec::Lark));
    if specs.len() > 1 {
        return Err(Status::invalid_argument(
            "set at most one of json_schema, json_object, regex, ebnf and lark",
        ));
    }
    Ok(specs.pop())
}

/// The number of the LoRA adapter `name` names (`field` of the request), `None` for none; an
/// adapter `caller` may not run counts as not loaded.
pub(super) fn adapter_named(
    engine: &EngineHandle,
    caller: &Caller,
    name: Option<&str>,
    field: &str,
) -> Result<Option<u32>, Status> {
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    usable_adapter(engine, caller, name)
        .map(Some)
        .ok_or_else(|| {
            let served = usable_adapters(engine, caller);
            let loaded: Vec<&str> = served.iter().map(|a| a.name.as_str()).collect();
            Status::invalid_argument(format!(
                "{field}: no LoRA adapter {name:?} is loaded (loaded: [{}])",
                loaded.join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_params_take_the_engine_defaults() {
        assert_eq!(sampling_params(None), SamplingParams::default());
        assert_eq!(
            sampling_params(Some(pb::SamplingParams::default())),
            SamplingParams::default()
        );
    }

    #[test]
    fn zeros_are_values_when_set() {
        let params = sampling_params(Some(pb::SamplingParams {
            temperature: Some(0.0),
            top_p: Some(0.5),
            top_k: Some(0),
            max_new_tokens: Some(7),
            seed: Some(0),
            logprobs: Some(0),
            ignore_eos: Some(true),
            stop: vec!["\n".into()],
            stop_token_ids: vec![2],
            ..Default::default()
        }));
        assert_eq!(params.temperature, 0.0);
        assert_eq!(params.top_p, 0.5);
        assert_eq!(params.max_new_tokens, 7);
        assert_eq!(params.seed, Some(0));
        assert_eq!(params.logprobs, Some(0));
        assert!(params.ignore_eos);
        assert_eq!(params.stop, vec!["\n".to_string()]);
        assert_eq!(params.stop_token_ids, vec![2]);
        assert_eq!(params.repetition_penalty, 1.0);
    }

    #[test]
    fn request_ids() {
        assert_eq!(request_id(None).ok(), Some(None));
        assert_eq!(request_id(Some(String::new())).ok(), Some(None));
        assert_eq!(request_id(Some("a".into())).ok(), Some(Some("a".into())));
        let err = request_id(Some("x".repeat(MAX_REQUEST_ID_BYTES + 1)));
        assert_eq!(
            err.err().map(|s| s.code()),
            Some(tonic::Code::InvalidArgument)
        );
    }
}
