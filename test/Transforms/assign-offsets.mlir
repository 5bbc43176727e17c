// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets="algorithm=first-fit" | FileCheck %s --check-prefix=FF

// Worked examples: live ranges are given, offsets are what the solver must
// attach. Sizes: memref<256xf32> is 1 KiB, memref<1024xf32> 4 KiB.

// Co-live buffers sit side by side; %c, born after %a died, takes %a's
// bytes. Peak 5 KiB = the lower bound (4 KiB + 1 KiB live at point 6).
// CHECK-LABEL: func.func @reuse
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "a", offset = 0 : i64}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<5 to 20>, name = "b", offset = 4096 : i64}
// CHECK: %c = dsaplan.alloc {live = #dsaplan.live<12 to 30>, name = "c", offset = 0 : i64}
func.func @reuse() {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 10>} : memref<1024xf32, #dsaplan.space<ub>>   // [0, 4096)
  %b = dsaplan.alloc {name = "b", live = #dsaplan.live<5 to 20>} : memref<256xf32, #dsaplan.space<ub>>    // [4096, 5120)
  %c = dsaplan.alloc {name = "c", live = #dsaplan.live<12 to 30>} : memref<1024xf32, #dsaplan.space<ub>>  // [0, 4096): a is dead
  return
}

// -----

// Alignment: the l0a minimum is 512 B, and an explicit 4096 raises it. The
// 4 KiB tile goes at 0 (the only 4096-aligned spot below the others), the
// two 128 B tiles at the next multiples of 512 above it: peak 4736, where
// putting the small ones first would cost 8192.
// CHECK-LABEL: func.func @alignment
// CHECK: %small = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "small", offset = 4096 : i64}
// CHECK: %big_aligned = dsaplan.alloc {alignment = 4096 : i64, live = #dsaplan.live<0 to 10>, name = "big_aligned", offset = 0 : i64}
// CHECK: %next = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "next", offset = 4608 : i64}
func.func @alignment() {
  %small = dsaplan.alloc {name = "small", live = #dsaplan.live<0 to 10>} : memref<64xf16, #dsaplan.space<l0a>>   // 128 B at 4096
  %big = dsaplan.alloc {name = "big_aligned", alignment = 4096 : i64, live = #dsaplan.live<0 to 10>} : memref<2048xf16, #dsaplan.space<l0a>>  // 4 KiB at 0
  %next = dsaplan.alloc {name = "next", live = #dsaplan.live<0 to 10>} : memref<64xf16, #dsaplan.space<l0a>>    // 128 B at 4608
  return
}

// -----

// Reserved ranges: the target keeps [0, 1024) of UB for itself here.
// CHECK-LABEL: func.func @reserved
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "a", offset = 1024 : i64}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {reserved = [[0, 1024]]}}>} {
  func.func @reserved() {
    %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<ub>>
    return
  }
}

// -----

// A separation keeps two buffers apart although their lifetimes are
// disjoint; a colocation puts two at one offset.
// CHECK-LABEL: func.func @constraints
// CHECK: %ping = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "ping", offset = 0 : i64}
// CHECK: %pong = dsaplan.alloc {live = #dsaplan.live<10 to 20>, name = "pong", offset = 1024 : i64}
// CHECK: %x = dsaplan.alloc {live = #dsaplan.live<20 to 30>, name = "x", offset = [[X:[0-9]+]] : i64}
// CHECK: %y = dsaplan.alloc {live = #dsaplan.live<30 to 40>, name = "y", offset = [[X]] : i64}
func.func @constraints() {
  %ping = dsaplan.alloc {name = "ping", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<l1>>
  %pong = dsaplan.alloc {name = "pong", live = #dsaplan.live<10 to 20>} : memref<256xf32, #dsaplan.space<l1>>
  %x = dsaplan.alloc {name = "x", live = #dsaplan.live<20 to 30>} : memref<64xf32, #dsaplan.space<l1>>
  %y = dsaplan.alloc {name = "y", live = #dsaplan.live<30 to 40>} : memref<128xf32, #dsaplan.space<l1>>
  dsaplan.separate %ping, %pong {reason = "pipeline_stage"} : memref<256xf32, #dsaplan.space<l1>>, memref<256xf32, #dsaplan.space<l1>>
  dsaplan.colocate %x, %y : memref<64xf32, #dsaplan.space<l1>>, memref<128xf32, #dsaplan.space<l1>>
  return
}

// -----

// An existing offset is a pin; the others are placed around it.
// CHECK-LABEL: func.func @pinned
// CHECK: %fixed = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "fixed", offset = 0 : i64}
// CHECK: %free = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "free", offset = 1024 : i64}
func.func @pinned() {
  %fixed = dsaplan.alloc {name = "fixed", live = #dsaplan.live<0 to 10>, offset = 0 : i64} : memref<256xf32, #dsaplan.space<ub>>
  %free = dsaplan.alloc {name = "free", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

// Several spaces in one function are placed independently, and so are
// several functions: both start at 0 in every space.
// CHECK-LABEL: func.func @spaces
// CHECK: %u = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "u", offset = 0 : i64}
// CHECK: %c = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "c", offset = 0 : i64}
// CHECK: %u2 = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "u2", offset = 1024 : i64}
// CHECK-LABEL: func.func @second_function
// CHECK: %v = dsaplan.alloc {live = #dsaplan.live<0 to 4>, name = "v", offset = 0 : i64}
func.func @spaces() {
  %u = dsaplan.alloc {name = "u", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<ub>>
  %c = dsaplan.alloc {name = "c", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<l0c>>
  %u2 = dsaplan.alloc {name = "u2", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<ub>>
  return
}
func.func @second_function() {
  %v = dsaplan.alloc {name = "v", live = #dsaplan.live<0 to 4>} : memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

// Several live intervals: %t is dead in [10, 20), where %x takes its bytes.
// CHECK-LABEL: func.func @holes
// CHECK: %t = dsaplan.alloc {live = #dsaplan.live<0 to 10, 20 to 30>, name = "t", offset = 0 : i64}
// CHECK: %x = dsaplan.alloc {live = #dsaplan.live<10 to 20>, name = "x", offset = 0 : i64}
// CHECK: %y = dsaplan.alloc {live = #dsaplan.live<5 to 25>, name = "y", offset = 4096 : i64}
// First fit by decreasing size gives the same here.
// FF-LABEL: func.func @holes
// FF: %x = dsaplan.alloc {live = #dsaplan.live<10 to 20>, name = "x", offset = 0 : i64}
func.func @holes() {
  %t = dsaplan.alloc {name = "t", live = #dsaplan.live<0 to 10, 20 to 30>} : memref<1024xf32, #dsaplan.space<ub>>
  %x = dsaplan.alloc {name = "x", live = #dsaplan.live<10 to 20>} : memref<1024xf32, #dsaplan.space<ub>>
  %y = dsaplan.alloc {name = "y", live = #dsaplan.live<5 to 25>} : memref<256xf32, #dsaplan.space<ub>>
  return
}
