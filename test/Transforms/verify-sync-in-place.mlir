// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics

// An op marked dsaplan.in_place may write over its input only from the same
// start with the same layout (Ascend C's address-overlap rule); the
// verifier checks the placed bytes, not what the placement meant.

// The output 4 KiB below the input, as placements sized alone put it:
// %b [167936, 180224) over %a [172032, 184320).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @shifted(%x: memref<3072xf32> {llvm.noalias}, %y: memref<3072xf32> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %ca = arith.constant 172032 : index
    %cb = arith.constant 167936 : index
    %a = memref.view %ub[%ca][] : memref<196608xi8, #dsaplan.space<ub>> to memref<3072xf32, #dsaplan.space<ub>>
    %b = memref.view %ub[%cb][] : memref<196608xi8, #dsaplan.space<ub>> to memref<3072xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<3072xf32> to memref<3072xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    // expected-error @below {{'linalg.exp' on pipe v reads bytes [172032, 184320) of ub and writes [167936, 180224): a source and a destination must start at the same address with the same layout, or be disjoint}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%a : memref<3072xf32, #dsaplan.space<ub>>) outs(%b : memref<3072xf32, #dsaplan.space<ub>>)
    return
  }
}

// -----

// A cast at the same start: element i's f32 result covers f16 inputs 2i and
// 2i+1, which are not read yet. Same start, different layout: refused.
#map = affine_map<(d0) -> (d0)>
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @cast_same_start(%x: memref<8192xf16> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %h = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8192xf16, #dsaplan.space<ub>>
    %f = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8192xf32, #dsaplan.space<ub>>
    memref.copy %x, %h {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8192xf16> to memref<8192xf16, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    // expected-error @below {{'linalg.generic' on pipe v reads bytes [0, 16384) of ub and writes [0, 32768): a source and a destination must start at the same address with the same layout, or be disjoint}}
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%h : memref<8192xf16, #dsaplan.space<ub>>) outs(%f : memref<8192xf32, #dsaplan.space<ub>>)
        attrs = {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place} {
    ^bb0(%in: f16, %out: f32):
      %e = arith.extf %in : f16 to f32
      linalg.yield %e : f32
    }
    return
  }
}

// -----

// Exactly in place, and disjoint: both accepted.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @same_or_disjoint(%x: memref<1024xf32> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    %b = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    %c = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
    dsaplan.pipe_barrier <v>
    linalg.negf {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%b : memref<1024xf32, #dsaplan.space<ub>>) outs(%c : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
}
