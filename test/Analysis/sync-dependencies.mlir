// RUN: dsa-opt-test %s -split-input-file -test-dsaplan-sync-dependencies -verify-diagnostics -o /dev/null

// What each access must wait for, by bytes: a 4 KiB table [0, 4096) and a
// 32-byte row inside it [1024, 1056). The row's load depends on the table's
// V read though they are different tiles. The reload of the whole table
// depends on each byte's last writer and the readers since: the first read
// (outside the row), the load and the use (inside it). A store after it
// depends on the reload alone: the older accesses are ordered through it.
// GM counts too: the use writes %rows, which the load read and which may
// be %out (two arguments may alias), written by the first read; the store
// writes %gm, which the reload read.
func.func @partial_overlap(%gm: memref<1024xf32>, %out: memref<1024xf32>, %rows: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %table = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>  // [0, 4096)
  %row = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>    // [1024, 1056)
  // expected-remark @below {{read depends on nothing}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, test.name = "read"} ins(%table : memref<1024xf32, #dsaplan.space<ub>>) outs(%out : memref<1024xf32>)
  // expected-remark @below {{load depends on read}}
  memref.copy %rows, %row {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "load"} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  // expected-remark @below {{use depends on read, load}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, test.name = "use"} ins(%row : memref<8xf32, #dsaplan.space<ub>>) outs(%rows : memref<8xf32>)
  // expected-remark @below {{reload depends on read, load, use}}
  memref.copy %gm, %table {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "reload"} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  // Only the reload is the last writer of the table now; %gm may be %out
  // or %rows, written by the read and the use.
  // expected-remark @below {{store depends on read, use, reload}}
  memref.copy %table, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>, test.name = "store"} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  return
}

// -----

// Around the back edge: the next iteration's load overwrites what this
// iteration loaded (WAW) and computed from (WAR).
func.func @loop(%gm: memref<8xf32>, %out: memref<8xf32>, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>  // [0, 32)
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @below {{load depends on load (previous iteration), compute (previous iteration)}}
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "load"} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
    // expected-remark @below {{compute depends on load}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, test.name = "compute"} ins(%a : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  }
  return
}

// -----

// After an scf.if, the last writers of a byte are those of both branches.
func.func @branches(%gm: memref<8xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>   // [0, 32)
  %b = memref.view %ub[%c32][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>  // [32, 64)
  // expected-remark @below {{load depends on nothing}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "load"} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  scf.if %c {
    // expected-remark @below {{then depends on load}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, test.name = "then"} ins(%a : memref<8xf32, #dsaplan.space<ub>>) outs(%b : memref<8xf32, #dsaplan.space<ub>>)
  } else {
    // expected-remark @below {{else depends on nothing}}
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>, test.name = "else"} ins(%zero : f32) outs(%b : memref<8xf32, #dsaplan.space<ub>>)
  }
  // The store also overwrites the GM bytes the load read.
  // expected-remark @below {{store depends on load, then, else}}
  memref.copy %b, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>, test.name = "store"} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32>
  return
}

// -----

// scf.while runs "before", then "do" and "before" again as long as the
// condition holds, and leaves from the end of "before". After the loop, A's
// last writer is the fill, never the "do" region's reload: the use after
// the loop depends on the fill alone (the reload is ordered before the
// next fill, which overwrites every byte of it). Around the back edge the
// fill depends on the reload only: the store is ordered through it.
func.func @while(%gm: memref<64xf32>, %out: memref<64xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [0, 256)
  scf.while : () -> () {
    // expected-remark @below {{fill depends on reload (previous iteration)}}
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>, test.name = "fill"} ins(%zero : f32) outs(%a : memref<64xf32, #dsaplan.space<ub>>)
    scf.condition(%c)
  } do {
    // expected-remark @below {{store depends on fill}}
    memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>, test.name = "store"} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    // expected-remark @below {{reload depends on fill, store}}
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "reload"} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    scf.yield
  }
  // expected-remark @below {{use depends on fill}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, test.name = "use"} ins(%a : memref<64xf32, #dsaplan.space<ub>>) outs(%out : memref<64xf32>)
  return
}

// -----

// The shadow of an on-chip space is kept a page of 8 KiB at a time, and an
// access across a page's end ([8000, 8512) spans two) depends on the
// history of all its bytes, each earlier access once, in the order of the
// bytes: [8000, 8160) holds the load, [8160, 8192) the low patch, [8192,
// 8224) the load or the high patch (written on one path of the branch, the
// other page left as it was) and the rest the load.
func.func @across_pages(%gm: memref<128xf32>, %g8: memref<8xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c8000 = arith.constant 8000 : index
  %c8160 = arith.constant 8160 : index
  %c8192 = arith.constant 8192 : index
  %wide = memref.view %ub[%c8000][] : memref<196608xi8, #dsaplan.space<ub>> to memref<128xf32, #dsaplan.space<ub>>  // [8000, 8512)
  %low = memref.view %ub[%c8160][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>     // [8160, 8192)
  %high = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>    // [8192, 8224)
  %res = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<128xf32, #dsaplan.space<ub>>      // [0, 512)
  // expected-remark @below {{load depends on nothing}}
  memref.copy %gm, %wide {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "load"} : memref<128xf32> to memref<128xf32, #dsaplan.space<ub>>
  // expected-remark @below {{low depends on load}}
  memref.copy %g8, %low {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "low"} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  scf.if %c {
    // expected-remark @below {{high depends on load}}
    memref.copy %g8, %high {dsaplan.pipe = #dsaplan.pipe<mte2>, test.name = "high"} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  }
  // expected-remark @below {{use depends on load, low, high}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, test.name = "use"} ins(%wide : memref<128xf32, #dsaplan.space<ub>>) outs(%res : memref<128xf32, #dsaplan.space<ub>>)
  return
}
