// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets | FileCheck %s --check-prefix=WAITS
// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets="objective=peak" | FileCheck %s --check-prefix=PEAK
// RUN: not dsa-opt %s -dsaplan-assign-offsets="objective=fast" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets="report-dir=%t" -o /dev/null
// RUN: %python %S/Inputs/check_schemas.py %t
// RUN: FileCheck %s --check-prefix=JSON < %t/no_room.json

// objective=waits (the default): once a space fits, tiles touched by
// different pipes keep apart where capacity leaves room (a cross-pipe pair
// costs the cycles of the op the reuse would wait for, a same-pipe one 1:
// assign-offsets-reuse-penalties.mlir); objective=peak reuses bytes for the
// smallest peak. memref<1024xf32> is 4 KiB.

// %a is written by MTE2 and read by V; %b, born after %a died, is loaded by
// MTE2. On %a's bytes the load would wait for V's read (a flag pair).
// WAITS-LABEL: func.func @load_after_vector
// WAITS: %a = dsaplan.alloc {live = #dsaplan.live<0 to 4>, name = "a", offset = 4096 : i64}
// WAITS: %b = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "b", offset = 0 : i64}
// REMARK: remark: @load_after_vector ub: 2 buffers, reuse cost 0 (optimal, bound 0, 0 penalised pairs share bytes); peak 8192 B (not minimised, least 4096 B), capacity 188416 B usable
// PEAK-LABEL: func.func @load_after_vector
// PEAK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 4>, name = "a", offset = 0 : i64}
// PEAK: %b = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "b", offset = 0 : i64}
func.func @load_after_vector(%gm: memref<1024xf32>) {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 4>} : memref<1024xf32, #dsaplan.space<ub>>  // waits: [4096, 8192); peak: [0, 4096)
  %b = dsaplan.alloc {name = "b", live = #dsaplan.live<5 to 8>} : memref<1024xf32, #dsaplan.space<ub>>  // [0, 4096) in both: apart from a, or on it
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<v>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  return
}

// -----

// No room: two 48 KiB tiles of L0A (64 KiB), MTE1 writes, M reads. They
// must share bytes whatever the objective: %y's MTE1 load waits for M's
// read of %x, 8 + 2 * 49152 / 512 = 200 cycles, proven (bound 200). The
// remark and the JSON report give the cost, the bound, the penalised pairs
// that share bytes (the waits it implies) and the peak.
// WAITS-LABEL: func.func @no_room
// WAITS: %x = dsaplan.alloc {live = #dsaplan.live<0 to 4>, name = "x", offset = 0 : i64}
// WAITS: %y = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "y", offset = 0 : i64}
// REMARK: remark: @no_room l0a: 2 buffers, reuse cost 200 (optimal, bound 200, 1 penalised pairs share bytes); peak 49152 B (not minimised, least {{[0-9]+}} B)
// JSON: "id": "l0a"
// JSON: "peak": 49152
// JSON: "status": "optimal",
// JSON: "reuse_cost_status": "optimal",
// JSON-NEXT: "peak_status": "not minimised",
// JSON-NEXT: "reuse_cost": 200,
// JSON-NEXT: "reuse_cost_bound": 200,
// JSON-NEXT: "shared_penalised_pairs": 1,
// PEAK-LABEL: func.func @no_room
// PEAK: %y = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "y", offset = 0 : i64}
func.func @no_room(%gm: memref<24576xf16, #dsaplan.space<l1>>) {
  %x = dsaplan.alloc {name = "x", live = #dsaplan.live<0 to 4>} : memref<24576xf16, #dsaplan.space<l0a>>  // [0, 49152)
  %y = dsaplan.alloc {name = "y", live = #dsaplan.live<5 to 8>} : memref<24576xf16, #dsaplan.space<l0a>>  // [0, 49152): no room above
  memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<24576xf16, #dsaplan.space<l1>> to memref<24576xf16, #dsaplan.space<l0a>>
  memref.copy %x, %gm {dsaplan.pipe = #dsaplan.pipe<m>} : memref<24576xf16, #dsaplan.space<l0a>> to memref<24576xf16, #dsaplan.space<l1>>
  memref.copy %gm, %y {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<24576xf16, #dsaplan.space<l1>> to memref<24576xf16, #dsaplan.space<l0a>>
  return
}

// -----

// Room for one of two reuses only: 64 KiB of L0A, %big and %short (32 KiB
// each, MTE1 writes, M reads) live together, then %late (MTE1 writes) must
// take the bytes of one of them. Its load would wait for M's read of that
// one: all of %big (8 + 65536 / 512 = 136 cycles) or 1 KiB of %short
// (8 + 2048 / 512 = 12). The penalties weigh the waits, so %late goes on
// %short.
// WAITS-LABEL: func.func @longer_wait_kept_apart
// WAITS: %big = dsaplan.alloc {live = #dsaplan.live<0 to 4>, name = "big", offset = 0 : i64}
// WAITS: %short = dsaplan.alloc {live = #dsaplan.live<0 to 4>, name = "short", offset = 32768 : i64}
// WAITS: %late = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "late", offset = 32768 : i64}
// REMARK: remark: @longer_wait_kept_apart l0a: 3 buffers, reuse cost 12 (optimal, bound 12, 1 penalised pairs share bytes); peak 65536 B (not minimised, least {{[0-9]+}} B)
func.func @longer_wait_kept_apart(%l1: memref<16384xf16, #dsaplan.space<l1>>, %small: memref<512xf16, #dsaplan.space<l1>>) {
  %big = dsaplan.alloc {name = "big", live = #dsaplan.live<0 to 4>} : memref<16384xf16, #dsaplan.space<l0a>>      // [0, 32768)
  %short = dsaplan.alloc {name = "short", live = #dsaplan.live<0 to 4>} : memref<16384xf16, #dsaplan.space<l0a>>  // [32768, 65536)
  %late = dsaplan.alloc {name = "late", live = #dsaplan.live<5 to 8>} : memref<16384xf16, #dsaplan.space<l0a>>    // [32768, 65536): on short
  memref.copy %l1, %big {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<16384xf16, #dsaplan.space<l1>> to memref<16384xf16, #dsaplan.space<l0a>>
  memref.copy %l1, %short {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<16384xf16, #dsaplan.space<l1>> to memref<16384xf16, #dsaplan.space<l0a>>
  memref.copy %big, %l1 {dsaplan.pipe = #dsaplan.pipe<m>} : memref<16384xf16, #dsaplan.space<l0a>> to memref<16384xf16, #dsaplan.space<l1>>
  %part = memref.subview %short[0] [512] [1] : memref<16384xf16, #dsaplan.space<l0a>> to memref<512xf16, strided<[1]>, #dsaplan.space<l0a>>
  memref.copy %part, %small {dsaplan.pipe = #dsaplan.pipe<m>} : memref<512xf16, strided<[1]>, #dsaplan.space<l0a>> to memref<512xf16, #dsaplan.space<l1>>
  memref.copy %l1, %late {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<16384xf16, #dsaplan.space<l1>> to memref<16384xf16, #dsaplan.space<l0a>>
  return
}

// BAD: for the --objective option: Cannot find option named 'fast'!
