#!/usr/bin/env python3
"""Writes small random-weight GGUF models for the llama, qwen2, qwen3, qwen3moe, gemma2, gemma3,
smollm3, phi3, granite, granitemoe (twice: plain and with shared experts), gpt-oss, olmo2,
deepseek2, glm4moe, qwen2moe, minimax-m2, mistral3, llama4, qwen35, qwen35moe, qwen3next,
gemma4, lfm2, lfm2moe, exaone4, granitehybrid and nemotron_h families (deepseek2 thrice:
DeepSeek-V3 style MLA, the same with Mistral Large 3's attention temperature, and V2-Lite style
legacy; glm4moe GLM-4.5-Air style with a multi-token-prediction layer; then Qwen1.5-MoE,
MiniMax-M2, Ministral 3, Llama 4 Scout, Qwen3.5 (dense and MoE, both in
family_models_qwen35.py), Qwen3-Next and Gemma 4 (gemma4 E2B style with per-layer embeddings and
shared K/V, gemma4moe 26B-A4B style, both in family_models_gemma4.py), LFM2 (LFM2-350M style:
gated short-convolution layers between attention layers; lfm2moe LFM2-8B-A1B style, the same
with experts after two dense layers, both in family_models_lfm2.py), EXAONE 4.0 (32B style:
post-norms only, 64 tiny layers so that llama.cpp slides three of every four over 16 keys and
leaves RoPE off the global ones), Granite 4.0 hybrid (granite_hybrid Granite 4.0-H-Micro style:
Mamba-2 layers between attention layers without RoPE; granite_hybrid_moe the same with RoPE and
experts beside a shared one, both in family_models_granite_hybrid.py) and Nemotron-H (nemotron_h
Nemotron-H-8B / Nano 9B v2 style: every layer one of a Mamba-2 mixer, an attention mixer without
RoPE or a ReLU-squared MLP) styles: these thirteen's layouts, keys or layers in
scripts/family_models_<family>.py; llama4 twice, llama4_long the same weights trained for 16,384
positions; qwen3next twice, qwen3next_ssm_in the same weights in the legacy ssm_in layout), two
LongRoPE variants of phi3 and a Mixtral-style llama.

Each model keeps the head layout of its family's smallest released model, scaled down, with
weights drawn from fixed seeds, so the files are byte-identical on every run (given the pinned
gguf and numpy that scripts/fetch-family-models.sh installs). The engine tests compare their
forward pass on these files with llama.cpp's (engine/tests/fixtures/families/*.json, written
by scripts/make-family-fixtures.py).

The BPE families reuse the SmolLM2 vocabulary and merges; gemma3 and phi3 get a small
synthesized SentencePiece-style vocabulary with byte fallback (scripts/family_models_spm.py);
the gemma4 ones a small Gemma 4 style BPE vocabulary (U+2581 for spaces, byte fallback, merges
learned from the same word list) that family_models_gemma4.py writes with the rest of the file.

Usage: scripts/make-family-models.py [--vocab-from SMOLLM2.gguf] [--out DIR] [FAMILY ...]
Needs gguf and numpy (scripts/fetch-family-models.sh puts them in .cache/gguf-py).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import gguf
import numpy as np

import family_models_deepseek2 as deepseek2
import family_models_exaone4 as exaone4
import family_models_gemma4 as gemma4
import family_models_glm4moe as glm4moe
import family_models_granite_hybrid as granite_hybrid
import family_models_lfm2 as lfm2
import family_models_llama4 as llama4
import family_models_minimax_m2 as minimax_m2
import family_models_mistral3 as mistral3
import family_models_nemotron_h as nemotron_h
import family_models_qwen2moe as qwen2moe
import family_models_qwen35 as qwen35
import family_models_qwen3next as qwen3next
from family_models_spm import spm_vocab

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ("llama", "qwen2", "qwen3", "gemma3", "smollm3", "phi3", "phi3_longrope_short",
            "phi3_longrope_long", "gemma2", "qwen3moe", "llama_moe", "granite", "gpt_oss", "olmo2",
            "granite_moe", "granite_moe_shared", "deepseek2", "deepseek2_lite", "glm4moe",
            "qwen2moe", "minimax_m2", "mistral3", "deepseek2_temperature", "llama4", "llama4_long",
            "qwen35", "qwen35moe", "qwen3next", "qwen3next_ssm_in", "gemma4", "gemma4moe",
            "lfm2", "lfm2moe", "exaone4", "granite_hybrid", "granite_hybrid_moe", "nemotron_h")
# Architectures whose keys and/or layers a module of their own writes.
MODULES = {"deepseek2": deepseek2, "glm4moe": glm4moe, "qwen2moe": qwen2moe,
           "minimax-m2": minimax_m2, "mistral3": mistral3, "llama4": llama4, "qwen35": qwen35,
           "qwen35moe": qwen35, "qwen3next": qwen3next, "lfm2": lfm2, "lfm2moe": lfm2,
           "exaone4": exaone4, "granitehybrid": granite_hybrid, "nemotron_h": nemotron_h}
# Families with the synthesized SentencePiece vocabulary (the others reuse SmolLM2's BPE).
SPM_FAMILIES = ("gemma3", "phi3", "gemma2")
# Architectures whose module writes the whole file, vocabulary included.
WHOLE_FILE = {"gemma4": gemma4}

Q = gguf.GGMLQuantizationType


# --------------------------------------------------------------------------------------------
# Layouts


LAYOUTS = {
    # Llama 3.2 style: GQA 4:1, head_dim 64, Llama 3.1 rope frequency factors.
    "llama": dict(
        seed=0x11A3A, n_layer=2, n_embd=512, n_head=8, n_head_kv=2, head_dim=64, n_ff=1024,
        rope_base=500000.0, eps=1e-5, tied=False, qkv_bias=False, qk_norm=False,
        pre="llama-bpe", add_bos=True,
        # token_embd / output are the big tensors (49152 rows); quantized to keep the file small
        embd_type=Q.Q5_0, output_type=Q.Q4_0, embd_std=0.25,
    ),
    # Qwen2 style: one K/V head, Q/K/V biases, tied output.
    "qwen2": dict(
        seed=0x0E2, n_layer=3, n_embd=448, n_head=7, n_head_kv=1, head_dim=64, n_ff=1024,
        rope_base=1e6, eps=1e-6, tied=True, qkv_bias=True, qk_norm=False,
        pre="qwen2", add_bos=False,
        embd_type=Q.Q8_0, embd_std=0.05,
    ),
    # Qwen3 style: head_dim 128 != n_embd / n_head, per-head Q/K RMS norms, tied output.
    "qwen3": dict(
        seed=0x0E3, n_layer=3, n_embd=256, n_head=4, n_head_kv=2, head_dim=128, n_ff=768,
        rope_base=1e6, eps=1e-6, tied=True, qkv_bias=False, qk_norm=True,
        pre="qwen2", add_bos=False,
        # All f32: llama.cpp then computes without rounding activations to f16 or 8 bits,
        # so this family is checked on the exact path (the others cover quantized types).
        embd_type=Q.F32, embd_std=0.05, matrix_type=Q.F32, down_type=Q.F32,
    ),
    # Gemma 3 1B style: one K/V head of 256, 5 sliding layers then 1 global, post norms,
    # GELU FFN, embeddings scaled by sqrt(n_embd), tied output.
    "gemma3": dict(
        seed=0x6E3, n_layer=6, n_embd=384, n_head=4, n_head_kv=1, head_dim=256, n_ff=768,
        rope_base=1e6, eps=1e-6, tied=True, qkv_bias=False, qk_norm=True,
        sliding_window=16, add_bos=True,
        # llama.cpp applies tanh capping to gemma3 logits when this key is present (its
        # probabilities change without it); 40 bends the top logits (about 30 here) visibly
        # without flattening the distribution
        final_logit_softcapping=40.0,
        # the graph multiplies embeddings by sqrt(384) on input: 0.003 * 19.6 = 0.06
        embd_type=Q.F16, embd_std=0.003,
    ),
    # Gemma 2 2B style: GQA 2:1 over heads of 128, even layers sliding (a 16-token window),
    # post norms, GELU FFN, scaled embeddings, tied output, and both soft caps, small enough
    # to bend this model's scores (about +-4) and logits (about +-25).
    "gemma2": dict(
        seed=0x6E2, n_layer=4, n_embd=384, n_head=4, n_head_kv=2, head_dim=128, n_ff=768,
        rope_base=10000.0, eps=1e-6, tied=True, qkv_bias=False, qk_norm=False,
        sliding_window=16, add_bos=True, attn_logit_softcapping=2.5,
        final_logit_softcapping=40.0,
        embd_type=Q.F16, embd_std=0.003,
    ),
    # Qwen3-30B-A3B style: Qwen3's attention and, in every layer, 8 experts of which each
    # token uses 2 (a router sharp enough that its choices are clear), tied output.
    "qwen3moe": dict(
        seed=0x0E3E, n_layer=2, n_embd=256, n_head=4, n_head_kv=2, head_dim=128, n_ff=768,
        rope_base=1e6, eps=1e-6, tied=True, qkv_bias=False, qk_norm=True,
        pre="qwen2", add_bos=False, experts=8, experts_used=2, expert_ff=192,
        embd_type=Q.Q8_0, embd_std=0.05,
    ),
    # Granite 3 2B style: GQA 4:1 and its four multipliers (embeddings x12, scores x1/64,
    # layer outputs x0.22, logits /8; the head's rows are 8x larger so logits keep their
    # spread). The head is untied here: tied, these scales made "repeat the last token" every
    # answer.
    "granite": dict(
        seed=0x6A3, n_layer=2, n_embd=512, n_head=8, n_head_kv=2, head_dim=64, n_ff=1024,
        rope_base=10000.0, eps=1e-5, tied=False, qkv_bias=False, qk_norm=False,
        pre="refact", add_bos=False, embedding_scale=12.0, residual_scale=0.22,
        attention_scale=1.0 / 64, logit_scale=8.0, logit_gain=8.0,
        embd_type=Q.Q5_0, output_type=Q.Q8_0, embd_std=0.02,
    ),
    # SmolLM3 3B style: GQA 4:1, layer 3 of every 4 without RoPE ("NoPE"). The head is untied
    # here (a tied one gave flat distributions, with near-ties in 12% of the steps).
    "smollm3": dict(
        seed=0x5303, n_layer=4, n_embd=512, n_head=8, n_head_kv=2, head_dim=64, n_ff=1024,
        rope_base=5e6, eps=1e-6, tied=False, qkv_bias=False, qk_norm=False,
        pre="llama-bpe", add_bos=False,
        embd_type=Q.Q5_0, output_type=Q.Q8_0, embd_std=0.25,
    ),
    # Phi-3 mini style: one K/V head per query head (MHA) of 96, Q|K|V fused in attn_qkv and
    # gate|up in ffn_up, NeoX RoPE, a SentencePiece vocabulary with a space prefix, untied
    # output. Its declared sliding window (16) is one llama.cpp does not apply.
    "phi3": dict(
        seed=0xF13, n_layer=2, n_embd=384, n_head=4, n_head_kv=4, head_dim=96, n_ff=768,
        rope_base=10000.0, eps=1e-5, tied=False, qkv_bias=False, qk_norm=False,
        sliding_window=16, add_bos=True,
        embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.05,
    ),
    # gpt-oss style: Q/K/V and output biases, a sink per head, NeoX RoPE stretched by YaRN
    # (32x over an original 128 positions, so the fixtures' prompts and continuations reach
    # past it), even layers sliding over 16 keys, and in every layer 8 experts with biases,
    # 4 used per token, their weights in MXFP4 as gpt-oss ships them. The BPE vocabulary is
    # SmolLM2's with GPT-4o's pre-tokenizer, as gpt-oss's o200k vocabulary uses, and
    # harmony's markers as control tokens after it (`<|return|>` the EOS); the chat template
    # is gpt-oss's own (engine/tests/fixtures/gpt_oss_template.jinja). Attention in f32.
    "gpt_oss": dict(
        arch="gpt-oss", seed=0x6055, n_layer=2, n_embd=256, n_head=8, n_head_kv=2,
        head_dim=64, n_ff=192, rope_base=150000.0, eps=1e-5, tied=False, qkv_bias=True,
        qk_norm=False, pre="gpt-4o", add_bos=False, sliding_window=16, experts=8,
        experts_used=4, expert_ff=192, expert_type="mxfp4", yarn_factor=32.0,
        yarn_original_context=128,
        embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32,
    ),
    # OLMo 3 7B style (`olmo2` files): no pre-norms, post-norms after attention and the MLP,
    # Q/K norms over whole rows (GQA 4:1, so K's row is narrower), three of every four
    # layers sliding over 16 keys with plain RoPE, the global ones stretched by YaRN (8x over
    # an original 512 positions).
    "olmo2": dict(
        seed=0x01A3, n_layer=4, n_embd=256, n_head=8, n_head_kv=2, head_dim=32, n_ff=768,
        rope_base=500000.0, eps=1e-6, tied=False, qkv_bias=False, qk_norm=True,
        pre="llama-bpe", add_bos=False, sliding_window=16, yarn_factor=8.0,
        yarn_original_context=512,
        embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25,
    ),
    # DeepSeek-V3 / Kimi-K2 style (`deepseek2` files as the current converter writes them):
    # multi-head latent attention, queries through a rank-96 LoRA, keys and values through a
    # 64-wide latent plus 16 RoPE'd key dims shared by the heads (one K/V "head" of 80 / 64,
    # decompressed per head by attn_k_b / attn_v_b to keys of 32 + 16 and values of 32); a
    # dense first layer, then layers of 8 experts (2 used per token) and a shared one, chosen
    # by sigmoid scores plus a selection bias (changing about half the choices) within the
    # best 2 of 4 groups of experts, their weights normalized then scaled by 2.5; YaRN 4x over
    # an original 128 positions with mscale_all_dim 1. All f32 but the embeddings and head.
    "deepseek2": dict(
        seed=0xD5E3, n_layer=3, n_embd=256, n_head=4, n_head_kv=1, head_dim=48, n_ff=512,
        rope_base=10000.0, eps=1e-6, tied=False, qkv_bias=False, qk_norm=False,
        pre="llama-bpe", add_bos=False, dense_layers=1, q_lora_rank=96, kv_lora_rank=64,
        qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=32, mla=True, experts=8,
        experts_used=2, expert_ff=128, shared_experts=1,
        gating=gguf.ExpertGatingFuncType.SIGMOID, expert_bias_std=0.2,
        expert_weights_norm=True, expert_weights_scale=2.5, expert_groups=4,
        expert_groups_used=2, yarn_factor=4.0, yarn_original_context=128,
        yarn_mscale_all_dim=1.0,
        embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=0.25, matrix_type=Q.F32,
        down_type=Q.F32,
    ),
    # DeepSeek-V2-Lite style, as first converted (legacy `deepseek2` files): queries straight
    # from attn_q, the unsplit attn_kv_b and a K/V head per query head, no *_mla keys; a
    # dense first layer, then a layer of 8 experts (2 used) and a shared one, routed by
    # softmax (no gating key, as V2 files have none), weights neither normalized (no key)
    # nor scaled (1.0); plain RoPE. f16 matrices.
    "deepseek2_lite": dict(
        arch="deepseek2", seed=0xD5E2, n_layer=2, n_embd=256, n_head=4, n_head_kv=4,
        head_dim=48, n_ff=512, rope_base=10000.0, eps=1e-6, tied=False, qkv_bias=False,
        qk_norm=False, pre="llama-bpe", add_bos=False, dense_layers=1, q_lora_rank=0,
        kv_lora_rank=64, qk_nope_head_dim=32, qk_rope_head_dim=16, v_head_dim=32, mla=False,
        experts=8, experts_used=2, expert_ff=128, shared_experts=1, expert_weights_scale=1.0,
        embd_type=Q.Q5_0, output_type=Q.Q8_0, embd_std=0.25,
    ),
}
# Phi-3.5 style LongRoPE: the phi3 model with short and long frequency factors and an
# attention factor, trained for 16k over an original context that the fixtures' 4,096-token
# llama-server context fits (short factors) or exceeds (long ones). The second rotates 64 of
# its 96 head dimensions, as Phi-4-mini rotates 3/4 of its heads.
LAYOUTS["phi3_longrope_short"] = dict(LAYOUTS["phi3"], arch="phi3", context_length=16384,
                                      original_context=4096)
# Mixtral style: the llama model with 4 experts of its MLP width (256 here), 2 used per
# token; llama files size their experts by feed_forward_length.
LAYOUTS["llama_moe"] = dict(LAYOUTS["llama"], arch="llama", n_ff=256, experts=4, experts_used=2,
                            expert_ff=256)
# Granite MoE 1B-A400M style: the granite model with 4 experts of its MLP width (256 here), 2
# used per token; granitemoe files size their experts by feed_forward_length, as llama's do.
LAYOUTS["granite_moe"] = dict(LAYOUTS["granite"], arch="granitemoe", n_ff=256, experts=4,
                              experts_used=2, expert_ff=256)
# Granite MoE Shared style: granite_moe plus, in every layer, a shared SwiGLU MLP of width 128
# (ffn_*_shexp) that every token runs, its output added to the experts'.
LAYOUTS["granite_moe_shared"] = dict(LAYOUTS["granite_moe"], seed=0x6A35E, shared_ff=128)
LAYOUTS["phi3_longrope_long"] = dict(LAYOUTS["phi3"], arch="phi3", context_length=16384,
                                     original_context=2048, rope_dims=64)
# GLM-4.5-Air style, with a multi-token-prediction layer (scripts/family_models_glm4moe.py).
LAYOUTS["glm4moe"] = glm4moe.LAYOUT
# Qwen1.5-MoE, MiniMax-M2, Ministral 3, Llama 4 Scout, Qwen3.5 and Qwen3-Next styles
# (family_models_*.py).
LAYOUTS.update(qwen2moe=qwen2moe.LAYOUT, minimax_m2=minimax_m2.LAYOUT, mistral3=mistral3.LAYOUT,
               llama4=llama4.LAYOUT, llama4_long=llama4.LONG, qwen35=qwen35.LAYOUT,
               qwen35moe=qwen35.MOE, qwen3next=qwen3next.LAYOUT,
               qwen3next_ssm_in=qwen3next.SSM_IN)
# Gemma 4 E2B and 26B-A4B styles (family_models_gemma4.py).
LAYOUTS.update(gemma4=gemma4.LAYOUT, gemma4moe=gemma4.MOE)
# LFM2-350M and LFM2-8B-A1B styles (family_models_lfm2.py).
LAYOUTS.update(lfm2=lfm2.LAYOUT, lfm2moe=lfm2.MOE)
# EXAONE 4.0 32B style (family_models_exaone4.py).
LAYOUTS["exaone4"] = exaone4.LAYOUT
# Granite 4.0-H-Micro and (with RoPE) Granite 4.0-H-Tiny styles (family_models_granite_hybrid.py).
LAYOUTS.update(granite_hybrid=granite_hybrid.LAYOUT, granite_hybrid_moe=granite_hybrid.MOE)
# Nemotron-H-8B / Nemotron Nano 9B v2 style (family_models_nemotron_h.py).
LAYOUTS["nemotron_h"] = nemotron_h.LAYOUT
# Mistral Large 3 style: the deepseek2 model (same weights) plus Llama 4's attention temperature.
LAYOUTS["deepseek2_temperature"] = dict(LAYOUTS["deepseek2"], arch="deepseek2",
                                        **deepseek2.TEMPERATURE)

CONTEXT_LENGTH = 4096
LOGIT_STD = 8.0


# --------------------------------------------------------------------------------------------
# Tokenizers


def bpe_vocab_from(path: Path) -> dict:
    """tokens, merges, token types and special ids of a GGUF's BPE tokenizer."""
    reader = gguf.GGUFReader(path)

    def field(key):
        f = reader.get_field(key)
        if f is None:
            raise SystemExit(f"{path}: no {key}")
        return f.contents()

    if field("tokenizer.ggml.model") != "gpt2":
        raise SystemExit(f"{path}: not a BPE (gpt2) tokenizer")
    return {
        "tokens": list(field("tokenizer.ggml.tokens")),
        "merges": list(field("tokenizer.ggml.merges")),
        "types": [int(t) for t in field("tokenizer.ggml.token_type")],
        "bos": int(field("tokenizer.ggml.bos_token_id")),
        "eos": int(field("tokenizer.ggml.eos_token_id")),
        "unk": int(field("tokenizer.ggml.unknown_token_id")),
        "pad": int(field("tokenizer.ggml.padding_token_id")),
        "chat_template": field("tokenizer.chat_template"),
    }


# Phi-3's own template (what its GGUF files carry), in short.
PHI3_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|' + message['role'] + '|>' + '\\n' + message['content'] + '<|end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|assistant|>' + '\\n' }}{% endif %}"
)

GEMMA_CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{%- if messages[0]['role'] == 'system' -%}"
    "{%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}"
    "{%- set loop_messages = messages[1:] -%}"
    "{%- else -%}"
    "{%- set first_user_prefix = '' -%}"
    "{%- set loop_messages = messages -%}"
    "{%- endif -%}"
    "{%- for message in loop_messages -%}"
    "{%- if message['role'] == 'assistant' -%}{%- set role = 'model' -%}"
    "{%- else -%}{%- set role = message['role'] -%}{%- endif -%}"
    "{{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else '')"
    " + message['content'] | trim + '<end_of_turn>\n' }}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ '<start_of_turn>model\n' }}{%- endif -%}"
)


HARMONY_MARKERS = ["<|start|>", "<|channel|>", "<|message|>", "<|end|>", "<|call|>",
                   "<|return|>", "<|constrain|>"]
GPT_OSS_TEMPLATE = ROOT / "engine" / "tests" / "fixtures" / "gpt_oss_template.jinja"


def harmony_vocab(bpe: dict) -> dict:
    """The BPE vocabulary with harmony's markers appended as control tokens, `<|return|>` its
    EOS, and gpt-oss's chat template."""
    vocab = dict(bpe)
    vocab["tokens"] = list(bpe["tokens"]) + HARMONY_MARKERS
    vocab["types"] = list(bpe["types"]) + [3] * len(HARMONY_MARKERS)
    vocab["eos"] = len(bpe["tokens"]) + HARMONY_MARKERS.index("<|return|>")
    vocab["chat_template"] = GPT_OSS_TEMPLATE.read_text(encoding="utf-8")
    return vocab


# --------------------------------------------------------------------------------------------
# Weights


def llama31_rope_factors(base: float, dim: int, factor=8.0, low=1.0, high=4.0,
                         original_ctx=8192) -> np.ndarray:
    """Per-pair frequency divisors of Llama 3.1's RoPE scaling (as llama.cpp's converter
    writes them into rope_freqs.weight)."""
    low_wavelen = original_ctx / low
    high_wavelen = original_ctx / high
    out = []
    for i in range(0, dim, 2):
        freq = 1.0 / (base ** (i / dim))
        wavelen = 2 * math.pi / freq
        if wavelen < high_wavelen:
            out.append(1.0)
        elif wavelen > low_wavelen:
            out.append(factor)
        else:
            smooth = (original_ctx / wavelen - low) / (high - low)
            out.append(1.0 / ((1 - smooth) / factor + smooth))
    return np.array(out, dtype=np.float32)


# ggml's MXFP4: 32 values per block, one E8M0 scale byte then 16 bytes of nibbles (low
# nibbles elements 0..16), each nibble indexing twice an E2M1 value.
MXFP4_TYPE_ID = 39
FP4_TWICE = np.array([0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12], dtype=np.float64)


def mxfp4_bytes(data: np.ndarray) -> np.ndarray:
    """Each block's scale the power of two that puts its largest magnitude in [4, 8) (as
    ggml's quantizer picks it, values past 6 saturating), each value then the nearest table
    entry."""
    blocks = data.astype(np.float64).reshape(-1, 32)
    amax = np.abs(blocks).max(axis=1)
    e = np.where(amax > 0, np.floor(np.log2(np.maximum(amax, 1e-30))) - 2 + 127, 0)
    e = np.clip(e, 1, 254).astype(np.uint8)
    half = np.ldexp(1.0, e.astype(np.int32) - 128)
    scaled = blocks / half[:, None]
    codes = np.abs(scaled[:, :, None] - FP4_TWICE[None, None, :]).argmin(axis=2).astype(np.uint8)
    packed = codes[:, :16] | (codes[:, 16:] << 4)
    return np.concatenate([e[:, None], packed], axis=1).reshape(-1)


class Tensors:
    """Draws tensors from one generator in a fixed order and adds them to the writer."""

    def __init__(self, writer: gguf.GGUFWriter, seed: int):
        self.w = writer
        self.rng = np.random.default_rng(seed)

    def normal(self, shape, std: float) -> np.ndarray:
        return (self.rng.standard_normal(shape, dtype=np.float64) * std).astype(np.float32)

    def add(self, name: str, data: np.ndarray, ty: Q) -> None:
        if ty == Q.F32:
            self.w.add_tensor(name, data.astype(np.float32))
        elif ty == Q.F16:
            self.w.add_tensor(name, data.astype(np.float16))
        else:
            self.w.add_tensor(name, gguf.quants.quantize(data, ty), raw_dtype=ty)

    def add_mxfp4(self, name: str, data: np.ndarray) -> None:
        """MXFP4 blocks (a type this gguf package predates, written as raw bytes)."""
        shape = data.shape
        self.w.add_tensor(name, mxfp4_bytes(data).view(np.int8), raw_shape=shape,
                          raw_dtype=MXFP4_TYPE_ID)

    def norm(self, name: str, n: int, gain: float = 1.0) -> None:
        self.add(name, gain * (1.0 + self.normal((n,), 0.1)), Q.F32)

    def matrix(self, name: str, n_out: int, n_in: int, std: float, ty: Q = Q.F16) -> np.ndarray:
        m = self.normal((n_out, n_in), std)
        self.add(name, m, ty)
        return m


def write_model(family: str, out: Path, bpe: dict | None, softcap: float | None = None) -> None:
    """softcap: overrides gemma3's final_logit_softcapping (0 leaves the key out)."""
    L = LAYOUTS[family]
    # A variant of a family (phi3_longrope_*) is written as that family's architecture.
    arch = L.get("arch", family)
    if arch in WHOLE_FILE:
        WHOLE_FILE[arch].write_model(out, family, L, Tensors, CONTEXT_LENGTH)
        return
    mt = L.get("matrix_type", Q.F16)
    d, hd, nh, nkv, ff = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"], L["n_ff"]
    vocab = spm_vocab(arch) if arch in SPM_FAMILIES else bpe
    if arch == "gpt-oss":
        vocab = harmony_vocab(bpe)
    n_vocab = len(vocab["tokens"])

    w = gguf.GGUFWriter(str(out), arch)
    w.add_name(f"radixserve test {family}")
    w.add_context_length(L.get("context_length", CONTEXT_LENGTH))
    w.add_block_count(L["n_layer"])
    w.add_embedding_length(d)
    # A list where the width differs by layer (nemotron_h's: 0 for its non-MLP layers).
    w.add_feed_forward_length(ff)
    w.add_head_count(nh)
    # A list where the count differs by layer (lfm2's: 0 for its conv layers).
    w.add_head_count_kv(L.get("n_head_kv_layers", nkv))
    if arch == "deepseek2":
        deepseek2.write_keys(w, L)
    elif hd != d // nh or arch in ("gemma2", "gemma3"):
        w.add_key_length(hd)
        w.add_value_length(hd)
    w.add_layer_norm_rms_eps(L["eps"])
    w.add_rope_freq_base(L["rope_base"])
    if arch in ("llama", "smollm3"):
        w.add_rope_dimension_count(hd)
    if "rope_dims" in L:
        w.add_rope_dimension_count(L["rope_dims"])
    if arch in ("gemma2", "gemma3", "phi3", "gpt-oss", "olmo2"):
        w.add_sliding_window(L["sliding_window"])
    if "yarn_factor" in L:
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(L["yarn_factor"])
        w.add_rope_scaling_orig_ctx_len(L["yarn_original_context"])
    if arch == "gemma2":
        w.add_attn_logit_softcapping(L["attn_logit_softcapping"])
        w.add_final_logit_softcapping(L["final_logit_softcapping"])
    if arch == "gemma3":
        if softcap is None:
            softcap = L["final_logit_softcapping"]
        if softcap:
            w.add_final_logit_softcapping(softcap)
    if arch in ("granite", "granitemoe", "granitehybrid"):
        w.add_embedding_scale(L["embedding_scale"])
        w.add_residual_scale(L["residual_scale"])
        w.add_attention_scale(L["attention_scale"])
        w.add_logit_scale(L["logit_scale"])
    if "experts" in L:
        w.add_expert_count(L["experts"])
        w.add_expert_used_count(L["experts_used"])
        if arch not in ("llama", "granitemoe", "granitehybrid"):
            w.add_expert_feed_forward_length(L["expert_ff"])
    if "shared_ff" in L:
        w.add_expert_shared_feed_forward_length(L["shared_ff"])
    if arch in ("glm4moe", "minimax-m2", "mistral3", "llama4", "qwen35", "qwen35moe", "qwen3next",
                "lfm2", "lfm2moe", "exaone4", "granitehybrid", "nemotron_h"):
        MODULES[arch].write_keys(w, L)
    if "original_context" in L:
        w.add_rope_scaling_orig_ctx_len(L["original_context"])
        scale = L["context_length"] / L["original_context"]
        w.add_rope_scaling_attn_factors(math.sqrt(1 + math.log(scale) / math.log(L["original_context"])))
    w.add_vocab_size(n_vocab)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    if arch in SPM_FAMILIES:
        w.add_tokenizer_model("llama")
        w.add_tokenizer_pre("default")
        w.add_token_list(vocab["tokens"])
        w.add_token_scores(vocab["scores"])
        w.add_token_types(vocab["types"])
        w.add_bos_token_id(vocab["bos"])
        w.add_eos_token_id(vocab["eos"])
        w.add_unk_token_id(vocab["unk"])
        w.add_pad_token_id(vocab["pad"])
        w.add_add_bos_token(True)
        w.add_add_eos_token(False)
        # Gemma's SentencePiece adds no space in front of the text; Llama's (Phi-3's) does.
        w.add_add_space_prefix(arch == "phi3")
        w.add_chat_template(PHI3_CHAT_TEMPLATE if arch == "phi3" else GEMMA_CHAT_TEMPLATE)
    else:
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre(L["pre"])
        w.add_token_list(vocab["tokens"])
        w.add_token_types(vocab["types"])
        w.add_token_merges(vocab["merges"])
        w.add_bos_token_id(vocab["bos"])
        w.add_eos_token_id(vocab["eos"])
        w.add_unk_token_id(vocab["unk"])
        w.add_pad_token_id(vocab["pad"])
        w.add_add_bos_token(L["add_bos"])
        w.add_add_space_prefix(False)
        w.add_chat_template(vocab["chat_template"])

    t = Tensors(w, L["seed"])
    # Control tokens get short output rows, so greedy runs never stop on an end-of-generation
    # token and the reference continuations are always full length. So do gemma3's byte
    # tokens: random byte sequences are invalid UTF-8, for which llama-server reports no
    # probabilities.
    types = np.array(vocab["types"])
    control = types == 3
    byte = types == 6

    # Scales: small embeddings (real models' are small too), so the residual stream at the
    # output is dominated by what the layers wrote rather than by the last token's own
    # embedding -- with a tied head a large embedding would make "repeat the last token" the
    # answer at every step. Xavier-style projections with slightly sharp attention, and an
    # output head whose logits have a standard deviation of about LOGIT_STD so next-token
    # distributions are peaked and near-ties rare.
    embd_std = L["embd_std"]
    embd = t.normal((n_vocab, d), embd_std)
    if L["tied"]:
        embd[control] *= 0.05
        embd[byte] *= 0.2
    t.add("token_embd.weight", embd, L["embd_type"])

    for i in range(L["n_layer"]):
        if hasattr(MODULES.get(arch), "write_layer"):
            MODULES[arch].write_layer(t, i, L, mt)
            continue
        p = f"blk.{i}."
        if arch != "olmo2":
            t.norm(p + "attn_norm.weight", d)
        if arch == "phi3":
            # One tensor: the rows of Q, then K, then V.
            qkv = np.concatenate([
                t.normal((nh * hd, d), 1.5 / math.sqrt(d)),
                t.normal((nkv * hd, d), 1.5 / math.sqrt(d)),
                t.normal((nkv * hd, d), 1.0 / math.sqrt(d)),
            ])
            t.add(p + "attn_qkv.weight", qkv, mt)
        else:
            t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
            t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
            t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
        if L["qkv_bias"]:
            t.add(p + "attn_q.bias", t.normal((nh * hd,), 0.5), Q.F32)
            t.add(p + "attn_k.bias", t.normal((nkv * hd,), 0.5), Q.F32)
            t.add(p + "attn_v.bias", t.normal((nkv * hd,), 0.2), Q.F32)
        if L["qk_norm"] and arch == "olmo2":
            # Over whole Q and K rows.
            t.norm(p + "attn_q_norm.weight", nh * hd)
            t.norm(p + "attn_k_norm.weight", nkv * hd)
        elif L["qk_norm"]:
            t.norm(p + "attn_q_norm.weight", hd)
            t.norm(p + "attn_k_norm.weight", hd)
        t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)
        if arch == "gpt-oss":
            t.add(p + "attn_output.bias", t.normal((d,), 0.1), Q.F32)
            # Sinks from well below the scores to well above them.
            t.add(p + "attn_sinks.weight", t.normal((nh,), 2.0), Q.F32)
        if arch in ("gemma2", "gemma3", "olmo2"):
            t.norm(p + "post_attention_norm.weight", d)
        # gpt-oss stores the norm before its MLP under the Hugging Face name; OLMo has none.
        if arch != "olmo2":
            t.norm(p + ("post_attention_norm.weight" if arch == "gpt-oss" else "ffn_norm.weight"),
                   d)
        if arch == "gpt-oss":
            ne, eff = L["experts"], L["expert_ff"]
            t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
            t.add(p + "ffn_gate_inp.bias", t.normal((ne,), 0.5), Q.F32)
            for part, (rows, cols) in (("gate", (eff, d)), ("up", (eff, d)), ("down", (d, eff))):
                weights = t.normal((ne, rows, cols), 1.5 / math.sqrt(cols))
                t.add_mxfp4(p + f"ffn_{part}_exps.weight", weights)
                t.add(p + f"ffn_{part}_exps.bias", t.normal((ne, rows), 0.3), Q.F32)
        elif "experts" in L:
            # The router, then one 3-D tensor per projection, the expert index slowest.
            ne, eff = L["experts"], L["expert_ff"]
            t.add(p + "ffn_gate_inp.weight", t.normal((ne, d), 4.0 / math.sqrt(d)), Q.F32)
            t.add(p + "ffn_gate_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
            t.add(p + "ffn_up_exps.weight", t.normal((ne, eff, d), 1.0 / math.sqrt(d)), mt)
            t.add(p + "ffn_down_exps.weight", t.normal((ne, d, eff), 1.0 / math.sqrt(eff)), mt)
            if "shared_ff" in L:
                sff = L["shared_ff"]
                t.matrix(p + "ffn_gate_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
                t.matrix(p + "ffn_up_shexp.weight", sff, d, 1.0 / math.sqrt(d), mt)
                t.matrix(p + "ffn_down_shexp.weight", d, sff, 1.0 / math.sqrt(sff), mt)
        elif arch == "phi3":
            # One tensor: the gate's rows, then up's (llama.cpp's swiglu takes the first half
            # as the gate).
            t.matrix(p + "ffn_up.weight", 2 * ff, d, 1.0 / math.sqrt(d), mt)
        else:
            t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
            t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
        if "experts" not in L:
            t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff),
                     L.get("down_type", Q.Q8_0))
        if arch in ("gemma2", "gemma3", "olmo2"):
            t.norm(p + "post_ffw_norm.weight", d)

    # Logit std ~= embd_std * sqrt(d) * output_norm gain for a tied head, so with the small
    # embeddings the tied models' final norms are large (about 24, 32 and 420). lfm2 names its
    # final norm token_embd_norm.
    norm_name = L.get("output_norm", "output_norm") + ".weight"
    if L["tied"]:
        gain = LOGIT_STD / (embd_std * math.sqrt(d))
        t.norm(norm_name, d, gain)
    else:
        t.norm(norm_name, d)
        head = t.normal((n_vocab, d), LOGIT_STD / math.sqrt(d) * L.get("logit_gain", 1.0))
        head[control] *= 0.05
        t.add("output.weight", head, L["output_type"])

    if arch in ("llama", "llama4"):
        t.add("rope_freqs.weight", llama31_rope_factors(L["rope_base"], hd), Q.F32)
    if "original_context" in L:
        # LongRoPE: per-pair frequency divisors for contexts within the original one (short,
        # near 1) and beyond it (long, up to 16), as Phi-3.5's converter writes them.
        pairs = L.get("rope_dims", hd) // 2
        t.add("rope_factors_short.weight",
              (1.0 + 0.3 * np.linspace(0.0, 1.0, pairs) ** 2).astype(np.float32), Q.F32)
        t.add("rope_factors_long.weight",
              (16.0 ** np.linspace(0.0, 1.0, pairs)).astype(np.float32), Q.F32)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vocab-from", type=Path,
                    default=ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf",
                    help="GGUF whose BPE vocabulary the llama/qwen2/qwen3 models reuse")
    ap.add_argument("--out", type=Path, default=ROOT / ".cache" / "family-models")
    ap.add_argument("--gemma3-softcap", type=float, default=None,
                    help="gemma3.final_logit_softcapping to write instead of the default "
                    f"{LAYOUTS['gemma3']['final_logit_softcapping']} (0: leave the key out)")
    ap.add_argument("families", nargs="*", default=list(FAMILIES))
    args = ap.parse_args()

    bad = [f for f in args.families if f not in FAMILIES]
    if bad:
        print(f"unknown families {bad}; known: {', '.join(FAMILIES)}", file=sys.stderr)
        return 2
    bpe = None
    if any(LAYOUTS[f].get("arch", f) not in SPM_FAMILIES + tuple(WHOLE_FILE)
           for f in args.families):
        if not args.vocab_from.exists():
            print(f"missing {args.vocab_from} (run scripts/fetch-model.sh)", file=sys.stderr)
            return 1
        bpe = bpe_vocab_from(args.vocab_from)

    args.out.mkdir(parents=True, exist_ok=True)
    for family in args.families:
        path = args.out / f"{family}.gguf"
        tmp = path.with_suffix(".gguf.tmp")
        write_model(family, tmp, bpe, args.gemma3_softcap if family == "gemma3" else None)
        tmp.replace(path)
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
