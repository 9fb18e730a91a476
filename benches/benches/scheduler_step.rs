//! The scheduler's own cost per step: admission, batch building, slot allocation, sampling,
//! streaming and caching, with the scripted model standing in for the forward pass (it
//! hashes each token's K/V through the kv indices, a few microseconds per step). Batches of
//! 1, 64 and 256 decoding requests; the throughput figure is scheduler steps per second.
//! Greedy requests measure the scheduler; `sampled` ones (temperature 1) add the sampler's
//! softmax over the whole vocabulary, which dominates at large batches.
//!
//! `device/...`: as the scheduler runs beside a GPU that samples on the device, the model
//! returns each greedy row's token and no logits row, so nothing vocabulary-wide is left:
//! the scheduler's own cost per step, the floor under a GPU step's time; `device-overlap/`
//! adds overlap scheduling (batches launched before the last one is collected).
//! `device-queued/`: as `device/` with 16 times the running limit submitted at once, so the
//! batch stays full while thousands of requests wait: what a deep queue adds to each step.
//!
//! Needs the default model's GGUF for the tokenizer (`scripts/fetch-model.sh`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::gguf::GgufFile;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::model::scripted::ScriptedModel;
use engine::sampling::SamplingParams;
use engine::tokenizer::{ChatTemplate, Tokenizer};
use std::path::Path;
use std::time::{Duration, Instant};

const PROMPT_TOKENS: usize = 32;
const OUTPUT_TOKENS: u32 = 64;
/// Bytes per token of the scripted model's KV: K and V of 2 f32 each.
const SCRIPTED_BYTES_PER_TOKEN: usize = 16;

/// How the scripted model stands in for the forward pass.
#[derive(Clone, Copy)]
enum Stand {
    /// Logits rows on the host, sampled there.
    HostLogits,
    /// Tokens only, as from a GPU that samples on the device.
    DeviceTokens,
    /// Tokens only, launched asynchronously under overlap scheduling.
    DeviceOverlap,
}

fn start(batch: usize, stand: Stand) -> EngineHandle {
    start_queued(batch, batch, stand)
}

/// An engine running `batch` requests at most, with room for `submitted` of them queued.
fn start_queued(batch: usize, submitted: usize, stand: Stand) -> EngineHandle {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/SmolLM2-135M-Instruct.Q4_1.gguf");
    let file = GgufFile::open(&path)
        .expect("the default model is needed for its tokenizer: run scripts/fetch-model.sh");
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tok).unwrap();
    let model = match stand {
        Stand::HostLogits => ScriptedModel::new(tok.vocab_size(), 512),
        Stand::DeviceTokens => ScriptedModel::new(tok.vocab_size(), 512).tokens_only(),
        Stand::DeviceOverlap => ScriptedModel::new(tok.vocab_size(), 512)
            .tokens_only()
            .launching_asynchronously(),
    };
    let info = model.model_info(tok.stop_token_ids());
    let mut config = EngineConfig::new(path);
    // Room for every request's prompt and output four times over: no retraction.
    config.kv_budget_bytes = 4 * batch * 128 * SCRIPTED_BYTES_PER_TOKEN;
    config.scheduler.max_running_requests = batch;
    config.scheduler.max_prefill_tokens = batch * PROMPT_TOKENS;
    config.scheduler.overlap_schedule = matches!(stand, Stand::DeviceOverlap);
    config.scheduler.max_queued_requests = config.scheduler.max_queued_requests.max(submitted);
    EngineHandle::start_with_model(model, tok, template, info, &config).unwrap()
}

/// Runs `batch` requests to their end; returns the time taken.
fn run_batch(engine: &EngineHandle, batch: usize, round: u32, temperature: f32) -> Duration {
    run_requests(engine, batch, round, temperature)
}

/// Submits `count` requests at once and runs them to their end; returns the time taken.
fn run_requests(engine: &EngineHandle, count: usize, round: u32, temperature: f32) -> Duration {
    let params = SamplingParams {
        max_new_tokens: OUTPUT_TOKENS,
        ignore_eos: true,
        temperature,
        ..SamplingParams::default()
    };
    let started = Instant::now();
    let streams: Vec<_> = (0..count as u32)
        .map(|i| {
            // Distinct prompts: no prefix hits, every request decodes its full budget.
            let ids = (0..PROMPT_TOKENS as u32)
                .map(|p| 100 + (round * 7919 + i * 104_729 + p * 31) % 40_000)
                .collect();
            engine
                .submit(GenerateRequest::new(ids, params.clone()))
                .unwrap()
        })
        .collect();
    for mut stream in streams {
        while let Some(event) = stream.blocking_next() {
            if let GenerateEvent::Error(e) = event {
                panic!("{e}");
            }
        }
    }
    started.elapsed()
}

fn scheduler_steps(c: &mut Criterion) {
    let mut g = c.benchmark_group("scheduler/step");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(10));
    for batch in [1usize, 64, 256] {
        let engine = start(batch, Stand::HostLogits);
        // One prefill step, then one step per output token after the first.
        g.throughput(Throughput::Elements(OUTPUT_TOKENS as u64));
        let mut round = 0;
        for (name, temperature) in [("greedy", 0.0), ("sampled", 1.0)] {
            g.bench_function(format!("batch_{batch}_{name}"), |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            round += 1;
                            run_batch(&engine, batch, round, temperature)
                        })
                        .sum()
                })
            });
        }
        engine.shutdown(Duration::ZERO);
    }
    g.finish();
}

fn scheduler_steps_beside_a_gpu(c: &mut Criterion) {
    for (group, stand) in [
        ("scheduler/device", Stand::DeviceTokens),
        ("scheduler/device-overlap", Stand::DeviceOverlap),
    ] {
        let mut g = c.benchmark_group(group);
        g.sample_size(20);
        g.measurement_time(Duration::from_secs(10));
        g.throughput(Throughput::Elements(OUTPUT_TOKENS as u64));
        for batch in [1usize, 64, 128, 256] {
            let engine = start(batch, stand);
            let mut round = 0;
            g.bench_function(format!("batch_{batch}_greedy"), |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            round += 1;
                            run_batch(&engine, batch, round, 0.0)
                        })
                        .sum()
                })
            });
            engine.shutdown(Duration::ZERO);
        }
        g.finish();
    }
}

/// 16 waves of `batch` requests submitted at once: each step runs a full batch while up to
/// 15 waves wait. Steps = 16 x 64; the throughput figure is scheduler steps per second.
fn scheduler_steps_with_a_deep_queue(c: &mut Criterion) {
    const WAVES: usize = 16;
    let mut g = c.benchmark_group("scheduler/device-queued");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(WAVES as u64 * OUTPUT_TOKENS as u64));
    for batch in [64usize, 256] {
        let engine = start_queued(batch, WAVES * batch, Stand::DeviceTokens);
        let mut round = 0;
        g.bench_function(format!("batch_{batch}_greedy"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        round += 1;
                        run_requests(&engine, WAVES * batch, round, 0.0)
                    })
                    .sum()
            })
        });
        engine.shutdown(Duration::ZERO);
    }
    g.finish();
}

criterion_group!(
    benches,
    scheduler_steps,
    scheduler_steps_beside_a_gpu,
    scheduler_steps_with_a_deep_queue
);
criterion_main!(benches);
