"""Granite 4.0 hybrid (`granitehybrid` GGUF architecture) layouts, keys and layers for
make-family-models.py: `granite_hybrid` (Granite 4.0-H-Micro / 1B style, dense, no RoPE) and
`granite_hybrid_moe` (Granite 4.0-H-Tiny style experts, with RoPE on as Bamba has it).

IBM's Granite 4.0-H-Micro, scaled down: a hybrid of Mamba-2 layers and attention layers, 6
layers of types [mamba2, mamba2, attn, mamba2, mamba2, attn], llama.cpp's
src/models/granite-hybrid.cpp as the reference. As for lfm2, the file says which is which only
through attention.head_count_kv, an ARRAY of one count per layer (llama.cpp: layer i is
recurrent where its count is 0), here [0, 0, 2, 0, 0, 2]; attention.head_count stays a single
4, heads of n_embd / n_head = 16 (no key_length / value_length, no rope.dimension_count). The
head is untied (output.weight Q8_0, token_embd Q5_0, as the granite layout's: tied, Granite's
scales made "repeat the last token" the answer), everything else f32. The BPE vocabulary is the
other families' with the granite layout's tokenizer.ggml.pre "refact" and add_bos_token false
(no BOS in the prompts; the Mamba-2 converter's vocabulary padding is not applied).

Keys (under granitehybrid.*): context_length (2^20 in granite_hybrid, as the converter writes
it for a hybrid without RoPE; 4096 in granite_hybrid_moe), block_count 6, embedding_length 64,
feed_forward_length (192 dense; 96 in granite_hybrid_moe, the experts' width),
attention.head_count 4, attention.head_count_kv [0, 0, 2, 0, 0, 2],
attention.layer_norm_rms_epsilon 1e-5, rope.freq_base 1e4, Granite's multipliers
embedding_scale 12, residual_scale 0.22, attention.scale 0.125 (not 1/sqrt(16)), logit_scale 8;
rope.scaling.finetuned (false: no RoPE; true in granite_hybrid_moe); ssm.conv_kernel 4,
ssm.state_size 16, ssm.group_count 2, ssm.inner_size 128 (llama.cpp asserts inner_size = 2 *
n_embd), ssm.time_step_rank 8 (the number of SSM heads, not a rank: heads of 128 / 8 = 16
channels); granite_hybrid_moe adds expert_count 4, expert_used_count 2 and
expert_shared_feed_forward_length 128 (no expert_feed_forward_length: llama.cpp's granitehybrid
loader sizes the experts by feed_forward_length, and converted files have none).

Tensors (ggml shapes, fastest dimension first): token_embd.weight {64, 49152} Q5_0,
output_norm.weight {64}, output.weight {64, 49152} Q8_0; every layer blk.N.attn_norm.weight
{64} and blk.N.ffn_norm.weight {64}; Mamba-2 layers (0, 1, 3, 4): ssm_in.weight {64, 328},
ssm_conv1d.weight {4, 192}, ssm_conv1d.bias {192}, ssm_dt.bias {8}, ssm_a {1, 8}, ssm_d {1, 8}
(no ".weight" on these two), ssm_norm.weight {64, 2}, ssm_out.weight {128, 64}; attention layers
(2, 5): attn_q.weight {64, 64}, attn_k.weight and attn_v.weight {64, 32}, attn_output.weight
{64, 64}; MLP, granite_hybrid: ffn_gate.weight and ffn_up.weight {64, 192}, ffn_down.weight
{192, 64}; granite_hybrid_moe: ffn_gate_inp.weight {64, 4}, ffn_gate_exps.weight and
ffn_up_exps.weight {64, 96, 4}, ffn_down_exps.weight {96, 64, 4}, ffn_gate_shexp.weight and
ffn_up_shexp.weight {64, 128}, ffn_down_shexp.weight {128, 64}. No biases but ssm_conv1d's
and ssm_dt's.

The model, with rms(v) = v / sqrt(mean(v^2) + eps), eps = 1e-5 for every norm (the SSM's
grouped one included):
  x = token_embd[id] * 12                                   (embedding_scale)
  per layer: h = x + 0.22 * mixer(rms(x) * attn_norm)       (residual_scale)
             x = h + 0.22 * mlp(rms(h) * ffn_norm)
  logits = (output . (rms(x) * output_norm)) / 8            (logit_scale)

Mamba-2 layers (d_inner 128, state N = 16, G = 2 groups, H = 8 heads of P = 16 channels,
d_conv 4), on the normed input u_t of each token t of a sequence:
- in_proj: ssm_in . u_t (64 -> 2 * 128 + 2 * 2 * 16 + 8 = 328); its rows, in order: z (0..127),
  xBC (128..319: x 128..255, B 256..287, C 288..319), dt (320..327);
- a causal depthwise conv over the 192 xBC channels only (z and dt are not convolved), with
  bias, then SiLU: xBC'_t[ch] = silu(sum_{j=0..3} w[ch][j] * xBC_{t-3+j}[ch] + bias[ch]), w =
  ssm_conv1d.weight (numpy rows are channels, each channel's 4 taps oldest first: tap 3
  multiplies the current token); xBC before the start of a sequence is 0 (the conv state is the
  previous d_conv - 1 = 3 tokens' xBC before the conv, per channel, zero at sequence start);
- x = xBC'[0:128] as 8 heads of 16 (head h: channels 16h..16h+15), B = xBC'[128:160] and
  C = xBC'[160:192] each as 2 groups of 16 (group g: 16g..16g+15);
- dt_h = softplus(dt_t[h] + ssm_dt.bias[h]) with ggml's softplus (v itself for v > 20, else
  log(1 + exp(v)); here dt stays below 3);
- per head h, with group g = h // (H / G) = h // 4 (heads 0..3 read group 0, 4..7 group 1:
  ggml's repeat_interleave, NOT h % G) and the state S_h (16 x 16, [p][n], zero at sequence
  start): dA = exp(dt_h * A[h]) with A = ssm_a (stored negative, -exp(A_log));
  S_h[p][n] = S_h[p][n] * dA + B[g][n] * x[h][p] * dt_h, then (the updated state, so the
  current token counts) y[h][p] = sum_n S_h[p][n] * C[g][n];
- the skip: y[h][p] += x[h][p] * D[h] (D = ssm_d, x the conv's SiLU output);
- the gate: y *= silu(z) (channel c = 16h + p of both);
- a grouped RMS norm, after the gate: each group's 64 contiguous channels (64g..64g+63, its
  heads' outputs) normed on their own, times ssm_norm.weight (numpy (2, 64): row g for group g);
- out = ssm_out . y (128 -> 64).
The state a Mamba-2 layer carries per sequence: the conv's 3 x 192 floats and S, 8 x 16 x 16
(10,496 bytes a layer in f32; llama.cpp keeps both in f32). As read from llama.cpp's
build_mamba2_layer (src/models/mamba-base.cpp) and its CPU kernels
(ggml_compute_forward_ssm_conv_f32, ggml_compute_forward_ssm_scan_f32 in ggml-cpu/ops.cpp).
Attention layers (2, 5): q = attn_q . u (4 heads of 16), k, v = attn_k . u, attn_v . u (2 heads
of 16); query head h reads K/V head h // 2; causal; scores q . k * 0.125 (attention.scale);
o = attn_output . (the heads' outputs). granite_hybrid has no RoPE at all (llama.cpp fills its
rope pattern with rope.scaling.finetuned, false here, and then builds no positions: the model
knows a token's place only through the Mamba-2 layers and the causal mask).
granite_hybrid_moe rotates Q and K with normal (non-NeoX) RoPE, llama.cpp's rope type 0 for
granitehybrid: pairs (2i, 2i + 1) of each whole head, angle pos * 10000^(-2i / 16), pos = the
token's index in its sequence.
Dense MLP (granite_hybrid): ffn_down . (silu(ffn_gate . g) * (ffn_up . g)), 64 -> 192 -> 64.

Precision. llama.cpp's CPU backend rounds the head's input to Q8_0 blocks (32 values, the
block's scale amax / 127 stored in f16), and its flash attention (the fixtures' setting) keeps
K and V in f16. A float64 implementation of the above that rounds the head's input as ggml's
quantize_row_q8_0 does agrees with llama.cpp run with f32 K/V and no flash attention within
1.5e-5 (the fixture's rounding) at 511 of the two files' 512 fixture steps; at the other (dense
file) by 0.0023, where one element of the head's input lies 5e-6 of a quantization step from
its rounding boundary. Against the fixtures (flash attention) within 0.019 (dense) and 0.020
(MoE), the same greedy token at all 256 steps of each; without the head's rounding within
0.038, 2 to 4 greedy tokens differing (where llama.cpp's top two are under 0.04 apart).

Weights (granite_hybrid; granite_hybrid_moe draws the same way from its own seed). The
embeddings are small (N(0, 0.02^2), times 12 on input), the head's rows N(0, 8^2) (8 x the
usual, to undo logit_scale; the control tokens' 1/20 of that, so greedy runs never stop early),
logits about N(0, 8^2). Xavier-style matrices (attn_q / attn_k 1.5x: scores of about
N(0, 1.1^2)). In a Mamba-2 layer x, B and C come out of in_proj about N(0, 1) for the normed
input, z about N(0, 0.6^2) on group 0's channels and N(0, 1.8^2) on group 1's (so the two
groups reach the grouped norm at different sizes: one norm over all 128 channels would not do),
dt . u about N(0, 0.5^2); the conv's taps N(0, 0.4^2), the current token's 0.5 heavier, its bias
N(0, 0.2^2). Within each group's 4 heads softplus(dt_bias) runs from about 0.8 down to 0.2 and
A from about -2 up to -0.05 (jittered), D is 1 + N(0, 0.5^2). Over the fixture's tokens dt has
a median of 0.46 (5% below 0.13, 5% above 1.16) and the decays exp(dt * A) a median of 0.87,
5% below 0.10 and 5% above 0.993: fast heads forget within a token or two, slow ones carry the
whole prompt; the skip term's RMS is 0.26 to 0.6 of the scan's. The Mamba-2 layers' outputs
have an RMS of about 1.0, the attention layers' 0.4.

Mutations, in the float64 reference along llama.cpp's greedy continuations (granite_hybrid;
granite_hybrid_moe's counts are alike), each against the fixture: the greedy token
changes at 250 of the 256 steps with no carry across tokens (exp(dt * A) = 0), at 247 without
the D skip, at 243 without the grouped norm, at 233 with one norm over all 128 channels, at
236 with heads mapped to groups by h % G, at 239 with the norm before the gate, at 226 without
the conv's bias, at 228 with dt = 1, at 254 with the Mamba-2 layers' outputs zeroed, at 99 with
RoPE added, at 114 with scores scaled by 1/sqrt(16) instead of attention.scale; the top-5
probabilities move by 0.83 to 1.0 each time (the engine's test allows 0.1). Greedy margins:
top-1 above 0.5 in 61% of the fixture's steps, top-1 and top-2 less than 0.05 apart in 9%.

granite_hybrid_moe (Granite 4.0-H-Tiny style experts; RoPE on, which only Bamba files have,
so that path is covered): the layers above, every layer's MLP llama.cpp's build_moe_ffn with
softmax gating, granitemoe's:
- router logits r = ffn_gate_inp . g (4 experts, no bias), p = softmax(r) over all 4;
- the expert_used_count 2 experts with the largest p, each weighted by its p divided by the
  two's sum (the graph passes norm_w true; granitehybrid's loader reads no
  expert_weights_scale, so the weights are unscaled);
- out = sum_j w_j ffn_down_exps[e_j] . (silu(ffn_gate_exps[e_j] . g) * (ffn_up_exps[e_j] . g))
  + ffn_down_shexp . (silu(ffn_gate_shexp . g) * (ffn_up_shexp . g)) (the shared expert, width
  128, on the same g, unweighted); experts of width 96.
Routing without knife edges, as gemma4moe's: the experts come in pairs (0, 1) and (2, 3) that
compute the same function (expert 2k + 1 is expert 2k with its hidden units permuted, its up
rows doubled and its down columns halved: exact up to summation order), with router rows u_k
and -u_k (logits of about N(0, 3^2)), so the logits are a, -a, b, -b and the top 2 is always
one expert of each pair, weighted softmax(|a|, |b|): the set of functions chosen never
changes, only which twin computes one, where a logit crosses 0, and the weights are continuous
in g. Over the fixture's prompts and greedy continuations (3,318 routings, float64) the gap
between the second chosen and the best unchosen logit gets down to 0.001 (under 0.02 in 0.4%
of routings), each time between twins, harmlessly; the larger weight ranges from 0.50 to 1.0
(median 0.84). Not renormalizing moves the top-5 probabilities by up to 0.78 (40 greedy
tokens of 256 change), sigmoid instead of softmax scores by 1.0 (176), dropping the shared
expert by 1.0 (246). The seed is the fifth of six tried with these sizes, for greedy margins
like the other families': top-1 above 0.5 in 66% of the steps, top-1 and top-2 less than 0.05
apart in 7%.
"""

from __future__ import annotations

import math

import gguf
import numpy as np

Q = gguf.GGMLQuantizationType

LAYER_TYPES = ("ssm", "ssm", "attn", "ssm", "ssm", "attn")
N_HEAD_KV = 2

LAYOUT = dict(
    arch="granitehybrid", seed=0x6A4B, n_layer=len(LAYER_TYPES), n_embd=64, n_head=4,
    n_head_kv=N_HEAD_KV, head_dim=16, n_ff=192, rope_base=10000.0, eps=1e-5, tied=False,
    qkv_bias=False, qk_norm=False, pre="refact", add_bos=False,
    # Granite's four multipliers (embeddings x12, scores x1/8 rather than 1/sqrt(16), layer
    # outputs x0.22, logits /8; the head's rows 8x larger so logits keep their spread).
    embedding_scale=12.0, residual_scale=0.22, attention_scale=0.125, logit_scale=8.0,
    logit_gain=8.0,
    layer_types=LAYER_TYPES,
    # attention.head_count_kv, per layer: 0 marks a Mamba-2 layer
    n_head_kv_layers=[0 if kind == "ssm" else N_HEAD_KV for kind in LAYER_TYPES],
    # Granite 4.0-H: no RoPE (the converter writes rope.scaling.finetuned false for a hybrid
    # that is not Bamba, and a context length of 2^20 with it).
    rope_finetuned=False, context_length=2**20,
    ssm_conv_kernel=4, ssm_state_size=16, ssm_group_count=2, ssm_inner_size=128, ssm_heads=8,
    # Per group g of SSM heads, the scale of the z rows (the SiLU gate) of its channels, so the
    # groups' outputs differ in size before the grouped norm.
    z_std=(0.6, 1.8),
    embd_type=Q.Q5_0, output_type=Q.Q8_0, embd_std=0.02, matrix_type=Q.F32, down_type=Q.F32,
)
# Granite 4.0-H-Tiny style, with RoPE (Bamba's setting): every layer's MLP 4 experts of width
# 96 (feed_forward_length: granitehybrid sizes its experts by it; not 64, so no expert matrix is
# square), 2 used, in identical pairs, beside a shared expert of width 128.
MOE = dict(
    LAYOUT, seed=0x6A4C4, n_ff=96, experts=4, experts_used=2, expert_ff=96, shared_ff=128,
    rope_finetuned=True, context_length=4096, router_std=3.0,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The granitehybrid keys the writer's generic code leaves out (it adds the common ones,
    attention.head_count_kv as the per-layer array, Granite's four multipliers and, for the
    MoE layout, expert_count, expert_used_count and expert_shared_feed_forward_length). Keys
    the pinned gguf package predates go under the names llama.cpp reads."""
    w.add_rope_scaling_finetuned(L["rope_finetuned"])
    w.add_ssm_conv_kernel(L["ssm_conv_kernel"])
    w.add_ssm_state_size(L["ssm_state_size"])
    w.add_uint32(f"{w.arch}.ssm.group_count", L["ssm_group_count"])
    w.add_ssm_inner_size(L["ssm_inner_size"])
    w.add_ssm_time_step_rank(L["ssm_heads"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, ff = L["n_embd"], L["n_ff"]

    t.norm(p + "attn_norm.weight", d)
    if L["layer_types"][i] == "ssm":
        mamba2(t, p, L, mt)
    else:
        attention(t, p, L, mt)
    t.norm(p + "ffn_norm.weight", d)
    if "experts" in L:
        experts(t, p, L, mt)
        return
    t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L["down_type"])


def attention(t, p: str, L: dict, mt: Q) -> None:
    """An attention layer's tensors."""
    d, hd, nh, nkv = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"]
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)


def mamba2(t, p: str, L: dict, mt: Q) -> None:
    """A Mamba-2 layer's tensors."""
    d, di, n = L["n_embd"], L["ssm_inner_size"], L["ssm_state_size"]
    g, nh, k = L["ssm_group_count"], L["ssm_heads"], L["ssm_conv_kernel"]
    conv_ch = di + 2 * g * n
    # in_proj rows: z (di), then xBC = x (di) | B (g * n) | C (g * n), then dt (nh). For the
    # normed input (RMS about 1) x, B and C come out about N(0, 1), z N(0, z_std[g]^2) on the
    # channels of group g, dt . u about N(0, 0.5^2).
    z = t.normal((di, d), 1.0 / math.sqrt(d))
    z *= np.repeat(np.asarray(L["z_std"], np.float32), di // g)[:, None]
    xbc = t.normal((conv_ch, d), 1.0 / math.sqrt(d))
    dt = t.normal((nh, d), 0.5 / math.sqrt(d))
    t.add(p + "ssm_in.weight", np.concatenate([z, xbc, dt]), mt)
    # ggml {d_conv, channels}: numpy rows are channels, each its taps oldest first (the last
    # tap multiplies the current token), the current token's heavier; a small bias.
    taps = t.normal((conv_ch, k), 0.4)
    taps[:, -1] += 0.5
    t.add(p + "ssm_conv1d.weight", taps, Q.F32)
    t.add(p + "ssm_conv1d.bias", t.normal((conv_ch,), 0.2), Q.F32)
    # Within each group's heads (nh / g = 4 of them), dt_bias puts softplus(dt_bias) from
    # about 0.8 (its first head) down to 0.2 (its last), jittered, and A = -exp(A_log) has
    # A_log from log 2 down to log 0.05, so dt * A runs from about -1.6 (fast heads, decays
    # exp(dt * A) near 0.2) to -0.01 (slow heads, near 0.99).
    soft = np.tile(np.linspace(0.8, 0.2, nh // g), g) * np.exp(t.normal((nh,), 0.15))
    t.add(p + "ssm_dt.bias", np.log(np.expm1(soft)).astype(np.float32), Q.F32)
    a_log = np.tile(np.linspace(math.log(2.0), math.log(0.05), nh // g), g) + t.normal((nh,), 0.2)
    # ggml {1, n_head}: numpy (n_head, 1), as the converter unsqueezes A and D.
    t.add(p + "ssm_a", (-np.exp(a_log)).astype(np.float32)[:, None], Q.F32)
    t.add(p + "ssm_d", (1.0 + t.normal((nh,), 0.5))[:, None], Q.F32)
    # ggml {d_inner / n_group, n_group}: numpy (n_group, d_inner / n_group), one weight per
    # channel of d_inner.
    t.add(p + "ssm_norm.weight", 1.0 + t.normal((g, di // g), 0.1), Q.F32)
    t.matrix(p + "ssm_out.weight", d, di, 1.0 / math.sqrt(di), mt)


def experts(t, p: str, L: dict, mt: Q) -> None:
    """A MoE MLP's router, experts and shared expert: experts in pairs (2k, 2k + 1) that
    compute the same function, routed by opposite router rows."""
    d, ne, eff, sff = L["n_embd"], L["experts"], L["n_ff"], L["shared_ff"]
    pairs = ne // 2
    # Rows 2k and 2k + 1 are u_k and -u_k: logits a, -a, b, -b of about N(0, router_std^2).
    u = t.normal((pairs, d), L["router_std"] / math.sqrt(d))
    t.add(p + "ffn_gate_inp.weight", np.stack([u, -u], axis=1).reshape(ne, d), Q.F32)
    gate = t.normal((pairs, eff, d), 1.0 / math.sqrt(d))
    up = t.normal((pairs, eff, d), 1.0 / math.sqrt(d))
    down = t.normal((pairs, d, eff), 1.0 / math.sqrt(eff))
    gate_e = np.empty((ne, eff, d), np.float32)
    up_e = np.empty((ne, eff, d), np.float32)
    down_e = np.empty((ne, d, eff), np.float32)
    for k in range(pairs):
        # Expert 2k + 1 is expert 2k with its hidden units permuted, its up rows doubled and
        # its down columns halved: the same function, exactly (powers of 2), stored differently.
        perm = t.rng.permutation(eff)
        gate_e[2 * k], up_e[2 * k], down_e[2 * k] = gate[k], up[k], down[k]
        gate_e[2 * k + 1], up_e[2 * k + 1] = gate[k][perm], 2.0 * up[k][perm]
        down_e[2 * k + 1] = 0.5 * down[k][:, perm]
    t.add(p + "ffn_gate_exps.weight", gate_e, mt)
    t.add(p + "ffn_up_exps.weight", up_e, mt)
    t.add(p + "ffn_down_exps.weight", down_e, mt)
    t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), L["down_type"])
