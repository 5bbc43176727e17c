// A loop pair inside an outer loop: a tiled copy with a scale, rows and
// column blocks of [4 x 4] blocks of [16 x 256] f16 (8 KiB), one UB tile
// in and one out, reused by every iteration of both loops. The inner
// loop's pairs around its back edge are all the loops need: set once
// before the outer loop, drained once after it (issue 26, item 5; the
// loop-nest case of AscendNPU-IR's inject-sync.mlir with a V stage). The
// arguments are `llvm.noalias`.
//
//   y[i, j] = 2 * x[i, j]     for i, j in [0, 4)
//
//   dsa-opt bench/quality/kernels/loop_nest.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @loop_nest(%x: memref<64x1024xf16> {llvm.noalias},
                       %y: memref<64x1024xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %two = arith.constant 2.0 : f16
    %in = memref.alloc() {name = "in"} : memref<16x256xf16, #dsaplan.space<ub>>
    %out = memref.alloc() {name = "out"} : memref<16x256xf16, #dsaplan.space<ub>>
    scf.for %i = %c0 to %c64 step %c16 {
      scf.for %j = %c0 to %c1024 step %c256 {
        %x_gm = memref.subview %x[%i, %j] [16, 256] [1, 1]
            : memref<64x1024xf16> to memref<16x256xf16, strided<[1024, 1], offset: ?>>
        %y_gm = memref.subview %y[%i, %j] [16, 256] [1, 1]
            : memref<64x1024xf16> to memref<16x256xf16, strided<[1024, 1], offset: ?>>
        memref.copy %x_gm, %in {dsaplan.pipe = #dsaplan.pipe<mte2>}
            : memref<16x256xf16, strided<[1024, 1], offset: ?>> to memref<16x256xf16, #dsaplan.space<ub>>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
            ins(%in : memref<16x256xf16, #dsaplan.space<ub>>)
            outs(%out : memref<16x256xf16, #dsaplan.space<ub>>)
            attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
        ^bb0(%a: f16, %o: f16):
          %m = arith.mulf %a, %two : f16
          linalg.yield %m : f16
        }
        memref.copy %out, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
            : memref<16x256xf16, #dsaplan.space<ub>> to memref<16x256xf16, strided<[1024, 1], offset: ?>>
      }
    }
    return
  }
}
