func.func @k() {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 12>} : memref<1024xf32, #dsaplan.space<ub>>
  return
}
