// RUN: dsa-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the dialect, one case per split.

func.func @alloc_not_in_dsaplan_space() {
  // expected-error @+1 {{'dsaplan.alloc' op result memory space must be a #dsaplan.space<...>, got 'memref<16xf32>'}}
  %a = dsaplan.alloc : memref<16xf32>
  return
}

// -----

func.func @alloc_other_memory_space() {
  // expected-error @+1 {{result memory space must be a #dsaplan.space<...>, got 'memref<16xf32, 3>'}}
  %a = dsaplan.alloc : memref<16xf32, 3>
  return
}

// -----

func.func @alloc_dynamic_shape() {
  // expected-error @+1 {{'dsaplan.alloc' op needs a static shape to be placed, got 'memref<?xf32, #dsaplan.space<ub>>'}}
  %a = dsaplan.alloc : memref<?xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_strided_layout() {
  // expected-error @+1 {{needs the identity layout, got 'memref<16xf32, strided<[2]>, #dsaplan.space<ub>>'}}
  %a = dsaplan.alloc : memref<16xf32, strided<[2]>, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_index_elements() {
  // expected-error @+1 {{element type 'index' has no fixed size in bytes}}
  %a = dsaplan.alloc : memref<16xindex, #dsaplan.space<ub>>
  return
}

// -----

// Sizes at the edge: the byte size of 2^61 f32 elements overflowed 64 bits
// (and the tile was then reported as one that cannot be placed); a 2-D
// shape overflows the element count itself.
func.func @alloc_too_large() {
  // expected-error @+1 {{'dsaplan.alloc' op type 'memref<2305843009213693952xf32, #dsaplan.space<ub>>' is larger than 1099511627776 bytes (2^40), the most a tile may have}}
  %a = dsaplan.alloc : memref<2305843009213693952xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_element_count_overflows() {
  // expected-error @+1 {{'dsaplan.alloc' op type 'memref<4294967296x4294967296xi8, #dsaplan.space<ub>>' is larger than 1099511627776 bytes (2^40)}}
  %a = dsaplan.alloc : memref<4294967296x4294967296xi8, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_offset_too_large() {
  // expected-error @+1 {{'dsaplan.alloc' op offset 9223372036854775807 is above 1099511627776 bytes (2^40)}}
  %a = dsaplan.alloc {offset = 9223372036854775807 : i64} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_alignment_too_large() {
  // expected-error @+1 {{'dsaplan.alloc' op alignment 4611686018427387904 is above 1099511627776 bytes (2^40)}}
  %a = dsaplan.alloc {alignment = 4611686018427387904 : i64} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_alignment_not_power_of_two() {
  // expected-error @+1 {{'dsaplan.alloc' op alignment 48 is not a power of two}}
  %a = dsaplan.alloc {alignment = 48 : i64} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_alignment_below_space_minimum() {
  // expected-error @+1 {{'dsaplan.alloc' op alignment 256 is below the minimum alignment 512 of space l0a}}
  %a = dsaplan.alloc {alignment = 256 : i64} : memref<16x16xf16, #dsaplan.space<l0a>>
  return
}

// -----

func.func @alloc_alignment_zero() {
  // expected-error @+1 {{attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %a = dsaplan.alloc {alignment = 0 : i64} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {alignment = 128}}>} {
  func.func @alloc_alignment_below_overridden_minimum() {
    // expected-error @+1 {{alignment 64 is below the minimum alignment 128 of space ub}}
    %a = dsaplan.alloc {alignment = 64 : i64} : memref<16xf32, #dsaplan.space<ub>>
    return
  }
}

// -----

func.func @alloc_offset_misaligned() {
  // expected-error @+1 {{'dsaplan.alloc' op offset 100 is not a multiple of the alignment 32}}
  %a = dsaplan.alloc {offset = 100 : i64} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_offset_misaligned_explicit_alignment() {
  // expected-error @+1 {{'dsaplan.alloc' op offset 4128 is not a multiple of the alignment 64}}
  %a = dsaplan.alloc {alignment = 64 : i64, offset = 4128 : i64} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alloc_offset_beyond_capacity() {
  // expected-error @+1 {{'dsaplan.alloc' op bytes [1024, 2048) exceed the bt capacity of 1024 bytes}}
  %a = dsaplan.alloc {offset = 1024 : i64} : memref<256xf32, #dsaplan.space<bt>>
  return
}

// -----

func.func @live_overlapping() {
  // expected-error @+1 {{live interval [8, 12) overlaps or precedes [4, 9): intervals must be sorted and disjoint}}
  %a = dsaplan.alloc {live = #dsaplan.live<4 to 9, 8 to 12>} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @live_unsorted() {
  // expected-error @+1 {{live interval [1, 3) overlaps or precedes [4, 9): intervals must be sorted and disjoint}}
  %a = dsaplan.alloc {live = #dsaplan.live<4 to 9, 1 to 3>} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @live_empty_interval() {
  // expected-error @+1 {{live interval [5, 5) is empty}}
  %a = dsaplan.alloc {live = #dsaplan.live<5 to 5>} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @live_negative() {
  // expected-error @+1 {{live interval [-2, 5) starts before point 0}}
  %a = dsaplan.alloc {live = #dsaplan.live<-2 to 5>} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @live_no_interval() {
  // expected-error @+1 {{live range must have at least one interval}}
  %a = dsaplan.alloc {live = #dsaplan.live<>} : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @separate_with_itself() {
  %a = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  // expected-error @+1 {{'dsaplan.separate' op cannot separate a buffer with itself (operands 0 and 1)}}
  dsaplan.separate %a, %a : memref<16xf32, #dsaplan.space<ub>>, memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @separate_across_spaces() {
  %a = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc : memref<16xf32, #dsaplan.space<l1>>
  // expected-error @+1 {{'dsaplan.separate' op cannot separate buffers across spaces: operand 0 is in ub, operand 1 in l1}}
  dsaplan.separate %a, %b : memref<16xf32, #dsaplan.space<ub>>, memref<16xf32, #dsaplan.space<l1>>
  return
}

// -----

func.func @separate_single_buffer() {
  %a = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  // expected-error @+1 {{'dsaplan.separate' op needs at least two buffers, got 1}}
  dsaplan.separate %a : memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @separate_not_dsaplan_space(%gm: memref<16xf32>) {
  %a = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  // expected-error @+1 {{'dsaplan.separate' op operand 1 is not in a dsaplan memory space: 'memref<16xf32>'}}
  dsaplan.separate %a, %gm : memref<16xf32, #dsaplan.space<ub>>, memref<16xf32>
  return
}

// -----

func.func @colocate_with_itself() {
  %a = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  // expected-error @+1 {{'dsaplan.colocate' op cannot colocate a buffer with itself (operands 0 and 2)}}
  dsaplan.colocate %a, %b, %a : memref<16xf32, #dsaplan.space<ub>>, memref<16xf32, #dsaplan.space<ub>>, memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @colocate_across_spaces() {
  %a = dsaplan.alloc : memref<16xf32, #dsaplan.space<l0c>>
  %b = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  // expected-error @+1 {{'dsaplan.colocate' op cannot colocate buffers across spaces: operand 0 is in l0c, operand 1 in ub}}
  dsaplan.colocate %a, %b : memref<16xf32, #dsaplan.space<l0c>>, memref<16xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @set_flag_to_itself() {
  // expected-error @+1 {{'dsaplan.set_flag' op flag from pipe v to itself; use dsaplan.pipe_barrier}}
  dsaplan.set_flag <v -> v>, 0
  return
}

// -----

func.func @wait_flag_to_itself() {
  // expected-error @+1 {{'dsaplan.wait_flag' op flag from pipe mte2 to itself; use dsaplan.pipe_barrier}}
  dsaplan.wait_flag <mte2 -> mte2>, 0
  return
}

// -----

func.func @set_flag_event_out_of_range() {
  // expected-error @+1 {{'dsaplan.set_flag' op event id 8 is outside 0-7}}
  dsaplan.set_flag <mte2 -> v>, 8
  return
}

// -----

func.func @wait_flag_event_negative() {
  // expected-error @+1 {{attribute 'event' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  dsaplan.wait_flag <mte2 -> v>, -1
  return
}

// -----

func.func @unknown_pipe() {
  // expected-error @+1 {{unknown pipe 'vec' (expected s, v, m, mte1, mte2, mte3 or fix)}}
  dsaplan.pipe_barrier <vec>
  return
}

// -----

// expected-error @+1 {{unknown target 'ascend310' (known: ascend910b, ascend950)}}
module attributes {dsaplan.target = #dsaplan.target<"ascend310">} {
}

// -----

// expected-error @+1 {{target override names unknown memory space 'l2'}}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {l2 = {capacity = 4096}}>} {
}

// -----

// expected-error @+1 {{target override ub has unknown key 'size' (expected capacity, alignment, reserved)}}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {size = 4096}}>} {
}

// -----

// expected-error @+1 {{target override ub.alignment = 48 is not a power of two}}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {alignment = 48}}>} {
}

// -----

// expected-error @+1 {{target override l1.capacity must be a positive integer}}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {l1 = {capacity = 0}}>} {
}

// -----

// expected-error @+1 {{target override ub.reserved entry [64, 32] is not a non-empty [begin, end) pair}}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {reserved = [[64, 32]]}}>} {
}

// -----

// expected-error @+1 {{'dsaplan.target' must be a #dsaplan.target<...> attribute}}
module attributes {dsaplan.target = "ascend910b"} {
}

// -----

func.func @pipe_attr_wrong_kind(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{'dsaplan.pipe' must be a #dsaplan.pipe<...> attribute}}
  memref.copy %a, %b {dsaplan.pipe = "v"} : memref<16xf32> to memref<16xf32>
  return
}

// -----

// The placement no longer marks ops with its program points for the sync
// pictures (each pass numbers its own IR): the attribute is gone.
func.func @report_point_is_gone(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{unknown dsaplan attribute 'dsaplan.report_point'}}
  memref.copy %a, %b {dsaplan.report_point = 6 : i64} : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @unknown_dialect_attr(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{unknown dsaplan attribute 'dsaplan.pipes'}}
  memref.copy %a, %b {dsaplan.pipes = #dsaplan.pipe<v>} : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @arena_wrong_size() {
  // expected-error @+1 {{'dsaplan.arena' op arena of ub must have the space's 196608 bytes, got 'memref<1024xi8, #dsaplan.space<ub>>'}}
  %ub = dsaplan.arena <ub> : memref<1024xi8, #dsaplan.space<ub>>
  return
}

// -----

func.func @arena_wrong_space() {
  // expected-error @+1 {{'dsaplan.arena' op result must be in space l1, got 'memref<196608xi8, #dsaplan.space<ub>>'}}
  %ub = dsaplan.arena <l1> : memref<196608xi8, #dsaplan.space<ub>>
  return
}

// -----

func.func @flag_across_cores() {
  // expected-error @below {{'dsaplan.set_flag' op flag <fix -> v> crosses cores on ascend910b: fix runs on the cube core, v on the vector core; an intra-core flag cannot order them (use a cross-core sync through GM)}}
  dsaplan.set_flag <fix -> v>, 0
  return
}

// -----

func.func @flag_to_cube_mte3() {
  // 910B's cube core has no MTE3.
  // expected-error @below {{'dsaplan.set_flag' op flag <fix -> mte3> crosses cores on ascend910b: fix runs on the cube core, mte3 on the vector core; an intra-core flag cannot order them (use a cross-core sync through GM)}}
  dsaplan.set_flag <fix -> mte3>, 0
  return
}

// -----

func.func @core_attribute_not_a_core() {
  // expected-error @below {{'dsaplan.core' must be a #dsaplan.core<...> attribute}}
  dsaplan.set_flag <mte3 -> mte2>, 0 {dsaplan.core = "vector"}
  return
}

// -----

func.func @cross_core_unknown_core() {
  // expected-error @below {{unknown core 'aic' (expected cube or vector)}}
  dsaplan.cross_core_wait aic, mode 2, id 0
  return
}

// -----

func.func @cross_core_id_out_of_range() {
  // expected-error @below {{'dsaplan.cross_core_set' op cross-core id 11 is outside 0-10 on ascend910b}}
  dsaplan.cross_core_set cube <fix>, mode 2, id 11
  return
}

// -----

func.func @cross_core_wait_id_out_of_range() {
  // expected-error @below {{'dsaplan.cross_core_wait' op cross-core id 15 is outside 0-10 on ascend910b}}
  dsaplan.cross_core_wait vector, mode 2, id 15
  return
}

// -----

func.func @cross_core_mode_unknown() {
  // Mode 4 (each vector core signals the cube core alone) is the 950's.
  // expected-error @below {{'dsaplan.cross_core_set' op mode 4 is not a cross-core mode of ascend910b (it has 0, 1, 2)}}
  dsaplan.cross_core_set vector <mte3>, mode 4, id 0
  return
}

// -----

func.func @cross_core_mode1_on_cube() {
  // expected-error @below {{'dsaplan.cross_core_wait' op mode 1 orders the vector cores of a group; the cube core takes no part in it}}
  dsaplan.cross_core_wait cube, mode 1, id 0
  return
}

// -----

func.func @cross_core_set_on_scalar() {
  // expected-error @below {{'dsaplan.cross_core_set' op a cross-core set cannot be issued on pipe s on ascend910b (it fires when its pipe's earlier work is done: name the pipe that did it)}}
  dsaplan.cross_core_set vector <s>, mode 2, id 0
  return
}

// -----

func.func @cross_core_set_pipe_not_on_core() {
  // expected-error @below {{'dsaplan.cross_core_set' op pipe fix does not run on the vector core of ascend910b (it runs on cube)}}
  dsaplan.cross_core_set vector <fix>, mode 2, id 0
  return
}
