"""Qwen3.5 (`qwen35` and `qwen35moe` GGUF architectures) layouts, keys and layers for
make-family-models.py.

Qwen3.5, scaled down: a hybrid of gated-delta-net ("linear attention") layers and gated full
attention, 6 layers with full_attention_interval 3 (llama.cpp: layer i is recurrent unless
(i + 1) % 3 == 0, so layers 2 and 5 attend, 0, 1, 3 and 4 are recurrent); the file has no
attention.recurrent_layers array (llama.cpp falls back to the interval; converted Qwen3.5 files
carry both) and no nextn_predict_layers (no MTP block). The norm before the MLP is stored as
post_attention_norm, as in GLM; norms are stored as the converter writes them (Hugging Face's
1 + w already added, except the delta net's own ssm_norm). An untied head.

Full-attention layers: GQA 2:1 over heads of 64 (key_length = value_length = 64 = n_embd /
n_head; written anyway, as converted files have them), attn_q producing a query and an output
gate per head (2 * 4 * 64 rows, per head its 64 query rows then its 64 gate rows, as llama.cpp's
views split them), separate attn_k and attn_v, per-head Q/K RMS norms; RoPE (llama.cpp's
IMROPE with dimension_sections [3, 3, 2, 0]: for text all three positions are the token's, so
NeoX pairs (i, i + 8)) over the first 16 of each head's 64 dims (rope.dimension_count), base
1e7; scores scaled by 1/sqrt(64); the attention output times sigmoid(gate), then attn_output.

Gated-delta-net layers (ssm.* keys: conv_kernel 4, state_size 32 = key and value head width,
group_count 2 key heads, time_step_rank 4 value heads, inner_size 128 = 4 * 32):
- attn_qkv (n_embd -> 2 * 64 + 128: all Q heads, all K heads, all V heads) and attn_gate
  (n_embd -> 128, the output gate z);
- a causal depthwise conv of width 4 over the 256 qkv channels (ssm_conv1d, ggml {4, 256}:
  tap 3 multiplies the current token, taps 0..2 the three before), then SiLU;
- Q and K L2-normed per head (eps = rms eps), Q scaled by 1/sqrt(32);
- per value head h: beta = sigmoid(ssm_beta . x), decay = exp(softplus(ssm_alpha . x +
  ssm_dt.bias[h]) * ssm_a[h]) with ssm_a = -exp(A_log) negative; value head h reads key head
  h % 2 (llama.cpp's tiled broadcast: the converter reorders Hugging Face's grouped value heads
  into this order), and with state S (32 x 32, zero at the start of a sequence):
  S = decay * S; S += k (beta * (v - S^T k))^T; out = S^T q;
- out RMS-normed per head (ssm_norm, one {32} weight shared by the heads) times SiLU(z), then
  ssm_out (128 -> n_embd).
A_log and dt_bias are drawn so the decays mostly lie between 0.75 and 0.99 (over the fixtures'
tokens: a median of 0.93, a twentieth below 0.75, the least 0.55, the most 0.994), so the state
carries over tens of tokens; the fixtures' longest prompt (130 tokens) runs the recurrence, and
llama.cpp's 64-token chunks, past two chunks.

qwen35: a dense SwiGLU MLP of width 512 in every layer. qwen35moe: in every layer 8 experts of
width 64 (expert_feed_forward_length), 2 used per token, chosen by softmax, their weights
renormalized over the chosen two (llama.cpp's graph passes norm_w true; expert_weights_scale is
read but 0, i.e. unscaled, when absent, so the file has none), plus a shared expert of width
128 (expert_shared_feed_forward_length) scaled by sigmoid(x . ffn_gate_inp_shexp), a gate of
one row written as qwen2moe's is.
"""

from __future__ import annotations

import math

import gguf
import numpy as np

Q = gguf.GGMLQuantizationType

# All f32 but the embeddings and head, as qwen2moe's, so no half-precision rounding of the
# recurrence's or the router's inputs separates llama.cpp from another implementation.
LAYOUT = dict(
    seed=0x0E35, n_layer=6, n_embd=256, n_head=4, n_head_kv=2, head_dim=64, n_ff=512,
    rope_base=1e7, rope_dims=16, rope_sections=[3, 3, 2, 0], eps=1e-6, tied=False,
    qkv_bias=False, qk_norm=True, pre="qwen35", add_bos=False, full_attention_interval=3,
    ssm_conv_kernel=4, ssm_state_size=32, ssm_group_count=2, ssm_value_heads=4,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)
# feed_forward_length is the shared expert's width, as for qwen2moe (llama.cpp's qwen35moe
# loader reads it only when expert_shared_feed_forward_length is missing).
MOE = dict(LAYOUT, seed=0x0E35E, n_ff=128, experts=8, experts_used=2, expert_ff=64,
           shared_ff=128)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The Qwen3.5 keys (the writer's generic code adds the common ones, the rope dimension
    count and, for qwen35moe, expert count, used count, width and shared width). Keys the
    pinned gguf package predates go under the names llama.cpp reads."""
    w.add_key_length(L["head_dim"])
    w.add_value_length(L["head_dim"])
    w.add_rope_dimension_sections(L["rope_sections"])
    w.add_uint32(f"{w.arch}.full_attention_interval", L["full_attention_interval"])
    w.add_ssm_conv_kernel(L["ssm_conv_kernel"])
    w.add_ssm_state_size(L["ssm_state_size"])
    w.add_uint32(f"{w.arch}.ssm.group_count", L["ssm_group_count"])
    w.add_ssm_time_step_rank(L["ssm_value_heads"])
    w.add_ssm_inner_size(L["ssm_state_size"] * L["ssm_value_heads"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d = L["n_embd"]

    t.norm(p + "attn_norm.weight", d)
    if (i + 1) % L["full_attention_interval"] == 0:
        attention(t, p, L, mt)
    else:
        delta_net(t, p, L, mt)
    # The norm before the MLP (Hugging Face's post_attention_layernorm).
    t.norm(p + "post_attention_norm.weight", d)

    if "experts" not in L:
        ff = L["n_ff"]
        t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L["down_type"])
        return
    # The router (logits of about N(0, 4^2) for the normed input, so its choices are clear),
    # the experts as one 3-D tensor per projection (the expert index slowest), the shared
    # expert's gate (one row: x . w is about N(0, 1.5^2)) and the shared expert.
    ne, eff, sff = L["experts"], L["expert_ff"], L["shared_ff"]
    t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
    t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
    t.add(p + "ffn_gate_inp_shexp.weight", t.normal((1, d), 1.5 / math.sqrt(d)), Q.F32)
    t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), L["down_type"])


def attention(t, p: str, L: dict, mt: Q) -> None:
    """A gated full-attention layer's tensors."""
    d, hd, nh, nkv = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"]
    # Per head: its query rows, then its gate rows (sigmoid(gate) of about N(0, 1)).
    query = t.normal((nh, 1, hd, d), 1.5 / math.sqrt(d))
    gate = t.normal((nh, 1, hd, d), 1.0 / math.sqrt(d))
    t.add(p + "attn_q.weight", np.concatenate([query, gate], axis=1).reshape(2 * nh * hd, d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    t.norm(p + "attn_q_norm.weight", hd)
    t.norm(p + "attn_k_norm.weight", hd)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)


def delta_net(t, p: str, L: dict, mt: Q) -> None:
    """A gated-delta-net layer's tensors."""
    d, width, kernel = L["n_embd"], L["ssm_state_size"], L["ssm_conv_kernel"]
    key_dim = width * L["ssm_group_count"]
    nv = L["ssm_value_heads"]
    value_dim = width * nv
    conv_dim = 2 * key_dim + value_dim
    # Q, K and V (each about N(0, 1) before the conv), then the output gate z.
    t.matrix(p + "attn_qkv.weight", conv_dim, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "attn_gate.weight", value_dim, d, 1.0 / math.sqrt(d), mt)
    # The conv's taps (ggml {kernel, channels}: numpy rows are channels), the current token's
    # (the last) heavier so each position's q, k and v lean on their own token.
    taps = t.normal((conv_dim, kernel), 0.35)
    taps[:, -1] += 0.6
    t.add(p + "ssm_conv1d.weight", taps, Q.F32)
    # dt_bias about 0.3 and alpha . x about N(0, 0.5^2): softplus between about 0.4 and 1.4;
    # -exp(A_log) from about -0.03 (value head 0, slow) to -0.25 (head 3, fast): decays
    # exp(softplus * a) mostly from 0.75 to 0.99.
    t.add(p + "ssm_dt.bias", 0.3 + t.normal((nv,), 0.2), Q.F32)
    a = -np.exp(np.linspace(math.log(0.03), math.log(0.25), nv) + t.normal((nv,), 0.1))
    t.add(p + "ssm_a", a.astype(np.float32), Q.F32)
    # beta's logits about N(0, 1); alpha's about N(0, 0.5^2).
    t.add(p + "ssm_beta.weight", t.normal((nv, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ssm_alpha.weight", t.normal((nv, d), 0.5 / math.sqrt(d)), mt)
    t.norm(p + "ssm_norm.weight", width)
    t.matrix(p + "ssm_out.weight", d, value_dim, 1.0 / math.sqrt(value_dim), mt)
