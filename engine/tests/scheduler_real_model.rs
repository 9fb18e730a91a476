//! The scheduler with the real model: concurrent requests sharing prefixes give exactly the
//! greedy outputs each gives alone; a second wave hits the cache; a pool small enough to force
//! retraction changes nothing; chunked prefill equals unchunked.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest, Usage};
use engine::sampling::SamplingParams;
use std::time::Duration;

fn engine(kv_tokens: usize, chunk: usize, max_running: usize) -> EngineHandle {
    engine_with(kv_tokens, chunk, max_running, 0.7)
}

/// `reserve_ratio` is the share of each request's output budget admission reserves; 0 admits
/// greedily and leaves memory pressure to retraction.
fn engine_with(
    kv_tokens: usize,
    chunk: usize,
    max_running: usize,
    reserve_ratio: f64,
) -> EngineHandle {
    let mut config = EngineConfig::new(common::model_path());
    config.scheduler.init_new_token_ratio = reserve_ratio;
    config.scheduler.min_new_token_ratio = reserve_ratio.min(0.1);
    // SmolLM2 K/V in f32: 46,080 bytes per token.
    config.kv_budget_bytes = kv_tokens * 46_080;
    config.scheduler.chunked_prefill_size = chunk;
    config.scheduler.max_prefill_tokens = chunk.max(64);
    config.scheduler.max_running_requests = max_running;
    EngineHandle::start(config).unwrap()
}

fn collect(mut stream: engine::handle::RequestStream) -> (Vec<u32>, String, Usage) {
    let (mut ids, mut text) = (Vec::new(), String::new());
    loop {
        match stream.blocking_next().expect("stream ended early") {
            GenerateEvent::Chunk {
                token_ids, text: t, ..
            } => {
                ids.extend(token_ids);
                text.push_str(&t);
            }
            GenerateEvent::Finished(c) => return (ids, text, c.usage),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
}

fn prompts(engine: &EngineHandle) -> Vec<Vec<u32>> {
    let system = "You are a meticulous assistant. Answer briefly and precisely. ".repeat(6);
    ["Name a color.", "What is 2+2?", "Say hello in French.", "Name a fruit."]
        .iter()
        .map(|q| {
            let text = format!(
                "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n"
            );
            engine.tokenizer().encode(&text, true).unwrap()
        })
        .collect()
}

fn request(ids: &[u32], max_new: u32) -> GenerateRequest {
    let mut params = SamplingParams::greedy(max_new);
    params.ignore_eos = true;
    GenerateRequest::new(ids.to_vec(), params)
}

#[test]
fn concurrent_shared_prefix_requests_match_solo_runs_and_hit_the_cache() {
    // Each prompt alone, on a fresh engine: no cache, no other request in the batch.
    let prompts = prompts(&engine(64, 64, 1));
    let fresh_solo: Vec<Vec<u32>> = prompts
        .iter()
        .map(|p| {
            let e = engine(4096, 512, 8);
            let out = collect(e.submit(request(p, 30)).unwrap()).0;
            e.shutdown(Duration::from_secs(1));
            out
        })
        .collect();

    let shared = engine(4096, 512, 8);
    for wave in 0..2 {
        let streams: Vec<_> = prompts
            .iter()
            .map(|p| shared.submit(request(p, 30)).unwrap())
            .collect();
        let results: Vec<_> = streams.into_iter().map(collect).collect();
        for (i, (ids, _, usage)) in results.iter().enumerate() {
            assert_eq!(
                ids, &fresh_solo[i],
                "wave {wave}, prompt {i}: batched output differs"
            );
            if wave == 1 {
                assert!(
                    usage.cached_tokens as usize >= prompts[i].len() - 1 - 1,
                    "second wave: cached {} of {}",
                    usage.cached_tokens,
                    prompts[i].len()
                );
            }
        }
        if wave == 0 {
            // In-batch dedup: the shared system prompt is computed once, so later requests
            // of the first wave already find it.
            assert!(results.iter().skip(1).any(|r| r.2.cached_tokens > 50));
        }
    }
    common::wait_idle(&shared);
    shared.shutdown(Duration::from_secs(1));

    // A pool that cannot hold all four at once: retraction, and still the same outputs.
    let tight = engine_with(prompts[0].len() * 2 + 40, 512, 8, 0.0);
    let streams: Vec<_> = prompts
        .iter()
        .map(|p| tight.submit(request(p, 30)).unwrap())
        .collect();
    for (i, s) in streams.into_iter().enumerate() {
        assert_eq!(
            collect(s).0,
            fresh_solo[i],
            "prompt {i} under memory pressure"
        );
    }
    common::wait_idle(&tight);
    let info = tight.server_info();
    assert!(
        info.retractions > 0,
        "the tight pool must retract: {info:?}"
    );
    tight.shutdown(Duration::from_secs(1));
}

#[test]
fn chunked_prefill_equals_unchunked() {
    let long = "The history of the printing press begins with movable type. ".repeat(12);
    let unchunked = engine(2048, 1024, 4);
    let ids = unchunked.tokenizer().encode(&long, true).unwrap();
    assert!(ids.len() > 100);
    let (want, want_text, _) = collect(unchunked.submit(request(&ids, 16)).unwrap());
    unchunked.shutdown(Duration::from_secs(1));
    let chunked = engine(2048, 16, 4);
    let (got, got_text, usage) = collect(chunked.submit(request(&ids, 16)).unwrap());
    assert_eq!(got, want);
    assert_eq!(got_text, want_text);
    assert_eq!(usage.prompt_tokens as usize, ids.len());
    common::wait_idle(&chunked);
    chunked.shutdown(Duration::from_secs(1));
}
