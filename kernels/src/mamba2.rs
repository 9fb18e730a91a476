//! Mamba-2's selective state-space scan (Granite 4.0's hybrid layers), on the CPU, in the
//! batch layout of the other kernels (`q_indptr` ranges of token rows per request).
//!
//! Each of `heads` heads keeps a `[head_dim, state]` matrix per request. Token by token, with
//! `dt` the head's step (already through its softplus) and `g = h / (heads / groups)` the
//! group whose `B` and `C` the head reads:
//! `S = S * exp(dt * A[h]) + dt * x[h] B[g]^T` (an outer product over `head_dim x state`),
//! `y[h] = S C[g] + D[h] x[h]`, as ggml's `ssm_scan` computes it for a scalar `A` per head.
//! The convolution before it is `delta_net::causal_conv_biased`.
//!
//! Within a request the tokens run strictly in order; requests and heads run in parallel, and
//! each head's sums run in one fixed order, so a request's output does not depend on how its
//! tokens are split into calls or batched with others.

use crate::KernelError;
use rayon::prelude::*;

/// The sizes of one Mamba-2 layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mamba2Shape {
    pub heads: usize,
    pub head_dim: usize,
    /// Groups of heads sharing one `B` and `C`.
    pub groups: usize,
    /// The state's width per head channel (`ssm.state_size`).
    pub state: usize,
    /// Taps of the causal convolution.
    pub conv_kernel: usize,
}

impl Mamba2Shape {
    /// `x`'s width: every head's channels.
    pub fn inner(&self) -> usize {
        self.heads * self.head_dim
    }

    /// Channels of the convolution: `x`, then `B` and `C` of every group.
    pub fn conv_dim(&self) -> usize {
        self.inner() + 2 * self.groups * self.state
    }

    /// Floats of one request's convolution state: its last `conv_kernel - 1` inputs.
    pub fn conv_state_len(&self) -> usize {
        self.conv_kernel.saturating_sub(1) * self.conv_dim()
    }

    /// Floats of one request's scan state: a `head_dim x state` matrix per head.
    pub fn ssm_state_len(&self) -> usize {
        self.inner() * self.state
    }

    pub fn validate(&self) -> Result<(), KernelError> {
        // Sizes whose products overflow are refused before any is computed.
        let products = self.heads.checked_mul(self.head_dim).and_then(|inner| {
            let b_and_c = self.groups.checked_mul(self.state)?.checked_mul(2)?;
            let conv = inner.checked_add(b_and_c)?.checked_mul(self.conv_kernel)?;
            inner.checked_mul(self.state).map(|_| conv)
        });
        let ok = self.heads > 0
            && self.head_dim > 0
            && self.state > 0
            && self.conv_kernel > 1
            && self.groups > 0
            && self.heads.is_multiple_of(self.groups)
            && products.is_some();
        match ok {
            true => Ok(()),
            false => Err(KernelError::Shape(format!("Mamba-2 layer {self:?}"))),
        }
    }
}

/// A scan's per-head parameters and per-token steps.
pub struct ScanInputs<'a> {
    /// `[tokens, heads]`: each head's step, already through its softplus.
    pub dt: &'a [f32],
    /// `[heads]`: each head's decay rate (negative: `-exp(A_log)`).
    pub a: &'a [f32],
    /// `[heads]`: each head's skip weight.
    pub d: &'a [f32],
}

/// Runs the scan over each request's tokens: `xbc` (`[tokens, conv_dim]`, the convolution's
/// output) and `inputs` in, each request's state `states[b]` (`[heads, head_dim, state]`)
/// carried on, `out` (`[tokens, inner]`) written.
pub fn ssm_scan(
    shape: &Mamba2Shape,
    q_indptr: &[u32],
    xbc: &[f32],
    inputs: ScanInputs<'_>,
    states: &mut [&mut [f32]],
    out: &mut [f32],
) -> Result<(), KernelError> {
    shape.validate()?;
    let requests = q_indptr.len().saturating_sub(1);
    let tokens = q_indptr.last().copied().unwrap_or(0) as usize;
    let ranges_ok =
        q_indptr.first().is_some_and(|&f| f == 0) && q_indptr.windows(2).all(|w| w[0] <= w[1]);
    if !ranges_ok
        || xbc.len() != tokens * shape.conv_dim()
        || inputs.dt.len() != tokens * shape.heads
        || inputs.a.len() != shape.heads
        || inputs.d.len() != shape.heads
        || out.len() != tokens * shape.inner()
        || states.len() != requests
        || states.iter().any(|s| s.len() != shape.ssm_state_len())
    {
        return Err(KernelError::Shape(format!(
            "ssm_scan: {tokens} tokens of {}, {} states for {requests} requests",
            shape.conv_dim(),
            states.len()
        )));
    }
    let (p, inner) = (shape.head_dim, shape.inner());
    // Each request's heads write their outputs, `[tokens, head_dim]` each, into one buffer
    // (request after request, head after head): one allocation a call, not one a head.
    let mut by_head = vec![0.0; tokens * inner];
    let mut items = Vec::with_capacity(requests * shape.heads);
    let mut rest = by_head.as_mut_slice();
    for (b, state) in states.iter_mut().enumerate() {
        let range = q_indptr[b] as usize..q_indptr[b + 1] as usize;
        for (h, s) in state.chunks_exact_mut(p * shape.state).enumerate() {
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(range.len() * p);
            items.push((range.clone(), h, s, mine));
            rest = tail;
        }
    }
    items
        .into_par_iter()
        .for_each(|(range, h, s, o)| head_steps(shape, xbc, &inputs, range, h, s, o));
    let mut pieces = by_head.chunks_exact(p);
    for w in q_indptr.windows(2) {
        for h in 0..shape.heads {
            for t in w[0] as usize..w[1] as usize {
                if let Some(src) = pieces.next() {
                    out[t * inner + h * p..t * inner + (h + 1) * p].copy_from_slice(src);
                }
            }
        }
    }
    Ok(())
}

/// Head `h` of one request over its token rows `range`, state `s` carried on, its outputs
/// written to `out` (`[tokens, head_dim]`).
fn head_steps(
    shape: &Mamba2Shape,
    xbc: &[f32],
    inputs: &ScanInputs<'_>,
    range: std::ops::Range<usize>,
    h: usize,
    s: &mut [f32],
    out: &mut [f32],
) {
    let (p, n, width) = (shape.head_dim, shape.state, shape.conv_dim());
    let group = h / (shape.heads / shape.groups);
    let b_at = shape.inner() + group * n;
    let c_at = shape.inner() + shape.groups * n + group * n;
    for (t, o) in range.zip(out.chunks_exact_mut(p)) {
        let row = &xbc[t * width..(t + 1) * width];
        let (x, b, c) = (
            &row[h * p..(h + 1) * p],
            &row[b_at..b_at + n],
            &row[c_at..c_at + n],
        );
        let dt = inputs.dt[t * shape.heads + h];
        let decay = (dt * inputs.a[h]).exp();
        for ((o, &x), s) in o.iter_mut().zip(x).zip(s.chunks_exact_mut(n)) {
            *o = update_and_read(s, decay, x * dt, b, c) + inputs.d[h] * x;
        }
    }
}

/// `s = s * decay + x_dt * b`, then `s . c`, in eight lanes summed in a fixed order.
#[inline]
fn update_and_read(s: &mut [f32], decay: f32, x_dt: f32, b: &[f32], c: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let mut s_chunks = s.chunks_exact_mut(8);
    let (mut b_chunks, mut c_chunks) = (b.chunks_exact(8), c.chunks_exact(8));
    for ((s8, b8), c8) in (&mut s_chunks).zip(&mut b_chunks).zip(&mut c_chunks) {
        for i in 0..8 {
            s8[i] = s8[i] * decay + x_dt * b8[i];
            lanes[i] += s8[i] * c8[i];
        }
    }
    let tail = s_chunks.into_remainder();
    let (b_tail, c_tail) = (b_chunks.remainder(), c_chunks.remainder());
    for (i, ((s, &b), &c)) in tail.iter_mut().zip(b_tail).zip(c_tail).enumerate() {
        *s = *s * decay + x_dt * b;
        lanes[i] += *s * c;
    }
    let halves = [
        lanes[0] + lanes[4],
        lanes[1] + lanes[5],
        lanes[2] + lanes[6],
        lanes[3] + lanes[7],
    ];
    (halves[0] + halves[2]) + (halves[1] + halves[3])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delta_net::tests::values;

    /// Four heads in two groups; a state width that leaves a tail after the eight lanes.
    const SHAPE: Mamba2Shape = Mamba2Shape {
        heads: 4,
        head_dim: 3,
        groups: 2,
        state: 11,
        conv_kernel: 4,
    };

    /// The recurrence of the Mamba-2 paper with a scalar `A` per head, in f64 over explicit
    /// `[head][channel][state]` arrays: the independent expectation.
    fn reference(xbc: &[f32], dt: &[f32], a: &[f32], d: &[f32], tokens: usize) -> Vec<f64> {
        let (hs, p, n, g) = (SHAPE.heads, SHAPE.head_dim, SHAPE.state, SHAPE.groups);
        let width = SHAPE.conv_dim();
        let mut state = vec![vec![vec![0.0f64; n]; p]; hs];
        let mut out = vec![0.0f64; tokens * hs * p];
        for t in 0..tokens {
            let row = &xbc[t * width..(t + 1) * width];
            for h in 0..hs {
                // Heads 0 and 1 read group 0; heads 2 and 3 read group 1.
                let grp = h * g / hs;
                let b = &row[hs * p + grp * n..hs * p + (grp + 1) * n];
                let c = &row[hs * p + g * n + grp * n..hs * p + g * n + (grp + 1) * n];
                let step = dt[t * hs + h] as f64;
                let decay = (step * a[h] as f64).exp();
                for ch in 0..p {
                    let x = row[h * p + ch] as f64;
                    let mut y = 0.0;
                    for k in 0..n {
                        let s = &mut state[h][ch][k];
                        *s = *s * decay + step * x * b[k] as f64;
                        y += *s * c[k] as f64;
                    }
                    out[t * hs * p + h * p + ch] = y + d[h] as f64 * x;
                }
            }
        }
        out
    }

    struct Case {
        xbc: Vec<f32>,
        dt: Vec<f32>,
        a: Vec<f32>,
        d: Vec<f32>,
    }

    fn case(tokens: usize) -> Case {
        let mut seed = 7;
        let hs = SHAPE.heads;
        Case {
            xbc: values(tokens * SHAPE.conv_dim(), &mut seed),
            dt: values(tokens * hs, &mut seed)
                .iter()
                .map(|v| 0.3 + 0.25 * v)
                .collect(),
            a: values(hs, &mut seed).iter().map(|v| -(v.exp())).collect(),
            d: values(hs, &mut seed),
        }
    }

    fn run(c: &Case, q_indptr: &[u32], states: &mut [Vec<f32>]) -> Vec<f32> {
        let tokens = *q_indptr.last().unwrap() as usize;
        let mut out = vec![0.0; tokens * SHAPE.inner()];
        let mut refs: Vec<&mut [f32]> = states.iter_mut().map(|s| s.as_mut_slice()).collect();
        let inputs = ScanInputs {
            dt: &c.dt,
            a: &c.a,
            d: &c.d,
        };
        ssm_scan(&SHAPE, q_indptr, &c.xbc, inputs, &mut refs, &mut out).unwrap();
        out
    }

    #[test]
    fn the_scan_is_the_papers_recurrence() {
        let tokens = 9;
        let c = case(tokens);
        let mut states = vec![vec![0.0; SHAPE.ssm_state_len()]];
        let out = run(&c, &[0, tokens as u32], &mut states);
        let want = reference(&c.xbc, &c.dt, &c.a, &c.d, tokens);
        for (i, (&o, &w)) in out.iter().zip(&want).enumerate() {
            assert!((o as f64 - w).abs() < 1e-5, "output {i}: {o} against {w}");
        }
    }

    /// Tokens split over calls, or batched beside another request, give the same bits.
    #[test]
    fn a_request_resumes_its_state_bit_for_bit() {
        let tokens = 9;
        let c = case(tokens);
        let width = SHAPE.conv_dim();
        let whole = run(
            &c,
            &[0, tokens as u32],
            &mut [vec![0.0; SHAPE.ssm_state_len()]],
        );
        let mut state = vec![vec![0.0; SHAPE.ssm_state_len()]];
        let mut pieces = Vec::new();
        for (start, end) in [(0, 4), (4, 5), (5, 9)] {
            let piece = Case {
                xbc: c.xbc[start * width..end * width].to_vec(),
                dt: c.dt[start * SHAPE.heads..end * SHAPE.heads].to_vec(),
                a: c.a.clone(),
                d: c.d.clone(),
            };
            pieces.extend(run(&piece, &[0, (end - start) as u32], &mut state));
        }
        assert_eq!(whole, pieces);
        // The same request second in a batch of two (the first is its own first 3 tokens).
        let mut batch = Case {
            xbc: c.xbc[..3 * width].to_vec(),
            dt: c.dt[..3 * SHAPE.heads].to_vec(),
            a: c.a.clone(),
            d: c.d.clone(),
        };
        batch.xbc.extend_from_slice(&c.xbc);
        batch.dt.extend_from_slice(&c.dt);
        let mut states = vec![vec![0.0; SHAPE.ssm_state_len()]; 2];
        let out = run(&batch, &[0, 3, 3 + tokens as u32], &mut states);
        assert_eq!(&out[3 * SHAPE.inner()..], &whole[..]);
    }

    #[test]
    fn shapes_that_do_not_fit_are_refused() {
        let c = case(2);
        let inputs = || ScanInputs {
            dt: &c.dt,
            a: &c.a,
            d: &c.d,
        };
        let mut out = vec![0.0; 2 * SHAPE.inner()];
        let mut state = vec![0.0; SHAPE.ssm_state_len()];
        let bad_groups = Mamba2Shape { groups: 3, ..SHAPE };
        let err = ssm_scan(
            &bad_groups,
            &[0, 2],
            &c.xbc,
            inputs(),
            &mut [&mut state],
            &mut out,
        );
        assert!(err.is_err());
        let mut short = vec![0.0; SHAPE.ssm_state_len() - 1];
        let err = ssm_scan(
            &SHAPE,
            &[0, 2],
            &c.xbc,
            inputs(),
            &mut [&mut short],
            &mut out,
        );
        assert!(err.is_err());
        let err = ssm_scan(
            &SHAPE,
            &[0, 3],
            &c.xbc,
            inputs(),
            &mut [&mut state],
            &mut out,
        );
        assert!(err.is_err());
    }
}
