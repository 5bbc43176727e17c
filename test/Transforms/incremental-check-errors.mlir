// RUN: dsa-opt-test %s -test-dsaplan-incremental-check -verify-diagnostics -o /dev/null
//
// The test pass compares IncrementalCheck with whole walks only on a
// function whose syncs order it: a wait with no set before it does not.

// expected-error @+1 {{the syncs do not order the function to begin with}}
func.func @wait_without_set() {
  dsaplan.wait_flag <mte2 -> v>, 0
  return
}
