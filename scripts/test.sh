#!/usr/bin/env bash
# Runs every test: the lit suite (FileCheck tests of dsa-opt and dsa-solve)
# and the GoogleTest units, and ends with one summary line.
#
#   scripts/test.sh              the Release build (what CI runs)
#   scripts/test.sh --sanitize   the same suite on a second build with
#                                AddressSanitizer + UndefinedBehaviorSanitizer
#                                (build-sanitize/; the corpus and package
#                                tests are left out there: they exercise the
#                                solver for minutes, not the sync and
#                                analysis code the sanitizers are for; and
#                                the Python module's, whose instrumented
#                                extension an uninstrumented interpreter
#                                cannot load); then scripts/fuzz.sh, the
#                                readers' libFuzzer targets
set -euo pipefail
lit_filter=()
if [ "${1:-}" = "--sanitize" ]; then
  export DSAPLAN_SANITIZE=1
  lit_filter=(--filter-out "corpus|Package|Python|Docs/python")
fi
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
configure_and_build dsaplan-test-depends

corpus="$(sed -n 's/^DSAPLAN_CORPUS_DIR:PATH=//p' "$DSAPLAN_BUILD/CMakeCache.txt")"
if [ ! -d "$corpus" ]; then
  echo "WARNING: the shared corpus ($corpus) is missing: corpus tests will fail or be reported UNSUPPORTED"
fi

echo "== running tests"
log="$DSAPLAN_BUILD/test-results.txt"
set +e
"$LLVM_PREFIX/bin/lit" -v -j"${DSAPLAN_JOBS:-2}" ${lit_filter[@]+"${lit_filter[@]}"} "$DSAPLAN_BUILD/test" >"$log" 2>&1
status=$?
set -e
grep -E "^(FAIL|XPASS|UNRESOLVED|TIMEOUT):" "$log" || true
[ $status -eq 0 ] || grep -A40 -E "^\*{20} TEST .* FAILED" "$log" | head -200
count() { grep -cE "^$1: " "$log" || true; }
passed=$(( $(count PASS) + $(count XFAIL) ))
failed=$(( $(count FAIL) + $(count XPASS) + $(count UNRESOLVED) + $(count TIMEOUT) ))
unsupported=$(count UNSUPPORTED)
echo "$passed passed, $failed failed, $unsupported unsupported (log: $log)"
fuzz_status=0
if [ "${DSAPLAN_SANITIZE:-0}" = 1 ]; then
  # The readers' libFuzzer targets, a fixed number of runs each (their own
  # clang build, build-fuzz/).
  "$DSAPLAN_ROOT/scripts/fuzz.sh" || fuzz_status=$?
fi
[ $status -eq 0 ] && [ "$failed" -eq 0 ] && [ $fuzz_status -eq 0 ]
