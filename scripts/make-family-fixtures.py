#!/usr/bin/env python3
"""Regenerates engine/tests/fixtures/families/<family>.json.

For each of the small random-weight models that scripts/make-family-models.py writes (llama,
qwen2, qwen3, qwen3moe, gemma2, gemma3, smollm3, phi3, granite, granitemoe plain and with
shared experts, gpt-oss, olmo2, deepseek2 in its MLA and legacy (V2-Lite) forms and MLA with
Mistral Large 3's attention temperature (a step of 16 positions), glm4moe (GLM-4.5-Air style,
with a multi-token-prediction layer llama.cpp's main graph skips), qwen2moe (Qwen1.5-MoE style,
a gated shared expert), minimax-m2 (MiniMax-M2 style), mistral3 (Ministral 3 style: YaRN and
Llama 4's attention temperature over an original context of 16 positions), llama4 (Llama 4
Scout style: a NoPE layer, dense and MoE layers alternating), qwen35 and qwen35moe (Qwen3.5
style: gated-delta-net layers, whose recurrence the longer prompts run over up to 130 tokens,
between gated full-attention ones; dense and MoE), qwen3next (Qwen3-Next style, MoE, its value
heads grouped by key head; twice, the same weights in the converter's attn_qkv/attn_gate layout
and in the legacy ssm_in one, whose fixtures agree up to float noise), gemma4 (Gemma 4 E2B
style: sliding and full layers with heads and K/V rows of different widths, K as V on full
layers, the last two layers attending over earlier layers' K/V, per-layer embeddings, Gemma 4's
BPE vocabulary), gemma4moe (26B-A4B style: the same attention, a dense MLP beside 4 scaled
experts, 2 used, in every layer), lfm2 (LFM2-350M style: gated short-convolution layers, whose
state carries across tokens, between attention layers; a tied head), lfm2moe (LFM2-8B-A1B
style: the same layers, after two dense MLPs 8 experts, 2 used, chosen by sigmoid scores plus a
selection bias), exaone4 (EXAONE 4.0 32B style: post-norms only, 64 layers, three of every
four sliding over 16 keys with RoPE, the fourth global without RoPE), granite_hybrid (Granite
4.0-H style: Mamba-2 layers, whose state carries across tokens, between attention layers
without RoPE; Granite's multipliers), granite_hybrid_moe (the same layers with RoPE, every MLP
4 softmax-routed experts, 2 used, beside a shared one), nemotron_h (Nemotron-H / Nano 9B v2
style: every layer one of a Mamba-2 mixer, an attention mixer without RoPE or a ReLU-squared
MLP, told apart by per-layer feed_forward_length and head_count_kv), phi3's two LongRoPE
variants and a Mixtral-style llama), runs llama.cpp's llama-server (with a 4,096-token context)
on the GGUF and records, per prompt, llama.cpp's tokenization (with BOS where the model adds
one) and a 32-step greedy continuation with the top-5 next-token probabilities, so the engine's
forward pass for every family is checked against an implementation we did not write.
llama4_long (the llama4 weights, trained for 16,384 positions) gets one prompt of 8,506 tokens
instead, with a 16-step continuation and a 9,216-token context: past position 8,191, where
Llama 4's attention chunks and NoPE temperature begin to matter.
For gemma3 and phi3 (SentencePiece-style vocabularies, without and with a space prefix) and
gemma4 (BPE over U+2581-escaped text with byte fallback) it also records llama.cpp's ids for a
set of awkward strings.

Usage: scripts/make-family-fixtures.py [--server PATH] [--models DIR] [--out DIR] [FAMILY ...]
Run scripts/fetch-family-models.sh first. Stdlib only.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ("llama", "qwen2", "qwen3", "gemma3", "smollm3", "phi3", "phi3_longrope_short",
            "phi3_longrope_long", "gemma2", "qwen3moe", "llama_moe", "granite", "gpt_oss", "olmo2",
            "granite_moe", "granite_moe_shared", "deepseek2", "deepseek2_lite", "glm4moe",
            "qwen2moe", "minimax_m2", "mistral3", "deepseek2_temperature", "llama4", "llama4_long",
            "qwen35", "qwen35moe", "qwen3next", "qwen3next_ssm_in", "gemma4", "gemma4moe",
            "lfm2", "lfm2moe", "exaone4", "granite_hybrid", "granite_hybrid_moe", "nemotron_h")
# Families with a SentencePiece(-style) vocabulary, whose tokenization of tricky strings is
# recorded (gemma4moe has gemma4's vocabulary).
SPM_FAMILIES = ("gemma3", "phi3", "gemma4")


def _load_reference_helpers():
    """Server, sha256_file, candidates and dump_compact from make-reference-fixtures.py,
    so both fixture sets run llama-server the same way."""
    path = Path(__file__).resolve().parent / "make-reference-fixtures.py"
    spec = importlib.util.spec_from_file_location("make_reference_fixtures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load_reference_helpers()
Server, sha256_file, candidates, dump_compact = (
    ref.Server, ref.sha256_file, ref.candidates, ref.dump_compact)

N_PREDICT = ref.N_PREDICT
N_PROBS = ref.N_PROBS

MEDIUM = (
    "She walked to the station early in the morning, bought a ticket for the first train "
    "north, and sat by the window with a book she had been meaning to read for years, "
    "watching the fields and rivers pass until the city was gone behind the hills."
)

LONG = (
    "The history of the lighthouse is, in many ways, the history of coastal trade itself. "
    "Long before electric lamps and rotating lenses, harbour towns kept fires burning on "
    "headlands so that returning ships could find the entrance to the bay after dark. These "
    "early beacons were unreliable: rain put them out, wind scattered the embers, and the "
    "keepers sometimes fell asleep at their posts. As shipping grew busier, governments began "
    "to build permanent stone towers, staffed by trained keepers who lived with their "
    "families at the foot of the light. Every evening the keeper trimmed the wicks, polished "
    "the glass, and wound the clockwork that turned the lens."
)

# llama4_long's one prompt (LONG_FAMILIES): numbered lines, each a sentence drawn from four
# lists of coprime lengths (7, 5, 11, 13), so no two lines are alike. 453 of them make 8,506
# tokens with BOS, whose last 314 and the 16-token continuation lie in the RoPE layers' second
# attention chunk (from position 8,192) and past the NoPE layer's first temperature step
# (8,191). The count is one (of 436 to 456 lines) where llama.cpp's top two candidates are at
# least 0.1 apart at every step (0.122 at the closest), so the engine's test checks all 16.
# llama-server caps a slot's context at the training one (16,384 in that file).
LONG_FAMILIES = {"llama4_long": 9216}  # family -> llama-server's context
LONG_LINES = 453
LONG_PREDICT = 16
LONG_SUBJECTS = ("The keeper", "A fisherman", "The harbour master", "An old sailor",
                 "The ferry crew", "A young clerk", "The lighthouse cat")
LONG_ACTIONS = ("carried", "painted", "counted", "repaired", "lost")
LONG_OBJECTS = ("a brass lantern", "three wooden crates", "the tide tables", "a torn sail",
                "twelve coils of rope", "the signal flags", "a letter from the mainland",
                "the spare lens", "a basket of mackerel", "the logbook", "two oars")
LONG_PLACES = ("along the harbour wall", "before dawn", "in the storm", "near the north pier",
               "after the bell rang", "under the grey clouds", "by the old customs house",
               "while the gulls circled", "at low tide", "beside the slipway",
               "on the second Tuesday", "in the fog", "past the breakwater")


def long_prompt(lines: int = LONG_LINES) -> str:
    """'Line 1: A fisherman painted three wooden crates before dawn.' and so on, one a line."""
    return "\n".join(
        f"Line {n}: {LONG_SUBJECTS[n % 7]} {LONG_ACTIONS[n % 5]} {LONG_OBJECTS[n % 11]} "
        f"{LONG_PLACES[n % 13]}." for n in range(1, lines + 1))


COMMON_PROMPTS = [
    "The quick brown fox jumps over the lazy dog.",
    "Once upon a time, in a small village by the sea, there lived",
    "Water boils at one hundred degrees at sea level, but on a high mountain it boils at a "
    "lower temperature because the air pressure is lower.",
    "def fibonacci(n):\n    if n < 2:\n        return n\n    return",
    "Order 12345 shipped on 2024-03-15 for $99.99 (3 items, 7.5 kg).",
    MEDIUM,
    LONG,
]

CHAT_PROMPT = {
    "llama": "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
    "qwen2": "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
    "qwen3": "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
    "gemma3": "<start_of_turn>user\nWhat is the capital of France?<end_of_turn>\n"
              "<start_of_turn>model\n",
    "smollm3": "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
    "phi3": "<|user|>\nWhat is the capital of France?<|end|>\n<|assistant|>\n",
}
CHAT_PROMPT["gemma2"] = CHAT_PROMPT["gemma3"]
CHAT_PROMPT["gemma4"] = "<|turn>user\nWhat is the capital of France?<turn|>\n<|turn>model\n"
CHAT_PROMPT["gemma4moe"] = CHAT_PROMPT["gemma4"]
CHAT_PROMPT["qwen3moe"] = CHAT_PROMPT["qwen3"]
CHAT_PROMPT["llama_moe"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["granite"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["gpt_oss"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["olmo2"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["granite_moe"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["granite_moe_shared"] = CHAT_PROMPT["granite_moe"]
CHAT_PROMPT["deepseek2"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["deepseek2_lite"] = CHAT_PROMPT["llama"]
CHAT_PROMPT["glm4moe"] = CHAT_PROMPT["llama"]
for _family in ("qwen2moe", "minimax_m2", "mistral3", "deepseek2_temperature", "llama4", "qwen35",
                "qwen35moe", "qwen3next", "qwen3next_ssm_in", "lfm2", "lfm2moe", "exaone4",
                "granite_hybrid", "granite_hybrid_moe", "nemotron_h"):
    CHAT_PROMPT[_family] = CHAT_PROMPT["llama"]
# phi3's LongRoPE variants: the same vocabulary and prompts (their tokenization is phi3's).
for _variant in ("phi3_longrope_short", "phi3_longrope_long"):
    CHAT_PROMPT[_variant] = CHAT_PROMPT["phi3"]

# Strings whose SentencePiece tokenization is easy to get subtly wrong: (text, parse_special).
SPM_TOKENIZATION = [
    ("", False),
    (" ", False),
    ("   ", False),
    ("Hello world", False),
    (" Hello world", False),
    ("Hello world ", False),
    ("Hello   world", False),
    ("  two  spaces  ", False),
    ("\n", False),
    ("line one\nline two", False),
    ("para one\n\n\npara two", False),
    ("\tindented\twith\ttabs", False),
    ("The THE the tHe", False),
    ("don't can't it's", False),
    ("café résumé naïve", False),
    ("中文", False),
    ("emoji 🚀 and 🙂!", False),
    ("xylophone quizzically zephyr", False),
    ("unbelievableness", False),
    ("12345 67 890 3.14159", False),
    ("2024-03-15 $99.99", False),
    ("a\u00a0b", False),
    ("def f(x):\n    return x * 2", False),
]

# Each SentencePiece family's own special tokens, parsed and not (after the common cases).
SPM_SPECIAL_TOKENIZATION = {
    "gemma3": [
        ("<start_of_turn>user\nHi<end_of_turn>\n", True),
        ("<start_of_turn>user\nHi<end_of_turn>\n", False),
        ("<bos>text<eos>", True),
    ],
    # Gemma 4's turn markers (control tokens, parsed only when asked) and its tool and channel
    # markers (user-defined: matched in any text); runs of newlines, whole when a token, else
    # one "\n" each; whitespace runs and a word the merges cannot build.
    "gemma4": [
        ("<|turn>user\nHi<turn|>\n<|turn>model\n", True),
        ("<|turn>user\nHi<turn|>\n", False),
        ("<bos>text<eos>", True),
        ("<|tool_call>call:f{x:<|\"|>a<|\"|>}<tool_call|>", False),
        ("<|channel>thought\nhmm<channel|>done", False),
        ("<|tool_response>ok<tool_response|>", True),
        ("a\n\nb\n\n\nc\n\n\n\nd\n\n\n\n\n\ne", False),
        ("\n\n", False),
        ("\n \n", False),
        ("    indented\n        more", False),
        ("the thing they thought", False),
    ],
    # Phi-3's special tokens swallow the whitespace after them (llama.cpp's rstrip), except
    # <s>, <unk> and <|endoftext|>.
    "phi3": [
        ("<|user|>\nHi<|end|>\n<|assistant|>\n", True),
        ("<|user|>\nHi<|end|>\n", False),
        ("<|system|>  two spaces<|end|>\n\n<|user|> x", True),
        ("<s> text</s> more", True),
        ("<|endoftext|> after", True),
    ],
}


def tokenize(server: Server, text: str, add_special: bool, parse_special: bool) -> list[int]:
    return server.request("/tokenize", {
        "content": text, "add_special": add_special, "parse_special": parse_special,
    })["tokens"]


def reference_for(server: Server, prompt: str, filler_id: int,
                  n_predict: int = N_PREDICT) -> tuple[dict, list[str]]:
    notes = []
    # The model's own BOS rule applies (add_special); special-token text in the prompt is
    # parsed as the special token.
    ids = tokenize(server, prompt, add_special=True, parse_special=True)
    plain = tokenize(server, prompt, add_special=False, parse_special=True)
    back = server.request("/detokenize", {"tokens": plain})["content"]
    if back != prompt:
        notes.append(f"detokenize mismatch: {back!r} != {prompt!r}")

    entry, more = ref.reference_from_ids(server, prompt, ids, filler_id, n_predict)
    return entry, notes + more


def tokenization_cases(server: Server, family: str) -> tuple[list[dict], list[str]]:
    cases, notes = [], []
    for text, parse_special in SPM_TOKENIZATION + SPM_SPECIAL_TOKENIZATION[family]:
        ids = tokenize(server, text, add_special=False, parse_special=parse_special)
        back = server.request("/detokenize", {"tokens": ids})["content"] if ids else ""
        if back != text:
            notes.append(f"tokenization {text!r}: detokenizes to {back!r}")
        cases.append({"text": text, "parse_special": parse_special, "ids": ids})
    return cases, notes


def peak_stats(records: list[dict]) -> dict:
    gaps, p1 = [], []
    for rec in records:
        for cands in rec["top_candidates"]:
            gaps.append(cands[0][1] - cands[1][1])
            p1.append(cands[0][1])
    return {
        "steps": len(gaps),
        "top1_over_0.5": round(sum(p > 0.5 for p in p1) / len(p1), 3),
        "gap_under_0.05": round(sum(g < 0.05 for g in gaps) / len(gaps), 3),
        "min_gap": round(min(gaps), 6),
    }


def run_family(family: str, args, version_file: Path) -> int:
    model = args.models / f"{family}.gguf"
    if not model.exists():
        print(f"missing {model} (run scripts/fetch-family-models.sh)", file=sys.stderr)
        return 1
    started = time.monotonic()
    log_path = Path(tempfile.gettempdir()) / f"llama-server-family-{family}.log"
    long = family in LONG_FAMILIES
    n_ctx = LONG_FAMILIES.get(family, 4096)
    n_predict = LONG_PREDICT if long else N_PREDICT
    server = Server(args.server, model, log_path, n_ctx=n_ctx)
    try:
        server.wait_healthy()
        props = server.request("/props")
        # llama-server caps a slot's context at the model's training context.
        slot_ctx = props["default_generation_settings"]["n_ctx"] if long else n_ctx
        if slot_ctx < n_ctx:
            raise RuntimeError(f"llama-server gave its slot {slot_ctx} positions, not {n_ctx}")
        build = props.get("build_info", "unknown build")
        version = version_file.read_text().strip() if version_file.exists() else build

        filler = tokenize(server, "\n", add_special=False, parse_special=False)
        # A vocabulary with a space prefix (Phi-3's) puts its space piece in front.
        if len(filler) == 2 and family.startswith("phi3"):
            filler = filler[1:]
        if len(filler) != 1:
            raise RuntimeError(f"'\\n' is not a single token: {filler}")

        records, all_notes = [], []
        prompts = [long_prompt()] if long else COMMON_PROMPTS + [CHAT_PROMPT[family]]
        for prompt in prompts:
            rec, notes = reference_for(server, prompt, filler[0], n_predict)
            if long and not 8192 < len(rec["token_ids"]) <= n_ctx - n_predict:
                raise RuntimeError(f"{len(rec['token_ids'])} prompt tokens: not past 8,192 "
                                   f"with room for {n_predict} more in {n_ctx}")
            records.append(rec)
            all_notes += [f"{prompt[:40]!r}: {n}" for n in notes]
            print(f"{family}: {len(rec['token_ids']):4d} prompt tokens, "
                  f"{len(rec['greedy_ids']):2d} generated ({rec['stop_type']}): "
                  f"{rec['greedy_text'][:50]!r}")
        tok_cases = None
        if family in SPM_FAMILIES:
            tok_cases, notes = tokenization_cases(server, family)
            all_notes += notes
    except Exception:
        print(f"{family}: failed; server log: {log_path}", file=sys.stderr)
        raise
    finally:
        server.stop()

    fixture = {
        "family": family,
        "gguf_file": model.name,
        "gguf_sha256": sha256_file(model),
        "llama_cpp_version": f"{version} via llama-server ({build})",
        "settings": {
            "tokenize": {"add_special": True, "parse_special": True},
            "greedy": {"n_predict": n_predict, "samplers": ["top_k"], "top_k": 1,
                       "n_ctx": n_ctx, "flash_attn": "on",
                       "top_candidates": f"top {N_PROBS} of softmax(raw logits)"},
        },
        "notes": all_notes,
        "prompts": records,
    }
    if tok_cases is not None:
        fixture["tokenization"] = tok_cases
    out = args.out / f"{family}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(dump_compact(fixture))
    for n in all_notes:
        print(f"{family}: note: {n}")
    stats = peak_stats(records)
    print(f"{family}: {stats['steps']} steps, top-1 > 0.5 in {stats['top1_over_0.5']:.1%}, "
          f"top-1/top-2 gap < 0.05 in {stats['gap_under_0.05']:.1%} "
          f"(smallest {stats['min_gap']}); {time.monotonic() - started:.1f}s")
    print(f"wrote {out}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", type=Path, default=ref.PREFIX / "bin" / "llama-server")
    ap.add_argument("--models", type=Path, default=ROOT / ".cache" / "family-models")
    ap.add_argument("--out", type=Path,
                    default=ROOT / "engine" / "tests" / "fixtures" / "families")
    ap.add_argument("families", nargs="*", default=list(FAMILIES))
    args = ap.parse_args()

    bad = [f for f in args.families if f not in FAMILIES]
    if bad:
        print(f"unknown families {bad}; known: {', '.join(FAMILIES)}", file=sys.stderr)
        return 2
    if not args.server.exists():
        print(f"missing {args.server} (see scripts/build-llama-cpp.sh)", file=sys.stderr)
        return 1
    version_file = args.server.parent.parent / "VERSION"
    for family in args.families:
        rc = run_family(family, args, version_file)
        if rc:
            return rc
    return 0


if __name__ == "__main__":
    sys.exit(main())
