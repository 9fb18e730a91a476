"""LFM2 (`lfm2` GGUF architecture) layout, keys and layers for make-family-models.py.

Liquid AI's LFM2-350M, scaled down: a hybrid of gated short-convolution layers and attention
layers, 6 layers of types [conv, conv, attn, conv, conv, attn]. The file says which is which
only through attention.head_count_kv, an ARRAY of one count per layer (llama.cpp: layer i is
recurrent, a conv layer, where its count is 0), here [0, 0, 2, 0, 0, 2]; attention.head_count
stays a single 4. No key_length / value_length (head_dim 64 = n_embd / n_head), no
rope.dimension_count (whole heads rotate), no sliding_window (llama.cpp would make the
attention layers sliding if it were there and > 0). shortconv.l_cache 3 is the conv's width L.
The final norm is stored as token_embd_norm.weight (llama.cpp's LLM_TENSOR_OUTPUT_NORM_LFM2;
the file has no output_norm.weight), and the head is tied: no output.weight, logits =
token_embd (Q8_0) times the final normed state, as in the released LFM2 files. The BPE
vocabulary is the other families' with tokenizer.ggml.pre "lfm2" (llama.cpp: Llama 3's
pre-tokenizer regex, merges ignored for whole-word tokens, add_bos true unless the file says
otherwise; this file says add_bos_token true, so the prompts start with BOS, id 1).

Every layer, with rms(v) = v / sqrt(mean(v^2) + eps) and eps = 1e-5 (the
attention.layer_norm_rms_epsilon key) for every norm:
  h = x + mixer(rms(x) * attn_norm)
  out = h + ffn_down(silu(ffn_gate(g)) * ffn_up(g)),  g = rms(h) * ffn_norm
(ffn_gate / ffn_up n_embd -> 512, ffn_down 512 -> n_embd, no biases anywhere.)

Conv layers (0, 1, 3, 4), on the normed input u of each token t:
- shortconv.in_proj (n_embd -> 3 * n_embd; ggml {256, 768}): its output's three chunks of 256
  are, in order, b (rows 0..255), c (rows 256..511) and x (rows 512..767);
- bx = b * x elementwise;
- a causal depthwise conv over bx with shortconv.conv (ggml {L, n_embd} = {3, 256}: numpy rows
  are channels, each channel's L = 3 taps oldest first): conv[t][ch] = sum_{j=0..2}
  w[ch][j] * bx[t - 2 + j][ch], so tap 2 multiplies the current token and taps 0, 1 the two
  before it; bx before the start of a sequence is 0 (the state is the previous L - 1 = 2
  tokens' bx, per channel, zero at sequence start). No bias, NO activation after the conv;
- y = c * conv elementwise, then shortconv.out_proj (n_embd -> n_embd; ggml {256, 256}).
Attention layers (2, 5): attn_q (n_embd -> 4 * 64), attn_k and attn_v (n_embd -> 2 * 64), per
head RMS norms of Q and K (attn_q_norm, attn_k_norm, one {64} weight each shared by the heads,
the same eps) BEFORE RoPE; NeoX RoPE (pairs (i, i + 32)) over whole heads, base 1e6, position
= the token's index in its sequence (conv layers have no positions); GQA 2:1 (query head h
reads K/V head h // 2), causal, scores scaled by 1/sqrt(64); then attn_output (4 * 64 ->
n_embd).
After the last layer: logits = token_embd . (rms(x) * token_embd_norm).

All matrices and norms are f32, only token_embd (the tied head) Q8_0, so no half-precision
rounding of weights separates llama.cpp from another implementation. llama.cpp's CPU backend
does round the final normed state to Q8_0 blocks for the head's product (as for every Q8_0
weight), and its flash attention (the fixtures' setting) keeps K and V in f16: with f32 K/V and
no flash attention, a float64 implementation of the above that rounds the head's input as
ggml's quantize_row_q8_0 does agrees with llama.cpp's top-5 probabilities within 1e-5; against
the fixture (flash attention) within 0.014, but only within 0.034 without the head's rounding
(then 4 of the 256 greedy tokens differ).

Weights: b, c and x come out about N(0, 1) and the taps N(0, 0.5^2) each, the current token's no
heavier than the two before it, so a conv layer's output (rms about 0.8, beside the attention
layers' 0.5 and the MLPs' 0.6) depends on the two previous tokens as much as on its own. Over
the fixture's 256 greedy steps, zeroing the taps (the conv layers then write nothing) changes
the greedy token at every step, and so does zeroing only taps 0 and 1 (no mixing across
tokens): the logits move by more than their own spread either way. The tied head: small
embeddings (std 0.05; the control tokens' rows 1/20 of that, so greedy runs never stop early)
and a final norm of gain about 10, for logits of about N(0, 8^2) as the other tied families'.
Greedy margins are like the other families': top-1 above 0.5 in 62% of the fixture's steps,
top-1 and top-2 less than 0.05 apart in 9%.
"""

from __future__ import annotations

import math

import gguf

Q = gguf.GGMLQuantizationType

LAYER_TYPES = ("conv", "conv", "attn", "conv", "conv", "attn")
N_HEAD_KV = 2

# All f32 but the (tied) embeddings, as qwen35's.
LAYOUT = dict(
    seed=0x1F42, n_layer=len(LAYER_TYPES), n_embd=256, n_head=4, n_head_kv=N_HEAD_KV,
    head_dim=64, n_ff=512, rope_base=1e6, eps=1e-5, tied=True, qkv_bias=False, qk_norm=True,
    pre="lfm2", add_bos=True, layer_types=LAYER_TYPES, l_cache=3,
    # attention.head_count_kv, per layer: 0 marks a conv layer
    n_head_kv_layers=[0 if kind == "conv" else N_HEAD_KV for kind in LAYER_TYPES],
    output_norm="token_embd_norm",
    embd_type=Q.Q8_0, embd_std=0.05, matrix_type=Q.F32, down_type=Q.F32,
)


def write_keys(w: gguf.GGUFWriter, L: dict) -> None:
    """The LFM2 key the pinned gguf package predates (the writer's generic code adds the common
    ones, attention.head_count_kv as the per-layer array)."""
    w.add_uint32(f"{w.arch}.shortconv.l_cache", L["l_cache"])


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`; `mt` the type of
    the matrices."""
    p = f"blk.{i}."
    d, ff = L["n_embd"], L["n_ff"]

    t.norm(p + "attn_norm.weight", d)
    if L["layer_types"][i] == "conv":
        short_conv(t, p, L, mt)
    else:
        attention(t, p, L, mt)
    t.norm(p + "ffn_norm.weight", d)
    t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), L["down_type"])


def attention(t, p: str, L: dict, mt: Q) -> None:
    """An attention layer's tensors."""
    d, hd, nh, nkv = L["n_embd"], L["head_dim"], L["n_head"], L["n_head_kv"]
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_k.weight", nkv * hd, d, 1.5 / math.sqrt(d), mt)
    t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    t.norm(p + "attn_q_norm.weight", hd)
    t.norm(p + "attn_k_norm.weight", hd)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)


def short_conv(t, p: str, L: dict, mt: Q) -> None:
    """A short-convolution layer's tensors."""
    d = L["n_embd"]
    # b, c and x (rows in that order), each about N(0, 1) for the normed input.
    t.matrix(p + "shortconv.in_proj.weight", 3 * d, d, 1.0 / math.sqrt(d), mt)
    # ggml {L, n_embd}: numpy rows are channels, each its taps oldest first.
    t.add(p + "shortconv.conv.weight", t.normal((d, L["l_cache"]), 0.5), Q.F32)
    t.matrix(p + "shortconv.out_proj.weight", d, d, 1.0 / math.sqrt(d), mt)
