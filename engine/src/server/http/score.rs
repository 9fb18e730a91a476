//! SGLang's `POST /v1/score`: for each item, how likely each of `label_token_ids` is as the
//! next token after the query and the item (the item first with `item_first`), as
//! classification and recommendation services ask ("is this review positive: Yes / No").
//!
//! Each (item, label) pair is a request whose prompt ends with the label, scored as the
//! last prompt token and generating nothing: the label's log-probability under the model's
//! distribution over the whole vocabulary, with no sampling parameter in between. With the
//! query first, the first pair runs alone, so that the query is computed once and the other
//! pairs find it in the prefix cache; an item's other labels find the item there too, but
//! for its last token, which is computed again to score the label after it.

use super::adapter::served_model;
use super::error::ApiError;
use super::generate::{accept, collect_all};
use super::response::UsageOut;
use super::HttpState;
use crate::handle::{EngineHandle, GenerateRequest, PromptInput, Usage};
use crate::sampling::SamplingParams;
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// Most (item, label) pairs of one call: each is a request of its own (one that computes
/// its prompt, mostly cached, and nothing more).
pub const MAX_SCORED_PAIRS: usize = 256;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    /// Text, or token ids.
    query: Option<Value>,
    /// With a text query: a string or a list of strings; with token ids: lists of ids.
    items: Option<Value>,
    label_token_ids: Option<Vec<u32>>,
    /// Scores as a distribution over the labels alone (they sum to 1), rather than each
    /// label's probability over the whole vocabulary.
    #[serde(default)]
    apply_softmax: bool,
    #[serde(default)]
    item_first: bool,
    /// The base model's name or a LoRA adapter's (unset: the base model).
    model: Option<String>,
}

/// The query and items, all text or all token ids.
enum ScoreInputs {
    Text(String, Vec<String>),
    Tokens(Vec<u32>, Vec<Vec<u32>>),
}

impl ScoreInputs {
    fn of(query: Option<Value>, items: Option<Value>) -> Result<Self, ApiError> {
        let query = query.ok_or_else(|| ApiError::invalid_param("query", "query is required"))?;
        let items = items.ok_or_else(|| ApiError::invalid_param("items", "items is required"))?;
        let inputs = match query {
            Value::String(query) => {
                let items = match items {
                    Value::String(item) => vec![item],
                    list => serde_json::from_value(list).map_err(|_| {
                        ApiError::invalid_param(
                            "items",
                            "with a text query, items is a string or a list of strings",
                        )
                    })?,
                };
                Self::Text(query, items)
            }
            query => {
                let query: Vec<u32> = serde_json::from_value(query).map_err(|_| {
                    ApiError::invalid_param("query", "query is a string or a list of token ids")
                })?;
                let items = serde_json::from_value(items).map_err(|_| {
                    ApiError::invalid_param(
                        "items",
                        "with a token-id query, items is a list of token-id lists",
                    )
                })?;
                Self::Tokens(query, items)
            }
        };
        if inputs.is_empty() {
            return Err(ApiError::invalid_param("items", "items is empty"));
        }
        Ok(inputs)
    }

    fn len(&self) -> usize {
        match self {
            Self::Text(_, items) => items.len(),
            Self::Tokens(_, items) => items.len(),
        }
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each item's prompt: the query then the item, or the item first.
    async fn prompts(
        self,
        engine: &EngineHandle,
        caller: &Caller,
        item_first: bool,
    ) -> Result<Vec<Vec<u32>>, ApiError> {
        let join = |query: &str, item: &str| {
            if item_first {
                format!("{item}{query}")
            } else {
                format!("{query}{item}")
            }
        };
        let prompts = match self {
            Self::Text(query, items) => {
                let inputs = (items.iter())
                    .map(|item| PromptInput::Text(join(&query, item)))
                    .collect();
                engine.build_prompts(inputs, caller.tenant).await?
            }
            Self::Tokens(query, items) => (items.into_iter())
                .map(|item| {
                    if item_first {
                        [item.as_slice(), &query].concat()
                    } else {
                        [query.as_slice(), &item].concat()
                    }
                })
                .collect(),
        };
        if prompts.iter().any(Vec::is_empty) {
            return Err(ApiError::invalid_param(
                "items",
                "a query and item together are empty: a label needs tokens before it",
            ));
        }
        Ok(prompts)
    }
}

pub async fn score(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, ScoreRequest) = accept(&state, &caller, body).await?;
    let served = served_model(engine, &caller, request.model.as_deref(), None)?;
    let labels = (request.label_token_ids.filter(|l| !l.is_empty())).ok_or_else(|| {
        ApiError::invalid_param(
            "label_token_ids",
            "label_token_ids lists the tokens to score",
        )
    })?;
    let vocab = engine.model_info().vocab_size;
    if let Some(bad) = labels.iter().find(|&&l| l as usize >= vocab) {
        return Err(ApiError::invalid_param(
            "label_token_ids",
            format!("label token id {bad} is outside the vocabulary of {vocab}"),
        ));
    }
    let inputs = ScoreInputs::of(request.query, request.items)?;
    let pairs = inputs.len().saturating_mul(labels.len());
    if pairs > MAX_SCORED_PAIRS {
        return Err(ApiError::invalid_param(
            "items",
            format!(
                "{} items x {} labels are {pairs} pairs to score; at most \
                 {MAX_SCORED_PAIRS} are allowed",
                inputs.len(),
                labels.len()
            ),
        ));
    }
    // Named before the prompts are built, so that an abort of all the tenant's requests
    // reaches them meanwhile.
    let mut calls = engine.open_engine_calls(caller.tenant, pairs)?.into_iter();
    let prompts = inputs.prompts(engine, &caller, request.item_first).await?;
    let mut namespace = caller.namespace_for(None);
    namespace.adapter = served.adapter;
    let mut requests: Vec<GenerateRequest> = Vec::with_capacity(pairs);
    for prompt in &prompts {
        for &label in &labels {
            let mut request = GenerateRequest::new(
                [prompt.as_slice(), &[label]].concat(),
                SamplingParams::greedy(0),
            );
            request.prompt_logprobs_from = Some(u32::try_from(prompt.len()).unwrap_or(u32::MAX));
            request.namespace = namespace.clone();
            request.tenant = caller.tenant;
            if let Some(call) = calls.next() {
                request.attach_call(call);
            }
            requests.push(request);
        }
    }
    // The whole call is checked before any of it runs. The engine's refusals name the
    // prompt or its budget, which here are the items.
    let as_items = |e: ApiError| match e.param.as_deref() {
        Some("prompt" | "max_tokens") => e.with_param("items"),
        _ => e,
    };
    engine
        .precheck_group(&requests, 1)
        .map_err(|e| as_items(e.into()))?;
    // With the query first, one pair alone puts it in the cache for the others.
    let rest = if request.item_first {
        Vec::new()
    } else {
        requests.split_off(1)
    };
    let mut outs = Vec::with_capacity(pairs);
    for wave in [requests, rest].into_iter().filter(|w| !w.is_empty()) {
        let mut streams = (engine.submit_group(wave, 1).await).map_err(|e| as_items(e.into()))?;
        outs.extend(collect_all(&mut streams).await?);
    }
    let mut logprobs = Vec::with_capacity(pairs);
    let mut usage = Usage::default();
    if outs.len() != pairs {
        return Err(ApiError::internal(
            "the engine answered fewer pairs than it was given",
        ));
    }
    let wanted = prompts.iter().flat_map(|_| labels.iter());
    for (out, &label) in outs.iter().zip(wanted) {
        let scored = (out.prompt_logprobs.last())
            .filter(|s| s.token_id == label)
            .ok_or_else(|| ApiError::internal("the engine returned no score for a label"))?;
        logprobs.push(f64::from(scored.logprob));
        let u = out.completion.usage;
        usage.prompt_tokens += u.prompt_tokens;
        usage.cached_tokens += u.cached_tokens;
    }
    let scores: Vec<Vec<f64>> = (logprobs.chunks(labels.len()))
        .map(|item| label_scores(item, request.apply_softmax))
        .collect();
    Ok(Json(json!({
        "object": "scoring",
        "model": served.name,
        "scores": scores,
        "usage": UsageOut::from(usage),
    }))
    .into_response())
}

/// One item's scores from its labels' log-probabilities: each label's probability, or with
/// `softmax` their distribution among the labels alone.
fn label_scores(logprobs: &[f64], softmax: bool) -> Vec<f64> {
    if !softmax {
        return logprobs.iter().map(|lp| lp.exp()).collect();
    }
    let max = logprobs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logprobs.iter().map(|lp| (lp - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_scores_are_probabilities_or_a_distribution_over_the_labels() {
        let logprobs = [0.25f64.ln(), 0.5f64.ln(), 0.05f64.ln()];
        let plain = label_scores(&logprobs, false);
        for (got, want) in plain.iter().zip([0.25, 0.5, 0.05]) {
            assert!((got - want).abs() < 1e-12, "{plain:?}");
        }
        let soft = label_scores(&logprobs, true);
        for (got, want) in soft.iter().zip([0.25 / 0.8, 0.5 / 0.8, 0.05 / 0.8]) {
            assert!((got - want).abs() < 1e-12, "{soft:?}");
        }
        // Far below any f64 exponent: still a distribution.
        let tiny = label_scores(&[-2000.0, -2001.0], true);
        assert!((tiny[0] + tiny[1] - 1.0).abs() < 1e-12 && tiny[0] > tiny[1]);
    }
}
