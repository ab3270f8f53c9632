// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs{debug=true}' --verify-diagnostics | FileCheck %s
// The plans are race-free by the independent checker as well:
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s

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
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>) {to = 1 : i64}
  %v = hip.readback_scalar(%ctx, %n : memref<i64>) -> i64
  %b = memref.alloc() : memref<32xi64>
  memref.store %v, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>) {to = 1 : i64}
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
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>) {to = 1 : i64}
  %d = hip.readback_dim(%ctx, %n : memref<i32>) -> index
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>) {to = 1 : i64}
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
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>) {to = 1 : i64}
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
  hip.neg(%ctx) ins(%in : memref<1xi64>) outs(%s : memref<1xi64>)
  %v = hip.readback_scalar(%ctx, %s : memref<1xi64>) -> i64
  %t = memref.alloc() : memref<1xi64>
  memref.store %v, %t[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%t : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
  return %v : i64
}

// -----

// hip.loop runs its body function on every iteration; whatever the body
// enqueues on %ctx may still run when the loop returns. A host store into %a's
// bytes right after the loop could land first: %b keeps a slot of its own.
// CHECK-LABEL: func.func @loop_body_keeps_buffer_busy
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) iter_args(%[[A]] : memref<32xi64>)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<32xi64>
func.func @loop_body_keeps_buffer_busy(%ctx: !hip.context, %n: index, %x: i64, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.loop(%ctx, %n) iter_args(%a : memref<32xi64>) body @body {num_loop_carried = 1 : i32}
  // expected-remark @+1 {{its device access at 'hip.loop'}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%out : memref<32xf32>) {to = 1 : i64}
  return
}
func.func private @body(%ctx: !hip.context, %iter: memref<i64>, %cond: memref<i1>, %v: memref<32xi64>) {
  hip.neg(%ctx) ins(%v : memref<32xi64>) outs(%v : memref<32xi64>)
  return
}

// -----

// The same loop followed by a read-back: the body's device work is complete, so
// the host may store into %a's bytes.
// CHECK-LABEL: func.func @loop_then_readback_reuse
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) iter_args(%[[A]] : memref<32xi64>)
// CHECK:         hip.readback_scalar
// CHECK-NOT:     memref.alloc
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
func.func @loop_then_readback_reuse(%ctx: !hip.context, %n: index, %x: i64, %out: memref<32xf32>, %s: memref<i64>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.loop(%ctx, %n) iter_args(%a : memref<32xi64>) body @body {num_loop_carried = 1 : i32}
  %v = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %b = memref.alloc() : memref<32xi64>
  memref.store %v, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%out : memref<32xf32>) {to = 1 : i64}
  return
}
func.func private @body(%ctx: !hip.context, %iter: memref<i64>, %cond: memref<i1>, %v: memref<32xi64>)

// -----

// The bodies may also touch a buffer on the host while the loop runs: a kernel
// enqueued before the loop on another buffer's bytes would race with them, so a
// buffer a kernel is still reading cannot be handed to the loop in its slot.
// CHECK-LABEL: func.func @loop_host_access_after_kernel
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) captures(%[[B]] : memref<32xi64>)
func.func @loop_host_access_after_kernel(%ctx: !hip.context, %n: index, %x: i64, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%out : memref<32xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  hip.loop(%ctx, %n) captures(%b : memref<32xi64>) body @body {num_loop_carried = 0 : i32}
  return
}
func.func private @body(%ctx: !hip.context, %iter: memref<i64>, %cond: memref<i1>, %v: memref<32xi64>)

// -----

// A capture of hip.if is kept busy in the same way.
// CHECK-LABEL: func.func @if_capture_keeps_buffer_busy
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.if(%{{.+}}, %{{.+}}) captures(%[[A]] : memref<32xi64>)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<32xi64>
func.func @if_capture_keeps_buffer_busy(%ctx: !hip.context, %c: i1, %x: i64, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.if(%ctx, %c) captures(%a : memref<32xi64>) then @then else @else {num_outputs = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%out : memref<32xf32>) {to = 1 : i64}
  return
}
func.func private @then(%ctx: !hip.context, %a: memref<32xi64>)
func.func private @else(%ctx: !hip.context, %a: memref<32xi64>)

// -----

// The same program without the loop: the two temporaries share a slot.
// CHECK-LABEL: func.func @no_loop_reuse
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         outs(%[[A]] : memref<32xf32>)
// CHECK:         outs(%[[A]] : memref<32xf32>)
func.func @no_loop_reuse(%ctx: !hip.context, %in: memref<32xf32>, %out: memref<32xf32>) {
  %a = memref.alloc() : memref<32xf32>
  hip.neg(%ctx) ins(%in : memref<32xf32>) outs(%a : memref<32xf32>)
  hip.neg(%ctx) ins(%a : memref<32xf32>) outs(%out : memref<32xf32>)
  %b = memref.alloc() : memref<32xf32>
  hip.neg(%ctx) ins(%in : memref<32xf32>) outs(%b : memref<32xf32>)
  hip.neg(%ctx) ins(%b : memref<32xf32>) outs(%out : memref<32xf32>)
  return
}

// -----

// Kernels in tensor mode touch no memory: nothing to plan, nothing changed.
// CHECK-LABEL: func.func @tensor_mode_untouched
// CHECK:         %[[R:.+]] = hip.silu(%{{.+}}) ins(%{{.+}} : tensor<32xf32>) outs(%{{.+}} : tensor<32xf32>) -> tensor<32xf32>
// CHECK:         hip.sigmoid(%{{.+}}) ins(%[[R]] : tensor<32xf32>) outs(%{{.+}} : tensor<32xf32>) : tensor<32xf32>
func.func @tensor_mode_untouched(%ctx: !hip.context, %x: tensor<32xf32>, %e: tensor<32xf32>) -> tensor<32xf32> {
  %r = hip.silu(%ctx) ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %s = hip.sigmoid(%ctx) ins(%r : tensor<32xf32>) outs(%e : tensor<32xf32>) : tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----

// A graph output is the runtime's buffer, not a slot: a later temporary of the
// same type never takes its bytes (the runtime hands it out by out_idx; nothing
// after its last use here says it is free), and the output is never merged away.
// CHECK-LABEL: func.func @alloc_output_never_merged
// CHECK:         %[[O:.+]] = hip.alloc_output(%{{.+}}) {out_idx = 0 : i64} : memref<32xf32>
// CHECK:         hip.neg(%{{.+}}) ins(%{{.+}} : memref<32xf32>) outs(%[[O]] : memref<32xf32>)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<32xf32>
// CHECK:         hip.neg(%{{.+}}) ins(%{{.+}} : memref<32xf32>) outs(%[[B]] : memref<32xf32>)
// CHECK:         hip.neg(%{{.+}}) ins(%[[B]] : memref<32xf32>)
func.func @alloc_output_never_merged(%ctx: !hip.context, %in: memref<32xf32>, %out: memref<32xf32>) {
  %o = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<32xf32>
  hip.neg(%ctx) ins(%in : memref<32xf32>) outs(%o : memref<32xf32>)
  %b = memref.alloc() : memref<32xf32>
  hip.neg(%ctx) ins(%in : memref<32xf32>) outs(%b : memref<32xf32>)
  hip.neg(%ctx) ins(%b : memref<32xf32>) outs(%out : memref<32xf32>)
  return
}
