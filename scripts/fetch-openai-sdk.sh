#!/usr/bin/env bash
# Installs the OpenAI Python SDK (pinned) into .cache/openai-sdk for the tests that drive the
# server through it; prints the directory to put on PYTHONPATH.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.cache/openai-sdk"
version="3.54.0"

if ! PYTHONPATH="$dest" python3 -c "import openai, sys; sys.exit(openai.__version__ != '$version')" 2>/dev/null; then
  rm -rf "$dest"
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts \
    --target "$dest" "openai==$version" >&2
fi
echo "$dest"
