// RUN: memplan-opt %s --split-input-file -p 'pool-allocs' | FileCheck %s
// hip-ep's own pass pools returned buffers too (its outputs are alloc_outputs by then):
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs' | FileCheck %s

// hip.alloc_output is a graph output the runtime owns: pool-allocs views the
// memref.allocs into the pool and leaves the output buffer where it is.
// CHECK:       module attributes {{{.*}}hipdnn.buffer_count = 1 : i64
// CHECK-LABEL: func.func @alloc_output_never_pooled
// CHECK:         %[[OUT:.+]] = hip.alloc_output(%{{.+}}) {out_idx = 0 : i64} : memref<64xf32>
// CHECK:         %[[POOL:.+]] = hip.get_pool
// CHECK:         %[[T:.+]] = memref.view %[[POOL]]
// CHECK:         hip.neg(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[T]] : memref<64xf32>)
// CHECK:         hip.neg(%{{.+}}) ins(%[[T]] : memref<64xf32>) outs(%[[OUT]] : memref<64xf32>)
// CHECK:         return %[[OUT]]
func.func @alloc_output_never_pooled(%ctx: !hip.context, %in: memref<64xf32>) -> memref<64xf32> {
  %out = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<64xf32>
  %t = memref.alloc() : memref<64xf32>
  hip.neg(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  hip.neg(%ctx) ins(%t : memref<64xf32>) outs(%out : memref<64xf32>)
  return %out : memref<64xf32>
}

// -----

// Only alloc_outputs: nothing to pool, no pool.
// CHECK-LABEL: func.func @only_outputs
// CHECK-NOT:     hip.get_pool
// CHECK:         hip.alloc_output(%{{.+}}, %{{.+}}) {out_idx = 0 : i64} : memref<?xf32>
// CHECK:         hip.alloc_output(%{{.+}}) {out_idx = 1 : i64} : memref<4xf32>
func.func @only_outputs(%ctx: !hip.context, %n: index, %in: memref<?xf32>) -> (memref<?xf32>, memref<4xf32>) {
  %a = hip.alloc_output(%ctx, %n) {out_idx = 0 : i64} : memref<?xf32>
  %b = hip.alloc_output(%ctx) {out_idx = 1 : i64} : memref<4xf32>
  hip.neg(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?xf32>)
  return %a, %b : memref<?xf32>, memref<4xf32>
}

// -----

// An output the function does not return is the runtime's all the same: a kernel
// writes it where it is, and there is nothing to pool.
// CHECK:       module attributes {{{.*}}hipdnn.buffer_count = 0 : i64
// CHECK-LABEL: func.func @alloc_output_not_returned
// CHECK-NOT:     hip.get_pool
// CHECK:         %[[OUT:.+]] = hip.alloc_output(%{{.+}}) {out_idx = 0 : i64} : memref<64xf32>
// CHECK-NOT:     hip.get_pool
// CHECK:         hip.neg(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[OUT]] : memref<64xf32>)
func.func @alloc_output_not_returned(%ctx: !hip.context, %in: memref<64xf32>) {
  %out = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<64xf32>
  hip.neg(%ctx) ins(%in : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}
