//! The scheduler under randomized load with the scripted model: thousands of arrivals with
//! shared prefixes, aborts by dropped streams, by id and by deadline, tiny pools that force
//! eviction, chunking and retraction. Every completed request's tokens must equal what the
//! scripted rule gives for its prompt computed directly (any wrong KV slot would change them),
//! aborted ones must have produced a prefix of it, and the engine must end idle with no leak.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::process::Rng;
use common::scripted::{
    assert_idle_without_leak, collect_tokens, finish_within, reference, reference_for, start_model,
    start_model_with, SCRIPTED_BYTES_PER_TOKEN,
};
use engine::gguf::GgufFile;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest, RequestStream};
use engine::io::AbortScope;
use engine::model::scripted::ScriptedModel;
use engine::sampling::{FinishReason, SamplingParams};
use engine::scheduler::Policy;
use engine::tokenizer::{ChatTemplate, Tokenizer};
use std::time::{Duration, Instant};

#[path = "scheduler_scripted/aborts_before_queued.rs"]
mod aborts_before_queued;
#[path = "scheduler_scripted/randomized.rs"]
mod randomized;

fn start(
    page_size: usize,
    kv_tokens: usize,
    max_running: usize,
    chunk: usize,
    policy: Policy,
) -> EngineHandle {
    start_sampling(
        page_size,
        kv_tokens,
        max_running,
        chunk,
        policy,
        Sampling::Host,
    )
}

/// Where a test engine samples.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sampling {
    Host,
    /// Through `forward_sampled` (the sampling kernel's twin), as on a GPU.
    Device,
    /// Through `forward_sampled`, with overlap scheduling.
    Overlap,
    /// Overlap scheduling with a model that launches like the GPU runner: its rows stay
    /// with it until collected, and it fills in the future inputs itself.
    OverlapPending,
}

/// [`start`], sampling as `sampling` says.
fn start_sampling(
    page_size: usize,
    kv_tokens: usize,
    max_running: usize,
    chunk: usize,
    policy: Policy,
    sampling: Sampling,
) -> EngineHandle {
    let path = common::model_path();
    let file = GgufFile::open(&path).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tok).unwrap();
    // Two LoRA adapters: the randomized load runs generations under each.
    let mut model = ScriptedModel::new(tok.vocab_size(), 512).with_adapters(2);
    if sampling == Sampling::Device {
        model = model.sampling_on_device();
    }
    if sampling == Sampling::OverlapPending {
        model = model.launching_asynchronously();
    }
    let info = model.model_info(tok.stop_token_ids());
    let mut config = EngineConfig::new(path);
    config.kv_budget_bytes = kv_tokens * SCRIPTED_BYTES_PER_TOKEN;
    config.page_size = page_size;
    config.scheduler.max_running_requests = max_running;
    config.scheduler.max_prefill_tokens = chunk * 2;
    config.scheduler.chunked_prefill_size = chunk;
    config.scheduler.policy = policy;
    config.scheduler.overlap_schedule =
        matches!(sampling, Sampling::Overlap | Sampling::OverlapPending);
    EngineHandle::start_with_model(model, tok, template, info, &config).unwrap()
}

#[test]
fn refuses_what_can_never_fit_and_bad_parameters() {
    let engine = start(1, 64, 4, 16, Policy::Fcfs);
    let long = GenerateRequest::new(vec![100; 80], SamplingParams::greedy(4));
    let err = engine.submit(long).err().unwrap();
    assert!(err.to_string().contains("80 tokens"), "{err}");
    let mut bad = GenerateRequest::new(vec![100; 4], SamplingParams::greedy(4));
    bad.params.top_p = 2.0;
    assert!(engine
        .submit(bad)
        .err()
        .unwrap()
        .to_string()
        .contains("top_p"));
    let oov = GenerateRequest::new(vec![10_000_000], SamplingParams::greedy(4));
    assert!(engine
        .submit(oov)
        .err()
        .unwrap()
        .to_string()
        .contains("vocabulary"));
    assert!(engine
        .submit(GenerateRequest::new(vec![], SamplingParams::greedy(4)))
        .is_err());
    engine.begin_drain();
    let err = engine
        .submit(GenerateRequest::new(
            vec![100; 4],
            SamplingParams::greedy(4),
        ))
        .err()
        .unwrap();
    assert!(matches!(err, engine::handle::SubmitError::Unavailable(_)));
    engine.shutdown(Duration::from_secs(1));
}

#[test]
fn seeded_sampling_gives_each_request_its_own_tokens_in_any_batch() {
    // 24 running requests: the step's rows are sampled by several parallel tasks. The
    // scripted logits (10 on the rule's token, 0 elsewhere) leave the rule's token ~31%
    // at temperature 1, so the draws are truly random and depend on each request's seed and
    // its own logits row.
    let engine = start(1, 8192, 24, 64, Policy::Fcfs);
    let request = |i: u64| {
        let prompt: Vec<u32> = (0..8 + i as u32).map(|t| 100 + t * 7 + i as u32).collect();
        // Default sampling: temperature 1, no top-k / top-p cut.
        let params = SamplingParams {
            seed: Some(1000 + i),
            max_new_tokens: 12,
            ignore_eos: true,
            ..SamplingParams::default()
        };
        GenerateRequest::new(prompt, params)
    };
    let alone: Vec<Vec<u32>> = (0..24)
        .map(|i| collect_tokens(engine.submit(request(i)).unwrap()))
        .collect();
    let streams: Vec<_> = (0..24)
        .map(|i| engine.submit(request(i)).unwrap())
        .collect();
    let together: Vec<Vec<u32>> = streams.into_iter().map(collect_tokens).collect();
    assert_eq!(
        together, alone,
        "a request's tokens depend only on its seed and prompt"
    );
    // Random draws: most tokens are not the scripted rule's.
    let off_rule = (0..24u64)
        .filter(|&i| alone[i as usize] != reference(&request(i).input_ids, 12))
        .count();
    assert!(
        off_rule > 20,
        "only {off_rule} of 24 requests drew off the rule"
    );
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// A stop token ends a request whose next token is already being computed (overlap
/// scheduling launched it ahead): the request ends at the stop, the launched work is
/// dropped, and the runner's output slot is freed, so requests keep running after the
/// engine went idle with that work in flight.
#[test]
fn stop_tokens_end_requests_launched_ahead() {
    for sampling in [Sampling::Overlap, Sampling::OverlapPending] {
        let engine = start_sampling(1, 4096, 8, 64, Policy::Fcfs, sampling);
        for round in 0..6u32 {
            let prompt: Vec<u32> = (0..10).map(|t| 200 + t * 3 + round).collect();
            let want = reference(&prompt, 20);
            let mut params = SamplingParams::greedy(20);
            params.stop_token_ids = vec![want[4]];
            let first_stop = want.iter().position(|&t| t == want[4]).unwrap_or(4);
            let mut stream = engine
                .submit(GenerateRequest::new(prompt.clone(), params))
                .unwrap();
            let mut tokens = Vec::new();
            let finish = loop {
                match stream.blocking_next() {
                    Some(GenerateEvent::Chunk { token_ids, .. }) => tokens.extend(token_ids),
                    Some(GenerateEvent::Finished(c)) => break c.finish_reason,
                    Some(GenerateEvent::Error(e)) => panic!("{sampling:?} round {round}: {e}"),
                    None => panic!("stream ended without a final event"),
                }
            };
            assert!(matches!(finish, FinishReason::Stop(_)), "{finish:?}");
            assert_eq!(tokens, want[..=first_stop], "{sampling:?} round {round}");
            assert_idle_without_leak(&engine);
        }
        assert!(engine.server_info().overlapped_decodes > 0);
        engine.shutdown(Duration::from_secs(1));
    }
}

/// A request aborted while the pool is exactly full gives its KV back before the step's
/// decodes reserve their slots: the other request, now running alone, gets them and
/// finishes its whole output, where holding them to the end of the step would have ended
/// it short ("length" before max_tokens, since a lone request has nobody to give way to).
#[test]
fn an_abort_frees_its_kv_for_the_decodes_of_the_same_step() {
    use std::sync::mpsc::{channel, Receiver, Sender};
    let (reached_tx, reached_rx) = channel::<()>();
    let (go_tx, go_rx): (Sender<()>, Receiver<()>) = channel();
    // Set once the capacity is known; the hook then holds the scheduler (a) on the first
    // batch, so both requests are queued before the next step, and (b) on the batch that
    // takes the pool's last free slot.
    let capacity = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(usize::MAX));
    let seen_capacity = capacity.clone();
    let mut forwards = 0usize;
    let mut written = 0usize;
    let hook = Box::new(move |batch: &engine::model::ForwardBatch| {
        forwards += 1;
        if forwards > 1 {
            written += batch.num_tokens();
        }
        let full = written == seen_capacity.load(std::sync::atomic::Ordering::SeqCst);
        if forwards == 1 || full {
            let _ = reached_tx.send(());
            let _ = go_rx.recv();
        }
    });
    let model = ScriptedModel::new(50_000, 512).with_forward_hook(hook);
    let engine = start_model(model, 64);
    let cap = engine.server_info().kv_capacity_tokens;
    assert!(cap >= 48, "capacity {cap}");
    capacity.store(cap, std::sync::atomic::Ordering::SeqCst);

    // Both prompts together fill the pool when each holds half of it; the outputs are
    // longer than that, and their reservations (70% of max_tokens) let both in at once.
    let len_a = 10;
    let len_b = 10 + cap % 2;
    let max_tokens = (cap / 2 - 10 + 6) as u32;
    let prompt_a: Vec<u32> = (0..len_a as u32).map(|t| 300 + t * 11).collect();
    let prompt_b: Vec<u32> = (0..len_b as u32).map(|t| 700 + t * 13).collect();
    let warm = engine
        .submit(GenerateRequest::new(
            vec![900, 901],
            SamplingParams::greedy(1),
        ))
        .unwrap();
    reached_rx.recv().unwrap();
    let params = || SamplingParams {
        ignore_eos: true,
        ..SamplingParams::greedy(max_tokens)
    };
    let a = engine
        .submit(GenerateRequest::new(prompt_a, params()))
        .unwrap();
    let b = engine
        .submit(GenerateRequest::new(prompt_b.clone(), params()))
        .unwrap();
    go_tx.send(()).unwrap();
    collect_tokens(warm);

    // The pool is full: abort A before the next step.
    reached_rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the pool never filled");
    engine.abort(&a.rid);
    go_tx.send(()).unwrap();

    let (tokens, finish) = finish_within(b, Duration::from_secs(20));
    assert_eq!(tokens.len(), max_tokens as usize, "{finish:?}");
    assert_eq!(tokens, reference(&prompt_b, max_tokens as usize));
    assert_eq!(engine.server_info().retractions, 0);
    drop(a);
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// Another tenant's cache within its fair share is protected from a tenant's work, but not
/// from a request that runs alone: a prompt longer than the rest of the pool is admitted
/// instead of waiting forever.
#[test]
fn a_lone_request_may_evict_another_tenants_protected_cache() {
    use engine::tenants::TenantLimits;
    use radix::{CacheScope, Namespace};
    let engine = start_model(ScriptedModel::new(50_000, 512), 256);
    let cap = engine.server_info().kv_capacity_tokens;
    engine.set_tenant_limits(vec![
        TenantLimits::unlimited("t0"),
        TenantLimits::unlimited("t1"),
    ]);
    let request = |tenant: u32, prompt: Vec<u32>, max: u32| {
        let mut r = GenerateRequest::new(prompt, SamplingParams::greedy(max));
        r.params.ignore_eos = true;
        r.tenant = tenant;
        r.namespace = Namespace::scoped(CacheScope::Tenant(tenant));
        r
    };
    // Tenant 1 caches a little under its half of the pool.
    let cached = cap / 2 - 20;
    let prompt1: Vec<u32> = (0..cached as u32 - 4).map(|t| 400 + t % 97).collect();
    collect_tokens(engine.submit(request(1, prompt1, 4)).unwrap());
    // Tenant 0's prompt needs more than what is free.
    let len0 = cap - cached + 20;
    let prompt0: Vec<u32> = (0..len0 as u32).map(|t| 2000 + t % 89).collect();
    let stream = engine.submit(request(0, prompt0.clone(), 4)).unwrap();
    let (tokens, _) = finish_within(stream, Duration::from_secs(20));
    assert_eq!(tokens, reference(&prompt0, 4));
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// With pages of 16 tokens, a request whose prompt fills every page but leaves room in the
/// last one decodes into that room: it gets its whole output, where counting a fresh page
/// for each decode found the pool full and ended it after one token (a lone request has
/// nobody to give way to).
#[test]
fn decodes_use_the_room_left_in_their_last_page() {
    let engine = start(16, 48, 4, 64, Policy::Fcfs);
    let capacity = engine.server_info().kv_capacity_tokens;
    assert_eq!(capacity % 16, 0);
    // Every page but the last full; the last holds one prompt token and room for 15 more.
    let prompt: Vec<u32> = (0..capacity as u32 - 15).map(|t| 100 + t * 3).collect();
    let params = SamplingParams {
        ignore_eos: true,
        ..SamplingParams::greedy(10)
    };
    let tokens = collect_tokens(
        engine
            .submit(GenerateRequest::new(prompt.clone(), params))
            .unwrap(),
    );
    assert_eq!(tokens, reference(&prompt, 10));
    assert_eq!(engine.server_info().retractions, 0);
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// A tokenizer with more tokens than the model has logits rows is refused at load, naming
/// both sizes, instead of failing requests one by one.
#[test]
fn a_tokenizer_larger_than_the_logits_is_refused_at_load() {
    let path = common::model_path();
    let file = GgufFile::open(&path).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tok).unwrap();
    let vocab = tok.vocab_size();
    let model = ScriptedModel::new(vocab - 1, 512);
    let info = model.model_info(tok.stop_token_ids());
    let config = EngineConfig::new(path);
    let err = EngineHandle::start_with_model(model, tok, template, info, &config)
        .err()
        .expect("a model narrower than its tokenizer must be refused")
        .to_string();
    assert!(
        err.contains(&format!("{vocab} tokens")) && err.contains(&format!("{} rows", vocab - 1)),
        "{err}"
    );
}

/// With overlap scheduling, a request can end (here on a stop token) while the batch that
/// computes its last token's K/V is still in flight, and its slots go to the cache. If that
/// batch then fails at its collect, its K/V is garbage: the cache is dropped, so a
/// continuation of the conversation recomputes it instead of reading it.
#[test]
fn a_failed_collect_leaves_nothing_it_wrote_in_the_cache() {
    let prompt: Vec<u32> = (0..20).map(|t| 300 + t * 7).collect();
    let want = reference(&prompt, 12);
    let k = (3..12).find(|&k| !want[..k].contains(&want[k])).unwrap();
    let stop = want[k];
    let model = ScriptedModel::new(50_000, 512)
        .launching_asynchronously()
        .failing_collect_on(stop);
    let engine = start_model_with(model, 256, |c| c.scheduler.overlap_schedule = true);
    let params = SamplingParams {
        stop_token_ids: vec![stop],
        ..SamplingParams::greedy(12)
    };
    let first = collect_tokens(
        engine
            .submit(GenerateRequest::new(prompt.clone(), params))
            .unwrap(),
    );
    assert_eq!(first, want[..=k]);
    assert_idle_without_leak(&engine);
    let mut next = prompt;
    next.extend(&first);
    next.extend([777, 778]);
    let request = GenerateRequest::new(next.clone(), SamplingParams::greedy(6));
    let tokens = collect_tokens(engine.submit(request).unwrap());
    assert_eq!(tokens, reference(&next, 6));
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// Admission plans at most 4,096 output tokens of a request (SGLang's clip): two requests
/// with long budgets start in the same step, where planning each whole budget (70% of
/// 12,000 tokens) held the second back until the first had run for dozens of steps.
#[test]
fn admission_plans_a_long_budget_only_up_to_its_clip() {
    use std::sync::mpsc::channel;
    use std::sync::{Arc, Mutex};
    let (reached_tx, reached_rx) = channel::<()>();
    let (go_tx, go_rx) = channel::<()>();
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let seen = sizes.clone();
    let mut forwards = 0usize;
    // Holds the scheduler on the first batch, so both requests are queued before the next.
    let hook = Box::new(move |batch: &engine::model::ForwardBatch| {
        forwards += 1;
        if forwards == 1 {
            let _ = reached_tx.send(());
            let _ = go_rx.recv();
        } else {
            seen.lock().unwrap().push(batch.num_requests());
        }
    });
    let model = ScriptedModel::new(50_000, 20_000).with_forward_hook(hook);
    let engine = start_model(model, 15_000);
    let warm = engine
        .submit(GenerateRequest::new(
            vec![900, 901],
            SamplingParams::greedy(1),
        ))
        .unwrap();
    reached_rx.recv().unwrap();
    let params = SamplingParams {
        ignore_eos: true,
        ..SamplingParams::greedy(12_000)
    };
    let streams: Vec<_> = [[300, 311, 322, 333], [700, 713, 726, 739]]
        .into_iter()
        .map(|prompt| {
            engine
                .submit(GenerateRequest::new(prompt.to_vec(), params.clone()))
                .unwrap()
        })
        .collect();
    go_tx.send(()).unwrap();
    collect_tokens(warm);
    let until = Instant::now() + Duration::from_secs(20);
    while sizes.lock().unwrap().len() < 8 {
        assert!(Instant::now() < until, "the requests never ran");
        std::thread::sleep(Duration::from_millis(5));
    }
    let first = sizes.lock().unwrap()[..8].to_vec();
    assert!(first.contains(&2), "one request at a time: {first:?}");
    for stream in &streams {
        engine.abort(&stream.rid);
    }
    drop(streams);
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// A client that stops reading its stream (a stalled socket) has its request aborted once it
/// leaves `MAX_UNREAD_EVENTS` events unread, instead of the scheduler generating its whole
/// output into memory.
#[test]
fn a_reader_that_stops_reading_has_its_request_aborted() {
    let model = ScriptedModel::new(50_000, 8192);
    let engine = start_model_with(model, 8192, |config| {
        config.max_context_len = 8192;
        config.scheduler.speculative_draft_tokens = 0;
    });
    let prompt: Vec<u32> = (0..10).map(|i| 1000 + i).collect();
    let mut request = GenerateRequest::new(prompt.clone(), SamplingParams::greedy(6000));
    request.params.ignore_eos = true;
    let mut stream = engine.submit(request).unwrap();
    // Nothing is read until the engine is done with it.
    let until = Instant::now() + Duration::from_secs(60);
    while {
        let info = engine.server_info();
        info.finished_requests + info.aborted_requests == 0
    } {
        assert!(Instant::now() < until, "the request never ended");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_idle_without_leak(&engine);
    let (mut chunks, mut tokens) = (0, Vec::new());
    let reason = loop {
        match stream.blocking_next() {
            Some(GenerateEvent::Chunk { token_ids, .. }) => {
                chunks += 1;
                tokens.extend(token_ids);
            }
            Some(GenerateEvent::Finished(c)) => break c.finish_reason,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(reason, FinishReason::Abort);
    assert!(
        chunks <= engine::io::MAX_UNREAD_EVENTS,
        "{chunks} events were left unread"
    );
    assert!(tokens.len() < 6000, "{} tokens", tokens.len());
    assert_eq!(tokens, reference(&prompt, tokens.len()));
    engine.shutdown(Duration::from_secs(1));
}

type Flag = std::sync::Arc<std::sync::atomic::AtomicBool>;

/// An engine running one request at a time whose forward passes wait while `hold` is set;
/// `held` tells that one has begun (what is submitted meanwhile reaches the inbox together).
fn held_in_its_first_pass() -> (EngineHandle, Flag, Flag) {
    let hold = Flag::new(std::sync::atomic::AtomicBool::new(true));
    let held = Flag::new(std::sync::atomic::AtomicBool::new(false));
    let (hold_in, held_in) = (hold.clone(), held.clone());
    let model = ScriptedModel::new(50_000, 512).with_forward_hook(Box::new(move |_| {
        held_in.store(true, std::sync::atomic::Ordering::SeqCst);
        while hold_in.load(std::sync::atomic::Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }));
    let engine = start_model_with(model, 1024, |c| c.scheduler.max_running_requests = 1);
    (engine, hold, held)
}

/// Aborts by id are applied together after the scheduler reads its inbox; one never ends a
/// request submitted after it, even by the same id, and every request it names ends.
#[test]
fn an_abort_ends_the_requests_before_it_and_never_a_later_one_of_the_same_id() {
    let (engine, hold, held) = held_in_its_first_pass();
    let named = |rid: &str, first: u32| {
        let prompt: Vec<u32> = (first..first + 8).collect();
        let mut request = GenerateRequest::new(prompt, SamplingParams::greedy(4));
        request.params.ignore_eos = true;
        request.rid = Some(rid.to_string());
        engine.submit(request).unwrap()
    };
    let running = named("other", 100);
    while !held.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    // The scheduler is held: these reach its inbox together.
    let before = named("x", 200);
    let also_before = named("x", 300);
    for _ in 0..10_000 {
        engine.abort("nobody");
    }
    engine.abort("x");
    let after = named("x", 400);
    hold.store(false, std::sync::atomic::Ordering::SeqCst);
    let finish = |stream| finish_within(stream, Duration::from_secs(30)).1;
    assert_eq!(finish(before), FinishReason::Abort);
    assert_eq!(finish(also_before), FinishReason::Abort);
    assert_eq!(finish(after), FinishReason::Length);
    assert_eq!(finish(running), FinishReason::Length);
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// Request ids are the clients' own, so two tenants may both have an "x" in flight. An
/// abort that prefers a tenant (an administrator's) ends that tenant's "x" alone when it
/// has one, and every tenant's otherwise; an abort scoped to a tenant never ends another's.
#[test]
fn an_abort_preferring_a_tenant_ends_only_its_request_when_it_has_one() {
    use engine::tenants::TenantLimits;
    let (engine, hold, held) = held_in_its_first_pass();
    engine.set_tenant_limits(vec![
        TenantLimits::unlimited("admin"),
        TenantLimits::unlimited("t1"),
        TenantLimits::unlimited("t2"),
    ]);
    let named = |tenant: u32, rid: &str, first: u32| {
        let prompt: Vec<u32> = (first..first + 8).collect();
        let mut request = GenerateRequest::new(prompt, SamplingParams::greedy(4));
        request.params.ignore_eos = true;
        request.rid = Some(rid.to_string());
        request.tenant = tenant;
        engine.submit(request).unwrap()
    };
    let running = named(1, "other", 100);
    while !held.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    // The scheduler is held: these wait together.
    let admin_x = named(0, "x", 200);
    let t1_x = named(1, "x", 300);
    let t1_y = named(1, "y", 400);
    let t2_y = named(2, "y", 500);
    let t2_z = named(2, "z", 600);
    engine.abort_owned("x", AbortScope::PreferTenant(0));
    engine.abort_owned("y", AbortScope::PreferTenant(0));
    engine.abort_owned("z", AbortScope::Tenant(1));
    hold.store(false, std::sync::atomic::Ordering::SeqCst);
    let finish = |stream| finish_within(stream, Duration::from_secs(30)).1;
    assert_eq!(finish(admin_x), FinishReason::Abort, "its own x");
    assert_eq!(
        finish(t1_x),
        FinishReason::Length,
        "the admin had an x of its own"
    );
    assert_eq!(
        finish(t1_y),
        FinishReason::Abort,
        "no y of the admin's: any tenant's"
    );
    assert_eq!(
        finish(t2_y),
        FinishReason::Abort,
        "no y of the admin's: any tenant's"
    );
    assert_eq!(
        finish(t2_z),
        FinishReason::Length,
        "tenant 1 cannot end tenant 2's z"
    );
    assert_eq!(finish(running), FinishReason::Length);
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}
