"""Gemma 4 (`gemma4` GGUF architecture) layouts, vocabulary, keys and tensors for
make-family-models.py: `gemma4` (Gemma 4 E2B style, dense, with per-layer embeddings and
layers that share K/V) and `gemma4moe` (Gemma 4 26B-A4B style, every layer MoE). This module
writes the whole file (make-family-models.py hands it the writer's path and its Tensors class).

Both, scaled down, with llama.cpp's gemma4 graph (src/models/gemma4.cpp) as the reference:

Attention. Each layer is sliding or full (attention.sliding_window_pattern, an array of bools,
true = sliding); a sliding layer sees its own token and the 11 before (attention.sliding_window
12, so the fixtures' longer prompts run past it). The two kinds have heads of different widths:
attention.key_length = value_length = the full layers' (64 in both), key_length_swa =
value_length_swa = the sliding layers' (16 in gemma4, 32 in gemma4moe), under 4 query heads
(attention.head_count), with K/V head counts (attention.head_count_kv, an array per layer) that
make a layer's K/V row (K/V heads x head width) differ by kind, as in real Gemma 4 files (E2B:
1 x 256 sliding vs 1 x 512 full): gemma4 2 x 16 = 32 on sliding layers vs 1 x 64 = 64 on full
ones, gemma4moe 2 x 32 = 64 vs 2 x 64 = 128 (2 K/V heads on every layer). Full layers have no
attn_v: their V is K's projection (Hugging Face's attention_k_eq_v; llama.cpp takes Kcur as Vcur
before either is normed). Per head, Q and K are RMS-normed with weights (attn_q_norm,
attn_k_norm, one weight of the head's width), V is RMS-normed without one; scores are not scaled
(attention scale 1.0: q.k straight into the softmax; gemma4's Q/K norm weights are drawn around
1, gemma4moe's around 0.55, below). RoPE is NeoX (pairs (i, i + n_rot/2));
sliding layers rotate their whole 16 (32) dims at rope.freq_base_swa 1e4
(rope.dimension_count_swa); full layers rotate at rope.freq_base 1e6 over rope.dimension_count =
their whole head width (64), with the frequency of pair i divided by rope_freqs.weight[i]
(head_width/2 = 32 floats, read only by full layers): 1.0 for the first head_width/8 = 8 pairs
and 1e30 for the rest (the converter's "proportional" RoPE with partial_rotary_factor 0.25: pair
i turns at pos * 1e6^(-2i/head_width) for i < head_width/8, the rest not at all).

Layer. h1 = h + post_attention_norm(attention(attn_norm(h))); h2 = h1 + post_ffw_norm(f) for
the MLP's output f (below); [gemma4: h3 = h2 + the per-layer input's term, below]; then the
whole residual (the skip path included) is multiplied by layer_output_scale.weight (one float
per layer, drawn from 0.5 to 1.5, so it compounds over the layers). Norms are stored as they
apply (Gemma 4's converter adds no 1, unlike Gemma 3's), drawn around 1 (1 + N(0, 0.1^2)),
except the final one. The token embedding is multiplied by sqrt(n_embd) on input; the head is
tied to it (no output.weight), its logits soft-capped at 30 (final_logit_softcapping:
30 tanh(z / 30)). The embedding is small (N(0, 0.003^2), its rows' lengths spread
log-normally, exp(N(0, 0.3^2)), RMS kept) and the final norm's weights large (about 206 = 7 /
(0.003 * sqrt(128))), so logits are about N(0, 7^2) with heavier tails than a Gaussian's: with
Gaussian logits the cap at 30 squeezes the top candidates together (top-1 above 0.5 in under
half the steps); with these, in about 70%. Special (CONTROL and USER_DEFINED) rows are 20x
shorter and byte rows 5x, so greedy runs neither stop early nor emit broken UTF-8.

gemma4 (E2B style): n_embd 128, 7 layers [sliding, full, sliding, sliding, full, sliding, full],
heads of 64 (full) and 16 (sliding), 1 K/V head on full layers and 2 on sliding ones (K/V rows
of 64 and 32), attention.shared_kv_layers 2: llama.cpp's rule
(n_layer_kv_from_start = 7 - 2 = 5; a layer il >= 5 reuses layer 5 - 2 = 3's K/V cache if
sliding, layer 5 - 1 = 4's if full) makes layer 5 (sliding) attend over layer 3's sliding K/V
and layer 6 (full) over layer 4's full K/V; layers 5 and 6 have no attn_k, attn_v or
attn_k_norm. The MLP is
f = ffn_down . (gelu_tanh(ffn_gate . x) * (ffn_up . x)) for x = ffn_norm(h1), its width
(feed_forward_length, an array) 128 on layers 0..4 and 256 (use_double_wide_mlp) on the
shared layers 5 and 6. Per-layer inputs (embedding_length_per_layer_input 8):
per_layer_token_embd.weight (8 * 7 = 56 values per token) times sqrt(8), plus
per_layer_proj_norm(per_layer_model_proj . (the scaled token embedding) / sqrt(n_embd)) (the
norm over each layer's 8), the sum times 1/sqrt(2), give each layer il its 8 values p_il
(slice il of 7); after the MLP's residual, h3 = h2 + post_norm(proj . (gelu_tanh(inp_gate . h2)
* p_il)) (blk.N.inp_gate 128 -> 8, blk.N.proj 8 -> 128, blk.N.post_norm), then the layer
output scale. The token embedding and per_layer_token_embd are f16, the rest f32.

gemma4moe (26B-A4B style): n_embd 128, 6 layers [sliding, sliding, full, sliding, sliding,
full], no shared K/V (shared_kv_layers 0) and no per-layer inputs
(embedding_length_per_layer_input 0), heads of 64 (full) and 32 (sliding), 2 K/V heads on
every layer (K/V rows of 128 on full layers, 64 on sliding ones). Its Q and K norm weights are
drawn around 0.55 (0.55 (1 + N(0, 0.1^2))), so scores spread about +-2.4 (full) and +-1.7
(sliding) rather than +-8 and +-5.7: over these wider heads, scores of unit-RMS Q and K made
the model so sensitive that rounding K/V to f16 rather than f32 moved its probabilities by
over 0.1. Every layer's MLP is the graph's MoE branch, on h1 (the residual after attention):
- gemma4's dense MLP on ffn_norm(h1) (feed_forward_length 96, a scalar), its output normed
  by post_ffw_norm_1;
- 4 experts (expert_count) of width 32 (expert_feed_forward_length), separate ffn_gate_exps,
  ffn_up_exps and ffn_down_exps (3-D, the expert index slowest), each GELU-gated as the dense
  MLP, on pre_ffw_norm_2(h1). The router reads not that but r = rms_norm(h1) (no weight) /
  sqrt(n_embd) * ffn_gate_inp.scale (one float per channel, drawn 1 + N(0, 0.25^2)): logits
  = ffn_gate_inp . r, softmax over all 4, the top 2 (expert_used_count) kept and renormalized
  to sum 1. Each chosen expert's down-projection output is multiplied by
  ffn_down_exps.scale[expert] (one float per expert, Hugging Face's router.per_expert_scale;
  llama.cpp's generic loader picks it up as down_exps_s and build_lora_mm_id applies it right
  after the down projection, before the routing weight), then weighted, summed and normed by
  post_ffw_norm_2;
- f = the sum of the two normed parts; h2 = h1 + post_ffw_norm(f) as in gemma4.
The experts come in two pairs, (0, 1) and (2, 3), built so that routing has no knife edges
(with 8 independent experts, the 2nd and 3rd router logits came within 0.001-0.008 of each
other inside the fixtures' prompts, and f16-vs-f32 rounding flipped an expert and with it the
continuation):
- router rows 2k and 2k + 1 are u_k and -u_k (u_k of N(0, 3^2), so logits of about
  N(0, 3^2)): the logits are x, -x, y, -y, the top 2 always one expert of each pair (expert 0
  or 1 by the sign of x, 2 or 3 by that of y), weighted softmax(|x|, |y|);
- expert 2k + 1 computes expert 2k's function exactly: its hidden units permuted (gate and
  up rows, down columns), its up rows doubled and its down scale halved (powers of 2, so in
  floats too, up to summation order), so a pair's choice, which flips only where its two
  logits cross at 0, changes nothing: the layer is continuous in r;
- pair 0's down scale is drawn from 0.4 to 0.8 and pair 1's from 1.2 to 1.6 (expert 2k + 1
  at half its pair's), so the mix of the two pairs hinges on the scales.
An implementation that ignores ffn_down_exps.scale or ffn_gate_inp.scale, routes from
pre_ffw_norm_2(h1), picks the bottom 2, or takes the scales by rank or a pair's second expert
at its first's scale still moves the first step's top-1 probability by 0.05 or more on 6 to 8
of the 8 fixture prompts (0.2 to 0.4 on a typical one).
The token embedding is q8_0, the rest f32.

Vocabulary (both): llama.cpp's "gemma4" tokenizer model, BPE on raw UTF-8 with spaces written
as U+2581 (no space prefix), pre-split only into runs of newlines and runs of anything else; a
run of newlines that is itself a token ("\\n", "\\n\\n", "\\n\\n\\n") is taken whole, longer
runs go through BPE, which has no newline merges (so four newlines are 4 x "\\n"); characters
the vocabulary lacks fall back to byte tokens <0x00>..<0xFF> (type BYTE). No tokenizer.ggml.pre
key (the converter writes none; llama.cpp's "gemma4" tokenizer model implies it),
add_bos_token true (llama.cpp forces it for gemma4 anyway), add_eos_token false, every score
-1000 (as the converter's LlamaHfVocab writes them). Ids: <pad> 0, <eos> 1, <bos> 2, <unk> 3,
<|turn> 4, <turn|> 5 (all CONTROL), then USER_DEFINED, as the converter marks them: <|tool_call>
6, <tool_call|> 7, <|tool_response> 8, <tool_response|> 9, <|"|> 10, <|channel> 11,
<channel|> 12 (llama.cpp makes <eos>, <turn|> and <|tool_response> end-of-generation and turns
<|tool_response> into CONTROL, warning about it); the 256 byte tokens 13..268; "\\n", "\\n\\n",
"\\n\\n\\n" 269..271; the single characters (U+2581, letters, digits, punctuation, tab, a few
accented ones); then one token per merge (640 in tokenizer.ggml.merges; 1018 tokens in all), in
merge order, learned by plain BPE training on family_models_spm.py's English word list (with
U+2581 in front, capitalised, with suffixes, plus the turn roles, some words of the fixtures'
prose, runs of U+2581 and a few code pieces), so "user", "model", "▁the", "▁station" or
"▁lighthouse" are single tokens. The chat template is Gemma 4's turn format
(<|turn>user\\n...<turn|>\\n ... <|turn>model\\n).
"""

from __future__ import annotations

import functools
import math
from collections import Counter

import gguf
import numpy as np

from family_models_spm import PUNCT, SUFFIXES, WORDS

Q = gguf.GGMLQuantizationType

SPACE = "\u2581"

# Layer kinds: True = sliding.
S, F = True, False

# Tied heads over small embeddings (embd_std 0.003: the current token's own embedding, which
# the residual stream carries to the head, then adds little to its own logit) with rows of
# log-normally spread lengths (embd_row_spread) and final norms of about
# logit_std / (embd_std * sqrt(n_embd)) = 7 / (0.003 * 11.3) = 206: logits of about N(0, 7^2)
# with heavier tails, so after the soft cap at 30 the top candidate still usually stands clear
# (with Gaussian logits the cap leaves top-1 above 0.5 in under half the steps).
LAYOUT = dict(
    arch="gemma4", seed=0x6E4, n_layer=7, n_embd=128, n_head=4, head_dim=64, head_dim_swa=16,
    n_head_kv=1, n_head_kv_swa=2, swa=[S, F, S, S, F, S, F], shared_kv_layers=2,
    sliding_window=12, rope_base=1e6, rope_base_swa=1e4, partial_rotary_factor=0.25,
    eps=1e-6, n_ff=128, double_wide_mlp=True, per_layer=8, final_logit_softcapping=30.0,
    embd_std=0.003, embd_row_spread=0.3, logit_std=7.0,
    embd_type=Q.F16, per_layer_embd_type=Q.F16, matrix_type=Q.F32,
)
MOE = dict(
    arch="gemma4", seed=0x6E4E, n_layer=6, n_embd=128, n_head=4, head_dim=64, head_dim_swa=32,
    n_head_kv=2, n_head_kv_swa=2, swa=[S, S, F, S, S, F], shared_kv_layers=0,
    sliding_window=12, rope_base=1e6, rope_base_swa=1e4, partial_rotary_factor=0.25,
    eps=1e-6, n_ff=96, double_wide_mlp=False, per_layer=0, final_logit_softcapping=30.0,
    experts=4, experts_used=2, expert_ff=32, router_std=3.0,
    expert_pair_scales=((0.4, 0.8), (1.2, 1.6)), qk_norm_gain=0.55,
    embd_std=0.003, embd_row_spread=0.3, logit_std=7.0,
    embd_type=Q.Q8_0, matrix_type=Q.F32,
)


# --------------------------------------------------------------------------------------------
# Vocabulary

SPECIALS = [("<pad>", 3), ("<eos>", 3), ("<bos>", 3), ("<unk>", 3), ("<|turn>", 3),
            ("<turn|>", 3), ("<|tool_call>", 4), ("<tool_call|>", 4), ("<|tool_response>", 4),
            ("<tool_response|>", 4), ('<|"|>', 4), ("<|channel>", 4), ("<channel|>", 4)]
NEWLINES = ["\n", "\n\n", "\n\n\n"]
N_MERGES = 640

CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{%- for message in messages -%}"
    "{%- if message['role'] == 'assistant' -%}{%- set role = 'model' -%}"
    "{%- else -%}{%- set role = message['role'] -%}{%- endif -%}"
    "{{ '<|turn>' + role + '\n' + message['content'] | trim + '<turn|>\n' }}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ '<|turn>model\n' }}{%- endif -%}"
)


# Words of chat turns and of everyday prose past spm's list, made common enough to merge.
EXTRA_WORDS = """
user model system tool quick brown fox jumps lazy dog upon village lived boils hundred degrees
pressure return shipped items walked station morning bought ticket train window years watching
fields rivers hills history lighthouse coastal harbour towns fires ships keepers towers capital
France Paris
""".split()


def training_words() -> Counter:
    """Word (as it appears in a line: U+2581 for the space before it) -> count."""
    words: Counter = Counter()
    seen = list(dict.fromkeys(WORDS))
    for rank, w in enumerate(seen):
        n = max(2, 4000 // (rank + 20))
        words[SPACE + w] += n
        words[w] += max(1, n // 4)
        if rank < 150:
            cap = w[:1].upper() + w[1:]
            words[SPACE + cap] += max(1, n // 2)
            words[cap] += max(1, n // 3)
        if rank < 300 and len(w) >= 4:
            for s in SUFFIXES[:4]:
                words[SPACE + w + s] += max(1, n // 6)
    for w in EXTRA_WORDS:
        words[SPACE + w] += 40
        words[w] += 10
    # The turn roles follow <|turn> directly, with no space.
    for w in ("user", "model", "system"):
        words[w] += 300
    for s in SUFFIXES:
        words[s] += 3
    for run, n in ((SPACE * 2, 40), (SPACE * 4, 60), (SPACE * 8, 20)):
        words[run] += n
    for piece in ("():", "()", "->", "==", "!=", SPACE + "=", SPACE + "==", SPACE + "+",
                  SPACE + "-", SPACE + "(", "'s", "n't", "...", "),", ").", "\",", ".\"",
                  SPACE + "\""):
        words[piece] += 30
    for d in range(100):
        words[SPACE + str(d)] += 4
        words[str(d)] += 2
    return words


def train_merges(words: Counter, n_merges: int) -> list[tuple[str, str]]:
    """Plain BPE training: repeatedly merge the commonest adjacent pair (ties broken by the
    pair's text), starting from single characters."""
    corpus = [(list(w), n) for w, n in sorted(words.items())]
    merges = []
    for _ in range(n_merges):
        pairs: Counter = Counter()
        for syms, n in corpus:
            for a, b in zip(syms, syms[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        best = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        merges.append(best)
        joined = best[0] + best[1]
        for syms, _ in corpus:
            i = 0
            while i < len(syms) - 1:
                if syms[i] == best[0] and syms[i + 1] == best[1]:
                    syms[i:i + 2] = [joined]
                i += 1
    return merges


@functools.lru_cache(maxsize=None)
def gemma4_vocab() -> dict:
    """Tokens, types, scores, merges and special ids of the vocabulary (the module docstring
    gives its layout)."""
    tokens = [t for t, _ in SPECIALS]
    types = [ty for _, ty in SPECIALS]
    for b in range(256):
        tokens.append(f"<0x{b:02X}>")
        types.append(6)
    chars = ([SPACE] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
             + [chr(c) for c in range(ord("A"), ord("Z") + 1)] + list("0123456789") + PUNCT
             + ["\t"] + list("éèàüöäçñ—…"))
    words = training_words()
    # Characters of the training words that are not above (none expected).
    extra = sorted({c for w in words for c in w} - set(chars))
    pieces = NEWLINES + chars + extra
    merges = train_merges(words, N_MERGES)
    for a, b in merges:
        pieces.append(a + b)
    assert len(set(pieces)) == len(pieces), "duplicate pieces"
    tokens += pieces
    types += [1] * len(pieces)
    ids = {t: i for i, t in enumerate(tokens)}
    return {
        "tokens": tokens, "types": types, "scores": [-1000.0] * len(tokens),
        "merges": [f"{a} {b}" for a, b in merges],
        "bos": ids["<bos>"], "eos": ids["<eos>"], "unk": ids["<unk>"], "pad": ids["<pad>"],
    }


# --------------------------------------------------------------------------------------------
# Keys and tensors


def head_dim(L: dict, i: int) -> int:
    return L["head_dim_swa"] if L["swa"][i] else L["head_dim"]


def n_head_kv(L: dict, i: int) -> int:
    return L["n_head_kv_swa"] if L["swa"][i] else L["n_head_kv"]


def has_kv(L: dict, i: int) -> bool:
    """Whether layer i computes K/V of its own (llama.cpp's has_kv)."""
    return i < L["n_layer"] - L["shared_kv_layers"]


def kv_source(L: dict, i: int) -> int:
    """The layer whose K/V layer i attends over (llama.cpp's reuse rule)."""
    first_shared = L["n_layer"] - L["shared_kv_layers"]
    if i < first_shared:
        return i
    return first_shared - (2 if L["swa"][i] else 1)


def ff_widths(L: dict) -> list[int]:
    first_shared = L["n_layer"] - L["shared_kv_layers"]
    if not L["double_wide_mlp"]:
        return [L["n_ff"]] * L["n_layer"]
    return [L["n_ff"] if i < first_shared else 2 * L["n_ff"] for i in range(L["n_layer"])]


def rope_freqs(L: dict) -> np.ndarray:
    """The full layers' frequency divisors: "proportional" RoPE over the first
    partial_rotary_factor of the head (1.0), none for the rest (1e30), as the converter's
    generate_extra_tensors writes them."""
    n_rot = int(L["head_dim"] * L["partial_rotary_factor"] / 2)
    return np.array([1.0] * n_rot + [1e30] * (L["head_dim"] // 2 - n_rot), dtype=np.float32)


def write_keys(w: gguf.GGUFWriter, L: dict, context_length: int) -> None:
    """Gemma 4's keys, by the names llama.cpp reads (the pinned gguf package predates the
    architecture, so the *_swa, shared-KV, per-layer and pattern keys are written by name)."""
    a = w.arch
    n = L["n_layer"]
    for i in range(n):
        # llama.cpp's reuse rule must land on a layer of the same kind.
        assert L["swa"][kv_source(L, i)] == L["swa"][i]
    # The two kinds' K/V rows (K/V heads x head width) differ, as in real Gemma 4 files.
    assert L["n_head_kv"] * L["head_dim"] != L["n_head_kv_swa"] * L["head_dim_swa"]
    w.add_context_length(context_length)
    w.add_embedding_length(L["n_embd"])
    w.add_block_count(n)
    if L["double_wide_mlp"]:
        w.add_feed_forward_length(ff_widths(L))
    else:
        w.add_feed_forward_length(L["n_ff"])
    w.add_head_count(L["n_head"])
    w.add_head_count_kv([n_head_kv(L, i) for i in range(n)])
    w.add_rope_freq_base(L["rope_base"])
    w.add_float32(f"{a}.rope.freq_base_swa", L["rope_base_swa"])
    w.add_layer_norm_rms_eps(L["eps"])
    w.add_key_length(L["head_dim"])
    w.add_value_length(L["head_dim"])
    w.add_uint32(f"{a}.attention.key_length_swa", L["head_dim_swa"])
    w.add_uint32(f"{a}.attention.value_length_swa", L["head_dim_swa"])
    w.add_final_logit_softcapping(L["final_logit_softcapping"])
    w.add_sliding_window(L["sliding_window"])
    w.add_uint32(f"{a}.attention.shared_kv_layers", L["shared_kv_layers"])
    w.add_uint32(f"{a}.embedding_length_per_layer_input", L["per_layer"])
    w.add_array(f"{a}.attention.sliding_window_pattern", list(L["swa"]))
    w.add_rope_dimension_count(L["head_dim"])
    w.add_uint32(f"{a}.rope.dimension_count_swa", L["head_dim_swa"])
    if "experts" in L:
        w.add_expert_count(L["experts"])
        w.add_expert_used_count(L["experts_used"])
        w.add_expert_feed_forward_length(L["expert_ff"])


def write_vocab(w: gguf.GGUFWriter, vocab: dict) -> None:
    w.add_tokenizer_model("gemma4")
    w.add_token_list(vocab["tokens"])
    w.add_token_scores(vocab["scores"])
    w.add_token_types(vocab["types"])
    w.add_token_merges(vocab["merges"])
    w.add_bos_token_id(vocab["bos"])
    w.add_eos_token_id(vocab["eos"])
    w.add_unk_token_id(vocab["unk"])
    w.add_pad_token_id(vocab["pad"])
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)
    w.add_add_space_prefix(False)
    w.add_chat_template(CHAT_TEMPLATE)


def write_model(out, family: str, L: dict, tensors_class, context_length: int) -> None:
    """The whole file: keys, vocabulary, then tensors drawn from `tensors_class`
    (make-family-models.py's Tensors) seeded with the layout's seed."""
    vocab = gemma4_vocab()
    n_vocab = len(vocab["tokens"])
    d, mt = L["n_embd"], L["matrix_type"]

    w = gguf.GGUFWriter(str(out), L["arch"])
    w.add_name(f"radixserve test {family}")
    write_keys(w, L, context_length)
    w.add_vocab_size(n_vocab)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    write_vocab(w, vocab)

    t = tensors_class(w, L["seed"])
    types = np.array(vocab["types"])
    # Special tokens (CONTROL and USER_DEFINED) and byte tokens get short rows in the tied
    # head, so greedy runs neither stop on an end-of-generation token nor emit bytes that
    # make invalid UTF-8 (for which llama-server reports no probabilities).
    special = (types == 3) | (types == 4)
    byte = types == 6

    embd_std = L["embd_std"]
    embd = t.normal((n_vocab, d), embd_std)
    # Rows of log-normally spread lengths (RMS kept at embd_std): the tied head's logits get
    # heavier tails than a Gaussian's, so the top candidate usually stands clear of the rest
    # even after the soft cap squeezes the largest logits together.
    rows = np.exp(t.normal((n_vocab, 1), L["embd_row_spread"]))
    embd *= rows / np.sqrt(np.mean(rows ** 2))
    embd[special] *= 0.05
    embd[byte] *= 0.2
    t.add("token_embd.weight", embd, L["embd_type"])

    n, npl = L["n_layer"], L["per_layer"]
    if npl:
        # Times sqrt(8) in the graph: about N(0, 1).
        t.add("per_layer_token_embd.weight", t.normal((n_vocab, npl * n), 1.0 / math.sqrt(npl)),
              L["per_layer_embd_type"])
        t.add("per_layer_model_proj.weight", t.normal((npl * n, d), 1.0), mt)
        t.norm("per_layer_proj_norm.weight", npl)

    for i in range(n):
        write_layer(t, i, L, mt)

    # The tied head's logits: about N(0, logit_std^2) for a unit-RMS final state.
    t.norm("output_norm.weight", d, L["logit_std"] / (embd_std * math.sqrt(d)))
    t.add("rope_freqs.weight", rope_freqs(L), Q.F32)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def write_layer(t, i: int, L: dict, mt: Q) -> None:
    """Layer i's tensors, drawn from make-family-models.py's Tensors `t`."""
    p = f"blk.{i}."
    d, nh, hd, nkv = L["n_embd"], L["n_head"], head_dim(L, i), n_head_kv(L, i)

    t.norm(p + "attn_norm.weight", d)
    # Q and K are normed per head and V as a whole head, so these scales matter only against
    # the norms' epsilon.
    t.matrix(p + "attn_q.weight", nh * hd, d, 1.0 / math.sqrt(d), mt)
    if has_kv(L, i):
        t.matrix(p + "attn_k.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
        if L["swa"][i]:
            # Full layers have none: their V is K's projection.
            t.matrix(p + "attn_v.weight", nkv * hd, d, 1.0 / math.sqrt(d), mt)
    # Scores are q.k unscaled: over heads of 64 (32) normed to RMS 1 they spread about +-8
    # (+-5.7), so sharp that f16 rounding of K/V moves gemma4moe's probabilities by over 0.1;
    # its norms (qk_norm_gain, 0.55 each) bring that to about +-2.4 (+-1.7).
    gain = L.get("qk_norm_gain", 1.0)
    t.norm(p + "attn_q_norm.weight", hd, gain)
    if has_kv(L, i):
        t.norm(p + "attn_k_norm.weight", hd, gain)
    t.matrix(p + "attn_output.weight", d, nh * hd, 1.0 / math.sqrt(nh * hd), mt)
    t.norm(p + "post_attention_norm.weight", d)

    ff = ff_widths(L)[i]
    t.norm(p + "ffn_norm.weight", d)
    t.matrix(p + "ffn_gate.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_up.weight", ff, d, 1.0 / math.sqrt(d), mt)
    t.matrix(p + "ffn_down.weight", d, ff, 1.0 / math.sqrt(ff), mt)
    if "experts" in L:
        write_experts(t, p, L, mt)
    t.norm(p + "post_ffw_norm.weight", d)

    if L["per_layer"]:
        npl = L["per_layer"]
        t.matrix(p + "inp_gate.weight", npl, d, 1.0 / math.sqrt(d), mt)
        t.matrix(p + "proj.weight", d, npl, 1.0 / math.sqrt(npl), mt)
        t.norm(p + "post_norm.weight", d)
    t.add(p + "layer_output_scale.weight", uniform(t, (1,), 0.5, 1.5), Q.F32)


def write_experts(t, p: str, L: dict, mt: Q) -> None:
    """A MoE layer's norms, router and experts (prefix `p`), drawn from `t`: experts in pairs
    (2k, 2k + 1) that compute the same function, routed by opposite router rows (the module
    docstring tells why)."""
    d, ne, eff = L["n_embd"], L["experts"], L["expert_ff"]
    pairs = ne // 2
    t.norm(p + "post_ffw_norm_1.weight", d)
    t.norm(p + "pre_ffw_norm_2.weight", d)
    # The router's input, rms_norm(h1) / sqrt(n_embd) * scale, is about N(0, 1/128) per
    # channel, so rows of N(0, 3^2) give logits of about N(0, 3^2). Rows 2k and 2k + 1 are
    # u_k and -u_k: the top 2 take one expert of each pair (the one on u_k's side of r), and
    # which one changes only where the pair's two logits cross at 0, between two experts that
    # compute the same function, so the layer's output is continuous in r.
    u = t.normal((pairs, d), L["router_std"])
    t.add(p + "ffn_gate_inp.weight", np.stack([u, -u], axis=1).reshape(ne, d), Q.F32)
    t.add(p + "ffn_gate_inp.scale", 1.0 + t.normal((d,), 0.25), Q.F32)
    gate = t.normal((pairs, eff, d), 1.0 / math.sqrt(d))
    up = t.normal((pairs, eff, d), 1.0 / math.sqrt(d))
    down = t.normal((pairs, d, eff), 1.0 / math.sqrt(eff))
    # Pair k's down scale (pair 0's below pair 1's, so their mix hinges on the scales).
    scale = np.array([uniform(t, (1,), lo, hi)[0] for lo, hi in L["expert_pair_scales"]])
    gate_e = np.empty((ne, eff, d), np.float32)
    up_e = np.empty((ne, eff, d), np.float32)
    down_e = np.empty((ne, d, eff), np.float32)
    scale_e = np.empty(ne, np.float32)
    for k in range(pairs):
        # Expert 2k + 1 is expert 2k with its hidden units permuted, its up rows doubled and
        # its down scale halved: the same function, exactly (powers of 2), stored differently.
        perm = t.rng.permutation(eff)
        gate_e[2 * k], up_e[2 * k], down_e[2 * k] = gate[k], up[k], down[k]
        gate_e[2 * k + 1], up_e[2 * k + 1] = gate[k][perm], 2.0 * up[k][perm]
        down_e[2 * k + 1] = down[k][:, perm]
        scale_e[2 * k], scale_e[2 * k + 1] = scale[k], scale[k] / 2.0
    t.add(p + "ffn_gate_exps.weight", gate_e, mt)
    t.add(p + "ffn_up_exps.weight", up_e, mt)
    t.add(p + "ffn_down_exps.weight", down_e, mt)
    t.add(p + "ffn_down_exps.scale", scale_e, Q.F32)
    t.norm(p + "post_ffw_norm_2.weight", d)


def uniform(t, shape, low: float, high: float) -> np.ndarray:
    """Values drawn uniformly from [low, high) by `t`'s generator."""
    return (low + (high - low) * t.rng.random(shape)).astype(np.float32)
