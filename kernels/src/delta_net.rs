//! The gated delta net of Qwen3-Next and Qwen3.5's linear-attention layers, on the CPU, in
//! the batch layout of the other kernels (`q_indptr` ranges of token rows per request).
//!
//! Two steps, each carrying a per-request state from one call to the next, so a request's
//! output does not depend on how its tokens are split into calls or batched with others:
//! - [`causal_conv`]: a depthwise convolution of `kernel` taps over each channel of the
//!   projected `q|k|v`, the last `kernel - 1` inputs of the previous call kept as its state,
//!   then SiLU ([`causal_conv_linear`]: without it, as LFM2's short convolutions run;
//!   [`causal_conv_biased`]: with a bias before it, as Mamba-2's, see `mamba2`).
//! - [`gated_delta_rule`]: per value head a `[head_dim (v), head_dim (k)]` matrix `S` that,
//!   token by token, decays by `exp(g)`, moves toward the token's value along its key
//!   (`S += beta (v - S k) k^T`) and answers its query (`o = S q / sqrt(head_dim)`), with
//!   queries and keys L2-normalized per head first. Value head `h` reads key head
//!   `h % key_heads` (value heads tiled over the key heads: Qwen3.5's files) or
//!   `h / (value_heads / key_heads)` (grouped by key head: Qwen3-Next's).
//!
//! Within a request the tokens run strictly in order; requests and heads run in parallel.

use crate::vector::{axpy, dot, dot_rows, sum_squares};
use crate::KernelError;
use rayon::prelude::*;

/// The sizes of one delta-net layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaShape {
    pub key_heads: usize,
    pub value_heads: usize,
    /// Both a key's and a value's head width.
    pub head_dim: usize,
    /// Taps of the causal convolution.
    pub conv_kernel: usize,
    /// Value heads come in groups reading one key head each, not tiled over the key heads.
    pub grouped_values: bool,
}

impl DeltaShape {
    pub fn key_dim(&self) -> usize {
        self.key_heads * self.head_dim
    }

    pub fn value_dim(&self) -> usize {
        self.value_heads * self.head_dim
    }

    /// Channels of the convolution: queries, keys, values.
    pub fn conv_dim(&self) -> usize {
        2 * self.key_dim() + self.value_dim()
    }

    /// Floats of one request's convolution state: its last `conv_kernel - 1` inputs.
    pub fn conv_state_len(&self) -> usize {
        (self.conv_kernel - 1) * self.conv_dim()
    }

    /// Floats of one request's recurrent state: a `head_dim x head_dim` matrix per value head.
    pub fn ssm_state_len(&self) -> usize {
        self.value_heads * self.head_dim * self.head_dim
    }

    pub fn validate(&self) -> Result<(), KernelError> {
        let ok = self.key_heads > 0
            && self.head_dim > 0
            && self.conv_kernel > 0
            && self.value_heads.is_multiple_of(self.key_heads)
            && self.value_heads > 0;
        match ok {
            true => Ok(()),
            false => Err(KernelError::Shape(format!("delta net {self:?}"))),
        }
    }
}

/// Convolves each request's rows of `x` (`[tokens, channels]`, replaced by the output) with
/// `weight` (`[channels, kernel]`, taps oldest first) over the request's previous inputs in
/// `states[b]` (`[kernel - 1, channels]`, oldest first; updated to its last inputs), then
/// applies SiLU.
pub fn causal_conv(
    x: &mut [f32],
    weight: &[f32],
    kernel: usize,
    q_indptr: &[u32],
    states: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    convolve(x, weight, None, kernel, q_indptr, states, silu)
}

/// [`causal_conv`] with `bias` (`[channels]`) added to each output before the SiLU (Mamba-2's
/// convolution).
pub fn causal_conv_biased(
    x: &mut [f32],
    weight: &[f32],
    bias: &[f32],
    kernel: usize,
    q_indptr: &[u32],
    states: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    convolve(x, weight, Some(bias), kernel, q_indptr, states, silu)
}

fn silu(x: f32) -> f32 {
    x / (1.0 + (-x).exp())
}

/// [`causal_conv`] without the SiLU: the convolution alone (LFM2's short convolutions).
pub fn causal_conv_linear(
    x: &mut [f32],
    weight: &[f32],
    kernel: usize,
    q_indptr: &[u32],
    states: &mut [&mut [f32]],
) -> Result<(), KernelError> {
    convolve(x, weight, None, kernel, q_indptr, states, |sum| sum)
}

/// The convolution of [`causal_conv`], each output plus its channel's `bias` passed through
/// `activation`.
fn convolve(
    x: &mut [f32],
    weight: &[f32],
    bias: Option<&[f32]>,
    kernel: usize,
    q_indptr: &[u32],
    states: &mut [&mut [f32]],
    activation: fn(f32) -> f32,
) -> Result<(), KernelError> {
    let channels = weight.len() / kernel.max(1);
    let requests = q_indptr.len().saturating_sub(1);
    let tokens = q_indptr.last().copied().unwrap_or(0) as usize;
    if kernel == 0
        || !ranges_ok(q_indptr)
        || channels * kernel != weight.len()
        || bias.is_some_and(|b| b.len() != channels)
        || x.len() != tokens * channels
        || states.len() != requests
        || states.iter().any(|s| s.len() != (kernel - 1) * channels)
    {
        return Err(KernelError::Shape(format!(
            "causal_conv: x {}, weight {} of {kernel} taps, {requests} requests, {} states",
            x.len(),
            weight.len(),
            states.len()
        )));
    }
    let mut rows: Vec<&mut [f32]> = Vec::with_capacity(requests);
    let mut rest = x;
    for w in q_indptr.windows(2) {
        let n = (w[1] - w[0]) as usize * channels;
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut(n);
        rows.push(mine);
        rest = tail;
    }
    rows.into_par_iter()
        .zip(states.par_iter_mut())
        .for_each(|(x, state)| conv_request(x, weight, bias, kernel, channels, state, activation));
    Ok(())
}

fn conv_request(
    x: &mut [f32],
    weight: &[f32],
    bias: Option<&[f32]>,
    kernel: usize,
    channels: usize,
    state: &mut [f32],
    activation: fn(f32) -> f32,
) {
    let history = kernel - 1;
    // The request's previous inputs, then these: each output reads `kernel` of them.
    let mut window = Vec::with_capacity(state.len() + x.len());
    window.extend_from_slice(state);
    window.extend_from_slice(x);
    for (t, out) in x.chunks_exact_mut(channels).enumerate() {
        let taps = &window[t * channels..(t + kernel) * channels];
        for (c, o) in out.iter_mut().enumerate() {
            let w = &weight[c * kernel..(c + 1) * kernel];
            let sum: f32 = (0..kernel).map(|j| w[j] * taps[j * channels + c]).sum();
            *o = activation(sum + bias.map_or(0.0, |b| b[c]));
        }
    }
    let end = window.len();
    state.copy_from_slice(&window[end - history * channels..end]);
}

/// Whether `q_indptr` starts at 0 and never decreases (what the splits below rely on).
fn ranges_ok(q_indptr: &[u32]) -> bool {
    q_indptr.first().is_some_and(|&f| f == 0) && q_indptr.windows(2).all(|w| w[0] <= w[1])
}

/// The per-token inputs of [`gated_delta_rule`] beside the convolved `q|k|v` rows.
pub struct DeltaGates<'a> {
    /// `[tokens, value_heads]`: each head's log decay `g` (`S` is scaled by `exp(g)`).
    pub log_decay: &'a [f32],
    /// `[tokens, value_heads]`: each head's write strength, already through its sigmoid.
    pub beta: &'a [f32],
}

/// Runs the delta rule over each request's tokens: `qkv` (`[tokens, conv_dim]`, queries and
/// keys L2-normalized in place with `eps`) and `gates` in, each request's state
/// `states[b]` (`[value_heads, head_dim (v), head_dim (k)]`) carried on, `out`
/// (`[tokens, value_dim]`) written.
pub fn gated_delta_rule(
    shape: &DeltaShape,
    q_indptr: &[u32],
    qkv: &mut [f32],
    gates: DeltaGates<'_>,
    eps: f32,
    states: &mut [&mut [f32]],
    out: &mut [f32],
) -> Result<(), KernelError> {
    shape.validate()?;
    let (d, hv) = (shape.head_dim, shape.value_heads);
    let width = shape.conv_dim();
    let requests = q_indptr.len().saturating_sub(1);
    let tokens = q_indptr.last().copied().unwrap_or(0) as usize;
    if !ranges_ok(q_indptr)
        || qkv.len() != tokens * width
        || gates.log_decay.len() != tokens * hv
        || gates.beta.len() != tokens * hv
        || out.len() != tokens * shape.value_dim()
        || states.len() != requests
        || states.iter().any(|s| s.len() != shape.ssm_state_len())
    {
        return Err(KernelError::Shape(format!(
            "gated_delta_rule: {tokens} tokens of {width}, {} states for {requests} requests",
            states.len()
        )));
    }
    let key_dim = shape.key_dim();
    qkv.par_chunks_exact_mut(width).for_each(|row| {
        for head in row[..2 * key_dim].chunks_exact_mut(d) {
            let scale = 1.0 / (sum_squares(head) + eps).sqrt();
            head.iter_mut().for_each(|v| *v *= scale);
        }
    });
    // One work item per request and value head; each returns its tokens' outputs.
    let mut items: Vec<(usize, usize, &mut [f32])> = Vec::with_capacity(requests * hv);
    for (b, state) in states.iter_mut().enumerate() {
        for (h, s) in state.chunks_exact_mut(d * d).enumerate() {
            items.push((b, h, s));
        }
    }
    let qkv = &*qkv;
    let outputs: Vec<(usize, usize, Vec<f32>)> = items
        .into_par_iter()
        .map(|(b, h, s)| {
            let range = q_indptr[b] as usize..q_indptr[b + 1] as usize;
            let o = head_steps(shape, qkv, &gates, range, h, s);
            (b, h, o)
        })
        .collect();
    for (b, h, o) in outputs {
        let first = q_indptr[b] as usize;
        for (t, src) in o.chunks_exact(d).enumerate() {
            let row = (first + t) * shape.value_dim();
            out[row + h * d..row + (h + 1) * d].copy_from_slice(src);
        }
    }
    Ok(())
}

/// Value head `h` of one request over its token rows `range`, state `s` carried on.
fn head_steps(
    shape: &DeltaShape,
    qkv: &[f32],
    gates: &DeltaGates<'_>,
    range: std::ops::Range<usize>,
    h: usize,
    s: &mut [f32],
) -> Vec<f32> {
    let (d, hv) = (shape.head_dim, shape.value_heads);
    let width = shape.conv_dim();
    let key_head = match shape.grouped_values {
        true => h / (hv / shape.key_heads),
        false => h % shape.key_heads,
    };
    let (key_dim, scale) = (shape.key_dim(), 1.0 / (d as f32).sqrt());
    let mut out = vec![0.0; range.len() * d];
    let mut delta = vec![0.0; d];
    for (t, o) in range.zip(out.chunks_exact_mut(d)) {
        let row = &qkv[t * width..(t + 1) * width];
        let q = &row[key_head * d..(key_head + 1) * d];
        let k = &row[key_dim + key_head * d..key_dim + (key_head + 1) * d];
        let v = &row[2 * key_dim + h * d..2 * key_dim + (h + 1) * d];
        let decay = gates.log_decay[t * hv + h].exp();
        let beta = gates.beta[t * hv + h];
        s.iter_mut().for_each(|x| *x *= decay);
        // delta[j] = beta (v[j] - S[j] . k): row j of `s` is value channel j's key weights.
        dot_rows(s, k, &mut delta);
        for (dj, &vj) in delta.iter_mut().zip(v) {
            *dj = (vj - *dj) * beta;
        }
        for (row, &dj) in s.chunks_exact_mut(d).zip(&delta) {
            axpy(dj, k, row);
        }
        for (oj, row) in o.iter_mut().zip(s.chunks_exact(d)) {
            *oj = dot(row, q) * scale;
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `n` values in [-1, 1) from a linear congruential generator (shared by the recurrent
    /// kernels' tests).
    pub(crate) fn values(n: usize, seed: &mut u64) -> Vec<f32> {
        (0..n)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((*seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect()
    }

    const SHAPE: DeltaShape = DeltaShape {
        key_heads: 2,
        value_heads: 4,
        head_dim: 8,
        conv_kernel: 4,
        grouped_values: false,
    };

    /// The rule written as the recurrence of the Gated DeltaNet paper, in f64 over explicit
    /// `[k][v]` matrices (the kernel keeps the transpose): the independent expectation.
    fn reference(
        qkv: &[f32],
        g: &[f32],
        beta: &[f32],
        tokens: usize,
        key_head: impl Fn(usize) -> usize,
    ) -> Vec<f64> {
        let (d, hk, hv) = (SHAPE.head_dim, SHAPE.key_heads, SHAPE.value_heads);
        let width = SHAPE.conv_dim();
        let mut state = vec![vec![vec![0.0f64; d]; d]; hv]; // [h][k][v]
        let mut out = vec![0.0f64; tokens * hv * d];
        for t in 0..tokens {
            let row: Vec<f64> = qkv[t * width..(t + 1) * width]
                .iter()
                .map(|&x| x as f64)
                .collect();
            let l2 = |x: &[f64]| {
                let n = (x.iter().map(|v| v * v).sum::<f64>() + 1e-6).sqrt();
                x.iter().map(|v| v / n).collect::<Vec<f64>>()
            };
            for h in 0..hv {
                let kh = key_head(h);
                let q = l2(&row[kh * d..(kh + 1) * d]);
                let k = l2(&row[hk * d + kh * d..hk * d + (kh + 1) * d]);
                let v = &row[2 * hk * d + h * d..2 * hk * d + (h + 1) * d];
                let s = &mut state[h];
                let decay = (g[t * hv + h] as f64).exp();
                s.iter_mut().flatten().for_each(|x| *x *= decay);
                for j in 0..d {
                    let kv_mem: f64 = (0..d).map(|i| s[i][j] * k[i]).sum();
                    let dj = (v[j] - kv_mem) * beta[t * hv + h] as f64;
                    (0..d).for_each(|i| s[i][j] += k[i] * dj);
                }
                for j in 0..d {
                    let o: f64 = (0..d).map(|i| s[i][j] * q[i]).sum();
                    out[t * hv * d + h * d + j] = o / (d as f64).sqrt();
                }
            }
        }
        out
    }

    fn run(
        qkv: &[f32],
        g: &[f32],
        beta: &[f32],
        q_indptr: &[u32],
        states: &mut [Vec<f32>],
    ) -> Vec<f32> {
        run_shaped(&SHAPE, qkv, g, beta, q_indptr, states)
    }

    fn run_shaped(
        shape: &DeltaShape,
        qkv: &[f32],
        g: &[f32],
        beta: &[f32],
        q_indptr: &[u32],
        states: &mut [Vec<f32>],
    ) -> Vec<f32> {
        let tokens = *q_indptr.last().unwrap() as usize;
        let mut qkv = qkv.to_vec();
        let mut out = vec![0.0; tokens * SHAPE.value_dim()];
        let mut refs: Vec<&mut [f32]> = states.iter_mut().map(|s| s.as_mut_slice()).collect();
        let gates = DeltaGates { log_decay: g, beta };
        gated_delta_rule(shape, q_indptr, &mut qkv, gates, 1e-6, &mut refs, &mut out).unwrap();
        out
    }

    #[test]
    fn the_rule_matches_the_papers_recurrence() {
        let mut seed = 7;
        let tokens = 9;
        let qkv = values(tokens * SHAPE.conv_dim(), &mut seed);
        let g: Vec<f32> = values(tokens * 4, &mut seed)
            .iter()
            .map(|x| -0.3 * x.abs())
            .collect();
        let beta: Vec<f32> = values(tokens * 4, &mut seed)
            .iter()
            .map(|x| 0.5 + 0.4 * x)
            .collect();
        let mut states = vec![vec![0.0; SHAPE.ssm_state_len()]];
        let got = run(&qkv, &g, &beta, &[0, tokens as u32], &mut states);
        let want = reference(&qkv, &g, &beta, tokens, |h| h % 2);
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!((*a as f64 - b).abs() < 1e-5, "value {i}: {a} vs {b}");
        }
        // Grouped value heads: heads 0 and 1 read key head 0, heads 2 and 3 key head 1.
        let grouped = DeltaShape {
            grouped_values: true,
            ..SHAPE
        };
        let mut states = vec![vec![0.0; SHAPE.ssm_state_len()]];
        let got = run_shaped(&grouped, &qkv, &g, &beta, &[0, tokens as u32], &mut states);
        let want = reference(&qkv, &g, &beta, tokens, |h| h / 2);
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!(
                (*a as f64 - b).abs() < 1e-5,
                "grouped value {i}: {a} vs {b}"
            );
        }
    }

    #[test]
    fn split_calls_and_batching_give_the_same_bits() {
        let mut seed = 11;
        let tokens = 7;
        let qkv = values(tokens * SHAPE.conv_dim(), &mut seed);
        let g: Vec<f32> = values(tokens * 4, &mut seed)
            .iter()
            .map(|x| -x.abs())
            .collect();
        let beta: Vec<f32> = values(tokens * 4, &mut seed)
            .iter()
            .map(|x| x.abs())
            .collect();
        let mut whole = vec![vec![0.0; SHAPE.ssm_state_len()]];
        let all = run(&qkv, &g, &beta, &[0, tokens as u32], &mut whole);
        // The same request in two calls, the second beside another request.
        let mut parts = vec![vec![0.0; SHAPE.ssm_state_len()]];
        let (w, hv) = (SHAPE.conv_dim(), 4);
        let first = run(
            &qkv[..3 * w],
            &g[..3 * hv],
            &beta[..3 * hv],
            &[0, 3],
            &mut parts,
        );
        let mut both = vec![parts[0].clone(), vec![0.0; SHAPE.ssm_state_len()]];
        let mut qkv2 = qkv[3 * w..].to_vec();
        qkv2.extend_from_slice(&qkv[..2 * w]);
        let mut g2 = g[3 * hv..].to_vec();
        g2.extend_from_slice(&g[..2 * hv]);
        let mut b2 = beta[3 * hv..].to_vec();
        b2.extend_from_slice(&beta[..2 * hv]);
        let second = run(&qkv2, &g2, &b2, &[0, 4, 6], &mut both);
        let vd = SHAPE.value_dim();
        assert_eq!(&all[..3 * vd], &first[..]);
        assert_eq!(&all[3 * vd..], &second[..4 * vd]);
        assert_eq!(both[0], whole[0]);
        assert_eq!(&second[4 * vd..], &all[..2 * vd]);
    }

    #[test]
    fn the_convolution_reads_the_inputs_of_earlier_calls() {
        let mut seed = 3;
        let (channels, kernel, tokens) = (5, 4, 6);
        let x = values(tokens * channels, &mut seed);
        let weight = values(channels * kernel, &mut seed);
        let silu = |v: f32| v / (1.0 + (-v).exp());
        // Direct: zero history, output t = silu(sum_j w[j] x[t - 3 + j]).
        let want: Vec<f32> = (0..tokens * channels)
            .map(|i| {
                let (t, c) = (i / channels, i % channels);
                let sum: f32 = (0..kernel)
                    .filter(|&j| t + j >= kernel - 1)
                    .map(|j| weight[c * kernel + j] * x[(t + j + 1 - kernel) * channels + c])
                    .sum();
                silu(sum)
            })
            .collect();
        let mut state = vec![0.0; (kernel - 1) * channels];
        let mut a = x[..2 * channels].to_vec();
        causal_conv(&mut a, &weight, kernel, &[0, 2], &mut [&mut state]).unwrap();
        let mut b = x[2 * channels..].to_vec();
        causal_conv(&mut b, &weight, kernel, &[0, 4], &mut [&mut state]).unwrap();
        a.extend(b);
        for (i, (g, w)) in a.iter().zip(&want).enumerate() {
            assert!((g - w).abs() < 1e-6, "value {i}: {g} vs {w}");
        }
        assert_eq!(state, x[3 * channels..].to_vec());
    }

    #[test]
    fn the_linear_convolution_is_the_convolution_without_silu() {
        let mut seed = 5;
        let (channels, kernel, tokens) = (3, 3, 4);
        let x = values(tokens * channels, &mut seed);
        let weight = values(channels * kernel, &mut seed);
        let mut state = vec![0.0; (kernel - 1) * channels];
        let mut got = x.clone();
        causal_conv_linear(&mut got, &weight, kernel, &[0, 4], &mut [&mut state]).unwrap();
        for (i, g) in got.iter().enumerate() {
            let (t, c) = (i / channels, i % channels);
            let want: f32 = (0..kernel)
                .filter(|&j| t + j >= kernel - 1)
                .map(|j| weight[c * kernel + j] * x[(t + j + 1 - kernel) * channels + c])
                .sum();
            assert!((g - want).abs() < 1e-6, "value {i}: {g} vs {want}");
        }
        assert_eq!(state, x[2 * channels..].to_vec());
    }

    #[test]
    fn the_biased_convolution_adds_the_bias_before_silu() {
        let mut seed = 6;
        let (channels, kernel, tokens) = (3, 4, 5);
        let x = values(tokens * channels, &mut seed);
        let weight = values(channels * kernel, &mut seed);
        let bias = values(channels, &mut seed);
        let mut linear = x.clone();
        let mut state = vec![0.0; (kernel - 1) * channels];
        causal_conv_linear(&mut linear, &weight, kernel, &[0, 5], &mut [&mut state]).unwrap();
        let mut got = x.clone();
        let mut biased_state = vec![0.0; (kernel - 1) * channels];
        let states = &mut [biased_state.as_mut_slice()];
        causal_conv_biased(&mut got, &weight, &bias, kernel, &[0, 5], states).unwrap();
        let wrong_bias = causal_conv_biased(&mut got, &weight, &bias[..2], kernel, &[0, 5], states);
        assert!(matches!(wrong_bias, Err(KernelError::Shape(_))));
        for (i, (g, l)) in got.iter().zip(&linear).enumerate() {
            let v = l + bias[i % channels];
            let want = v / (1.0 + (-v).exp());
            assert!((g - want).abs() < 1e-6, "value {i}: {g} vs {want}");
        }
        // The state keeps the inputs, not the outputs.
        assert_eq!(biased_state, state);
    }

    #[test]
    fn bad_shapes_are_refused() {
        let mut state = vec![0.0; 3];
        let err = causal_conv(&mut [0.0; 4], &[0.0; 8], 4, &[0, 2], &mut [&mut state]);
        assert!(matches!(err, Err(KernelError::Shape(_))));
        // Ranges that go back are refused, not split.
        let mut states = [vec![0.0; 6], vec![0.0; 6]];
        let mut refs: Vec<&mut [f32]> = states.iter_mut().map(|s| s.as_mut_slice()).collect();
        let err = causal_conv(&mut [0.0; 4], &[0.0; 8], 4, &[0, 2, 1], &mut refs);
        assert!(matches!(err, Err(KernelError::Shape(_))));
        let bad = DeltaShape {
            value_heads: 3,
            ..SHAPE
        };
        assert!(bad.validate().is_err());
    }
}
