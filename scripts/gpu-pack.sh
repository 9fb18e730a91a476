#!/usr/bin/env bash
# Builds here what a GPU session runs on the lent GPU machine (it has no Rust and no network)
# and packs it into .cache/gpu-carry/ (git-ignored) in pieces the device tool can carry
# (64 MiB per call at most):
#   part1/: the CUDA test binaries (kernels: cuda_kernels, cuda_sampling, cuda_graphs,
#           cuda_fused; engine: gpu_model, gpu_engine),
#           the model_forward bench, radixserve and loadgen, all `--features cuda`, ci
#           profile, stripped and xz-compressed; and the first piece of the default model;
#   part2/: the rest of the model;
#   peer/:  the llama.cpp CUDA build (scripts/build-llama-cpp-cuda.sh), if present.
# Carry part1 in one call and part2 in the next (within the machine's idle time), then run
# scripts/gpu-run.sh there: `unpack` first, then the checks and benchmarks it lists.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.cache/gpu-carry
rm -rf "$out"
mkdir -p "$out/part1" "$out/part2"
scripts/fetch-model.sh >/dev/null
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
cuda_env >/dev/null

# The executables cargo reports for `$@`, as "name path" lines.
executables() {
  cargo "$@" --message-format=json-render-diagnostics 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    kinds = m.get("target", {}).get("kind", [])
    if m.get("reason") == "compiler-artifact" and m.get("executable") and (
        set(kinds) & {"test", "bench", "bin"}
    ):
        print(m["target"]["name"], m["executable"])
'
}

{
  executables test --profile ci -p kernels --features cuda --test cuda_kernels \
    --test cuda_sampling --test cuda_graphs --test cuda_fused --no-run
  executables test --profile ci -p engine --features cuda --test gpu_model --test gpu_engine --no-run
  executables bench --profile ci -p benches --features cuda --bench model_forward --no-run
  executables build --profile ci -p engine -p benches --features engine/cuda \
    --bin radixserve --bin loadgen
} | while read -r name path; do
  # A binary target is reported by every build that links it: pack it once.
  [ -e "$out/part1/$name.xz" ] && continue
  strip --strip-debug -o "$out/part1/$name" "$path"
  xz -T2 -6 "$out/part1/$name"
done

# The model in two pieces (the whole file is over one call's limit).
model=models/SmolLM2-135M-Instruct.Q4_1.gguf
head -c 45000000 "$model" > "$out/part1/model.part1"
tail -c +45000001 "$model" > "$out/part2/model.part2"
sha256sum "$model" | awk '{print $1}' > "$out/part1/model.sha256"

if [ -x .cache/llama-cuda/bin/llama-server ]; then
  mkdir -p "$out/peer"
  tar -C .cache/llama-cuda -cJf "$out/peer/llama-cuda.tar.xz" bin VERSION
fi
du -sh "$out"/*
ls -l "$out"/*
# Each part travels in one call: 64 MiB at most.
for part in "$out"/*/; do
  size=$(du -sb "$part" | awk '{print $1}')
  if ((size > 64 * 1024 * 1024)); then
    echo "$part is $size bytes, over the 64 MiB a call carries" >&2
    exit 1
  fi
done
