#!/usr/bin/env bash
# Installs a pinned gRPC client toolchain (grpcio, grpcio-tools, protobuf), tokenizers and the
# smg-grpc-proto package (the sglang scheduler's .proto files) into .cache/sglang-client, then
# generates Python stubs from the .proto files shipped inside that package into
# .cache/sglang-client/stubs. Prints the PYTHONPATH to use (one line on stdout); everything
# else goes to stderr. Used by the sglang conformance test
# (engine/tests/python/sglang_conformance.py).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.cache/sglang-client"
stubs="$dest/stubs"
grpcio_version="1.82.3"
protobuf_version="7.35.1"
tokenizers_version="0.22.2"
proto_version="0.4.28"

# Every pinned distribution is in $dest at its pinned version, and the modules import.
installed() {
  local dist
  for dist in "grpcio-$grpcio_version" "grpcio_tools-$grpcio_version" \
    "protobuf-$protobuf_version" "tokenizers-$tokenizers_version" \
    "smg_grpc_proto-$proto_version"; do
    [ -d "$dest/$dist.dist-info" ] || return 1
  done
  PYTHONPATH="$dest" python3 -c "import grpc, grpc_tools.protoc, google.protobuf, tokenizers" \
    2>/dev/null
}

if ! installed; then
  echo "installing the sglang client packages into $dest" >&2
  rm -rf "$dest"
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts \
    --only-binary=:all: --target "$dest" \
    "grpcio==$grpcio_version" "grpcio-tools==$grpcio_version" \
    "protobuf==$protobuf_version" "tokenizers==$tokenizers_version" \
    "smg-grpc-proto==$proto_version" >&2
  installed || { echo "the installed sglang client packages do not import" >&2; exit 1; }
fi

# A package's directory, found without importing it.
package_dir() {
  PYTHONPATH="$dest" python3 -c "
import importlib.util, sys
print(importlib.util.find_spec(sys.argv[1]).submodule_search_locations[0])" "$1"
}

generated=(common_pb2.py common_pb2_grpc.py sglang_scheduler_pb2.py sglang_scheduler_pb2_grpc.py)
complete=1
for file in "${generated[@]}"; do
  [ -f "$stubs/$file" ] || complete=0
done

if [ "$complete" -eq 0 ]; then
  protos="$(package_dir smg_grpc_proto)/proto"
  well_known="$(package_dir grpc_tools)/_proto"
  for file in common.proto sglang_scheduler.proto; do
    [ -f "$protos/$file" ] || { echo "smg-grpc-proto lacks proto/$file" >&2; exit 1; }
  done
  [ -f "$well_known/google/protobuf/struct.proto" ] ||
    { echo "grpcio-tools lacks its well-known protos" >&2; exit 1; }
  echo "generating the sglang scheduler stubs into $stubs" >&2
  tmp="$dest/stubs.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # sglang_scheduler.proto imports "common.proto" by that bare name, hence -I the proto dir.
  PYTHONPATH="$dest" python3 -m grpc_tools.protoc -I "$protos" -I "$well_known" \
    --python_out="$tmp" --grpc_python_out="$tmp" --pyi_out="$tmp" \
    "$protos/common.proto" "$protos/sglang_scheduler.proto" >&2
  rm -rf "$stubs"
  mv "$tmp" "$stubs"
fi

echo "$dest:$stubs"
