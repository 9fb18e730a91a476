"""Qwen1.5-MoE / Qwen2-57B-A14B (`qwen2moe` GGUF architecture) layout and layers for
make-family-models.py.

Qwen1.5-MoE-A2.7B, scaled down: Qwen2's attention (one K/V head per query head, as the A2.7B
has, heads of 64 with head_dim = n_embd / n_head as llama.cpp's qwen2moe graph requires, Q/K/V
biases, NeoX RoPE over whole heads, no Q/K norms) and in every layer 8 experts of width 64
(expert_feed_forward_length), 2 used per token, chosen by softmax and not renormalized
(llama.cpp's graph passes norm_w false and reads no expert_weights_* keys, so the file has
none), beside one shared expert four times as wide (expert_shared_feed_forward_length 256, as
Qwen1.5-MoE's 5632 is four of its 1408-wide experts) whose output each token multiplies by
sigmoid(x . ffn_gate_inp_shexp), a gate of one row; an untied head.

The shared expert's gate is written as Hugging Face's Linear(n_embd, 1) converts, a 2-D
tensor of ggml shape {n_embd, 1}, which llama.cpp takes for the {n_embd} it asks for. Its
scale puts the gate's logits at a standard deviation of about 1.5, so the sigmoid stays
between its ends.
"""

from __future__ import annotations

import math

import gguf

Q = gguf.GGMLQuantizationType

# All f32 but the embeddings and head, as glm4moe's, so no half-precision rounding of the
# router's inputs flips llama.cpp's expert choices against another implementation's.
# feed_forward_length is the shared expert's width, as Qwen1.5-MoE's converted files have it.
LAYOUT = dict(
    seed=0x0E2E, n_layer=2, n_embd=256, n_head=4, n_head_kv=4, head_dim=64, n_ff=256,
    rope_base=1e6, eps=1e-6, tied=False, qkv_bias=True, qk_norm=False, pre="qwen2",
    add_bos=False, experts=8, experts_used=2, expert_ff=64, shared_ff=256,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices. (The generic keys cover this family: expert count, used count and width,
    and the shared expert's width.)"""
    p = f"blk.{i}."
    d, hd, nh, nkv = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"]

    t.norm(p + "attn_norm.weight", d)
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    t.add(p + "attn_q.bias", t.normal((nh * hd,), 0.5), Q.F32)
    t.add(p + "attn_k.bias", t.normal((nkv * hd,), 0.5), Q.F32)
    t.add(p + "attn_v.bias", t.normal((nkv * hd,), 0.2), Q.F32)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)
    t.norm(p + "ffn_norm.weight", d)

    # The router, the experts as one 3-D tensor per projection (the expert index slowest),
    # then the shared expert's gate (one row: x . w is about N(0, 1.5^2) for the normed x)
    # and the shared expert itself.
    ne, eff, sff = L["experts"], L["expert_ff"], L["shared_ff"]
    t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
    t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
    t.add(p + "ffn_gate_inp_shexp.weight", t.normal((1, d), 1.5 / math.sqrt(d)), Q.F32)
    t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), L["down_type"])
