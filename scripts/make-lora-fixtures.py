#!/usr/bin/env python3
"""Regenerates engine/tests/fixtures/families/{smollm2_lora_a,smollm2_lora_b,phi3_lora}.json.

Runs llama.cpp's llama-server on SmolLM2-135M with both of its adapters from
scripts/make-lora-adapters.py loaded (`--lora`), and records per prompt, with one adapter
enabled at scale 1 through the request's `lora` field and the other at 0, the tokenization
and a 32-step greedy continuation with the top-5 next-token probabilities: the engine's
LoRA path is checked against an independent implementation. The same prompts without
any adapter are recorded too (`base_greedy_ids`), so a test can see the adapter changed
the output. The same for the phi3 family model and its fused-projection adapter, with the
family fixtures' prompts and tokenization (BOS as the model asks).

Usage: scripts/make-lora-fixtures.py [--server PATH] [--models DIR] [--out DIR]
Run scripts/fetch-family-models.sh first (it writes the adapters). Stdlib only.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ("smollm2_lora_a", "smollm2_lora_b")


def _load_script(name: str):
    """Another fixture script of this folder, as a module (its helpers run llama-server the
    same way for every fixture set)."""
    path = Path(__file__).resolve().parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load_script("make-reference-fixtures")
fam = _load_script("make-family-fixtures")

PROMPTS = ref.PROMPTS


class LoraServer(ref.Server):
    """A llama-server whose every completion runs the adapter scales in `self.lora`."""

    lora: list = []

    def request(self, path: str, body: dict | None = None, timeout: float = 300) -> dict:
        if path == "/completion" and body is not None:
            body = dict(body, lora=self.lora)
        return super().request(path, body, timeout)


def run_set(server_bin: Path, base: Path, paths: list, names: list, prompts: list,
            reference, out_dir: Path, tokenize_settings: dict) -> None:
    """Records the fixture of each adapter of `names` (files `paths`, loaded together on
    `base`): `reference(server, prompt)` with that adapter alone enabled."""
    version_file = server_bin.parent.parent / "VERSION"
    log_path = Path(tempfile.gettempdir()) / f"llama-server-lora-{names[0]}.log"
    extra = ("--lora", ",".join(str(p) for p in paths))
    server = LoraServer(server_bin, base, log_path, extra)
    try:
        server.wait_healthy()
        build = server.request("/props").get("build_info", "unknown build")
        version = version_file.read_text().strip() if version_file.exists() else build
        server.lora = [{"id": i, "scale": 0.0} for i in range(len(names))]
        base_ids = [reference(server, p)[0]["greedy_ids"] for p in prompts]
        for i, name in enumerate(names):
            server.lora = [{"id": j, "scale": float(j == i)} for j in range(len(names))]
            records, all_notes = [], []
            for prompt, without in zip(prompts, base_ids):
                rec, notes = reference(server, prompt)
                rec["base_greedy_ids"] = without
                records.append(rec)
                all_notes += [f"{prompt[:40]!r}: {n}" for n in notes]
                print(f"{name}: {rec['greedy_text'][:60]!r}")
            fixture = {
                "family": name,
                "gguf_file": paths[i].name,
                "gguf_sha256": ref.sha256_file(paths[i]),
                "base_gguf_sha256": ref.sha256_file(base),
                "llama_cpp_version": f"{version} via llama-server ({build})",
                "settings": {
                    "tokenize": tokenize_settings,
                    "lora": f"adapter {i} of --lora {','.join(names)} at scale 1, "
                            "any other at 0",
                    "greedy": {"n_predict": ref.N_PREDICT, "samplers": ["top_k"],
                               "top_k": 1, "n_ctx": 4096, "flash_attn": "on",
                               "top_candidates": f"top {ref.N_PROBS} of softmax(raw logits)"},
                },
                "notes": all_notes,
                "prompts": records,
            }
            out = out_dir / f"{name}.json"
            with open(out, "w", encoding="utf-8") as f:
                f.write(ref.dump_compact(fixture))
            print(f"wrote {out}")
    except Exception:
        print(f"failed; server log: {log_path}", file=sys.stderr)
        raise
    finally:
        server.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", type=Path, default=ref.PREFIX / "bin" / "llama-server")
    ap.add_argument("--models", type=Path, default=ROOT / ".cache" / "family-models")
    ap.add_argument("--base", type=Path,
                    default=ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf")
    ap.add_argument("--out", type=Path,
                    default=ROOT / "engine" / "tests" / "fixtures" / "families")
    args = ap.parse_args()
    paths = [args.models / f"{name}.gguf" for name in ADAPTERS]
    phi3 = [args.models / "phi3.gguf", args.models / "phi3_lora.gguf"]
    for p in [args.server, args.base, *paths, *phi3]:
        if not p.exists():
            print(f"missing {p}", file=sys.stderr)
            return 1
    run_set(args.server, args.base, paths, list(ADAPTERS), PROMPTS, ref.reference_for,
            args.out, {"add_special": False, "parse_special": True})
    filler = fam.tokenize  # the phi3 vocabulary's "\n", as the family fixtures find it

    def phi3_reference(server, prompt):
        ids = filler(server, "\n", add_special=False, parse_special=False)
        return fam.reference_for(server, prompt, ids[-1])

    run_set(args.server, phi3[0], [phi3[1]], ["phi3_lora"],
            fam.COMMON_PROMPTS + [fam.CHAT_PROMPT["phi3"]], phi3_reference, args.out,
            {"add_special": True, "parse_special": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
