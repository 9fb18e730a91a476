"""MiniMax-M2 / M2.1 (`minimax-m2` GGUF architecture) layout, keys and layers for
make-family-models.py.

MiniMax-M2, scaled down: GQA 4:1 over heads of 64 (queries twice as wide as the residual
stream, as M2's 48 heads of 128 over 3072 are, so the file has key_length / value_length),
no biases, RMS norms of Q and K over whole rows (attn_q_norm of n_head * head_dim values,
attn_k_norm of n_head_kv * head_dim, not per head), NeoX RoPE over the first half of each head
(rope.dimension_count 32, as M2 rotates 64 of 128), base 5e6; in every layer 8 experts of width
128, 2 used per token, chosen by sigmoid scores (expert_gating_func 2: llama.cpp has no default
for this family) plus a selection bias (exp_probs_b, changing some of the choices), their
weights renormalized (llama.cpp's graph always passes norm_w true and reads no
expert_weights_* keys, so the file has none); no shared expert; an untied head.

llama.cpp sizes this family's experts by feed_forward_length (and requires
expert_feed_forward_length too), so both are the experts' width, as the converter writes
them from intermediate_size.
"""

from __future__ import annotations

import math

import gguf

Q = gguf.GGMLQuantizationType

# All f32 but the embeddings and head, as glm4moe's, so no half-precision rounding of the
# router's inputs flips llama.cpp's expert choices against another implementation's.
LAYOUT = dict(
    arch="minimax-m2", seed=0x3A32, n_layer=2, n_embd=256, n_head=8, n_head_kv=2, head_dim=64,
    n_ff=128, rope_base=5e6, rope_dims=32, eps=1e-6, tied=False, qkv_bias=False, qk_norm=True,
    pre="llama-bpe", add_bos=False, experts=8, experts_used=2, expert_ff=128,
    gating=gguf.ExpertGatingFuncType.SIGMOID, expert_bias_std=0.2,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The minimax-m2-specific key (the writer's generic code adds the common ones: key and
    value length, rope dimension count, expert count, used count and width)."""
    w.add_expert_gating_func(L["gating"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, hd, nh, nkv = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"]

    t.norm(p + "attn_norm.weight", d)
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    # Over whole Q and K rows (K's narrower: GQA).
    t.norm(p + "attn_q_norm.weight", nh * hd)
    t.norm(p + "attn_k_norm.weight", nkv * hd)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)
    t.norm(p + "ffn_norm.weight", d)

    # The router and its selection bias (added to the sigmoid scores only to choose
    # experts), then the experts as one 3-D tensor per projection, the expert index slowest.
    ne, eff = L["experts"], L["expert_ff"]
    t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
    t.add(p + "exp_probs_b.bias", t.normal((ne,), L["expert_bias_std"]), Q.F32)
    t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
