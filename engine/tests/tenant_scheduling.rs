//! Fair scheduling across tenants, with the scripted model so that every step is exact: a
//! tenant whose prompts are larger than the others' is not starved by them, another tenant's
//! work evicts a cache only down to its owner's fair share, a tenant a reload removed keeps
//! no protected cache, rejected speculative drafts count against their tenant, and a
//! tenant's costly grammars wait out what their masks overspend of its budget, and tenants
//! returning from idle do not starve a request that needs the whole pool.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::scripted::{
    assert_idle_without_leak, collect_tokens, finish_within, reference, start_model,
    start_model_with,
};
use engine::grammar::GrammarSpec;
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

/// What happened to named requests, in order: `NAME first` (its first token), `NAME done`
/// (or `NAME error: ...`).
type Log = Arc<Mutex<Vec<String>>>;

/// Reads `stream` on a thread of its own, logging its first token and its end as `name`.
fn watch_events(
    log: &Log,
    stream: engine::handle::RequestStream,
    name: String,
) -> std::thread::JoinHandle<()> {
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
                GenerateEvent::Error(e) => log.lock().unwrap().push(format!("{name} error: {e}")),
                GenerateEvent::Chunk { .. } => {}
            }
        }
    })
}

/// Waits until `log` holds `count` entries that `matches`; fails with the log after a
/// minute.
fn wait_for(log: &Log, count: usize, matches: impl Fn(&str) -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let log = log.lock().unwrap();
        if log.iter().filter(|e| matches(e)).count() >= count {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "stalled: {log:?}");
        drop(log);
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// When a tenant's turn comes and its request does not fit, the memory it needs is held back
/// from the tenants served after it: it runs once enough is free, where the other tenant's
/// smaller requests used to take every slot that freed up until its whole queue was done.
#[test]
fn a_tenant_with_large_prompts_is_not_starved_by_small_ones() {
    let engine = slow_engine(1000);
    two_tenants(&engine, false);
    let log: Log = Arc::default();
    let watch = |stream, name| watch_events(&log, stream, name);
    // Tenant 0 queues 20 requests of 150 + 40 to 59 tokens: about five fit at once, and
    // they end on different steps, so that one often runs alone beside a cache of tenant
    // 0's finished ones (within its fair share, which tenant 1 may not evict).
    let mut readers: Vec<_> = (0..20)
        .map(|i| {
            let stream = engine
                .submit(request(0, prompt(i, 150), 40 + (i * 7) % 20))
                .unwrap();
            watch(stream, format!("b{i}"))
        })
        .collect();
    wait_for(&log, 1, |e| e.ends_with("first"));
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

/// Tenants taking turns with short requests, each returning from idle (its counter lifted
/// to just below the active ones'), keep the batch busy; a request that fits only when
/// nothing else runs still runs once its turn comes, not after they stop: a lift only
/// raises a counter, so each goes before it only while less served.
#[test]
fn tenants_returning_from_idle_do_not_starve_a_request_that_needs_the_pool() {
    use std::sync::OnceLock;
    let handle: Arc<OnceLock<EngineHandle>> = Arc::default();
    let log: Log = Arc::default();
    let watch = {
        let log = log.clone();
        move |stream, name| watch_events(&log, stream, name)
    };
    // Tenant 0 runs one long request. On its third forward pass tenant 1 asks for 800
    // prompt tokens, which fit only when nothing else runs (the others' caches within
    // their shares of 250 stay). From then on, every sixth forward pass, tenants 2 and 3 in
    // turn send a short request: each lives about eight steps, so the batch would never be
    // without one, and each tenant is idle for a few steps before its next (40 in all).
    // Sent from the scheduler's thread, so that they arrive at these steps however slowly
    // the test's threads run.
    let hook = {
        let (handle, watch, log) = (handle.clone(), watch.clone(), log.clone());
        let mut forwards = 0u32;
        let mut sent = 0u32;
        Box::new(move |_: &engine::model::ForwardBatch| {
            forwards += 1;
            let Some(engine) = handle.get() else { return };
            if forwards == 3 {
                let big = engine.submit(request(1, prompt(99, 800), 2));
                drop(watch(big.unwrap(), "big".into()));
            }
            if forwards.is_multiple_of(6) && sent < 40 {
                let tenant = 2 + sent % 2;
                // On the scheduler's thread: a refusal is logged, not a panic there.
                match engine.submit(request(tenant, prompt(1000 + sent, 30), 7)) {
                    Ok(stream) => drop(watch(stream, format!("c{sent}"))),
                    Err(e) => log.lock().unwrap().push(format!("c{sent} refused: {e}")),
                }
                sent += 1;
            }
            std::thread::sleep(Duration::from_millis(2));
        })
    };
    let model = ScriptedModel::new(50_000, 2048).with_forward_hook(hook);
    let engine = start_model_with(model, 1000, |config| {
        config.max_context_len = 2048;
        config.scheduler.max_running_requests = 32;
        config.scheduler.max_prefill_tokens = 512;
        config.scheduler.chunked_prefill_size = 256;
        config.scheduler.speculative_draft_tokens = 0;
    });
    engine.set_tenant_limits(
        (0..4)
            .map(|t| TenantLimits::unlimited(&format!("t{t}")))
            .collect(),
    );
    handle.set(engine.clone()).ok();
    let long = engine.submit(request(0, prompt(0, 100), 150)).unwrap();
    let reader = watch(long, "long".into());
    // Everything ends (the chain goes on after the big request).
    wait_for(&log, 42, |e| {
        e.ends_with("done") || e.contains(" error: ") || e.contains(" refused: ")
    });
    let log_now = log.lock().unwrap().clone();
    assert!(
        !log_now
            .iter()
            .any(|e| e.contains(" error: ") || e.contains(" refused: ")),
        "{log_now:?}"
    );
    reader.join().unwrap();
    let log = log.lock().unwrap();
    let big_done = log.iter().position(|e| e == "big done").unwrap();
    let started_after = log[big_done..]
        .iter()
        .filter(|e| e.starts_with('c') && e.ends_with("first"))
        .count();
    assert!(
        started_after >= 5,
        "the big request waited for the turn-takers to stop: {log:?}"
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

/// Runs tenant 0's 4 requests under the grammar `[a-z]{200}` (12 tokens each) beside tenant
/// 1's unconstrained one (24 tokens, after a longer prompt) with `budget` as each tenant's
/// grammar mask time per step. Returns the outputs (tenant 0's, then tenant 1's), the
/// positions each forward pass decoded, and the constrained decodes that waited.
fn run_with_mask_budget(budget: Option<Duration>) -> (Vec<Vec<u32>>, Vec<Vec<u32>>, u64) {
    let decoded: Arc<Mutex<Vec<Vec<u32>>>> = Arc::default();
    let log = decoded.clone();
    // The first pass waits until every request is in: the steps do not depend on when the
    // test's submissions happen to arrive.
    let all_in = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let go = all_in.clone();
    // Sampling on the device: masks are computed before the pass, so no part of their
    // time hides behind it and the budget alone decides.
    let model = ScriptedModel::new(50_000, 512).sampling_on_device();
    let model = model.with_forward_hook(Box::new(move |batch| {
        while !go.load(std::sync::atomic::Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let decodes = batch
            .q_indptr
            .windows(2)
            .filter(|w| w[1] - w[0] == 1)
            .map(|w| batch.positions[w[0] as usize])
            .collect();
        log.lock().unwrap().push(decodes);
    }));
    let engine = start_model_with(model, 1024, |config| {
        config.scheduler.max_running_requests = 8;
        config.scheduler.speculative_draft_tokens = 0;
        config.scheduler.grammar_mask_budget = budget;
    });
    two_tenants(&engine, false);
    let spec = GrammarSpec::Regex("[a-z]{200}".into());
    let mut requests: Vec<GenerateRequest> = (0..4)
        .map(|i| {
            let mut r = request(0, prompt(i, 8), 12);
            r.constraint = Some(engine.compile_grammar_now(&spec, &r.namespace).unwrap());
            r
        })
        .collect();
    requests.push(request(1, prompt(9, 64), 24));
    let streams: Vec<_> = requests
        .into_iter()
        .map(|r| engine.submit(r).unwrap())
        .collect();
    all_in.store(true, std::sync::atomic::Ordering::Release);
    let outputs = streams.into_iter().map(collect_tokens).collect();
    assert_idle_without_leak(&engine);
    let waits = engine.server_info().grammar_waits;
    engine.shutdown(Duration::from_secs(1));
    let decoded = decoded.lock().unwrap().clone();
    (outputs, decoded, waits)
}

/// A tenant's grammar masks are charged to a credit of mask time refilled by its budget each
/// step: with a budget of 1 ns, the masks of tenant 0's four prompts (sampled together in the
/// first step, their cost not yet known) leave it in debt for longer than the test runs, so
/// its decodes wait while tenant 1 decodes every step, and then run one per step (a step
/// with nothing else to run lets the longest waiting through). What waited produced exactly
/// what it produces without the budget.
#[test]
fn a_tenants_costly_grammars_take_turns_while_the_others_decode_every_step() {
    let (free_outputs, free_steps, free_waits) = run_with_mask_budget(None);
    let (outputs, steps, waits) = run_with_mask_budget(Some(Duration::from_nanos(1)));
    assert_eq!(outputs, free_outputs, "waiting changes no output");
    assert_eq!(outputs[4], reference(&prompt(9, 64), 24));
    assert_eq!(free_waits, 0);
    // Tenant 0 decodes at positions 8..20, tenant 1 at 64..88.
    let constrained = |step: &Vec<u32>| step.iter().filter(|&&p| p < 64).count();
    assert!(
        free_steps.iter().any(|s| constrained(s) > 1),
        "without a budget they decode together: {free_steps:?}"
    );
    assert!(
        steps.iter().all(|s| constrained(s) <= 1),
        "one constrained decode per step: {steps:?}"
    );
    let total: usize = steps.iter().map(constrained).sum();
    assert_eq!(total, 4 * 11, "each sampled its first token at its prefill");
    // Tenant 1's 23 decodes run in consecutive steps, while tenant 0's wait.
    let own: Vec<usize> = (0..steps.len())
        .filter(|&i| steps[i].iter().any(|&p| p >= 64))
        .collect();
    assert_eq!(own.len(), 23);
    assert_eq!(own[22] - own[0], 22, "tenant 1 never waited: {steps:?}");
    let beside: usize = steps[own[0]..=own[22]].iter().map(constrained).sum();
    assert_eq!(
        beside, 0,
        "tenant 0's prompts' masks overdrew its credit: {steps:?}"
    );
    let last_constrained = (0..steps.len()).rev().find(|&i| constrained(&steps[i]) > 0);
    assert!(last_constrained > Some(own[22]), "{steps:?}");
    assert!(waits > 0);
}

/// One tenant cannot fill the engine's queue: once it is half full, each tenant holds at
/// most its weight's share of it, so another tenant's requests still get in (before, the
/// first tenant took all of it and everyone else got "the request queue is full").
#[test]
fn a_tenant_holds_at_most_its_share_of_a_busy_queue() {
    let hold = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let held = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (hold_in, held_in) = (hold.clone(), held.clone());
    let model = ScriptedModel::new(50_000, 2048).with_forward_hook(Box::new(move |_| {
        held_in.store(true, std::sync::atomic::Ordering::SeqCst);
        while hold_in.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }));
    let engine = start_model_with(model, 4096, |config| {
        config.scheduler.max_running_requests = 1;
        config.scheduler.max_queued_requests = 8;
    });
    two_tenants(&engine, false);
    let mut streams = vec![engine.submit(request(0, prompt(0, 20), 4)).unwrap()];
    // The scheduler holds in its first pass: what is submitted now waits.
    while !held.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut refusal = None;
    for seed in 1..=8 {
        match engine.submit(request(0, prompt(seed, 20), 4)) {
            Ok(stream) => streams.push(stream),
            Err(e) => {
                refusal = Some(e.to_string());
                break;
            }
        }
    }
    let refusal = refusal.expect("tenant 0 queued without limit");
    assert!(refusal.contains("its share (4)"), "{refusal}");
    let tenant_0 = streams.len();
    assert!((4..=5).contains(&tenant_0), "tenant 0 got {tenant_0} in");
    // Tenant 1 fills the rest of the queue.
    let mut tenant_1 = 0;
    while let Ok(stream) = engine.submit(request(1, prompt(100 + tenant_1, 20), 4)) {
        streams.push(stream);
        tenant_1 += 1;
        assert!(tenant_1 <= 8, "the queue took more than it holds");
    }
    assert_eq!(tenant_1, 4, "tenant 1 fills the queue's other half");
    hold.store(false, std::sync::atomic::Ordering::SeqCst);
    for stream in streams {
        assert_eq!(collect_tokens(stream).len(), 4);
    }
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// A tenant whose cache is a group's (shared, owned by nobody) still has its running
/// requests' prompts count against its KV quota: what a request computed into the shared
/// tree is locked there while it runs. Before, a prompt stopped counting once its chunks
/// were computed, so a second one was admitted beside it, far beyond the quota.
#[test]
fn a_group_tenants_running_prompts_count_against_its_quota() {
    let most = Arc::new(Mutex::new(0usize));
    let seen = most.clone();
    let model = ScriptedModel::new(50_000, 2048).with_forward_hook(Box::new(move |batch| {
        let mut most = seen.lock().unwrap();
        *most = (*most).max(batch.num_requests());
    }));
    let engine = start_model_with(model, 4096, |config| {
        config.scheduler.speculative_draft_tokens = 0;
    });
    let mut limits = TenantLimits::unlimited("grouped");
    limits.kv_quota_tokens = Some(600);
    limits.cache_group = Some((0, "g".into()));
    engine.set_tenant_limits(vec![TenantLimits::unlimited("t0"), limits]);
    let streams: Vec<_> = (0..3)
        .map(|seed| {
            let mut r = request(1, prompt(seed, 500), 40);
            r.namespace = Namespace::scoped(CacheScope::Group(0));
            engine.submit(r).unwrap()
        })
        .collect();
    for stream in streams {
        assert_eq!(collect_tokens(stream).len(), 40);
    }
    assert_eq!(
        *most.lock().unwrap(),
        1,
        "two 540-token requests ran at once under a quota of 600"
    );
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// With overlap scheduling, a request whose client hangs up while its batch is in flight
/// still has that batch's work charged to its tenant (it was computed all the same): before,
/// the results were dropped uncharged, and a client that hung up after each launch was
/// served for free, ahead of the tenants that paid.
#[test]
fn work_in_flight_for_a_request_that_hangs_up_is_charged() {
    let (launched_tx, launched_rx) = std::sync::mpsc::channel::<()>();
    let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
    // The prompt's only chunk (64 tokens) holds the scheduler until the client is gone.
    let model = ScriptedModel::new(50_000, 512)
        .launching_asynchronously()
        .with_forward_hook(Box::new(move |batch| {
            if batch.num_tokens() == 64 {
                launched_tx.send(()).unwrap();
                go_rx.recv().unwrap();
            }
        }));
    let engine = start_model_with(model, 1024, |config| {
        config.scheduler.overlap_schedule = true;
    });
    two_tenants(&engine, false);
    let stream = engine.submit(request(1, prompt(1, 64), 8)).unwrap();
    launched_rx.recv().unwrap();
    drop(stream);
    go_tx.send(()).unwrap();
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while engine.server_info().aborted_requests == 0 {
        assert!(
            std::time::Instant::now() < until,
            "the hang-up was never seen"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let t1 = idle_tenant(&engine, 1);
    assert_eq!(t1.prefill_tokens, 64, "{t1:?}");
    assert!(t1.virtual_tokens > 0.0, "{t1:?}");
    engine.shutdown(Duration::from_secs(1));
}

/// The embedding of `prompt` for `tenant`, read to its end.
fn embedding_of(engine: &EngineHandle, tenant: u32, prompt: Vec<u32>) -> Vec<f32> {
    let mut r = GenerateRequest::embedding(prompt);
    r.tenant = tenant;
    r.namespace = Namespace::scoped(CacheScope::Tenant(tenant));
    let mut stream = engine.submit(r).unwrap();
    loop {
        match stream.blocking_next().unwrap() {
            GenerateEvent::Finished(done) => return done.embedding.unwrap(),
            GenerateEvent::Chunk { token_ids, .. } => assert!(token_ids.is_empty()),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
}

/// Embeddings meet the limits a generation's prompt meets, and only those: the longest
/// input the pool, the context or the tenant's KV quota leaves room for is embedded, one
/// more token is refused at once (none waits for room that never comes); a batch of
/// inputs larger than the tenant may queue, or than its rate limit's burst, is refused as
/// invalid, naming the inputs.
#[test]
fn embeddings_fit_the_limits_a_prompt_does() {
    let engine = start_model(ScriptedModel::new(50_000, 2048), 96);
    let mut quota = TenantLimits::unlimited("quota");
    quota.kv_quota_tokens = Some(40);
    quota.max_queued_requests = Some(3);
    let mut rate = TenantLimits::unlimited("rate");
    rate.token_rate = Some(engine::tenants::TokenRate {
        per_second: 1.0,
        burst: 50.0,
    });
    engine.set_tenant_limits(vec![TenantLimits::unlimited("t0"), quota, rate]);
    let refused = |tenant: u32, prompts: Vec<Vec<u32>>| {
        let requests: Vec<_> = prompts
            .into_iter()
            .map(|p| {
                let mut r = GenerateRequest::embedding(p);
                r.tenant = tenant;
                r
            })
            .collect();
        let rt = tokio::runtime::Runtime::new().unwrap();
        match rt.block_on(engine.submit_group(requests, 1)) {
            Err(engine::handle::SubmitError::InvalidArgument(message)) => message,
            other => panic!("not refused as invalid: {:?}", other.map(|s| s.len())),
        }
    };
    // A prompt leaves the pool one token for admission's step past it.
    let capacity = engine.server_info().kv_capacity_tokens;
    let longest = prompt(1, capacity - 1);
    assert_eq!(
        embedding_of(&engine, 0, longest.clone()),
        ScriptedModel::reference_hidden(&longest)
    );
    let message = refused(0, vec![prompt(1, capacity)]);
    assert!(
        message.contains(&format!("at most {}", capacity - 1)),
        "{message}"
    );
    // The quota of 40 tokens.
    let within = prompt(2, 39);
    assert_eq!(
        embedding_of(&engine, 1, within.clone()),
        ScriptedModel::reference_hidden(&within)
    );
    let message = refused(1, vec![prompt(2, 40)]);
    assert!(message.contains("kv_quota_tokens"), "{message}");
    // More inputs than the tenant may queue, and more tokens than its burst.
    let message = refused(1, (0..4).map(|s| prompt(s, 8)).collect());
    assert!(message.contains("4 requests at once"), "{message}");
    let message = refused(2, (0..2).map(|s| prompt(s, 30)).collect());
    assert!(message.starts_with("input:"), "{message}");
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// Under overlap scheduling, with a pool too small for every decode at once, one tenant
/// decoding and another sending embeddings (some computed and awaiting their collect when
/// room runs out): every request finishes with its reference output, nothing leaks.
#[test]
fn decodes_short_of_memory_beside_embeddings_all_finish() {
    let engine = start_model_with(ScriptedModel::new(50_000, 2048), 160, |config| {
        config.scheduler.overlap_schedule = true;
        config.scheduler.max_running_requests = 8;
        config.scheduler.speculative_draft_tokens = 0;
    });
    two_tenants(&engine, false);
    let decoding: Vec<_> = (0..3)
        .map(|seed| {
            let p = prompt(100 + seed, 20);
            (p.clone(), engine.submit(request(1, p, 40)).unwrap())
        })
        .collect();
    let embedding: Vec<_> = (0..12)
        .map(|seed| {
            let p = prompt(seed, 30);
            let mut r = GenerateRequest::embedding(p.clone());
            r.namespace = Namespace::scoped(CacheScope::Tenant(0));
            (p, engine.submit(r).unwrap())
        })
        .collect();
    for (p, stream) in decoding {
        let (tokens, _) = finish_within(stream, Duration::from_secs(20));
        assert_eq!(tokens, reference(&p, 40));
    }
    for (p, mut stream) in embedding {
        let done = loop {
            match stream.blocking_next().unwrap() {
                GenerateEvent::Finished(done) => break done,
                GenerateEvent::Chunk { .. } => {}
                GenerateEvent::Error(e) => panic!("{e}"),
            }
        };
        let hidden = ScriptedModel::reference_hidden(&p);
        assert_eq!(done.embedding.as_deref(), Some(&hidden[..]));
    }
    // Whether room ran out depends on how the steps fall (admission may also hold a decode
    // back): what must hold either way is that everything finished right, with no leak.
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}
