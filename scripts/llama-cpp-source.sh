# shellcheck shell=bash
# Sourced by the llama.cpp build scripts: fetches the llama.cpp source vendored in the
# llama-cpp-python sdist (pinned by version, so the reference does not drift) into $tmp, and
# sets `src` (the source tree), `commit` (the vendored llama.cpp commit) and
# `llama_options` (the CMake options both builds share).
# Needs: $version, and $LLAMA_CPP_WORKDIR (kept, reruns resume) or a temp dir made here.
if [ -n "${LLAMA_CPP_WORKDIR:-}" ]; then
  tmp="$LLAMA_CPP_WORKDIR"
  mkdir -p "$tmp"
else
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
fi
if ! command -v cmake >/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check cmake
fi
# --no-binary only for this package: ':all:' would also force pip to compile
# the sdist's build backend dependencies (cmake, ninja) from source.
pkg="$tmp/llama_cpp_python-$version"
if [ ! -d "$pkg" ]; then
  python3 -m pip download --quiet --no-deps --disable-pip-version-check \
    --no-binary llama-cpp-python "llama-cpp-python==$version" -d "$tmp"
  tar -xzf "$tmp/llama_cpp_python-$version.tar.gz" -C "$tmp"
fi
src="$pkg/vendor/llama.cpp"
# The sdist has no git metadata; the vendored llama.cpp commit is recorded in
# the package changelog (first "update llama.cpp to ...@<sha>" entry).
commit="$(grep -m1 -oiE 'update llama\.cpp to [^ ]*@[0-9a-f]+' "$pkg/CHANGELOG.md" \
  | sed -E 's/.*@//')"
commit="${commit:-unknown}"

# The servers and tools only; UI off and no prebuilt-UI download: the build must work
# offline.
llama_options=(
  -DLLAMA_BUILD_COMMIT="$commit"
  -DLLAMA_OPENSSL=OFF
  -DLLAMA_BUILD_UI=OFF
  -DLLAMA_USE_PREBUILT_UI=OFF
  -DLLAMA_BUILD_TESTS=OFF
  -DLLAMA_BUILD_EXAMPLES=OFF
  -DLLAMA_BUILD_APP=OFF
  -DLLAMA_BUILD_SERVER=ON
  -DLLAMA_BUILD_TOOLS=ON
)
