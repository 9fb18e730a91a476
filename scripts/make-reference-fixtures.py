#!/usr/bin/env python3
"""Regenerates engine/tests/fixtures/smollm2_reference.json.

Runs llama.cpp's llama-server (built by scripts/build-llama-cpp.sh) on the same
GGUF radixserve loads, and records, per prompt, the reference tokenization and a
32-step greedy continuation with the top-5 next-token probabilities. The engine
tests compare against these, so tokenizer and forward-pass bugs show up against
an implementation we did not write.

With --embeddings it writes engine/tests/fixtures/smollm2_embeddings.json instead: per
text, llama.cpp's token ids and its normalized last-token embedding (`--pooling last`).

Usage: scripts/make-reference-fixtures.py [--server PATH] [--model PATH] [--out PATH] [--embeddings]
Stdlib only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIX = Path(os.environ.get("LLAMA_CPP_PREFIX", "/opt/llama.cpp"))

N_PREDICT = 32
N_PROBS = 5
NEWLINE_ID = 198  # "\n" in the SmolLM2 vocab; any complete-UTF-8 token works

LONG_PARAGRAPH = (
    "The history of the lighthouse is, in many ways, the history of coastal trade itself. "
    "Long before electric lamps and rotating Fresnel lenses, harbour towns kept fires burning "
    "on headlands so that returning ships could find the entrance to the bay after dark. "
    "These early beacons were unreliable: rain put them out, wind scattered the embers, and "
    "the keepers, often paid in grain or fish, sometimes fell asleep at their posts. As "
    "shipping grew busier in the eighteenth and nineteenth centuries, governments began to "
    "build permanent stone towers, staffed by trained keepers who lived with their families "
    "at the foot of the light. The work was lonely and repetitive. Every evening the keeper "
    "trimmed the wicks, polished the brass and glass, and wound the clockwork that turned the "
    "lens; every morning he wrote in the logbook how many vessels had passed and what the "
    "weather had been. Storms could cut a rock station off from the mainland for weeks, and "
    "supplies were rationed carefully. Today almost every lighthouse in the world is "
    "automated, monitored remotely and visited only for maintenance, yet many of the old "
    "towers survive as museums, guest houses and landmarks. Visitors climb the narrow spiral "
    "stairs, look out over the water, and try to imagine what it was like to keep a flame "
    "alive through a winter night while the sea threw itself against the rocks below."
)

# SmolLM2's chat template, with the default system prompt it inserts when the
# conversation has none; written out so the fixture does not depend on any
# template engine.
CHAT_FRANCE = (
    "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face"
    "<|im_end|>\n<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
    "<|im_start|>assistant\n"
)

PROMPTS = [
    "The quick brown fox jumps over the lazy dog.",
    "Once upon a time, in a small village by the sea, there lived",
    "def fibonacci(n):\n    if n < 2:\n        return n\n    return",
    "fn main() {\n    let v: Vec<u32> = (0..10).map(|x| x * x).collect();\n",
    "Order 12345 shipped on 2024-03-15 for $99.99",
    "Café 🚀 naïve — ünïcödé 日本語",
    "  two  spaces\n\ttab",
    "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n",
    LONG_PARAGRAPH,
    CHAT_FRANCE,
]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary: Path, model: Path, log_path: Path, extra: tuple = (),
                 n_ctx: int = 4096):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log_path, "wb")
        # One slot so the whole context (4096 tokens unless told) belongs to it and requests
        # never share a batch (batch composition can change logits slightly).
        # Flash attention pinned (it is what "auto" picks on CPU) because it
        # shifts probabilities by about 1e-2 on this model.
        self.proc = subprocess.Popen(
            [str(binary), "-m", str(model), "-t", "2", "-c", str(n_ctx), "-np", "1",
             "-fa", "on", "--host", "127.0.0.1", "--port", str(self.port), *extra],
            stdout=self.log, stderr=subprocess.STDOUT,
        )

    def request(self, path: str, body: dict | None = None, timeout: float = 300) -> dict:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return json.load(resp)

    def wait_healthy(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama-server exited early (code {self.proc.returncode})")
            try:
                # 503 while the model loads, 200 once ready
                if self.request("/health", timeout=5).get("status") == "ok":
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.5)
        raise RuntimeError("llama-server did not become healthy in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def candidates(step: dict) -> list:
    return [[c["id"], round(math.exp(c["logprob"]), 6)] for c in step["top_logprobs"]]


def reference_for(server: Server, prompt: str) -> tuple[dict, list[str]]:
    notes = []
    ids = server.request("/tokenize", {
        "content": prompt, "add_special": False, "parse_special": True,
    })["tokens"]

    back = server.request("/detokenize", {"tokens": ids})["content"]
    if back != prompt:
        notes.append(f"detokenize mismatch: {back!r} != {prompt!r}")
    entry, more = reference_from_ids(server, prompt, ids, NEWLINE_ID)
    return entry, notes + more


def reference_from_ids(server: Server, prompt: str, ids: list, filler_id: int,
                       n_predict: int = N_PREDICT) -> tuple[dict, list[str]]:
    """llama.cpp's greedy continuation of `ids` (`n_predict` tokens) with the top candidates
    of each step; `filler_id` is a harmless token forced when a step's probabilities must be
    refetched."""
    notes = []
    # Pure greedy: the only sampler left in the chain is top_k=1 (llama.cpp
    # always appends a final "dist" draw, which is then a no-op). Passing ids
    # rather than text keeps the server from adding BOS or re-tokenizing.
    # n_probs without post_sampling_probs gives a softmax over the raw logits.
    out = server.request("/completion", {
        "prompt": ids,
        "n_predict": n_predict,
        "samplers": ["top_k"],
        "top_k": 1,
        "temperature": 0,
        "cache_prompt": False,
        "return_tokens": True,
        "n_probs": N_PROBS,
        "post_sampling_probs": False,
    })
    greedy = out["tokens"]
    steps = out.get("completion_probabilities", [])
    top: list = [None] * len(greedy)
    # The server drops the probabilities of a token that ends mid UTF-8
    # character (e.g. the first half of a CJK char), so align by token id.
    j = 0
    for i, tok in enumerate(greedy):
        if j < len(steps) and steps[j]["id"] == tok:
            top[i] = candidates(steps[j])
            j += 1
    if j != len(steps):
        notes.append(f"could not align {len(steps)} probability steps to {greedy}")
    # Fill the gaps by re-running the prefix and forcing a harmless next token
    # (logit_bias acts in the sampler chain, the reported probabilities come
    # from the raw logits). This is a prefill rather than a decode step, so it
    # can differ from the decode logits in the last few digits.
    refilled = [i for i, t in enumerate(top) if t is None]
    for i in refilled:
        forced = server.request("/completion", {
            "prompt": ids + greedy[:i],
            "n_predict": 1,
            "samplers": ["top_k"],
            "top_k": 1,
            "cache_prompt": False,
            "n_probs": N_PROBS,
            "logit_bias": [[filler_id, 1000.0]],
        })
        top[i] = candidates(forced["completion_probabilities"][0])
    for i, (tok, cands) in enumerate(zip(greedy, top)):
        if cands[0][0] != tok:
            notes.append(f"step {i}: greedy token {tok} is not the top candidate {cands[0][0]}")

    return {
        "prompt": prompt,
        "token_ids": ids,
        "greedy_ids": greedy,
        "greedy_text": out["content"],
        "stop_type": out.get("stop_type"),
        "top_candidates": top,
        "top_candidates_from_prefill": refilled,
    }, notes


def dump_compact(value, indent: str = "") -> str:
    """JSON with objects spread over lines but arrays of scalars (and the
    per-step candidate lists) kept on one line, so diffs stay readable."""
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {dump_compact(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}" + ("\n" if not indent else "")
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        items = [inner + dump_compact(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    if isinstance(value, list) and value and isinstance(value[0], list):
        items = [inner + json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# Embedding fixture: llama-server with last-token pooling, its embeddings normalized (L2).
EMBED_TEXTS = [
    "The capital of France is",
    "The capital of France is Paris, a city on the Seine.",
    "Quarterly revenue grew by twelve percent.",
    "def add(a, b):\n    return a + b",
    "<|im_start|>user\nWhat is a radix tree?<|im_end|>\n",
]


def embeddings_fixture(server: Server) -> list:
    """Per text: llama.cpp's tokenization and its normalized last-token embedding."""
    records = []
    for text in EMBED_TEXTS:
        ids = server.request("/tokenize", {"content": text, "add_special": True,
                                           "parse_special": True})["tokens"]
        got = server.request("/v1/embeddings", {"input": [ids], "encoding_format": "float"})
        records.append({"text": text, "token_ids": ids, "embedding": got["data"][0]["embedding"]})
        print(f"{len(ids):3d} tokens -> {len(records[-1]['embedding'])} values: {text[:40]!r}")
    return records


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", type=Path, default=PREFIX / "bin" / "llama-server")
    ap.add_argument("--model", type=Path,
                    default=ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf")
    ap.add_argument("--out", type=Path, default=None,
                    help="default: engine/tests/fixtures/smollm2_reference.json "
                         "(smollm2_embeddings.json with --embeddings)")
    ap.add_argument("--embeddings", action="store_true",
                    help="write the embedding fixture (last-token pooling) instead")
    args = ap.parse_args()
    fixtures = ROOT / "engine" / "tests" / "fixtures"
    if args.out is None:
        args.out = fixtures / ("smollm2_embeddings.json" if args.embeddings
                               else "smollm2_reference.json")

    for p in (args.server, args.model):
        if not p.exists():
            print(f"missing {p} (see scripts/build-llama-cpp.sh, scripts/fetch-model.sh)",
                  file=sys.stderr)
            return 1

    log_path = Path(tempfile.gettempdir()) / "llama-server-fixtures.log"
    extra = ("--embeddings", "--pooling", "last") if args.embeddings else ()
    server = Server(args.server, args.model, log_path, extra)
    try:
        server.wait_healthy()
        props = server.request("/props")
        build = props.get("build_info", "unknown build")
        version_file = args.server.parent.parent / "VERSION"
        version = version_file.read_text().strip() if version_file.exists() else build
        if args.embeddings:
            fixture = {
                "model": args.model.name,
                "model_sha256": sha256_file(args.model),
                "generator": f"{version} via llama-server ({build})",
                "settings": {"pooling": "last", "normalize": "L2", "flash_attn": "on",
                             "tokenize": {"add_special": True, "parse_special": True}},
                "inputs": embeddings_fixture(server),
            }
            args.out.write_text(dump_compact(fixture), encoding="utf-8")
            print(f"wrote {args.out}")
            return 0

        records, all_notes = [], []
        for prompt in PROMPTS:
            rec, notes = reference_for(server, prompt)
            records.append(rec)
            all_notes += [f"{prompt[:40]!r}: {n}" for n in notes]
            print(f"{len(rec['token_ids']):4d} prompt tokens, {len(rec['greedy_ids']):2d} "
                  f"generated ({rec['stop_type']}): {rec['greedy_text'][:60]!r}")
    except Exception:
        print(f"failed; server log: {log_path}", file=sys.stderr)
        raise
    finally:
        server.stop()

    fixture = {
        "model": args.model.name,
        "model_sha256": sha256_file(args.model),
        "generator": f"{version} via llama-server ({build})",
        "settings": {
            "tokenize": {"add_special": False, "parse_special": True},
            "greedy": {"n_predict": N_PREDICT, "samplers": ["top_k"], "top_k": 1,
                       "n_ctx": 4096, "flash_attn": "on",
                       "top_candidates": f"top {N_PROBS} of softmax(raw logits)"},
        },
        "notes": all_notes,
        "prompts": records,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(dump_compact(fixture))
    for n in all_notes:
        print("note:", n)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
