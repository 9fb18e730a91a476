//! OpenAI request fields to the engine's [`SamplingParams`]. Ranges the engine checks itself
//! (temperature, top_p, penalties, ...) are left to `SamplingParams::validate` at submission;
//! here only what the OpenAI API adds: `n`, logprob counts, vLLM's `top_k = -1`.

use super::error::ApiError;
use super::protocol::{SamplingFields, UnsupportedFields};
use crate::grammar::structural_tag::regex_escape;
use crate::grammar::GrammarSpec;
use crate::handle::MAX_SAMPLES;
use crate::sampling::SamplingParams;
use serde_json::Value;

/// The most logprob candidates per token the engine returns.
pub const MAX_TOP_LOGPROBS: u32 = 20;

/// Most prompt log-probability entries (scored tokens times one plus their alternatives)
/// of one response: each is a JSON value built and held at once.
pub const MAX_PROMPT_LOGPROB_ENTRIES: usize = 1 << 18;

/// Refuses prompt log-probabilities of `tokens` tokens (over every choice) with `top`
/// alternatives each when they exceed [`MAX_PROMPT_LOGPROB_ENTRIES`].
pub fn check_prompt_logprobs(tokens: usize, top: u32, param: &str) -> Result<(), ApiError> {
    let entries = tokens.saturating_mul(top as usize + 1);
    if entries > MAX_PROMPT_LOGPROB_ENTRIES {
        return Err(ApiError::invalid_param(
            param,
            format!(
                "prompt logprobs of {tokens} tokens with {top} alternatives each are \
                 {entries} entries; at most {MAX_PROMPT_LOGPROB_ENTRIES} are returned at \
                 once: send fewer or shorter prompts, or fewer alternatives"
            ),
        ));
    }
    Ok(())
}

/// Choices per prompt (`n`, default 1): samples of the prompt, computed once.
pub fn samples_per_prompt(fields: &SamplingFields) -> Result<u32, ApiError> {
    match fields.n {
        None => Ok(1),
        Some(n) if (1..=MAX_SAMPLES).contains(&n) => Ok(n),
        Some(n) => Err(ApiError::invalid_param(
            "n",
            format!("n must be between 1 and {MAX_SAMPLES}, got {n}"),
        )),
    }
}

/// Builds sampling parameters; `default_max_tokens` applies when the request gives none
/// (the engine then caps it at what fits in the context).
pub fn sampling_params(
    fields: &SamplingFields,
    max_tokens: Option<u32>,
    default_max_tokens: u32,
    logprobs: Option<u32>,
) -> Result<SamplingParams, ApiError> {
    refuse_unsupported(&fields.unsupported)?;
    if let Some(n) = logprobs {
        if n > MAX_TOP_LOGPROBS {
            return Err(ApiError::invalid_param(
                "logprobs",
                format!("at most {MAX_TOP_LOGPROBS} top logprobs per token, got {n}"),
            ));
        }
    }
    let top_k = match fields.top_k {
        None | Some(-1) | Some(0) => 0,
        Some(k) if k > 0 => k as u32,
        Some(k) => {
            return Err(ApiError::invalid_param(
                "top_k",
                format!("top_k must be -1 (disabled) or positive, got {k}"),
            ))
        }
    };
    let defaults = SamplingParams::default();
    Ok(SamplingParams {
        temperature: fields.temperature.unwrap_or(defaults.temperature),
        top_k,
        top_p: fields.top_p.unwrap_or(defaults.top_p),
        min_p: fields.min_p.unwrap_or(defaults.min_p),
        repetition_penalty: fields
            .repetition_penalty
            .unwrap_or(defaults.repetition_penalty),
        frequency_penalty: fields
            .frequency_penalty
            .unwrap_or(defaults.frequency_penalty),
        presence_penalty: fields.presence_penalty.unwrap_or(defaults.presence_penalty),
        // Negative seeds are valid in the OpenAI API; any 64 bits do as a seed.
        seed: fields.seed.map(|s| s as u64),
        max_new_tokens: max_tokens.unwrap_or(default_max_tokens),
        stop_token_ids: fields.stop_token_ids.clone().unwrap_or_default(),
        stop: fields
            .stop
            .clone()
            .map(super::protocol::Stop::into_vec)
            .unwrap_or_default(),
        ignore_eos: fields.ignore_eos.unwrap_or(false),
        min_new_tokens: fields.min_tokens.unwrap_or(0),
        logprobs,
        logit_bias: logit_bias(fields)?,
        skip_special_tokens: fields.skip_special_tokens.unwrap_or(true),
        shown_control_tokens: Vec::new(),
        token_ids_logprob: Vec::new(),
    })
}

/// Refuses, by name, an extension of another server that asks for what this one does not
/// do; its no-op values (`false`, `null`, `1.0`, `[]`) pass.
fn refuse_unsupported(fields: &UnsupportedFields) -> Result<(), ApiError> {
    let set = |v: &Option<Value>| {
        v.as_ref()
            .is_some_and(|v| !v.is_null() && v != &Value::Array(vec![]))
    };
    let checks = [
        (
            fields.use_beam_search == Some(true),
            "use_beam_search",
            "beam search is not supported",
        ),
        (
            fields.length_penalty.is_some_and(|p| p != 1.0),
            "length_penalty",
            "beam search is not supported",
        ),
        (
            fields.typical_p.is_some_and(|p| p != 1.0),
            "typical_p",
            "typical sampling is not supported; use top_p or min_p",
        ),
        (
            set(&fields.prompt_logprobs),
            "prompt_logprobs",
            "vLLM's prompt_logprobs are not returned; use echo with logprobs (completions)",
        ),
        (
            set(&fields.allowed_token_ids),
            "allowed_token_ids",
            "use logit_bias or a grammar (regex, json_schema, ebnf) instead",
        ),
        (
            set(&fields.bad_words),
            "bad_words",
            "use logit_bias instead",
        ),
        (
            fields.include_stop_str_in_output == Some(true),
            "include_stop_str_in_output",
            "the stop string is never part of the output",
        ),
        (
            set(&fields.truncate_prompt_tokens),
            "truncate_prompt_tokens",
            "prompts are never truncated; a prompt too long for the context is refused",
        ),
        (
            set(&fields.logits_processors),
            "logits_processors",
            "custom logits processors are not supported",
        ),
        (
            fields.return_hidden_states == Some(true),
            "return_hidden_states",
            "hidden states are not returned",
        ),
    ];
    match checks.iter().find(|(asked, _, _)| *asked) {
        Some((_, param, why)) => Err(ApiError::invalid_param(param, format!("{param}: {why}"))),
        None => Ok(()),
    }
}

/// OpenAI's `logit_bias`: keys are token ids written as strings.
fn logit_bias(fields: &SamplingFields) -> Result<Vec<(u32, f32)>, ApiError> {
    let Some(map) = &fields.logit_bias else {
        return Ok(Vec::new());
    };
    let mut bias: Vec<(u32, f32)> = map
        .iter()
        .map(|(key, &value)| {
            key.trim()
                .parse::<u32>()
                .map(|id| (id, value))
                .map_err(|_| {
                    ApiError::invalid_param("logit_bias", format!("{key:?} is not a token id"))
                })
        })
        .collect::<Result<_, _>>()?;
    // A fixed order: the same request gives the same logits whatever the map's order.
    bias.sort_unstable_by_key(|&(id, _)| id);
    if let Some(pair) = bias.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(ApiError::invalid_param(
            "logit_bias",
            format!("token {} is given twice", pair[0].0),
        ));
    }
    Ok(bias)
}

/// The output constraint a request asks for, if any (at most one).
pub fn grammar_spec(fields: &SamplingFields) -> Result<Option<GrammarSpec>, ApiError> {
    let mut specs = Vec::new();
    if let Some(format) = &fields.response_format {
        specs.extend(response_format(format)?);
    }
    if let Some(schema) = &fields.json_schema {
        let schema = match schema {
            Value::String(text) => serde_json::from_str(text).map_err(|e| {
                ApiError::invalid_param("json_schema", format!("not valid JSON: {e}"))
            })?,
            other => other.clone(),
        };
        specs.push(GrammarSpec::JsonSchema(schema));
    }
    specs.extend(fields.regex.clone().map(GrammarSpec::Regex));
    specs.extend(fields.ebnf.clone().map(GrammarSpec::Ebnf));
    specs.extend(fields.lark.clone().map(GrammarSpec::Lark));
    if let Some(tag) = &fields.structural_tag {
        specs.push(structural_tag(tag, "structural_tag")?);
    }
    if let Some(choices) = &fields.guided_choice {
        specs.push(choice_regex(choices)?);
    }
    if specs.len() > 1 {
        return Err(ApiError::invalid_param(
            "response_format",
            "give at most one of response_format, json_schema, regex, ebnf, lark, \
             structural_tag and guided_choice",
        ));
    }
    Ok(specs.pop())
}

/// vLLM's `guided_choice`: a regex matching exactly one of the strings.
fn choice_regex(choices: &[String]) -> Result<GrammarSpec, ApiError> {
    if choices.is_empty() || choices.iter().any(String::is_empty) {
        return Err(ApiError::invalid_param(
            "guided_choice",
            "guided_choice must list at least one string, none of them empty",
        ));
    }
    let alternatives: Vec<String> = choices.iter().map(|c| regex_escape(c)).collect();
    Ok(GrammarSpec::Regex(format!("({})", alternatives.join("|"))))
}

fn response_format(format: &Value) -> Result<Option<GrammarSpec>, ApiError> {
    let bad = |m: &str| ApiError::invalid_param("response_format", m.to_string());
    match format.get("type").and_then(Value::as_str) {
        Some("text") => Ok(None),
        Some("json_object") => Ok(Some(GrammarSpec::JsonObject)),
        Some("json_schema") => {
            let json_schema = format
                .get("json_schema")
                .ok_or_else(|| bad("json_schema is required with type json_schema"))?;
            // OpenAI's `schema` is optional: without one, any JSON object.
            let Some(schema) = json_schema.get("schema").filter(|s| !s.is_null()) else {
                return Ok(Some(GrammarSpec::JsonObject));
            };
            if !schema.is_object() && !schema.is_boolean() {
                return Err(bad("json_schema.schema must be a JSON schema object"));
            }
            Ok(Some(GrammarSpec::JsonSchema(schema.clone())))
        }
        // SGLang's: the structures and triggers beside the type, or xgrammar's `format`.
        Some("structural_tag") => structural_tag(format, "response_format").map(Some),
        Some(other) => Err(bad(&format!(
            "type {other:?} is not one of text, json_object, json_schema, structural_tag"
        ))),
        None => Err(bad("response_format needs a type")),
    }
}

/// SGLang's structural tag (`tag`, or its JSON text) as the grammar it asks for.
fn structural_tag(tag: &Value, param: &str) -> Result<GrammarSpec, ApiError> {
    let bad = |m: String| ApiError::invalid_param(param, m);
    let parsed;
    let tag = match tag {
        Value::String(text) => {
            parsed = serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
            &parsed
        }
        other => other,
    };
    crate::grammar::structural_tag::lark(tag)
        .map(GrammarSpec::StructuralTag)
        .map_err(bad)
}

/// Whether the client asked for a stream, and for a usage chunk at its end.
pub fn stream_flags(fields: &SamplingFields) -> Result<(bool, bool), ApiError> {
    let stream = fields.stream.unwrap_or(false);
    if !stream && fields.stream_options.is_some() {
        // As OpenAI: options of a stream that is not asked for are a mistake, not a no-op.
        return Err(ApiError::invalid_param(
            "stream_options",
            "stream_options is only allowed when stream is true",
        ));
    }
    let include_usage = stream && fields.stream_options.is_some_and(|o| o.include_usage);
    Ok((stream, include_usage))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guided_choices_match_exactly_their_text() {
        let Ok(GrammarSpec::Regex(rx)) = choice_regex(&["a.b".into(), "(x|y)*".into()]) else {
            panic!("not a regex");
        };
        assert_eq!(rx, r"(a\.b|\(x\|y\)\*)");
    }

    #[test]
    fn a_json_schema_format_without_a_schema_asks_for_any_object() {
        let format = serde_json::json!({"type": "json_schema", "json_schema": {"name": "x"}});
        assert!(matches!(
            response_format(&format),
            Ok(Some(GrammarSpec::JsonObject))
        ));
        let format = serde_json::json!({"type": "json_schema"});
        assert!(response_format(&format).is_err());
    }
}
