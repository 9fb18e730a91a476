#!/usr/bin/env bash
# Installs the Shepherd Model Gateway (smg, pinned) into .cache/smg for the scale-out tests and
# benchmarks (scripts/scaleout.py), and prints on stdout the absolute path of an executable
# that runs the gateway: `<path> --worker-urls http://h:p ... --policy cache_aware ...` takes
# the flags of `smg launch` (`<path> --help` lists them). The wheel ships the gateway as a
# Python extension module, so the executable is a small wrapper that puts .cache/smg on
# PYTHONPATH and runs `python3 -m smg.launch_router`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.cache/smg"
version="1.13.0"
launcher="$dest/smg-gateway"

installed() {
  [ -x "$launcher" ] &&
    PYTHONPATH="$dest" python3 -c "
import importlib.metadata as m, sys
sys.exit(m.version('smg') != '$version')
import smg.smg_rs" 2>/dev/null
}

if ! installed; then
  echo "fetch-smg: installing smg==$version into $dest" >&2
  rm -rf "$dest"
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts \
    --target "$dest" "smg==$version" >&2
  python="$(python3 -c 'import sys; print(sys.executable)')"
  cat >"$launcher" <<EOF
#!/usr/bin/env bash
# Runs smg $version (installed by scripts/fetch-smg.sh) in gateway mode; takes the flags of
# \`smg launch\`.
export PYTHONPATH="$dest\${PYTHONPATH:+:\$PYTHONPATH}"
exec "$python" -m smg.launch_router "\$@"
EOF
  chmod +x "$launcher"
  if ! installed; then
    echo "fetch-smg: smg $version did not install into $dest" >&2
    exit 1
  fi
fi
echo "$launcher"
