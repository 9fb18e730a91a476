"""Ministral 3 (`mistral3` GGUF architecture) layout and keys for make-family-models.py.

Ministral 3 3B, scaled down: Llama's layers (make-family-models.py's generic loop writes them:
no biases, a SwiGLU MLP, ffn_norm), GQA 4:1 over heads of 64 (queries twice as wide as the
residual stream; Ministral 3's 32 heads of 128 over 3072 are wider too, so the file has
key_length / value_length), normal (non-NeoX) RoPE over whole heads, base 1e6, stretched by
YaRN 16x over an original 16 positions (context_length 256) with Ministral's beta_fast 32 and
beta_slow 1, and yarn_log_multiplier 1 (Hugging Face's mscale_all_dim: with mscale 1 the
rotation's magnitude correction cancels, so llama.cpp rotates by unit vectors); a tied head,
as the 3B's.

Then Llama 4's attention temperature, as Ministral 3 has it (attention.temperature_scale 0.1,
Hugging Face's llama_4_scaling_beta): llama.cpp multiplies each query, after RoPE, by
1 + 0.1 * ln(floor(pos / 16) + 1), the 16 being rope.scaling.original_context_length (the
graph reads no other key for it). The original context is this small so that the fixtures'
prompts (11 to 131 tokens) and their 32-token continuations cross several multiples of it.
"""

from __future__ import annotations

import gguf

Q = gguf.GGMLQuantizationType

# The tied head's final norm is large (LOGIT_STD / (0.05 * 16) = 10), as qwen2's is.
LAYOUT = dict(
    seed=0x3157, n_layer=2, n_embd=256, n_head=8, n_head_kv=2, head_dim=64, n_ff=768,
    rope_base=1e6, eps=1e-5, tied=True, qkv_bias=False, qk_norm=False, pre="tekken",
    add_bos=True, yarn_factor=16.0, yarn_original_context=16, context_length=256,
    yarn_beta_fast=32.0, yarn_beta_slow=1.0, yarn_log_multiplier=1.0,
    attn_temperature_scale=0.1,
    embd_type=Q.Q8_0, embd_std=0.05,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The mistral3-specific keys (the writer's generic code adds the common ones: key and
    value length, the YaRN type, factor and original context)."""
    w.add_rope_dimension_count(L["head_dim"])
    # Keys the pinned gguf package predates (or has no helper for), under the names
    # llama.cpp reads; the converter writes mscale_all_dim itself (not 0.1 of it, as
    # deepseek2's does).
    w.add_float32(f"{w.arch}.rope.scaling.yarn_beta_fast", L["yarn_beta_fast"])
    w.add_float32(f"{w.arch}.rope.scaling.yarn_beta_slow", L["yarn_beta_slow"])
    w.add_rope_scaling_yarn_log_mul(L["yarn_log_multiplier"])
    w.add_float32(f"{w.arch}.attention.temperature_scale", L["attn_temperature_scale"])
