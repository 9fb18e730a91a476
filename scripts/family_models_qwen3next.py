"""Qwen3-Next (`qwen3next` GGUF architecture) layouts, keys and layers for make-family-models.py,
in two files of the same weights: `qwen3next` as the current converter writes it, and
`qwen3next_ssm_in` in the legacy layout llama.cpp still reads.

Qwen3-Next-80B-A3B, scaled down: a hybrid of gated-delta-net ("linear attention") layers and
gated full attention, 4 layers with full_attention_interval 4 as the released model has it
(llama.cpp: layer i is recurrent unless (i + 1) % 4 == 0, so layers 0, 1 and 2 are recurrent and
layer 3 attends); no attention.recurrent_layers array (the converter writes one only from a
config's layer_types, which Qwen3-Next's lacks) and no nextn_predict_layers (no MTP block). The
norm before the MLP is stored as post_attention_norm; norms as the converter writes them
(Hugging Face's 1 + w already added, except the delta net's own ssm_norm). An untied head. The
BPE vocabulary is the other families', with Qwen2's pre-tokenizer (Qwen3-Next's is Qwen2's).

Full-attention layers: Qwen3.5's (family_models_qwen35.attention): GQA 2:1 over heads of 64,
attn_q producing per head its 64 query rows then its 64 gate rows, separate attn_k and attn_v,
per-head Q/K RMS norms, the output times sigmoid(gate), then attn_output; RoPE here is plain
NeoX (llama.cpp's rope type for qwen3next, no rope.dimension_sections) over the first 16 of each
head's 64 dims (rope.dimension_count, pairs (i, i + 8)), base 1e7; scores scaled by 1/sqrt(64).

Gated-delta-net layers (ssm.* keys: conv_kernel 4, state_size 32 = key and value head width,
group_count 2 key heads, time_step_rank 4 value heads, inner_size 128 = 4 * 32), so each key
head serves ratio = 2 value heads, and which ones is Hugging Face's GROUPED order: value head h
reads key head h // 2 (llama.cpp's qwen3next graph repeat-interleaves q and k; unlike qwen35,
whose converter reorders the value heads into the tiled order, h % 2). The weights are drawn as
Hugging Face's in_proj_qkvz (per key head g: its q (32 rows), k (32), the v of value heads 2g
and 2g + 1 (64), their z (64)) and in_proj_ba (per key head g: beta of value heads 2g, 2g + 1,
then their alpha), then written as
- `qwen3next`: attn_qkv (n_embd -> 2 * 64 + 128: all q heads, all k heads, then all v heads in
  the grouped order) and attn_gate (n_embd -> 128, z in the same order), as the converter's
  Qwen3NextModel splits in_proj_qkvz;
- `qwen3next_ssm_in`: ssm_in (n_embd -> 2 * 64 + 2 * 128), in_proj_qkvz unchanged (llama.cpp's
  legacy path, which splits it per key head);
and in both, ssm_ba (n_embd -> 2 * 4) is in_proj_ba unchanged. Then:
- a causal depthwise conv of width 4 over the 256 qkv channels (ssm_conv1d, ggml {4, 256}, the
  channels in attn_qkv's order: tap 3 multiplies the current token, taps 0..2 the three
  before), then SiLU;
- Q and K L2-normed per head (eps = rms eps), Q scaled by 1/sqrt(32);
- per value head h: beta = sigmoid(b_h . x), decay = exp(softplus(a_h . x + ssm_dt.bias[h]) *
  ssm_a[h]) with ssm_a = -exp(A_log) negative, b_h and a_h its rows of ssm_ba; with state S
  (32 x 32, zero at the start of a sequence) and key head h // 2:
  S = decay * S; S += k (beta * (v - S^T k))^T; out = S^T q;
- out RMS-normed per head (ssm_norm, one {32} weight shared by the heads) times SiLU(z), then
  ssm_out (128 -> n_embd, its columns in the grouped value-head order).
A_log and dt_bias are drawn as qwen35's, so the decays mostly lie between 0.75 and 0.99 (over the
fixtures' tokens: a median of 0.935, a twentieth below 0.77, the least 0.63, the most 0.995) and
the state carries over tens of tokens (the fixtures' longest prompt, 130 tokens, runs past two of
llama.cpp's 64-token chunks).

Every layer's MLP: 8 experts of width 64 (expert_feed_forward_length), 2 used per token, chosen
by softmax, their weights renormalized over the chosen two (llama.cpp's graph passes norm_w
true; no expert_weights_scale key), plus a shared expert of width 128
(expert_shared_feed_forward_length; feed_forward_length the same) scaled by
sigmoid(x . ffn_gate_inp_shexp).
"""

from __future__ import annotations

import math

import gguf
import numpy as np

from family_models_qwen35 import attention

Q = gguf.GGMLQuantizationType

# All f32 but the embeddings and head, as qwen35's.
LAYOUT = dict(
    seed=0x03E7, n_layer=4, n_embd=256, n_head=4, n_head_kv=2, head_dim=64, n_ff=128,
    rope_base=1e7, rope_dims=16, eps=1e-6, tied=False, qkv_bias=False, qk_norm=True,
    pre="qwen2", add_bos=False, full_attention_interval=4,
    ssm_conv_kernel=4, ssm_state_size=32, ssm_group_count=2, ssm_value_heads=4,
    experts=8, experts_used=2, expert_ff=64, shared_ff=128,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)
# The same weights (same seed, same draws) in the legacy ssm_in layout.
SSM_IN = dict(LAYOUT, arch="qwen3next", ssm_in=True)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The Qwen3-Next keys (the writer's generic code adds the common ones, the rope dimension
    count, expert count, used count, width and shared width). Keys the pinned gguf package
    predates go under the names llama.cpp reads."""
    w.add_key_length(L["head_dim"])
    w.add_value_length(L["head_dim"])
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
    t.norm(p + "post_attention_norm.weight", d)

    # The router, the experts (one 3-D tensor per projection, the expert index slowest), the
    # shared expert's one-row gate and the shared expert, as qwen35moe's.
    ne, eff, sff = L["experts"], L["expert_ff"], L["shared_ff"]
    t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
    t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
    t.add(p + "ffn_gate_inp_shexp.weight", t.normal((1, d), 1.5 / math.sqrt(d)), Q.F32)
    t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), L["down_type"])


def delta_net(t, p: str, L: dict, mt: Q) -> None:
    """A gated-delta-net layer's tensors, in attn_qkv + attn_gate or (L["ssm_in"]) ssm_in."""
    d, width, kernel = L["n_embd"], L["ssm_state_size"], L["ssm_conv_kernel"]
    nk, nv = L["ssm_group_count"], L["ssm_value_heads"]
    ratio = nv // nk
    value_dim = width * nv
    conv_dim = 2 * width * nk + value_dim
    # Hugging Face's in_proj_qkvz, per key head [q, k, v (ratio heads), z (ratio heads)]: q, k
    # and v each about N(0, 1) before the conv.
    qkvz = t.normal((nk, 2 * width + 2 * ratio * width, d), 1.0 / math.sqrt(d))
    if L.get("ssm_in"):
        t.add(p + "ssm_in.weight", qkvz.reshape(-1, d), mt)
    else:
        # The converter's split: all q heads, all k heads, all v heads (grouped order); z.
        q, k, v, z = np.split(qkvz, [width, 2 * width, (2 + ratio) * width], axis=1)
        qkv = np.concatenate([q.reshape(-1, d), k.reshape(-1, d), v.reshape(-1, d)])
        t.add(p + "attn_qkv.weight", qkv, mt)
        t.add(p + "attn_gate.weight", z.reshape(-1, d), mt)
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
    # Hugging Face's in_proj_ba: per key head, its value heads' beta rows (logits about
    # N(0, 1)), then their alpha rows (about N(0, 0.5^2)).
    beta = t.normal((nk, ratio, d), 1.0 / math.sqrt(d))
    alpha = t.normal((nk, ratio, d), 0.5 / math.sqrt(d))
    t.add(p + "ssm_ba.weight", np.concatenate([beta, alpha], axis=1).reshape(2 * nv, d), mt)
    t.norm(p + "ssm_norm.weight", width)
    t.matrix(p + "ssm_out.weight", d, value_dim, 1.0 / math.sqrt(value_dim), mt)
