// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect -p cse | FileCheck %s
// RUN: memplan-opt %s --split-input-file --allow-test-dialect --allow-unregistered-dialect -p cse | FileCheck %s

// CSE with MLIR's test-dialect ops, loaded because the input uses them (as
// mlir-opt's test build; --allow-test-dialect is the explicit form, same result):
// effects on non-addressable resources, graph regions, ops with a region.

// A counter no pointer reaches is written between two reads of memory: the reads
// still merge.
// CHECK-LABEL: @nonaddressable_write_between_memory_reads
// CHECK-NEXT:  %[[R:.*]] = "test.op_with_memread"() : () -> i64
// CHECK-NEXT:  "test.side_effect_op"() {{.*}}"write"
// CHECK-NEXT:  return %[[R]], %[[R]]
func.func @nonaddressable_write_between_memory_reads() -> (i64, i64) {
  %0 = "test.op_with_memread"() : () -> i64
  "test.side_effect_op"() {effects = [{effect = "write", test_nonaddressable_resource_b}]} : () -> i64
  %1 = "test.op_with_memread"() : () -> i64
  return %0, %1 : i64, i64
}

// -----

// A memory write, or an op with unknown effects, between two reads of the
// counter keeps them apart (an unknown op may touch any resource).
// CHECK-LABEL: @nonaddressable_reads_kept_apart
// CHECK-COUNT-3: "test.side_effect_op"() {{.*}}"read"
func.func @nonaddressable_reads_kept_apart() -> (i64, i64, i64) {
  %0 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource_a}]} : () -> i64
  "unknown.op"() : () -> ()
  %1 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource_a}]} : () -> i64
  "test.side_effect_op"() {effects = [{effect = "write", test_nonaddressable_resource}]} : () -> i64
  %2 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource_a}]} : () -> i64
  return %0, %1, %2 : i64, i64, i64
}

// -----

// Reads of one part of the counter survive writes to the other part.
// CHECK-LABEL: @disjoint_parts
// CHECK:       %[[A:.*]] = "test.side_effect_op"() {{.*}}"read"
// CHECK-NOT:   "read"
// CHECK:       return %[[A]], %[[A]]
func.func @disjoint_parts() -> (i64, i64) {
  %0 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource_a}]} : () -> i64
  "test.side_effect_op"() {effects = [{effect = "write", test_nonaddressable_resource_b}]} : () -> i64
  %1 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource_a}]} : () -> i64
  return %0, %1 : i64, i64
}

// -----

// A write to an addressable resource other than the default one may be any
// memory: the reads stay two.
// CHECK-LABEL: @addressable_resource_write_blocks
// CHECK-COUNT-2: "test.op_with_memread"
func.func @addressable_resource_write_blocks() -> (i64, i64) {
  %0 = "test.op_with_memread"() : () -> i64
  "test.side_effect_op"() {effects = [{effect = "write", test_resource}]} : () -> i64
  %1 = "test.op_with_memread"() : () -> i64
  return %0, %1 : i64, i64
}

// -----

// In a graph region a use may precede the duplicate: uses already walked keep the
// duplicate, later ones move to the first copy.
// CHECK-LABEL: @graph_region
// CHECK:       test.graph_region {
// CHECK-NEXT:    %[[U:.*]] = arith.muli %[[D:.*]], %[[D]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[D]] = arith.constant 7 : i32
// CHECK-NEXT:    %{{.*}} = arith.addi %[[C]], %[[C]] : i32
func.func @graph_region() {
  test.graph_region {
    %u = arith.muli %b, %b : i32
    %a = arith.constant 7 : i32
    %b = arith.constant 7 : i32
    %v = arith.addi %a, %b : i32
    "foo.yield"(%u, %v) : (i32, i32) -> ()
  }
  return
}

// -----

// Pure ops with one region merge when their regions are equal, not otherwise.
// CHECK-LABEL: @region_ops
// CHECK:       %[[A:.*]] = test.cse_of_single_block_op
// CHECK:       %[[B:.*]] = test.cse_of_single_block_op
// CHECK-NOT:   test.cse_of_single_block_op
// CHECK:       return %[[A]], %[[A]], %[[B]]
func.func @region_ops(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = test.cse_of_single_block_op inputs(%t) {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    test.region_yield %n : f32
  } : tensor<4xf32> -> tensor<4xf32>
  %1 = test.cse_of_single_block_op inputs(%t) {
  ^bb0(%y: f32):
    %n = arith.negf %y : f32
    test.region_yield %n : f32
  } : tensor<4xf32> -> tensor<4xf32>
  %2 = test.cse_of_single_block_op inputs(%t) {
  ^bb0(%z: f32):
    test.region_yield %z : f32
  } : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Two fresh allocations are never one, whatever the resource.
// CHECK-LABEL: @allocations_not_merged
// CHECK-COUNT-2: "test.side_effect_op"() {{.*}}"allocate"
func.func @allocations_not_merged() -> (memref<4xf32>, memref<4xf32>) {
  %0 = "test.side_effect_op"() {effects = [{effect = "allocate", on_result}]} : () -> memref<4xf32>
  %1 = "test.side_effect_op"() {effects = [{effect = "allocate", on_result}]} : () -> memref<4xf32>
  return %0, %1 : memref<4xf32>, memref<4xf32>
}
