//! `POST /v1/completions`: text or token-id prompts (one, or a batch), completed as they are,
//! `n` choices each. With `echo` each choice's text starts with its prompt, and with
//! `logprobs` its prompt tokens are scored too (the first has none: `null`), as evaluation
//! harnesses ask to score continuations; `max_tokens: 0` then scores the prompt alone.

use super::adapter::served_model;
use super::error::ApiError;
use super::generate::{accept, check_choice_count, collect_all, submit_choices, ChoiceSpec};
use super::logprobs::{CompletionLogprobs, CompletionLogprobsBuilder};
use super::params::{
    check_prompt_logprobs, grammar_spec, samples_per_prompt, sampling_params, stream_flags,
};
use super::protocol::{prompt_inputs, CompletionRequest};
use super::response::{CompletionBody, CompletionChoice, ResponseMeta, UsageOut};
use super::sse::{sse_response, ChunkFormatter, Payload};
use super::HttpState;
use crate::handle::{response_usage, Completion, EngineHandle, TokenLogprob, Usage};
use crate::tenants::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use std::sync::Arc;

/// OpenAI's default `max_tokens` for completions.
const DEFAULT_MAX_TOKENS: u32 = 16;

pub async fn completions(
    State(state): State<Arc<HttpState>>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (engine, request): (_, CompletionRequest) = accept(&state, &caller, body).await?;
    let echo = request.echo == Some(true);
    if request.suffix.as_deref().is_some_and(|s| !s.is_empty()) {
        return Err(ApiError::invalid_param("suffix", "suffix is not supported"));
    }
    if request.best_of.is_some_and(|n| n != 1) {
        return Err(ApiError::invalid_param("best_of", "best_of must be 1"));
    }
    let sampling = &request.sampling;
    let served = served_model(
        engine,
        &caller,
        request.model.as_deref(),
        sampling.lora_path.as_ref(),
    )?;
    // Every parameter check before the prompts are built: a batch of many prompts costs
    // tokenizing, and a request refused anyway should not.
    let params = sampling_params(
        sampling,
        sampling.max_tokens,
        DEFAULT_MAX_TOKENS,
        request.logprobs,
    )?;
    let skip_special = params.skip_special_tokens;
    let samples = samples_per_prompt(sampling)?;
    let (stream, include_usage) = stream_flags(sampling)?;
    let grammar = grammar_spec(sampling)?;
    let inputs = prompt_inputs(request.prompt, "prompt")?;
    check_choice_count(inputs.len(), samples)?;
    // Named before the prompts are built, so that an abort of all the tenant's requests
    // reaches them meanwhile.
    let calls = engine.open_engine_calls(caller.tenant, inputs.len())?;
    let prompts = engine
        .build_prompts(inputs, caller.tenant)
        .await
        .map_err(ApiError::from)?;
    let prompt_count = prompts.len();
    // The prompt is scored when its logprobs are echoed; echoed alone (`max_tokens: 0`),
    // it is computed with nothing scored (its cache then serves it whole).
    let prompt_logprobs_from = match (echo, request.logprobs) {
        (true, Some(top)) => {
            let tokens = prompts.iter().map(Vec::len).sum::<usize>() * samples as usize;
            check_prompt_logprobs(tokens, top, "logprobs")?;
            Some(0)
        }
        (true, None) if sampling.max_tokens == Some(0) => Some(u32::MAX),
        _ => None,
    };
    let echoed = if echo { prompts.clone() } else { Vec::new() };
    let spec = ChoiceSpec {
        params,
        max_tokens_explicit: sampling.max_tokens.is_some(),
        fields: sampling,
        grammar,
        samples,
        prompt_logprobs_from,
        history_len: None,
        calls,
        adapter: served.adapter,
    };
    let mut streams = submit_choices(engine, &caller, prompts, spec).await?;
    let rid = streams.first().map(|s| s.rid.clone()).unwrap_or_default();
    let meta = ResponseMeta::new("cmpl", &rid, &served.name);
    let want_logprobs = request.logprobs.is_some();
    let n = samples as usize;
    if stream {
        let formatter = CompletionChunks {
            engine: engine.clone(),
            meta,
            include_usage,
            logprobs: want_logprobs.then(|| {
                std::iter::repeat_with(|| CompletionLogprobsBuilder::new(skip_special))
                    .take(prompt_count * n)
                    .collect()
            }),
            echo: Echo::new(echoed, n, skip_special),
        };
        return Ok(sse_response(streams, n, formatter));
    }
    let outs = collect_all(&mut streams).await?;
    let usages: Vec<_> = outs.iter().map(|o| o.completion.usage).collect();
    let mut echo = Echo::new(echoed, n, skip_special);
    let tokenizer = engine.tokenizer();
    let choices = outs
        .into_iter()
        .enumerate()
        .map(|(i, out)| {
            let mut builder = want_logprobs.then(|| CompletionLogprobsBuilder::new(skip_special));
            let (mut text, mut logprobs) = echo
                .take(tokenizer, i, builder.as_mut(), &out.prompt_logprobs)
                .unwrap_or_default();
            text.push_str(&out.text);
            if let Some(builder) = builder.as_mut() {
                let generated = builder.build(tokenizer, &out.logprobs);
                logprobs
                    .get_or_insert_with(Default::default)
                    .append(generated);
            }
            CompletionChoice {
                index: i as u32,
                logprobs,
                finish_reason: Some(out.completion.finish_reason.as_str()),
                text,
            }
        })
        .collect();
    debug_assert_eq!(usages.len(), prompt_count * n);
    let usage = UsageOut::from(response_usage(&usages, n));
    Ok(Json(CompletionBody::new(&meta, choices, Some(Some(usage)))).into_response())
}

struct CompletionChunks {
    engine: EngineHandle,
    meta: ResponseMeta,
    include_usage: bool,
    /// Each choice's logprobs builder (its own text offsets), when logprobs are asked for.
    logprobs: Option<Vec<CompletionLogprobsBuilder>>,
    echo: Echo,
}

/// The prompts a response echoes (`echo`), each once per choice, at the start of the
/// choice's text (and logprobs).
struct Echo {
    /// Each prompt's ids; empty without `echo`.
    prompts: Vec<Vec<u32>>,
    samples: usize,
    skip_special: bool,
    /// Per choice: its prompt's log-probabilities (streams get them before the first
    /// chunk), and whether its echo was sent.
    scores: Vec<Vec<TokenLogprob>>,
    sent: Vec<bool>,
}

impl Echo {
    fn new(prompts: Vec<Vec<u32>>, samples: usize, skip_special: bool) -> Self {
        let choices = prompts.len() * samples;
        Self {
            prompts,
            samples,
            skip_special,
            scores: vec![Vec::new(); choices],
            sent: vec![false; choices],
        }
    }

    /// Choice `index`'s echo, the first time only: its prompt's text, and with a
    /// `builder` its prompt's logprobs (scored by `scores`, or by those given earlier).
    fn take(
        &mut self,
        tokenizer: &crate::tokenizer::Tokenizer,
        index: usize,
        builder: Option<&mut CompletionLogprobsBuilder>,
        scores: &[TokenLogprob],
    ) -> Option<(String, Option<CompletionLogprobs>)> {
        let prompt = self.prompts.get(index / self.samples.max(1))?;
        let sent = self.sent.get_mut(index)?;
        if std::mem::replace(sent, true) {
            return None;
        }
        let scores = match scores {
            [] => self.scores.get(index).map_or(&[][..], Vec::as_slice),
            given => given,
        };
        // An id outside the vocabulary was refused at submission.
        let text = tokenizer
            .decode(prompt, self.skip_special)
            .unwrap_or_default();
        let logprobs = builder.map(|b| b.build_prompt(tokenizer, prompt, scores));
        Some((text, logprobs))
    }
}

impl CompletionChunks {
    fn body(&self, choices: Vec<CompletionChoice>, usage: Option<UsageOut>) -> Payload {
        let usage = self.include_usage.then_some(usage);
        let body = CompletionBody::new(&self.meta, choices, usage);
        serde_json::to_string(&body).unwrap_or_default().into()
    }
}

impl ChunkFormatter for CompletionChunks {
    fn chunk(
        &mut self,
        index: u32,
        _token_ids: &[u32],
        text: String,
        logprobs: &[TokenLogprob],
    ) -> Vec<Payload> {
        let tokenizer = self.engine.tokenizer();
        let mut builder = self
            .logprobs
            .as_mut()
            .and_then(|builders| builders.get_mut(index as usize));
        let echo = (self.echo).take(tokenizer, index as usize, builder.as_deref_mut(), &[]);
        let generated = match builder {
            Some(builder) if !logprobs.is_empty() => Some(builder.build(tokenizer, logprobs)),
            _ => None,
        };
        let (text, logprobs) = match echo {
            Some((mut echoed, mut prompt_logprobs)) => {
                echoed.push_str(&text);
                if let Some(generated) = generated {
                    prompt_logprobs
                        .get_or_insert_with(Default::default)
                        .append(generated);
                }
                (echoed, prompt_logprobs)
            }
            None if text.is_empty() && generated.is_none() => return Vec::new(),
            None => (text, generated),
        };
        let choice = CompletionChoice {
            index,
            text,
            logprobs,
            finish_reason: None,
        };
        vec![self.body(vec![choice], None)]
    }

    fn prompt_logprobs(&mut self, index: u32, logprobs: Vec<TokenLogprob>) {
        if let Some(scores) = self.echo.scores.get_mut(index as usize) {
            *scores = logprobs;
        }
    }

    fn finish(&mut self, index: u32, completion: &Completion) -> Vec<Payload> {
        // A choice that got no chunk still echoes its prompt first.
        let mut payloads = self.chunk(index, &[], String::new(), &[]);
        let choice = CompletionChoice {
            index,
            text: String::new(),
            logprobs: None,
            finish_reason: Some(completion.finish_reason.as_str()),
        };
        payloads.push(self.body(vec![choice], None));
        payloads
    }

    fn usage(&mut self, usage: Usage) -> Option<Payload> {
        self.include_usage
            .then(|| self.body(Vec::new(), Some(usage.into())))
    }
}
