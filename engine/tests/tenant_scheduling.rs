//! Fair scheduling across tenants, with the scripted model so that every step is exact: a
//! tenant whose prompts are larger than the others' is not starved by them, another tenant's
//! work evicts a cache only down to its owner's fair share, a tenant a reload removed keeps
//! no protected cache, and rejected speculative drafts count against their tenant.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::scripted::{
    assert_idle_without_leak, collect_tokens, reference, start_model, start_model_with,
};
use engine::handle::{EngineHandle, GenerateEvent, GenerateRequest, TenantInfo};
use engine::model::scripted::ScriptedModel;
use engine::sampling::SamplingParams;
use engine::tenants::TenantLimits;
use radix::{CacheScope, Namespace};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Tenant `tenant`'s request of `prompt`, generating exactly `max` tokens.
fn request(tenant: u32, prompt: Vec<u32>, max: u32) -> GenerateRequest {
    let mut r = GenerateRequest::new(prompt, SamplingParams::greedy(max));
    r.params.ignore_eos = true;
    r.tenant = tenant;
    r.namespace = Namespace::scoped(CacheScope::Tenant(tenant));
    r
}

/// `len` tokens, distinct for each `seed` from the first on.
fn prompt(seed: u32, len: usize) -> Vec<u32> {
    (0..len as u32)
        .map(|i| 2000 + (seed * 7919 + i * 104_729) % 40_000)
        .collect()
}

/// Two tenants of equal weight; `removed` marks tenant 1 as a reload does.
fn two_tenants(engine: &EngineHandle, removed: bool) {
    let mut t1 = TenantLimits::unlimited("t1");
    t1.removed = removed;
    engine.set_tenant_limits(vec![TenantLimits::unlimited("t0"), t1]);
}

/// The tenant's figures once the engine is idle.
fn idle_tenant(engine: &EngineHandle, tenant: usize) -> TenantInfo {
    assert_idle_without_leak(engine);
    // The snapshot names the tenants from the step after their limits arrived.
    for _ in 0..1000 {
        if let Some(t) = engine.server_info().tenants.get(tenant) {
            return t.clone();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("tenant {tenant} never appeared in the engine's snapshot");
}

/// Tenant 1 fills its cache with leaves of `leaf` tokens until it holds `target` or more;
/// returns what it holds.
fn cache_for_tenant_1(engine: &EngineHandle, target: usize, leaf: usize) -> usize {
    let mut seed = 0;
    while idle_tenant(engine, 1).cached_tokens < target {
        seed += 1;
        collect_tokens(engine.submit(request(1, prompt(seed, leaf), 1)).unwrap());
    }
    idle_tenant(engine, 1).cached_tokens
}

/// Tenant 0 runs distinct prompts through twice the pool, one after another.
fn flood_from_tenant_0(engine: &EngineHandle, capacity: usize) {
    for seed in 0..(2 * capacity / 100) as u32 {
        collect_tokens(
            engine
                .submit(request(0, prompt(10_000 + seed, 100), 1))
                .unwrap(),
        );
    }
}

/// Another tenant's work takes a cache above its fair share only down to that share (whole
/// leaves), where it used to take all of it once the owner was a token over.
#[test]
fn another_tenants_work_evicts_a_cache_only_down_to_its_fair_share() {
    let engine = start_model(ScriptedModel::new(50_000, 512), 1024);
    two_tenants(&engine, false);
    let capacity = engine.server_info().kv_capacity_tokens;
    let share = capacity / 2;
    let leaf = 50;
    let before = cache_for_tenant_1(&engine, share + 2 * leaf, leaf);
    flood_from_tenant_0(&engine, capacity);
    let after = idle_tenant(&engine, 1).cached_tokens;
    assert!(
        after < before,
        "its excess is evictable: {before} -> {after}"
    );
    assert!(
        (share..share + leaf).contains(&after),
        "down to its share of {share}, to within one leaf: {before} -> {after}"
    );
    engine.shutdown(Duration::from_secs(1));
}

/// A tenant a reload removed has no fair share: its cache goes first, where its last limits
/// used to protect it for as long as the server ran.
#[test]
fn a_removed_tenants_cache_is_anyones_to_evict() {
    let engine = start_model(ScriptedModel::new(50_000, 512), 1024);
    two_tenants(&engine, false);
    let capacity = engine.server_info().kv_capacity_tokens;
    let before = cache_for_tenant_1(&engine, capacity / 4, 50);
    assert!(before < capacity / 2, "within its share while configured");
    two_tenants(&engine, true);
    flood_from_tenant_0(&engine, capacity);
    assert_eq!(idle_tenant(&engine, 1).cached_tokens, 0);
    engine.shutdown(Duration::from_secs(1));
}

/// An engine on the scripted model whose every forward pass takes a few milliseconds (so
/// that events of different steps arrive in step order), with room for many requests.
fn slow_engine(kv_tokens: usize) -> EngineHandle {
    let model = ScriptedModel::new(50_000, 2048).with_forward_hook(Box::new(|_| {
        std::thread::sleep(Duration::from_millis(2));
    }));
    start_model_with(model, kv_tokens, |config| {
        config.max_context_len = 2048;
        config.scheduler.max_running_requests = 32;
        config.scheduler.max_prefill_tokens = 512;
        config.scheduler.chunked_prefill_size = 256;
        config.scheduler.speculative_draft_tokens = 0;
    })
}

/// When a tenant's turn comes and its request does not fit, the memory it needs is held back
/// from the tenants served after it: it runs once enough is free, where the other tenant's
/// smaller requests used to take every slot that freed up until its whole queue was done.
#[test]
fn a_tenant_with_large_prompts_is_not_starved_by_small_ones() {
    let engine = slow_engine(1000);
    two_tenants(&engine, false);
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let watch = |stream: engine::handle::RequestStream, name: String| {
        let log = log.clone();
        std::thread::spawn(move || {
            let mut stream = stream;
            let mut first = true;
            while let Some(event) = stream.blocking_next() {
                match event {
                    GenerateEvent::Chunk { .. } if first => {
                        first = false;
                        log.lock().unwrap().push(format!("{name} first"));
                    }
                    GenerateEvent::Finished(_) => log.lock().unwrap().push(format!("{name} done")),
                    GenerateEvent::Error(e) => panic!("{name}: {e}"),
                    GenerateEvent::Chunk { .. } => {}
                }
            }
        })
    };
    // Tenant 0 queues 20 requests of 150 + 50 tokens: about five fit at once.
    let mut readers: Vec<_> = (0..20)
        .map(|i| {
            let stream = engine.submit(request(0, prompt(i, 150), 50)).unwrap();
            watch(stream, format!("b{i}"))
        })
        .collect();
    while !log.lock().unwrap().iter().any(|e| e.ends_with("first")) {
        std::thread::sleep(Duration::from_millis(1));
    }
    // Tenant 1 then asks for 500 prompt tokens, more than what one of tenant 0's requests
    // frees when it ends.
    let big = prompt(99, 500);
    let stream = engine.submit(request(1, big.clone(), 4)).unwrap();
    readers.push(watch(stream, "a".into()));
    for reader in readers {
        reader.join().unwrap();
    }
    let log = log.lock().unwrap();
    let a_done = log.iter().position(|e| e == "a done").unwrap();
    let started_before = log[..a_done]
        .iter()
        .filter(|e| e.starts_with('b') && e.ends_with("first"))
        .count();
    assert!(
        started_before < 12,
        "{started_before} of tenant 0's 20 requests started before tenant 1's one ended: {log:?}"
    );
    drop(log);
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// Draft tokens verified and rejected were computed for their tenant: they count in its
/// fair-share counter, as prompt tokens do, where they used to cost it nothing.
#[test]
fn rejected_drafts_count_against_their_tenant() {
    let engine = start_model(ScriptedModel::new(50_000, 512), 512);
    // A prompt "x b 5 6 7 8 ... x" whose first generated token is b: the n-gram drafter
    // then proposes 5 6 7 8, which the scripted rule (tokens 100 to 1099) never gives.
    let (x, filler) = (40_000u32, [41_000u32, 41_001, 41_002]);
    let prompt = (100..1100u32)
        .map(|b| {
            let mut p = vec![x, b, 5, 6, 7, 8];
            p.extend(filler);
            p.push(x);
            p
        })
        .find(|p| ScriptedModel::reference_next(p) == p[1])
        .expect("some second token is the rule's first output");
    let mut stream = engine.submit(request(0, prompt.clone(), 8)).unwrap();
    let mut tokens = Vec::new();
    let done = loop {
        match stream.blocking_next().unwrap() {
            GenerateEvent::Chunk { token_ids, .. } => tokens.extend(token_ids),
            GenerateEvent::Finished(done) => break done,
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    };
    assert_eq!(tokens, reference(&prompt, 8));
    let rejected = done.spec_draft_tokens - done.spec_accepted_tokens;
    assert!(rejected >= 4, "{done:?}");
    let t = idle_tenant(&engine, 0);
    // Prompt tokens cost 1, generated tokens 2 (weight 1, no lift: the only tenant).
    let expected = t.prefill_tokens as f64 + 2.0 * t.decode_tokens as f64 + f64::from(rejected);
    assert_eq!(t.virtual_tokens, expected, "{t:?}");
    engine.shutdown(Duration::from_secs(1));
}
