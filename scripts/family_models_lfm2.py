"""LFM2 (`lfm2` and `lfm2moe` GGUF architectures) layouts, keys and layers for
make-family-models.py: `lfm2` (LFM2-350M style, dense) and `lfm2moe` (LFM2-8B-A1B style, experts
after two dense layers; at the end).

Liquid AI's LFM2-350M, scaled down: a hybrid of gated short-convolution layers and attention
layers, 6 layers of types [conv, conv, attn, conv, conv, attn]. The file says which is which
only through attention.head_count_kv, an ARRAY of one count per layer (llama.cpp: layer i is
recurrent, a conv layer, where its count is 0), here [0, 0, 2, 0, 0, 2]; attention.head_count
stays a single 4. No key_length / value_length (head_dim 64 = n_embd / n_head), no
rope.dimension_count (whole heads rotate), no sliding_window (llama.cpp would make the
attention layers sliding if it were there and > 0). shortconv.l_cache 3 is the conv's width L.
The final norm is stored as token_embd_norm.weight (llama.cpp's LLM_TENSOR_OUTPUT_NORM_LFM2;
the file has no output_norm.weight), and the head is tied: no output.weight, logits =
token_embd (Q8_0) times the final normed state, as in the released LFM2 files. The BPE
vocabulary is the other families' with tokenizer.ggml.pre "lfm2" (llama.cpp: Llama 3's
pre-tokenizer regex, merges ignored for whole-word tokens, add_bos true unless the file says
otherwise; this file says add_bos_token true, so the prompts start with BOS, id 1).

Every layer, with rms(v) = v / sqrt(mean(v^2) + eps) and eps = 1e-5 (the
attention.layer_norm_rms_epsilon key) for every norm:
  h = x + mixer(rms(x) * attn_norm)
  out = h + ffn_down(silu(ffn_gate(g)) * ffn_up(g)),  g = rms(h) * ffn_norm
(ffn_gate / ffn_up n_embd -> 512, ffn_down 512 -> n_embd, no biases anywhere.)

Conv layers (0, 1, 3, 4), on the normed input u of each token t:
- shortconv.in_proj (n_embd -> 3 * n_embd; ggml {256, 768}): its output's three chunks of 256
  are, in order, b (rows 0..255), c (rows 256..511) and x (rows 512..767);
- bx = b * x elementwise;
- a causal depthwise conv over bx with shortconv.conv (ggml {L, n_embd} = {3, 256}: numpy rows
  are channels, each channel's L = 3 taps oldest first): conv[t][ch] = sum_{j=0..2}
  w[ch][j] * bx[t - 2 + j][ch], so tap 2 multiplies the current token and taps 0, 1 the two
  before it; bx before the start of a sequence is 0 (the state is the previous L - 1 = 2
  tokens' bx, per channel, zero at sequence start). No bias, NO activation after the conv;
- y = c * conv elementwise, then shortconv.out_proj (n_embd -> n_embd; ggml {256, 256}).
Attention layers (2, 5): attn_q (n_embd -> 4 * 64), attn_k and attn_v (n_embd -> 2 * 64), per
head RMS norms of Q and K (attn_q_norm, attn_k_norm, one {64} weight each shared by the heads,
the same eps) BEFORE RoPE; NeoX RoPE (pairs (i, i + 32)) over whole heads, base 1e6, position
= the token's index in its sequence (conv layers have no positions); GQA 2:1 (query head h
reads K/V head h // 2), causal, scores scaled by 1/sqrt(64); then attn_output (4 * 64 ->
n_embd).
After the last layer: logits = token_embd . (rms(x) * token_embd_norm).

All matrices and norms are f32, only token_embd (the tied head) Q8_0, so no half-precision
rounding of weights separates llama.cpp from another implementation. llama.cpp's CPU backend
does round the final normed state to Q8_0 blocks for the head's product (as for every Q8_0
weight), and its flash attention (the fixtures' setting) keeps K and V in f16: with f32 K/V and
no flash attention, a float64 implementation of the above that rounds the head's input as
ggml's quantize_row_q8_0 does agrees with llama.cpp's top-5 probabilities within 1e-5; against
the fixture (flash attention) within 0.014, but only within 0.034 without the head's rounding
(then 4 of the 256 greedy tokens differ).

Weights: b, c and x come out about N(0, 1) and the taps N(0, 0.5^2) each, the current token's no
heavier than the two before it, so a conv layer's output (rms about 0.8, beside the attention
layers' 0.5 and the MLPs' 0.6) depends on the two previous tokens as much as on its own. Over
the fixture's 256 greedy steps, zeroing the taps (the conv layers then write nothing) changes
the greedy token at every step, and so does zeroing only taps 0 and 1 (no mixing across
tokens): the logits move by more than their own spread either way. The tied head: small
embeddings (std 0.05; the control tokens' rows 1/20 of that, so greedy runs never stop early)
and a final norm of gain about 10, for logits of about N(0, 8^2) as the other tied families'.
Greedy margins are like the other families': top-1 above 0.5 in 62% of the fixture's steps,
top-1 and top-2 less than 0.05 apart in 9%.

lfm2moe (Liquid AI's LFM2-8B-A1B, scaled down; llama.cpp's src/models/lfm2moe.cpp loads it and
builds lfm2.cpp's graph): the layers, keys (under lfm2moe.*) and scales above, its own seed.
Layers 0 and 1 (leading_dense_block_count 2) have the dense MLP above (feed_forward_length
512); layers 2..5 a mixture of experts on the same g = rms(h) * ffn_norm, llama.cpp's
build_moe_ffn with expert_gating_func 2 (sigmoid):
- scores s = sigmoid(ffn_gate_inp . g) (ggml {256, 8}, no router bias), one per expert
  (expert_count 8);
- the expert_used_count 2 experts with the largest s + exp_probs_b.bias (one float per expert,
  for the choice only) are used, each weighted by its own s, unbiased, divided by the two's sum
  (the graph passes norm_w true; the lfm2moe loader reads no expert_weights_scale, so the
  weights are unscaled and the file, as converted ones, has neither expert_weights_* key);
- out = h + sum_j w_j ffn_down_exps[e_j] . (silu(ffn_gate_exps[e_j] . g) * (ffn_up_exps[e_j] . g)),
  experts of width 64 (expert_feed_forward_length; ffn_gate_exps and ffn_up_exps ggml
  {256, 64, 8}, ffn_down_exps {64, 256, 8}, the expert index slowest).
Routing without knife edges. With 8 independently drawn router rows the second and third
biased scores come within 0.02 of each other for 7% to 70% of tokens whatever the router's
scale (simulated: logits N(0, sigma^2), sigma 1 to 16, biases up to 0.3), near-ties that
llama.cpp's f16 K/V can flip against another implementation. So, as in gemma4moe:
- the experts come in pairs (2k, 2k + 1) that compute the same function (expert 2k + 1 is
  expert 2k with its hidden units permuted, its up rows doubled and its down columns halved:
  exact up to summation order, 4e-7 apart in f32), with router rows u_k and -u_k (logits of
  about N(0, 2^2)), so scores s and 1 - s;
- in each MoE layer two pairs are live, sharing one selection bias (drawn from -0.45 to
  -0.25): pairs (0, 2), (1, 3), (0, 3) and (1, 2) in layers 2..5, every expert used in two
  layers; the other four experts' biases are 0.8 to 1.1 lower.
The top 2 is then always one expert of each live pair (the one on u_k's side of g), which
changes only where the pair's logits cross 0, between experts that compute the same function,
and a dead expert's biased score (at most 1 + b - 0.8) stays at least 0.3 below the second
chosen one's (at least 0.5 + b) for any input: the layer is continuous in g. Over the
fixture's prompts and greedy continuations (2,256 routings, a float64 reference) that margin is
0.316 at the least; the raw gap between the second and third biased scores, where the third
is the second's twin, gets down to 0.00015 (under 0.02 in 4% of routings), harmlessly. Without
the bias the top 2 would take a dead expert in 85% of the routings; the larger weight ranges
from 0.50 to 0.66. Against the fixture, the reference moves the top-5 probabilities by at most
0.014; ignoring the bias by 0.99, weighing by the biased scores by 0.62, not renormalizing by
0.93, softmax gating by 0.95. The experts' outputs have an RMS of about 0.43; zeroing them
changes the greedy token at 207 of the 256 steps. Greedy margins: top-1 above 0.5 in 63% of
the steps, top-1 and top-2 less than 0.05 apart in 8%.
"""

from __future__ import annotations

import math

import gguf
import numpy as np

Q = gguf.GGMLQuantizationType

LAYER_TYPES = ("conv", "conv", "attn", "conv", "conv", "attn")
N_HEAD_KV = 2

# All f32 but the (tied) embeddings, as qwen35's.
LAYOUT = dict(
    seed=0x1F42, n_layer=len(LAYER_TYPES), n_embd=256, n_head=4, n_head_kv=N_HEAD_KV,
    head_dim=64, n_ff=512, rope_base=1e6, eps=1e-5, tied=True, qkv_bias=False, qk_norm=True,
    pre="lfm2", add_bos=True, layer_types=LAYER_TYPES, l_cache=3,
    # attention.head_count_kv, per layer: 0 marks a conv layer
    n_head_kv_layers=[0 if kind == "conv" else N_HEAD_KV for kind in LAYER_TYPES],
    output_norm="token_embd_norm",
    embd_type=Q.Q8_0, embd_std=0.05, matrix_type=Q.F32, down_type=Q.F32,
)
# LFM2-8B-A1B style (`lfm2moe`): the same layers, the first two with the dense MLP
# (feed_forward_length 512), the rest with 8 experts of width 64, 2 used per token, in pairs;
# per MoE layer, the two pairs whose selection bias lets them be chosen (the module docstring
# tells why) and the ranges the biases are drawn from.
MOE = dict(
    LAYOUT, seed=0x1F42E, dense_layers=2, experts=8, experts_used=2, expert_ff=64,
    gating=gguf.ExpertGatingFuncType.SIGMOID, router_std=2.0,
    live_pairs=((0, 2), (1, 3), (0, 3), (1, 2)), live_bias=(-0.45, -0.25),
    dead_bias_drop=(0.8, 1.1),
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The LFM2 key the pinned gguf package predates (the writer's generic code adds the common
    ones, attention.head_count_kv as the per-layer array, and for lfm2moe expert_count,
    expert_used_count and expert_feed_forward_length); lfm2moe's leading dense layers and
    sigmoid gating."""
    w.add_uint32(f"{w.arch}.shortconv.l_cache", L["l_cache"])
    if "experts" in L:
        w.add_leading_dense_block_count(L["dense_layers"])
        w.add_expert_gating_func(L["gating"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, ff = L["n_embd"], L["n_ff"]

    t.norm(p + "attn_norm.weight", d)
    if L["layer_types"][i] == "conv":
        short_conv(t, p, L, mt)
    else:
        attention(t, p, L, mt)
    t.norm(p + "ffn_norm.weight", d)
    if i >= L.get("dense_layers", L["n_layer"]):
        experts(t, p, L, L["live_pairs"][i - L["dense_layers"]], mt)
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
    t.norm(p + "attn_q_norm.weight", hd)
    t.norm(p + "attn_k_norm.weight", hd)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)


def short_conv(t, p: str, L: dict, mt: Q) -> None:
    """A short-convolution layer's tensors."""
    d = L["n_embd"]
    # b, c and x (rows in that order), each about N(0, 1) for the normed input.
    t.matrix(p + "shortconv.in_proj.weight", 3 * d, d, 1.0 / math.sqrt(d), mt)
    # ggml {L, n_embd}: numpy rows are channels, each its taps oldest first.
    t.add(p + "shortconv.conv.weight", t.normal((d, L["l_cache"]), 0.5), Q.F32)
    t.matrix(p + "shortconv.out_proj.weight", d, d, 1.0 / math.sqrt(d), mt)


def experts(t, p: str, L: dict, live: tuple[int, ...], mt: Q) -> None:
    """A MoE MLP's router, experts and selection bias: experts in pairs (2k, 2k + 1) that
    compute the same function, routed by opposite router rows; the pairs in `live` share one
    selection bias, the others lie far enough below it never to be chosen."""
    d, ne, eff = L["n_embd"], L["experts"], L["expert_ff"]
    pairs = ne // 2
    # The normed input has RMS about 1, so rows of N(0, router_std^2 / d) give logits of about
    # N(0, router_std^2). Rows 2k and 2k + 1 are u_k and -u_k: sigmoid scores s and 1 - s.
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
    # One bias for both experts of both live pairs; every other expert's lower by 0.8 to 1.1,
    # more than the 0.5 by which its score can beat a live pair's best.
    low, high = L["live_bias"]
    live_bias = low + (high - low) * t.rng.random()
    drop_low, drop_high = L["dead_bias_drop"]
    bias = live_bias - (drop_low + (drop_high - drop_low) * t.rng.random(ne))
    for k in live:
        bias[2 * k] = bias[2 * k + 1] = live_bias
    t.add(p + "exp_probs_b.bias", bias.astype(np.float32), Q.F32)
