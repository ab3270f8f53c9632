// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs{debug=true}' --verify-diagnostics | FileCheck %s

// What optimize-memrefs learns from the hip ops' traits alone: hip-ep's
// read-backs synchronize the stream, alloc_output is not an allocation, kernels
// in tensor form touch no memory.

// A read-back waits for the stream before it reads: the cast that read %a has
// completed, so the host may store into %a's bytes for %b.
// CHECK-LABEL: func.func @readback_scalar_makes_reuse_legal
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// CHECK:         hip.readback_scalar
// CHECK-NOT:     memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// CHECK:         hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
func.func @readback_scalar_makes_reuse_legal(%ctx: !hip.context, %x: i64, %ao: memref<32xf32>, %bo: memref<32xf32>, %n: memref<i64>) -> i64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>)
  %v = hip.readback_scalar(%ctx, %n : memref<i64>) -> i64
  %b = memref.alloc() : memref<32xi64>
  memref.store %v, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>)
  return %v : i64
}

// -----

// readback_dim synchronizes too.
// CHECK-LABEL: func.func @readback_dim_makes_reuse_legal
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.readback_dim
// CHECK-NOT:     memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
func.func @readback_dim_makes_reuse_legal(%ctx: !hip.context, %x: i64, %ao: memref<32xf32>, %bo: memref<32xf32>, %n: memref<i32>) -> index {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>)
  %d = hip.readback_dim(%ctx, %n : memref<i32>) -> index
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>)
  return %d : index
}

// -----

// Without the read-back between them, the host store to %b may land before the
// cast has read %a: kept apart.
// CHECK-LABEL: func.func @no_readback_no_reuse
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.cast
// CHECK:         memref.alloc() : memref<32xi64>
func.func @no_readback_no_reuse(%ctx: !hip.context, %x: i64, %ao: memref<32xf32>, %bo: memref<32xf32>, %n: memref<i64>) -> i64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>)
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>)
  %v = hip.readback_scalar(%ctx, %n : memref<i64>) -> i64
  return %v : i64
}

// -----

// The read-back reads its buffer on the host, after the wait: a kernel that
// wrote %s before it is complete, so %s's bytes may go to a later host buffer.
// CHECK-LABEL: func.func @readback_buffer_freed_by_its_own_wait
// CHECK:         %[[S:.+]] = memref.alloc() : memref<1xi64>
// CHECK:         hip.readback_scalar(%{{.+}}, %[[S]] : memref<1xi64>)
// CHECK-NOT:     memref.alloc() : memref<1xi64>
// CHECK:         memref.store %{{.+}}, %[[S]][%{{.+}}] : memref<1xi64>
func.func @readback_buffer_freed_by_its_own_wait(%ctx: !hip.context, %in: memref<1xi64>, %o: memref<1xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %s = memref.alloc() : memref<1xi64>
  hip.relu(%ctx) ins(%in : memref<1xi64>) outs(%s : memref<1xi64>)
  %v = hip.readback_scalar(%ctx, %s : memref<1xi64>) -> i64
  %t = memref.alloc() : memref<1xi64>
  memref.store %v, %t[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%t : memref<1xi64>) outs(%o : memref<1xf32>)
  return %v : i64
}
