#!/usr/bin/env bash
# Routing quality behind the smg gateway: the shared-prefix workload (loadgen
# generated-shared-prefix, text prompts) against one radixserve server directly, and through
# smg with 1 replica, 2 replicas round-robin and 2 replicas cache-aware, over HTTP and over
# gRPC (the SGLang worker protocol, routed by KV events). Writes one loadgen JSON per run
# into DIR (default .cache/bench-scaleout) and prints the summary table.
#
#   scripts/bench-scaleout.sh [DIR]        LOADGEN_ARGS="..." overrides the workload
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="${1:-$root/.cache/bench-scaleout}"
model="$root/models/SmolLM2-135M-Instruct.Q4_1.gguf"
workload="${LOADGEN_ARGS:---gsp-num-groups 4 --gsp-prompts-per-group 16 --gsp-system-prompt-len 1024 --gsp-question-len 64 --gsp-output-len 64 --seed 1}"
mkdir -p "$out"
rm -f "$out"/*.json
scripts/fetch-model.sh >/dev/null
cargo build --profile ci -p engine --bin radixserve -p benches --bin loadgen >&2
smg="$(scripts/fetch-smg.sh)"

# One server, no gateway.
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
target/ci/radixserve serve --model "$model" --http-port "$port" --grpc-port 0 --kv-budget-mb 256 \
  >"$out/direct.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 300); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.2
done
# shellcheck disable=SC2086
target/ci/loadgen --backend openai --url "http://127.0.0.1:$port" --dataset generated-shared-prefix \
  --tokenizer "$model" --send-text --no-progress --label "direct, 1 server" $workload \
  --output "$out/0-direct.json"
kill "$server"
wait "$server" 2>/dev/null || true
trap - EXIT

run=1
for config in "1 http cache_aware" "2 http round_robin" "2 http cache_aware" \
  "2 grpc round_robin" "2 grpc cache_aware"; do
  read -r replicas mode policy <<<"$config"
  python3 scripts/scaleout.py bench --smg "$smg" --replicas "$replicas" --mode "$mode" \
    --policy "$policy" --loadgen-args "$workload" --workdir "$out/run-$run" \
    --output "$out/$run-$mode-$policy-x$replicas.json" \
    --label "smg $mode $policy, $replicas replica(s)" >&2
  run=$((run + 1))
done
target/ci/loadgen summarize "$out"/*.json
