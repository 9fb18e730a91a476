#!/usr/bin/env bash
# Runs on the lent GPU machine, from the repository root, what scripts/gpu-pack.sh built:
#   unpack              binaries to /root/gpu-bin, the model into models/ (checked)
#   kernels             CUDA kernels against the CPU and each other (cuda_kernels,
#                       cuda_sampling, cuda_graphs, cuda_fused)
#   model [FILTER]      the GPU runner tests (gpu_model), then the engine ones (gpu_engine)
#   families DIR LIST   the family checks on the GPU (GGUFs carried into DIR; LIST: qwen2,phi3)
#   forward             the model_forward bench's GPU groups
#   serve NAME [FLAGS]  radixserve with serving config (b) plus FLAGS (for example
#                       `--sampling host`, `--overlap-schedule`, `--disable-cuda-graph`),
#                       driven by loadgen's shared and random workloads; results in
#                       $OUT/NAME/
#   peer                the same workloads against llama.cpp's llama-server (-ngl 99)
# Output goes to $OUT when set (the device tool brings it back), else to /tmp/gpu-run.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=/root/gpu-bin
carry=.cache/gpu-carry
model=models/SmolLM2-135M-Instruct.Q4_1.gguf
out="${OUT:-/tmp/gpu-run}"
mkdir -p "$out"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# A GPU test that cannot open the device fails here instead of skipping.
export RADIXSERVE_REQUIRE_GPU=1
# The server the engine tests start (their build-time path is this machine's).
export RADIXSERVE_BIN=$bin/radixserve

wait_healthy() {
  for _ in $(seq 1 300); do
    curl -sf "$1/health" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "$2 did not come up; see $3" >&2
  tail -20 "$3" >&2
  return 1
}

# The two workloads of BENCHMARKS.md's GPU section, configuration (b).
workloads() {
  local name=$1 url=$2
  mkdir -p "$out/$name"
  "$bin/loadgen" --backend openai --url "$url" --max-concurrency 128 \
    --temperature 0 --ignore-eos true --seed 1 --dataset generated-shared-prefix \
    --gsp-num-groups 8 --gsp-prompts-per-group 64 --gsp-system-prompt-len 1024 \
    --gsp-question-len 64 --gsp-output-len 128 > "$out/$name/shared.txt" 2>&1
  "$bin/loadgen" --backend openai --url "$url" --max-concurrency 128 \
    --temperature 0 --ignore-eos true --seed 1 --dataset random --num-prompts 512 \
    --random-input-len 512 --random-output-len 128 > "$out/$name/random.txt" 2>&1
  tail -5 "$out/$name/shared.txt" "$out/$name/random.txt"
}

# A test binary, one test at a time, under a time limit (a hung test must not eat a call's
# 10 minutes); a failure is recorded in failures.txt and the next binary still runs.
run_tests() {
  local limit=$1 name=$2
  shift 2
  timeout --signal=KILL "$limit" "$bin/$name" --nocapture --test-threads 1 "$@" 2>&1 \
    | tee "$out/$name.txt" \
    || echo "$name: failed or timed out (exit ${PIPESTATUS[0]})" | tee -a "$out/failures.txt"
}

case "${1:-}" in
unpack)
  mkdir -p "$bin"
  for f in "$carry"/part1/*.xz; do
    xz -dc "$f" > "$bin/$(basename "$f" .xz)"
    chmod +x "$bin/$(basename "$f" .xz)"
  done
  mkdir -p models
  cat "$carry/part1/model.part1" "$carry/part2/model.part2" > "$model"
  echo "$(cat "$carry/part1/model.sha256")  $model" | sha256sum -c -
  if [ -f "$carry/peer/llama-cuda.tar.xz" ]; then
    mkdir -p /root/llama-cuda
    tar -C /root/llama-cuda -xJf "$carry/peer/llama-cuda.tar.xz"
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/gpu.txt"
  ls -l "$bin"
  ;;
kernels)
  run_tests 180 cuda_kernels
  run_tests 120 cuda_sampling
  run_tests 120 cuda_graphs
  run_tests 120 cuda_fused
  ;;
model)
  run_tests 420 gpu_model ${2:+"$2"}
  run_tests 420 gpu_engine ${2:+"$2"}
  ;;
families)
  RADIXSERVE_FAMILY_MODELS="$2" RADIXSERVE_GPU_FAMILIES="$3" timeout --signal=KILL 540 \
    "$bin/gpu_model" --nocapture gpu_runner_runs_every_family 2>&1 | tee -a "$out/families.txt"
  ;;
forward)
  # Every GPU group: gpu/, gpu-unfused/, gpu-sampled/, gpu-graphs/.
  timeout --signal=KILL 580 "$bin/model_forward" --bench gpu 2>&1 | tee "$out/model_forward.txt"
  ;;
serve)
  name=$2
  shift 2
  port=18080
  log="$out/$name.server.log"
  mkdir -p "$out"
  "$bin/radixserve" serve --model "$model" --device cuda:0 --http-port "$port" \
    --grpc-port 18081 --kv-dtype f16 --max-running-requests 128 --kv-budget-mb 8192 \
    --max-prefill-tokens 8192 --chunked-prefill-size 4096 "$@" > "$log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  wait_healthy "http://127.0.0.1:$port" radixserve "$log"
  workloads "$name" "http://127.0.0.1:$port"
  curl -s "http://127.0.0.1:$port/metrics" \
    | grep -E 'step_phase_seconds_(sum|count)|cuda_graph_replays_total' \
    > "$out/$name/phases.txt" || true
  cat "$out/$name/phases.txt"
  ;;
peer)
  port=18090
  log="$out/llama-server.log"
  # 128 slots of 1,216 tokens (1,024 + 64 prompt, 128 out), as radixserve's 128 requests.
  LD_LIBRARY_PATH="/root/llama-cuda/bin:$LD_LIBRARY_PATH" /root/llama-cuda/bin/llama-server \
    -m "$model" --host 127.0.0.1 --port "$port" -ngl 99 -np 128 -c $((128 * 1216)) \
    > "$log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  wait_healthy "http://127.0.0.1:$port" llama-server "$log"
  workloads llama-server "http://127.0.0.1:$port"
  LD_LIBRARY_PATH="/root/llama-cuda/bin:$LD_LIBRARY_PATH" /root/llama-cuda/bin/llama-bench \
    -m "$model" -ngl 99 -p 512 -n 128 2>&1 | tee "$out/llama-bench.txt"
  ;;
*)
  sed -n '2,14p' "$0"
  exit 2
  ;;
esac
