#!/usr/bin/env python3
"""Writes random-weight LoRA adapters for SmolLM2-135M in llama.cpp's GGUF adapter form.

The LoRA tests run them against llama.cpp's outputs on the same files
(engine/tests/fixtures/families/<name>.json, scripts/make-lora-fixtures.py):

- smollm2_lora_a: rank 8 on every projection of every layer (attn_q, attn_k, attn_v,
  attn_output, ffn_gate, ffn_up, ffn_down), f32, adapter.lora.alpha 16 (scale 2);
- smollm2_lora_b: rank 4 on attn_q and attn_v only (PEFT's default targets), f16, no alpha
  (scale 1, as llama.cpp reads a missing alpha).

Both are drawn from seeded generators with numpy and gguf pinned by
scripts/fetch-family-models.sh, so the files come out byte-identical.

Usage: scripts/make-lora-adapters.py [--out DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gguf
import numpy as np

ROOT = Path(__file__).resolve().parent.parent

# SmolLM2-135M: hidden 576, 9 query heads and 3 K/V heads of 64, MLP 1536, 30 layers.
HIDDEN, Q_DIM, KV_DIM, FFN, LAYERS = 576, 576, 192, 1536, 30
SHAPES = {  # projection -> (n_in, n_out)
    "attn_q": (HIDDEN, Q_DIM),
    "attn_k": (HIDDEN, KV_DIM),
    "attn_v": (HIDDEN, KV_DIM),
    "attn_output": (Q_DIM, HIDDEN),
    "ffn_gate": (HIDDEN, FFN),
    "ffn_up": (HIDDEN, FFN),
    "ffn_down": (FFN, HIDDEN),
}
ADAPTERS = {
    "smollm2_lora_a": dict(seed=7, rank=8, alpha=16.0, dtype=np.float32,
                           targets=list(SHAPES), b_std=0.06),
    "smollm2_lora_b": dict(seed=11, rank=4, alpha=None, dtype=np.float16,
                           targets=["attn_q", "attn_v"], b_std=0.15),
}


def write_adapter(name: str, out: Path) -> None:
    spec = ADAPTERS[name]
    rng = np.random.default_rng(spec["seed"])
    w = gguf.GGUFWriter(str(out), "llama")
    w.add_type("adapter")
    w.add_string("adapter.type", "lora")
    if spec["alpha"] is not None:
        w.add_float32("adapter.lora.alpha", spec["alpha"])
    r = spec["rank"]
    for layer in range(LAYERS):
        for target in spec["targets"]:
            n_in, n_out = SHAPES[target]
            # A as PEFT initializes it (scaled to its input), B as training would leave it.
            a = rng.standard_normal((r, n_in)) / np.sqrt(n_in)
            b = rng.standard_normal((n_out, r)) * spec["b_std"]
            base = f"blk.{layer}.{target}.weight"
            w.add_tensor(f"{base}.lora_a", a.astype(spec["dtype"]))
            w.add_tensor(f"{base}.lora_b", b.astype(spec["dtype"]))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / ".cache" / "family-models")
    ap.add_argument("names", nargs="*", default=list(ADAPTERS))
    args = ap.parse_args()
    bad = [n for n in args.names if n not in ADAPTERS]
    if bad:
        print(f"unknown adapters {bad}; known: {', '.join(ADAPTERS)}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        path = args.out / f"{name}.gguf"
        tmp = path.with_suffix(".gguf.tmp")
        write_adapter(name, tmp)
        tmp.replace(path)
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
