// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs{debug=true}' --verify-diagnostics | FileCheck %s
// The plans are race-free by the independent checker as well:
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s
// pool-allocs asks the same analysis for its conflict graph: shared bytes are one
// offset, kept-apart buffers of 256 bytes each a pool of 512.
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL

// hip.loop without cond_is_passthrough: hip-ep's runtime waits for the context's
// stream after every iteration to read the body's condition back. A loop that
// surely runs one iteration therefore returns with the stream empty, and what
// optimize-memrefs learns from the loop's StreamSynchronization trait alone is that
// device work before it (and in its body) is complete after it.

// A constant trip count and no initial condition (true): the kernel that read %a
// has completed when the loop returns, so the host may store into %a's bytes.
// POOL:      hipdnn.buffer_offsets = [[[OFF:[0-9]+]], [[OFF]]]
// POOL-NEXT: func.func @loop_readback_makes_reuse_legal(
// CHECK-LABEL: func.func @loop_readback_makes_reuse_legal
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.neg(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// CHECK:         hip.loop
// CHECK-NOT:     memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// CHECK:         hip.neg(%{{.+}}) ins(%[[A]] : memref<32xi64>)
func.func @loop_readback_makes_reuse_legal(%ctx: !hip.context, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>, %acc: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %c3) iter_args(%acc : memref<4xf32>) body @body {num_loop_carried = 1 : i32}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<4xf32>, %p4: memref<i1>, %p5: memref<4xf32>) {
  return
}

// -----

// A constant true initial condition runs the first iteration as well.
// POOL:      hipdnn.buffer_offsets = [[[OFF:[0-9]+]], [[OFF]]]
// POOL-NEXT: func.func @loop_true_condition_reuse(
// CHECK-LABEL: func.func @loop_true_condition_reuse
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK-NOT:     memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
func.func @loop_true_condition_reuse(%ctx: !hip.context, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %c1, %true) body @body {num_loop_carried = 0 : i32}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<i1>) {
  return
}

// -----

// The wait follows the last iteration, so what the body enqueued on a buffer
// handed to the loop is complete too: %a's bytes are free after the loop (compare
// loop_body_keeps_buffer_busy in hip-memory-reuse.mlir, whose trip count is not
// known).
// POOL:      hipdnn.buffer_offsets = [[[OFF:[0-9]+]], [[OFF]]]
// POOL-NEXT: func.func @loop_body_work_complete_after_loop(
// CHECK-LABEL: func.func @loop_body_work_complete_after_loop
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) iter_args(%[[A]] : memref<32xi64>)
// CHECK-NOT:     memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
func.func @loop_body_work_complete_after_loop(%ctx: !hip.context, %x: i64, %out: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.loop(%ctx, %c8) iter_args(%a : memref<32xi64>) body @body {num_loop_carried = 1 : i32}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%out : memref<32xi64>)
  return
}
func.func private @body(%ctx: !hip.context, %iter: memref<i64>, %cond: memref<i1>, %v: memref<32xi64>, %cond_out: memref<i1>, %v_out: memref<32xi64>) {
  hip.neg(%ctx) ins(%v : memref<32xi64>) outs(%v_out : memref<32xi64>)
  return
}

// -----

// With cond_is_passthrough the runtime runs a counted loop and never reads the
// condition back: no wait, the kernel may still be reading %a.
// POOL:      hipdnn.pool_size = 512 : i64
// POOL-NEXT: func.func @counted_loop_never_waits(
// CHECK-LABEL: func.func @counted_loop_never_waits
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK:         memref.alloc() : memref<32xi64>
func.func @counted_loop_never_waits(%ctx: !hip.context, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %c3) body @body {num_loop_carried = 0 : i32, cond_is_passthrough}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>) {
  return
}

// -----

// A trip count that may be 0 may run no iteration, and then nothing waits.
// POOL:      hipdnn.pool_size = 512 : i64
// POOL-NEXT: func.func @loop_unknown_trip_count_may_not_wait(
// CHECK-LABEL: func.func @loop_unknown_trip_count_may_not_wait
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK:         memref.alloc() : memref<32xi64>
func.func @loop_unknown_trip_count_may_not_wait(%ctx: !hip.context, %n: index, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %n) body @body {num_loop_carried = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<i1>) {
  return
}

// -----

// A zero trip count runs no iteration.
// POOL:      hipdnn.pool_size = 512 : i64
// POOL-NEXT: func.func @loop_zero_trips_never_waits(
// CHECK-LABEL: func.func @loop_zero_trips_never_waits
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK:         memref.alloc() : memref<32xi64>
func.func @loop_zero_trips_never_waits(%ctx: !hip.context, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %c0) body @body {num_loop_carried = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<i1>) {
  return
}

// -----

// An initial condition that may be false runs no iteration (hip-ep's runtime
// returns at once), and a false one surely does not.
// POOL:      hipdnn.pool_size = 768 : i64
// POOL-NEXT: func.func @loop_condition_may_be_false(
// CHECK-LABEL: func.func @loop_condition_may_be_false
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK:         memref.alloc() : memref<32xi64>
func.func @loop_condition_may_be_false(%ctx: !hip.context, %c: i1, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>, %co: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %c4, %c) body @body {num_loop_carried = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  hip.loop(%ctx, %c4, %false) body @body {num_loop_carried = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %d = memref.alloc() : memref<32xi64>
  memref.store %x, %d[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%d : memref<32xi64>) outs(%co : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<i1>) {
  return
}

// -----

// The loop waits for its own context's stream only: a kernel on another
// context may still be reading %a.
// POOL:      hipdnn.pool_size = 512 : i64
// POOL-NEXT: func.func @loop_waits_for_its_context_only(
// CHECK-LABEL: func.func @loop_waits_for_its_context_only
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.loop
// CHECK:         memref.alloc() : memref<32xi64>
func.func @loop_waits_for_its_context_only(%ctx: !hip.context, %other: !hip.context, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%other) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.loop(%ctx, %c3) body @body {num_loop_carried = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<i1>) {
  return
}

// -----

// The first wait comes after the first iteration: while it runs, the body may
// touch a buffer handed to the loop on the host before the kernel has read %a.
// POOL:      hipdnn.pool_size = 512 : i64
// POOL-NEXT: func.func @loop_waits_after_its_body(
// CHECK-LABEL: func.func @loop_waits_after_its_body
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.neg(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) captures(%[[B]] : memref<32xi64>)
func.func @loop_waits_after_its_body(%ctx: !hip.context, %x: i64, %out: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%out : memref<32xi64>)
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  hip.loop(%ctx, %c3) captures(%b : memref<32xi64>) body @body {num_loop_carried = 0 : i32}
  return
}
func.func private @body(%p0: !hip.context, %p1: memref<i64>, %p2: memref<i1>, %p3: memref<32xi64>, %p4: memref<i1>) {
  return
}

// -----

// hip.if takes its condition as a host value (hip-ep's runtime only picks the
// branch): it never waits, even with a constant condition.
// POOL:      hipdnn.pool_size = 512 : i64
// POOL-NEXT: func.func @if_never_waits(
// CHECK-LABEL: func.func @if_never_waits
// CHECK:         memref.alloc() : memref<32xi64>
// CHECK:         hip.if
// CHECK:         memref.alloc() : memref<32xi64>
func.func @if_never_waits(%ctx: !hip.context, %x: i64, %ao: memref<32xi64>, %bo: memref<32xi64>) {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xi64>)
  hip.if(%ctx, %true) then @then else @else {num_outputs = 0 : i32}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.neg(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xi64>)
  return
}
func.func private @then(%p0: !hip.context) {
  return
}
func.func private @else(%p0: !hip.context) {
  return
}
