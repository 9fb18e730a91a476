//! Fair scheduling across tenants with the real model: a light tenant keeps its time to first
//! token while a heavy tenant floods the engine, backlogged tenants split processed tokens by
//! weight, and one tenant's traffic does not evict another's cache within its fair share.
//!
//! These compare the engine with itself under different loads (ratios, not absolute times),
//! and take turns so that no other test shares the two cores.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest, TenantInfo};
use engine::sampling::SamplingParams;
use engine::scheduler::SchedulerConfig;
use engine::tenants::TenantLimits;
use radix::{CacheScope, Namespace};
use std::sync::Mutex;
use std::time::Duration;

static SERIAL: Mutex<()> = Mutex::new(());

fn engine(scheduler: SchedulerConfig, kv_budget_bytes: usize, weights: &[f64]) -> EngineHandle {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = kv_budget_bytes;
    config.max_context_len = 2048;
    config.scheduler = scheduler;
    let engine = EngineHandle::start(config).unwrap();
    engine.set_tenant_limits(
        weights
            .iter()
            .enumerate()
            .map(|(i, &weight)| TenantLimits {
                weight,
                ..TenantLimits::unlimited(&format!("t{i}"))
            })
            .collect(),
    );
    engine
}

/// `len` prompt tokens, distinct for each `seed` from the first token on.
fn prompt(seed: u32, len: usize) -> Vec<u32> {
    (0..len as u32)
        .map(|i| 1000 + (seed * 7919 + i * 104_729) % 40_000)
        .collect()
}

fn request(tenant: u32, input_ids: Vec<u32>, max_new_tokens: u32) -> GenerateRequest {
    let params = SamplingParams {
        max_new_tokens,
        ignore_eos: true,
        ..SamplingParams::default()
    };
    let mut request = GenerateRequest::new(input_ids, params);
    request.tenant = tenant;
    request.namespace = Namespace::scoped(CacheScope::Tenant(tenant));
    request
}

/// Runs one request to its end; returns (TTFT seconds, cached prompt tokens).
fn run(engine: &EngineHandle, request: GenerateRequest) -> (f64, u32) {
    let mut stream = engine.submit(request).unwrap();
    while let Some(event) = stream.blocking_next() {
        match event {
            GenerateEvent::Finished(done) => return (done.ttft_s, done.usage.cached_tokens),
            GenerateEvent::Error(e) => panic!("{e}"),
            GenerateEvent::Chunk { .. } => {}
        }
    }
    panic!("the stream ended without Finished");
}

/// The engine's snapshot once the scheduler has published one with every tenant.
fn published_info(engine: &EngineHandle) -> engine::handle::ServerInfo {
    for _ in 0..500 {
        let info = engine.server_info();
        if info.tenants.len() >= 2 {
            return info;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no snapshot with the tenants was published");
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
fn a_light_tenant_keeps_its_ttft_beside_a_heavy_one() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let config = SchedulerConfig {
        max_prefill_tokens: 256,
        chunked_prefill_size: 256,
        ..SchedulerConfig::default()
    };
    let engine = engine(config, 1 << 30, &[1.0, 1.0]);
    let (heavy, light) = (0, 1);
    // Three chunks: alone it takes three steps, beside the heavy tenant three steps plus the
    // wait for the step under way (and the heavy tenant's decodes riding along).
    let light_prompt_len = 768;
    // A sparse tenant: requests at irregular gaps, so they land anywhere within a step.
    let pause = |i: u32| std::thread::sleep(Duration::from_millis(100 + u64::from(i * 337 % 600)));
    // Warm-up, then the light tenant alone.
    run(&engine, request(light, prompt(999, light_prompt_len), 2));
    let alone: Vec<f64> = (0..5)
        .map(|i| {
            pause(i);
            run(
                &engine,
                request(light, prompt(100 + i, light_prompt_len), 2),
            )
            .0
        })
        .collect();

    // The heavy tenant: 12 concurrent long prompts with long outputs (a backlog of ~4,600
    // prompt tokens, 18 steps of prefill, when the light tenant starts).
    let streams: Vec<_> = (0..12)
        .map(|i| {
            engine
                .submit(request(heavy, prompt(200 + i, 384), 512))
                .unwrap()
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut loaded = Vec::new();
    for i in 0..5 {
        pause(i);
        loaded.push(
            run(
                &engine,
                request(light, prompt(300 + i, light_prompt_len), 2),
            )
            .0,
        );
        let info = engine.server_info();
        assert!(
            info.tenants[heavy as usize].waiting_requests
                + info.tenants[heavy as usize].running_requests
                > 0,
            "the heavy tenant must still be busy for the comparison to mean anything"
        );
    }
    let (alone, loaded) = (median(alone), median(loaded));
    eprintln!("light tenant median TTFT: alone {alone:.3}s, beside the heavy one {loaded:.3}s");
    assert!(
        loaded <= 2.0 * alone,
        "light tenant's median TTFT {loaded:.3}s under load vs {alone:.3}s alone"
    );
    drop(streams);
    common::wait_idle(&engine);
}

/// Prefill plus decode tokens processed for each tenant.
fn processed(tenants: &[TenantInfo]) -> Vec<u64> {
    tenants
        .iter()
        .map(|t| t.prefill_tokens + t.decode_tokens)
        .collect()
}

#[test]
fn backlogged_tenants_split_tokens_by_weight() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let config = SchedulerConfig {
        max_running_requests: 8,
        ..SchedulerConfig::default()
    };
    let engine = engine(config, 512 << 20, &[1.0, 3.0]);
    let mut streams = Vec::new();
    for i in 0..32 {
        for tenant in [0, 1] {
            streams.push(
                engine
                    .submit(request(tenant, prompt(1000 * tenant + i, 64), 32))
                    .unwrap(),
            );
        }
    }
    // The window: from both tenants running to the last moment both still have a backlog.
    let mut start: Option<Vec<u64>> = None;
    let mut end: Option<Vec<u64>> = None;
    loop {
        let info = engine.server_info();
        let t = &info.tenants;
        if t.len() < 2 {
            // Not yet published.
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        if start.is_none() && t[0].running_requests > 0 && t[1].running_requests > 0 {
            start = Some(processed(t));
        }
        if t[0].waiting_requests > 0 && t[1].waiting_requests > 0 {
            end = Some(processed(t));
        } else if start.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (start, end) = (start.unwrap(), end.unwrap());
    let (light, heavy) = (end[0] - start[0], end[1] - start[1]);
    let ratio = heavy as f64 / light as f64;
    eprintln!("processed tokens while both backlogged: weight 3: {heavy}, weight 1: {light}");
    assert!(
        (2.4..=3.6).contains(&ratio),
        "weights 3:1, processed tokens {heavy}:{light} = {ratio:.2}"
    );
    drop(streams);
    common::wait_idle(&engine);
}

#[test]
fn one_tenants_flood_does_not_evict_anothers_cache_within_its_share() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // A pool of ~1,500 tokens (f32 K/V of 30 layers x 3 heads x 64 x 2 = 46,080 bytes/token).
    let engine = engine(SchedulerConfig::default(), 1_500 * 46_080, &[1.0, 1.0]);
    let capacity = published_info(&engine).kv_capacity_tokens;
    assert!((1_200..2_000).contains(&capacity), "{capacity}");
    let (keeper, flooder) = (0, 1);
    let kept = prompt(7, 200);
    assert_eq!(run(&engine, request(keeper, kept.clone(), 4)).1, 0);
    // The flooder sends twice the pool in distinct prompts.
    let streams: Vec<_> = (0..8)
        .map(|i| {
            engine
                .submit(request(flooder, prompt(500 + i, 360), 4))
                .unwrap()
        })
        .collect();
    for mut s in streams {
        while let Some(event) = s.blocking_next() {
            assert!(!matches!(event, GenerateEvent::Error(_)));
        }
    }
    common::wait_idle(&engine);
    let info = engine.server_info();
    assert!(info.tenants[flooder as usize].cached_tokens > 0);
    // Its cache stayed: the whole prompt but the token always recomputed.
    let (_, cached) = run(&engine, request(keeper, kept.clone(), 4));
    assert!(
        cached as usize >= kept.len() - 1,
        "the keeper's prefix was evicted by another tenant: {cached} cached"
    );
    common::wait_idle(&engine);
}
