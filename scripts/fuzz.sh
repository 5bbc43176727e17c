#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (the solver's schema-v1 problem and
# solution readers and its MiniMalloc CSV reader) with clang++-14, ASan and
# UBSan in build-fuzz/, and the dsaplan IR target (fuzz/mlir: parser,
# verifier and --dsa-plan, MLIR 22 linked from its uninstrumented static
# archives; Debian has no clang 22, clang++-14 reads MLIR 22's headers) in
# build-fuzz-mlir/, and runs each for a fixed number of inputs from a
# fixed seed, starting from the corpus and the test inputs: the same inputs
# on every run, a few minutes at most. Any crash, sanitizer report or
# refused round trip fails the script; libFuzzer leaves the input that did
# it as build-fuzz/crash-* (rerun: build-fuzz/bin/<Target> <that file>).
# scripts/test.sh --sanitize calls it.
#
#   scripts/fuzz.sh [RUNS]     RUNS per solver target (default 4000; the IR
#                              target DSAPLAN_FUZZ_MLIR_RUNS, default 3000)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

runs="${1:-${DSAPLAN_FUZZ_RUNS:-4000}}"
mlir_runs="${DSAPLAN_FUZZ_MLIR_RUNS:-3000}"
build="${DSAPLAN_FUZZ_BUILD:-$DSAPLAN_ROOT/build-fuzz}"
mlir_build="${DSAPLAN_FUZZ_MLIR_BUILD:-$DSAPLAN_ROOT/build-fuzz-mlir}"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
# Line tables only: full debug info of every MLIR template is slow to build.
mlir_flags="${flags% -g} -g1"
if [ ! -f "$build/build.ninja" ]; then
  echo "== configuring $build"
  cmake -G Ninja -S "$DSAPLAN_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DDSAPLAN_ENABLE_MLIR=OFF -DDSAPLAN_ENABLE_TESTS=OFF \
    -DDSAPLAN_ENABLE_BENCH=OFF -DDSAPLAN_ENABLE_PYTHON=OFF \
    -DDSAPLAN_ENABLE_FUZZ=ON >/dev/null
fi
if [ ! -f "$mlir_build/build.ninja" ]; then
  echo "== configuring $mlir_build"
  # No -DCMAKE_C_COMPILER: LLVM's FindFFI probes C only when it is defined,
  # and the project enables C later (CC picks the compiler).
  CC=clang-14 cmake -G Ninja -S "$DSAPLAN_ROOT" -B "$mlir_build" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_CXX_FLAGS="$mlir_flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DDSAPLAN_ENABLE_MLIR=ON -DDSAPLAN_ENABLE_TESTS=OFF \
    -DDSAPLAN_ENABLE_BENCH=OFF -DDSAPLAN_ENABLE_PYTHON=OFF \
    -DDSAPLAN_ENABLE_FUZZ=ON >/dev/null
fi
echo "== building fuzzers"
ninja -C "$build" --quiet -j"${DSAPLAN_JOBS:-2}" dsaplan-fuzzers
ninja -C "$mlir_build" --quiet -j"${DSAPLAN_JOBS:-2}" dsaplan-mlir-fuzzers

corpus="$(sed -n 's/^DSAPLAN_CORPUS_DIR:PATH=//p' "$build/CMakeCache.txt")"
inputs="$DSAPLAN_ROOT/test/Solver/Inputs"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# Seed folders that exist (the corpus may be missing: the test inputs stay).
seeds() {
  for dir in "$@"; do [ -d "$dir" ] && echo "$dir"; done
  return 0
}

status=0
fuzz() {
  local target="$1" build="$2" runs="$3"
  shift 3
  # New inputs go to a fresh folder: the seeds are never written to, and
  # every run starts from the same inputs.
  local out="$build/fuzz-corpus/$target"
  rm -rf "$out" && mkdir -p "$out"
  echo "== $target: $runs runs, seed 1"
  if ! (cd "$build" && "$build/bin/$target" -runs="$runs" -seed=1 \
          -max_len=131072 -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
          "$out" $(seeds "$@") >"$build/$target.log" 2>&1); then
    tail -40 "$build/$target.log"
    echo "FAILED: $target (log: $build/$target.log)"
    status=1
    return 0
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/$target.log" |
    tr '\n' ' '
  echo
}

fuzz SchemaV1Fuzzer "$build" "$runs" "$corpus/dsa-rp/pypto" "$inputs"
fuzz CsvFuzzer "$build" "$runs" "$corpus/minimalloc/challenging" "$inputs"
fuzz SolutionFuzzer "$build" "$runs" "$DSAPLAN_ROOT/fuzz/seeds/solution" "$inputs"

# The IR target's seeds: every .mlir file of test/ and examples/, in one
# folder (the lit inputs hold RUN lines and other files besides).
mlir_seeds="$mlir_build/seeds-mlir"
rm -rf "$mlir_seeds" && mkdir -p "$mlir_seeds"
(cd "$DSAPLAN_ROOT" && find test examples -name '*.mlir' | LC_ALL=C sort |
   while read -r file; do cp "$file" "$mlir_seeds/${file//\//__}"; done)
# MLIR's archives are not instrumented, but the BumpPtrAllocator code inlined
# into dsaplan's instrumented objects poisons its slabs for ASan, and the
# archives' own copies never unpoison them: a false use-after-poison in
# MLIRContext's constructor. allow_user_poisoning=0 turns the allocator's
# poisoning off; ASan still checks every access of dsaplan's code.
ASAN_OPTIONS="$ASAN_OPTIONS:allow_user_poisoning=0" \
fuzz DialectFuzzer "$mlir_build" "$mlir_runs" "$mlir_seeds"
[ $status -eq 0 ] && echo "fuzzers: no crash, no sanitizer report"
exit $status
