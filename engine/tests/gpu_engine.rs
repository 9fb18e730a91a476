//! The engine serving on a GPU: against the CPU engine, sampling on the device against the
//! host, overlap scheduling, CUDA graphs and pages of many tokens against the plain runs.
//! Needs a GPU: without a driver or device each test prints "SKIPPED gpu test <name>:
//! <reason>" and passes. Run with `--features cuda` (scripts/check-cuda.sh does, with NVRTC
//! and headers).
#![cfg(feature = "cuda")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::gpu::{chat, gpu};
use common::http::{free_port, http};
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::model::Device;
use engine::sampling::SamplingParams;

/// An engine over the default model on `device`, with `configure` applied to its settings.
fn engine_on(device: Device, configure: impl FnOnce(&mut EngineConfig)) -> EngineHandle {
    let mut config = EngineConfig::new(common::model_path());
    config.device = device;
    config.kv_budget_bytes = 64 << 20;
    configure(&mut config);
    EngineHandle::start(config).unwrap()
}

/// What one request's stream carried: its tokens, each token's top-n ids (when asked)
/// and the prompt tokens served from the cache.
struct Streamed {
    ids: Vec<u32>,
    tops: Vec<(u32, Vec<u32>)>,
    cached: u32,
}

/// Submits every request at once, then reads each stream to its end.
fn run_all(engine: &EngineHandle, requests: Vec<GenerateRequest>) -> Vec<Streamed> {
    let streams: Vec<_> = requests
        .into_iter()
        .map(|r| engine.submit(r).unwrap())
        .collect();
    streams
        .into_iter()
        .map(|mut s| {
            let (mut ids, mut tops) = (Vec::new(), Vec::new());
            loop {
                match s.blocking_next().expect("stream ended early") {
                    GenerateEvent::Chunk {
                        token_ids,
                        logprobs,
                        ..
                    } => {
                        ids.extend(token_ids);
                        tops.extend(
                            logprobs
                                .into_iter()
                                .map(|l| (l.token_id, l.top.iter().map(|t| t.0).collect())),
                        );
                    }
                    GenerateEvent::Finished(c) => {
                        return Streamed {
                            ids,
                            tops,
                            cached: c.usage.cached_tokens,
                        }
                    }
                    GenerateEvent::Error(e) => panic!("{e}"),
                }
            }
        })
        .collect()
}

fn first_tokens(engine: &EngineHandle, prompts: &[Vec<u32>], max_new: u32) -> Vec<(Vec<u32>, u32)> {
    let requests = prompts
        .iter()
        .map(|p| {
            let mut params = SamplingParams::greedy(max_new);
            params.ignore_eos = true;
            GenerateRequest::new(p.clone(), params)
        })
        .collect();
    run_all(engine, requests)
        .into_iter()
        .map(|s| (s.ids, s.cached))
        .collect()
}

#[test]
fn engine_serves_on_the_gpu_with_prefix_reuse_and_no_leaks() {
    if gpu("engine_serves_on_the_gpu").is_none() {
        return;
    }
    let gpu_engine = engine_on(Device::Cuda(0), |_| {});
    let cpu_engine = engine_on(Device::Cpu, |_| {});
    let tok = gpu_engine.tokenizer();
    let system = "You are a meticulous assistant. Answer briefly and precisely. ".repeat(4);
    let prompts: Vec<Vec<u32>> = ["Name a color.", "What is 2+2?", "Say hi.", "Name a fruit."]
        .iter()
        .map(|q| chat(tok, &system, q))
        .collect();
    let first = first_tokens(&gpu_engine, &prompts, 12);
    let again = first_tokens(&gpu_engine, &prompts, 12);
    let on_cpu = first_tokens(&cpu_engine, &prompts, 12);
    for (i, ((ids, _), (ids2, cached2))) in first.iter().zip(&again).enumerate() {
        assert_eq!(ids.len(), 12, "request {i}");
        // The second wave finds each whole prompt in the cache (all but its last token).
        assert!(
            *cached2 as usize >= prompts[i].len() - 1,
            "request {i}: {cached2} cached"
        );
        // A cached prefix computes the same continuation.
        assert_eq!(ids[..4], ids2[..4], "request {i}");
    }
    let agree = first
        .iter()
        .zip(&on_cpu)
        .filter(|((g, _), (c, _))| g[0] == c[0])
        .count();
    assert!(
        agree >= 3,
        "first tokens agree with the CPU on {agree} of 4"
    );
    // Embeddings beside a generation, their prompts cached: the CPU engine's, but for the
    // rounding of the two paths.
    let generation = gpu_engine
        .submit(GenerateRequest::new(
            prompts[2].clone(),
            SamplingParams::greedy(8),
        ))
        .unwrap();
    for prompt in &prompts[..2] {
        let (on_gpu, on_cpu) = (
            embedding(&gpu_engine, prompt),
            embedding(&cpu_engine, prompt),
        );
        assert_eq!(on_gpu.len(), on_cpu.len());
        let cosine = common::cosine(&on_gpu, &on_cpu);
        assert!(cosine > 0.99, "embedding cosine {cosine}");
        // Its prompt scored from its third token (the first two cached) and a token
        // generated: the CPU engine's scores, but for the rounding.
        let (on_gpu, on_cpu) = (
            prompt_scores(&gpu_engine, prompt),
            prompt_scores(&cpu_engine, prompt),
        );
        assert_eq!(on_gpu.len(), prompt.len() - 2);
        assert_eq!(on_gpu.len(), on_cpu.len());
        for (g, c) in on_gpu.iter().zip(&on_cpu) {
            assert_eq!(g.token_id, c.token_id);
            let diff = (g.logprob.exp() - c.logprob.exp()).abs();
            assert!(
                diff < 0.08,
                "probability {} on the GPU, {} on the CPU",
                g.logprob,
                c.logprob
            );
        }
    }
    drop(generation);
    for engine in [&gpu_engine, &cpu_engine] {
        common::wait_idle(engine);
    }
}

/// `engine`'s scores of `ids` from position 2 on, beside one generated token.
fn prompt_scores(engine: &EngineHandle, ids: &[u32]) -> Vec<engine::handle::TokenLogprob> {
    let mut request = GenerateRequest::new(ids.to_vec(), SamplingParams::greedy(1));
    request.prompt_logprobs_from = Some(2);
    let mut stream = engine.submit(request).unwrap();
    let mut scores = Vec::new();
    loop {
        match stream.blocking_next().expect("stream ended early") {
            GenerateEvent::Finished(_) => return scores,
            GenerateEvent::Chunk {
                prompt_logprobs, ..
            } => scores.extend(prompt_logprobs),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
}

/// `engine`'s embedding of `ids` (its last token's final hidden state).
fn embedding(engine: &EngineHandle, ids: &[u32]) -> Vec<f32> {
    let mut stream = engine
        .submit(GenerateRequest::embedding(ids.to_vec()))
        .unwrap();
    loop {
        match stream.blocking_next().expect("stream ended early") {
            GenerateEvent::Finished(done) => return done.embedding.expect("an embedding"),
            GenerateEvent::Chunk { token_ids, .. } => assert!(token_ids.is_empty()),
            GenerateEvent::Error(e) => panic!("{e}"),
        }
    }
}

/// Sampling on the GPU (the default) against copying the logits back and sampling on the
/// host, on the same GPU model: greedy, temperature and min-p draws with seeds, penalties
/// and top-n log-probabilities come out the same.
#[test]
fn engine_samples_on_the_gpu_as_on_the_host() {
    if gpu("engine_samples_on_the_gpu_as_on_the_host").is_none() {
        return;
    }
    let start = |on_device: bool| {
        engine_on(Device::Cuda(0), |c| {
            c.scheduler.sample_on_device = on_device
        })
    };
    let (device, host) = (start(true), start(false));
    let tok = device.tokenizer();
    let prompts: Vec<Vec<u32>> = ["Name a color.", "Write a haiku.", "Say hi.", "Count to 3."]
        .iter()
        .map(|q| chat(tok, "You are helpful.", q))
        .collect();
    let params = |i: usize| SamplingParams {
        temperature: [0.0, 1.0, 0.8, 1.0][i],
        min_p: [0.0, 0.0, 0.05, 0.0][i],
        repetition_penalty: [1.0, 1.0, 1.0, 1.2][i],
        seed: Some(i as u64),
        logprobs: Some(2),
        max_new_tokens: 8,
        ignore_eos: true,
        ..SamplingParams::default()
    };
    let run = |engine: &EngineHandle| -> Vec<Vec<(u32, Vec<u32>)>> {
        let requests = (0..4)
            .map(|i| GenerateRequest::new(prompts[i].clone(), params(i)))
            .collect();
        run_all(engine, requests)
            .into_iter()
            .map(|s| s.tops)
            .collect()
    };
    let (on_device, on_host) = (run(&device), run(&host));
    assert_eq!(on_device, on_host);
    for engine in [&device, &host] {
        common::wait_idle(engine);
    }
}

/// The engine's default GPU settings (CUDA graphs, pages of one token, no overlap) against
/// each of the other settings, all serving the same 16 requests; the default engine's
/// outputs are computed once.
/// - Overlap scheduling: batches launched before the previous one is collected, results
///   through two pinned slots, future inputs filled in on the device; the futures were used,
///   and overlap launches decode graphs too.
/// - Without CUDA graphs: the same outputs, and no replays.
/// - Pages of 16 tokens: the kernels find every token's slot through the page table rows,
///   and a repeated prompt finds its whole pages in the cache.
#[test]
fn overlap_graphs_and_pages_of_sixteen_change_no_output() {
    if gpu("overlap_graphs_and_pages_of_sixteen_change_no_output").is_none() {
        return;
    }
    let params = |i: usize| SamplingParams {
        temperature: [0.0, 0.9, 1.1][i % 3],
        top_k: [0, 0, 40][i % 3],
        seed: Some(i as u64),
        max_new_tokens: 16,
        ignore_eos: true,
        ..SamplingParams::default()
    };
    let default = engine_on(Device::Cuda(0), |_| {});
    let expected = outputs(&default, params);
    // About one replay per decode step: 15 steps of 16 requests decoding 16 tokens.
    let replays = default.server_info().graph_replays;
    assert!(replays > 10, "{replays} graph replays");

    let overlapped = engine_on(Device::Cuda(0), |c| c.scheduler.overlap_schedule = true);
    assert_agree(&outputs(&overlapped, params), &expected);
    assert!(overlapped.server_info().overlapped_decodes > 100);
    assert!(overlapped.server_info().graph_replays > 0);
    // An embedding under overlap scheduling (taken at its launch) is the default engine's.
    let prompt = chat(default.tokenizer(), "Be brief.", "What is a radix tree?");
    let (plain, launched) = (
        embedding(&default, &prompt),
        embedding(&overlapped, &prompt),
    );
    assert_eq!(plain, launched);

    let eager = engine_on(Device::Cuda(0), |c| c.cuda_graph_max_batch = 0);
    assert_agree(&outputs(&eager, params), &expected);
    assert_eq!(eager.server_info().graph_replays, 0);

    let paged = engine_on(Device::Cuda(0), |c| c.page_size = 16);
    assert_agree(&outputs(&paged, params), &expected);
    assert!(paged.server_info().graph_replays > 0);
    let prompt = chat(
        paged.tokenizer(),
        "You are helpful.",
        "Tell me about the number 3.",
    );
    let again = first_tokens(&paged, std::slice::from_ref(&prompt), 4);
    let cached = again[0].1 as usize;
    assert_eq!(cached % 16, 0, "{cached} cached tokens: not whole pages");
    assert!(
        cached + 16 >= prompt.len(),
        "{cached} of {} cached",
        prompt.len()
    );
    for engine in [&default, &overlapped, &eager, &paged] {
        common::wait_idle(engine);
    }
}

/// The outputs of 16 chat requests sampled by `params(i)`, all submitted at once (emulated,
/// each costs seconds of CI).
fn outputs(engine: &EngineHandle, params: impl Fn(usize) -> SamplingParams) -> Vec<Vec<u32>> {
    let tok = engine.tokenizer();
    let requests = (0..16)
        .map(|i| {
            let prompt = chat(
                tok,
                "You are helpful.",
                &format!("Tell me about the number {i}."),
            );
            GenerateRequest::new(prompt, params(i))
        })
        .collect();
    run_all(engine, requests)
        .into_iter()
        .map(|s| s.ids)
        .collect()
}

/// Outputs of two engines that should serve the same agree but for near-ties (cuBLAS picks
/// its GEMM by batch shape, and engines that batch or pad differently may flip one).
fn assert_agree(x: &[Vec<u32>], y: &[Vec<u32>]) {
    let n = x.len();
    let first = x.iter().zip(y).filter(|(u, v)| u[0] == v[0]).count();
    assert!(first + 2 >= n, "{first} of {n} first tokens agree");
    let same = x.iter().zip(y).filter(|(u, v)| u == v).count();
    assert!(same * 3 >= n * 2, "{same} of {n} outputs agree");
}

/// The `radixserve` binary serving on `flags`' device until dropped.
struct Server {
    child: std::process::Child,
    port: u16,
}

impl Server {
    fn start(flags: &[&str]) -> Server {
        let port = free_port();
        // RADIXSERVE_BIN: where scripts/gpu-run.sh unpacked the binary on a GPU machine.
        let bin = std::env::var("RADIXSERVE_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_radixserve").to_string());
        let child = std::process::Command::new(bin)
            .arg("serve")
            .arg("--model")
            .arg(common::model_path())
            .args(["--http-port", &port.to_string()])
            .args(["--grpc-port", &free_port().to_string()])
            .args(["--kv-budget-mb", "128", "--max-running-requests", "8"])
            .args(flags)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut server = Server { child, port };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
        while http(port, "GET", "/health", "").map(|r| r.0) != Some(200) {
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("radixserve {flags:?} exited: {status}");
            }
            assert!(
                std::time::Instant::now() < deadline,
                "radixserve {flags:?} never healthy"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        server
    }

    /// A greedy completion of `prompt`.
    fn complete(&self, prompt: &str) -> String {
        let body = serde_json::json!({"prompt": prompt, "max_tokens": 12, "temperature": 0});
        let (status, text) = http(self.port, "POST", "/v1/completions", &body.to_string()).unwrap();
        assert_eq!(status, 200, "{text}");
        let reply: serde_json::Value = serde_json::from_str(&text).unwrap();
        reply["choices"][0]["text"].as_str().unwrap().to_string()
    }

    /// `radixserve_cuda_graph_replays_total` from /metrics (0 when absent).
    fn graph_replays(&self) -> u64 {
        let (_, text) = http(self.port, "GET", "/metrics", "").unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("radixserve_cuda_graph_replays_total "))
            .map_or(0, |v| v.trim().parse::<f64>().unwrap() as u64)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The binary's flags reach the GPU runner: graphs and device sampling by default, overlap
/// with `--overlap-schedule`, eager passes with host sampling with `--disable-cuda-graph
/// --sampling host`. Every mode completes as the others do, graphs replay only where they
/// are on, and the first token is the CPU's.
#[test]
fn the_server_binary_serves_on_the_gpu_in_each_mode() {
    if gpu("the_server_binary_serves_on_the_gpu_in_each_mode").is_none() {
        return;
    }
    let prompts = ["The capital of France is", "def fibonacci(n):"];
    let modes: [(&[&str], bool); 3] = [
        (&["--device", "cuda:0"], true),
        (&["--device", "cuda:0", "--overlap-schedule"], true),
        (
            &[
                "--device",
                "cuda:0",
                "--disable-cuda-graph",
                "--sampling",
                "host",
            ],
            false,
        ),
    ];
    let on_cpu: Vec<String> = {
        let server = Server::start(&["--device", "cpu"]);
        prompts.iter().map(|p| server.complete(p)).collect()
    };
    let mut first_mode: Option<Vec<String>> = None;
    for (flags, graphs) in modes {
        let server = Server::start(flags);
        let texts: Vec<String> = prompts.iter().map(|p| server.complete(p)).collect();
        let replays = server.graph_replays();
        assert_eq!(replays > 0, graphs, "{flags:?}: {replays} graph replays");
        for (text, cpu) in texts.iter().zip(&on_cpu) {
            let first = |t: &str| t.split_whitespace().next().map(str::to_string);
            assert_eq!(
                first(text),
                first(cpu),
                "{flags:?}: {text:?} vs the CPU's {cpu:?}"
            );
        }
        match &first_mode {
            Some(want) => assert_eq!(&texts, want, "{flags:?}"),
            None => first_mode = Some(texts),
        }
    }
}
