#!/usr/bin/env bash
# The whole test suite: fetches the model if missing, then builds the workspace once in the
# optimized `ci` profile (release speed, debug assertions on) and runs every test; then the
# CUDA checks (every kernel source compiled by NVRTC for sm_80/sm_90, the `cuda` feature
# built and linted, the GPU tests run on the GPU or, without one, on the CUDA emulator).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-model.sh
cargo test --workspace --profile ci --no-fail-fast "$@"
scripts/check-cuda.sh
