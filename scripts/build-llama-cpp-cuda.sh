#!/usr/bin/env bash
# Builds llama.cpp with CUDA (sm_90 only) as the GPU peer of radixserve's benchmarks: the
# same pinned source as scripts/build-llama-cpp.sh, compiled here (no GPU needed) with the
# CUDA 13.0 compiler, headers and cuBLAS from NVIDIA's PyPI wheels, so the binaries link
# against libcudart.so.13 / libcublas.so.13 and run on a GPU machine that has CUDA 13 in
# /usr/local/cuda/lib64 (driver 580 or newer).
#
# Usage: scripts/build-llama-cpp-cuda.sh
# Env:   LLAMA_CUDA_PREFIX  install dir, default .cache/llama-cuda (git-ignored): bin/ holds
#                           llama-server, llama-bench and the shared libraries they load
#        LLAMA_CPP_JOBS     parallel compile jobs, default 2
#        LLAMA_CPP_WORKDIR  keep source + build tree here (reruns resume); default a temp dir
# On the GPU machine: LD_LIBRARY_PATH=<prefix>/bin:/usr/local/cuda/lib64 <prefix>/bin/llama-server
#   -m <gguf> -ngl 99 --parallel N ...
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

version="0.3.36"
cuda="13.0.88"
prefix="${LLAMA_CUDA_PREFIX:-$root/.cache/llama-cuda}"
jobs="${LLAMA_CPP_JOBS:-2}"
targets=(llama-server llama-bench)
built_as="llama-cpp-python $version, CUDA $cuda, sm_90"
if [ -x "$prefix/bin/llama-server" ] && [[ "$(cat "$prefix/VERSION" 2>/dev/null)" == *"$built_as"* ]]; then
  echo "llama.cpp (CUDA) present: $prefix/bin ($(cat "$prefix/VERSION"))"
  exit 0
fi

# The CUDA 13 toolkit pieces, from the wheels (one `nvidia/cu13` tree: bin, include, lib).
toolkit_pip="$root/.cache/cuda13-pip"
python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$toolkit_pip" \
  "nvidia-cuda-nvcc==$cuda" "nvidia-cuda-crt==$cuda" "nvidia-nvvm==$cuda" \
  nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85 nvidia-cublas==13.0.2.14
toolkit="$toolkit_pip/nvidia/cu13"
# The linker wants the unversioned names; CMake looks in lib64 too.
for lib in cudart cublas cublasLt; do
  ln -sf "lib$lib.so.13" "$toolkit/lib/lib$lib.so"
done
ln -sfn lib "$toolkit/lib64"

# shellcheck source=scripts/llama-cpp-source.sh
source scripts/llama-cpp-source.sh

# Shared libraries: the CUDA backend is linked once, not into each binary. No VMM: that
# path links the driver library, which only the GPU machine has. CPU code for a generic
# x86-64 (the GPU machine's CPU is not this one).
export PATH="$toolkit/bin:$PATH"
cmake -S "$src" -B "$tmp/build-cuda" \
  -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=ON \
  -DCMAKE_BUILD_RPATH_USE_ORIGIN=ON \
  -DCMAKE_INSTALL_RPATH='$ORIGIN' \
  -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON \
  -DGGML_NATIVE=OFF \
  -DGGML_CUDA=ON \
  -DGGML_CUDA_NO_VMM=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_COMPILER="$toolkit/bin/nvcc" \
  -DCUDAToolkit_ROOT="$toolkit" \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$toolkit/lib" \
  -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$toolkit/lib" \
  "${llama_options[@]}"

nice -n 10 cmake --build "$tmp/build-cuda" --config Release -j"$jobs" --target "${targets[@]}"

mkdir -p "$prefix/bin"
install -m 0755 "$tmp/build-cuda/bin/llama-server" "$tmp/build-cuda/bin/llama-bench" "$prefix/bin/"
find "$tmp/build-cuda/bin" -maxdepth 1 -name 'lib*.so*' -exec cp -P {} "$prefix/bin/" \;
strip --strip-unneeded "$prefix/bin/"* 2>/dev/null || true
echo "llama.cpp $commit ($built_as)" > "$prefix/VERSION"
echo "llama.cpp (CUDA) installed: $prefix/bin ($(cat "$prefix/VERSION"))"
du -sh "$prefix/bin"
