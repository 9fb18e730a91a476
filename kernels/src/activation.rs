//! The gated MLPs' activations: SwiGLU's `silu(gate) * up` and GeGLU's `gelu(gate) * up`.

use crate::vector::exp_approx;
use crate::KernelError;
use multiversion::multiversion;

/// `gate_up` holds rows `[gate (ffn) | up (ffn)]`; writes `silu(gate) * up` rows of `ffn`.
pub fn silu_mul(gate_up: &[f32], ffn: usize, out: &mut [f32]) -> Result<(), KernelError> {
    gated("silu_mul", gate_up, ffn, out, silu_mul_row)
}

/// Applies `row(gate, up, out)` to every `[gate | up]` row.
fn gated(
    name: &str,
    gate_up: &[f32],
    ffn: usize,
    out: &mut [f32],
    row: fn(&[f32], &[f32], &mut [f32]),
) -> Result<(), KernelError> {
    if ffn == 0 || !gate_up.len().is_multiple_of(2 * ffn) || out.len() * 2 != gate_up.len() {
        return Err(KernelError::Shape(format!(
            "{name}: {} gate/up values, {} outputs, ffn {ffn}",
            gate_up.len(),
            out.len()
        )));
    }
    for (pair, dst) in gate_up.chunks_exact(2 * ffn).zip(out.chunks_exact_mut(ffn)) {
        let (gate, up) = pair.split_at(ffn);
        row(gate, up, dst);
    }
    Ok(())
}

/// Same operations on every path (no contraction into FMA), so the versions agree bitwise.
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn silu_mul_row(gate: &[f32], up: &[f32], dst: &mut [f32]) {
    for ((d, &g), &u) in dst.iter_mut().zip(gate).zip(up) {
        *d = g / (1.0 + exp_approx(-g)) * u;
    }
}

/// `max(x, 0)^2` in place: the activation of an MLP without a gate (Nemotron-H's).
pub fn squared_relu(x: &mut [f32]) {
    x.iter_mut().for_each(|v| {
        let r = v.max(0.0);
        *v = r * r;
    });
}

/// `gate_up` holds rows `[gate (ffn) | up (ffn)]`; writes `gelu(gate) * up` rows of `ffn`, with
/// GELU's tanh form (what Gemma was trained with, and llama.cpp computes).
pub fn gelu_mul(gate_up: &[f32], ffn: usize, out: &mut [f32]) -> Result<(), KernelError> {
    gated("gelu_mul", gate_up, ffn, out, gelu_mul_row)
}

/// `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`, with `tanh(y) = 1 - 2 / (e^(2y) + 1)`.
#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn gelu_mul_row(gate: &[f32], up: &[f32], dst: &mut [f32]) {
    const SQRT_2_OVER_PI: f32 = 0.797_884_6;
    for ((d, &g), &u) in dst.iter_mut().zip(gate).zip(up) {
        let y = SQRT_2_OVER_PI * (g + 0.044_715 * g * g * g);
        let tanh = 1.0 - 2.0 / (exp_approx(2.0 * y) + 1.0);
        *d = 0.5 * g * (1.0 + tanh) * u;
    }
}

/// gpt-oss's expert activation (ggml's `swiglu_oai`): with `g = min(gate, 7)` and
/// `u = clamp(up, -7, 7)`, writes `g * sigmoid(1.702 g) * (u + 1)` rows of `ffn` from
/// `[gate | up]` rows.
pub fn clamped_swiglu(gate_up: &[f32], ffn: usize, out: &mut [f32]) -> Result<(), KernelError> {
    gated("clamped_swiglu", gate_up, ffn, out, clamped_swiglu_row)
}

/// What `clamped_swiglu` clamps its gate and up values to.
const SWIGLU_LIMIT: f32 = 7.0;
/// The sigmoid's slope in `clamped_swiglu`.
const SWIGLU_ALPHA: f32 = 1.702;

#[multiversion(targets("x86_64+avx512f+avx512vl", "x86_64+avx2+fma"))]
fn clamped_swiglu_row(gate: &[f32], up: &[f32], dst: &mut [f32]) {
    for ((d, &g), &u) in dst.iter_mut().zip(gate).zip(up) {
        let g = g.min(SWIGLU_LIMIT);
        let u = u.clamp(-SWIGLU_LIMIT, SWIGLU_LIMIT);
        *d = g / (1.0 + exp_approx(-SWIGLU_ALPHA * g)) * (u + 1.0);
    }
}

/// The residual connection: `x += y`, element by element.
pub fn add_in_place(x: &mut [f32], y: &[f32]) -> Result<(), KernelError> {
    if x.len() != y.len() {
        return Err(KernelError::Shape(format!(
            "add_in_place: {} and {} values",
            x.len(),
            y.len()
        )));
    }
    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_in_place_adds_and_checks_lengths() {
        let mut x = [1.0f32, -2.0, 0.5];
        add_in_place(&mut x, &[0.5, 2.0, -1.0]).unwrap();
        assert_eq!(x, [1.5, 0.0, -0.5]);
        assert!(add_in_place(&mut x, &[1.0]).is_err());
    }

    #[test]
    fn gelu_mul_matches_the_tanh_formula_in_f64_without_nan_at_the_extremes() {
        let gates: Vec<f32> = (-400..=400)
            .map(|i| i as f32 * 0.05)
            .chain([-1e4, 1e4])
            .collect();
        let ffn = gates.len();
        let mut gate_up = gates.clone();
        gate_up.extend(std::iter::repeat_n(-0.75f32, ffn));
        let mut out = vec![0.0; ffn];
        gelu_mul(&gate_up, ffn, &mut out).unwrap();
        for (&g, &got) in gates.iter().zip(&out) {
            let x = f64::from(g);
            let inner = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x);
            let want = 0.5 * x * (1.0 + inner.tanh()) * -0.75;
            let tol = 1e-5 * want.abs().max(1.0);
            assert!(
                (f64::from(got) - want).abs() <= tol,
                "gelu({x}): {got} vs {want}"
            );
        }
        assert!(gelu_mul(&gate_up[..5], 3, &mut out[..2]).is_err());
    }

    #[test]
    fn clamped_swiglu_clamps_then_gates_as_the_formula_says() {
        let gates = [-20.0f32, -1.0, 0.0, 0.5, 6.9, 7.0, 30.0];
        let ups = [0.3f32, -9.0, 2.0, 10.0, -1.0, 7.5, -0.25];
        let mut gate_up = gates.to_vec();
        gate_up.extend(ups);
        let mut out = [0.0f32; 7];
        clamped_swiglu(&gate_up, 7, &mut out).unwrap();
        for ((&g, &u), &got) in gates.iter().zip(&ups).zip(&out) {
            let x = f64::from(g).min(7.0);
            let y = f64::from(u).clamp(-7.0, 7.0);
            let want = x / (1.0 + (-1.702 * x).exp()) * (y + 1.0);
            assert!(
                (f64::from(got) - want).abs() <= 1e-5 * want.abs().max(1.0),
                "{g} {u}: {got} vs {want}"
            );
        }
        assert!(clamped_swiglu(&gate_up[..5], 3, &mut out[..2]).is_err());
    }

    #[test]
    fn silu_mul_matches_the_formula() {
        let gate_up = [0.0f32, 1.0, -2.0, 2.0, 3.0, 4.0];
        let mut out = [0.0; 3];
        silu_mul(&gate_up, 3, &mut out).unwrap();
        let silu = |x: f32| x / (1.0 + (-x).exp());
        assert_eq!(out[0], 0.0);
        assert!((out[1] - silu(1.0) * 3.0).abs() < 1e-6);
        assert!((out[2] - silu(-2.0) * 4.0).abs() < 1e-6);
    }

    #[test]
    fn silu_mul_stays_within_a_few_ulps_of_f64_over_the_whole_range() {
        let gates: Vec<f32> = (-2000..=2000).map(|i| i as f32 * 0.06).collect();
        let ffn = gates.len();
        let mut gate_up = gates.clone();
        gate_up.extend(std::iter::repeat_n(1.5f32, ffn));
        let mut out = vec![0.0; ffn];
        silu_mul(&gate_up, ffn, &mut out).unwrap();
        for (&g, &got) in gates.iter().zip(&out) {
            let g = f64::from(g);
            let want = g / (1.0 + (-g).exp()) * 1.5;
            let tol = 4.0 * f64::from(f32::EPSILON) * want.abs() + 1e-30;
            assert!(
                (f64::from(got) - want).abs() <= tol,
                "silu({g}): {got} vs {want}"
            );
        }
        // Far past exp's range the gate passes through (or vanishes), never NaN.
        let mut edge = [0.0f32; 2];
        silu_mul(&[200.0, -200.0, 2.0, 2.0], 2, &mut edge).unwrap();
        assert_eq!(edge[0], 400.0);
        assert!(edge[1] <= 0.0 && edge[1] > -1e-30);
    }
}
