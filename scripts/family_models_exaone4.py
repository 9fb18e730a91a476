"""EXAONE 4.0 (`exaone4` GGUF architecture) layout, keys and layers for make-family-models.py.

LG AI Research's EXAONE 4.0 32B, scaled down: like OLMo 2 / 3 there is no norm before attention
or the MLP, only post-norms on each sublayer's output before its residual add. What makes the
sliding window and the NoPE layers appear is the layer count: llama.cpp
(src/models/exaone4.cpp, load_arch_hparams) turns them on only when block_count is exactly 64
(the 32B model), so this model has 64 layers, each tiny. Then:
- every layer i with i % 4 < 3 slides, i % 4 == 3 (3, 7, ..., 63) is global: llama.cpp's
  load_swa_pattern(ml, 4) with no exaone4.attention.sliding_window_pattern key in the file (the
  converter writes one, an array, when the config has layer_types; this file leaves it out, so
  the default pattern applies: three sliding layers, then one global);
- the window is exaone4.attention.sliding_window = 16 (llama.cpp's default 4096 when the key is
  absent): a sliding layer's query at position p sees keys at positions p - 15 .. p
  (LLAMA_SWA_TYPE_STANDARD masks p - k >= 16);
- RoPE only on the sliding layers; the global layers use none (NoPE). (With any other layer
  count the model has no window and RoPE on every layer.)
No exaone4.rope.freq_base_swa key (the sliding layers use rope.freq_base, 1e6), no
rope_freqs.weight, no rope.dimension_count (whole heads rotate).

Keys: the common ones (context_length 4096, block_count 64, embedding_length 64,
feed_forward_length 128, attention.head_count 2, attention.head_count_kv 1,
attention.layer_norm_rms_epsilon 1e-5, rope.freq_base 1e6), attention.key_length and
value_length 32 (= n_embd / n_head, written as the converter writes head_dim),
attention.sliding_window 16. The vocabulary is the other BPE families' (SmolLM2's) with
tokenizer.ggml.pre "exaone4" (llama.cpp: GPT-2's pre-tokenizer regex) and add_bos_token false
(no BOS in the prompts).

Every layer, with rms(v) = v / sqrt(mean(v^2) + eps), eps = 1e-5 for every norm:
  h   = x + rms(attn(x)) * post_attention_norm
  out = h + rms(ffn_down(silu(ffn_gate(h)) * ffn_up(h))) * post_ffw_norm
(ffn_gate / ffn_up 64 -> 128, ffn_down 128 -> 64, no biases anywhere.) attn(x): attn_q
(64 -> 2 * 32), attn_k and attn_v (64 -> 32: one K/V head shared by both query heads), per-head
RMS norms of Q and K (attn_q_norm, attn_k_norm, {32} each) BEFORE RoPE; on sliding layers NeoX
RoPE (pairs (i, i + 16)) over whole heads, base 1e6, position = the token's index in its
sequence; causal (and windowed on sliding layers), scores scaled by 1/sqrt(32); attn_output
(2 * 32 -> 64). After the last layer: logits = output . (rms(x) * output_norm), an untied head.

Tensors: token_embd.weight (Q8_0), per layer blk.N.attn_q / attn_k / attn_v / attn_output,
attn_q_norm, attn_k_norm, post_attention_norm, ffn_gate / ffn_up / ffn_down, post_ffw_norm
(all f32), output_norm.weight (f32), output.weight (Q8_0).

Scales. 128 sublayers each add an RMS-normalized vector times a post-norm gain, so a
sublayer's output moves by about gain / |x| per relative change of its input x: with small
gains, 0.1 * (1 + N(0, 0.1^2)) (OLMo-style small post-norm weights), and embeddings of std 1
(the residual stream starts at RMS 1 and grows to about 1.6), perturbations are not amplified
through the 64 layers. (With embeddings of std 0.25 the network was chaotic: rounding Q, K and
V to f16 alone flipped 11 of the fixture's 256 greedy tokens in a float64 reference, and
llama.cpp's top-5 probabilities moved by up to 0.23 against it.) Q and K are normed, with gains
2 * (1 + N(0, 0.1^2)) so scores (about +-4) keep attention from being a plain running mean;
Xavier-style matrices, attn_q / attn_k 1.5x. The untied head (Q8_0, rows N(0, 8^2 / 64), the
control tokens' 1/20 of that, so greedy runs never stop early) gives logits of about N(0, 8^2).

Checked against llama.cpp (the fixture: flash attention, f16 K/V) with a float64
implementation of the above: with Q, K and V rounded to f16 and the head's input to Q8_0 blocks
(as ggml's CPU backend does) the top-5 probabilities agree within 0.027 and 4 of the 256 greedy
tokens differ, each where llama.cpp's top two are under 0.02 apart; without the rounding within
0.035, 5 tokens. The window and NoPE matter: with a window of 4096 instead of 16, the greedy
token (along llama.cpp's continuations) changes at 216 of the 256 steps, with RoPE on the
global layers too at 186, with no sliding layers at all (every layer global, RoPE on all, as
llama.cpp runs any layer count but 64) at 232. Greedy margins: top-1 above 0.5 in 62% of the
steps, top-1 and top-2 less than 0.05 apart in 9% (smallest gap 0.0028).
"""

from __future__ import annotations

import math

import gguf

Q = gguf.GGMLQuantizationType

N_LAYER = 64  # llama.cpp applies the sliding window and NoPE only at exactly 64 layers

# All f32 but the embeddings and the untied head.
LAYOUT = dict(
    seed=0xE4A0, n_layer=N_LAYER, n_embd=64, n_head=2, n_head_kv=1, head_dim=32, n_ff=128,
    rope_base=1e6, eps=1e-5, tied=False, qkv_bias=False, qk_norm=True,
    pre="exaone4", add_bos=False, sliding_window=16,
    post_norm_gain=0.1, qk_norm_gain=2.0,
    embd_type=Q.Q8_0, output_type=Q.Q8_0, embd_std=1.0, matrix_type=Q.F32, down_type=Q.F32,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The head width (n_embd / n_head, written as the converter writes head_dim) and the
    sliding window; no sliding_window_pattern key (llama.cpp's default 4 applies)."""
    w.add_key_length(L["head_dim"])
    w.add_value_length(L["head_dim"])
    w.add_sliding_window(L["sliding_window"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, hd, nh, nkv, ff = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"], L["n_ff"]
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    t.norm(p + "attn_q_norm.weight", hd, L["qk_norm_gain"])
    t.norm(p + "attn_k_norm.weight", hd, L["qk_norm_gain"])
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)
    t.norm(p + "post_attention_norm.weight", d, L["post_norm_gain"])
    t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L["down_type"])
    t.norm(p + "post_ffw_norm.weight", d, L["post_norm_gain"])
