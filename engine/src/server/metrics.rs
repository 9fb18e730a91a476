//! Prometheus metrics: one recorder for the process, real histograms with per-metric buckets,
//! descriptions for every series, and the gauges refreshed at scrape time from the engine's
//! snapshot. The scheduler and the servers emit through the `metrics` facade; `/metrics`
//! renders the handle built here. The list of series is documented in `docs/metrics.md`.

use crate::handle::ServerInfo;
use metrics::Unit;
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};
use parking_lot::Mutex;
use std::time::Duration;

pub use crate::metric_names::*;

const TTFT_BUCKETS: &[f64] = &[
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];
const INTER_TOKEN_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 1.0,
];
const E2E_BUCKETS: &[f64] = &[
    0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0,
];
const BATCH_TOKEN_BUCKETS: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0,
];
const BATCH_REQUEST_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];
const STEP_PHASE_BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
];

/// Builds the exporter with each histogram's buckets (so they render as true Prometheus
/// histograms, not summaries).
pub fn builder() -> Result<PrometheusBuilder, BuildError> {
    let mut builder = PrometheusBuilder::new();
    for (name, buckets) in [
        (TTFT, TTFT_BUCKETS),
        (INTER_TOKEN, INTER_TOKEN_BUCKETS),
        (E2E, E2E_BUCKETS),
        (BATCH_TOKENS, BATCH_TOKEN_BUCKETS),
        (BATCH_REQUESTS, BATCH_REQUEST_BUCKETS),
        (STEP_PHASE, STEP_PHASE_BUCKETS),
    ] {
        builder = builder.set_buckets_for_metric(Matcher::Full(name.to_string()), buckets)?;
    }
    Ok(builder)
}

/// Installs the process-wide recorder once and returns its handle; later calls (tests that
/// start several servers in one process) get the same handle.
pub fn install() -> Result<PrometheusHandle, BuildError> {
    static HANDLE: Mutex<Option<PrometheusHandle>> = parking_lot::const_mutex(None);
    let mut slot = HANDLE.lock();
    if let Some(handle) = slot.as_ref() {
        return Ok(handle.clone());
    }
    let handle = builder()?.install_recorder()?;
    describe();
    *slot = Some(handle.clone());
    Ok(handle)
}

/// Drains histogram samples periodically so memory stays bounded between scrapes.
pub fn spawn_upkeep(handle: PrometheusHandle, every: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            handle.run_upkeep();
        }
    })
}

/// Refreshes the series read from the engine's snapshot rather than emitted as events.
pub fn record_server_info(info: &ServerInfo) {
    metrics::gauge!(KV_CAPACITY).set(info.kv_capacity_tokens as f64);
    metrics::counter!(CACHE_QUERIED_TOKENS).absolute(info.cache_queried_tokens);
    metrics::counter!(CACHE_HIT_TOKENS).absolute(info.cache_hit_tokens);
    metrics::gauge!(DRAINING).set(if info.draining { 1.0 } else { 0.0 });
    metrics::gauge!(UPTIME).set(info.uptime_s);
    metrics::counter!(CUDA_GRAPH_REPLAYS).absolute(info.graph_replays);
}

/// HELP lines for every series, so a scrape documents itself.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_gauge!(TENANT_WAITING, "A tenant's requests waiting for admission");
    describe_gauge!(CACHE_NAMESPACES, "Live prefix-cache namespaces");
    describe_counter!(
        CUDA_GRAPH_REPLAYS,
        "Decode steps replayed from a CUDA graph"
    );
    describe_counter!(
        crate::metric_names::SPEC_DRAFTED,
        "Speculative draft tokens verified in decode steps"
    );
    describe_counter!(
        crate::metric_names::SPEC_ACCEPTED,
        "Speculative draft tokens accepted (sampled exactly as drafted)"
    );
    describe_counter!(
        crate::metric_names::LORA_REQUESTS,
        "Requests of a LoRA adapter that ended, by adapter name and outcome"
    );
    describe_counter!(
        crate::metric_names::GRAMMAR_WAITS,
        "Constrained decodes that waited a step: their tenant's grammar masks exceeded its budget"
    );
    describe_counter!(
        crate::metric_names::KV_EVENT_RESYNCS,
        "Times KV event changes were dropped (hub queue full) and every subscriber resynced"
    );
    describe_counter!(
        super::connections::CONNECTIONS_REFUSED,
        "Connections closed at once: the server held its maximum"
    );
    describe_counter!(
        super::connections::CONNECTIONS_TIMED_OUT,
        "Connections closed for sending nothing within the header read timeout"
    );
    describe_counter!(
        crate::metric_names::CONNECTIONS_IDLE_CLOSED,
        "HTTP connections closed after holding no request for the idle timeout"
    );
    describe_gauge!(
        CACHE_SALTS,
        "Live salted prefix-cache namespaces (capped per tenant and in all)"
    );
    describe_gauge!(TENANT_RUNNING, "A tenant's requests in the running batch");
    describe_gauge!(
        TENANT_CACHED_TOKENS,
        Unit::Count,
        "Tokens held in a tenant's private prefix-cache namespaces"
    );
    describe_gauge!(
        TENANT_VIRTUAL_TOKENS,
        "A tenant's fair-share counter: weighted tokens computed for it"
    );
    describe_counter!(
        REQUESTS,
        "Requests that ended, by outcome (stop, length, abort)"
    );
    describe_counter!(
        PROMPT_TOKENS,
        Unit::Count,
        "Prompt tokens of ended requests"
    );
    describe_counter!(
        CACHED_TOKENS,
        Unit::Count,
        "Prompt tokens served from the prefix cache"
    );
    describe_counter!(GENERATED_TOKENS, Unit::Count, "Tokens generated");
    describe_gauge!(QUEUE_LENGTH, "Requests waiting for admission");
    describe_gauge!(RUNNING_REQUESTS, "Requests admitted and running");
    describe_gauge!(
        KV_SLOTS,
        "KV slots by state: used (evictable + protected), evictable, free, protected"
    );
    describe_gauge!(KV_CAPACITY, "KV slots in the pool");
    describe_counter!(
        RETRACTIONS,
        "Running requests sent back to the queue for lack of KV memory"
    );
    describe_counter!(EVICTED_TOKENS, "Tokens evicted from the prefix cache");
    describe_counter!(CACHE_QUERIED_TOKENS, "Tokens looked up in the prefix cache");
    describe_counter!(
        CACHE_HIT_TOKENS,
        "Looked-up tokens found in the prefix cache"
    );
    describe_histogram!(
        TTFT,
        Unit::Seconds,
        "Time from submission to the first token"
    );
    describe_histogram!(
        INTER_TOKEN,
        Unit::Seconds,
        "Time between consecutive tokens of a request"
    );
    describe_histogram!(E2E, Unit::Seconds, "Time from submission to the end");
    describe_histogram!(BATCH_TOKENS, "Tokens computed per forward batch");
    describe_histogram!(BATCH_REQUESTS, "Requests per forward batch");
    describe_histogram!(
        STEP_PHASE,
        Unit::Seconds,
        "Scheduler step time by phase: schedule, forward, sample, output"
    );
    describe_gauge!(DRAINING, "1 while the server drains before shutdown");
    describe_gauge!(UPTIME, Unit::Seconds, "Seconds since the engine started");
    describe_counter!(HTTP_REQUESTS, "HTTP responses by route and status");
}
