//! Rotary position embedding.
//!
//! GGUF `llama` weights are laid out for llama.cpp's "normal" RoPE, which rotates adjacent
//! pairs `(x[2i], x[2i+1])` (the converter permuted Q/K rows from Hugging Face's rotate-half
//! layout); NeoX-style models rotate `(x[i], x[i + d/2])`.

use crate::KernelError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RopeStyle {
    /// Adjacent pairs (llama.cpp `LLAMA_ROPE_TYPE_NORM`).
    Normal,
    /// First half with second half (llama.cpp `LLAMA_ROPE_TYPE_NEOX`).
    Neox,
}

/// Precomputed rotation frequencies for one model.
#[derive(Clone, Debug)]
pub struct Rope {
    head_dim: usize,
    /// `base^(-2i / rot_dim)` for each rotated pair `i`.
    inv_freq: Vec<f64>,
    style: RopeStyle,
    /// Linear position scaling: positions are divided by this factor.
    linear_factor: f64,
    /// Multiplies the rotated pairs (llama.cpp's `attn_factor`: LongRoPE's attention scale,
    /// YaRN's magnitude correction).
    mscale: f64,
    /// The frequency base, which places YaRN's ramp.
    base: f64,
}

/// YaRN's context extension as llama.cpp runs it (`ext_factor` 1): pairs that turn fewer
/// than `beta_slow` times over the original context are interpolated (their frequency
/// divided by `factor`), those turning more than `beta_fast` times keep theirs, a linear ramp
/// mixes the two between, and every rotated pair is scaled by `1 + 0.1 ln(factor)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Yarn {
    /// How far the context is stretched (`{arch}.rope.scaling.factor`).
    pub factor: f32,
    /// The context trained before the stretch (`rope.scaling.original_context_length`).
    pub original_context: usize,
    /// Rotations over the original context above which a pair is left as it is (32).
    pub beta_fast: f32,
    /// Rotations below which a pair is fully interpolated (1).
    pub beta_slow: f32,
}

impl Yarn {
    /// llama.cpp's defaults for the two betas.
    pub fn new(factor: f32, original_context: usize) -> Self {
        Self {
            factor,
            original_context,
            beta_fast: 32.0,
            beta_slow: 1.0,
        }
    }

    /// The pair index where a pair turns `rotations` times over the original context
    /// (ggml's `ggml_rope_yarn_corr_dim`).
    fn pair_turning(&self, rotations: f64, rot_dim: usize, base: f64) -> f64 {
        let turns = self.original_context as f64 / (rotations * 2.0 * std::f64::consts::PI);
        rot_dim as f64 * turns.ln() / (2.0 * base.ln())
    }
}

impl Rope {
    pub fn new(
        head_dim: usize,
        rot_dim: usize,
        base: f32,
        style: RopeStyle,
        linear_factor: f32,
    ) -> Result<Self, KernelError> {
        if rot_dim == 0 || rot_dim > head_dim || !rot_dim.is_multiple_of(2) {
            return Err(KernelError::Shape(format!(
                "rope: rotary dim {rot_dim} for head dim {head_dim}"
            )));
        }
        if !(base > 0.0 && linear_factor > 0.0) {
            return Err(KernelError::Shape(format!(
                "rope: base {base} and scale factor {linear_factor} must be positive"
            )));
        }
        let inv_freq = (0..rot_dim / 2)
            .map(|i| (base as f64).powf(-2.0 * i as f64 / rot_dim as f64))
            .collect();
        Ok(Self {
            head_dim,
            inv_freq,
            style,
            linear_factor: linear_factor as f64,
            mscale: 1.0,
            base: base as f64,
        })
    }

    /// Multiplies every rotated pair by `mscale` (llama.cpp's `attn_factor`, which LongRoPE
    /// and YaRN files declare) on top of any scale already set; the dimensions past the
    /// rotary ones keep their values.
    pub fn with_mscale(mut self, mscale: f32) -> Result<Self, KernelError> {
        if !(mscale.is_finite() && mscale > 0.0) {
            return Err(KernelError::Shape(format!(
                "rope: scale {mscale} must be positive and finite"
            )));
        }
        self.mscale *= mscale as f64;
        Ok(self)
    }

    /// Stretches the context by YaRN (see [`Yarn`]): each pair's frequency becomes
    /// `f * (ramp + (1 - ramp) / factor)`, which is ggml's mix of the interpolated and the
    /// extrapolated angle, and the rotated pairs are scaled by `1 + 0.1 ln(factor)`.
    pub fn with_yarn(mut self, yarn: Yarn) -> Result<Self, KernelError> {
        let Yarn {
            factor,
            original_context,
            beta_fast,
            beta_slow,
        } = yarn;
        let betas_ok = [beta_fast, beta_slow]
            .iter()
            .all(|b| b.is_finite() && *b > 0.0);
        if !(factor.is_finite() && factor > 0.0) || original_context == 0 || !betas_ok {
            return Err(KernelError::Shape(format!(
                "rope: YaRN factor {factor} over {original_context} positions \
                 (betas {beta_fast}, {beta_slow})"
            )));
        }
        let rot_dim = 2 * self.inv_freq.len();
        let low = yarn
            .pair_turning(beta_fast as f64, rot_dim, self.base)
            .floor()
            .max(0.0);
        let high = yarn
            .pair_turning(beta_slow as f64, rot_dim, self.base)
            .ceil()
            .min(rot_dim as f64 - 1.0);
        let scale = 1.0 / factor as f64;
        for (i, f) in self.inv_freq.iter_mut().enumerate() {
            let y = (i as f64 - low) / (high - low).max(0.001);
            let ramp = 1.0 - y.clamp(0.0, 1.0);
            *f *= scale * (1.0 - ramp) + ramp;
        }
        // llama.cpp cancels ggml's scale where the factor does not stretch.
        if factor > 1.0 {
            self.mscale *= 1.0 + 0.1 * (factor as f64).ln();
        }
        Ok(self)
    }

    /// Which dimensions are paired.
    pub fn style(&self) -> RopeStyle {
        self.style
    }

    /// Head size, frequencies, style, position scale and pair scale: what the device twin
    /// uploads (and the emulated kernels read).
    pub fn parts(&self) -> (usize, &[f64], RopeStyle, f64, f64) {
        (
            self.head_dim,
            &self.inv_freq,
            self.style,
            self.linear_factor,
            self.mscale,
        )
    }

    /// Divides each pair's frequency by its factor (llama.cpp's `rope_freqs.weight`, used by
    /// Llama 3.1+ to stretch the low frequencies for long contexts).
    pub fn with_freq_factors(mut self, factors: &[f32]) -> Result<Self, KernelError> {
        if factors.len() != self.inv_freq.len() {
            return Err(KernelError::Shape(format!(
                "rope: {} frequency factors for {} rotated pairs",
                factors.len(),
                self.inv_freq.len()
            )));
        }
        if let Some(bad) = factors.iter().find(|f| !(f.is_finite() && **f > 0.0)) {
            return Err(KernelError::Shape(format!(
                "rope: frequency factor {bad} must be positive and finite"
            )));
        }
        for (f, &factor) in self.inv_freq.iter_mut().zip(factors) {
            *f /= factor as f64;
        }
        Ok(self)
    }

    /// Fills `angles` with the rotation of every pair at each of `positions`.
    pub fn angles_into(&self, positions: &[u32], angles: &mut RopeAngles) {
        angles.pairs = self.inv_freq.len();
        angles.cos_sin.clear();
        for &pos in positions {
            let p = pos as f64 / self.linear_factor;
            angles.cos_sin.extend(self.inv_freq.iter().map(|&f| {
                let (s, c) = (p * f).sin_cos();
                ((c * self.mscale) as f32, (s * self.mscale) as f32)
            }));
        }
    }

    /// Rotates every head of every token in `x` (`[tokens, n_heads * head_dim]`) in place.
    pub fn apply(
        &self,
        x: &mut [f32],
        n_heads: usize,
        positions: &[u32],
    ) -> Result<(), KernelError> {
        let mut angles = RopeAngles::default();
        self.angles_into(positions, &mut angles);
        self.apply_angles(x, n_heads, &angles)
    }

    /// [`Rope::apply`] with the angles computed once by [`Rope::angles_into`], so the layers
    /// of one forward pass share them.
    pub fn apply_angles(
        &self,
        x: &mut [f32],
        n_heads: usize,
        angles: &RopeAngles,
    ) -> Result<(), KernelError> {
        let row = n_heads * self.head_dim;
        let pairs = self.inv_freq.len();
        if angles.pairs != pairs || x.len() != angles.tokens() * row {
            return Err(KernelError::Shape(format!(
                "rope: {} values for {} tokens of {n_heads} heads ({} of {pairs} pairs)",
                x.len(),
                angles.tokens(),
                angles.pairs
            )));
        }
        for (token, cos_sin) in x
            .chunks_exact_mut(row)
            .zip(angles.cos_sin.chunks_exact(pairs))
        {
            for head in token.chunks_exact_mut(self.head_dim) {
                for (i, &(c, s)) in cos_sin.iter().enumerate() {
                    let (a, b) = match self.style {
                        RopeStyle::Normal => (2 * i, 2 * i + 1),
                        RopeStyle::Neox => (i, i + pairs),
                    };
                    let (x0, x1) = (head[a], head[b]);
                    head[a] = x0 * c - x1 * s;
                    head[b] = x0 * s + x1 * c;
                }
            }
        }
        Ok(())
    }
}

/// `(cos, sin)` of every rotated pair at each position of a batch.
#[derive(Clone, Debug, Default)]
pub struct RopeAngles {
    pairs: usize,
    cos_sin: Vec<(f32, f32)>,
}

impl RopeAngles {
    fn tokens(&self) -> usize {
        self.cos_sin.len().checked_div(self.pairs).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_zero_is_identity_and_norms_are_kept() {
        let rope = Rope::new(4, 4, 10000.0, RopeStyle::Normal, 1.0).unwrap();
        let orig = vec![1.0f32, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0];
        let mut x = orig.clone();
        rope.apply(&mut x, 1, &[0, 7]).unwrap();
        assert_eq!(&x[..4], &orig[..4]);
        let norm = |v: &[f32]| v.iter().map(|a| a * a).sum::<f32>();
        assert!((norm(&x[4..]) - norm(&orig[4..])).abs() < 1e-4);
    }

    #[test]
    fn normal_style_rotates_adjacent_pairs_by_pos_times_freq() {
        let rope = Rope::new(4, 4, 100.0, RopeStyle::Normal, 1.0).unwrap();
        let mut x = vec![1.0f32, 0.0, 1.0, 0.0];
        rope.apply(&mut x, 1, &[3]).unwrap();
        // Pair 0 turns by 3 rad, pair 1 by 3 * 100^(-1/2) = 0.3 rad.
        assert!((x[0] - 3f32.cos()).abs() < 1e-6 && (x[1] - 3f32.sin()).abs() < 1e-6);
        assert!((x[2] - 0.3f32.cos()).abs() < 1e-6 && (x[3] - 0.3f32.sin()).abs() < 1e-6);
        let neox = Rope::new(4, 4, 100.0, RopeStyle::Neox, 2.0).unwrap();
        let mut y = vec![1.0f32, 1.0, 0.0, 0.0];
        neox.apply(&mut y, 1, &[6]).unwrap();
        // Linear factor 2: position 6 acts as 3; pairs are (0, 2) and (1, 3).
        assert!((y[0] - 3f32.cos()).abs() < 1e-6 && (y[2] - 3f32.sin()).abs() < 1e-6);
        assert!((y[1] - 0.3f32.cos()).abs() < 1e-6 && (y[3] - 0.3f32.sin()).abs() < 1e-6);
    }

    #[test]
    fn rotations_compose_so_relative_positions_matter() {
        // <R(p) q, R(p') k> depends only on p - p'.
        let rope = Rope::new(8, 8, 10000.0, RopeStyle::Normal, 1.0).unwrap();
        let q = [0.3f32, -1.0, 0.5, 2.0, 0.1, 0.7, -0.4, 1.1];
        let k = [1.0f32, 0.2, -0.3, 0.8, 0.9, -1.2, 0.05, 0.6];
        let score = |pq: u32, pk: u32| {
            let (mut a, mut b) = (q.to_vec(), k.to_vec());
            rope.apply(&mut a, 1, &[pq]).unwrap();
            rope.apply(&mut b, 1, &[pk]).unwrap();
            a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>()
        };
        assert!((score(10, 4) - score(106, 100)).abs() < 1e-4);
    }

    #[test]
    fn shared_angles_match_per_call_angles() {
        let rope = Rope::new(8, 6, 10000.0, RopeStyle::Neox, 1.0).unwrap();
        let positions = [0u32, 5, 1000];
        let x: Vec<f32> = (0..3 * 16).map(|i| (i as f32 * 0.31).sin()).collect();
        let (mut a, mut b) = (x.clone(), x.clone());
        rope.apply(&mut a, 2, &positions).unwrap();
        let mut angles = RopeAngles::default();
        rope.angles_into(&positions, &mut angles);
        rope.apply_angles(&mut b, 2, &angles).unwrap();
        assert_eq!(a, b);
        // Angles for other positions, or for another model's pair count, are refused.
        assert!(rope.apply_angles(&mut b[..32], 2, &angles).is_err());
        let other = Rope::new(8, 8, 10000.0, RopeStyle::Neox, 1.0).unwrap();
        assert!(other.apply_angles(&mut b, 2, &angles).is_err());
    }

    #[test]
    fn mscale_multiplies_the_rotated_pairs_only() {
        let plain = Rope::new(8, 4, 10000.0, RopeStyle::Neox, 1.0).unwrap();
        let scaled = plain.clone().with_mscale(1.25).unwrap();
        let x: Vec<f32> = (0..16).map(|i| (i as f32 * 0.7).cos()).collect();
        let (mut a, mut b) = (x.clone(), x.clone());
        plain.apply(&mut a, 2, &[9]).unwrap();
        scaled.apply(&mut b, 2, &[9]).unwrap();
        for head in 0..2 {
            for d in 0..8 {
                let (i, want) = (
                    head * 8 + d,
                    if d < 4 {
                        a[head * 8 + d] * 1.25
                    } else {
                        x[head * 8 + d]
                    },
                );
                assert!((b[i] - want).abs() < 1e-6, "dim {d}: {} vs {want}", b[i]);
            }
        }
        assert!(plain.clone().with_mscale(0.0).is_err());
        assert!(plain.with_mscale(f32::INFINITY).is_err());
    }

    #[test]
    fn yarn_mixes_interpolated_and_extrapolated_angles_as_ggml_does() {
        // ggml's rope_yarn, written out per position in f32: theta_extrap = pos * base^(-2i/d),
        // theta_interp = theta_extrap / factor, mixed by the ramp between the corrected dims.
        let (head_dim, base, factor, orig) = (64usize, 150_000.0f32, 32.0f32, 4096usize);
        let corr = |rot: f32| {
            head_dim as f32 * (orig as f32 / (rot * 2.0 * std::f32::consts::PI)).ln()
                / (2.0 * base.ln())
        };
        let (low, high) = (corr(32.0).floor().max(0.0), corr(1.0).ceil().min(63.0));
        let mscale = 1.0 + 0.1 * factor.ln();
        let rope = Rope::new(head_dim, head_dim, base, RopeStyle::Neox, 1.0)
            .unwrap()
            .with_yarn(Yarn::new(factor, orig))
            .unwrap();
        let positions = [0u32, 1, 7, 4095, 100_000];
        let mut angles = RopeAngles::default();
        rope.angles_into(&positions, &mut angles);
        let mut interpolated = 0;
        for (p, row) in positions.iter().zip(angles.cos_sin.chunks_exact(32)) {
            for (i, &(c, s)) in row.iter().enumerate() {
                let extrap = *p as f32 * base.powf(-2.0 * i as f32 / head_dim as f32);
                let interp = extrap / factor;
                let ramp = 1.0 - ((i as f32 - low) / (high - low).max(0.001)).clamp(0.0, 1.0);
                let theta = interp * (1.0 - ramp) + extrap * ramp;
                // f32 angles of large positions drift; compare through the angle's sine
                // and cosine with a tolerance that grows with it.
                let tol = 1e-4 * (1.0 + theta.abs() * 1e-2);
                assert!((c - theta.cos() * mscale).abs() < tol, "pos {p} pair {i}");
                assert!((s - theta.sin() * mscale).abs() < tol, "pos {p} pair {i}");
                interpolated += usize::from(ramp == 0.0 && *p == 1);
            }
        }
        // The slowest pairs are interpolated, the fastest left alone.
        assert!(interpolated > 0 && interpolated < 32);
        // A factor of 1 changes nothing.
        let plain = Rope::new(head_dim, head_dim, base, RopeStyle::Neox, 1.0).unwrap();
        let same = plain.clone().with_yarn(Yarn::new(1.0, orig)).unwrap();
        let (a, b) = (plain.parts(), same.parts());
        assert!(a.1.iter().zip(b.1).all(|(x, y)| (x - y).abs() <= 1e-15 * x));
        assert_eq!((a.3, a.4), (b.3, b.4));
        assert!(plain.clone().with_yarn(Yarn::new(0.0, orig)).is_err());
        assert!(plain.with_yarn(Yarn::new(4.0, 0)).is_err());
    }

    #[test]
    fn frequency_factors_divide_each_pairs_frequency() {
        let rope = Rope::new(4, 4, 100.0, RopeStyle::Normal, 1.0)
            .unwrap()
            .with_freq_factors(&[1.0, 4.0])
            .unwrap();
        let mut x = vec![1.0f32, 0.0, 1.0, 0.0];
        rope.apply(&mut x, 1, &[3]).unwrap();
        // Pair 0 keeps 3 rad; pair 1 turns by 0.3 / 4 rad.
        assert!((x[0] - 3f32.cos()).abs() < 1e-6 && (x[1] - 3f32.sin()).abs() < 1e-6);
        assert!((x[2] - 0.075f32.cos()).abs() < 1e-6 && (x[3] - 0.075f32.sin()).abs() < 1e-6);
        let plain = || Rope::new(4, 4, 100.0, RopeStyle::Normal, 1.0).unwrap();
        assert!(plain().with_freq_factors(&[1.0]).is_err());
        assert!(plain().with_freq_factors(&[1.0, 0.0]).is_err());
        assert!(plain().with_freq_factors(&[f32::NAN, 1.0]).is_err());
    }
}
