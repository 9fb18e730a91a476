//! The model on the CPU, measured like llama.cpp's `llama-bench`: prompt processing of 512
//! tokens in one batch (pp512) and token generation, one decode step for a batch of 1, 8, 32
//! or 64 requests that each hold 128 tokens of context (tg at batch B), and batch 1 at 2,048
//! tokens of context. Throughput is tokens per second. Runs on the default model (`scripts/fetch-model.sh`).
//!
//! With `--features cuda` the same passes also run on GPU 0: `gpu/...` (batches
//! up to 256, each pass launch by launch with the fused kernels, ending with the logits on
//! the host, as the scheduler got them before sampling moved to the device),
//! `gpu-unfused/...` (the same with separate add, norm, gate and cast kernels),
//! `gpu-sampled/...` (launch by launch, greedy sampling on the device: only tokens come
//! back), `gpu-graphs/...` (decode steps replayed from CUDA graphs, sampled on the
//! device: how the server runs) and `gpu-graphs-f16kv/...` (the same over an f16 K/V pool);
//! `gpu-three-gemms/...` is `gpu/` with three Q/K/V GEMMs instead of one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::gguf::GgufFile;
use engine::model::{ForwardBatch, ForwardModel, KvPoolSize, Model};
use kernels::sampling::{RowPlan, SamplingBatch};
use pools::{KvCache, KvCacheConfig, KvDtype, ReqKv};
use radix::{Namespace, NsId};
use std::path::Path;
use std::time::{Duration, Instant};

const CONTEXT: usize = 128;
const LONG_CONTEXT: usize = 2048;
const DECODE_STEPS: usize = 16;

fn load_model() -> Model {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/SmolLM2-135M-Instruct.Q4_1.gguf");
    let file = GgufFile::open(&path).expect("run scripts/fetch-model.sh first");
    Model::from_gguf(&file).unwrap()
}

struct Bench<M: ForwardModel> {
    model: M,
    cache: KvCache,
    kv: M::Kv,
    ns: NsId,
    batch: ForwardBatch,
    /// Greedy plans for every row when the step samples on the device; `None`: the logits
    /// come back to the host.
    sampling: Option<SamplingBatch>,
}

impl<M: ForwardModel> Bench<M> {
    /// Room for `max_batch` requests of `context` tokens plus the decode steps, in an f32 K/V
    /// pool.
    fn new(model: M, max_batch: usize, context: usize) -> Self {
        Self::with_kv_dtype(model, max_batch, context, KvDtype::F32)
    }

    fn with_kv_dtype(model: M, max_batch: usize, context: usize, dtype: KvDtype) -> Self {
        let max_context_len = (context + DECODE_STEPS).max(1024);
        let num_slots = max_batch * (context + DECODE_STEPS) + 1024;
        let size = KvPoolSize {
            num_slots,
            req_rows: max_batch,
            max_context_len,
        };
        let kv = model.new_kv(model.kv_layout(dtype), size).unwrap();
        let mut cache = KvCache::new(KvCacheConfig {
            max_running_requests: max_batch,
            max_context_len,
            num_slots,
            page_size: 1,
        })
        .unwrap();
        let ns = cache.namespace_id(&Namespace::global());
        Self {
            model,
            cache,
            kv,
            ns,
            batch: ForwardBatch::default(),
            sampling: None,
        }
    }

    /// Steps end with greedy sampling on the device instead of the logits on the host.
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    fn sampled_on_device(mut self) -> Self {
        self.sampling = Some(SamplingBatch::default());
        self
    }

    /// One forward pass computing `tokens[i]` for each request `reqs[i]`.
    fn step(&mut self, reqs: &mut [ReqKv], tokens: &[Vec<u32>]) {
        self.batch.clear();
        for (req, ids) in reqs.iter_mut().zip(tokens) {
            let start = req.kv_len();
            self.cache.alloc_tokens(req, ids.len()).unwrap();
            let row = req.row_index() as u32;
            let slots = self.cache.slots(req);
            self.batch
                .push_request(row, ids, start as u32, &slots[start..], slots, true);
        }
        match &mut self.sampling {
            None => {
                self.model.forward(&self.batch, &mut self.kv).unwrap();
            }
            Some(sampling) => {
                sampling.plans.clear();
                sampling
                    .plans
                    .resize(self.batch.logits_rows.len(), RowPlan::default());
                let rows = self
                    .model
                    .forward_sampled(&self.batch, &mut self.kv, sampling);
                assert_eq!(rows.unwrap().len(), self.batch.logits_rows.len());
            }
        }
    }

    fn admit(&mut self, n: usize) -> Vec<ReqKv> {
        (0..n)
            .map(|_| self.cache.admit(self.ns, &[]).unwrap())
            .collect()
    }

    fn release(&mut self, reqs: Vec<ReqKv>) {
        for r in reqs {
            self.cache.release_req(r).unwrap();
        }
    }
}

fn prompt(seed: usize, len: usize) -> Vec<u32> {
    (0..len)
        .map(|i| (1000 + (seed * 7919 + i * 104_729) % 40_000) as u32)
        .collect()
}

fn prefill(c: &mut Criterion) {
    prefill_on(c, "model", Bench::new(load_model(), 1, 512));
}

fn decode(c: &mut Criterion) {
    let bench = Bench::new(load_model(), 64, CONTEXT);
    decode_on(c, "model", bench, CONTEXT, &[1, 8, 32, 64]);
    decode_long_context(c, Bench::new(load_model(), 1, LONG_CONTEXT));
}

/// One chat deep into its conversation, where attention is a large share of a step. The
/// context is computed once; each iteration decodes from it and gives its slots back.
fn decode_long_context(c: &mut Criterion, mut bench: Bench<Model>) {
    let mut g = c.benchmark_group(format!("model/tg_context_{LONG_CONTEXT}"));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(15));
    g.throughput(Throughput::Elements(DECODE_STEPS as u64));
    let mut reqs = bench.admit(1);
    bench.step(&mut reqs, &[prompt(0, LONG_CONTEXT)]);
    g.bench_function("batch_1", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let started = Instant::now();
                for _ in 0..DECODE_STEPS {
                    bench.step(&mut reqs, &[vec![7]]);
                }
                total += started.elapsed();
                bench
                    .cache
                    .truncate_tail(&mut reqs[0], LONG_CONTEXT)
                    .unwrap();
            }
            total
        })
    });
    g.finish();
    bench.release(reqs);
}

fn prefill_on<M: ForwardModel>(c: &mut Criterion, device: &str, mut bench: Bench<M>) {
    let mut g = c.benchmark_group(format!("{device}/pp512"));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(15));
    g.throughput(Throughput::Elements(512));
    g.bench_function("batch_1", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let mut reqs = bench.admit(1);
                let tokens = vec![prompt(i as usize, 512)];
                let started = Instant::now();
                bench.step(&mut reqs, &tokens);
                total += started.elapsed();
                bench.release(reqs);
            }
            total
        })
    });
    g.finish();
}

fn decode_on<M: ForwardModel>(
    c: &mut Criterion,
    device: &str,
    mut bench: Bench<M>,
    context: usize,
    batches: &[usize],
) {
    let mut g = c.benchmark_group(format!("{device}/tg_context_{context}"));
    g.sample_size(10);
    // A GPU step takes milliseconds: shorter runs keep a GPU session's bench within minutes.
    let secs = if device.starts_with("gpu") { 5 } else { 15 };
    g.measurement_time(Duration::from_secs(secs));
    for &batch in batches {
        g.throughput(Throughput::Elements((batch * DECODE_STEPS) as u64));
        g.bench_function(format!("batch_{batch}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for i in 0..iters {
                    let mut reqs = bench.admit(batch);
                    let prompts: Vec<Vec<u32>> = (0..batch)
                        .map(|r| prompt(i as usize * batch + r, context))
                        .collect();
                    bench.step(&mut reqs, &prompts);
                    let next: Vec<Vec<u32>> = (0..batch).map(|r| vec![(r % 1000) as u32]).collect();
                    let started = Instant::now();
                    for _ in 0..DECODE_STEPS {
                        bench.step(&mut reqs, &next);
                    }
                    total += started.elapsed();
                    bench.release(reqs);
                }
                total
            })
        });
    }
    g.finish();
}

#[cfg(feature = "cuda")]
fn gpu(c: &mut Criterion) {
    use engine::model::gpu::{GpuModel, GpuRunOptions};
    let model = load_model();
    let gpu = |batch, context| Bench::new(GpuModel::from_model(&model, 0).unwrap(), batch, context);
    prefill_on(c, "gpu", gpu(1, 512));
    decode_on(
        c,
        "gpu",
        gpu(256, CONTEXT),
        CONTEXT,
        &[1, 8, 32, 64, 128, 256],
    );
    // Long contexts: the attention's share of a decode step.
    decode_on(c, "gpu", gpu(128, 1024), 1024, &[16, 128]);

    // The before of the fused kernels and of the one Q/K/V GEMM (`gpu/`): every kernel
    // separate (`gpu-unfused/`), and fused kernels after three Q/K/V GEMMs
    // (`gpu-three-gemms/`).
    let with_options = |batch, context, fused_kernels, merged_qkv| {
        let mut model = GpuModel::from_model(&model, 0).unwrap();
        let options = GpuRunOptions {
            fused_kernels,
            merged_qkv,
            ..GpuRunOptions::default()
        };
        model.set_run_options(options).unwrap();
        Bench::new(model, batch, context)
    };
    let unfused = with_options(128, CONTEXT, false, false);
    decode_on(c, "gpu-unfused", unfused, CONTEXT, &[1, 32, 128]);
    let three_gemms = with_options(128, CONTEXT, true, false);
    decode_on(c, "gpu-three-gemms", three_gemms, CONTEXT, &[1, 32, 128]);
    let sampled = |batch, context| gpu(batch, context).sampled_on_device();
    decode_on(
        c,
        "gpu-sampled",
        sampled(128, CONTEXT),
        CONTEXT,
        &[1, 32, 128],
    );
    let graphed = |batch: usize, context| {
        let mut model = GpuModel::from_model(&model, 0).unwrap();
        let options = GpuRunOptions {
            cuda_graph_max_batch: batch,
            ..GpuRunOptions::default()
        };
        model.set_run_options(options).unwrap();
        Bench::new(model, batch, context).sampled_on_device()
    };
    decode_on(
        c,
        "gpu-graphs",
        graphed(256, CONTEXT),
        CONTEXT,
        &[1, 8, 32, 128, 256],
    );
    decode_on(c, "gpu-graphs", graphed(128, 1024), 1024, &[128]);
    // The same with f16 K/V: half the bytes the attention reads.
    let mut model = GpuModel::from_model(&model, 0).unwrap();
    let options = GpuRunOptions {
        cuda_graph_max_batch: 128,
        ..GpuRunOptions::default()
    };
    model.set_run_options(options).unwrap();
    let half_kv = Bench::with_kv_dtype(model, 128, 1024, KvDtype::F16).sampled_on_device();
    decode_on(c, "gpu-graphs-f16kv", half_kv, 1024, &[1, 128]);
}

#[cfg(not(feature = "cuda"))]
criterion_group!(benches, prefill, decode);
#[cfg(feature = "cuda")]
criterion_group!(benches, prefill, decode, gpu);
criterion_main!(benches);
