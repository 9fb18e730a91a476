#!/usr/bin/env bash
# The whole test suite: fetches the model if missing, then builds the workspace once in the
# optimized `ci` profile (release speed, debug assertions on) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-model.sh
cargo test --workspace --profile ci --no-fail-fast "$@"
