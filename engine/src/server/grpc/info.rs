//! `GetModelInfo` and `GetServerInfo` replies from the engine's snapshots.

use crate::handle::{DiskTierInfo, EngineHandle, ServerInfo, TenantInfo};
use crate::server::adapters::usable_adapters;
use crate::tenants::Caller;
use proto::v1 as pb;

/// The model served; of the LoRA adapters, those `caller` may run.
pub(super) fn model_info(engine: &EngineHandle, caller: &Caller) -> pb::GetModelInfoResponse {
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
        lora_adapters: (usable_adapters(engine, caller).into_iter())
            .map(|a| a.name)
            .collect(),
    }
}

/// Engine-wide figures, and per-tenant ones: every tenant's for an administrator, only the
/// caller's own otherwise (another tenant's cache figures would leak its traffic). Engine-wide
/// activity (queue, running, free KV, hits, finished requests) sums every tenant's, so a
/// non-administrator gets only the engine's fixed sizes and state.
pub(super) fn server_info(info: &ServerInfo, caller: &Caller) -> pb::GetServerInfoResponse {
    if !caller.is_admin {
        let mut shape = ServerInfo {
            kv_capacity_tokens: info.kv_capacity_tokens,
            kv_bytes_per_token: info.kv_bytes_per_token,
            kv_sliding_bytes_per_token: info.kv_sliding_bytes_per_token,
            page_size: info.page_size,
            draining: info.draining,
            uptime_s: info.uptime_s,
            ..ServerInfo::default()
        };
        shape.tenants = info.tenants.clone();
        return engine_wide(&shape, caller);
    }
    engine_wide(info, caller)
}

fn engine_wide(info: &ServerInfo, caller: &Caller) -> pb::GetServerInfoResponse {
    let tenants = info
        .tenants
        .iter()
        .enumerate()
        .filter(|(i, _)| caller.is_admin || *i == caller.tenant as usize)
        .map(|(_, t)| tenant_stats(t))
        .collect();
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
        tenants,
        kv_sliding_bytes_per_token: info.kv_sliding_bytes_per_token as u64,
        kv_sliding_cached_bytes: info.kv_sliding_cached_bytes,
        kv_disk: info.kv_disk.as_ref().map(tier_stats),
    }
}

fn tier_stats(d: &DiskTierInfo) -> pb::KvTierStats {
    pb::KvTierStats {
        budget_bytes: d.budget_bytes,
        bytes: d.bytes,
        tokens: d.tokens,
        page_tokens: saturate(d.page_tokens),
        spilled_tokens: d.spilled_tokens,
        loaded_tokens: d.loaded_tokens,
        loading_requests: saturate(d.loading_requests),
        bad_pages: d.bad_pages,
        evicted_tokens: d.evicted_tokens,
        write_errors: d.write_errors,
        dropped_spills: d.dropped_spills,
        spills_paused: d.spills_paused,
    }
}

fn tenant_stats(t: &TenantInfo) -> pb::TenantStats {
    pb::TenantStats {
        tenant: t.name.clone(),
        cached_tokens: t.cached_tokens as u64,
        running_requests: saturate(t.running_requests),
        waiting_requests: saturate(t.waiting_requests),
        running_kv_tokens: t.running_kv_tokens as u64,
        cache_queried_tokens: t.cache_queried_tokens,
        cache_hit_tokens: t.cache_hit_tokens,
        prefill_tokens: t.prefill_tokens,
        decode_tokens: t.decode_tokens,
        virtual_tokens: t.virtual_tokens,
        weight: t.weight,
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use radix::Namespace;

    fn caller(tenant: u32, is_admin: bool) -> Caller {
        Caller {
            tenant,
            tenant_name: "t".into(),
            namespace: Namespace::global(),
            is_admin,
            adapters: crate::tenants::AdapterAccess::all(),
        }
    }

    #[test]
    fn only_an_administrator_sees_engine_wide_activity() {
        let info = ServerInfo {
            waiting_requests: 3,
            running_requests: 5,
            kv_capacity_tokens: 1000,
            kv_free_tokens: 400,
            kv_evictable_tokens: 300,
            cache_queried_tokens: 77,
            cache_hit_tokens: 50,
            finished_requests: 9,
            retractions: 2,
            tenants: vec![
                TenantInfo {
                    name: "a".into(),
                    running_requests: 4,
                    ..TenantInfo::default()
                },
                TenantInfo {
                    name: "b".into(),
                    running_requests: 1,
                    ..TenantInfo::default()
                },
            ],
            kv_disk: Some(DiskTierInfo {
                tokens: 4096,
                loaded_tokens: 640,
                page_tokens: 16,
                ..DiskTierInfo::default()
            }),
            ..ServerInfo::default()
        };
        let admin = server_info(&info, &caller(0, true));
        assert_eq!((admin.running_requests, admin.cache_hit_tokens), (5, 50));
        let disk = admin.kv_disk.unwrap();
        assert_eq!(
            (disk.tokens, disk.loaded_tokens, disk.page_tokens),
            (4096, 640, 16)
        );
        assert_eq!(admin.tenants.len(), 2);
        let b = server_info(&info, &caller(1, false));
        assert_eq!(b.kv_capacity_tokens, 1000);
        let activity = (
            b.waiting_requests,
            b.running_requests,
            b.kv_free_tokens,
            b.kv_evictable_tokens,
            b.cache_queried_tokens,
            b.cache_hit_tokens,
            b.finished_requests,
            b.retractions,
        );
        assert_eq!(activity, (0, 0, 0, 0, 0, 0, 0, 0));
        assert_eq!(b.kv_disk, None, "the disk's traffic is every tenant's");
        assert_eq!(b.tenants.len(), 1);
        assert_eq!(
            (b.tenants[0].tenant.as_str(), b.tenants[0].running_requests),
            ("b", 1)
        );
    }
}
