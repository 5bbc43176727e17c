// Kernels dsa-diff cannot run. A dynamic shape: it cannot allocate it.
func.func @dynamic(%gm: memref<?xf32>) {
  %a = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
  return
}

// A kernel that returns a value: dsa-diff compares memref arguments only.
func.func @returns(%gm: memref<4xf32>) -> index {
  %c0 = arith.constant 0 : index
  return %c0 : index
}
