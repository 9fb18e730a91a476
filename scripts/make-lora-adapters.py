#!/usr/bin/env python3
"""Writes random-weight LoRA adapters in llama.cpp's GGUF adapter form and one in PEFT's.

The LoRA tests run them against llama.cpp's outputs on the same files
(engine/tests/fixtures/families/<name>.json, scripts/make-lora-fixtures.py):

- smollm2_lora_a: for SmolLM2-135M, rank 8 on every projection of every layer (attn_q,
  attn_k, attn_v, attn_output, ffn_gate, ffn_up, ffn_down), f32, adapter.lora.alpha 16
  (scale 2);
- smollm2_lora_b: for SmolLM2-135M, rank 4 on attn_q and attn_v only (PEFT's default
  targets), f16, no alpha (scale 1, as llama.cpp reads a missing alpha);
- smollm2_lora_a_peft/: smollm2_lora_a as Hugging Face PEFT saves it (adapter_config.json,
  adapter_model.safetensors with `...layers.N.self_attn.q_proj.lora_A.weight`), its Q and K
  B rows in Hugging Face's order: llama.cpp's converter reorders them for its RoPE
  (`LlamaModel.permute`), so the GGUF file holds the reordered ones;
- phi3_lora: for the random phi3 family model (scripts/make-family-models.py), rank 6 on
  its fused attn_qkv and ffn_up (gate|up), attn_output and ffn_down, f32, alpha 12.

All are drawn from seeded generators with numpy and gguf pinned by
scripts/fetch-family-models.sh, so the files come out byte-identical.

Usage: scripts/make-lora-adapters.py [--out DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import gguf
import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def shapes(hidden: int, q: int, kv: int, ffn: int) -> dict:
    """projection -> (n_in, n_out), GGUF names."""
    return {
        "attn_q": (hidden, q), "attn_k": (hidden, kv), "attn_v": (hidden, kv),
        "attn_qkv": (hidden, q + 2 * kv), "attn_output": (q, hidden),
        "ffn_gate": (hidden, ffn), "ffn_up": (hidden, ffn), "ffn_up_fused": (hidden, 2 * ffn),
        "ffn_down": (ffn, hidden),
    }


# SmolLM2-135M: hidden 576, 9 query heads and 3 K/V heads of 64, MLP 1536, 30 layers.
SMOLLM2 = dict(arch="llama", layers=30, heads=9, kv_heads=3, shapes=shapes(576, 576, 192, 1536))
# The phi3 family model: hidden 384, 4 heads of 96, MLP 768, 2 layers.
PHI3 = dict(arch="phi3", layers=2, heads=4, kv_heads=4, shapes=shapes(384, 384, 384, 768))
SEPARATE = ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"]
ADAPTERS = {
    "smollm2_lora_a": dict(model=SMOLLM2, seed=7, rank=8, alpha=16.0, dtype=np.float32,
                           targets=SEPARATE, b_std=0.06),
    "smollm2_lora_b": dict(model=SMOLLM2, seed=11, rank=4, alpha=None, dtype=np.float16,
                           targets=["attn_q", "attn_v"], b_std=0.15),
    "phi3_lora": dict(model=PHI3, seed=13, rank=6, alpha=12.0, dtype=np.float32,
                      targets=["attn_qkv", "attn_output", "ffn_up_fused", "ffn_down"],
                      b_std=0.05),
}
# PEFT copies: (the GGUF adapter drawn again, Hugging Face's module names).
PEFT = {"smollm2_lora_a_peft": "smollm2_lora_a"}
HF_MODULES = {
    "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj", "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def draw(name: str) -> list:
    """(layer, target, A [r, n_in], B [n_out, r]) of adapter `name`, in file order."""
    spec = ADAPTERS[name]
    rng = np.random.default_rng(spec["seed"])
    r = spec["rank"]
    out = []
    for layer in range(spec["model"]["layers"]):
        for target in spec["targets"]:
            n_in, n_out = spec["model"]["shapes"][target]
            # A as PEFT initializes it (scaled to its input), B as training would leave it.
            a = rng.standard_normal((r, n_in)) / np.sqrt(n_in)
            b = rng.standard_normal((n_out, r)) * spec["b_std"]
            out.append((layer, target, a.astype(spec["dtype"]), b.astype(spec["dtype"])))
    return out


def write_adapter(name: str, out: Path) -> None:
    spec = ADAPTERS[name]
    w = gguf.GGUFWriter(str(out), spec["model"]["arch"])
    w.add_type("adapter")
    w.add_string("adapter.type", "lora")
    if spec["alpha"] is not None:
        w.add_float32("adapter.lora.alpha", spec["alpha"])
    for layer, target, a, b in draw(name):
        base = f"blk.{layer}.{target.removesuffix('_fused')}.weight"
        w.add_tensor(f"{base}.lora_a", a)
        w.add_tensor(f"{base}.lora_b", b)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def llama_cpp_permute(weights: np.ndarray, n_head: int, n_head_kv: int | None) -> np.ndarray:
    """llama.cpp's converter (`LlamaModel.permute`), as it reorders Q and K rows."""
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return (weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2)
            .reshape(weights.shape))


def hf_order(b: np.ndarray, n_head: int) -> np.ndarray:
    """The rows `llama_cpp_permute` turns into `b`: Hugging Face's order."""
    rows, r = b.shape
    hf = b.reshape(n_head, rows // n_head // 2, 2, r).swapaxes(1, 2).reshape(rows, r)
    assert np.array_equal(llama_cpp_permute(hf, n_head, None), b)
    return hf


def write_safetensors(path: Path, tensors: dict) -> None:
    """The safetensors format: an 8-byte header length, a JSON header, the data."""
    header, blobs, offset = {}, [], 0
    for name, value in tensors.items():
        data = np.ascontiguousarray(value, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(value.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(len(text).to_bytes(8, "little"))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def write_peft(name: str, out: Path) -> None:
    source = PEFT[name]
    spec = ADAPTERS[source]
    model = spec["model"]
    tensors = {}
    for layer, target, a, b in draw(source):
        heads = {"attn_q": model["heads"], "attn_k": model["kv_heads"]}.get(target)
        if heads is not None:
            b = hf_order(b, heads)
        prefix = f"base_model.model.model.layers.{layer}.{HF_MODULES[target]}"
        tensors[f"{prefix}.lora_A.weight"] = a
        tensors[f"{prefix}.lora_B.weight"] = b
    out.mkdir(parents=True, exist_ok=True)
    write_safetensors(out / "adapter_model.safetensors", tensors)
    config = {
        "peft_type": "LORA", "task_type": "CAUSAL_LM", "r": spec["rank"],
        "lora_alpha": spec["alpha"], "lora_dropout": 0.0, "bias": "none",
        "use_rslora": False, "use_dora": False, "fan_in_fan_out": False,
        "modules_to_save": None, "rank_pattern": {}, "alpha_pattern": {},
        "target_modules": sorted({HF_MODULES[t].split(".")[1] for t in spec["targets"]}),
        "base_model_name_or_path": "HuggingFaceTB/SmolLM2-135M-Instruct",
    }
    (out / "adapter_config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / ".cache" / "family-models")
    known = list(ADAPTERS) + list(PEFT)
    ap.add_argument("names", nargs="*", default=known)
    args = ap.parse_args()
    bad = [n for n in args.names if n not in known]
    if bad:
        print(f"unknown adapters {bad}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        if name in PEFT:
            path = args.out / name
            write_peft(name, path)
            size = (path / "adapter_model.safetensors").stat().st_size
        else:
            path = args.out / f"{name}.gguf"
            tmp = path.with_suffix(".gguf.tmp")
            write_adapter(name, tmp)
            tmp.replace(path)
            size = path.stat().st_size
        print(f"{path} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
