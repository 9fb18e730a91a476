//! Dequantization tests: hand-built blocks with known values (written from ggml's block
//! layouts, independently of the decoders), length checks, and quantize -> dequantize round
//! trips through simple reference quantizers.

use half::f16;

use super::{dequantize, GgmlType};
use crate::KernelError;

fn h(v: f32) -> [u8; 2] {
    f16::from_f32(v).to_le_bytes()
}

fn deq(ty: GgmlType, bytes: &[u8], n: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; n];
    dequantize(ty, bytes, &mut out).unwrap();
    out
}

fn assert_bits_eq(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "element {i}: got {g}, want {w}");
    }
}

#[test]
fn float_types() {
    let vals = [1.5f32, -2.0, 0.0, 65504.0, -0.5];
    let f32_bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_bits_eq(&deq(GgmlType::F32, &f32_bytes, 5), &vals);
    // 1.0, -2.0, 0.5 as f16 bit patterns.
    let f16_bytes = [0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38];
    assert_bits_eq(&deq(GgmlType::F16, &f16_bytes, 3), &[1.0, -2.0, 0.5]);
    // 1.0, -3.0 as bf16 bit patterns.
    let bf16_bytes = [0x80, 0x3F, 0x40, 0xC0];
    assert_bits_eq(&deq(GgmlType::Bf16, &bf16_bytes, 2), &[1.0, -3.0]);
}

#[test]
fn q8_0_known_block() {
    let mut blk = h(0.5).to_vec();
    blk.extend((0..32).map(|j| (j as i8 * 4 - 64) as u8)); // -64..60, and -128 below
    blk[2] = (-128i8) as u8;
    let mut want: Vec<f32> = (0..32).map(|j| (j * 4 - 64) as f32 * 0.5).collect();
    want[0] = -64.0;
    assert_bits_eq(&deq(GgmlType::Q8_0, &blk, 32), &want);
}

#[test]
fn q4_0_known_block() {
    let mut blk = h(2.0).to_vec();
    // Element j < 16 is the low nibble of byte j, element j + 16 its high nibble.
    blk.extend((0..16u8).map(|j| j | ((15 - j) << 4)));
    let want: Vec<f32> = (0..32)
        .map(|e| {
            let q = if e < 16 { e } else { 15 - (e - 16) };
            (q - 8) as f32 * 2.0
        })
        .collect();
    assert_bits_eq(&deq(GgmlType::Q4_0, &blk, 32), &want);
}

#[test]
fn q4_1_known_block() {
    let mut blk = h(0.25).to_vec();
    blk.extend(h(-1.0));
    blk.extend((0..16u8).map(|j| j | ((j / 2) << 4)));
    let want: Vec<f32> = (0..32)
        .map(|e| {
            let q = if e < 16 { e } else { (e - 16) / 2 };
            q as f32 * 0.25 - 1.0
        })
        .collect();
    assert_bits_eq(&deq(GgmlType::Q4_1, &blk, 32), &want);
}

/// Packs 32 five-bit codes as ggml's Q5 blocks do: nibbles like Q4, fifth bits in a u32.
fn q5_pack(codes: &[u8; 32]) -> ([u8; 4], [u8; 16]) {
    let mut qh = 0u32;
    let mut qs = [0u8; 16];
    for j in 0..16 {
        qs[j] = (codes[j] & 15) | ((codes[j + 16] & 15) << 4);
        qh |= u32::from(codes[j] >> 4) << j;
        qh |= u32::from(codes[j + 16] >> 4) << (j + 16);
    }
    (qh.to_le_bytes(), qs)
}

#[test]
fn q5_0_and_q5_1_known_blocks() {
    let codes: [u8; 32] = std::array::from_fn(|e| e as u8);
    let (qh, qs) = q5_pack(&codes);
    let mut b0 = h(1.0).to_vec();
    b0.extend(qh);
    b0.extend(qs);
    let want0: Vec<f32> = (0..32).map(|e| (e - 16) as f32).collect();
    assert_bits_eq(&deq(GgmlType::Q5_0, &b0, 32), &want0);

    let codes: [u8; 32] = std::array::from_fn(|e| 31 - e as u8);
    let (qh, qs) = q5_pack(&codes);
    let mut b1 = h(0.5).to_vec();
    b1.extend(h(1.0));
    b1.extend(qh);
    b1.extend(qs);
    let want1: Vec<f32> = (0..32).map(|e| (31 - e) as f32 * 0.5 + 1.0).collect();
    assert_bits_eq(&deq(GgmlType::Q5_1, &b1, 32), &want1);
}

/// Packs eight 6-bit (scale, min) pairs the way ggml's Q4_K/Q5_K quantizers do.
fn k4_pack_scales(ls: &[u8; 8], lm: &[u8; 8]) -> [u8; 12] {
    let mut s = [0u8; 12];
    for j in 0..8 {
        if j < 4 {
            s[j] = ls[j];
            s[j + 4] = lm[j];
        } else {
            s[j + 4] = (ls[j] & 0xF) | ((lm[j] & 0xF) << 4);
            s[j - 4] |= (ls[j] >> 4) << 6;
            s[j] |= (lm[j] >> 4) << 6;
        }
    }
    s
}

const LS: [u8; 8] = [1, 2, 3, 63, 17, 33, 48, 5];
const LM: [u8; 8] = [0, 7, 63, 1, 20, 40, 9, 62];

#[test]
fn q4_k_known_block() {
    let (d, dmin) = (0.5f32, 0.25f32);
    let code = |e: usize| ((e * 5 + e / 32) % 16) as u8;
    let mut blk = h(d).to_vec();
    blk.extend(h(dmin));
    blk.extend(k4_pack_scales(&LS, &LM));
    // Sub-blocks 2i and 2i+1 share 32 bytes: low nibbles, then high nibbles.
    for pair in 0..4 {
        blk.extend((0..32).map(|l| code(64 * pair + l) | (code(64 * pair + 32 + l) << 4)));
    }
    assert_eq!(blk.len(), 144);
    let want: Vec<f32> = (0..256)
        .map(|e| {
            let j = e / 32;
            (d * LS[j] as f32) * code(e) as f32 - dmin * LM[j] as f32
        })
        .collect();
    assert_bits_eq(&deq(GgmlType::Q4K, &blk, 256), &want);
}

#[test]
fn q5_k_known_block() {
    let (d, dmin) = (0.25f32, 0.5f32);
    let code = |e: usize| ((e * 7 + 3) % 32) as u8;
    let mut blk = h(d).to_vec();
    blk.extend(h(dmin));
    blk.extend(k4_pack_scales(&LS, &LM));
    // qh[l] bit j is the fifth bit of element l of sub-block j.
    blk.extend((0..32).map(|l| (0..8).fold(0u8, |acc, j| acc | ((code(32 * j + l) >> 4) << j))));
    for pair in 0..4 {
        blk.extend(
            (0..32).map(|l| (code(64 * pair + l) & 15) | ((code(64 * pair + 32 + l) & 15) << 4)),
        );
    }
    assert_eq!(blk.len(), 176);
    let want: Vec<f32> = (0..256)
        .map(|e| {
            let j = e / 32;
            (d * LS[j] as f32) * code(e) as f32 - dmin * LM[j] as f32
        })
        .collect();
    assert_bits_eq(&deq(GgmlType::Q5K, &blk, 256), &want);
}

#[test]
fn q6_k_known_block() {
    let d = 0.5f32;
    let code = |e: usize| ((e * 11 + e / 64) % 64) as u8;
    let scale = |i: usize| (i as i32 * 9 - 70) as i8;
    let mut ql = [0u8; 128];
    let mut qh = [0u8; 64];
    for half in 0..2 {
        for l in 0..32 {
            let q: [u8; 4] = std::array::from_fn(|i| code(128 * half + l + 32 * i));
            ql[64 * half + l] = (q[0] & 15) | ((q[2] & 15) << 4);
            ql[64 * half + l + 32] = (q[1] & 15) | ((q[3] & 15) << 4);
            qh[32 * half + l] =
                (q[0] >> 4) | ((q[1] >> 4) << 2) | ((q[2] >> 4) << 4) | ((q[3] >> 4) << 6);
        }
    }
    let mut blk = ql.to_vec();
    blk.extend(qh);
    blk.extend((0..16).map(|i| scale(i) as u8));
    blk.extend(h(d));
    assert_eq!(blk.len(), 210);
    let want: Vec<f32> = (0..256)
        .map(|e| d * f32::from(scale(e / 16)) * (i32::from(code(e)) - 32) as f32)
        .collect();
    assert_bits_eq(&deq(GgmlType::Q6K, &blk, 256), &want);
}

#[test]
fn mxfp4_known_blocks() {
    // E2M1 read from its bits (sign, two exponent bits, one mantissa bit), times the E8M0
    // scale 2^(e - 127): the OCP definition, not the halved table the code uses.
    let e2m1 = |n: u8| -> f64 {
        let (s, e, m) = ((n >> 3) & 1, (n >> 1) & 3, n & 1);
        let mag = if e == 0 {
            0.5 * f64::from(m)
        } else {
            2f64.powi(i32::from(e) - 1) * (1.0 + 0.5 * f64::from(m))
        };
        if s == 1 {
            -mag
        } else {
            mag
        }
    };
    // (From e = 253 on, the largest values overflow f32, in ggml as here.)
    for e in [0u8, 1, 2, 100, 127, 130, 248] {
        let mut blk = vec![e];
        // Nibble j and 15 - j in byte j: every code in both halves.
        blk.extend((0..16u8).map(|j| j | ((15 - j) << 4)));
        let got = deq(GgmlType::Mxfp4, &blk, 32);
        let scale = 2f64.powi(i32::from(e) - 127);
        for j in 0..16u8 {
            let lo = e2m1(j) * scale;
            let hi = e2m1(15 - j) * scale;
            assert_eq!(f64::from(got[usize::from(j)]), lo, "e {e} element {j}");
            assert_eq!(
                f64::from(got[usize::from(j) + 16]),
                hi,
                "e {e} element {}",
                j + 16
            );
        }
    }
    assert_eq!(GgmlType::from_id(39), Some(GgmlType::Mxfp4));
    assert_eq!(GgmlType::Mxfp4.row_bytes(64), Some(34));
}

#[test]
fn length_checks() {
    let mut out = vec![0f32; 32];
    let short = vec![0u8; 19];
    assert!(matches!(
        dequantize(GgmlType::Q4_1, &short, &mut out),
        Err(KernelError::Shape(_))
    ));
    let mut odd = vec![0f32; 33];
    assert!(matches!(
        dequantize(GgmlType::Q4_1, &[0u8; 20], &mut odd),
        Err(KernelError::Shape(_))
    ));
    assert!(matches!(
        dequantize(GgmlType::Q2K, &[0u8; 84], &mut vec![0f32; 256]),
        Err(KernelError::UnsupportedType("Q2_K"))
    ));
    assert!(dequantize(GgmlType::Q8_0, &[], &mut []).is_ok());
}

// ---- round trips through simple reference quantizers ----

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

fn nearest(v: f32) -> i32 {
    v.round() as i32
}

/// (min, max) of a block, with the min capped at 0 as ggml does for K-quants.
fn min_max(x: &[f32]) -> (f32, f32) {
    x.iter()
        .fold((0f32, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)))
}

fn quantize_legacy(ty: GgmlType, x: &[f32]) -> Vec<u8> {
    let mut out = Vec::new();
    for b in x.chunks(32) {
        let amax = b.iter().fold(0f32, |a, v| a.max(v.abs()));
        let (lo, hi) = b
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let codes: Vec<i32> = match ty {
            GgmlType::Q8_0 => {
                let d = amax / 127.0;
                out.extend(h(d));
                b.iter()
                    .map(|&v| nearest(v / f16::from_f32(d).to_f32()))
                    .collect()
            }
            GgmlType::Q4_0 | GgmlType::Q5_0 => {
                let half = if ty == GgmlType::Q4_0 { 8 } else { 16 };
                let d = amax / (half as f32 - 0.5);
                out.extend(h(d));
                let dq = f16::from_f32(d).to_f32();
                b.iter()
                    .map(|&v| (nearest(v / dq) + half).clamp(0, 2 * half - 1))
                    .collect()
            }
            _ => {
                let top = if ty == GgmlType::Q4_1 { 15.0 } else { 31.0 };
                let d = (hi - lo) / top;
                out.extend(h(d));
                out.extend(h(lo));
                let (dq, mq) = (f16::from_f32(d).to_f32(), f16::from_f32(lo).to_f32());
                b.iter()
                    .map(|&v| nearest((v - mq) / dq).clamp(0, top as i32))
                    .collect()
            }
        };
        let c: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
        match ty {
            GgmlType::Q8_0 => out.extend(c),
            GgmlType::Q4_0 | GgmlType::Q4_1 => out.extend((0..16).map(|j| c[j] | (c[j + 16] << 4))),
            _ => {
                let (qh, qs) = q5_pack(&std::array::from_fn(|i| c[i]));
                out.extend(qh);
                out.extend(qs);
            }
        }
    }
    out
}

fn quantize_k4(ty: GgmlType, x: &[f32]) -> Vec<u8> {
    let top = if ty == GgmlType::Q4K { 15.0 } else { 31.0 };
    let mut out = Vec::new();
    for sb in x.chunks(256) {
        let subs: Vec<(f32, f32)> = sb
            .chunks(32)
            .map(|s| {
                let (lo, hi) = min_max(s);
                ((hi - lo) / top, -lo)
            })
            .collect();
        let max_s = subs.iter().fold(0f32, |a, s| a.max(s.0));
        let max_m = subs.iter().fold(0f32, |a, s| a.max(s.1));
        let (d, dmin) = (max_s / 63.0, max_m / 63.0);
        let (dq, dminq) = (f16::from_f32(d).to_f32(), f16::from_f32(dmin).to_f32());
        let ls: [u8; 8] = std::array::from_fn(|j| {
            if dq > 0.0 {
                nearest(subs[j].0 / dq).clamp(0, 63) as u8
            } else {
                0
            }
        });
        let lm: [u8; 8] = std::array::from_fn(|j| {
            if dminq > 0.0 {
                nearest(subs[j].1 / dminq).clamp(0, 63) as u8
            } else {
                0
            }
        });
        let codes: Vec<u8> = (0..256)
            .map(|e| {
                let j = e / 32;
                let (s, m) = (dq * f32::from(ls[j]), dminq * f32::from(lm[j]));
                if s > 0.0 {
                    nearest((sb[e] + m) / s).clamp(0, top as i32) as u8
                } else {
                    0
                }
            })
            .collect();
        out.extend(h(d));
        out.extend(h(dmin));
        out.extend(k4_pack_scales(&ls, &lm));
        if ty == GgmlType::Q5K {
            out.extend(
                (0..32).map(|l| (0..8).fold(0u8, |a, j| a | ((codes[32 * j + l] >> 4) << j))),
            );
        }
        for pair in 0..4 {
            out.extend(
                (0..32)
                    .map(|l| (codes[64 * pair + l] & 15) | ((codes[64 * pair + 32 + l] & 15) << 4)),
            );
        }
    }
    out
}

fn quantize_q6_k(x: &[f32]) -> Vec<u8> {
    let mut out = Vec::new();
    for sb in x.chunks(256) {
        let scales: Vec<f32> = sb
            .chunks(16)
            .map(|s| s.iter().fold(0f32, |a, v| a.max(v.abs())) / 31.0)
            .collect();
        let max_s = scales.iter().fold(0f32, |a, &s| a.max(s));
        let dq = f16::from_f32(max_s / 127.0).to_f32();
        let sc: Vec<i8> = scales
            .iter()
            .map(|&s| {
                if dq > 0.0 {
                    nearest(s / dq).clamp(-128, 127) as i8
                } else {
                    0
                }
            })
            .collect();
        let codes: Vec<u8> = (0..256)
            .map(|e| {
                let s = dq * f32::from(sc[e / 16]);
                if s != 0.0 {
                    (nearest(sb[e] / s).clamp(-32, 31) + 32) as u8
                } else {
                    32
                }
            })
            .collect();
        let mut ql = [0u8; 128];
        let mut qh = [0u8; 64];
        for half in 0..2 {
            for l in 0..32 {
                let q: [u8; 4] = std::array::from_fn(|i| codes[128 * half + l + 32 * i]);
                ql[64 * half + l] = (q[0] & 15) | ((q[2] & 15) << 4);
                ql[64 * half + l + 32] = (q[1] & 15) | ((q[3] & 15) << 4);
                qh[32 * half + l] =
                    (q[0] >> 4) | ((q[1] >> 4) << 2) | ((q[2] >> 4) << 4) | ((q[3] >> 4) << 6);
            }
        }
        out.extend(ql);
        out.extend(qh);
        out.extend(sc.iter().map(|&s| s as u8));
        out.extend(h(max_s / 127.0));
    }
    out
}

fn quantize(ty: GgmlType, x: &[f32]) -> Vec<u8> {
    match ty {
        GgmlType::F32 => x.iter().flat_map(|v| v.to_le_bytes()).collect(),
        GgmlType::F16 => x.iter().flat_map(|&v| h(v)).collect(),
        GgmlType::Bf16 => x
            .iter()
            .flat_map(|&v| half::bf16::from_f32(v).to_le_bytes())
            .collect(),
        GgmlType::Q4K | GgmlType::Q5K => quantize_k4(ty, x),
        GgmlType::Q6K => quantize_q6_k(x),
        _ => quantize_legacy(ty, x),
    }
}

#[test]
fn round_trips() {
    // (type, largest RMS error relative to the RMS of the input)
    let cases = [
        (GgmlType::F32, 0.0),
        (GgmlType::F16, 1e-3),
        (GgmlType::Bf16, 5e-3),
        (GgmlType::Q8_0, 0.01),
        (GgmlType::Q4_0, 0.12),
        (GgmlType::Q4_1, 0.08),
        (GgmlType::Q5_0, 0.06),
        (GgmlType::Q5_1, 0.04),
        (GgmlType::Q4K, 0.1),
        (GgmlType::Q5K, 0.05),
        (GgmlType::Q6K, 0.03),
    ];
    let mut rng = Rng(7);
    let x: Vec<f32> = (0..2048)
        .map(|i| rng.next() * (1.0 + (i % 97) as f32 / 20.0))
        .collect();
    let rms = (x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32).sqrt();
    for (ty, tol) in cases {
        let bytes = quantize(ty, &x);
        let y = deq(ty, &bytes, x.len());
        let err = (x
            .iter()
            .zip(&y)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f32>()
            / x.len() as f32)
            .sqrt();
        assert!(
            err <= tol * rms,
            "{}: relative RMS error {}",
            ty.name(),
            err / rms
        );
    }
}
