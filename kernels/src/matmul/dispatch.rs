//! Kernel path selection (at run time) and the parallel split over output tiles.
//!
//! Work is split over ranges of 16-row output tiles only: a thread reads a disjoint slice of
//! the weights and writes a disjoint column stripe of the output. An output element is always
//! computed whole by one kernel call, so neither the split nor the batch size can change it.

use std::ops::Range;
use std::sync::OnceLock;

use rayon::prelude::*;

use super::acts::QActs;
use super::pack::{FloatWeights, IntWeights, BLOCK, TILE_ROWS};
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512};
use crate::KernelError;

/// Below this many (tile x block x row) units a call runs on the calling thread: waking the
/// pool costs more than it saves.
const PAR_MIN_WORK: usize = 2048;
/// Stripes per pool thread, for balance when a core is busy elsewhere.
const STRIPES_PER_THREAD: usize = 2;

/// A kernel implementation. All paths give bit-identical results (same integer sums, same
/// sequence of IEEE f32 operations per output element); they differ only in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelPath {
    /// Portable Rust: the reference.
    Scalar,
    /// AVX2 + FMA + F16C: `pmaddubsw` integer dot products, 256-bit.
    Avx2,
    /// AVX-512 F/BW + VNNI: `vpdpbusd` integer dot products, 512-bit.
    Avx512Vnni,
}

/// Names a slower kernel path than the CPU's best (`scalar`, `avx2`), to measure or debug
/// that path on a machine that has a faster one; a path the CPU lacks, or an unknown name,
/// is ignored.
pub const KERNEL_PATH_ENV: &str = "RADIXSERVE_KERNEL_PATH";

impl KernelPath {
    /// The fastest path this CPU supports (detected once), or the one `RADIXSERVE_KERNEL_PATH`
    /// names.
    pub fn detect() -> Self {
        static DETECTED: OnceLock<KernelPath> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let named = std::env::var(KERNEL_PATH_ENV).ok();
            let chosen = [Self::Avx512Vnni, Self::Avx2, Self::Scalar]
                .into_iter()
                .find(|p| named.as_deref() == Some(p.name()) && p.is_available());
            chosen.unwrap_or_else(|| {
                [Self::Avx512Vnni, Self::Avx2]
                    .into_iter()
                    .find(|p| p.is_available())
                    .unwrap_or(Self::Scalar)
            })
        })
    }

    /// Whether kernels outside the matmuls may use AVX-512 (the CPU has AVX-512 F and no
    /// narrower path was named).
    pub fn allows_avx512() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            Self::detect() == Self::Avx512Vnni || {
                std::is_x86_feature_detected!("avx512f") && std::env::var(KERNEL_PATH_ENV).is_err()
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    pub fn is_available(self) -> bool {
        self.isa().is_ok()
    }

    /// Every path this CPU supports, slowest first.
    pub fn available() -> Vec<Self> {
        [Self::Scalar, Self::Avx2, Self::Avx512Vnni]
            .into_iter()
            .filter(|p| p.is_available())
            .collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Scalar => "scalar",
            Self::Avx2 => "avx2",
            Self::Avx512Vnni => "avx512-vnni",
        }
    }

    /// The proof that this CPU has the path's features.
    pub(crate) fn isa(self) -> Result<Isa, KernelError> {
        let unavailable = KernelError::PathUnavailable(self.name());
        match self {
            Self::Scalar => Ok(Isa::Scalar),
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => avx2::Token::new().map(Isa::Avx2).ok_or(unavailable),
            #[cfg(target_arch = "x86_64")]
            Self::Avx512Vnni => avx512::Token::new().map(Isa::Avx512).ok_or(unavailable),
            #[cfg(not(target_arch = "x86_64"))]
            _ => Err(unavailable),
        }
    }
}

/// A kernel path together with the proof that the CPU supports it.
#[derive(Clone, Copy)]
pub(crate) enum Isa {
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Token),
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Token),
    Scalar,
}

/// Weight bytes of a tile group: read from memory once, then reused from L2 for every chunk
/// of activation rows.
const GROUP_BYTES: usize = 512 * 1024;
/// Activation rows per chunk: bounds the output pages a tile group writes between reuses.
const ROW_CHUNK: usize = 64;

/// The cache blocking of one stripe: `(tiles, rows)` pairs in execution order, tiles in
/// groups of an even count (so pairs stay aligned) whose weights fit `GROUP_BYTES`.
pub(crate) fn cache_blocks(
    tiles: Range<usize>,
    tile_bytes: usize,
    m: usize,
) -> impl Iterator<Item = (Range<usize>, Range<usize>)> {
    let per = (GROUP_BYTES / tile_bytes.max(1)).max(2) & !1;
    let end = tiles.end;
    tiles.step_by(per).flat_map(move |g| {
        (0..m)
            .step_by(ROW_CHUNK)
            .map(move |r| (g..(g + per).min(end), r..(r + ROW_CHUNK).min(m)))
    })
}

/// First output column of tile `t`.
fn col(t: usize, n_out: usize) -> usize {
    (t * TILE_ROWS).min(n_out)
}

/// Runs `f` on column stripes of `out` (`m` rows of `n_out`), each a range of output tiles
/// with the `m` row slices of its columns; in parallel when `work` is large enough.
pub(crate) fn for_each_stripe<F>(
    n_tiles: usize,
    n_out: usize,
    work: usize,
    out: &mut [f32],
    f: F,
) -> Result<(), KernelError>
where
    F: Fn(Range<usize>, &mut [&mut [f32]]) -> Result<(), KernelError> + Sync,
{
    if n_out == 0 || out.is_empty() {
        return Ok(());
    }
    let threads = rayon::current_num_threads();
    let parts = if work < PAR_MIN_WORK || threads < 2 {
        1
    } else {
        (threads * STRIPES_PER_THREAD).min(n_tiles.div_ceil(2))
    };
    if parts <= 1 {
        let mut rows: Vec<&mut [f32]> = out.chunks_mut(n_out).collect();
        return f(0..n_tiles, &mut rows);
    }
    // Equal stripes balance the threads; an odd count only costs one single-tile pass.
    let per = n_tiles.div_ceil(parts);
    let ranges: Vec<Range<usize>> = (0..n_tiles)
        .step_by(per)
        .map(|s| s..(s + per).min(n_tiles))
        .collect();
    let m = out.len() / n_out;
    let mut stripes: Vec<Vec<&mut [f32]>> = ranges.iter().map(|_| Vec::with_capacity(m)).collect();
    for row in out.chunks_mut(n_out) {
        let mut rest = row;
        for (range, stripe) in ranges.iter().zip(stripes.iter_mut()) {
            let width = col(range.end, n_out) - col(range.start, n_out);
            let (head, tail) = std::mem::take(&mut rest)
                .split_at_mut_checked(width)
                .ok_or_else(|| KernelError::Shape("output row shorter than n_out".into()))?;
            stripe.push(head);
            rest = tail;
        }
    }
    ranges
        .into_par_iter()
        .zip(stripes)
        .try_for_each(|(range, mut rows)| f(range, &mut rows))
}

fn stripe_cols(
    tiles: &Range<usize>,
    n_tiles: usize,
    n_out: usize,
    out: &[&mut [f32]],
    m: usize,
) -> Result<(), KernelError> {
    if tiles.start > tiles.end || tiles.end > n_tiles {
        return Err(KernelError::Shape(format!(
            "tiles {tiles:?} out of 0..{n_tiles}"
        )));
    }
    let width = col(tiles.end, n_out) - col(tiles.start, n_out);
    if out.len() != m || out.iter().any(|r| r.len() != width) {
        return Err(KernelError::Shape(format!(
            "output stripe must be {m} rows of {width}"
        )));
    }
    Ok(())
}

/// Checks everything the integer kernels index without bounds checks.
/// The error of an FP4 layout other than MXFP4's (f32 scales, no min): none is packed.
pub(crate) fn fp4_layout() -> KernelError {
    KernelError::Shape("FP4 codes are packed with f32 scales and no min only".into())
}

pub(crate) fn check_int_stripe(
    w: &IntWeights,
    acts: &QActs,
    tiles: &Range<usize>,
    out: &[&mut [f32]],
) -> Result<(), KernelError> {
    let l = &w.layout;
    let (m, k, nb) = (acts.m, acts.k, l.nb());
    if k != l.k_in
        || k % BLOCK != 0
        || acts.q.len() != m * k
        || acts.dx.len() != m * nb
        || acts.sx.len() != m * nb
        || acts.xs.len() != m * nb
        || w.data().len() != l.n_tiles() * l.tile_bytes()
    {
        return Err(KernelError::Shape(format!(
            "activations of {m} x {k} do not fit weights of k = {}",
            l.k_in
        )));
    }
    stripe_cols(tiles, l.n_tiles(), l.n_out, out, m)
}

/// Checks everything the float kernels index without bounds checks.
pub(crate) fn check_float_stripe(
    w: &FloatWeights,
    x: &[f32],
    m: usize,
    tiles: &Range<usize>,
    out: &[&mut [f32]],
) -> Result<(), KernelError> {
    if x.len() != m * w.k_in || w.data.len() != w.n_out * w.k_in {
        return Err(KernelError::Shape(format!(
            "{} activations are not {m} rows of {}",
            x.len(),
            w.k_in
        )));
    }
    stripe_cols(tiles, w.n_tiles(), w.n_out, out, m)
}
