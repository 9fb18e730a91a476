#!/usr/bin/env bash
# Serves the default model (or --model PATH): fetches it if missing, builds the release binary,
# then runs `radixserve serve` with the arguments given here, e.g.
#   scripts/serve.sh --http-port 8000 --kv-budget-mb 512
# `--device cuda:N` builds with the `cuda` feature and fetches NVRTC, the CUDA headers and (if
# the system has none) cuBLAS as NVIDIA wheels into .cache/cuda-pip: only the driver is needed.
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
if ((${#features[@]})); then
  # NVRTC and the CUDA headers from the NVIDIA wheels; cuBLAS too unless the system has it.
  # shellcheck source=scripts/cuda-env.sh
  source scripts/cuda-env.sh
  if ldconfig -p 2>/dev/null | grep 'libcublas\.so' >/dev/null; then cuda_env; else cuda_env --cublas; fi
fi
exec target/release/radixserve serve "$@"
