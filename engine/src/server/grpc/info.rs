//! `GetModelInfo` and `GetServerInfo` replies from the engine's snapshots.

use crate::handle::{EngineHandle, ServerInfo};
use proto::v1 as pb;

pub(super) fn model_info(engine: &EngineHandle) -> pb::GetModelInfoResponse {
    let info = engine.model_info();
    pb::GetModelInfoResponse {
        name: info.name.clone(),
        architecture: info.architecture.clone(),
        vocab_size: saturate(info.vocab_size),
        context_length: saturate(info.context_length),
        max_context_length: saturate(engine.max_context_len()),
        num_layers: saturate(info.num_layers),
        hidden_size: saturate(info.hidden_size),
        num_heads: saturate(info.num_heads),
        num_kv_heads: saturate(info.num_kv_heads),
        eos_token_ids: info.eos_token_ids.clone(),
    }
}

/// Per-tenant figures stay empty until the engine serves several tenants.
pub(super) fn server_info(info: &ServerInfo) -> pb::GetServerInfoResponse {
    pb::GetServerInfoResponse {
        waiting_requests: saturate(info.waiting_requests),
        running_requests: saturate(info.running_requests),
        kv_capacity_tokens: info.kv_capacity_tokens as u64,
        kv_free_tokens: info.kv_free_tokens as u64,
        kv_evictable_tokens: info.kv_evictable_tokens as u64,
        kv_protected_tokens: info.kv_protected_tokens as u64,
        kv_bytes_per_token: info.kv_bytes_per_token as u64,
        page_size: saturate(info.page_size),
        cache_queried_tokens: info.cache_queried_tokens,
        cache_hit_tokens: info.cache_hit_tokens,
        finished_requests: info.finished_requests,
        aborted_requests: info.aborted_requests,
        retractions: info.retractions,
        draining: info.draining,
        uptime_s: info.uptime_s,
        tenants: Vec::new(),
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
