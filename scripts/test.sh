#!/usr/bin/env bash
# The whole test suite: fetches the model if missing, builds the workspace once, with the
# `cuda` feature, in the optimized `ci` profile (release speed, debug assertions on), and runs
# every test in one go: the CPU tests, every kernel source compiled by NVRTC for sm_80/sm_90,
# and the GPU tests on the GPU or, without one, on the CUDA emulator (kernels/emu-driver);
# then clippy over the workspace with the feature and without it, warnings denied. Arguments
# go to `cargo test` (a test name filters; after `--`, to the test binaries).
# scripts/check-cuda.sh runs the GPU side alone.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-model.sh
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
# A real GPU needs cuBLAS from the wheels; the emulator brings its own.
if no_gpu; then cuda_env; else cuda_env --cublas; fi
# A missing NVRTC fails the PTX check instead of skipping it.
export RADIXSERVE_REQUIRE_NVRTC=1
features=(--features engine/cuda,kernels/cuda)
# Arguments before a `--` go to cargo, those after it to the test binaries.
cargo_args=()
test_args=()
while (($#)); do
    if [[ $1 == -- ]]; then
        shift
        test_args=("$@")
        break
    fi
    cargo_args+=("$1")
    shift
done
cargo test --workspace --profile ci "${features[@]}" --no-run ${cargo_args[@]+"${cargo_args[@]}"}
skips=()
if no_gpu; then
    cuda_emulator --built
    skips=(${CUDA_EMULATED_SKIPS[@]+"${CUDA_EMULATED_SKIPS[@]}"})
fi
cargo test --workspace --profile ci "${features[@]}" --no-fail-fast ${cargo_args[@]+"${cargo_args[@]}"} \
    -- ${test_args[@]+"${test_args[@]}"} ${skips[@]+"${skips[@]}"}
cargo clippy --workspace --profile ci "${features[@]}" --all-targets -- -D warnings
# The default build (what serve.sh runs) has code of its own: linted too.
cargo clippy --workspace --profile ci -- -D warnings
