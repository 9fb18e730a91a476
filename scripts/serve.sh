#!/usr/bin/env bash
# Serves the default model (or --model PATH): fetches it if missing, builds the release binary,
# then runs `radixserve serve` with the arguments given here, e.g.
#   scripts/serve.sh --http-port 8000 --kv-budget-mb 512
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f models/SmolLM2-135M-Instruct.Q4_1.gguf ]; then
  scripts/fetch-model.sh
fi
cargo build --release -p engine --bin radixserve
exec target/release/radixserve serve "$@"
