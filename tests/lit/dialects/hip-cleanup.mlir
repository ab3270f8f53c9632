// RUN: memplan-opt %s --split-input-file -p 'cse' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'canonicalize,cse' | FileCheck %s

// What the cleanup passes may do to hip ops, decided by their declared effects.

// Tensor-mode kernels touch no memory: two identical ones are one, an unused one
// goes.
// CHECK-LABEL: func.func @tensor_kernels_merge
// CHECK:         %[[R:.+]] = hip.sigmoid
// CHECK-NOT:     hip.sigmoid
// CHECK-NOT:     hip.tanh
// CHECK:         return %[[R]], %[[R]]
func.func @tensor_kernels_merge(%ctx: !hip.context, %x: tensor<4xf32>, %e: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = hip.sigmoid(%ctx) ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) : tensor<4xf32>
  %b = hip.sigmoid(%ctx) ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) : tensor<4xf32>
  %unused = hip.tanh(%ctx) ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// Memref-mode kernels write their outs: both stay.
// CHECK-LABEL: func.func @memref_kernels_stay
// CHECK-COUNT-2: hip.sigmoid
func.func @memref_kernels_stay(%ctx: !hip.context, %x: memref<4xf32>, %y: memref<4xf32>) {
  hip.sigmoid(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  hip.sigmoid(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

// alloc_output changes the output allocator's state: never merged, never dropped.
// CHECK-LABEL: func.func @alloc_outputs_stay
// CHECK-COUNT-3: hip.alloc_output
func.func @alloc_outputs_stay(%ctx: !hip.context) {
  %a = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<4xf32>
  %b = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<4xf32>
  %c = hip.alloc_output(%ctx) {out_idx = 1 : i64} : memref<4xf32>
  return
}

// -----

// A read-back only reads: two of one buffer with no write between are one; a
// kernel writing the buffer between them keeps both.
// CHECK-LABEL: func.func @readbacks
// CHECK:         %[[V:.+]] = hip.readback_scalar
// CHECK-NEXT:    hip.neg
// CHECK-NEXT:    %[[W:.+]] = hip.readback_scalar
// CHECK-NEXT:    return %[[V]], %[[V]], %[[W]]
func.func @readbacks(%ctx: !hip.context, %s: memref<i64>) -> (i64, i64, i64) {
  %v = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %v2 = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  hip.neg(%ctx) ins(%s : memref<i64>) outs(%s : memref<i64>)
  %w = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  return %v, %v2, %w : i64, i64, i64
}

// -----

// Loops write their loop-carried buffers: both stay.
// CHECK-LABEL: func.func @loops_stay
// CHECK-COUNT-2: hip.loop
func.func @loops_stay(%ctx: !hip.context, %n: index, %v: memref<4xf32>) {
  hip.loop(%ctx, %n) iter_args(%v : memref<4xf32>) body @body {num_loop_carried = 1 : i32}
  hip.loop(%ctx, %n) iter_args(%v : memref<4xf32>) body @body {num_loop_carried = 1 : i32}
  return
}
func.func private @body(!hip.context, memref<i64>, memref<i1>, memref<4xf32>)

// -----

// Constants are pure: duplicates merge.
// CHECK-LABEL: func.func @constants_merge
// CHECK:         hip.constant
// CHECK-NOT:     hip.constant
// CHECK:         return
func.func @constants_merge() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = hip.constant {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
  %b = hip.constant {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}
