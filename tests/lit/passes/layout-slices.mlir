// RUN: memplan-opt %s --split-input-file -p 'layout-slices,cse' | FileCheck %s
// RUN: not memplan-opt %S/Inputs/layout-slices-invalid.mlir --split-input-file -p layout-slices 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: memplan-opt %S/Inputs/layout-slices-remarks.mlir --split-input-file -p 'layout-slices{debug=true}' --verify-diagnostics | FileCheck %s --check-prefix=REMARKS

// REMARKS-LABEL: @remarks
// REMARKS-NOT: stream.resource.pack
// REMARKS-LABEL: @static_remark

// BAD: layout-slices-invalid.mlir:3:3: error: layout-slices: slice 0 has lifetime [3, 1], which ends before it starts
// BAD-NEXT: %t:2 = stream.resource.pack slices({
// BAD-NEXT: ^
// BAD: layout-slices-invalid.mlir:13:3: error: layout-slices: min_buffer_offset_alignment 24 is not a power of two

// Static: IREE's greedy (lifetime order) needs 144 bytes; the lower bound is 112
// (48 + 48 + 16 live at times 1-2) and memplan reaches it.

#cfg16 = #stream.resource_config<{min_buffer_offset_alignment = 16, min_buffer_range_alignment = 16}>

// CHECK-LABEL: @static_below_iree
util.func public @static_below_iree() -> (index, index, index, index, index, index)
    attributes {stream.resources = #cfg16} {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %t:6 = stream.resource.pack slices({
    [0, 2] = %c48,
    [3, 4] = %c48,
    [3, 5] = %c32,
    [1, 3] = %c16,
    [0, 2] = %c48
  }) : index
  // CHECK-NOT: stream.resource.pack
  // CHECK: util.return %c112, %c0, %c32, %c0, %c96, %c48
  util.return %t#0, %t#1, %t#2, %t#3, %t#4, %t#5 : index, index, index, index, index, index
}

// -----

// Dynamic sizes proportional to one unknown: offsets are multiples of %s, no
// run-time maximum needed; the total 4608*s is the peak at time 1.

// CHECK-LABEL: @dynamic_scaled
// CHECK-SAME: (%[[S:.+]]: index)
util.func public @dynamic_scaled(%s: index) -> (index, index, index, index, index) {
  %c4096 = arith.constant 4096 : index
  %c256 = arith.constant 256 : index
  %big = arith.muli %s, %c4096 : index
  %small = arith.muli %s, %c256 : index
  %t:5 = stream.resource.pack slices({
    [0, 1] = %big,
    [1, 2] = %small,
    [2, 3] = %big,
    [0, 3] = %small
  }) : index
  // CHECK-DAG: %[[BIG:.+]] = arith.muli %[[S]], %c4096
  // CHECK-DAG: %[[D:.+]] = arith.muli %[[S]], %c4352
  // CHECK-DAG: %[[TOTAL:.+]] = arith.muli %[[S]], %c4608
  // CHECK-NOT: arith.maxui
  // CHECK: util.return %[[TOTAL]], %c0, %[[BIG]], %c0, %[[D]]
  util.return %t#0, %t#1, %t#2, %t#3, %t#4 : index, index, index, index, index
}

// -----

// A squared term and a size the pass cannot see into (%n: aligned at run time).

// CHECK-LABEL: @dynamic_square
// CHECK-SAME: (%[[S:.+]]: index, %[[N:.+]]: index)
util.func public @dynamic_square(%s: index, %n: index) -> (index, index, index, index, index) {
  %c4096 = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %lin = arith.muli %s, %c4096 : index
  %sq0 = arith.muli %s, %s : index
  %sq = arith.muli %sq0, %c64 : index
  %t:5 = stream.resource.pack slices({
    [0, 1] = %lin,
    [1, 2] = %sq,
    [0, 2] = %n,
    [2, 3] = %lin
  }) : index
  // CHECK-DAG: %[[LIN:.+]] = arith.muli %[[S]], %c4096
  // CHECK-DAG: %[[SQ:.+]] = arith.muli %{{.+}}, %c64
  // CHECK-DAG: %[[LIN_SQ:.+]] = arith.addi %[[LIN]], %[[SQ]]
  // CHECK-DAG: %[[N_ALIGNED:.+]] = util.align %[[N]], %c64
  // CHECK-DAG: %[[TOTAL:.+]] = arith.addi %[[LIN_SQ]], %[[N_ALIGNED]]
  // CHECK: util.return %[[TOTAL]], %c0, %[[LIN]], %[[LIN_SQ]], %c0
  util.return %t#0, %t#1, %t#2, %t#3, %t#4 : index, index, index, index, index
}

// -----

// Static and unknown sizes together: %n sits above both the 96-byte slice (128
// reserved) and %m, whichever ends higher at run time; the total is
// max(max(128, M) + N, 192) where IREE stacks everything (192 + N + M).

// CHECK-LABEL: @mixed_needs_max
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: index)
util.func public @mixed_needs_max(%n: index, %m: index) -> (index, index, index, index, index) {
  %c96 = arith.constant 96 : index
  %c192 = arith.constant 192 : index
  %t:5 = stream.resource.pack slices({
    [0, 1] = %c96,
    [1, 2] = %n,
    [2, 3] = %m,
    [5, 6] = %c192
  }) : index
  // CHECK-DAG: %[[MA:.+]] = util.align %[[M]], %c64
  // CHECK-DAG: %[[NA:.+]] = util.align %[[N]], %c64
  // CHECK-DAG: %[[N_AT:.+]] = arith.maxui %c128, %[[MA]]
  // CHECK-DAG: %[[N_END:.+]] = arith.addi %[[N_AT]], %[[NA]]
  // CHECK-DAG: %[[TOTAL:.+]] = arith.maxui %[[N_END]], %c192
  // CHECK: util.return %[[TOTAL]], %c0, %[[N_AT]], %c0, %c0
  util.return %t#0, %t#1, %t#2, %t#3, %t#4 : index, index, index, index, index
}

// -----

// offset(%base): every offset and the total start at the base (default alignment
// 64: 100 bytes reserve 128).

// CHECK-LABEL: @base_offset
// CHECK-SAME: (%[[BASE:.+]]: index)
util.func public @base_offset(%base: index) -> (index, index, index) {
  %c100 = arith.constant 100 : index
  %t:3 = stream.resource.pack offset(%base) slices({
    [0, 1] = %c100,
    [1, 2] = %c100
  }) : index
  // CHECK-DAG: %[[SECOND:.+]] = arith.addi %[[BASE]], %c128
  // CHECK-DAG: %[[TOTAL:.+]] = arith.addi %[[BASE]], %c256
  // CHECK: util.return %[[TOTAL]], %[[BASE]], %[[SECOND]]
  util.return %t#0, %t#1, %t#2 : index, index, index
}

// -----

// Empty packs: the total is 0, or the base.

// CHECK-LABEL: @empty
// CHECK-SAME: (%[[BASE:.+]]: index)
util.func public @empty(%base: index) -> (index, index) {
  %0 = stream.resource.pack slices({}) : index
  %1 = stream.resource.pack offset(%base) slices({}) : index
  // CHECK: util.return %c0, %[[BASE]]
  util.return %0, %1 : index, index
}

// -----

// Alignment: the module's config (offsets 256, ranges 32), overridden by the op's
// own (8).

module attributes {stream.resources = #stream.resource_config<{min_buffer_offset_alignment = 256, min_buffer_range_alignment = 32}>} {
  // CHECK-LABEL: @module_config
  util.func public @module_config() -> (index, index, index) {
    %c10 = arith.constant 10 : index
    %t:3 = stream.resource.pack slices({
      [0, 0] = %c10,
      [0, 0] = %c10
    }) : index
    // CHECK: util.return %c288, %c0, %c256
    util.return %t#0, %t#1, %t#2 : index, index, index
  }
  // CHECK-LABEL: @op_config
  util.func public @op_config() -> (index, index) {
    %c10 = arith.constant 10 : index
    %t:2 = stream.resource.pack slices({
      [0, 0] = %c10
    }) : index attributes {stream.resources = #stream.resource_config<{min_buffer_offset_alignment = 8, min_buffer_range_alignment = 8}>}
    // CHECK: util.return %c16, %c0
    util.return %t#0, %t#1 : index, index
  }
}

// -----

// A single slice, and empty slices (offset 0, no bytes).

// CHECK-LABEL: @single_and_zero
util.func public @single_and_zero() -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %t:4 = stream.resource.pack slices({
    [0, 5] = %c100,
    [0, 5] = %c0,
    [2, 3] = %c0
  }) : index
  // CHECK: util.return %c128, %c0, %c0, %c0
  util.return %t#0, %t#1, %t#2, %t#3 : index, index, index, index
}
