"""Nemotron-H (`nemotron_h` GGUF architecture) layout, keys and layers for make-family-models.py:
`nemotron_h`, NVIDIA's Nemotron-H-8B / Nemotron Nano 9B v2 style (dense, not nemotron_h_moe).

A hybrid whose every layer is exactly one of a Mamba-2 mixer, an attention mixer (no RoPE) or
an MLP (no gate, ReLU squared), each behind its own pre-norm with a residual add; 8 layers of
hybrid_override_pattern "M-M*-M*-" (M Mamba-2, - MLP, * attention): [mamba2, mlp, mamba2, attn,
mlp, mamba2, attn, mlp]; llama.cpp's src/models/nemotron-h.cpp as the reference. The file says
which layer is which only through two per-layer ARRAYS, as the converter (NemotronHModel, on
GraniteHybridModel) writes them: llama.cpp takes layer i as Mamba-2 where head_count_kv[i] and
feed_forward_length[i] are both 0, as attention where feed_forward_length[i] is 0 and
head_count_kv[i] is not, and as an MLP otherwise. n_embd 64; attention 4 query heads and 2 K/V
heads of 16 (key_length / value_length written, as the converter does, though 16 = 64 / 4 here);
MLP width 192; Mamba-2 d_inner 128 (8 heads of 16), state 16, 2 groups, conv kernel 4. The head
is untied, as both the 8B's and Nano 9B v2's (tie_word_embeddings false): output.weight Q8_0,
token_embd Q5_0, everything else f32. The BPE vocabulary is the other families' with
tokenizer.ggml.pre "tekken" (Nemotron-H's 131,072-token vocabulary is Mistral NeMo's tekken
one, which llama.cpp's converter recognizes by that name; it has no Nemotron entry of its own)
and add_bos_token true, tekken's default (49,152 tokens: already a multiple of the 8 the
converter pads the vocabulary to).

Keys (under nemotron_h.*), all the converter writes for such a config: context_length 1048576
(2^20: GraniteHybridModel overwrites max_position_embeddings with it for a hybrid without
RoPE), block_count 8, embedding_length 64, feed_forward_length [0, 192, 0, 0, 192, 0, 0, 192]
(i32 array), attention.head_count 4, attention.head_count_kv [0, 0, 0, 2, 0, 0, 2, 0] (i32
array), attention.layer_norm_rms_epsilon 1e-5 and attention.layer_norm_epsilon 1e-5 (both,
from the config's rms_norm_eps and layer_norm_epsilon, as converted Nemotron-H files carry them;
llama.cpp's loader requires the latter and uses the former, falling back to the latter, for
every norm here), rope.freq_base
1e4 and rope.dimension_count 16 (n_embd / n_head: the converter's Granite part drops head_dim
before its Llama part writes it; neither is used, llama.cpp's rope type for nemotron_h being
none), rope.scaling.finetuned false, attention.key_length 16, attention.value_length 16,
ssm.conv_kernel 4, ssm.state_size 16, ssm.group_count 2, ssm.inner_size 128,
ssm.time_step_rank 8 (the number of SSM heads, not a rank), vocab_size 49152. No
attention.scale: llama.cpp's nemotron_h loader reads none (scores are scaled by
1/sqrt(head_dim)), and Nemotron-H configs have no attention_multiplier; no embedding, residual
or logit multipliers.

Tensors (ggml shapes, fastest dimension first): token_embd.weight {64, 49152} Q5_0,
output_norm.weight {64}, output.weight {64, 49152} Q8_0; every layer blk.N.attn_norm.weight
{64} (the pre-norm, whatever the mixer) and no ffn_norm; Mamba-2 layers (0, 2, 5):
ssm_in.weight {64, 328}, ssm_conv1d.weight {4, 192}, ssm_conv1d.bias {192}, ssm_dt.bias {8},
ssm_a {1, 8}, ssm_d {1, 8} (no ".weight" on these two), ssm_norm.weight {64, 2},
ssm_out.weight {128, 64}; attention layers (3, 6): attn_q.weight {64, 64}, attn_k.weight and
attn_v.weight {64, 32}, attn_output.weight {64, 64}; MLP layers (1, 4, 7): ffn_up.weight
{64, 192}, ffn_down.weight {192, 64}. No biases but ssm_conv1d's and ssm_dt's.

The model, with rms(v) = v / sqrt(mean(v^2) + eps), eps = 1e-5
(attention.layer_norm_rms_epsilon) for every norm, the SSM's grouped one included:
  x = token_embd[id]                                        (no scaling)
  per layer i: x = x + mixer_i(rms(x) * blk.i.attn_norm)    (Mamba-2, attention or MLP)
  logits = output . (rms(x) * output_norm)

Mamba-2 layers: exactly granite_hybrid's (family_models_granite_hybrid.py's docstring has the
math, read from llama.cpp's build_mamba2_layer, and this module draws their tensors with its
mamba2()): in_proj rows z (0..127), xBC (128..319), dt (320..327); a causal depthwise conv of
4 taps with bias over the 192 xBC channels, then SiLU; x as 8 heads of 16, B and C as 2 groups
of 16, head h reading group h // 4; dt_h = softplus(dt + ssm_dt.bias); per head
S = S * exp(dt_h * A[h]) + dt_h * x B^T, y = S C (the updated state); y += D[h] * x;
y *= silu(z); an RMS norm over each group's 64 channels, times ssm_norm.weight; ssm_out. The
state carried per sequence: the conv's 3 x 192 inputs and S, 8 x 16 x 16.
Attention layers: q = attn_q . u (4 heads of 16), k, v = attn_k . u, attn_v . u (2 heads of
16); query head h reads K/V head h // 2; causal; softmax(q . k / 4) (1/sqrt(16)); no RoPE at
all (the graph builds no positions: a token's place is known only through the Mamba-2 layers
and the causal mask); o = attn_output . (the heads' outputs).
MLP layers: ffn_down . relu(ffn_up . u)^2 (64 -> 192 -> 64; llama.cpp's build_ffn with
LLM_FFN_RELU_SQR, no gate, LLM_FFN_PAR).

Precision. llama.cpp's CPU backend rounds the head's input to Q8_0 blocks (32 values, the
block's scale amax / 127 stored in f16), and its flash attention (the fixture's setting) keeps
K and V in f16. A float64 implementation of the above that rounds the head's input as ggml's
quantize_row_q8_0 does agrees with llama.cpp run with f32 K/V and no flash attention within
1.3e-5 on the top-5 probabilities at all 256 of the fixture's steps (the fixture rounds them to
1e-6), with the same greedy token at each; against the fixture (flash attention) within 0.021,
the same greedy token at all 256 steps; without the head's rounding within 0.036, 3 greedy
tokens differing.

Weights (seed 0x4E3B, the first tried). Embeddings N(0, 0.25^2), the head's rows N(0, 1)
(logits about N(0, 8^2); the control tokens' rows 1/20 of that, so greedy runs never stop
early). Attention and MLP matrices Xavier-style (attn_q / attn_k 1.5x: scaled scores
q . k / 4 of about N(0, 2.2^2), each query's largest attention weight 0.32 in the median, 5%
below 0.11, 5% above 0.82); ffn_up . u about N(0, 1), so relu(ffn_up . u)^2 has a mean of 0.5
and an RMS of 1.25 per hidden unit. The Mamba-2 layers' draws are granite_hybrid's (z about
N(0, 0.6^2) on group 0's channels and N(0, 1.8^2) on group 1's, softplus(dt_bias) from 0.8 to
0.2 and A from about -2 to -0.05 within each group's heads). Over the fixture's tokens dt has
a median of 0.44 (5% below 0.11, 5% above 1.04) and the decays exp(dt * A) a median of 0.87, 5%
below 0.11 and 5% above 0.994: fast heads forget within a token or two, slow ones carry the
whole prompt; the skip term's RMS is 0.18 to
0.69 of the scan's. The layers' outputs have an RMS of about 1.0 (Mamba-2), 1.2 (MLP) and 0.6
(attention), against the embeddings' 0.25.

Mutations, in the float64 reference along llama.cpp's greedy continuations, each against the
fixture (256 steps): the greedy token changes at 224 steps with ReLU instead of ReLU squared,
at 234 with SiLU, at 161 with RoPE added to the attention layers (normal, base 1e4), at 251 with
no SSM state carried across tokens (exp(dt * A) = 0), at 252 with no conv history (each token
convolved as if its sequence began there), at 253 with neither, at 256 with the MLP layers
skipped, at 176 with the attention layers skipped, at 255 with the Mamba-2 layers skipped, at
245 with heads mapped to groups by h % G, at 240 without the D skip, at 242 with the grouped
norm before the gate, at 231 with one norm over all 128 channels; the top-5 probabilities move
by 0.95 to 1.0 at most and 0.36 to 0.59 in the median each time (the engine's test allows 0.1).
Greedy margins: top-1 above 0.5 in 61% of the fixture's steps, top-1 and top-2 less than 0.05
apart in 6.6% (the smallest gap 0.0036).
"""

from __future__ import annotations

import math

import gguf

import family_models_granite_hybrid as granite_hybrid

Q = gguf.GGMLQuantizationType

# M - M * - M * - (M: Mamba-2, -: MLP, *: attention), as the converter reads
# hybrid_override_pattern.
PATTERN = "M-M*-M*-"
LAYER_TYPES = tuple({"M": "ssm", "-": "mlp", "*": "attn"}[c] for c in PATTERN)
N_HEAD_KV = 2
N_FF = 192

LAYOUT = dict(
    arch="nemotron_h", seed=0x4E3B, n_layer=len(LAYER_TYPES), n_embd=64, n_head=4,
    n_head_kv=N_HEAD_KV, head_dim=16,
    # feed_forward_length, per layer: the MLP width on MLP layers, 0 elsewhere
    n_ff=[N_FF if kind == "mlp" else 0 for kind in LAYER_TYPES],
    rope_base=10000.0, eps=1e-5, tied=False, qkv_bias=False, qk_norm=False,
    pre="tekken", add_bos=True, layer_types=LAYER_TYPES,
    # attention.head_count_kv, per layer: the K/V head count on attention layers, 0 elsewhere
    n_head_kv_layers=[N_HEAD_KV if kind == "attn" else 0 for kind in LAYER_TYPES],
    # The converter's (GraniteHybridModel's) for a hybrid without RoPE: rope.scaling.finetuned
    # false and a context length of 2^20.
    rope_finetuned=False, context_length=2**20,
    ssm_conv_kernel=4, ssm_state_size=16, ssm_group_count=2, ssm_inner_size=128, ssm_heads=8,
    # Per group of SSM heads, the scale of the z rows (the SiLU gate), as granite_hybrid's.
    z_std=(0.6, 1.8),
    embd_type=Q.Q5_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The nemotron_h keys the writer's generic code leaves out (it adds context_length,
    block_count, embedding_length, feed_forward_length and attention.head_count_kv as the
    per-layer arrays, attention.head_count, attention.layer_norm_rms_epsilon, rope.freq_base
    and vocab_size). Keys the pinned gguf package predates go under the names llama.cpp
    reads."""
    # llama.cpp's nemotron_h loader requires this one (the RMS one falls back to it).
    w.add_layer_norm_eps(L["eps"])
    # The converter's LlamaModel part writes n_embd / n_head (Granite's part drops head_dim).
    w.add_rope_dimension_count(L["n_embd"] // L["n_head"])
    w.add_ssm_conv_kernel(L["ssm_conv_kernel"])
    w.add_ssm_state_size(L["ssm_state_size"])
    w.add_uint32(f"{w.arch}.ssm.group_count", L["ssm_group_count"])
    w.add_ssm_inner_size(L["ssm_inner_size"])
    w.add_ssm_time_step_rank(L["ssm_heads"])
    w.add_rope_scaling_finetuned(L["rope_finetuned"])
    w.add_key_length(L["head_dim"])
    w.add_value_length(L["head_dim"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices. Every layer has its pre-norm (attn_norm) and exactly one mixer."""
    p = f"blk.{i}."
    d = L["n_embd"]
    t.norm(p + "attn_norm.weight", d)
    kind = L["layer_types"][i]
    if kind == "ssm":
        granite_hybrid.mamba2(t, p, L, mt)
    elif kind == "attn":
        granite_hybrid.attention(t, p, L, mt)
    else:
        ff = L["n_ff"][i]
        t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L["down_type"])
