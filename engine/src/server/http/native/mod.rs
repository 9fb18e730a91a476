//! SGLang's native `POST /generate`, as its own clients, benchmarks and RL frameworks call
//! it: `text` or `input_ids` (one prompt or a batch), `sampling_params` in SGLang's names,
//! `return_logprob` with `logprob_start_len` and `top_logprobs_num`, `stream`. It is built
//! on what `/v1/completions` does (the same checks, samples and prefix sharing); only the
//! names and the answer's shape are SGLang's ([`output`]).

mod output;
mod request;

use super::adapter::served_model;
use super::error::ApiError;
use super::generate::{
    accept, check_choice_count, collect_all_partial, submit_choices, ChoiceSpec,
};
use super::params::{
    check_prompt_logprobs, grammar_spec, samples_per_prompt, sampling_params,
    MAX_PROMPT_LOGPROB_ENTRIES, MAX_TOP_LOGPROBS,
};
use super::protocol::{prompt_inputs, Prompt};
use super::sse::sse_response;
use super::HttpState;
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use output::{Answer, ChoiceOutput, LogprobShape, NativeChunks};
use request::{sampling_of, NativeRequest, PerPrompt, DEFAULT_MAX_NEW_TOKENS};
use serde_json::Value;
use std::sync::Arc;

pub async fn generate(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, NativeRequest) = accept(&state, &caller, body).await?;
    request.unsupported.refuse()?;
    let (lora_path, lora_path_count) = one_lora_path(request.lora_path)?;
    let served = served_model(engine, &caller, None, lora_path.as_ref())?;
    let (prompt, field, single) = prompt_of(request.text, request.input_ids)?;
    let fields = sampling_of(request.sampling_params)?.into_fields()?;
    let uniform = |v: Option<PerPrompt<bool>>, field| v.map(|v| v.uniform(field)).transpose();
    let want_logprobs = uniform(request.return_logprob, "return_logprob")?.unwrap_or(false);
    let start = match request.logprob_start_len {
        Some(v) => v.uniform("logprob_start_len")?,
        None => -1,
    };
    let top = match request.top_logprobs_num {
        Some(v) => v.uniform("top_logprobs_num")?,
        None => 0,
    };
    if top > MAX_TOP_LOGPROBS {
        return Err(ApiError::invalid_param(
            "top_logprobs_num",
            format!("at most {MAX_TOP_LOGPROBS} top logprobs per token, got {top}"),
        ));
    }
    if start < -1 {
        return Err(ApiError::invalid_param(
            "logprob_start_len",
            "logprob_start_len must be -1 (the last prompt token) or a prompt position",
        ));
    }
    let mut params = sampling_params(
        &fields,
        fields.max_tokens,
        DEFAULT_MAX_NEW_TOKENS,
        want_logprobs.then_some(top),
    )
    .map_err(|e| sglang_names(e, field))?;
    // Reported with the other logprobs, so only when they are (as SGLang does).
    let given = match request.token_ids_logprob {
        Some(ids) if want_logprobs => ids.uniform("token_ids_logprob")?,
        _ => Vec::new(),
    };
    params.token_ids_logprob = given.clone();
    let samples = samples_per_prompt(&fields)?;
    let grammar = grammar_spec(&fields)?;
    let inputs = prompt_inputs(prompt, field)?;
    if lora_path_count.is_some_and(|n| n != 1 && n != inputs.len()) {
        return Err(ApiError::invalid_param(
            "lora_path",
            format!(
                "lora_path: one adapter, or one per prompt ({})",
                inputs.len()
            ),
        ));
    }
    check_choice_count(inputs.len(), samples)?;
    // Each output token carries a value per given token: bounded as prompt logprobs are.
    let values = (inputs.len() * samples as usize)
        .saturating_mul(params.max_new_tokens as usize)
        .saturating_mul(given.len());
    if values > MAX_PROMPT_LOGPROB_ENTRIES {
        return Err(ApiError::invalid_param(
            "token_ids_logprob",
            format!(
                "{} given tokens over up to {} output tokens of {} choices are {values} \
                 values; at most {MAX_PROMPT_LOGPROB_ENTRIES} are returned at once",
                given.len(),
                params.max_new_tokens,
                inputs.len() * samples as usize
            ),
        ));
    }
    // Each prompt's id taken before its prompt is built: an abort by it from now on ends
    // the request, queued or not.
    let calls = (rids_of(request.rid, inputs.len())?.into_iter())
        .map(|rid| engine.open_call(caller.tenant, rid.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let prompts = (engine.build_prompts(inputs, caller.tenant).await)
        .map_err(|e| sglang_names(ApiError::from(e), field))?;
    // Input logprobs from `start` (-1: the last prompt token), checked against each prompt.
    let mut input_ids = Vec::with_capacity(prompts.len());
    for ids in &prompts {
        if ids.is_empty() {
            return Err(ApiError::invalid_param(field, "the prompt is empty"));
        }
        let from = if start < 0 {
            ids.len() - 1
        } else {
            start as usize
        };
        if from >= ids.len() {
            return Err(ApiError::invalid_param(
                "logprob_start_len",
                format!(
                    "logprob_start_len {start} is past the prompt's {} tokens",
                    ids.len()
                ),
            ));
        }
        input_ids.push(ids[from..].to_vec());
    }
    if want_logprobs {
        let scored = input_ids.iter().map(Vec::len).sum::<usize>() * samples as usize;
        let alternatives = top.saturating_add(u32::try_from(given.len()).unwrap_or(u32::MAX));
        let param = match given.is_empty() {
            true => "top_logprobs_num",
            false => "token_ids_logprob",
        };
        check_prompt_logprobs(scored, alternatives, param)?;
    }
    let prompt_tokens = prompts.iter().map(|p| p.len() as u32).collect();
    let max_new = params.max_new_tokens;
    // Scored from one past `start` (SGLang's first input logprob is null); a request that
    // generates nothing computes its prompt alone.
    let prompt_logprobs_from = match (want_logprobs && start >= 0, max_new) {
        (true, _) => Some(start as u32 + 1),
        (false, 0) => Some(u32::MAX),
        (false, _) => None,
    };
    let prompt_count = prompts.len();
    let spec = ChoiceSpec {
        params,
        max_tokens_explicit: fields.max_tokens.is_some(),
        fields: &fields,
        grammar,
        samples,
        prompt_logprobs_from,
        history_len: None,
        calls,
        adapter: served.adapter,
    };
    let mut streams = (submit_choices(engine, &caller, prompts, spec).await)
        .map_err(|e| sglang_names(e, field))?;
    let n = samples as usize;
    let answer = Answer {
        engine: engine.clone(),
        logprobs: want_logprobs.then_some(LogprobShape {
            top: top as usize,
            given: !given.is_empty(),
            text: request.return_text_in_logprobs.unwrap_or(false),
        }),
        input_ids,
        prompt_tokens,
        samples: n,
        batch: !single || n > 1,
    };
    let rids: Vec<String> = streams.iter().map(|s| s.rid.clone()).collect();
    if request.stream.unwrap_or(false) {
        let choices = prompt_count * n;
        let formatter = NativeChunks {
            answer,
            rids,
            outputs: std::iter::repeat_with(ChoiceOutput::default)
                .take(choices)
                .collect(),
            input_sent: vec![false; choices],
            sent_tokens: vec![0; choices],
        };
        return Ok(sse_response(streams, n, formatter));
    }
    let outs = collect_all_partial(&mut streams).await?;
    let choices: Vec<Value> = (outs.into_iter().enumerate())
        .map(|(i, out)| {
            let output = ChoiceOutput {
                text: out.text,
                output_ids: out.token_ids,
                logprobs: out.logprobs,
                prompt_logprobs: out.prompt_logprobs,
            };
            let rid = rids.get(i).map_or("", String::as_str);
            answer.choice(i, rid, &output, (Some(&out.completion), true))
        })
        .collect();
    // A single prompt with one sample answers an object; anything else a list.
    let body = match (answer.batch, choices.len()) {
        (false, 1) => choices.into_iter().next().unwrap_or(Value::Null),
        _ => Value::Array(choices),
    };
    Ok(Json(body).into_response())
}

/// An error naming a parameter by its OpenAI name, named by SGLang's (the prompt by the
/// field it came in).
fn sglang_names(error: ApiError, prompt_field: &str) -> ApiError {
    let name = match error.param.as_deref() {
        Some("prompt") => prompt_field,
        Some("max_tokens") => "max_new_tokens",
        Some("min_tokens") => "min_new_tokens",
        Some("seed") => "sampling_seed",
        Some("logprobs") => "top_logprobs_num",
        _ => return error,
    };
    error.with_param(name)
}

/// Request ids are echoed and logged: kept short.
const MAX_RID_BYTES: usize = 256;

/// The client's request id of each prompt (`None`: the engine names it; so does an empty
/// id, as on the gRPC doors): one string for a single prompt, one per prompt for a batch.
fn rids_of(rid: Option<Value>, prompts: usize) -> Result<Vec<Option<String>>, ApiError> {
    let rids: Vec<String> = match rid {
        None | Some(Value::Null) => return Ok(vec![None; prompts]),
        Some(Value::String(rid)) if prompts == 1 => vec![rid],
        Some(list @ Value::Array(_)) => serde_json::from_value(list)
            .ok()
            .filter(|l: &Vec<String>| l.len() == prompts)
            .ok_or_else(|| {
                ApiError::invalid_param("rid", format!("rid must list {prompts} strings"))
            })?,
        Some(_) => {
            return Err(ApiError::invalid_param(
                "rid",
                "rid must be a string (one prompt) or a list of strings (a batch)",
            ))
        }
    };
    if rids.iter().any(|r| r.len() > MAX_RID_BYTES) {
        return Err(ApiError::invalid_param(
            "rid",
            format!("a rid has at most {MAX_RID_BYTES} bytes"),
        ));
    }
    Ok(rids
        .into_iter()
        .map(|r| (!r.is_empty()).then_some(r))
        .collect())
}

/// The prompt (exactly one of `text` and `input_ids`), the field it came in, and whether
/// it is a single prompt rather than a batch.
fn prompt_of(
    text: Option<Value>,
    input_ids: Option<Value>,
) -> Result<(Prompt, &'static str, bool), ApiError> {
    let (value, field) = match (text, input_ids) {
        (Some(text), None) => (text, "text"),
        (None, Some(ids)) => (ids, "input_ids"),
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid(
                "give either text or input_ids, not both".to_string(),
            ))
        }
        (None, None) => {
            return Err(ApiError::invalid_param(
                "text",
                "the request has neither text nor input_ids",
            ))
        }
    };
    let prompt: Prompt = serde_json::from_value(value).map_err(|_| {
        ApiError::invalid_param(
            field,
            format!("{field} must be a string, a list of token ids, or a list of either"),
        )
    })?;
    let single = matches!(prompt, Prompt::Text(_) | Prompt::Tokens(_));
    Ok((prompt, field, single))
}

/// The one adapter a request's `lora_path` names: a name, or a list of one per prompt that
/// all name the same (a batch runs one model here); and the list's length, if a list.
fn one_lora_path(lora_path: Option<Value>) -> Result<(Option<Value>, Option<usize>), ApiError> {
    match lora_path {
        Some(Value::Array(names)) => {
            let first = names.first().cloned();
            if names.iter().any(|n| Some(n) != first.as_ref()) {
                return Err(ApiError::invalid_param(
                    "lora_path",
                    "lora_path: every prompt of a batch must run the same adapter here; send \
                     one request per adapter",
                ));
            }
            Ok((first, Some(names.len())))
        }
        other => Ok((other, None)),
    }
}
