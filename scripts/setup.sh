#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), configures once and builds
# incrementally. Sourced by run-example.sh and test.sh; safe to run again.
set -euo pipefail

DSAPLAN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DSAPLAN_BUILD="${DSAPLAN_BUILD:-$DSAPLAN_ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(cmake ninja-build g++ python3 ccache
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          libgtest-dev nlohmann-json3-dev libbenchmark-dev libxml2-utils
          librsvg2-bin pybind11-dev python3-dev python3-jsonschema
          clang-14 libclang-rt-14-dev libjemalloc-dev)

# The Python module is built for Debian's interpreter, the one its packages
# (python3-dev, pybind11-dev, python3-jsonschema) serve, not for whichever
# python3 comes first on PATH (a pyenv shim, say).
DSAPLAN_PYTHON=/usr/bin/python3

install_missing_packages() {
  local missing=()
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# DSAPLAN_SANITIZE=1: a second build (build-sanitize) with AddressSanitizer
# and UndefinedBehaviorSanitizer; any report aborts the process.
if [ "${DSAPLAN_SANITIZE:-0}" = 1 ]; then
  DSAPLAN_BUILD="${DSAPLAN_SANITIZE_BUILD:-$DSAPLAN_ROOT/build-sanitize}"
  SANITIZE_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  # allow_user_poisoning=0: LLVM's inline allocators poison memory that the
  # uninstrumented libMLIR then hands out (use-after-poison false positives
  # of a client built with ASan against release LLVM packages).
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allow_user_poisoning=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi

configure_and_build() {
  if [ ! -f "$DSAPLAN_BUILD/build.ninja" ]; then
    echo "== configuring $DSAPLAN_BUILD"
    cmake -G Ninja -S "$DSAPLAN_ROOT" -B "$DSAPLAN_BUILD" \
      -DCMAKE_BUILD_TYPE=Release \
      ${SANITIZE_FLAGS:+"-DCMAKE_CXX_FLAGS=$SANITIZE_FLAGS"} \
      ${SANITIZE_FLAGS:+"-DCMAKE_EXE_LINKER_FLAGS=$SANITIZE_FLAGS"} \
      ${SANITIZE_FLAGS:+"-DCMAKE_SHARED_LINKER_FLAGS=$SANITIZE_FLAGS"} \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
      -DPython3_EXECUTABLE="$DSAPLAN_PYTHON" >/dev/null
  fi
  echo "== building"
  # Two jobs: MLIR translation units need ~1 GiB each and the machine has 2 cores.
  ninja -C "$DSAPLAN_BUILD" --quiet -j"${DSAPLAN_JOBS:-2}" "$@"
}

install_missing_packages
