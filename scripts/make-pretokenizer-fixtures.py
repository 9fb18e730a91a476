#!/usr/bin/env python3
"""Regenerates engine/tests/fixtures/pre_tokenizers.json.

Byte-level BPE vocabularies name a pre-tokenizer (`tokenizer.ggml.pre`): the regexes that
split text before the merges. For each name the engine accepts, this writes a vocabulary-only
GGUF with SmolLM2's tokens and merges and that name, and records the ids llama.cpp's
llama-tokenize gives for a set of awkward strings, so every pre-tokenizer is checked against
an implementation we did not write (engine/tests/pre_tokenizers.rs).

Usage: scripts/make-pretokenizer-fixtures.py [--tokenize PATH] [--out FILE]
Needs gguf (scripts/fetch-family-models.sh puts it in .cache/gguf-py) and the default model
(scripts/fetch-model.sh).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".cache" / "gguf-py"))
import gguf  # noqa: E402

MODEL = ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"

# One name per distinct split the engine implements, plus the aliases real files use.
PRE_TOKENIZERS = ["default", "gpt-2", "smollm", "llama-bpe", "dbrx", "qwen2", "gpt-4o", "tekken",
                  "deepseek-v3", "deepseek-llm", "glm4", "kimi-k2"]

TEXTS = [
    "Hello world",
    " Hello  world ",
    "Hello World's CAMELCase and camelCase, HTTPServer.",
    "I'm sure they'll say we've done it, don't you? IT'S DONE.",
    "12345 67 890 3.14159 1,000,000",
    "2024-03-15 $99.99 (3 items, 7.5 kg)",
    "naïve café résumé Ünïcödé",
    "中文 日本語 한국어",
    "emoji 🚀 and 🙂!",
    "line one\nline two\n\n\npara\r\nwindows",
    "\tindented\twith\ttabs  and   spaces   ",
    "def f(x):\n    return x * 2  # comment\n",
    "path/to/file.rs:12:5 -> a=>b != c<=d",
    "email@example.com https://example.org/a?b=c&d=e",
    "MixedCASEWordsLikeJSONParser and iPhone",
    "混合mixed文字Text和123数字，中文標點！It's 東京Tokyo",
    "人々 様々な 〇〇年 ⺀部首 𠀀字",
]


def vocab_only(pre: str, reader: gguf.GGUFReader, out: Path) -> None:
    def field(key: str):
        return reader.fields[key].contents()

    w = gguf.GGUFWriter(str(out), "llama")
    # llama.cpp reads the hyper-parameters even for a vocabulary-only load.
    w.add_block_count(1)
    w.add_context_length(512)
    w.add_embedding_length(64)
    w.add_feed_forward_length(64)
    w.add_head_count(1)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(pre)
    w.add_token_list(field("tokenizer.ggml.tokens"))
    w.add_token_types(field("tokenizer.ggml.token_type"))
    w.add_token_merges(field("tokenizer.ggml.merges"))
    w.add_bos_token_id(field("tokenizer.ggml.bos_token_id"))
    w.add_eos_token_id(field("tokenizer.ggml.eos_token_id"))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def tokenize(binary: Path, model: Path, text: str) -> list[int]:
    out = subprocess.run(
        [str(binary), "-m", str(model), "--stdin", "--ids", "--log-disable", "--no-bos",
         "--no-parse-special"],
        input=text.encode(), capture_output=True, check=True,
    )
    return json.loads(out.stdout.decode().strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokenize", type=Path, default=Path("/opt/llama.cpp/bin/llama-tokenize"))
    ap.add_argument("--out", type=Path,
                    default=ROOT / "engine" / "tests" / "fixtures" / "pre_tokenizers.json")
    args = ap.parse_args()
    if not MODEL.exists():
        print(f"missing {MODEL} (run scripts/fetch-model.sh)", file=sys.stderr)
        return 1
    version_file = args.tokenize.parent.parent / "VERSION"
    version = version_file.read_text().strip() if version_file.exists() else "unknown"
    reader = gguf.GGUFReader(str(MODEL))
    cases = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pre in PRE_TOKENIZERS:
            path = Path(tmp) / f"{pre}.gguf"
            vocab_only(pre, reader, path)
            cases[pre] = [tokenize(args.tokenize, path, text) for text in TEXTS]
            print(f"{pre}: {sum(map(len, cases[pre]))} tokens")
    fixture = {
        "vocabulary_from": MODEL.name,
        "vocabulary_sha256": hashlib.sha256(MODEL.read_bytes()).hexdigest(),
        "llama_cpp_version": f"{version} (llama-tokenize)",
        "texts": TEXTS,
        "ids": cases,
    }
    args.out.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
