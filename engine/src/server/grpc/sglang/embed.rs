//! `Embed`: token ids in, the last prompt token's final hidden state out, L2-normalized at
//! the model's full width, as SGLang's embedding workers answer the smg gateway. Every
//! field is honoured or, when set to something the engine cannot do, refused by name.

use super::super::embedding::finished_embedding;
use super::super::status;
use super::params::{check_request_id, first_refusal, refuse};
use crate::handle::{normalized_embedding, EngineHandle, GenerateRequest};
use crate::tenants::Caller;
use proto::sglang::scheduler as pb;
use std::time::Instant;
use tonic::Status;

/// Fields of an embedding request that radixserve cannot honour.
fn refuse_unsupported(request: &pb::EmbedRequest) -> Result<(), Status> {
    let unsupported = [
        (
            request.mm_inputs.is_some(),
            "mm_inputs",
            "multimodal input is not supported",
        ),
        (
            !request.token_type_ids.is_empty(),
            "token_type_ids",
            "token type ids are for encoder models, which are not supported",
        ),
        (
            request.is_cross_encoder,
            "is_cross_encoder",
            "cross-encoder scoring is not supported",
        ),
        (
            !request.texts.is_empty(),
            "texts",
            "cross-encoder texts are not supported",
        ),
        (
            request.data_parallel_rank != 0,
            "data_parallel_rank",
            "this worker has one rank (0)",
        ),
    ];
    first_refusal(&unsupported)
}

/// The engine's embedding request for `request`, run for `caller`.
pub(super) fn prepare(
    engine: &EngineHandle,
    caller: &Caller,
    request: pb::EmbedRequest,
    deadline: Option<Instant>,
) -> Result<GenerateRequest, Status> {
    refuse_unsupported(&request)?;
    check_request_id(&request.request_id)?;
    engine.embeddings_supported().map_err(status::from_submit)?;
    let input_ids = request
        .tokenized
        .map(|t| t.input_ids)
        .ok_or_else(|| refuse("tokenized", "the request has no tokenized input"))?;
    if input_ids.is_empty() {
        return Err(refuse("tokenized.input_ids", "the input is empty"));
    }
    let mut embed = GenerateRequest::embedding(input_ids);
    embed.rid = (!request.request_id.is_empty()).then_some(request.request_id);
    embed.namespace = caller.namespace_for(None);
    embed.tenant = caller.tenant;
    embed.deadline = deadline;
    Ok(embed)
}

/// Submits `request` and answers with its embedding once it is computed (`CANCELLED` when
/// an `Abort` named it, before it was queued or after).
pub(super) async fn run(
    engine: &EngineHandle,
    request: GenerateRequest,
    deadline: Option<Instant>,
) -> Result<pb::EmbedResponse, Status> {
    let stream = engine.submit(request).map_err(status::from_submit)?;
    let (hidden, usage) = finished_embedding(stream, deadline).await?;
    let embedding = normalized_embedding(&hidden, hidden.len());
    Ok(pb::EmbedResponse {
        embedding_dim: u32::try_from(embedding.len()).unwrap_or(u32::MAX),
        embedding,
        prompt_tokens: usage.prompt_tokens,
    })
}
