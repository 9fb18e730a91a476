//! Matmul benchmarks on SmolLM2-135M's shapes.
//!
//! - `matmul/<shape>/<m>`: one projection, `m` activation rows (throughput in FLOP = 2mnk);
//! - `model/<m>`: every projection of the 30 layers plus the output head, each layer with its
//!   own weights (so m = 1 streams ~96 MB from memory, as a real decode step does);
//! - `paths/<path>/<m>`: the kernel paths side by side on the FFN up shape;
//! - `cpu/...`: the model on a one-thread pool, timed in CPU time of the process (Linux) rather
//!   than wall time: on a shared machine this is the kernels' own cost, unaffected by others
//!   taking the cores (memory bandwidth is still shared).
//!
//! Quick run: `cargo bench -p kernels --bench matmul -- --quick` (or a filter, e.g. `model`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use half::f16;
use kernels::matmul::{KernelPath, QActs, QMatrix};
use kernels::quant::GgmlType;

const HIDDEN: usize = 576;
const KV: usize = 192;
const FFN: usize = 1536;
const VOCAB: usize = 49152;
const LAYERS: usize = 30;
const BATCHES: [usize; 5] = [1, 8, 32, 64, 512];

struct Rng(u64);

impl Rng {
    fn u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f32(&mut self) -> f32 {
        (self.u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// Random GGUF bytes with sane f16 scales (Q4_1 and Q8_0 only).
fn weights(rng: &mut Rng, ty: GgmlType, n: usize, k: usize) -> QMatrix {
    let len = ty.row_bytes((n * k) as u64).unwrap() as usize;
    let mut bytes: Vec<u8> = (0..len).map(|_| rng.u64() as u8).collect();
    let scale_fields: &[usize] = if ty == GgmlType::Q4_1 { &[0, 2] } else { &[0] };
    for blk in bytes.chunks_exact_mut(ty.type_size()) {
        for &at in scale_fields {
            let v = f16::from_f32(rng.f32() * 0.05).to_le_bytes();
            blk[at..at + 2].copy_from_slice(&v);
        }
    }
    QMatrix::new(ty, n, k, &bytes).unwrap()
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
}

fn projections(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let shapes = [
        ("576x576_q4_1", GgmlType::Q4_1, HIDDEN, HIDDEN),
        ("576to192_q4_1", GgmlType::Q4_1, KV, HIDDEN),
        ("576to1536_q4_1", GgmlType::Q4_1, FFN, HIDDEN),
        ("1536to576_q4_1", GgmlType::Q4_1, HIDDEN, FFN),
        ("576to49152_q8_0", GgmlType::Q8_0, VOCAB, HIDDEN),
    ];
    let mut group = c.benchmark_group("matmul");
    for (name, ty, n, k) in shapes {
        let mat = weights(&mut rng, ty, n, k);
        for m in BATCHES {
            let x: Vec<f32> = (0..m * k).map(|_| rng.f32()).collect();
            let mut out = vec![0f32; m * n];
            group.throughput(Throughput::Elements((2 * m * n * k) as u64));
            group.bench_with_input(BenchmarkId::new(name, m), &m, |b, &m| {
                b.iter(|| mat.matmul(black_box(&x), m, &mut out).unwrap())
            });
        }
    }
    group.finish();
}

/// One decoder layer's projections: (q, k, v, o, gate, up, down).
struct Layer([QMatrix; 7]);

struct Model {
    layers: Vec<Layer>,
    head: QMatrix,
}

const FLOPS_PER_TOKEN: usize =
    2 * (LAYERS * (2 * HIDDEN * HIDDEN + 2 * KV * HIDDEN + 3 * FFN * HIDDEN) + VOCAB * HIDDEN);

fn build_model(rng: &mut Rng) -> Model {
    let q4 = |rng: &mut Rng, n, k| weights(rng, GgmlType::Q4_1, n, k);
    let layers: Vec<Layer> = (0..LAYERS)
        .map(|_| {
            Layer([
                q4(rng, HIDDEN, HIDDEN),
                q4(rng, KV, HIDDEN),
                q4(rng, KV, HIDDEN),
                q4(rng, HIDDEN, HIDDEN),
                q4(rng, FFN, HIDDEN),
                q4(rng, FFN, HIDDEN),
                q4(rng, HIDDEN, FFN),
            ])
        })
        .collect();
    let head = weights(rng, GgmlType::Q8_0, VOCAB, HIDDEN);
    Model { layers, head }
}

/// Every matmul of one forward pass over `m` tokens (x stands in for every input).
fn forward(model: &Model, acts: &mut QActs, x: &[f32], m: usize, out: &mut [f32]) {
    for layer in &model.layers {
        let [q, k, v, o, gate, up, down] = &layer.0;
        // Q/K/V and gate/up share their input, as the engine can.
        acts.quantize(&x[..m * HIDDEN], m, HIDDEN).unwrap();
        for w in [q, k, v] {
            w.matmul_quantized(acts, &mut out[..m * w.n_out()]).unwrap();
        }
        o.matmul(&x[..m * HIDDEN], m, &mut out[..m * HIDDEN])
            .unwrap();
        for w in [gate, up] {
            w.matmul_quantized(acts, &mut out[..m * FFN]).unwrap();
        }
        down.matmul(&x[..m * FFN], m, &mut out[..m * HIDDEN])
            .unwrap();
    }
    model.head.matmul(&x[..m * HIDDEN], m, out).unwrap();
    black_box(&out);
}

fn model(c: &mut Criterion) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let model = build_model(&mut rng);
    let mut group = c.benchmark_group("model");
    for m in BATCHES {
        let x: Vec<f32> = (0..m * FFN).map(|_| rng.f32()).collect();
        let mut out = vec![0f32; m * VOCAB];
        let mut acts = QActs::new();
        group.throughput(Throughput::Elements((m * FLOPS_PER_TOKEN) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(m), &m, |b, &m| {
            b.iter(|| forward(&model, &mut acts, &x, m, &mut out))
        });
    }
    group.finish();
}

/// CPU time consumed by every thread of this process, in nanoseconds.
fn process_cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// Criterion measurement in process CPU time.
struct CpuTime;

static WALL: WallTime = WallTime;

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        process_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        process_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Values are nanoseconds, as wall time's are.
        WALL.formatter()
    }
}

fn cpu(c: &mut Criterion<CpuTime>) {
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    let model = build_model(&mut rng);
    // One worker: no CPU time is spent spinning between tasks.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut group = c.benchmark_group("cpu/model");
    for m in [1, 64, 512] {
        let x: Vec<f32> = (0..m * FFN).map(|_| rng.f32()).collect();
        let mut out = vec![0f32; m * VOCAB];
        let mut acts = QActs::new();
        group.throughput(Throughput::Elements((m * FLOPS_PER_TOKEN) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(m), &m, |b, &m| {
            b.iter(|| pool.install(|| forward(&model, &mut acts, &x, m, &mut out)))
        });
    }
    group.finish();
}

fn paths(c: &mut Criterion) {
    let mut rng = Rng(77);
    let mut mat = weights(&mut rng, GgmlType::Q4_1, FFN, HIDDEN);
    let mut group = c.benchmark_group("paths");
    for path in KernelPath::available() {
        mat.set_path(path).unwrap();
        for m in [1, 64] {
            let x: Vec<f32> = (0..m * HIDDEN).map(|_| rng.f32()).collect();
            let mut out = vec![0f32; m * FFN];
            group.throughput(Throughput::Elements((2 * m * FFN * HIDDEN) as u64));
            group.bench_with_input(BenchmarkId::new(path.name(), m), &m, |b, &m| {
                b.iter(|| mat.matmul(black_box(&x), m, &mut out).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = projections, model, paths
}
criterion_group! {
    name = cpu_benches;
    config = config().with_measurement(CpuTime);
    targets = cpu
}
criterion_main!(benches, cpu_benches);
