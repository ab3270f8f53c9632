// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-materialize-host-scalars{debug=true}' --verify-diagnostics | FileCheck %s

// Small host-fed integer buffers move into one host-mapped scratch buffer per
// function, at 64-byte-aligned offsets.

// CHECK-LABEL: func.func @two_scalars
// CHECK-NEXT:    %[[SIZE:.+]] = arith.constant 128 : index
// CHECK-NEXT:    %[[SCRATCH:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[OFF_A:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.+]] = memref.view %[[SCRATCH]][%[[OFF_A]]][] : memref<?xi8> to memref<1xi64>
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// CHECK-NEXT:    hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)
// CHECK-NEXT:    %[[OFF_B:.+]] = arith.constant 64 : index
// CHECK-NEXT:    %[[B:.+]] = memref.view %[[SCRATCH]][%[[OFF_B]]][] : memref<?xi8> to memref<1xi64>
// CHECK-NEXT:    memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<1xi64>
// CHECK-NEXT:    hip.cast(%{{.+}}) ins(%[[B]] : memref<1xi64>)
// CHECK-NEXT:    return
func.func @two_scalars(%ctx: !hip.context, %x: i64, %y: i64, %ao: memref<1xf32>, %bo: memref<1xf32>) {
  %a = memref.alloc() : memref<1xi64>
  %c0 = arith.constant 0 : index
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%bo : memref<1xf32>) {to = 1 : i64}
  memref.dealloc %a : memref<1xi64>
  memref.dealloc %b : memref<1xi64>
  return
}

// -----

// Offsets follow the sizes, rounded up to 64 bytes: 16 x i64 is 128 bytes (the
// three are live together: each is read after the last store). The limit is 16
// elements, of integer or index type.
// CHECK-LABEL: func.func @sizes_limits_and_element_types
// CHECK-NEXT:    arith.constant 256 : index
// CHECK-NEXT:    %[[SCRATCH:.+]] = hip.get_host_scratch
// CHECK:         arith.constant 0 : index
// CHECK-NEXT:    memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<16xi64>
// CHECK:         arith.constant 128 : index
// CHECK-NEXT:    memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<2xindex>
// CHECK:         arith.constant 192 : index
// CHECK-NEXT:    memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<3xi1>
// CHECK:         memref.alloc() : memref<17xi32>
// CHECK:         memref.alloc() : memref<1xf32>
func.func @sizes_limits_and_element_types(%ctx: !hip.context, %x: i64, %i: index, %t: i1, %w: i32, %f: f32, %c0: index) {
  %a = memref.alloc() : memref<16xi64>
  memref.store %x, %a[%c0] : memref<16xi64>
  %b = memref.alloc() : memref<2xindex>
  memref.store %i, %b[%c0] : memref<2xindex>
  %c = memref.alloc() : memref<3xi1>
  memref.store %t, %c[%c0] : memref<3xi1>
  // expected-remark @+1 {{host-fed buffer left alone: 17 elements, more than 16}}
  %d = memref.alloc() : memref<17xi32>
  memref.store %w, %d[%c0] : memref<17xi32>
  // expected-remark @+1 {{host-fed buffer left alone: its element type f32 is not an integer or index}}
  %e = memref.alloc() : memref<1xf32>
  memref.store %f, %e[%c0] : memref<1xf32>
  %la = memref.load %a[%c0] : memref<16xi64>
  %lb = memref.load %b[%c0] : memref<2xindex>
  %lc = memref.load %c[%c0] : memref<3xi1>
  return
}

// -----

// Host accesses through views count; device-only buffers and dynamic shapes stay.
// CHECK-LABEL: func.func @host_access_through_views
// CHECK-NEXT:    arith.constant 192 : index
// CHECK-NEXT:    %[[SCRATCH:.+]] = hip.get_host_scratch
// CHECK:         %[[A:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<4xi32>
// CHECK-NEXT:    memref.subview %[[A]]
// CHECK:         %[[B:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<16xi8>
// CHECK-NEXT:    memref.view %[[B]]
// CHECK:         %[[C:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<4xi32>
// CHECK-NEXT:    memref.expand_shape %[[C]]
// CHECK:         memref.alloc() : memref<4xi32>
// CHECK:         memref.alloc(%{{.+}}) : memref<?xi32>
func.func @host_access_through_views(%ctx: !hip.context, %w: i32, %n: index, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xi32>
  %sv = memref.subview %a[1] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1], offset: 1>>
  memref.store %w, %sv[%c0] : memref<2xi32, strided<[1], offset: 1>>
  hip.cast(%ctx) ins(%a : memref<4xi32>) outs(%o : memref<4xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<16xi8>
  %bv = memref.view %b[%c0][] : memref<16xi8> to memref<4xi32>
  memref.store %w, %bv[%c0] : memref<4xi32>
  hip.cast(%ctx) ins(%bv : memref<4xi32>) outs(%o : memref<4xf32>) {to = 1 : i64}
  %c = memref.alloc() : memref<4xi32>
  %ce = memref.expand_shape %c [[0, 1]] output_shape [2, 2] : memref<4xi32> into memref<2x2xi32>
  %l = memref.load %ce[%c0, %c0] : memref<2x2xi32>
  %d = memref.alloc() : memref<4xi32>
  hip.tanh(%ctx) ins(%a : memref<4xi32>) outs(%d : memref<4xi32>)
  hip.cast(%ctx) ins(%d : memref<4xi32>) outs(%o : memref<4xf32>) {to = 1 : i64}
  // expected-remark @+1 {{host-fed buffer left alone: its shape is not static}}
  %e = memref.alloc(%n) : memref<?xi32>
  memref.store %w, %e[%c0] : memref<?xi32>
  return
}

// -----

// Acceptable users: memref.dim, memref.copy, frees, kernels, host accesses in a
// nested region. A buffer with another user stays.
// CHECK-LABEL: func.func @acceptable_and_unacceptable_users
// CHECK:         %[[SCRATCH:.+]] = hip.get_host_scratch
// CHECK:         %[[A:.+]] = memref.view %[[SCRATCH]]
// CHECK-NEXT:    memref.dim %[[A]]
// CHECK-NEXT:    memref.copy %{{.+}}, %[[A]]
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %{{.+}}, %[[A]]
// CHECK:         %[[B:.+]] = memref.alloc() : memref<2xi32>
// CHECK:         call @consume(%[[B]])
// CHECK:         %[[R:.+]] = memref.alloc() : memref<2xi32>
// CHECK-NOT:     memref.dealloc %[[A]]
// CHECK:         memref.dealloc %[[B]]
// CHECK-NEXT:    return %[[R]]
func.func private @consume(memref<2xi32>)
func.func @acceptable_and_unacceptable_users(%ctx: !hip.context, %src: memref<2xi32>, %p: i1, %w: i32, %o: memref<2xf32>) -> memref<2xi32> {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<2xi32>
  %dim = memref.dim %a, %c0 : memref<2xi32>
  memref.copy %src, %a : memref<2xi32> to memref<2xi32>
  scf.if %p {
    memref.store %w, %a[%c0] : memref<2xi32>
  }
  hip.cast(%ctx) ins(%a : memref<2xi32>) outs(%o : memref<2xf32>) {to = 1 : i64}
  // expected-remark @+1 {{host-fed buffer left alone: used by 'func.call', whose memory effects are unknown}}
  %b = memref.alloc() : memref<2xi32>
  memref.store %w, %b[%c0] : memref<2xi32>
  func.call @consume(%b) : (memref<2xi32>) -> ()
  // expected-remark @+1 {{host-fed buffer left alone: returned by 'func.return'}}
  %r = memref.alloc() : memref<2xi32>
  memref.store %w, %r[%c0] : memref<2xi32>
  memref.dealloc %a : memref<2xi32>
  memref.dealloc %b : memref<2xi32>
  return %r : memref<2xi32>
}

// -----

// Only allocations of the entry block move: one in a loop body is a fresh buffer
// per iteration.
// CHECK-LABEL: func.func @allocation_in_a_loop
// CHECK-NOT:     hip.get_host_scratch
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloc() : memref<1xi32>
func.func @allocation_in_a_loop(%ctx: !hip.context, %n: index, %w: i32, %o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<1xi32>
    memref.store %w, %a[%c0] : memref<1xi32>
    hip.cast(%ctx) ins(%a : memref<1xi32>) outs(%o : memref<1xf32>) {to = 1 : i64}
  }
  return
}

// -----

// Without a !hip.context as argument 0 there is no runtime to ask for scratch.
// CHECK-LABEL: func.func @no_context
// CHECK-NOT:     hip.get_host_scratch
// CHECK:         memref.alloc() : memref<1xi64>
// expected-remark @+1 {{function left alone: argument 0 is not a runtime context}}
func.func @no_context(%x: i64, %ctx: !hip.context, %o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// CHECK-LABEL: func.func @nothing_host_fed
// CHECK-NOT:     hip.get_host_scratch
func.func @nothing_host_fed(%ctx: !hip.context, %in: memref<4xi32>, %o: memref<4xi32>) {
  %a = memref.alloc() : memref<4xi32>
  hip.tanh(%ctx) ins(%in : memref<4xi32>) outs(%a : memref<4xi32>)
  hip.tanh(%ctx) ins(%a : memref<4xi32>) outs(%o : memref<4xi32>)
  return
}

// -----

// The function already takes host scratch (an earlier run, or hip-ep's own pass):
// the runtime has one scratch per context, so a second get_host_scratch would hand
// back the same bytes. The existing one is reused: moved to the top and grown, the
// new buffer placed after the bytes its views use (8 + 16, aligned: 64).
// CHECK-LABEL: func.func @reuses_existing_scratch
// CHECK-NEXT:    %[[SIZE:.+]] = arith.constant 128 : index
// CHECK-NEXT:    %[[SCRATCH:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[OFF_A:.+]] = arith.constant 64 : index
// CHECK-NEXT:    %[[A:.+]] = memref.view %[[SCRATCH]][%[[OFF_A]]][] : memref<?xi8> to memref<1xi64>
// CHECK-NOT:     hip.get_host_scratch
// CHECK:         %[[E:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<2xi64>
// CHECK:         hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)
// CHECK-NOT:     hip.get_host_scratch
// CHECK:         return
func.func @reuses_existing_scratch(%ctx: !hip.context, %x: i64, %ao: memref<1xf32>, %eo: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  %size = arith.constant 64 : index
  %scratch = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %c8 = arith.constant 8 : index
  %e = memref.view %scratch[%c8][] : memref<?xi8> to memref<2xi64>
  memref.store %x, %e[%c0] : memref<2xi64>
  hip.cast(%ctx) ins(%e : memref<2xi64>) outs(%eo : memref<2xf32>) {to = 1 : i64}
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// An existing scratch whose used bytes are not known (a view at a runtime shift):
// new buffers could overlap them, so the function is left alone.
// CHECK-LABEL: func.func @existing_scratch_at_a_runtime_offset
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    memref.alloc() : memref<1xi64>
// CHECK-COUNT-1: hip.get_host_scratch
// CHECK-NOT:     hip.get_host_scratch
// expected-remark @+1 {{function left alone: 'memref.view' uses its host scratch at bytes that are not constant; new buffers could overlap them}}
func.func @existing_scratch_at_a_runtime_offset(%ctx: !hip.context, %x: i64, %off: index, %ao: memref<1xf32>, %eo: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  %size = arith.constant 256 : index
  %scratch = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %e = memref.view %scratch[%off][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %e[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%e : memref<1xi64>) outs(%eo : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// An existing scratch of a runtime size cannot be grown to a known end.
// CHECK-LABEL: func.func @existing_scratch_of_a_runtime_size
// CHECK:         hip.get_host_scratch(%{{.+}}, %{{.+}}) : memref<?xi8>
// CHECK-NOT:     hip.get_host_scratch
// CHECK:         memref.alloc() : memref<1xi64>
// CHECK-NOT:     hip.get_host_scratch
// expected-remark @+1 {{function left alone: its host scratch has a size that is not a constant, so it cannot be grown}}
func.func @existing_scratch_of_a_runtime_size(%ctx: !hip.context, %x: i64, %n: index, %ao: memref<1xf32>, %eo: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %scratch = hip.get_host_scratch(%ctx, %n) : memref<?xi8>
  %e = memref.view %scratch[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %e[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%e : memref<1xi64>) outs(%eo : memref<1xf32>) {to = 1 : i64}
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// Host scratch taken inside a branch counts too (the walk looks into regions); a
// view of the entry block could not use it, so the function is left alone.
// CHECK-LABEL: func.func @existing_scratch_in_a_branch
// CHECK:         memref.alloc() : memref<1xi64>
// CHECK:         scf.if
// CHECK-NEXT:      arith.constant 64 : index
// CHECK-NEXT:      hip.get_host_scratch
// CHECK-NOT:     hip.get_host_scratch
// expected-remark @+1 {{function left alone: it takes host scratch inside a nested region, which new views could not use}}
func.func @existing_scratch_in_a_branch(%ctx: !hip.context, %x: i64, %p: i1, %ao: memref<1xf32>, %eo: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  scf.if %p {
    %size = arith.constant 64 : index
    %scratch = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
    %e = memref.view %scratch[%c0][] : memref<?xi8> to memref<1xi64>
    memref.store %x, %e[%c0] : memref<1xi64>
    hip.cast(%ctx) ins(%e : memref<1xi64>) outs(%eo : memref<1xf32>) {to = 1 : i64}
  }
  return
}
