//! LoRA adapters in llama.cpp's GGUF form (`general.type = adapter`, `adapter.type = lora`,
//! `blk.N.<projection>.weight.lora_{a,b}`): per projection a low-rank update
//! `y += scale * B (A x)`, `scale = alpha / rank` (1 without an alpha, as llama.cpp reads it).
//! One batch runs the base model and any number of adapters at once: each request names its
//! adapter and only its rows get that adapter's updates (S-LoRA's segmented form). Each row
//! is updated on its own, in a fixed order, so a token's output does not depend on what else
//! the batch holds.

use super::{ModelConfig, ModelError};
use crate::gguf::{GgufFile, TensorView};
use kernels::quant::dequantize;
use kernels::vector::{axpy, dot_rows};
use rayon::prelude::*;

mod peft;
mod read;

pub use read::read_adapter;

/// Ranks above this are refused: a real adapter's rank is 4-256, and a hostile file's
/// `[n_in, rank]` could otherwise ask for any amount of memory.
const MAX_RANK: usize = 1024;

/// Rows updated together: each row of an adapter's A and B is read once per block of rows.
const ROW_BLOCK: usize = 16;

/// Below this many multiply-adds an update runs on the calling thread: waking the pool
/// costs more than the work (a decode step's rows at rank 8, say).
const PARALLEL_MIN_WORK: usize = 1 << 18;

/// The projections an adapter may update, by the fused matrix whose output it adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Q|K|V (`attn_q`, `attn_k`, `attn_v`, or Phi-3's `attn_qkv`).
    Qkv = 0,
    AttnOutput = 1,
    /// gate|up (`ffn_gate`, `ffn_up`, or Phi-3's `ffn_up` holding both).
    GateUp = 2,
    Down = 3,
}

/// One projection's update: `out[col..col + n_out] += scale * B (A x)`.
struct LowRank {
    /// `[rank, n_in]`.
    a: Vec<f32>,
    /// B transposed, `[rank, n_out]`: each of its rows is added to the output scaled by
    /// one value of `A x`, a whole vector at a time.
    b_t: Vec<f32>,
    rank: usize,
    n_in: usize,
    n_out: usize,
    /// Where its output starts in the fused matrix's output row.
    col: usize,
    scale: f32,
}

impl LowRank {
    /// Adds the update of each row of `x` (`[rows, n_in]`, at most [`ROW_BLOCK`] rows) to
    /// its columns of the same row of `out` (`[rows, width]`). Each row of A and of B is read
    /// once for all the rows (read per row, a decode step would stream the adapter once per
    /// request); what each row gets is computed as it would be alone, in the same order.
    /// `scratch` holds at least `rows * (rank + n_out)` values.
    fn apply_rows(&self, x: &[f32], out: &mut [f32], width: usize, scratch: &mut [f32]) {
        let rows = x.len() / self.n_in;
        let (down, rest) = scratch.split_at_mut(rows * self.rank);
        let up = &mut rest[..rows * self.n_out];
        // `A x`: row r of A against every row of x (four at a time, see `dot_rows`).
        let mut column = [0.0f32; ROW_BLOCK];
        for (r, a_row) in self.a.chunks_exact(self.n_in).enumerate() {
            dot_rows(x, a_row, &mut column[..rows]);
            for (i, &d) in column[..rows].iter().enumerate() {
                down[i * self.rank + r] = self.scale * d;
            }
        }
        // The whole update first, then added once (as llama.cpp adds B A x).
        up.fill(0.0);
        for (r, b_col) in self.b_t.chunks_exact(self.n_out).enumerate() {
            for (i, up_row) in up.chunks_exact_mut(self.n_out).enumerate() {
                axpy(down[i * self.rank + r], b_col, up_row);
            }
        }
        for (out_row, up_row) in out.chunks_exact_mut(width).zip(up.chunks_exact(self.n_out)) {
            let out_row = &mut out_row[self.col..self.col + self.n_out];
            out_row.iter_mut().zip(up_row).for_each(|(o, u)| *o += u);
        }
    }

    /// Multiply-adds per row.
    fn work(&self) -> usize {
        self.rank * (self.n_in + self.n_out)
    }
}

/// A loaded adapter: its updates per layer and target.
pub struct LoraAdapter {
    /// `[layer][target]`.
    layers: Vec<[Vec<LowRank>; 4]>,
    /// The largest rank of its updates.
    rank: usize,
    /// The projections it updates (their GGUF names), each once.
    projections: std::collections::BTreeSet<String>,
}

impl LoraAdapter {
    /// Reads the adapter in `file` for a base model of `config` (refusing one made for
    /// another architecture or other shapes, and every tensor it could not apply).
    pub fn from_gguf(file: &GgufFile, config: &ModelConfig) -> Result<Self, ModelError> {
        let bad = |m: String| Err(ModelError::Adapter(m));
        let meta = file.metadata();
        if meta.get_str("general.type") != Some("adapter") {
            return bad("general.type is not \"adapter\": not a LoRA adapter file".into());
        }
        if meta.get_str("adapter.type") != Some("lora") {
            return bad(format!(
                "adapter.type is {:?}, only \"lora\" is supported",
                meta.get_str("adapter.type")
            ));
        }
        if file.architecture() != Some(config.architecture.as_str()) {
            return bad(format!(
                "made for a {:?} model, the base model is {:?}",
                file.architecture().unwrap_or("unnamed"),
                config.architecture
            ));
        }
        if meta.get("adapter.alora.invocation_tokens").is_some() {
            return bad("activated LoRA (invocation tokens) is not supported".into());
        }
        let alpha = match meta.get("adapter.lora.alpha") {
            None => 0.0,
            Some(v) => match v.as_f64() {
                Some(a) if a.is_finite() => a as f32,
                _ => return bad("adapter.lora.alpha is not a finite number".into()),
            },
        };
        let mut adapter = Self::empty(config);
        for info in file.tensors() {
            let name = info.name.as_str();
            let Some(base) = name.strip_suffix(".lora_a") else {
                if name.strip_suffix(".lora_b").is_some() {
                    // Read with its A.
                    continue;
                }
                return bad(format!("tensor {name:?} is neither a lora_a nor a lora_b"));
            };
            let (layer, target, place) = locate(base, config)?;
            adapter.push(base, layer, target, read_pair(file, base, place, alpha)?)?;
        }
        for info in file.tensors() {
            if let Some(base) = info.name.strip_suffix(".lora_b") {
                if file.tensor(&format!("{base}.lora_a")).is_none() {
                    return bad(format!("{base}: a lora_b without its lora_a"));
                }
            }
        }
        adapter.finished()
    }

    /// An adapter of `config`'s layers that updates nothing yet.
    fn empty(config: &ModelConfig) -> Self {
        Self {
            layers: (0..config.num_layers).map(|_| Default::default()).collect(),
            rank: 0,
            projections: Default::default(),
        }
    }

    /// Adds the update of projection `base` (its GGUF name), refusing a second one.
    fn push(
        &mut self,
        base: &str,
        layer: usize,
        target: Target,
        update: LowRank,
    ) -> Result<(), ModelError> {
        if !self.projections.insert(base.to_string()) {
            return Err(ModelError::Adapter(format!("{base}: updated twice")));
        }
        self.rank = self.rank.max(update.rank);
        if let Some(l) = self.layers.get_mut(layer) {
            l[target as usize].push(update);
        }
        Ok(())
    }

    /// The adapter, or an error if it updates nothing.
    fn finished(self) -> Result<Self, ModelError> {
        if self.rank == 0 {
            return Err(ModelError::Adapter("the file holds no LoRA tensors".into()));
        }
        Ok(self)
    }

    /// The largest rank of its updates.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Adds this adapter's updates of `layer`'s `target` to `out` (`[rows, width]`, the
    /// fused projection's output) from its input `x` (`[rows, n_in]`).
    ///
    /// One pass over the rows applies every projection of the target (Q, K and V, say: they
    /// write disjoint columns, so the order is immaterial), serially when the work is too
    /// small to pay for waking the pool's threads. Either way each row is computed alike.
    pub fn apply(&self, layer: usize, target: Target, x: &[f32], out: &mut [f32], width: usize) {
        let Some(updates) = self.layers.get(layer).map(|l| &l[target as usize]) else {
            return;
        };
        let Some(n_in) = updates.first().map(|u| u.n_in) else {
            return;
        };
        let rows = out.len() / width.max(1);
        let per_row = updates.iter().map(|u| u.rank + u.n_out).max().unwrap_or(0);
        let scratch = || vec![0.0f32; ROW_BLOCK * per_row];
        let block = |scratch: &mut Vec<f32>, (out, x): (&mut [f32], &[f32])| {
            for update in updates {
                update.apply_rows(x, out, width, scratch);
            }
        };
        let work: usize = rows * updates.iter().map(LowRank::work).sum::<usize>();
        if work < PARALLEL_MIN_WORK {
            let mut scratch = scratch();
            let blocks = out
                .chunks_mut(ROW_BLOCK * width)
                .zip(x.chunks(ROW_BLOCK * n_in));
            blocks.for_each(|pair| block(&mut scratch, pair));
        } else {
            // Smaller blocks where there are too few rows to give every thread one (a decode
            // step's); a row's update does not depend on the block it is in.
            let threads = rayon::current_num_threads().max(1);
            let block_rows = rows.div_ceil(threads).clamp(1, ROW_BLOCK);
            let blocks =
                (out.par_chunks_mut(block_rows * width)).zip(x.par_chunks(block_rows * n_in));
            blocks.for_each_init(scratch, block);
        }
    }

    /// Whether it updates `layer`'s `target` (a mixture of experts' MLP has no dense
    /// gate|up or down to update).
    pub fn updates(&self, layer: usize, target: Target) -> bool {
        self.layers
            .get(layer)
            .is_some_and(|l| !l[target as usize].is_empty())
    }
}

/// Where a projection's update goes: its input width, output width and first column in the
/// fused output.
#[derive(Clone, Copy, Debug)]
struct Place {
    n_in: usize,
    n_out: usize,
    col: usize,
}

/// The layer, target and place of the projection `base` (`blk.N.attn_q.weight`).
fn locate(base: &str, config: &ModelConfig) -> Result<(usize, Target, Place), ModelError> {
    let unknown = || {
        ModelError::Adapter(format!(
            "{base}: only the attention and dense MLP projections of the layers can be adapted"
        ))
    };
    let rest = base.strip_prefix("blk.").ok_or_else(unknown)?;
    let (layer, projection) = rest.split_once('.').ok_or_else(unknown)?;
    let layer_text = layer;
    let layer: usize = layer.parse().map_err(|_| unknown())?;
    // One spelling per layer: `blk.01` would be `blk.1` updated twice.
    if layer.to_string() != layer_text {
        return Err(unknown());
    }
    if layer >= config.num_layers {
        return Err(ModelError::Adapter(format!(
            "{base}: the base model has {} layers",
            config.num_layers
        )));
    }
    let (hidden, q, kv, ffn) = (config.hidden, config.q_dim(), config.kv_dim(), config.ffn);
    let place = |n_in, n_out, col| Place { n_in, n_out, col };
    // The projections the base model's file has: Phi-3 keeps Q|K|V in `attn_qkv` and
    // gate|up in `ffn_up`.
    let fused = config.architecture == "phi3";
    let (target, place) = match (projection, fused) {
        ("attn_q.weight", false) => (Target::Qkv, place(hidden, q, 0)),
        ("attn_k.weight", false) => (Target::Qkv, place(hidden, kv, q)),
        ("attn_v.weight", false) => (Target::Qkv, place(hidden, kv, q + kv)),
        ("attn_qkv.weight", true) => (Target::Qkv, place(hidden, q + 2 * kv, 0)),
        ("attn_output.weight", _) => (Target::AttnOutput, place(q, hidden, 0)),
        ("ffn_gate.weight", false) => (Target::GateUp, place(hidden, ffn, 0)),
        ("ffn_up.weight", false) => (Target::GateUp, place(hidden, ffn, ffn)),
        ("ffn_up.weight", true) => (Target::GateUp, place(hidden, 2 * ffn, 0)),
        ("ffn_down.weight", _) => (Target::Down, place(ffn, hidden, 0)),
        _ => {
            return Err(ModelError::Adapter(format!(
                "{base}: the base model has no such projection to adapt"
            )))
        }
    };
    Ok((layer, target, place))
}

/// The update of projection `base` from its `lora_a` and `lora_b`, checked against `place`.
fn read_pair(file: &GgufFile, base: &str, place: Place, alpha: f32) -> Result<LowRank, ModelError> {
    let bad = |m: String| ModelError::Adapter(format!("{base}: {m}"));
    let a = file
        .tensor(&format!("{base}.lora_a"))
        .ok_or_else(|| bad("no lora_a".into()))?;
    let b = file
        .tensor(&format!("{base}.lora_b"))
        .ok_or_else(|| bad("a lora_a without its lora_b".into()))?;
    let (n_in, rank) = dims2(&a).ok_or_else(|| bad(format!("lora_a dims {:?}", a.dims())))?;
    let (rank_b, n_out) = dims2(&b).ok_or_else(|| bad(format!("lora_b dims {:?}", b.dims())))?;
    let place = checked_place(base, place, [n_in, rank, rank_b, n_out])?;
    let values = |v: &TensorView<'_>, len: usize| -> Result<Vec<f32>, ModelError> {
        let mut out = vec![0.0; len];
        dequantize(v.ggml_type(), v.data(), &mut out)?;
        Ok(out)
    };
    // llama.cpp's scale: alpha / rank, or 1 without an alpha.
    let scale = if alpha != 0.0 {
        alpha / rank as f32
    } else {
        1.0
    };
    LowRank::new(
        base,
        place,
        values(&a, rank * n_in)?,
        values(&b, n_out * rank)?,
        scale,
    )
}

/// `place` if the update's shape `[n_in, rank of A, rank of B, n_out]` fills it, or why not.
fn checked_place(base: &str, place: Place, shape: [usize; 4]) -> Result<Place, ModelError> {
    let [n_in, rank, rank_b, n_out] = shape;
    let bad = |m: String| ModelError::Adapter(format!("{base}: {m}"));
    if n_in != place.n_in || n_out != place.n_out {
        return Err(bad(format!(
            "maps {n_in} inputs to {n_out} outputs, the base model's projection {} to {}",
            place.n_in, place.n_out
        )));
    }
    if rank != rank_b || rank == 0 || rank > MAX_RANK {
        return Err(bad(format!(
            "lora_a has rank {rank} and lora_b {rank_b} (1 to {MAX_RANK} and equal)"
        )));
    }
    Ok(place)
}

impl LowRank {
    /// The update of `base` at `place` (checked) from `a` (`[rank, n_in]`) and `b`
    /// (`[n_out, rank]`), refused if any value is not finite.
    fn new(
        base: &str,
        place: Place,
        a: Vec<f32>,
        b: Vec<f32>,
        scale: f32,
    ) -> Result<Self, ModelError> {
        let rank = a.len() / place.n_in.max(1);
        if a.len() != rank * place.n_in || b.len() != place.n_out * rank {
            return Err(ModelError::Adapter(format!(
                "{base}: {} and {} values for a rank-{rank} update of {} to {}",
                a.len(),
                b.len(),
                place.n_in,
                place.n_out
            )));
        }
        if a.iter().chain(&b).any(|x| !x.is_finite()) || !scale.is_finite() {
            return Err(ModelError::Adapter(format!(
                "{base}: holds a value that is not finite"
            )));
        }
        let mut b_t = vec![0.0; b.len()];
        for (o, row) in b.chunks_exact(rank.max(1)).enumerate() {
            for (j, &v) in row.iter().enumerate() {
                b_t[j * place.n_out + o] = v;
            }
        }
        Ok(Self {
            a,
            b_t,
            rank,
            n_in: place.n_in,
            n_out: place.n_out,
            col: place.col,
            scale,
        })
    }
}

/// A 2-D tensor's `(ne0, ne1)`.
fn dims2(v: &TensorView<'_>) -> Option<(usize, usize)> {
    match v.dims() {
        [x, y] => Some((usize::try_from(*x).ok()?, usize::try_from(*y).ok()?)),
        _ => None,
    }
}

/// Runs of consecutive batch rows that use the same adapter: `(adapter, rows)`.
pub fn adapter_segments(
    adapters: &[Option<u32>],
    q_indptr: &[u32],
) -> Vec<(u32, std::ops::Range<usize>)> {
    let mut segments: Vec<(u32, std::ops::Range<usize>)> = Vec::new();
    for (b, adapter) in adapters.iter().enumerate() {
        let (Some(adapter), Some(w)) = (adapter, q_indptr.get(b..b + 2)) else {
            continue;
        };
        let rows = w[0] as usize..w[1] as usize;
        match segments.last_mut() {
            Some((last, prev)) if *last == *adapter && prev.end == rows.start => {
                prev.end = rows.end;
            }
            _ => segments.push((*adapter, rows)),
        }
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The update written out: `scale * B (A x)` at its columns, in f64.
    #[test]
    fn a_low_rank_update_adds_scale_b_a_x_at_its_columns() {
        let (n_in, rank, n_out, width, col) = (40, 3, 5, 9, 2);
        let a: Vec<f32> = (0..rank * n_in)
            .map(|i| ((i * 7) % 11) as f32 - 5.0)
            .collect();
        let b: Vec<f32> = (0..n_out * rank)
            .map(|i| ((i * 3) % 7) as f32 - 3.0)
            .collect();
        let x: Vec<f32> = (0..2 * n_in)
            .map(|i| ((i * 5) % 13) as f32 * 0.25)
            .collect();
        let place = Place { n_in, n_out, col };
        let update = LowRank::new("test", place, a.clone(), b.clone(), 0.5).unwrap();
        assert_eq!(update.rank, rank);
        let mut out = vec![1.0f32; 2 * width];
        let mut scratch = vec![0.0; 2 * (rank + n_out)];
        update.apply_rows(&x, &mut out, width, &mut scratch);
        for row in 0..2 {
            for c in 0..width {
                let mut want = 1.0f64;
                if (col..col + n_out).contains(&c) {
                    let o = c - col;
                    for r in 0..rank {
                        let ax: f64 = (0..n_in)
                            .map(|i| a[r * n_in + i] as f64 * x[row * n_in + i] as f64)
                            .sum();
                        want += 0.5 * b[o * rank + r] as f64 * ax;
                    }
                }
                let got = out[row * width + c] as f64;
                assert!(
                    (got - want).abs() < 1e-3 * want.abs().max(1.0),
                    "{row},{c}: {got} {want}"
                );
            }
        }
    }

    /// Rows enough to go through the pool get, each, bitwise what the row gets alone on the
    /// calling thread.
    #[test]
    fn a_row_gets_the_same_update_in_a_small_batch_and_a_large_one() {
        let (n_in, rank, width) = (64, 4, 96);
        let values = |n: usize, k: usize| -> Vec<f32> {
            (0..n).map(|i| ((i * k) % 17) as f32 * 0.1 - 0.8).collect()
        };
        let update = |col, n_out, k| {
            let place = Place { n_in, n_out, col };
            LowRank::new(
                "t",
                place,
                values(rank * n_in, k),
                values(n_out * rank, k + 2),
                0.7,
            )
            .unwrap()
        };
        let adapter = LoraAdapter {
            layers: vec![[
                vec![update(0, 32, 3), update(64, 32, 5)],
                vec![],
                vec![],
                vec![],
            ]],
            rank,
            projections: Default::default(),
        };
        let rows = 400;
        assert!(rows * 2 * rank * (n_in + 32) >= PARALLEL_MIN_WORK);
        let x = values(rows * n_in, 7);
        let mut all = vec![0.5f32; rows * width];
        adapter.apply(0, Target::Qkv, &x, &mut all, width);
        for (r, row) in all.chunks(width).enumerate() {
            let mut alone = vec![0.5f32; width];
            adapter.apply(0, Target::Qkv, &x[r * n_in..][..n_in], &mut alone, width);
            assert_eq!(alone, row, "row {r}");
            assert_ne!(alone[..32], [0.5; 32], "row {r} was updated");
        }
    }

    #[test]
    fn segments_join_neighbouring_requests_of_one_adapter() {
        let q_indptr = [0, 3, 4, 9, 10, 12];
        let adapters = [Some(1), Some(1), None, Some(0), Some(1)];
        assert_eq!(
            adapter_segments(&adapters, &q_indptr),
            vec![(1, 0..4), (0, 9..10), (1, 10..12)]
        );
        assert!(adapter_segments(&[], &q_indptr).is_empty());
    }
}
