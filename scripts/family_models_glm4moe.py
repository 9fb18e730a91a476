"""GLM-4.5 / GLM-4.5-Air (`glm4moe` GGUF architecture) layout, keys and layers for
make-family-models.py.

GLM-4.5-Air, scaled down: GQA 4:1 over heads of 64 (queries twice as wide as the residual
stream, as Air's 96 heads of 128 over 4096 are), Q/K/V biases and no Q/K norms, NeoX RoPE over
half of each head (rope.dimension_count 32), the norm before the MLP stored as
post_attention_norm (no ffn_norm); a dense SwiGLU first layer, then layers of 8 experts (2 used
per token) plus a shared one as wide as an expert (ffn_*_shexp), chosen by sigmoid scores (the
file has no gating key: llama.cpp defaults glm4moe to sigmoid) plus a selection bias
(exp_probs_b), their weights normalized then scaled by 1.5; an untied head.

After the trunk comes one multi-token-prediction (NextN) layer, as the released files carry
it: block_count counts it and nextn_predict_layers says how many of the last blocks are MTP
ones (llama.cpp's n_layer is their difference). Its block holds a full MoE layer's weights plus
nextn.eh_proj (the concatenated, normed embedding and hidden state back to n_embd),
nextn.enorm, nextn.hnorm and nextn.shared_head_norm; llama.cpp's main graph runs the trunk only
(it skips loading the MTP block unless asked for MTP speculative decoding).
"""

from __future__ import annotations

import math

import gguf

Q = gguf.GGMLQuantizationType

# All f32 but the embeddings and head, as deepseek2's, so the router's inputs carry no
# half-precision rounding that could flip llama.cpp's expert choices against another
# implementation's.
LAYOUT = dict(
    seed=0x6145, n_layer=4, nextn_layers=1, n_embd=256, n_head=8, n_head_kv=2, head_dim=64,
    n_ff=512, rope_base=1e6, rope_dims=32, eps=1e-5, tied=False, qkv_bias=True, qk_norm=False,
    pre="llama-bpe", add_bos=False, dense_layers=1, experts=8, experts_used=2, expert_ff=128,
    shared_experts=1, expert_bias_std=0.2, expert_weights_norm=True, expert_weights_scale=1.5,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32, down_type=Q.F32,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The glm4moe-specific keys (the writer's generic code adds the common ones: block count
    including the MTP layer, key/value length, rope dimension count, expert count, used count
    and width)."""
    w.add_leading_dense_block_count(L["dense_layers"])
    w.add_expert_shared_count(L["shared_experts"])
    w.add_expert_weights_scale(L["expert_weights_scale"])
    w.add_expert_weights_norm(L["expert_weights_norm"])
    # A key the pinned gguf package predates, under the name llama.cpp reads.
    w.add_uint32(f"{w.arch}.nextn_predict_layers", L["nextn_layers"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors (the MTP layer's too), drawn from make-family-models.py's Tensors `t`;
    `mt` the type of the matrices."""
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
    # The norm before the MLP (Hugging Face's post_attention_layernorm).
    t.norm(p + "post_attention_norm.weight", d)

    if i < L["dense_layers"]:
        ff = L["n_ff"]
        t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L.get("down_type", Q.Q8_0))
    else:
        # The router and its selection bias (added to the sigmoid scores only to choose
        # experts), the experts as one 3-D tensor per projection, then the shared expert.
        ne, eff = L["experts"], L["expert_ff"]
        t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
        t.add(p + "exp_probs_b.bias", t.normal((ne,), L["expert_bias_std"]), Q.F32)
        t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
        t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
        t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
        sff = eff * L["shared_experts"]
        t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), mt)

    if i >= L["n_layer"] - L["nextn_layers"]:
        # The MTP block's own tensors: eh_proj maps [enorm(embedding), hnorm(hidden)] (ggml
        # {2 * n_embd, n_embd}) back to n_embd; shared_head_norm precedes the (shared) head.
        t.matrix(p + "nextn.eh_proj.weight", d, 2 * d, 1.0 / math.sqrt(2 * d), mt)
        t.norm(p + "nextn.enorm.weight", d)
        t.norm(p + "nextn.hnorm.weight", d)
        t.norm(p + "nextn.shared_head_norm.weight", d)
