// RUN: dsa-opt %s -split-input-file --dsa-plan="summary=true" -o /dev/null 2>&1 | FileCheck %s

// The summary counts the conflicting pairs an inserter that gave each
// conflict its own flag pair would need: unordered pairs of ops, each once,
// however many of their accesses meet. %a and %b may alias (no
// llvm.noalias), so every write to one meets every access of the other.
//
//   op 0  load_a  reads a,  writes t0
//   op 1  load_b  reads b,  writes t1
//   op 2  add     reads t0, t1, writes t1
//   op 3  store   reads t1, writes a
//
//   {0,2} t0;  {1,2} t1, written and read: once;  {2,3} t1;  {0,3} a;
//   {1,3} b may be a;  {0,1} none: GM reads, tiles placed apart;
//   {2,2} none: add reads and writes t1, but outside a loop it never
//   meets itself again.
// 5 pairs.
// CHECK: @straight: {{.*}} for 5 conflicting pairs;
func.func @straight(%a: memref<64xf32>, %b: memref<64xf32>) {
  %t0 = memref.alloc() {name = "t0"} : memref<64xf32, #dsaplan.space<ub>>
  %t1 = memref.alloc() {name = "t1"} : memref<64xf32, #dsaplan.space<ub>>
  memref.copy %a, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %b, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0, %t1 : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%t1 : memref<64xf32, #dsaplan.space<ub>>)
  memref.copy %t1, %a {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// The same body in a loop: each op that writes meets its own next
// iteration, 4 more pairs; the pairs between two ops stay one each.
// CHECK: @looped: {{.*}} for 9 conflicting pairs;
func.func @looped(%a: memref<64xf32>, %b: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t0 = memref.alloc() {name = "t0"} : memref<64xf32, #dsaplan.space<ub>>
    %t1 = memref.alloc() {name = "t1"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %a, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %b, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0, %t1 : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%t1 : memref<64xf32, #dsaplan.space<ub>>)
    memref.copy %t1, %a {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  }
  return
}
