#!/usr/bin/env bash
# Checks the CUDA side of `kernels` and `engine` (feature `cuda`), with or without a GPU:
#  1. every kernels/cuda/*.cu compiles with NVRTC to PTX for compute_80/compute_90 and to a
#     CUBIN for sm_80/sm_90 (one line per source and target; any error fails the script);
#  2. the GPU kernel tests and the GPU model runner and engine tests run, against the CPU
#     kernels and the CPU model: on the GPU when one is present, else on the CUDA emulator
#     (kernels/emu-driver: cudarc loads it as libcuda.so and libcublas.so, NVRTC stays
#     NVIDIA's), with RADIXSERVE_REQUIRE_GPU set so that no test skips; `--emulator` picks
#     the emulator on a GPU machine too;
#  3. clippy on `kernels` and `engine` with the feature, warnings denied.
# NVRTC and the CUDA headers come from the nvidia-cuda-nvrtc-cu12 / nvidia-cuda-runtime-cu12
# wheels, installed once into .cache/cuda-pip (git-ignored); no CUDA toolkit is needed.
# `--cublas` also installs nvidia-cublas-cu12 there, for the GEMM test on a GPU machine
# that has no cuBLAS of its own.
set -euo pipefail
cd "$(dirname "$0")/.."

with_cublas=0
emulator=0
for arg in "$@"; do
    case $arg in
    --cublas) with_cublas=1 ;;
    --emulator) emulator=1 ;;
    *) echo "usage: $0 [--cublas] [--emulator]" >&2; exit 2 ;;
    esac
done
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
if no_gpu; then
    emulator=1
fi
if ((with_cublas)); then cuda_env --cublas; else cuda_env; fi
# A missing NVRTC fails the PTX check instead of skipping it.
export RADIXSERVE_REQUIRE_NVRTC=1

skips=()
if ((emulator)); then
    cuda_emulator
    skips=(${CUDA_EMULATED_SKIPS[@]+"${CUDA_EMULATED_SKIPS[@]}"})
fi

cargo test --profile ci -p kernels --features cuda --test cuda_ptx --test cuda_kernels --test cuda_sampling --test cuda_graphs --test cuda_fused \
    -- --nocapture --test-threads 2 ${skips[@]+"${skips[@]}"}
# The GPU model runner against the CPU model, and the engine serving on a GPU.
cargo test --profile ci -p engine --features cuda --test gpu_model --test gpu_engine -- --nocapture ${skips[@]+"${skips[@]}"}
cargo clippy -p kernels -p engine --profile ci --features cuda --all-targets -- -D warnings
