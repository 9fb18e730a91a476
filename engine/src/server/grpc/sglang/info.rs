//! `GetModelInfo`, `GetServerInfo` and `GetLoads` in the SGLang protocol's shapes, from the
//! engine's snapshots. Figures that reveal other tenants' traffic (queue, cache use, hit
//! rate) go to administrators only, as in `radixserve.v1`; a tenant sees its own.

use crate::handle::{EngineHandle, ServerInfo};
use crate::sampling::SamplingParams;
use crate::tenants::{Caller, TenantId};
use parking_lot::Mutex;
use prost_types::value::Kind;
use prost_types::{Struct, Value};
use proto::sglang::scheduler as pb;
use rustc_hash::FxHashMap;
use std::time::Instant;

fn saturate(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The engine's default sampling values, as SGLang's `generation_config` defaults.
fn default_sampling_json() -> String {
    let d = SamplingParams::default();
    serde_json::json!({
        "temperature": d.temperature,
        "top_p": d.top_p,
        "top_k": if d.top_k == 0 { -1 } else { i64::from(d.top_k) },
        "min_p": d.min_p,
        "repetition_penalty": d.repetition_penalty,
        "max_new_tokens": d.max_new_tokens,
    })
    .to_string()
}

/// The tokenizer source a gateway is told: resolvable only through `GetTokenizer`. The colon
/// makes it neither a Hub repository id (which anyone could register, and so serve every
/// gateway a tokenizer and chat template of their choosing) nor a path a gateway would have.
fn tokenizer_source(engine: &EngineHandle) -> String {
    format!("radixserve:{}", engine.model_info().name)
}

pub(super) fn model_info(engine: &EngineHandle) -> pb::GetModelInfoResponse {
    let info = engine.model_info();
    let tokenizer = engine.tokenizer();
    let id = |id: Option<u32>| id.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1);
    pb::GetModelInfoResponse {
        // A name no file or hub repository has: the gateway then asks GetTokenizer (it asks
        // only when some tokenizer source is named).
        model_path: String::new(),
        tokenizer_path: tokenizer_source(engine),
        is_generation: true,
        served_model_name: info.name.clone(),
        max_context_length: saturate(engine.max_context_len()),
        // As SGLang: the context and the KV pool both bound a prompt.
        max_req_input_len: saturate(engine.max_prompt_tokens()),
        vocab_size: saturate(info.vocab_size),
        model_type: info.architecture.clone(),
        architectures: vec![info.architecture.clone()],
        eos_token_ids: info
            .eos_token_ids
            .iter()
            .filter_map(|&i| i32::try_from(i).ok())
            .collect(),
        bos_token_id: id(tokenizer.bos_token_id()),
        pad_token_id: id(tokenizer.pad_token_id()),
        default_sampling_params_json: default_sampling_json(),
        weight_version: "default".into(),
        ..Default::default()
    }
}

fn value(kind: Kind) -> Value {
    Value { kind: Some(kind) }
}

fn fields(entries: Vec<(&str, Kind)>) -> Struct {
    Struct {
        fields: entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), value(v)))
            .collect(),
    }
}

pub(super) fn server_info(
    engine: &EngineHandle,
    caller: &Caller,
    started: std::time::SystemTime,
) -> pb::GetServerInfoResponse {
    let info = engine.server_info();
    let model = engine.model_info();
    let capacity = info.kv_capacity_tokens as f64;
    let server_args = fields(vec![
        ("served_model_name", Kind::StringValue(model.name.clone())),
        ("model_path", Kind::StringValue(String::new())),
        (
            "tokenizer_path",
            Kind::StringValue(tokenizer_source(engine)),
        ),
        (
            "context_length",
            Kind::NumberValue(engine.max_context_len() as f64),
        ),
        ("max_total_tokens", Kind::NumberValue(capacity)),
        (
            "max_running_requests",
            Kind::NumberValue(engine.max_running_requests() as f64),
        ),
        ("tp_size", Kind::NumberValue(1.0)),
        ("dp_size", Kind::NumberValue(1.0)),
        ("pp_size", Kind::NumberValue(1.0)),
        ("is_embedding", Kind::BoolValue(false)),
        ("vocab_size", Kind::NumberValue(model.vocab_size as f64)),
        ("page_size", Kind::NumberValue(info.page_size as f64)),
        ("disaggregation_mode", Kind::StringValue("null".into())),
        (
            "load_balance_method",
            Kind::StringValue("round_robin".into()),
        ),
        ("weight_version", Kind::StringValue("default".into())),
        (
            "kv_event_block_size",
            Kind::NumberValue(engine.kv_events().map_or(0.0, |h| h.block_size() as f64)),
        ),
        // SGLang's names for a cache with tiers below the pool.
        (
            "enable_hierarchical_cache",
            Kind::BoolValue(info.kv_disk.is_some()),
        ),
        (
            "hicache_storage_backend",
            Kind::StringValue(
                if info.kv_disk.is_some() {
                    "file"
                } else {
                    "null"
                }
                .into(),
            ),
        ),
    ]);
    let load = Load::of(&info, caller);
    let (waiting, running) = (load.waiting, load.running);
    let mut scheduler_fields = vec![
        ("num_waiting_reqs", Kind::NumberValue(waiting as f64)),
        ("num_running_reqs", Kind::NumberValue(running as f64)),
        ("draining", Kind::BoolValue(info.draining)),
    ];
    if let (Some(disk), true) = (&info.kv_disk, caller.is_admin) {
        scheduler_fields.extend([
            ("kv_disk_tokens", Kind::NumberValue(disk.tokens as f64)),
            ("kv_disk_bytes", Kind::NumberValue(disk.bytes as f64)),
            (
                "kv_disk_loaded_tokens",
                Kind::NumberValue(disk.loaded_tokens as f64),
            ),
            (
                "kv_disk_spilled_tokens",
                Kind::NumberValue(disk.spilled_tokens as f64),
            ),
        ]);
    }
    let scheduler_info = fields(scheduler_fields);
    pb::GetServerInfoResponse {
        server_args: Some(server_args),
        scheduler_info: Some(scheduler_info),
        active_requests: saturate(waiting + running),
        is_paused: info.draining,
        uptime_seconds: info.uptime_s,
        sglang_version: format!("radixserve {}", env!("CARGO_PKG_VERSION")),
        server_type: "grpc".into(),
        start_time: Some(prost_types::Timestamp::from(started)),
        max_total_num_tokens: saturate(info.kv_capacity_tokens),
        ..Default::default()
    }
}

/// The load a caller may see: the engine's for an administrator; a tenant's own requests,
/// KV and output otherwise (another tenant's traffic is not its business, but a gateway
/// acting as one tenant still routes on the load it sends).
struct Load {
    waiting: usize,
    running: usize,
    /// KV slots held by running requests (neither free nor reclaimable from the cache).
    used_tokens: usize,
    generated: u64,
}

impl Load {
    fn of(info: &ServerInfo, caller: &Caller) -> Self {
        if caller.is_admin {
            return Self {
                waiting: info.waiting_requests,
                running: info.running_requests,
                used_tokens: info
                    .kv_capacity_tokens
                    .saturating_sub(info.kv_free_tokens + info.kv_evictable_tokens),
                generated: info.tenants.iter().map(|t| t.decode_tokens).sum(),
            };
        }
        let own = info.tenants.get(caller.tenant as usize);
        Self {
            waiting: own.map_or(0, |t| t.waiting_requests),
            running: own.map_or(0, |t| t.running_requests),
            used_tokens: own.map_or(0, |t| t.running_kv_tokens),
            generated: own.map_or(0, |t| t.decode_tokens),
        }
    }
}

/// Generated tokens per second between two `GetLoads` calls of the same caller (tenant, or
/// the whole engine for administrators).
#[derive(Default)]
pub(super) struct Throughput {
    last: Mutex<FxHashMap<Option<TenantId>, (Instant, u64)>>,
}

impl Throughput {
    fn sample(&self, caller: &Caller, generated: u64) -> f64 {
        let now = Instant::now();
        let key = (!caller.is_admin).then_some(caller.tenant);
        let mut last = self.last.lock();
        let rate = match last.get(&key) {
            Some(&(at, before)) if now > at => {
                generated.saturating_sub(before) as f64 / now.duration_since(at).as_secs_f64()
            }
            _ => 0.0,
        };
        last.insert(key, (now, generated));
        rate
    }
}

pub(super) fn loads(
    engine: &EngineHandle,
    caller: &Caller,
    throughput: &Throughput,
) -> pb::GetLoadsResponse {
    let info: ServerInfo = engine.server_info();
    let capacity = info.kv_capacity_tokens.max(1);
    let own = Load::of(&info, caller);
    let (queried, hits) = if caller.is_admin {
        (info.cache_queried_tokens, info.cache_hit_tokens)
    } else {
        let t = info.tenants.get(caller.tenant as usize);
        (
            t.map_or(0, |t| t.cache_queried_tokens),
            t.map_or(0, |t| t.cache_hit_tokens),
        )
    };
    let load = pb::SchedulerLoad {
        dp_rank: 0,
        max_total_num_tokens: saturate(info.kv_capacity_tokens),
        max_running_requests: saturate(engine.max_running_requests()),
        num_running_reqs: saturate(own.running),
        num_waiting_reqs: saturate(own.waiting),
        num_total_reqs: saturate(own.running + own.waiting),
        num_used_tokens: saturate(own.used_tokens),
        token_usage: own.used_tokens as f64 / capacity as f64,
        gen_throughput: throughput.sample(caller, own.generated),
        cache_hit_rate: if queried == 0 {
            0.0
        } else {
            hits as f64 / queried as f64
        },
        utilization: own.running as f64 / engine.max_running_requests().max(1) as f64,
        queues: Some(pb::QueueMetrics {
            waiting: saturate(own.waiting),
            ..Default::default()
        }),
        ..Default::default()
    };
    pb::GetLoadsResponse {
        timestamp: format!(
            "{:.3}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64())
        ),
        version: env!("CARGO_PKG_VERSION").into(),
        dp_rank_count: 1,
        aggregate: Some(pb::AggregateMetrics {
            total_running_reqs: load.num_running_reqs,
            total_waiting_reqs: load.num_waiting_reqs,
            total_reqs: load.num_total_reqs,
            avg_token_usage: load.token_usage,
            avg_throughput: load.gen_throughput,
            avg_utilization: load.utilization,
        }),
        loads: vec![load],
    }
}
