#!/usr/bin/env bash
# Builds llama.cpp (CPU only) as an independent reference for radixserve:
# llama-server produces the tokenizer / greedy-decode fixtures
# (scripts/make-reference-fixtures.py) and llama-bench the baseline numbers.
#
# The llama.cpp source comes vendored in the llama-cpp-python sdist, pinned by
# version so the reference does not drift; pip fetches it like any package.
#
# Usage: scripts/build-llama-cpp.sh        (installs into $LLAMA_CPP_PREFIX/bin)
# Env:   LLAMA_CPP_PREFIX  install dir, default /opt/llama.cpp
#        LLAMA_CPP_JOBS    parallel compile jobs, default 2
#        LLAMA_CPP_WORKDIR keep source + build tree here (default: temp dir,
#                          removed on exit); reruns after a failure resume
#        LLAMA_CPP_CFLAGS  extra compiler flags, e.g. "-mno-avx512f" for the AVX2 build
#                          that BENCHMARKS.md compares with radixserve's AVX2 kernels
set -euo pipefail

version="0.3.36"
prefix="${LLAMA_CPP_PREFIX:-/opt/llama.cpp}"
jobs="${LLAMA_CPP_JOBS:-2}"
targets=(llama-server llama-bench llama-batched-bench llama-tokenize)

# Skip when this exact version is already installed.
have_all=1
for t in "${targets[@]}"; do
  [ -x "$prefix/bin/$t" ] || have_all=0
done
built_as="(llama-cpp-python $version)${LLAMA_CPP_CFLAGS:+ $LLAMA_CPP_CFLAGS}"
if [ "$have_all" = 1 ] && [[ "$(cat "$prefix/VERSION" 2>/dev/null)" == *"$built_as" ]]; then
  echo "llama.cpp present: $prefix/bin ($(cat "$prefix/VERSION"))"
  exit 0
fi

# shellcheck source=scripts/llama-cpp-source.sh
source "$(dirname "$0")/llama-cpp-source.sh"

# GGML_NATIVE (default ON) keeps -march=native, matching how we benchmark, but
# minus AMX: ggml's AMX matmul faults (SIGSEGV on ldtilecfg) in VMs whose CPU
# advertises AMX without exposing tile state, and the reference should not
# hinge on that path anyway. GCC honours explicit -mno-* over -march=native.
cflags=""
case "$(uname -m)" in
  x86_64) cflags="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16" ;;
esac
cflags="$cflags ${LLAMA_CPP_CFLAGS:-}"

# Static binaries so the install dir is self-contained (no libllama.so paths).
cmake -S "$src" -B "$tmp/build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$cflags" \
  -DCMAKE_CXX_FLAGS="$cflags" \
  -DBUILD_SHARED_LIBS=OFF \
  "${llama_options[@]}"

# Low priority and few jobs: this shares the machine with other builds.
nice -n 10 cmake --build "$tmp/build" --config Release -j"$jobs" \
  --target "${targets[@]}"

mkdir -p "$prefix/bin"
for t in "${targets[@]}"; do
  install -m 0755 "$tmp/build/bin/$t" "$prefix/bin/$t"
done
echo "llama.cpp $commit $built_as" > "$prefix/VERSION"
echo "llama.cpp installed: $prefix/bin ($(cat "$prefix/VERSION"))"
