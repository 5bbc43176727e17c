#!/usr/bin/env bash
# The main job: set up, build, and place a bundled example kernel with
# `dsa-opt --dsa-plan`, printing the placed IR and a per-space summary.
#   scripts/run-example.sh [examples/<kernel>.mlir]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
configure_and_build dsa-opt dsa-solve

example="${1:-$DSAPLAN_ROOT/examples/matmul.mlir}"
echo "== dsa-opt --dsa-plan $example"
"$DSAPLAN_BUILD/bin/dsa-opt" "$example" \
  --dsa-plan="summary=true" 2> >(sed 's/^/   /' >&2)
