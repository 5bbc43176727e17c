// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics -o /dev/null
//
// What the quick walk forgets (lib/Sync/Verify/History.h, forgetSettled):
// once a page has grown, it drops the accesses every pipe that accesses
// memory knows finished (settledForAll). The cases that must not hide a
// race: an access settled on one path of a branch only, and one that some
// pipe of the function does not know of. Forty reads on the page of the
// write of %x (on each path) come before the race, enough to drop it.

// The write of %x is settled on the then path (MTE2's barrier, V's wait)
// and dropped there, not on the else path, which reads %w on the same page
// as often: the read after the merge races it there.
func.func @settled_on_one_path(%gm: memref<64xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  %o0 = arith.constant 4096 : index
  %o1 = arith.constant 4352 : index
  %o2 = arith.constant 4608 : index
  %o3 = arith.constant 4864 : index
  %o4 = arith.constant 5120 : index
  %o5 = arith.constant 5376 : index
  %o6 = arith.constant 5632 : index
  %o7 = arith.constant 5888 : index
  %o8 = arith.constant 6144 : index
  %o9 = arith.constant 6400 : index
  %o10 = arith.constant 6656 : index
  %o11 = arith.constant 6912 : index
  %o12 = arith.constant 7168 : index
  %o13 = arith.constant 7424 : index
  %o14 = arith.constant 7680 : index
  %o15 = arith.constant 7936 : index
  %o16 = arith.constant 8192 : index
  %o17 = arith.constant 8448 : index
  %o18 = arith.constant 8704 : index
  %o19 = arith.constant 8960 : index
  %o20 = arith.constant 9216 : index
  %o21 = arith.constant 9472 : index
  %o22 = arith.constant 9728 : index
  %o23 = arith.constant 9984 : index
  %o24 = arith.constant 10240 : index
  %o25 = arith.constant 10496 : index
  %o26 = arith.constant 10752 : index
  %o27 = arith.constant 11008 : index
  %o28 = arith.constant 11264 : index
  %o29 = arith.constant 11520 : index
  %o30 = arith.constant 11776 : index
  %o31 = arith.constant 12032 : index
  %o32 = arith.constant 12288 : index
  %o33 = arith.constant 12544 : index
  %o34 = arith.constant 12800 : index
  %o35 = arith.constant 13056 : index
  %o36 = arith.constant 13312 : index
  %o37 = arith.constant 13568 : index
  %o38 = arith.constant 13824 : index
  %o39 = arith.constant 14080 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %w = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %z = memref.view %ub[%c2048][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y3 = memref.view %ub[%o3][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y4 = memref.view %ub[%o4][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y5 = memref.view %ub[%o5][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y6 = memref.view %ub[%o6][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y7 = memref.view %ub[%o7][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y8 = memref.view %ub[%o8][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y9 = memref.view %ub[%o9][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y10 = memref.view %ub[%o10][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y11 = memref.view %ub[%o11][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y12 = memref.view %ub[%o12][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y13 = memref.view %ub[%o13][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y14 = memref.view %ub[%o14][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y15 = memref.view %ub[%o15][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y16 = memref.view %ub[%o16][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y17 = memref.view %ub[%o17][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y18 = memref.view %ub[%o18][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y19 = memref.view %ub[%o19][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y20 = memref.view %ub[%o20][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y21 = memref.view %ub[%o21][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y22 = memref.view %ub[%o22][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y23 = memref.view %ub[%o23][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y24 = memref.view %ub[%o24][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y25 = memref.view %ub[%o25][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y26 = memref.view %ub[%o26][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y27 = memref.view %ub[%o27][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y28 = memref.view %ub[%o28][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y29 = memref.view %ub[%o29][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y30 = memref.view %ub[%o30][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y31 = memref.view %ub[%o31][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y32 = memref.view %ub[%o32][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y33 = memref.view %ub[%o33][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y34 = memref.view %ub[%o34][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y35 = memref.view %ub[%o35][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y36 = memref.view %ub[%o36][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y37 = memref.view %ub[%o37][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y38 = memref.view %ub[%o38][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y39 = memref.view %ub[%o39][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  scf.if %c {
    dsaplan.pipe_barrier <mte2>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y0 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y1 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y2 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y3 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y4 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y5 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y6 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y7 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y8 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y9 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y10 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y11 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y12 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y13 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y14 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y15 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y16 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y17 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y18 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y19 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y20 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y21 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y22 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y23 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y24 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y25 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y26 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y27 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y28 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y29 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y30 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y31 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y32 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y33 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y34 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y35 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y36 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y37 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y38 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y39 : memref<64xf32, #dsaplan.space<ub>>)
  } else {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y0 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y1 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y2 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y3 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y4 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y5 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y6 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y7 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y8 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y9 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y10 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y11 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y12 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y13 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y14 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y15 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y16 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y17 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y18 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y19 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y20 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y21 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y22 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y23 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y24 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y25 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y26 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y27 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y28 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y29 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y30 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y31 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y32 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y33 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y34 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y35 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y36 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y37 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y38 : memref<64xf32, #dsaplan.space<ub>>)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<64xf32, #dsaplan.space<ub>>) outs(%y39 : memref<64xf32, #dsaplan.space<ub>>)
  }
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 256) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%z : memref<64xf32, #dsaplan.space<ub>>)
  return
}

// -----

// MTE2 and V know the write of %x finished, MTE3 does not: it stays, and
// MTE3's read of %x races it.
func.func @settled_for_some_pipes(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %o0 = arith.constant 4096 : index
  %o1 = arith.constant 4352 : index
  %o2 = arith.constant 4608 : index
  %o3 = arith.constant 4864 : index
  %o4 = arith.constant 5120 : index
  %o5 = arith.constant 5376 : index
  %o6 = arith.constant 5632 : index
  %o7 = arith.constant 5888 : index
  %o8 = arith.constant 6144 : index
  %o9 = arith.constant 6400 : index
  %o10 = arith.constant 6656 : index
  %o11 = arith.constant 6912 : index
  %o12 = arith.constant 7168 : index
  %o13 = arith.constant 7424 : index
  %o14 = arith.constant 7680 : index
  %o15 = arith.constant 7936 : index
  %o16 = arith.constant 8192 : index
  %o17 = arith.constant 8448 : index
  %o18 = arith.constant 8704 : index
  %o19 = arith.constant 8960 : index
  %o20 = arith.constant 9216 : index
  %o21 = arith.constant 9472 : index
  %o22 = arith.constant 9728 : index
  %o23 = arith.constant 9984 : index
  %o24 = arith.constant 10240 : index
  %o25 = arith.constant 10496 : index
  %o26 = arith.constant 10752 : index
  %o27 = arith.constant 11008 : index
  %o28 = arith.constant 11264 : index
  %o29 = arith.constant 11520 : index
  %o30 = arith.constant 11776 : index
  %o31 = arith.constant 12032 : index
  %o32 = arith.constant 12288 : index
  %o33 = arith.constant 12544 : index
  %o34 = arith.constant 12800 : index
  %o35 = arith.constant 13056 : index
  %o36 = arith.constant 13312 : index
  %o37 = arith.constant 13568 : index
  %o38 = arith.constant 13824 : index
  %o39 = arith.constant 14080 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y3 = memref.view %ub[%o3][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y4 = memref.view %ub[%o4][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y5 = memref.view %ub[%o5][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y6 = memref.view %ub[%o6][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y7 = memref.view %ub[%o7][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y8 = memref.view %ub[%o8][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y9 = memref.view %ub[%o9][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y10 = memref.view %ub[%o10][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y11 = memref.view %ub[%o11][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y12 = memref.view %ub[%o12][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y13 = memref.view %ub[%o13][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y14 = memref.view %ub[%o14][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y15 = memref.view %ub[%o15][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y16 = memref.view %ub[%o16][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y17 = memref.view %ub[%o17][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y18 = memref.view %ub[%o18][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y19 = memref.view %ub[%o19][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y20 = memref.view %ub[%o20][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y21 = memref.view %ub[%o21][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y22 = memref.view %ub[%o22][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y23 = memref.view %ub[%o23][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y24 = memref.view %ub[%o24][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y25 = memref.view %ub[%o25][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y26 = memref.view %ub[%o26][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y27 = memref.view %ub[%o27][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y28 = memref.view %ub[%o28][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y29 = memref.view %ub[%o29][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y30 = memref.view %ub[%o30][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y31 = memref.view %ub[%o31][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y32 = memref.view %ub[%o32][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y33 = memref.view %ub[%o33][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y34 = memref.view %ub[%o34][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y35 = memref.view %ub[%o35][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y36 = memref.view %ub[%o36][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y37 = memref.view %ub[%o37][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y38 = memref.view %ub[%o38][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y39 = memref.view %ub[%o39][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.pipe_barrier <mte2>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y0 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y1 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y2 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y3 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y4 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y5 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y6 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y7 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y8 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y9 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y10 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y11 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y12 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y13 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y14 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y15 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y16 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y17 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y18 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y19 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y20 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y21 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y22 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y23 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y24 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y25 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y26 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y27 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y28 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y29 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y30 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y31 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y32 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y33 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y34 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y35 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y36 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y37 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y38 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y39 : memref<64xf32, #dsaplan.space<ub>>)
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte2 touch bytes [0, 256) of ub}}
  memref.copy %x, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// The same kernel with MTE3 told: accepted.
func.func @settled_for_all(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %o0 = arith.constant 4096 : index
  %o1 = arith.constant 4352 : index
  %o2 = arith.constant 4608 : index
  %o3 = arith.constant 4864 : index
  %o4 = arith.constant 5120 : index
  %o5 = arith.constant 5376 : index
  %o6 = arith.constant 5632 : index
  %o7 = arith.constant 5888 : index
  %o8 = arith.constant 6144 : index
  %o9 = arith.constant 6400 : index
  %o10 = arith.constant 6656 : index
  %o11 = arith.constant 6912 : index
  %o12 = arith.constant 7168 : index
  %o13 = arith.constant 7424 : index
  %o14 = arith.constant 7680 : index
  %o15 = arith.constant 7936 : index
  %o16 = arith.constant 8192 : index
  %o17 = arith.constant 8448 : index
  %o18 = arith.constant 8704 : index
  %o19 = arith.constant 8960 : index
  %o20 = arith.constant 9216 : index
  %o21 = arith.constant 9472 : index
  %o22 = arith.constant 9728 : index
  %o23 = arith.constant 9984 : index
  %o24 = arith.constant 10240 : index
  %o25 = arith.constant 10496 : index
  %o26 = arith.constant 10752 : index
  %o27 = arith.constant 11008 : index
  %o28 = arith.constant 11264 : index
  %o29 = arith.constant 11520 : index
  %o30 = arith.constant 11776 : index
  %o31 = arith.constant 12032 : index
  %o32 = arith.constant 12288 : index
  %o33 = arith.constant 12544 : index
  %o34 = arith.constant 12800 : index
  %o35 = arith.constant 13056 : index
  %o36 = arith.constant 13312 : index
  %o37 = arith.constant 13568 : index
  %o38 = arith.constant 13824 : index
  %o39 = arith.constant 14080 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y3 = memref.view %ub[%o3][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y4 = memref.view %ub[%o4][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y5 = memref.view %ub[%o5][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y6 = memref.view %ub[%o6][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y7 = memref.view %ub[%o7][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y8 = memref.view %ub[%o8][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y9 = memref.view %ub[%o9][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y10 = memref.view %ub[%o10][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y11 = memref.view %ub[%o11][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y12 = memref.view %ub[%o12][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y13 = memref.view %ub[%o13][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y14 = memref.view %ub[%o14][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y15 = memref.view %ub[%o15][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y16 = memref.view %ub[%o16][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y17 = memref.view %ub[%o17][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y18 = memref.view %ub[%o18][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y19 = memref.view %ub[%o19][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y20 = memref.view %ub[%o20][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y21 = memref.view %ub[%o21][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y22 = memref.view %ub[%o22][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y23 = memref.view %ub[%o23][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y24 = memref.view %ub[%o24][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y25 = memref.view %ub[%o25][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y26 = memref.view %ub[%o26][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y27 = memref.view %ub[%o27][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y28 = memref.view %ub[%o28][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y29 = memref.view %ub[%o29][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y30 = memref.view %ub[%o30][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y31 = memref.view %ub[%o31][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y32 = memref.view %ub[%o32][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y33 = memref.view %ub[%o33][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y34 = memref.view %ub[%o34][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y35 = memref.view %ub[%o35][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y36 = memref.view %ub[%o36][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y37 = memref.view %ub[%o37][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y38 = memref.view %ub[%o38][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y39 = memref.view %ub[%o39][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.pipe_barrier <mte2>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  dsaplan.set_flag <mte2 -> mte3>, 0
  dsaplan.wait_flag <mte2 -> mte3>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y0 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y1 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y2 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y3 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y4 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y5 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y6 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y7 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y8 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y9 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y10 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y11 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y12 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y13 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y14 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y15 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y16 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y17 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y18 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y19 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y20 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y21 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y22 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y23 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y24 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y25 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y26 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y27 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y28 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y29 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y30 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y31 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y32 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y33 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y34 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y35 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y36 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y37 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y38 : memref<64xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y39 : memref<64xf32, #dsaplan.space<ub>>)
  memref.copy %x, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}
