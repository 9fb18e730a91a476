//! From the SGLang protocol's `GenerateRequest` (token ids in) to the engine's request.
//! Every field is either honoured or, when set to something the engine cannot do, refused
//! with INVALID_ARGUMENT naming it: a gateway must never get a silently different answer.

use crate::grammar::GrammarSpec;
use crate::handle::{EngineHandle, GenerateRequest, MAX_SAMPLES};
use crate::sampling::params::MAX_LOGIT_BIAS;
use crate::sampling::SamplingParams;
use crate::tenants::Caller;
use crate::tokenizer::Thinking;
use proto::sglang::scheduler as pb;
use proto::sglang::scheduler::sampling_params::Constraint;
use std::time::Instant;
use tonic::Status;

/// Request ids are echoed and logged: keep them short.
const MAX_REQUEST_ID_BYTES: usize = 256;

/// A validated request and what its response needs.
pub(super) struct Prepared {
    pub request: GenerateRequest,
    pub stream: bool,
    pub prompt_tokens: u32,
    /// Samples of the prompt (`n`; 0 counts as 1).
    pub samples: u32,
    /// With `require_reasoning`, the token that ends the thinking (the template's close:
    /// `</think>` or `[/THINK]`), when the vocabulary has one: output up to it counts as
    /// reasoning tokens.
    pub think_end: Option<u32>,
    /// The prompt's ids from `logprob_start_len`, when input logprobs are asked for.
    pub input_logprob_ids: Option<Vec<u32>>,
}

pub(super) fn refuse(field: &str, why: &str) -> Status {
    Status::invalid_argument(format!("{field}: {why}"))
}

/// Fields of the request itself that radixserve cannot honour.
fn refuse_unsupported(request: &pb::GenerateRequest) -> Result<(), Status> {
    let unsupported = [
        (
            request.mm_inputs.is_some(),
            "mm_inputs",
            "multimodal input is not supported",
        ),
        (
            request.return_hidden_states,
            "return_hidden_states",
            "hidden states are not returned",
        ),
        (
            !request.token_ids_logprob.is_empty(),
            "token_ids_logprob",
            "logprobs of chosen ids are not returned",
        ),
        (
            request.disaggregated_params.is_some(),
            "disaggregated_params",
            "prefill/decode disaggregation is not supported",
        ),
        (
            !request.custom_logit_processor.is_empty(),
            "custom_logit_processor",
            "custom logit processors are not supported",
        ),
        (
            !request.input_embeds.is_empty(),
            "input_embeds",
            "input embeddings are not supported",
        ),
        (
            request.data_parallel_rank.is_some_and(|r| r != 0),
            "data_parallel_rank",
            "this worker has one rank (0)",
        ),
    ];
    first_refusal(&unsupported)
}

/// The first of `(set, field, why)` that is set, refused by its field's name.
pub(super) fn first_refusal(unsupported: &[(bool, &str, &str)]) -> Result<(), Status> {
    match unsupported.iter().find(|(set, _, _)| *set) {
        Some((_, field, why)) => Err(refuse(field, why)),
        None => Ok(()),
    }
}

/// The engine's sampling parameters. proto3 cannot leave a number unset, so the zeros a
/// minimal client sends mean "default" where zero is not a meaningful value (top_p,
/// repetition_penalty); top_k <= 0 means no cut, as in SGLang.
fn sampling(
    p: &pb::SamplingParams,
    return_logprob: bool,
    top_logprobs: i32,
) -> Result<SamplingParams, Status> {
    if p.n > MAX_SAMPLES {
        return Err(refuse(
            "n",
            &format!("at most {MAX_SAMPLES} samples per request"),
        ));
    }
    if p.custom_params.is_some() {
        return Err(refuse(
            "custom_params",
            "custom sampling parameters are not supported",
        ));
    }
    if p.stream_interval.is_some_and(|i| i > 1) {
        return Err(refuse(
            "stream_interval",
            "tokens are streamed every step; send 1",
        ));
    }
    if top_logprobs < 0 {
        return Err(refuse("top_logprobs_num", "must not be negative"));
    }
    let defaults = SamplingParams::default();
    // Bounded before anything is built from it (`submit` checks the same bound again).
    if p.logit_bias.len() > MAX_LOGIT_BIAS {
        return Err(refuse(
            "logit_bias",
            &format!("at most {MAX_LOGIT_BIAS} entries are allowed"),
        ));
    }
    let mut logit_bias = Vec::with_capacity(p.logit_bias.len());
    for (key, bias) in &p.logit_bias {
        let id = key
            .parse::<u32>()
            .map_err(|_| refuse("logit_bias", &format!("key {key:?} is not a token id")))?;
        logit_bias.push((id, *bias));
    }
    logit_bias.sort_unstable_by_key(|&(id, _)| id);
    Ok(SamplingParams {
        temperature: p.temperature,
        top_k: u32::try_from(p.top_k).unwrap_or(0),
        top_p: if p.top_p == 0.0 {
            defaults.top_p
        } else {
            p.top_p
        },
        min_p: p.min_p,
        repetition_penalty: if p.repetition_penalty == 0.0 {
            defaults.repetition_penalty
        } else {
            p.repetition_penalty
        },
        frequency_penalty: p.frequency_penalty,
        presence_penalty: p.presence_penalty,
        seed: defaults.seed,
        // Unset: up to the end of the context (SGLang's scheduler takes 2^30, capped).
        max_new_tokens: p.max_new_tokens.unwrap_or(u32::MAX),
        stop_token_ids: p.stop_token_ids.clone(),
        stop: p.stop.clone(),
        ignore_eos: p.ignore_eos,
        min_new_tokens: p.min_new_tokens,
        logprobs: return_logprob.then_some(top_logprobs as u32),
        logit_bias,
        // The router detokenizes: text is not sent back.
        skip_special_tokens: defaults.skip_special_tokens,
        shown_control_tokens: Vec::new(),
        token_ids_logprob: Vec::new(),
    })
}

/// The request's grammar; a JSON schema (or structural tag) longer than the compiler takes
/// is refused before it is parsed (a large JSON text is many times its size as a `Value`).
fn grammar(p: &pb::SamplingParams, max_bytes: usize) -> Result<Option<GrammarSpec>, Status> {
    Ok(match &p.constraint {
        None => None,
        Some(Constraint::Regex(regex)) => Some(GrammarSpec::Regex(regex.clone())),
        Some(Constraint::EbnfGrammar(ebnf)) => Some(GrammarSpec::Ebnf(ebnf.clone())),
        Some(Constraint::JsonSchema(text)) => Some(GrammarSpec::JsonSchema(json(
            text,
            "json_schema",
            max_bytes,
        )?)),
        Some(Constraint::StructuralTag(text)) => {
            let tag = json(text, "structural_tag", max_bytes)?;
            let lark = crate::grammar::structural_tag::lark(&tag)
                .map_err(|e| refuse("structural_tag", &e))?;
            Some(GrammarSpec::StructuralTag(lark))
        }
    })
}

/// The JSON text of `field`, parsed. The compiler bounds the compact form of what it
/// holds; the text may be laid out more loosely, so it may be four times that.
fn json(text: &str, field: &str, max_bytes: usize) -> Result<serde_json::Value, Status> {
    if text.len() > 4 * max_bytes {
        return Err(refuse(
            field,
            &format!(
                "it has {} bytes; at most {} are allowed",
                text.len(),
                4 * max_bytes
            ),
        ));
    }
    serde_json::from_str(text).map_err(|e| refuse(field, &format!("not valid JSON: {e}")))
}

/// Request ids are kept while their call is in flight: bounded.
pub(super) fn check_request_id(rid: &str) -> Result<(), Status> {
    if rid.len() > MAX_REQUEST_ID_BYTES {
        return Err(refuse(
            "request_id",
            &format!("at most {MAX_REQUEST_ID_BYTES} bytes"),
        ));
    }
    Ok(())
}

/// What a `GenerateComplete` may hold: tonic clients (the gateway's among them) decode at
/// most 4 MiB per message; the rest is kept for the output ids and the other fields.
const MAX_COMPLETE_LOGPROB_BYTES: usize = 3 << 20;

/// Bytes of one output token's log-probabilities in a `GenerateComplete` with `top`
/// alternatives, at most: its id and value, and each alternative's.
fn logprob_bytes_per_token(top: usize) -> usize {
    // An id (a varint of at most 5 bytes) and an f32 per entry, plus a message header.
    9 * (top + 1) + 4
}

/// A response that is not streamed carries every token's log-probabilities in one message,
/// which must stay within what a client can read: an explicit `max_new_tokens` that could
/// outgrow it is refused; without one, the output is capped there. (A stream carries them
/// in its chunks, one step each.)
fn fit_complete(
    sampling: &mut SamplingParams,
    explicit: bool,
    room: usize,
    input_bytes: usize,
) -> Result<(), Status> {
    let Some(top) = sampling.logprobs else {
        return Ok(());
    };
    let tokens = (sampling.max_new_tokens as usize).min(room);
    let per_token = logprob_bytes_per_token(top as usize);
    let most = MAX_COMPLETE_LOGPROB_BYTES.saturating_sub(input_bytes) / per_token;
    // Capped to nothing, it would end without a token as if it had asked for none.
    if tokens > most && !explicit && most > 0 {
        sampling.max_new_tokens = u32::try_from(most).unwrap_or(u32::MAX);
        return Ok(());
    }
    if tokens > most {
        return Err(refuse(
            "return_logprob",
            &format!(
                "log-probabilities of up to {tokens} tokens with {top} alternatives each do \
                 not fit one response message (at most {most} tokens); stream the response \
                 or lower max_new_tokens or top_logprobs_num"
            ),
        ));
    }
    Ok(())
}

/// Validates and converts `request` for `caller`. Range checks of the sampling values and
/// of the token ids are left to `submit`, which knows the vocabulary and the context.
pub(super) async fn prepare(
    engine: &EngineHandle,
    caller: &Caller,
    request: pb::GenerateRequest,
    deadline: Option<Instant>,
) -> Result<Prepared, Status> {
    refuse_unsupported(&request)?;
    check_request_id(&request.request_id)?;
    let input_ids = request
        .tokenized
        .map(|t| t.input_ids)
        .ok_or_else(|| refuse("tokenized", "the request has no tokenized input"))?;
    if input_ids.is_empty() {
        return Err(refuse("tokenized.input_ids", "the prompt is empty"));
    }
    let vocab = engine.model_info().vocab_size;
    if let Some(bad) = input_ids.iter().find(|&&id| id as usize >= vocab) {
        return Err(refuse(
            "tokenized.input_ids",
            &format!("token id {bad} is outside the vocabulary of {vocab}"),
        ));
    }
    let params = request.sampling_params.unwrap_or_default();
    let spec = grammar(&params, engine.grammar_limits().max_grammar_bytes)?;
    // A request that thinks first is held to its grammar only after the thinking, as
    // SGLang's reasoning grammar backend holds it.
    let spec = match spec {
        Some(answer) if request.require_reasoning => Some(GrammarSpec::AfterThinking {
            thinking: Thinking {
                tags: engine.think_tags(),
                inside: true,
            },
            budget: None,
            answer: Box::new(answer),
        }),
        spec => spec,
    };
    let explicit = params.max_new_tokens.is_some();
    let mut sampling = sampling(&params, request.return_logprob, request.top_logprobs_num)?;
    let input_start = input_logprob_start(
        (request.return_logprob, request.logprob_start_len),
        request.top_logprobs_num,
        input_ids.len(),
    )?;
    let input_bytes = input_start.map_or(0, |start| {
        let top = sampling.logprobs.unwrap_or(0) as usize;
        (input_ids.len() - start) * logprob_bytes_per_token(top)
    });
    if !request.stream {
        // The context as the KV pool bounds it too (a prompt leaves at least one token).
        let context = engine.max_prompt_tokens() + 1;
        let room = context.saturating_sub(input_ids.len());
        fit_complete(&mut sampling, explicit, room, input_bytes)?;
    }
    let prompt_tokens = u32::try_from(input_ids.len()).unwrap_or(u32::MAX);
    let think_end = if request.require_reasoning {
        engine.tokenizer().token_id(engine.think_tags().close)
    } else {
        None
    };
    let input_logprob_ids = input_start.map(|start| input_ids[start..].to_vec());
    let mut generate = GenerateRequest::new(input_ids, sampling);
    generate.max_new_tokens_explicit = explicit;
    // SGLang's first input logprob is always null: scores start one past it.
    generate.prompt_logprobs_from = input_start.map(|start| super::generate::count(start + 1));
    generate.rid = (!request.request_id.is_empty()).then_some(request.request_id);
    generate.namespace = caller.namespace_for(None);
    // SGLang's router names the adapter in `lora_id`; here that is its name.
    generate.namespace.adapter =
        super::super::input::adapter_named(engine, caller, Some(&request.lora_id), "lora_id")?;
    generate.tenant = caller.tenant;
    generate.deadline = deadline;
    if let Some(spec) = spec {
        // Bad parameters and the tenant's limits refuse it before the costly compile.
        let cost = engine
            .precheck_group(std::slice::from_ref(&generate), params.n.max(1))
            .map_err(super::super::status::from_submit)?;
        let constraint = engine
            .compile_grammar(spec, generate.namespace.clone(), caller.tenant, cost)
            .await
            .map_err(super::super::status::from_submit)?;
        generate.constraint = Some(constraint);
    }
    Ok(Prepared {
        request: generate,
        stream: request.stream,
        prompt_tokens,
        samples: params.n.max(1),
        think_end,
        input_logprob_ids,
    })
}

/// Where the prompt's logprobs start (`logprob_start_len`, when logprobs are asked for and
/// it is not negative); refused past the prompt, or when they could not fit one message
/// (a stream sends them whole in its first chunk).
fn input_logprob_start(
    (return_logprob, start): (bool, i32),
    top: i32,
    len: usize,
) -> Result<Option<usize>, Status> {
    if !return_logprob || start < 0 {
        return Ok(None);
    }
    let start = start as usize;
    if start >= len {
        return Err(refuse(
            "logprob_start_len",
            &format!("must be less than the prompt's {len} tokens"),
        ));
    }
    let top = top.max(0) as usize;
    let most = MAX_COMPLETE_LOGPROB_BYTES / logprob_bytes_per_token(top);
    if len - start > most {
        return Err(refuse(
            "logprob_start_len",
            &format!(
                "log-probabilities of {} prompt tokens with {top} alternatives each do not \
                 fit one message (at most {most}); raise logprob_start_len or lower \
                 top_logprobs_num",
                len - start
            ),
        ));
    }
    Ok(Some(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> pb::SamplingParams {
        pb::SamplingParams {
            temperature: 0.7,
            top_k: -1,
            ..Default::default()
        }
    }

    #[test]
    fn proto_zeros_mean_defaults_where_zero_means_nothing() {
        let p = sampling(&params(), false, 0).unwrap_or_default();
        let d = SamplingParams::default();
        assert_eq!(
            (p.top_p, p.repetition_penalty, p.top_k),
            (d.top_p, d.repetition_penalty, 0)
        );
        assert_eq!(p.temperature, 0.7);
        assert_eq!(p.logprobs, None);
    }

    #[test]
    fn logit_bias_keys_are_token_ids() {
        let mut p = params();
        p.logit_bias.insert("17".into(), -100.0);
        p.logit_bias.insert("3".into(), 5.0);
        let s = sampling(&p, true, 2).unwrap_or_default();
        assert_eq!(s.logit_bias, vec![(3, 5.0), (17, -100.0)]);
        assert_eq!(s.logprobs, Some(2));
        p.logit_bias.insert("x".into(), 1.0);
        let err = sampling(&p, false, 0)
            .err()
            .map(|s| s.message().to_string());
        assert!(err.is_some_and(|m| m.contains("logit_bias")));
    }

    #[test]
    fn logit_bias_keys_naming_one_token_are_refused() {
        let mut p = params();
        p.logit_bias.insert("17".into(), 100.0);
        p.logit_bias.insert("+17".into(), 100.0);
        p.logit_bias.insert("017".into(), 100.0);
        let s = sampling(&p, false, 0).unwrap_or_default();
        assert_eq!(s.logit_bias.len(), 3);
        let err = s.validate(1000).err().unwrap_or_default();
        assert_eq!(err, "logit_bias gives token 17 twice");
    }

    /// A structural tag becomes its grammar; one that is not one is refused by name.
    #[test]
    fn structural_tags_are_read_or_refused_by_name() {
        let mut p = params();
        let tag = r#"{"structures": [{"begin": "<f>", "schema": {}, "end": "</f>"}], "triggers": ["<f"]}"#;
        p.constraint = Some(Constraint::StructuralTag(tag.into()));
        assert!(matches!(
            grammar(&p, 1 << 20),
            Ok(Some(GrammarSpec::StructuralTag(_)))
        ));
        for bad in [
            "{}",
            "not json",
            r#"{"type": "structural_tag", "format": {"type": "grammar"}}"#,
        ] {
            p.constraint = Some(Constraint::StructuralTag(bad.into()));
            let status = grammar(&p, 1 << 20).err();
            assert!(
                status.is_some_and(|s| s.code() == tonic::Code::InvalidArgument
                    && s.message().starts_with("structural_tag")),
                "{bad}"
            );
        }
    }

    #[test]
    fn unsupported_fields_are_named() {
        for (mutate, field) in [
            (
                Box::new(|p: &mut pb::SamplingParams| p.n = MAX_SAMPLES + 1) as Box<dyn Fn(&mut _)>,
                "n",
            ),
            (
                Box::new(|p: &mut pb::SamplingParams| p.custom_params = Some(Default::default())),
                "custom_params",
            ),
        ] {
            let mut p = params();
            mutate(&mut p);
            let status = sampling(&p, false, 0).err();
            assert!(
                status
                    .is_some_and(|s| s.code() == tonic::Code::InvalidArgument
                        && s.message().starts_with(field)),
                "{field}"
            );
        }
        let request = pb::GenerateRequest {
            custom_logit_processor: "a".into(),
            ..Default::default()
        };
        let status = refuse_unsupported(&request).err();
        assert!(status.is_some_and(|s| s.message().starts_with("custom_logit_processor")));
        let request = pb::GenerateRequest {
            return_logprob: true,
            logprob_start_len: -1,
            ..Default::default()
        };
        assert!(refuse_unsupported(&request).is_ok());
    }
}
