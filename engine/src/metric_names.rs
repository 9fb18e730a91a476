//! Every metric series' name, defined once: the scheduler, the servers and the exporter all
//! use these constants (the series are documented in `docs/metrics.md`). Kept outside the
//! servers so that the scheduler depends on names, not on the server layer.

/// Requests by outcome (`stop`, `length`, `abort`, `embedding`), counted when they end.
pub const REQUESTS: &str = "radixserve_requests_total";
pub const PROMPT_TOKENS: &str = "radixserve_prompt_tokens_total";
pub const CACHED_TOKENS: &str = "radixserve_cached_tokens_total";
pub const GENERATED_TOKENS: &str = "radixserve_generated_tokens_total";
pub const QUEUE_LENGTH: &str = "radixserve_queue_length";
pub const RUNNING_REQUESTS: &str = "radixserve_running_requests";
/// KV slots by `state`: `used`, `evictable`, `free`, `protected`.
pub const KV_SLOTS: &str = "radixserve_kv_slots";
pub const KV_CAPACITY: &str = "radixserve_kv_capacity_tokens";
/// Bytes sliding-window layers hold for the tokens the prefix cache keeps.
pub const KV_SLIDING_CACHED_BYTES: &str = "radixserve_kv_sliding_cached_bytes";
pub const RETRACTIONS: &str = "radixserve_retractions_total";
pub const EVICTED_TOKENS: &str = "radixserve_evicted_tokens_total";
pub const CACHE_QUERIED_TOKENS: &str = "radixserve_cache_queried_tokens_total";
pub const CACHE_HIT_TOKENS: &str = "radixserve_cache_hit_tokens_total";
pub const TTFT: &str = "radixserve_time_to_first_token_seconds";
pub const INTER_TOKEN: &str = "radixserve_inter_token_latency_seconds";
pub const E2E: &str = "radixserve_e2e_latency_seconds";
pub const BATCH_TOKENS: &str = "radixserve_batch_tokens";
pub const BATCH_REQUESTS: &str = "radixserve_batch_requests";
/// Scheduler step time by `phase`: `schedule`, `forward`, `sample`, `output`.
pub const STEP_PHASE: &str = "radixserve_step_phase_seconds";
pub const DRAINING: &str = "radixserve_draining";
pub const UPTIME: &str = "radixserve_uptime_seconds";
/// Decode steps replayed from a CUDA graph (GPU).
pub const CUDA_GRAPH_REPLAYS: &str = "radixserve_cuda_graph_replays_total";
/// Requests of a LoRA adapter (label `adapter`, its name), counted when they end: by
/// `outcome` as [`REQUESTS`], and their prompt and generated tokens.
pub const LORA_REQUESTS: &str = "radixserve_lora_requests_total";
pub const LORA_PROMPT_TOKENS: &str = "radixserve_lora_prompt_tokens_total";
pub const LORA_GENERATED_TOKENS: &str = "radixserve_lora_generated_tokens_total";
/// Per tenant (label `tenant`), published by the scheduler.
pub const TENANT_WAITING: &str = "radixserve_tenant_waiting_requests";
pub const TENANT_RUNNING: &str = "radixserve_tenant_running_requests";
pub const TENANT_CACHED_TOKENS: &str = "radixserve_tenant_cached_tokens";
pub const TENANT_VIRTUAL_TOKENS: &str = "radixserve_tenant_virtual_tokens";
/// Live radix namespaces, and of them the salted ones (bounded by the salt caps).
pub const CACHE_NAMESPACES: &str = "radixserve_cache_namespaces";
pub const CACHE_SALTS: &str = "radixserve_cache_salted_namespaces";
/// Connections closed at once because the server held `--max-connections`.
pub const CONNECTIONS_REFUSED: &str = "radixserve_connections_refused_total";
/// Connections closed because they sent nothing within the header read timeout.
pub const CONNECTIONS_TIMED_OUT: &str = "radixserve_connections_timed_out_total";
/// Connections closed after holding no request for the idle timeout.
pub const CONNECTIONS_IDLE_CLOSED: &str = "radixserve_connections_idle_closed_total";
/// HTTP responses by `route` (the matched route template) and `status`.
pub const HTTP_REQUESTS: &str = "radixserve_http_requests_total";
/// Times the scheduler dropped block changes because the KV event hub's queue was full
/// (each followed by a full resync of every subscriber).
pub const KV_EVENT_RESYNCS: &str = "radixserve_kv_event_resyncs_total";
/// Speculative decoding: n-gram draft tokens verified, and of them those accepted.
pub const SPEC_DRAFTED: &str = "radixserve_spec_draft_tokens_total";
pub const SPEC_ACCEPTED: &str = "radixserve_spec_accepted_tokens_total";
/// Constrained decodes that sat a step out: their tenant's grammar masks took more than its
/// per-step budget.
pub const GRAMMAR_WAITS: &str = "radixserve_grammar_waits_total";
/// K/V tiers below the pool, label `tier` (`disk`): tokens held and bytes used there, tokens
/// written there at eviction and loaded back into the pool, pages that did not verify
/// (corrupt, truncated, foreign: read as misses), write errors, spills not taken (queue
/// full or writes paused) and whether writes are paused after an error.
pub const KV_TIER_TOKENS: &str = "radixserve_kv_tier_tokens";
pub const KV_TIER_BYTES: &str = "radixserve_kv_tier_bytes";
pub const KV_TIER_SPILLED_TOKENS: &str = "radixserve_kv_tier_spilled_tokens_total";
pub const KV_TIER_LOADED_TOKENS: &str = "radixserve_kv_tier_loaded_tokens_total";
pub const KV_TIER_BAD_PAGES: &str = "radixserve_kv_tier_bad_pages_total";
pub const KV_TIER_WRITE_ERRORS: &str = "radixserve_kv_tier_write_errors_total";
pub const KV_TIER_DROPPED_SPILLS: &str = "radixserve_kv_tier_dropped_spills_total";
pub const KV_TIER_SPILLS_PAUSED: &str = "radixserve_kv_tier_spills_paused";
