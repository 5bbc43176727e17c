#!/usr/bin/env bash
# The main job: set up, build, and place a bundled example kernel with
# `dsa-opt --dsa-plan`, printing the placed IR and a per-space summary.
#   scripts/run-example.sh [examples/<kernel>.mlir]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
configure_and_build dsa-opt dsa-solve

example="${1:-$DSAPLAN_ROOT/examples/matmul.mlir}"
dsa_opt="$DSAPLAN_BUILD/bin/dsa-opt"
remarks="$(mktemp)"
trap 'rm -f "$remarks"' EXIT

echo "== dsa-opt --dsa-plan $example"
"$dsa_opt" "$example" --dsa-plan="summary=true" 2>"$remarks" || {
  cat "$remarks" >&2
  exit 1
}

echo "== summary (bytes per memory space)"
printf '%-22s %-5s %8s %10s %12s %12s  %s\n' \
  function space buffers peak "lower bound" "usable" status
# The remark of objective=peak, and of objective=waits (the status is then
# the reuse cost's; the peak only had to fit):
# remark: @f ub: 8 buffers, peak 98304 B, lower bound 98304 B, capacity 188416 B usable, optimal
# remark: @f ub: 8 buffers, reuse cost 0 (optimal, bound 0, 0 penalised pairs share bytes); peak 98304 B (not minimised, least 98304 B), capacity 188416 B usable
sed -n \
  -e 's/.*remark: @\([^ ]*\) \([a-z0-9]*\): \([0-9]*\) buffers, peak \([0-9]*\) B, lower bound \([0-9]*\) B, capacity \([0-9]*\) B usable, \([a-z-]*\)$/\1 \2 \3 \4 \5 \6 \7/p' \
  -e 's/.*remark: @\([^ ]*\) \([a-z0-9]*\): \([0-9]*\) buffers, reuse cost \([0-9]*\) (\([a-z-]*\), .*); peak \([0-9]*\) B (not minimised, least \([0-9]*\) B), capacity \([0-9]*\) B usable$/\1 \2 \3 \6 \7 \8 reuse cost \4 (\5), peak not minimised/p' \
  "$remarks" |
  while read -r fn space buffers peak bound usable status; do
    printf '%-22s %-5s %8s %10s %12s %12s  %s\n' \
      "$fn" "$space" "$buffers" "$peak" "$bound" "$usable" "$status"
  done

echo "== synchronisation (verified by dsaplan-verify-sync)"
sed -n 's/.*remark: @\([^ ]*\): \(.* flag pairs .*\)$/\1: \2/p' "$remarks"

