#!/usr/bin/env bash
# Generates the small random-weight llama/qwen2/qwen3/qwen3moe/gemma2/gemma3/smollm3/phi3/granite/granitemoe/gpt-oss/olmo2
# GGUFs, a granitemoe one with shared experts, three deepseek2 ones (DeepSeek-V3 style MLA, the
# same with Mistral Large 3's attention temperature, DeepSeek-V2-Lite style legacy), a
# GLM-4.5-Air style glm4moe one with a multi-token-prediction layer, Qwen1.5-MoE style
# qwen2moe, MiniMax-M2 style minimax-m2, Ministral 3 style mistral3, Llama 4 Scout style
# llama4 ones (llama4 twice: llama4_long the same weights trained for 16,384 positions, for a
# fixture past Llama 4's 8,192-position attention chunks), Qwen3.5 style qwen35 and qwen35moe
# ones (gated delta net and gated attention; dense, MoE), Qwen3-Next style qwen3next ones
# (twice: qwen3next_ssm_in the same weights in the legacy ssm_in layout), Gemma 4 style gemma4
# ones (E2B style with per-layer embeddings and shared K/V, 26B-A4B style gemma4moe; their own
# BPE vocabulary), LFM2 style ones (LFM2-350M style lfm2: gated short-convolution and attention
# layers; LFM2-8B-A1B style lfm2moe: the same with experts after two dense layers), an EXAONE
# 4.0 32B style exaone4 one (post-norms only; 64 tiny layers, three of every four sliding, the
# fourth without RoPE), Granite 4.0-H style granitehybrid ones (granite_hybrid: Mamba-2 and
# attention layers without RoPE; granite_hybrid_moe: the same with RoPE and experts beside a
# shared one), a Nemotron-H style nemotron_h one (Mamba-2, attention without RoPE and
# ReLU-squared MLP layers), phi3's two LongRoPE variants and a Mixtral-style llama that the
# family tests run (scripts/make-family-models.py),
# and the LoRA adapters the LoRA tests run (two GGUF ones and a PEFT directory for SmolLM2, one
# for phi3: scripts/make-lora-adapters.py) into .cache/family-models, with gguf and numpy pinned in
# .cache/gguf-py so the files come out byte-identical, and checks each against the sha256 in
# its fixture (engine/tests/fixtures/families/<family>.json). Prints the models directory
# as the last line of stdout.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
deps="$root/.cache/gguf-py"
dest="$root/.cache/family-models"
fixtures="$root/engine/tests/fixtures/families"
gguf_version="0.17.1"
numpy_version="2.2.6"
families=(llama llama_moe qwen2 qwen3 qwen3moe gemma2 gemma3 smollm3 phi3 phi3_longrope_short
  phi3_longrope_long granite granite_moe granite_moe_shared gpt_oss olmo2 deepseek2 deepseek2_lite glm4moe qwen2moe minimax_m2 mistral3 deepseek2_temperature llama4 llama4_long qwen35 qwen35moe qwen3next qwen3next_ssm_in gemma4 gemma4moe lfm2 lfm2moe exaone4 granite_hybrid granite_hybrid_moe nemotron_h smollm2_lora_a smollm2_lora_b smollm2_lora_a_peft phi3_lora)

# The file of `$1` under directory `$2` whose sha256 its fixture records: a PEFT adapter is a
# directory, checked by its weights.
file_of() {
  case "$1" in
    *_peft) echo "$2/$1/adapter_model.safetensors" ;;
    *) echo "$2/$1.gguf" ;;
  esac
}

# The sha256 a family's fixture was made from, or nothing if it has no fixture yet.
expected_sha256() {
  local fixture="$fixtures/$1.json"
  [ -f "$fixture" ] || return 0
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d.get("file_sha256") or d["gguf_sha256"])' "$fixture"
}

# A PEFT adapter's configuration, checked beside its weights: "<sha256>  <file>", or nothing.
config_check() {
  local fixture="$fixtures/$1.json"
  case "$1" in *_peft) ;; *) return 0 ;; esac
  [ -f "$fixture" ] || return 0
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1])).get("config_sha256")
if c:
    print(f"{c}  {sys.argv[2]}")' "$fixture" "$2/$1/adapter_config.json"
}

up_to_date() {
  local want config
  want="$(expected_sha256 "$1")"
  config="$(config_check "$1" "$dest")"
  [ -n "$want" ] && [ -f "$(file_of "$1" "$dest")" ] &&
    echo "$want  $(file_of "$1" "$dest")" | sha256sum --check --status &&
    { [ -z "$config" ] || echo "$config" | sha256sum --check --status; }
}

missing=()
for family in "${families[@]}"; do
  up_to_date "$family" || missing+=("$family")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if ! PYTHONPATH="$deps" python3 -c "
import sys, gguf, numpy, importlib.metadata as m
sys.exit(m.version('gguf') != '$gguf_version' or numpy.__version__ != '$numpy_version')
" 2>/dev/null; then
    rm -rf "$deps"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts \
      --target "$deps" "gguf==$gguf_version" "numpy==$numpy_version" >&2
  fi
  # The llama/qwen2/qwen3 models reuse SmolLM2's BPE vocabulary.
  "$root/scripts/fetch-model.sh" >&2

  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  # The LoRA adapters (for SmolLM2 itself) have a generator of their own.
  models=() adapters=()
  for family in "${missing[@]}"; do
    case "$family" in
      *_lora*) adapters+=("$family") ;;
      *) models+=("$family") ;;
    esac
  done
  if [ "${#models[@]}" -gt 0 ]; then
    PYTHONPATH="$deps" python3 "$root/scripts/make-family-models.py" \
      --out "$tmp" "${models[@]}" >&2
  fi
  if [ "${#adapters[@]}" -gt 0 ]; then
    PYTHONPATH="$deps" python3 "$root/scripts/make-lora-adapters.py" \
      --out "$tmp" "${adapters[@]}" >&2
  fi
  mkdir -p "$dest"
  status=0
  for family in "${missing[@]}"; do
    want="$(expected_sha256 "$family")"
    got="$(sha256sum "$(file_of "$family" "$tmp")" | cut -d' ' -f1)"
    config="$(config_check "$family" "$tmp")"
    if [ -n "$config" ] && ! echo "$config" | sha256sum --check --status; then
      got="$got (and its adapter_config.json differs)"
    fi
    if [ -n "$want" ] && [ "$got" != "$want" ]; then
      echo "fetch-family-models: $family came out with sha256 $got, but" \
        "$fixtures/$family.json was made from $want (if the generator changed on purpose," \
        "regenerate with scripts/make-family-models.py or make-lora-adapters.py, then" \
        "scripts/make-family-fixtures.py or make-lora-fixtures.py)" >&2
      status=1
      continue
    fi
    case "$family" in
      *_peft) rm -rf "${dest:?}/$family"; mv "$tmp/$family" "$dest/$family" ;;
      *) mv "$tmp/$family.gguf" "$dest/$family.gguf" ;;
    esac
  done
  [ "$status" -eq 0 ] || exit "$status"
fi
echo "$dest"
