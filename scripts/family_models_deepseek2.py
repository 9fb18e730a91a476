"""DeepSeek-V2/V3 (`deepseek2` GGUF architecture) keys and layers for make-family-models.py.

The architecture comes in two file styles, both of which llama.cpp loads:

- MLA files, as the current converter writes them (DeepSeek-V3, Kimi-K2): queries through a
  LoRA (attn_q_a, attn_q_a_norm, attn_q_b); keys and values compressed into one latent of
  kv_lora_rank values per token, RMS-normed, plus qk_rope_head_dim RoPE'd key values shared
  by all heads (attn_kv_a_mqa, attn_kv_a_norm); Hugging Face's kv_b_proj split per head into
  attn_k_b (its key rows, transposed, so queries can be absorbed into the latent) and attn_v_b.
  The file describes this as one K/V head (head_count_kv 1) of key_length kv_lora_rank +
  rope dims and value_length kv_lora_rank; key_length_mla / value_length_mla give the
  decompressed per-head sizes.
- Legacy files (DeepSeek-V2-Lite as first converted): queries from attn_q, the unsplit
  attn_kv_b, one K/V head per query head of key_length qk_nope + rope dims and value_length
  v_head_dim, no *_mla keys.

Either way the first leading_dense_block_count layers have a SwiGLU MLP and the rest a
mixture of experts plus shared experts (ffn_*_shexp).

Mistral Large 3 is a `deepseek2` MLA file that also declares Llama 4's attention temperature:
llama.cpp multiplies each query, per position, by
1 + temperature_scale * ln(floor(pos / temperature_length) + 1). TEMPERATURE holds the two
keys the deepseek2_temperature variant adds to the deepseek2 layout (same seed, so its weights
are deepseek2's): a short step and a large scale, so that the fixtures' prompts (10 to 130
tokens, plus 32 generated) cross many steps and the factor reaches about 1.7.
"""

from __future__ import annotations

import math

import gguf
import numpy as np

Q = gguf.GGMLQuantizationType

TEMPERATURE = dict(attn_temperature_scale=0.3, attn_temperature_length=16)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The deepseek2-specific keys (the writer's generic code adds the common ones, expert
    count, used count and width, and the YaRN type, factor and original context)."""
    nope, rope = L["qk_nope_head_dim"], L["qk_rope_head_dim"]
    v, kv_rank = L["v_head_dim"], L["kv_lora_rank"]
    w.add_leading_dense_block_count(L["dense_layers"])
    # llama.cpp requires q_lora_rank unless the layer count is a released Lite model's (26
    # or 27); 0 means queries come from attn_q.
    w.add_q_lora_rank(L["q_lora_rank"])
    w.add_kv_lora_rank(kv_rank)
    if L["mla"]:
        w.add_key_length(kv_rank + rope)
        w.add_value_length(kv_rank)
        w.add_key_length_mla(nope + rope)
        w.add_value_length_mla(v)
    else:
        w.add_key_length(nope + rope)
        w.add_value_length(v)
    w.add_rope_dimension_count(rope)
    w.add_expert_shared_count(L["shared_experts"])
    w.add_expert_weights_scale(L["expert_weights_scale"])
    # The converter writes the flag only when true; V2 files have no gating key (llama.cpp
    # then routes by softmax).
    if L.get("expert_weights_norm"):
        w.add_expert_weights_norm(True)
    if "gating" in L:
        w.add_expert_gating_func(L["gating"])
    if "expert_groups" in L:
        # Keys the pinned gguf package predates, under the names llama.cpp reads.
        w.add_uint32(f"{w.arch}.expert_group_count", L["expert_groups"])
        w.add_uint32(f"{w.arch}.expert_group_used_count", L["expert_groups_used"])
    if "yarn_mscale_all_dim" in L:
        # The converter's convention: 0.1 * mscale_all_dim (llama.cpp divides by 0.1).
        w.add_rope_scaling_yarn_log_mul(0.1 * L["yarn_mscale_all_dim"])
    if "attn_temperature_scale" in L:
        # Mistral Large 3's keys, which the pinned gguf package has no helpers for.
        w.add_float32(f"{w.arch}.attention.temperature_scale", L["attn_temperature_scale"])
        w.add_uint32(f"{w.arch}.attention.temperature_length", L["attn_temperature_length"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, nh = L["n_embd"], L["n_head"]
    nope, rope, vd = L["qk_nope_head_dim"], L["qk_rope_head_dim"], L["v_head_dim"]
    q_rank, kv_rank = L["q_lora_rank"], L["kv_lora_rank"]
    hk = nope + rope  # a query's (and decompressed key's) width per head

    t.norm(p + "attn_norm.weight", d)
    if q_rank:
        t.matrix(p + "attn_q_a.weight", q_rank, d, 1.0 / math.sqrt(d), mt)
        t.norm(p + "attn_q_a_norm.weight", q_rank)
        t.matrix(p + "attn_q_b.weight", nh * hk, q_rank, 1.5 / math.sqrt(q_rank), mt)
    else:
        t.matrix(p + "attn_q.weight", nh * hk, d, 1.5 / math.sqrt(d), mt)
    # The latent's rows (RMS-normed afterwards, so their scale is free), then the shared
    # RoPE'd key's.
    kv_a = np.concatenate([t.normal((kv_rank, d), 1.0 / math.sqrt(d)),
                           t.normal((rope, d), 1.5 / math.sqrt(d))])
    t.add(p + "attn_kv_a_mqa.weight", kv_a, mt)
    t.norm(p + "attn_kv_a_norm.weight", kv_rank)
    # Hugging Face's kv_b_proj: per head, the key's qk_nope rows then the value's rows.
    kv_b = np.concatenate([t.normal((nh, nope, kv_rank), 1.5 / math.sqrt(kv_rank)),
                           t.normal((nh, vd, kv_rank), 1.0 / math.sqrt(kv_rank))], axis=1)
    if L["mla"]:
        # Split as the converter splits it: k_b transposed to (head, kv_rank, nope), ggml
        # {nope, kv_rank, n_head}; v_b (head, v, kv_rank), ggml {kv_rank, v, n_head}.
        t.add(p + "attn_k_b.weight", np.ascontiguousarray(kv_b[:, :nope].transpose(0, 2, 1)), mt)
        t.add(p + "attn_v_b.weight", np.ascontiguousarray(kv_b[:, nope:]), mt)
    else:
        t.add(p + "attn_kv_b.weight", kv_b.reshape(nh * (nope + vd), kv_rank), mt)
    t.matrix(p + "attn_output.weight", d, nh * vd, 1.0 / math.sqrt(nh * vd), mt)
    t.norm(p + "ffn_norm.weight", d)

    if i < L["dense_layers"]:
        ff = L["n_ff"]
        t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L.get("down_type", Q.Q8_0))
        return

    # The router (and V3's selection bias, added to the scores only to choose experts), the
    # experts as one 3-D tensor per projection, then the shared experts, as wide as
    # shared_experts experts.
    ne, eff = L["experts"], L["expert_ff"]
    t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
    if "expert_bias_std" in L:
        t.add(p + "exp_probs_b.bias", t.normal((ne,), L["expert_bias_std"]), Q.F32)
    t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
    t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
    sff = eff * L["shared_experts"]
    t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), mt)
