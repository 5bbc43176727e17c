// RUN: dsa-opt %s -dsaplan-simulate="costs=bogus=1" -verify-diagnostics
// RUN: not dsa-opt %s -dsaplan-simulate="costs=v.fixed=x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not dsa-opt %s -dsaplan-simulate="costs=jitter=100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JITTER
// RUN: not dsa-opt %s -dsaplan-simulate="costs=v.bytes-per-cycle=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RATE
// RUN: not dsa-opt %s -dsaplan-simulate="costs=sync-latency=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LATENCY
// RUN: not dsa-opt %s -dsaplan-simulate="costs=pipe-overlap=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not dsa-opt %s -dsaplan-simulate="trace-file=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE
// A trace file's missing directories are created, as report-dir's are; a
// file in the way of one is an error.
// RUN: rm -rf %t.missing %t.file && touch %t.file
// RUN: dsa-opt %s -dsaplan-simulate="trace-file=%t.missing/dir/{func}.json" -o /dev/null
// RUN: test -f %t.missing/dir/first.json && test -f %t.missing/dir/second.json
// RUN: not dsa-opt %s -dsaplan-simulate="trace-file=%t.file/dir/{func}.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITE

// NOTINT: error: dsaplan-simulate: cost 'v.fixed' needs a non-negative integer, got 'x'
// JITTER: error: dsaplan-simulate: cost 'jitter' is a percentage below 100
// RATE: error: dsaplan-simulate: cost 'v.bytes-per-cycle' must be at least 1
// LATENCY: error: dsaplan-simulate: cost 'sync-latency' must be at least 1 cycle
// OVERLAP: error: dsaplan-simulate: cost 'pipe-overlap' is 0 or 1
// TRACE: error: dsaplan-simulate: trace-file '{{.*}}.json' would be written by each of the 2 functions of the module; put {func} in the path
// WRITE: error: dsaplan-simulate: cannot create the directory '{{.*}}.file/dir' of '{{.*}}.file/dir/first.json'

// expected-error @below {{dsaplan-simulate: unknown cost 'bogus' (expected <pipe>.fixed, <pipe>.bytes-per-cycle, sync-latency, jitter or pipe-overlap)}}
func.func @first() {
  return
}

// expected-error @below {{dsaplan-simulate: unknown cost 'bogus' (expected <pipe>.fixed, <pipe>.bytes-per-cycle, sync-latency, jitter or pipe-overlap)}}
func.func @second() {
  return
}
