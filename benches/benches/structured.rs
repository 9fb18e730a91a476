//! Structured outputs on the real model (needs `scripts/fetch-model.sh`):
//!
//! - `structured/workload`: 64 greedy requests over 4 JSON schemas, 16 running at once,
//!   against the same 64 prompts unconstrained with the same number of output tokens each;
//!   throughput is output tokens per second.
//! - `structured/mask`: the grammar's own cost per output token (mask over the 49,152-token
//!   vocabulary, then consuming the token and any forced ones), replaying greedy outputs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::grammar::{GrammarSpec, Step};
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest, PromptInput};
use engine::sampling::SamplingParams;
use engine::tokenizer::ChatMessage;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

const REQUESTS: usize = 64;

fn schemas() -> Vec<Value> {
    vec![
        json!({"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 16},
            "age": {"type": "integer", "minimum": 0, "maximum": 120},
            "email": {"type": "string", "maxLength": 24}}, "required": ["name", "age", "email"]}),
        json!({"type": "object", "properties": {
            "city": {"enum": ["Paris", "Rome", "Berlin", "Madrid"]},
            "population_in_millions": {"type": "integer", "minimum": 0, "maximum": 40},
            "is_capital": {"type": "boolean"}}, "required": ["city", "population_in_millions", "is_capital"]}),
        json!({"type": "object", "properties": {
            "title": {"type": "string", "maxLength": 30},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 10}, "maxItems": 3},
            "rating": {"type": "integer", "minimum": 1, "maximum": 5}}, "required": ["title", "tags", "rating"]}),
        json!({"type": "object", "properties": {
            "order_id": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{4}$"},
            "items": {"type": "array", "items": {"type": "object", "properties": {
                "sku": {"type": "string", "maxLength": 8}, "quantity": {"type": "integer", "minimum": 1, "maximum": 9}},
                "required": ["sku", "quantity"]}, "minItems": 1, "maxItems": 2}},
            "required": ["order_id", "items"]}),
    ]
}

fn start() -> EngineHandle {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/SmolLM2-135M-Instruct.Q4_1.gguf");
    let mut config = EngineConfig::new(path);
    config.kv_budget_bytes = 512 << 20;
    config.scheduler.max_running_requests = 16;
    EngineHandle::start(config).expect("run scripts/fetch-model.sh first")
}

fn prompts(engine: &EngineHandle) -> Vec<Vec<u32>> {
    let topics = ["a person", "a city", "a book", "an order"];
    (0..REQUESTS)
        .map(|i| {
            let ask = format!("Describe {} (number {i}) as JSON.", topics[i % 4]);
            engine
                .build_prompt_now(PromptInput::chat(vec![ChatMessage::user(ask)]))
                .unwrap()
        })
        .collect()
}

/// Runs `requests` at once; returns their outputs' token ids.
fn run(engine: &EngineHandle, requests: Vec<GenerateRequest>) -> Vec<Vec<u32>> {
    let streams: Vec<_> = requests
        .into_iter()
        .map(|r| engine.submit(r).unwrap())
        .collect();
    streams
        .into_iter()
        .map(|mut s| {
            let mut ids = Vec::new();
            while let Some(event) = s.blocking_next() {
                match event {
                    GenerateEvent::Chunk { token_ids, .. } => ids.extend(token_ids),
                    GenerateEvent::Error(e) => panic!("{e}"),
                    _ => {}
                }
            }
            ids
        })
        .collect()
}

fn constrained(
    engine: &EngineHandle,
    prompts: &[Vec<u32>],
    schemas: &[Value],
) -> Vec<GenerateRequest> {
    prompts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut r = GenerateRequest::new(p.clone(), SamplingParams::greedy(200));
            let spec = GrammarSpec::JsonSchema(schemas[i % schemas.len()].clone());
            r.constraint = Some(
                engine
                    .compile_grammar_now(&spec, &radix::Namespace::global())
                    .unwrap(),
            );
            r
        })
        .collect()
}

fn workload(c: &mut Criterion) {
    let engine = start();
    let schemas = schemas();
    let prompts = prompts(&engine);
    // The constrained outputs' lengths, so both sides produce the same number of tokens.
    let outputs = run(&engine, constrained(&engine, &prompts, &schemas));
    let lengths: Vec<u32> = outputs.iter().map(|o| o.len() as u32).collect();
    let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
    println!(
        "{REQUESTS} constrained outputs: {total} tokens, e.g. {}",
        engine.tokenizer().decode(&outputs[0], false).unwrap()
    );
    let mut g = c.benchmark_group("structured/workload");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(30));
    g.throughput(Throughput::Elements(total));
    g.bench_function("json_schema_64x16", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let requests = constrained(&engine, &prompts, &schemas);
                    let started = Instant::now();
                    run(&engine, requests);
                    started.elapsed()
                })
                .sum()
        })
    });
    g.bench_function("unconstrained_64x16", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let requests = prompts
                        .iter()
                        .zip(&lengths)
                        .map(|(p, &n)| {
                            let mut params = SamplingParams::greedy(n.max(1));
                            params.ignore_eos = true;
                            GenerateRequest::new(p.clone(), params)
                        })
                        .collect();
                    let started = Instant::now();
                    run(&engine, requests);
                    started.elapsed()
                })
                .sum()
        })
    });
    g.finish();
    mask(c, &engine, &schemas, &outputs);
    engine.shutdown(Duration::ZERO);
}

/// Replays each output through a fresh constraint: a mask per sampled token, then the token
/// and whatever it forces.
fn mask(c: &mut Criterion, engine: &EngineHandle, schemas: &[Value], outputs: &[Vec<u32>]) {
    let vocab = engine.model_info().vocab_size;
    let mut logits = vec![0.0f32; vocab];
    let replay = |i: usize, logits: &mut [f32]| -> u64 {
        let spec = GrammarSpec::JsonSchema(schemas[i % schemas.len()].clone());
        let mut constraint = engine
            .compile_grammar_now(&spec, &radix::Namespace::global())
            .unwrap();
        let mut masks = 0;
        let mut at = 0;
        let tokens = &outputs[i];
        while at < tokens.len() {
            constraint.mask_logits(logits).unwrap();
            masks += 1;
            match constraint.advance(tokens[at]).unwrap() {
                Step::Continue { forced } => at += 1 + forced.len(),
                Step::Done { .. } => break,
            }
        }
        masks
    };
    let masks: u64 = (0..4).map(|i| replay(i, &mut logits)).sum();
    let mut g = c.benchmark_group("structured/mask");
    g.throughput(Throughput::Elements(masks));
    g.bench_function("replay_4_outputs", |b| {
        b.iter(|| (0..4).map(|i| replay(i, &mut logits)).sum::<u64>())
    });
    g.finish();
}

criterion_group!(benches, workload);
criterion_main!(benches);
