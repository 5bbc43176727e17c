// A kernel whose argument has a dynamic shape: dsa-diff cannot allocate it.
func.func @dynamic(%gm: memref<?xf32>) {
  %a = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
  return
}
