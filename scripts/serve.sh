#!/usr/bin/env bash
# Serves the default model (or --model PATH): fetches it if missing, builds the release binary,
# then runs `radixserve serve` with the arguments given here, e.g.
#   scripts/serve.sh --http-port 8000 --kv-budget-mb 512
# `--device cuda:N` builds with the `cuda` feature (needs the NVIDIA driver, NVRTC and cuBLAS
# at run time, no toolkit at build time).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f models/SmolLM2-135M-Instruct.Q4_1.gguf ]; then
  scripts/fetch-model.sh
fi
features=()
for arg in "$@"; do
  case $arg in
  *cuda*) features=(--features cuda) ;;
  esac
done
cargo build --release -p engine --bin radixserve "${features[@]}"
exec target/release/radixserve serve "$@"
