#!/usr/bin/env bash
# Serving with a LoRA adapter against the base model, and llama.cpp's llama-server the same
# way, on the default model: the random workload (32 prompts of 512 tokens, 64 output tokens,
# concurrency 16, temperature 0, ignore_eos) over /v1/completions, driven by loadgen.
#   radixserve: one server with --lora-paths lora_a=<adapter>; requests name the base model,
#               then the adapter (`model`).
#   llama-server: without the adapter, then with `--lora <adapter>` (applied to every request).
# Both: 2 threads, 16 slots, 20,480 tokens of f16 KV (as scripts/compare-llama.sh).
# The adapter is the test adapter smollm2_lora_a (rank 8 on every projection, f32; see
# scripts/make-lora-adapters.py). radixserve runs base and adapter three times, interleaved.
# Writes <out>/summary.md, each run's JSON, and each run's server CPU seconds in run.txt.
#
# Usage: scripts/bench-lora.sh [OUT_DIR]     (default target/bench-lora)
# Needs: cargo build --release -p engine --bin radixserve -p benches --bin loadgen,
#        scripts/build-llama-cpp.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/bench-lora}"
mkdir -p "$out"
model=models/SmolLM2-135M-Instruct.Q4_1.gguf
[ -f "$model" ] || scripts/fetch-model.sh
adapter="$(scripts/fetch-family-models.sh | tail -1)/smollm2_lora_a.gguf"
loadgen=target/release/loadgen
llama="${LLAMA_CPP_PREFIX:-/opt/llama.cpp}/bin/llama-server"
common=(--backend openai --max-concurrency 16 --temperature 0 --ignore-eos true
  --dataset random --num-prompts 32 --random-input-len 512 --random-output-len 64)

pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null' EXIT

wait_healthy() {
  for _ in $(seq 120); do curl -sf "$1/health" >/dev/null && return 0; sleep 1; done
  echo "bench-lora: $1 did not come up" >&2
  return 1
}

echo "start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)" \
  | tee "$out/run.txt"
# The server's CPU seconds over a run: steadier than throughput on a shared machine, where
# the cores a run gets vary from minute to minute.
cpu_s() { awk -v t="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }
run() { # pid url model label seed
  local before; before=$(cpu_s "$1")
  "$loadgen" "${common[@]}" --seed "$5" --url "$2" --model-name "$3" --label "$4" \
    --output "$out/$4.json" >"$out/$4.txt" 2>&1
  echo "$4 server_cpu_s $(awk -v a="$(cpu_s "$1")" -v b="$before" 'BEGIN { printf "%.2f", a - b }')" \
    | tee -a "$out/run.txt"
}

RAYON_NUM_THREADS=2 target/release/radixserve serve --model "$model" --max-running-requests 16 \
  --kv-dtype f16 --kv-budget-mb 450 --http-port 18080 --grpc-port 18081 \
  --lora-paths "lora_a=$adapter" >"$out/radixserve.log" 2>&1 &
pid=$!
wait_healthy http://127.0.0.1:18080
# Base and adapter runs interleaved, three rounds, each round its own prompts (no run finds
# another's prefixes cached).
for round in 1 2 3; do
  run "$pid" http://127.0.0.1:18080 SmolLM2-135M-Instruct.Q4_1 "radixserve-base-$round" "$round"
  run "$pid" http://127.0.0.1:18080 lora_a "radixserve-lora_a-$round" "$round"
done
kill "$pid"; wait "$pid" || true
for mode in base lora_a; do
  extra=()
  [ "$mode" = lora_a ] && extra=(--lora "$adapter")
  "$llama" -m "$model" --host 127.0.0.1 --port 18090 -t 2 -tb 2 -np 16 -c 20480 \
    ${extra[@]+"${extra[@]}"} >"$out/llama-server-$mode.log" 2>&1 &
  pid=$!
  wait_healthy http://127.0.0.1:18090
  curl -s http://127.0.0.1:18090/lora-adapters >"$out/llama-server-$mode-adapters.json"
  run "$pid" http://127.0.0.1:18090 "$mode" "llama-server-$mode" 1
  kill "$pid"; wait "$pid" || true
done
echo "end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/run.txt"
"$loadgen" summarize "$out"/radixserve-*.json "$out"/llama-server-base.json \
  "$out"/llama-server-lora_a.json >"$out/summary.md"
cat "$out/summary.md"
