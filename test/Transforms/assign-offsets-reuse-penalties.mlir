// The reuse penalties objective=waits derives from the IR: for two tiles of
// a space never live together, the cycles a reuse of bytes would make a pipe
// wait, from the cost model the simulator uses (a pipe's fixed cycles plus
// the bytes of every memref operand of the op at the pipe's rate, before
// jitter): UB tiles of 4 KiB, so a copy between GM and UB moves 8192 B.
//
//   mte2: 32 + 8192 / 128 = 96     v: 8 + 8192 / 256 = 40
//   mte3: 32 + 8192 / 128 = 96
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %s --dsaplan-import --dsaplan-compute-lifetimes --dsaplan-assign-offsets="export-problem=%t" | FileCheck %s --check-prefix=WAITS
// RUN: dsa-opt %s --dsaplan-import --dsaplan-compute-lifetimes --dsaplan-assign-offsets="objective=peak" | FileCheck %s --check-prefix=PEAK
// RUN: %python %S/Inputs/reuse_penalties.py %t/straight.json | FileCheck %s --check-prefix=STRAIGHT
// RUN: %python %S/Inputs/reuse_penalties.py %t/in_loop.json | FileCheck %s --check-prefix=LOOP
// RUN: %python %S/Inputs/reuse_penalties.py %t/same_pipe.json | FileCheck %s --check-prefix=SAME
// RUN: %python %S/Inputs/reuse_penalties.py %t/scalar_only.json | FileCheck %s --check-prefix=SCALAR
// RUN: %python %S/Inputs/reuse_penalties.py %t/no_estimate.json | FileCheck %s --check-prefix=UNKNOWN
// RUN: dsa-opt %s --dsaplan-import --dsaplan-compute-lifetimes --dsaplan-assign-offsets="costs=mte2.fixed=1000 export-problem=%t/costs" -o /dev/null
// RUN: %python %S/Inputs/reuse_penalties.py %t/costs/straight.json | FileCheck %s --check-prefix=COSTS
// RUN: dsa-opt %s -split-input-file --dsa-plan="insert-sync=false simulate-costs=mte2.fixed=1000 export-problem=%t/pipeline" -o /dev/null
// RUN: %python %S/Inputs/reuse_penalties.py %t/pipeline/straight.json | FileCheck %s --check-prefix=COSTS

// %x (MTE2 writes, V reads) dies before %y (V writes, MTE3 reads) is born;
// %t is live with both. On %x's bytes, %y's V write would wait for %x's
// MTE2 load (96 cycles) and its MTE3 read too; that is the longest: 96. The
// other order cannot happen (%y after %x, no loop).
// STRAIGHT: 1 penalties
// STRAIGHT-NEXT: x y 96 cross_pipe
// `costs` (in --dsa-plan, `simulate-costs`) overrides the estimates as the
// simulator's: with MTE2 at 1000 + 64 cycles, the wait for the load of %x
// is the longest.
// COSTS: 1 penalties
// COSTS-NEXT: x y 1064 cross_pipe
// objective=peak puts %y on %x's bytes (8 KiB peak); waits keeps them apart.
// PEAK-LABEL: func.func @straight
// PEAK: %x = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "x", offset = 4096 : i64}
// PEAK: %t = dsaplan.alloc {live = #dsaplan.live<7 to 12>, name = "t", offset = 0 : i64}
// PEAK: %y = dsaplan.alloc {live = #dsaplan.live<11 to 14>, name = "y", offset = 4096 : i64}
// WAITS-LABEL: func.func @straight
// WAITS: %x = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "x", offset = 8192 : i64}
// WAITS: %t = dsaplan.alloc {live = #dsaplan.live<7 to 12>, name = "t", offset = 0 : i64}
// WAITS: %y = dsaplan.alloc {live = #dsaplan.live<11 to 14>, name = "y", offset = 4096 : i64}
func.func @straight(%gm: memref<1024xf32>) {
  %x = memref.alloc() {name = "x"} : memref<1024xf32, #dsaplan.space<ub>>    // peak [4096, 8192)  waits [8192, 12288)
  %t = memref.alloc() {name = "t"} : memref<1024xf32, #dsaplan.space<ub>>    // peak [0, 4096)     waits [0, 4096)
  memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%t : memref<1024xf32, #dsaplan.space<ub>>)
  %y = memref.alloc() {name = "y"} : memref<1024xf32, #dsaplan.space<ub>>    // peak [4096, 8192): on x  waits [4096, 8192)
  linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<1024xf32, #dsaplan.space<ub>>) outs(%y : memref<1024xf32, #dsaplan.space<ub>>)
  memref.copy %y, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  return
}

// The same body in a loop: each iteration allocates the tiles, so the next
// iteration's %x may also follow this one's %y. On %y's bytes, %x's MTE2
// load would wait for %y's MTE3 read (96) or V write (40): 96 more.
// LOOP: 1 penalties
// LOOP-NEXT: x y 192 cross_pipe
func.func @in_loop(%gm: memref<1024xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.alloc() {name = "x"} : memref<1024xf32, #dsaplan.space<ub>>
    %t = memref.alloc() {name = "t"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%t : memref<1024xf32, #dsaplan.space<ub>>)
    %y = memref.alloc() {name = "y"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<1024xf32, #dsaplan.space<ub>>) outs(%y : memref<1024xf32, #dsaplan.space<ub>>)
    memref.copy %y, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  }
  return
}

// Only V touches %a and %b: a reuse costs a pipe_barrier, not a flag pair
// (1, below any cross-pipe wait).
// SAME: 1 penalties
// SAME-NEXT: a b 1 generic
func.func @same_pipe(%gm: memref<1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<1024xf32, #dsaplan.space<ub>>)
  memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<v>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
  memref.copy %b, %gm {dsaplan.pipe = #dsaplan.pipe<v>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  return
}

// The scalar pipe runs in order and needs no barrier: no penalty.
// SCALAR: 0 penalties
func.func @scalar_only(%gm: memref<1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%a : memref<1024xf32, #dsaplan.space<ub>>)
  memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<s>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
  memref.copy %b, %gm {dsaplan.pipe = #dsaplan.pipe<s>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  return
}

// V reads %a into a GM memref of unknown size: the cost model has no
// estimate for that op, so %b's load waiting on it costs 1 (MTE2 writing
// both is a same-pipe conflict, below the flag pair).
// UNKNOWN: 1 penalties
// UNKNOWN-NEXT: a b 1 cross_pipe
func.func @no_estimate(%gm: memref<1024xf32>, %out: memref<?xf32>) {
  %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<v>} : memref<1024xf32, #dsaplan.space<ub>> to memref<?xf32>
  %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  return
}
