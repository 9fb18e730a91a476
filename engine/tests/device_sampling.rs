//! Sampling where the logits are (`ForwardModel::forward_sampled`, the GPU runner's path),
//! run here through the sampling kernel's CPU twin: the scheduler hands each request's
//! sampler and grammar to the model as a row plan and records the tokens that come back.
//! Against the host path on the same model: where both walk the distribution in id order
//! (greedy, temperature, min-p, penalties, bias, held stop tokens, grammars), the same
//! seed gives the same tokens; with top-k / top-p the tokens still depend only on the
//! request, never on its batch.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use engine::gguf::GgufFile;
use engine::grammar::GrammarSpec;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::model::{
    self, Device, ForwardBatch, ForwardModel, KvPoolSize, LoadOptions, LoadedModel, Model,
    ModelError,
};
use engine::sampling::{FinishReason, SamplingParams};
use engine::tokenizer::{ChatTemplate, Tokenizer};
use pools::{KvDtype, KvLayout, KvStorage};
use std::time::Duration;

/// The CPU model, sampling through the default `forward_sampled` like a GPU runner.
struct OnDevice(Model);

impl ForwardModel for OnDevice {
    type Kv = KvStorage;

    fn vocab_size(&self) -> usize {
        self.0.config().vocab_size
    }

    fn context_length(&self) -> usize {
        self.0.config().context_length
    }

    fn kv_layout(&self, dtype: KvDtype) -> KvLayout {
        ForwardModel::kv_layout(&self.0, dtype)
    }

    fn new_kv(&self, layout: KvLayout, size: KvPoolSize) -> Result<KvStorage, ModelError> {
        ForwardModel::new_kv(&self.0, layout, size)
    }

    fn forward(&mut self, batch: &ForwardBatch, kv: &mut KvStorage) -> Result<&[f32], ModelError> {
        ForwardModel::forward(&mut self.0, batch, kv)
    }

    fn samples_on_device(&self) -> bool {
        true
    }
}

/// How a test engine samples and schedules.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Host,
    /// Through `forward_sampled` (the kernel's twin), as on a GPU.
    Device,
    /// Through `forward_sampled`, with overlap scheduling.
    Overlap,
}

/// An engine over SmolLM2, sampling and scheduling as `mode` says.
#[allow(irrefutable_let_patterns)] // refutable with the `cuda` feature
fn start(mode: Mode) -> EngineHandle {
    let path = common::model_path();
    let file = GgufFile::open(&path).unwrap();
    let tokenizer = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tokenizer).unwrap();
    let LoadedModel::Cpu(cpu) = model::load(&file, Device::Cpu, &LoadOptions::default()).unwrap()
    else {
        panic!("a CPU model");
    };
    let info = engine::handle::describe_model(&path, "llama", cpu.config(), &tokenizer);
    let mut config = EngineConfig::new(path);
    config.kv_budget_bytes = 64 << 20;
    config.max_context_len = 1024;
    config.scheduler.max_running_requests = 16;
    // Speculative verification samples on the host; the GPU runs without it.
    config.scheduler.speculative_draft_tokens = 0;
    config.scheduler.overlap_schedule = mode == Mode::Overlap;
    if mode == Mode::Device {
        EngineHandle::start_with_model(OnDevice(*cpu), tokenizer, template, info, &config)
    } else {
        EngineHandle::start_with_model(*cpu, tokenizer, template, info, &config)
    }
    .unwrap()
}

#[derive(Debug, PartialEq)]
struct Output {
    tokens: Vec<u32>,
    text: String,
    finish: FinishReason,
    logprobs: Vec<(u32, f32, Vec<u32>)>,
    /// Each token's `token_ids_logprob` values.
    given: Vec<Vec<(u32, f32)>>,
}

fn run_all(engine: &EngineHandle, requests: Vec<GenerateRequest>) -> Vec<Output> {
    let streams: Vec<_> = requests
        .into_iter()
        .map(|r| engine.submit(r).unwrap())
        .collect();
    streams
        .into_iter()
        .map(|mut stream| {
            let (mut tokens, mut text, mut logprobs) = (Vec::new(), String::new(), Vec::new());
            let mut given = Vec::new();
            loop {
                match stream.blocking_next() {
                    Some(GenerateEvent::Chunk {
                        token_ids,
                        text: piece,
                        logprobs: lps,
                        ..
                    }) => {
                        tokens.extend(token_ids);
                        text.push_str(&piece);
                        given.extend(lps.iter().map(|l| l.given.clone()));
                        logprobs.extend(
                            lps.into_iter().map(|l| {
                                (l.token_id, l.logprob, l.top.iter().map(|t| t.0).collect())
                            }),
                        );
                    }
                    Some(GenerateEvent::Finished(c)) => {
                        return Output {
                            tokens,
                            text,
                            finish: c.finish_reason,
                            logprobs,
                            given,
                        }
                    }
                    other => panic!("{other:?} after {text:?}"),
                }
            }
        })
        .collect()
}

fn prompt(engine: &EngineHandle, i: usize) -> Vec<u32> {
    let asks = [
        "Name three colours.",
        "What is the capital of Italy?",
        "Write a haiku about tea.",
        "Count to five.",
    ];
    let ask = asks[i % asks.len()];
    engine
        .build_prompt_now(engine::handle::PromptInput::chat(vec![
            engine::tokenizer::ChatMessage::user(ask),
        ]))
        .unwrap()
}

/// Requests whose host and device paths walk in the same order.
fn same_walk_requests(engine: &EngineHandle) -> Vec<GenerateRequest> {
    let base = SamplingParams {
        max_new_tokens: 24,
        logprobs: Some(3),
        ..SamplingParams::default()
    };
    let params = [
        SamplingParams::greedy(24),
        SamplingParams {
            temperature: 0.0,
            ..base.clone()
        },
        SamplingParams {
            temperature: 1.0,
            seed: Some(7),
            ..base.clone()
        },
        SamplingParams {
            temperature: 0.8,
            min_p: 0.05,
            seed: Some(8),
            ..base.clone()
        },
        SamplingParams {
            temperature: 1.0,
            seed: Some(9),
            repetition_penalty: 1.3,
            frequency_penalty: 0.5,
            presence_penalty: 0.2,
            logit_bias: vec![(28, 3.0), (30, -100.0)],
            min_new_tokens: 20,
            ..base.clone()
        },
        SamplingParams {
            temperature: 0.7,
            seed: Some(10),
            stop: vec![".".into()],
            ..base
        },
    ];
    params
        .into_iter()
        .enumerate()
        .map(|(i, p)| GenerateRequest::new(prompt(engine, i), p))
        .collect()
}

const COUNTING: &str = r"(one|two|three)(, (one|two|three)){2,4}";

/// Regex-constrained requests, greedy and sampled.
fn grammar_requests(engine: &EngineHandle) -> Vec<GenerateRequest> {
    (0..4)
        .map(|i| {
            let params = SamplingParams {
                temperature: [0.0, 1.0][i % 2],
                seed: Some(i as u64),
                max_new_tokens: 40,
                ..SamplingParams::default()
            };
            let mut r = GenerateRequest::new(prompt(engine, 3), params);
            let spec = GrammarSpec::Regex(COUNTING.into());
            r.constraint = Some(
                engine
                    .compile_grammar_now(&spec, &radix::Namespace::global())
                    .unwrap(),
            );
            r
        })
        .collect()
}

/// Requests cut by top-k and top-p (the device walks those in another order than the host).
fn cut_requests(engine: &EngineHandle) -> Vec<GenerateRequest> {
    (0..6)
        .map(|i| {
            let params = SamplingParams {
                temperature: 1.2,
                top_k: [0, 20, 40][i % 3],
                top_p: [0.9, 1.0, 0.8][i % 3],
                seed: Some(100 + i as u64),
                max_new_tokens: 16,
                ignore_eos: true,
                ..SamplingParams::default()
            };
            GenerateRequest::new(prompt(engine, i), params)
        })
        .collect()
}

fn assert_same(device: &[Output], host: &[Output]) {
    assert_eq!(device.len(), host.len());
    for (i, (d, h)) in device.iter().zip(host).enumerate() {
        assert_eq!(
            d.tokens, h.tokens,
            "request {i}: {:?} vs {:?}",
            d.text, h.text
        );
        assert_eq!((&d.text, &d.finish), (&h.text, &h.finish), "request {i}");
        assert_eq!(d.logprobs.len(), h.logprobs.len(), "request {i}");
        for (a, b) in d.logprobs.iter().zip(&h.logprobs) {
            assert_eq!((a.0, &a.2), (b.0, &b.2), "request {i}");
            assert!((a.1 - b.1).abs() < 1e-4, "request {i}: {} vs {}", a.1, b.1);
        }
        assert_eq!(d.given.len(), h.given.len(), "request {i}");
        for (a, b) in d.given.iter().zip(&h.given) {
            assert_eq!(a.len(), b.len(), "request {i}");
            for (a, b) in a.iter().zip(b) {
                assert_eq!(a.0, b.0, "request {i}");
                assert!((a.1 - b.1).abs() < 1e-4, "request {i}: {} vs {}", a.1, b.1);
            }
        }
    }
}

#[test]
fn device_sampling_gives_the_host_tokens_where_both_walk_in_id_order() {
    let (device, host) = (start(Mode::Device), start(Mode::Host));
    let on_device = run_all(&device, same_walk_requests(&device));
    let on_host = run_all(&host, same_walk_requests(&host));
    assert_same(&on_device, &on_host);
    // The penalized request held its stop tokens back until 20 tokens were out.
    assert!(on_device[4].tokens.len() >= 20, "{:?}", on_device[4].text);
    // The stop string ended request 5 if it came.
    if on_device[5].finish != FinishReason::Length {
        assert!(!on_device[5].text.contains('.'), "{:?}", on_device[5].text);
    }
    // Grammars: each request's mask travels with its plan.
    let constrained = |engine: &EngineHandle| run_all(engine, grammar_requests(engine));
    let (d, h) = (constrained(&device), constrained(&host));
    assert_same(&d, &h);
    let re = regex::Regex::new(&format!("^{COUNTING}$")).unwrap();
    for out in &d {
        assert!(re.is_match(&out.text), "{:?}", out.text);
    }
    common::wait_idle(&device);
    device.shutdown(Duration::from_secs(1));
    host.shutdown(Duration::from_secs(1));
}

#[test]
fn device_sampled_cuts_depend_only_on_the_request() {
    let engine = start(Mode::Device);
    let alone: Vec<Output> = cut_requests(&engine)
        .into_iter()
        .flat_map(|r| run_all(&engine, vec![r]))
        .collect();
    let together = run_all(&engine, cut_requests(&engine));
    assert_eq!(alone, together);
    // Seeds matter: the same prompt and cuts with another seed wander off.
    let mut other = cut_requests(&engine).swap_remove(0);
    other.params.seed = Some(999);
    let reseeded = run_all(&engine, vec![other]);
    assert_ne!(reseeded[0].tokens, alone[0].tokens);
    common::wait_idle(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// Overlap scheduling launches each decode on the token the previous batch is still
/// sampling, and lets grammar and penalized requests sit a step out: none of it may change
/// an output. Every kind of request at once, against the same sampling without overlap.
#[test]
fn overlap_scheduling_changes_no_output() {
    let (overlap, plain) = (start(Mode::Overlap), start(Mode::Device));
    let everything = |engine: &EngineHandle| {
        let mut requests = same_walk_requests(engine);
        requests.extend(cut_requests(engine));
        requests.extend(grammar_requests(engine));
        run_all(engine, requests)
    };
    let (a, b) = (everything(&overlap), everything(&plain));
    assert_same(&a, &b);
    let re = regex::Regex::new(&format!("^{COUNTING}$")).unwrap();
    for out in &a[a.len() - 4..] {
        assert!(re.is_match(&out.text), "{:?}", out.text);
    }
    let info = overlap.server_info();
    assert!(info.overlapped_decodes > 50, "{info:?}");
    assert_eq!(plain.server_info().overlapped_decodes, 0);
    for engine in [&overlap, &plain] {
        common::wait_idle(engine);
        engine.shutdown(Duration::from_secs(1));
    }
}

/// A request asking for given tokens' logprobs (`token_ids_logprob`, which the device does
/// not report) sends its batches to the host sampler: on a device-sampling engine, with
/// and without overlap, it and the requests beside it get what the host gives them.
#[test]
fn given_token_logprobs_sample_their_batches_on_the_host() {
    let run = |mode| {
        let engine = start(mode);
        let mut requests = same_walk_requests(&engine);
        let params = SamplingParams {
            max_new_tokens: 12,
            temperature: 0.0,
            logprobs: Some(2),
            token_ids_logprob: vec![13, 42],
            ..SamplingParams::default()
        };
        requests.push(GenerateRequest::new(prompt(&engine, 1), params));
        let out = run_all(&engine, requests);
        common::wait_idle(&engine);
        engine.shutdown(Duration::from_secs(1));
        out
    };
    let host = run(Mode::Host);
    let given = host.last().unwrap();
    assert_eq!(given.given.len(), given.tokens.len());
    for (token, given) in given.tokens.iter().zip(&given.given) {
        let ids: Vec<u32> = given.iter().map(|c| c.0).collect();
        assert_eq!(ids, [13, 42]);
        assert!(given.iter().all(|c| c.1 <= 0.0), "{given:?} at {token}");
    }
    for mode in [Mode::Device, Mode::Overlap] {
        assert_same(&run(mode), &host);
    }
}
