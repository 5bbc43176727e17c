// A MoE expert's row sums: the number of row blocks routed to the expert
// is read from GM, so the row loop is an scf.while; two input tiles
// ping-pong through the while's arguments so that block i+1 loads while
// block i is summed:
//
//   s[i] = sum over columns of x[i]    for the n blocks of [8 x 1024] f32
//
// The rotation through the while's arguments is not unrolled (issue 26,
// item 3). The output is `llvm.noalias`.
//
//   dsa-opt bench/quality/kernels/moe_rowsum_while.mlir --dsa-plan="summary=true"

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
