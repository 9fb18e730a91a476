#!/usr/bin/env bash
# The multi-turn tier benchmark of BENCHMARKS.md: scripts/bench-kv-tiers.py against
#   1. radixserve with a pool that holds every conversation (the ideal),
#   2. radixserve with a pool 4x smaller than the conversations' K/V, no tier below it,
#   3. the same small pool with the disk tier (--kv-disk-dir),
#   4. the same with a restart (SIGTERM, start again on the same directory) after turn 3,
#   5. llama-server (its prompt cache in RAM, --cache-ram) on the same workload.
# Results are appended to $OUT as JSON lines; every run starts a fresh server.
#
# Usage: scripts/bench-kv-tiers.sh [runs...]   (runs: unlimited small disk restart llama;
#        default all). Env: CONVERSATIONS (96), TURNS (6), TURN_LEN (128), OUTPUT_LEN (32),
#        THINK_S (2), OUT (/tmp/kv-tiers.jsonl), LLAMA_SERVER (/opt/llama.cpp/bin/llama-server)
set -euo pipefail
cd "$(dirname "$0")/.."

conversations="${CONVERSATIONS:-96}"
turns="${TURNS:-6}"
turn_len="${TURN_LEN:-128}"
output_len="${OUTPUT_LEN:-32}"
think="${THINK_S:-2}"
out="${OUT:-/tmp/kv-tiers.jsonl}"
llama="${LLAMA_SERVER:-/opt/llama.cpp/bin/llama-server}"
model=models/SmolLM2-135M-Instruct.Q4_1.gguf
bin=target/release/radixserve
port=18100
work="$(mktemp -d)"
trap 'kill $(cat "$work"/pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

[ -f "$model" ] || scripts/fetch-model.sh
[ -x "$bin" ] || cargo build --release -p engine --bin radixserve

# K/V of every conversation at its last turn, f32 (46,080 bytes a token for this model).
total_mb=$(( conversations * turns * (turn_len + output_len) * 46080 / 1048576 ))
small_mb=$(( total_mb / 4 ))
echo "workload: ${conversations} x ${turns} turns of ${turn_len} + ${output_len}: K/V ${total_mb} MiB; small pool ${small_mb} MiB"

wait_health() {
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "server did not come up" >&2; return 1
}

# Writes the start command of a server to $work/start.sh and runs it.
serve() {
  printf '#!/usr/bin/env bash\n%s > %q 2>&1 &\necho $! > %q\n' "$*" "$work/server.log" "$work/pid" > "$work/start.sh"
  chmod +x "$work/start.sh"
  "$work/start.sh"
  wait_health
}

stop() {
  local pid; pid=$(cat "$work/pid")
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

bench() {
  local label="$1"; shift
  scripts/bench-kv-tiers.py --url "http://127.0.0.1:$port" --label "$label" \
    --conversations "$conversations" --turns "$turns" --turn-len "$turn_len" \
    --output-len "$output_len" --think-time-s "$think" --output "$out" "$@"
}

rs="$bin serve --model $model --host 127.0.0.1 --http-port $port --grpc-port 0"
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(unlimited small disk restart llama)
for run in "${runs[@]}"; do
  case "$run" in
    unlimited)
      serve "$rs --kv-budget-mb $(( total_mb * 5 / 4 ))"
      bench "radixserve pool ${total_mb}+ MiB (holds all)"; stop ;;
    small)
      serve "$rs --kv-budget-mb $small_mb"
      bench "radixserve pool ${small_mb} MiB, no tier"; stop ;;
    disk)
      rm -rf "$work/kv"
      serve "$rs --kv-budget-mb $small_mb --kv-disk-dir $work/kv"
      bench "radixserve pool ${small_mb} MiB + disk tier"; stop
      du -sh "$work/kv" ;;
    restart)
      rm -rf "$work/kv"
      serve "$rs --kv-budget-mb $small_mb --kv-disk-dir $work/kv"
      bench "radixserve pool ${small_mb} MiB + disk, restart after turn 3" \
        --restart-after-turn 3 \
        --restart-cmd "kill -TERM \$(cat $work/pid); while kill -0 \$(cat $work/pid) 2>/dev/null; do sleep 0.1; done; $work/start.sh"
      stop ;;
    llama)
      serve "$llama -m $model --host 127.0.0.1 --port $port -c 32768 -np 16 -t 2 --cache-ram 8192"
      bench "llama-server -np 16 --cache-ram 8192" --api llama --reply-ids standin; stop ;;
    *) echo "unknown run $run" >&2; exit 2 ;;
  esac
done
