#!/usr/bin/env bash
# Runs the same workloads against radixserve and llama.cpp's llama-server on the default model
# (SmolLM2-135M-Instruct Q4_1), one server at a time, and writes one markdown table
# (throughput, TTFT, ITL, cache hit rate per server per workload) plus each run's JSON and
# SVG plots (llama-server's overlaid on radixserve's) into a results directory.
#
# Both servers get the same threads (2), 16 parallel slots and 20,480 tokens of f16 KV cache
# (llama-server: -np 16 -c 20480; radixserve: --max-running-requests 16, --kv-dtype f16,
# --kv-budget-mb 450 = 20,480 tokens of 23,040 bytes). Both are driven by loadgen over the
# same OpenAI-compatible /v1/completions API with token-id prompts; --grpc adds radixserve
# over gRPC as a third row.
#
# Workloads (concurrency 16, ignore_eos, temperature 0, 64 output tokens):
#   random       64 prompts of 512 random tokens, nothing shared
#   shared       generated shared prefix: 4 groups x 16 prompts, 1,024-token group prefix
#                + 64-token question
# --quick shrinks them (8 x 128 tokens; 2 x 4 prompts of 256 + 32; 16 output tokens) to check
# the whole procedure in a few minutes.
#
# Usage: scripts/compare-llama.sh [--quick] [--grpc] [--profile release|ci] [--no-build]
#                                 [--out DIR]
# Env:   THREADS (2), LLAMA_CPP_PREFIX (/opt/llama.cpp), RADIXSERVE_ARGS / LLAMA_SERVER_ARGS
#        (extra server flags), LOADGEN_ARGS (extra loadgen flags for every run)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

quick=0
grpc=0
build=1
profile=release
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --grpc) grpc=1 ;;
    --no-build) build=0 ;;
    --profile) profile="${2:?--profile needs release or ci}"; shift ;;
    --out) out="${2:?--out needs a directory}"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "compare-llama: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

threads="${THREADS:-2}"
slots=16
ctx=20480
model="$root/models/SmolLM2-135M-Instruct.Q4_1.gguf"
llama_prefix="${LLAMA_CPP_PREFIX:-/opt/llama.cpp}"
out="${out:-$root/target/compare-llama/$(date +%Y%m%d-%H%M%S)$([ "$quick" = 1 ] && echo -quick)}"
mkdir -p "$out/logs" "$out/plots"

# --- prerequisites: model, llama.cpp, our binaries ---
[ -f "$model" ] || scripts/fetch-model.sh
if [ ! -x "$llama_prefix/bin/llama-server" ]; then
  LLAMA_CPP_PREFIX="$llama_prefix" scripts/build-llama-cpp.sh
fi
if [ "$build" = 1 ]; then
  cargo build --profile "$profile" -p engine --bin radixserve
  cargo build --profile "$profile" -p benches --bin loadgen
fi
radixserve="$root/target/$profile/radixserve"
loadgen="$root/target/$profile/loadgen"
for bin in "$radixserve" "$loadgen"; do
  [ -x "$bin" ] || { echo "compare-llama: $bin missing (drop --no-build)" >&2; exit 1; }
done

# --- workloads ---
if [ "$quick" = 1 ]; then
  random_flags=(--dataset random --num-prompts 8 --random-input-len 128 --random-output-len 16)
  shared_flags=(--dataset generated-shared-prefix --gsp-num-groups 2 --gsp-prompts-per-group 4
    --gsp-system-prompt-len 256 --gsp-question-len 32 --gsp-output-len 16)
else
  random_flags=(--dataset random --num-prompts 64 --random-input-len 512 --random-output-len 64)
  shared_flags=(--dataset generated-shared-prefix --gsp-num-groups 4 --gsp-prompts-per-group 16
    --gsp-system-prompt-len 1024 --gsp-question-len 64 --gsp-output-len 64)
fi
common_flags=(--max-concurrency "$slots" --temperature 0 --ignore-eos true --seed 1
  --tokenizer "$model" --no-progress)
# shellcheck disable=SC2206  # word splitting of the user's extra flags is intended
common_flags+=(${LOADGEN_ARGS:-})

# --- servers: started one at a time, always stopped on exit ---
server_pid=""
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap stop_server EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_healthy() { # URL NAME LOG
  for _ in $(seq 240); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "compare-llama: $2 exited while starting; see $3" >&2
      tail -20 "$3" >&2
      exit 1
    fi
    if curl -sf "$1/health" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "compare-llama: $2 not healthy after 120 s; see $3" >&2
  exit 1
}

# run_workloads SERVER BACKEND URL: both workloads against a running server.
run_workloads() {
  local server="$1" backend="$2" url="$3" name flags
  for name in random shared; do
    if [ "$name" = random ]; then flags=("${random_flags[@]}"); else flags=("${shared_flags[@]}"); fi
    local compare=()
    if [ "$server" != radixserve ] && [ -f "$out/radixserve-$name.json" ]; then
      compare=(--compare "$out/radixserve-$name.json")
    fi
    echo "== $server: $name"
    "$loadgen" --backend "$backend" --url "$url" --label "$server" "${flags[@]}" \
      "${common_flags[@]}" ${compare[@]+"${compare[@]}"} \
      --output "$out/$server-$name.json" --plots "$out/plots/$server-$name" \
      | tee "$out/logs/loadgen-$server-$name.txt"
  done
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# radixserve
http_port="$(free_port)"
grpc_port="$(free_port)"
log="$out/logs/radixserve.log"
# shellcheck disable=SC2086  # RADIXSERVE_ARGS is a list of flags
RAYON_NUM_THREADS="$threads" "$radixserve" serve --model "$model" --host 127.0.0.1 \
  --http-port "$http_port" --grpc-port "$grpc_port" --max-running-requests "$slots" \
  --kv-dtype f16 --kv-budget-mb 450 ${RADIXSERVE_ARGS:-} >"$log" 2>&1 &
server_pid=$!
wait_healthy "http://127.0.0.1:$http_port" radixserve "$log"
run_workloads radixserve openai "http://127.0.0.1:$http_port"
if [ "$grpc" = 1 ]; then
  # A fresh server, so the gRPC rows start from a cold cache too.
  stop_server
  RAYON_NUM_THREADS="$threads" "$radixserve" serve --model "$model" --host 127.0.0.1 \
    --http-port "$http_port" --grpc-port "$grpc_port" --max-running-requests "$slots" \
    --kv-dtype f16 --kv-budget-mb 450 ${RADIXSERVE_ARGS:-} >>"$log" 2>&1 &
  server_pid=$!
  wait_healthy "http://127.0.0.1:$http_port" radixserve "$log"
  run_workloads radixserve-grpc grpc "http://127.0.0.1:$grpc_port"
fi
stop_server

# llama-server
port="$(free_port)"
log="$out/logs/llama-server.log"
# shellcheck disable=SC2086  # LLAMA_SERVER_ARGS is a list of flags
"$llama_prefix/bin/llama-server" -m "$model" --host 127.0.0.1 --port "$port" \
  -t "$threads" -tb "$threads" -np "$slots" -c "$ctx" ${LLAMA_SERVER_ARGS:-} >"$log" 2>&1 &
server_pid=$!
wait_healthy "http://127.0.0.1:$port" llama-server "$log"
run_workloads llama-server openai "http://127.0.0.1:$port"
stop_server

# --- the table ---
summary="$out/summary.md"
{
  echo "# radixserve vs llama-server$([ "$quick" = 1 ] && echo ' (quick mode)')"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- llama.cpp: $(cat "$llama_prefix/VERSION" 2>/dev/null || echo unknown); radixserve build profile: $profile"
  echo "- both servers: $threads threads, $slots slots, $ctx tokens of f16 KV; loadgen over /v1/completions, token-id prompts, concurrency $slots, ignore_eos, temperature 0"
  echo
  results=()
  for name in random shared; do
    for server in radixserve radixserve-grpc llama-server; do
      [ -f "$out/$server-$name.json" ] && results+=("$out/$server-$name.json")
    done
  done
  "$loadgen" summarize "${results[@]}"
  echo
  echo "TTFT: request sent to first token chunk; ITL: gap between token chunks; cache hit rate:"
  echo "cached prompt tokens / prompt tokens as each server reports them (docs/loadgen.md)."
} >"$summary"
echo
cat "$summary"
echo
echo "results: $out (summary.md, <server>-<workload>.json, plots/, logs/)"
