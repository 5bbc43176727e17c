// RUN: dsa-opt %s --dsaplan-unroll-rotations | FileCheck %s --check-prefix=UNROLL
// RUN: dsa-opt %s --dsa-plan | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s --dsa-plan | dsa-opt -dsaplan-verify-sync -dsaplan-simulate="runs=8 check-gm=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
//
// A rotation through an scf.while's arguments (issue 26, item 3): two
// input tiles and two sum tiles ping-pong through the "do" region's yield.
// dsaplan-unroll-rotations unrolls the do region by the period (2): the
// second copy runs in an scf.if on the condition re-checked, and every
// access names one tile. Before, the while was left rolled: each access
// through %t could be either tile, the back edge got an eager
// <mte3 -> mte2> pair at the end of the do region, and the loop ran one
// op at a time (makespan / ideal 1.80 in bench/quality).
//
// UNROLL-LABEL: func.func @moe_rowsum_while
// UNROLL:         %[[A:.*]] = memref.alloc() {name = "x_ping"}
// UNROLL:         %[[B:.*]] = memref.alloc() {name = "x_pong"}
// UNROLL:         scf.while
// UNROLL:         } do {
// UNROLL:           memref.copy %{{.*}}, %[[A]]
// UNROLL:           %[[GO:.*]] = arith.cmpi ult
// UNROLL-NEXT:      scf.if %[[GO]]
// UNROLL:             memref.copy %{{.*}}, %[[B]]
// UNROLL:             scf.yield %{{.*}}, %[[A]], %[[B]],
// UNROLL:           } else {
// UNROLL-NEXT:        scf.yield %{{.*}}, %[[B]], %[[A]],
//
// Syncs: per slot, a loop pair <v -> mte2> around the do region (the load
// into a slot waits for the last read of that slot) and one <mte3 -> v>
// (the fill of a sum slot waits for its store); the in-branch copy's pairs
// set and waited inside the branch.
// CHECK-LABEL: func.func @moe_rowsum_while
// CHECK:         dsaplan.set_flag <v -> mte2>, [[X0:[0-9]]]
// CHECK:         dsaplan.set_flag <v -> mte2>, [[X1:[0-9]]]
// CHECK:         scf.while
// CHECK:         } do {
// CHECK:           dsaplan.wait_flag <v -> mte2>, [[X1]]
// CHECK-NEXT:      memref.copy {{.*}}<mte2>
// CHECK:           linalg.generic
// CHECK:           dsaplan.set_flag <v -> mte2>, [[X1]]
// CHECK:           scf.if
// CHECK:             dsaplan.wait_flag <v -> mte2>, [[X0]]
// CHECK-NEXT:        memref.copy {{.*}}<mte2>
// CHECK:             linalg.generic
// CHECK:             dsaplan.set_flag <v -> mte2>, [[X0]]
// CHECK:           } else {
// CHECK-NOT:         dsaplan.
// CHECK:           scf.yield
// CHECK:         dsaplan.wait_flag <v -> mte2>
// CHECK:         dsaplan.wait_flag <v -> mte2>
// SUMMARY: remark: @moe_rowsum_while: 8 flag pairs (4 around loops, 0 eager, 0 set late for want of an event id; before pruning, {{[0-9]+}} moved to another id and 0 handshakes added
// CLEAN-NOT: error

#row_map = affine_map<(d0, d1) -> (d0, d1)>
#red_map = affine_map<(d0, d1) -> (d0)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @moe_rowsum_while(%count: memref<1xindex>, %x: memref<64x1024xf32>,
                              %s: memref<64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.load %count[%c0] {dsaplan.pipe = #dsaplan.pipe<s>} : memref<1xindex>
    %a = memref.alloc() {name = "x_ping"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "x_pong"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %sum0 = memref.alloc() {name = "sum_ping"} : memref<8xf32, #dsaplan.space<ub>>
    %sum1 = memref.alloc() {name = "sum_pong"} : memref<8xf32, #dsaplan.space<ub>>
    %r:5 = scf.while (%i = %c0, %cur = %a, %nxt = %b, %sum = %sum0, %sum_nxt = %sum1)
        : (index, memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>,
           memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
        -> (index, memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>,
            memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>) {
      %go = arith.cmpi ult, %i, %n : index
      scf.condition(%go) %i, %cur, %nxt, %sum, %sum_nxt
          : index, memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>,
            memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>
    } do {
    ^bb0(%j: index, %t: memref<8x1024xf32, #dsaplan.space<ub>>, %u: memref<8x1024xf32, #dsaplan.space<ub>>,
         %v: memref<8xf32, #dsaplan.space<ub>>, %w: memref<8xf32, #dsaplan.space<ub>>):
      %row = arith.muli %j, %c8 : index
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %x_gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%zero : f32) outs(%v : memref<8xf32, #dsaplan.space<ub>>)
      linalg.generic {indexing_maps = [#row_map, #red_map],
                      iterator_types = ["parallel", "reduction"]}
          ins(%t : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%v : memref<8xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %acc: f32):
        %sum_row = arith.addf %in, %acc : f32
        linalg.yield %sum_row : f32
      }
      %s_gm = memref.subview %s[%row] [8] [1]
          : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
      memref.copy %v, %s_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: ?>>
      %next = arith.addi %j, %c1 : index
      scf.yield %next, %u, %t, %w, %v
          : index, memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>,
            memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>
    }
    return
  }
}
