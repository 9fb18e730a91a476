"""Llama 4 (`llama4` GGUF architecture) layout, keys and layers for make-family-models.py.

Llama 4 Scout, scaled down: GQA 4:1 over heads of 32 (head_dim = n_embd / n_head, so the file
has no key_length / value_length), no biases, normal (non-NeoX, consecutive pairs) RoPE over
whole heads, base 5e5, with Llama 3.1 style frequency divisors in rope_freqs.weight (the
converter writes them from Llama 4's llama3 rope_scaling; make-family-models.py adds the tensor
with Llama 3.1's factor 8 and smooth band over an original 8192: 8 pairs 1, one 2.69, 7 pairs
8; they divide only slow frequencies, so only the longer prompts, the 131-token one above all,
depend on them); an untied head.

llama.cpp's llama4 graph hard-codes the rest, and the file has no key for it:
- RoPE on layers where (il + 1) % 4 != 0 (n_no_rope_layer_step 4), so layer 3 of 4 is NoPE.
- On the RoPE layers only, a weightless RMS norm of each Q and K head (eps the model's), after
  RoPE (Llama4TextL2Norm; llama.cpp skips it only for 128-expert files, Maverick's).
- On the NoPE layers, queries multiplied by 1 + 0.1 * ln(floor((pos + 1) / 8192) + 1), which
  is 1 below position 8191, so only llama4_long's fixture reaches it.
- With no attention.sliding_window key, chunked attention over chunks of 8192 on the layers
  with (il % 4) < 3 (the RoPE ones), full attention on the others: again only llama4_long's.

The MLP alternates (interleave_moe_layer_step 2, as Maverick's; llama.cpp: layer i is MoE when
(i + 1) % step == 0): layers 0 and 2 a dense SwiGLU of feed_forward_length 512, layers 1 and 3
4 experts of width 128 (expert_feed_forward_length), 1 used per token as in Scout, chosen by
the raw router logits, the chosen expert's INPUT multiplied by sigmoid(its logit) (llama.cpp's
build_moe_ffn weight_before_ffn; no renormalization, no scale), plus a shared expert of the
experts' width that every token runs (llama.cpp sizes it by expert_feed_forward_length, with no
key of its own), its output added.
"""

from __future__ import annotations

import math

import gguf

Q = gguf.GGMLQuantizationType

# All f32 but the embeddings and head, as glm4moe's, so no half-precision rounding of the
# router's inputs flips llama.cpp's expert choices against another implementation's. The
# pre-tokenizer "llama4" is GPT-4o's regex in llama.cpp (as gpt_oss's "gpt-4o").
LAYOUT = dict(
    seed=0x11A4, n_layer=4, n_embd=256, n_head=8, n_head_kv=2, head_dim=32, n_ff=512,
    rope_base=5e5, eps=1e-5, tied=False, qkv_bias=False, qk_norm=False, pre="llama4",
    add_bos=True, moe_layer_step=2, experts=4, experts_used=1, expert_ff=128, router_std=2.0,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)
# llama4_long: the same model (the same seed, so the same weights) trained for 16,384 positions:
# llama-server caps a slot's context at the training one, and make-family-fixtures.py runs
# this file with a context of 9,216 on one prompt of 8,506 tokens, whose last 314 positions
# and continuation lie past the NoPE layer's first temperature step (8191) and in the RoPE
# layers' second chunk (from 8192).
LONG = dict(LAYOUT, arch="llama4", context_length=16384)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The llama4-specific keys (the writer's generic code adds the common ones: expert count,
    used count and width)."""
    w.add_rope_dimension_count(L["head_dim"])
    w.add_interleave_moe_layer_step(L["moe_layer_step"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, hd, nh, nkv = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"]

    t.norm(p + "attn_norm.weight", d)
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)
    t.norm(p + "ffn_norm.weight", d)

    if (i + 1) % L["moe_layer_step"] != 0:
        ff = L["n_ff"]
        t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L["down_type"])
        return
    # The router (logits of about N(0, router_std^2) for the normed input, so the chosen
    # expert's sigmoid weight spreads: over the fixtures' tokens a median of 0.9, a tenth
    # below 0.62, the least 0.19), the experts as one 3-D tensor per projection (the expert
    # index slowest), then the shared expert.
    ne, eff = L["experts"], L["expert_ff"]
    t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), L["router_std"] / math.sqrt(d)), Q.F32)
    t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
    t.matrix(p + "ffn_gate_shexp.weight", eff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up_shexp.weight", eff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down_shexp.weight", d, eff, 1.0 / math.sqrt(eff), L["down_type"])
