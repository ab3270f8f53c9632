// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-optimize-memrefs{debug=true}' --verify-diagnostics | FileCheck %s

// Slot reuse (hip-ep's liveness best fit) under the host/device ordering rules.
// The race table of DESIGN.md section 2 is in host-device-race.mlir.

// A chain of device-only temporaries on one stream reuses slots as hip-ep does:
// t2 takes t0's bytes and t3 takes t1's; the slot keeps one dealloc, of its root.
// CHECK-LABEL: func.func @chain_of_device_temporaries
// CHECK:         %[[T0:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[T0]] : memref<64xf32>)
// CHECK:         %[[T1:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         hip.sigmoid(%{{.+}}) ins(%[[T0]] : memref<64xf32>) outs(%[[T1]] : memref<64xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         hip.tanh(%{{.+}}) ins(%[[T1]] : memref<64xf32>) outs(%[[T0]] : memref<64xf32>)
// CHECK-NEXT:    hip.exp(%{{.+}}) ins(%[[T0]] : memref<64xf32>) outs(%[[T1]] : memref<64xf32>)
// CHECK-NEXT:    hip.sign(%{{.+}}) ins(%[[T1]] : memref<64xf32>) outs(%{{.+}} : memref<64xf32>)
// CHECK-NEXT:    memref.dealloc %[[T0]] : memref<64xf32>
// CHECK-NEXT:    memref.dealloc %[[T1]] : memref<64xf32>
// CHECK-NEXT:    return
func.func @chain_of_device_temporaries(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %t0 = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%t0 : memref<64xf32>)
  %t1 = memref.alloc() : memref<64xf32>
  hip.sigmoid(%ctx) ins(%t0 : memref<64xf32>) outs(%t1 : memref<64xf32>)
  %t2 = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%t1 : memref<64xf32>) outs(%t2 : memref<64xf32>)
  %t3 = memref.alloc() : memref<64xf32>
  hip.exp(%ctx) ins(%t2 : memref<64xf32>) outs(%t3 : memref<64xf32>)
  hip.sign(%ctx) ins(%t3 : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %t0 : memref<64xf32>
  memref.dealloc %t1 : memref<64xf32>
  memref.dealloc %t2 : memref<64xf32>
  memref.dealloc %t3 : memref<64xf32>
  return
}

// -----

// A smaller static buffer reuses a larger dead slot through reinterpret_cast.
// CHECK-LABEL: func.func @byte_size_reuse_through_reinterpret_cast
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[B:.+]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [4, 8], strides: [8, 1] : memref<64xf32> to memref<4x8xf32>
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%{{.+}} : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%[[B]] : memref<4x8xf32>) outs(%{{.+}} : memref<4x8xf32>)
func.func @byte_size_reuse_through_reinterpret_cast(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>, %in2: memref<4x8xf32>, %out2: memref<4x8xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  %b = memref.alloc() : memref<4x8xf32>
  hip.tanh(%ctx) ins(%in2 : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  hip.tanh(%ctx) ins(%b : memref<4x8xf32>) outs(%out2 : memref<4x8xf32>)
  return
}

// -----

// A larger buffer never takes a smaller slot.
// CHECK-LABEL: func.func @larger_buffer_keeps_its_own_slot
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[B]] : memref<64xf32>)
func.func @larger_buffer_keeps_its_own_slot(%ctx: !hip.context, %in: memref<32xf32>, %out: memref<32xf32>, %in2: memref<64xf32>) {
  %a = memref.alloc() : memref<32xf32>
  hip.tanh(%ctx) ins(%in : memref<32xf32>) outs(%a : memref<32xf32>)
  hip.tanh(%ctx) ins(%a : memref<32xf32>) outs(%out : memref<32xf32>)
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in2 : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%in2 : memref<64xf32>)
  return
}

// -----

// Of two dead slots, the one of least byte waste is taken.
// CHECK-LABEL: func.func @least_waste
// CHECK:         %[[BIG:.+]] = memref.alloc() : memref<128xf32>
// CHECK:         %[[SMALL:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[SMALL]] : memref<64xf32>)
func.func @least_waste(%ctx: !hip.context, %in: memref<128xf32>, %in2: memref<64xf32>, %out: memref<64xf32>) {
  %big = memref.alloc() : memref<128xf32>
  %small = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<128xf32>) outs(%big : memref<128xf32>)
  hip.tanh(%ctx) ins(%in2 : memref<64xf32>) outs(%small : memref<64xf32>)
  memplan.launch @combine(%ctx) ins(%big, %small : memref<128xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  %c = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in2 : memref<64xf32>) outs(%c : memref<64xf32>)
  hip.tanh(%ctx) ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Buffers alive at the same time keep their own bytes.
// CHECK-LABEL: func.func @overlapping_lifetimes
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         hip.add(%{{.+}}) ins(%[[A]], %[[B]] : memref<64xf32>, memref<64xf32>)
func.func @overlapping_lifetimes(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.add(%ctx) ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Dynamic shapes reuse a slot when the size operands are the same SSA value ...
// CHECK-LABEL: func.func @dynamic_same_size_value
// CHECK:         %[[A:.+]] = memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%{{.+}} : memref<?xf32>) outs(%[[A]] : memref<?xf32>)
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%[[A]] : memref<?xf32>) outs(%{{.+}} : memref<?xf32>)
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%{{.+}} : memref<?xf32>) outs(%[[A]] : memref<?xf32>)
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%[[A]] : memref<?xf32>) outs(%{{.+}} : memref<?xf32>)
// CHECK-NEXT:    return
func.func @dynamic_same_size_value(%ctx: !hip.context, %n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  hip.tanh(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?xf32>)
  hip.tanh(%ctx) ins(%a : memref<?xf32>) outs(%out : memref<?xf32>)
  %b = memref.alloc(%n) : memref<?xf32>
  hip.tanh(%ctx) ins(%in : memref<?xf32>) outs(%b : memref<?xf32>)
  hip.tanh(%ctx) ins(%b : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// ... and not when they are different values, even if equal at run time, nor
// between a static and a dynamic shape. %d, sized by %n again, takes %a's slot.
// CHECK-LABEL: func.func @dynamic_different_size_values
// CHECK:         %[[A:.+]] = memref.alloc(%[[N:.+]]) : memref<?xf32>
// CHECK:         %[[B:.+]] = memref.alloc(%[[M:.+]]) : memref<?xf32>
// CHECK:         memref.alloc() : memref<16xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         memplan.launch @k(%{{.+}}) ins(%[[A]], %[[B]] : memref<?xf32>, memref<?xf32>)
func.func @dynamic_different_size_values(%ctx: !hip.context, %n: index, %m: index, %in: memref<?xf32>, %out: memref<?xf32>, %s: memref<16xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  hip.tanh(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?xf32>)
  hip.tanh(%ctx) ins(%a : memref<?xf32>) outs(%out : memref<?xf32>)
  %b = memref.alloc(%m) : memref<?xf32>
  hip.tanh(%ctx) ins(%in : memref<?xf32>) outs(%b : memref<?xf32>)
  hip.tanh(%ctx) ins(%b : memref<?xf32>) outs(%out : memref<?xf32>)
  %c = memref.alloc() : memref<16xf32>
  hip.tanh(%ctx) ins(%s : memref<16xf32>) outs(%c : memref<16xf32>)
  hip.tanh(%ctx) ins(%c : memref<16xf32>) outs(%s : memref<16xf32>)
  %d = memref.alloc(%n) : memref<?xf32>
  hip.tanh(%ctx) ins(%in : memref<?xf32>) outs(%d : memref<?xf32>)
  memplan.launch @k(%ctx) ins(%d, %b : memref<?xf32>, memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// A view keeps its source busy: %a is read through %v after %b is written.
// CHECK-LABEL: func.func @view_extends_lifetime
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[V:.+]] = memref.subview %[[A]]
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[B]] : memref<64xf32>)
// CHECK:         hip.tanh(%{{.+}}) ins(%[[V]] : memref<32xf32, strided<[1]>>)
func.func @view_extends_lifetime(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>, %out32: memref<32xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %v = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%v : memref<32xf32, strided<[1]>>) outs(%out32 : memref<32xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @no_allocations
// CHECK-NEXT:    hip.tanh
// CHECK-NEXT:    return
func.func @no_allocations(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Slots are shared only by the same element type and memory space.
// CHECK-LABEL: func.func @different_element_types_and_memory_spaces
// CHECK:         memref.alloc() : memref<64xf32>
// CHECK:         memref.alloc() : memref<64xi32>
// CHECK:         memref.alloc() : memref<64xf32, 1>
func.func @different_element_types_and_memory_spaces(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>, %ini: memref<64xi32>, %outi: memref<64xi32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  %b = memref.alloc() : memref<64xi32>
  hip.tanh(%ctx) ins(%ini : memref<64xi32>) outs(%b : memref<64xi32>)
  hip.tanh(%ctx) ins(%b : memref<64xi32>) outs(%outi : memref<64xi32>)
  %c = memref.alloc() : memref<64xf32, 1>
  hip.cast(%ctx) ins(%in : memref<64xf32>) outs(%c : memref<64xf32, 1>) {to = 1 : i64}
  hip.cast(%ctx) ins(%c : memref<64xf32, 1>) outs(%out : memref<64xf32>) {to = 1 : i64}
  return
}

// -----

// A buffer that asks for more alignment than the slot has keeps its own.
// CHECK-LABEL: func.func @stricter_alignment
// CHECK:         memref.alloc() : memref<64xf32>
// CHECK:         memref.alloc() {alignment = 128 : i64} : memref<64xf32>
func.func @stricter_alignment(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  %b = memref.alloc() {alignment = 128 : i64} : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// After memplan.synchronize every device access before it is complete: the host
// may write the bytes a kernel read, and the pass reuses them.
// CHECK-LABEL: func.func @synchronize_makes_reuse_legal
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// CHECK:         hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// CHECK:         hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
func.func @synchronize_makes_reuse_legal(%ctx: !hip.context, %x: i64, %y: i64, %ao: memref<32xf32>, %bo: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %b = memref.alloc() : memref<32xi64>
  memref.store %y, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>) {to = 1 : i64}
  return
}

// -----

// Device work in a loop keeps the buffer busy after the loop: the host store to
// %b may land while the last cast still reads %a.
// CHECK-LABEL: func.func @loop_keeps_buffer_busy
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         scf.for
// CHECK:           hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<32xi64>
func.func @loop_keeps_buffer_busy(%ctx: !hip.context, %n: index, %x: i64, %y: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  scf.for %i = %c0 to %n step %c1 {
    hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  }
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %y, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  return
}

// -----

// The same loop followed by a synchronize: reuse.
// CHECK-LABEL: func.func @loop_then_synchronize
// CHECK:         %[[A:.+]] = memref.alloc() : memref<32xi64>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
func.func @loop_then_synchronize(%ctx: !hip.context, %n: index, %x: i64, %y: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  scf.for %i = %c0 to %n step %c1 {
    hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  }
  memplan.synchronize(%ctx)
  %b = memref.alloc() : memref<32xi64>
  memref.store %y, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  return
}

// -----

// A buffer passed to a call escapes: it neither takes a dead slot (%b) nor gives
// its own (%d to %e); %c, which does not escape, takes %a's slot.
// CHECK-LABEL: func.func @unknown_call
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT:    call @consume(%[[B]])
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK:         %[[D:.+]] = memref.alloc() : memref<64xi32>
// CHECK:         %[[E:.+]] = memref.alloc() : memref<64xi32>
func.func private @consume(memref<64xf32>)
func.func private @consume_i(memref<64xi32>)
func.func @unknown_call(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>, %ini: memref<64xi32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  // expected-remark @+1 {{buffer left alone: used by 'func.call', whose memory effects are unknown}}
  %b = memref.alloc() : memref<64xf32>
  func.call @consume(%b) : (memref<64xf32>) -> ()
  %c = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%c : memref<64xf32>)
  // expected-remark @+1 {{buffer left alone: used by 'func.call'}}
  %d = memref.alloc() : memref<64xi32>
  func.call @consume_i(%d) : (memref<64xi32>) -> ()
  %e = memref.alloc() : memref<64xi32>
  hip.tanh(%ctx) ins(%ini : memref<64xi32>) outs(%e : memref<64xi32>)
  hip.tanh(%ctx) ins(%e : memref<64xi32>) outs(%ini : memref<64xi32>)
  return
}

// -----

// A returned buffer may take a dead slot, which then leaves with it: %c may not
// take the bytes of the returned %r.
// CHECK-LABEL: func.func @returned_takes_a_dead_slot
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK:         %[[C:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         return %[[A]] : memref<64xf32>
func.func @returned_takes_a_dead_slot(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  %r = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%r : memref<64xf32>)
  %c = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%c : memref<64xf32>)
  hip.tanh(%ctx) ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  return %r : memref<64xf32>
}

// -----

// A returned buffer never gives its bytes away, even when its accesses are over.
// CHECK-LABEL: func.func @returned_never_donates
// CHECK:         %[[R:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[T:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         return %[[R]]
func.func @returned_never_donates(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) -> memref<64xf32> {
  %r = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%r : memref<64xf32>)
  %t = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  hip.tanh(%ctx) ins(%t : memref<64xf32>) outs(%out : memref<64xf32>)
  return %r : memref<64xf32>
}

// -----

// A function of several blocks is left unchanged.
// CHECK-LABEL: func.func @several_blocks
// CHECK:         memref.alloc() : memref<64xf32>
// CHECK:         memref.alloc() : memref<64xf32>
// expected-remark @+1 {{function left unchanged: its body has 2 blocks}}
func.func @several_blocks(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  cf.br ^bb1
^bb1:
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Host stores through each kind of view are host accesses to the root: %b may not
// take %a's slot while %a's cast may still run; after the synchronize %c may, and
// its view then starts from %a. One function per view kind.
// CHECK-LABEL: func.func @host_store_through_subview
// CHECK:         %[[A:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.subview %[[A]]
func.func @host_store_through_subview(%ctx: !hip.context, %i: index, %x: i32, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xi32>
  %av = memref.subview %a[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  memref.store %x, %av[%i] : memref<8xi32, strided<[1]>>
  hip.cast(%ctx) ins(%a : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<16xi32>
  %bv = memref.subview %b[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  memref.store %x, %bv[%i] : memref<8xi32, strided<[1]>>
  hip.cast(%ctx) ins(%b : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<16xi32>
  %cv = memref.subview %c[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  memref.store %x, %cv[%i] : memref<8xi32, strided<[1]>>
  hip.cast(%ctx) ins(%c : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_cast
// CHECK:         %[[A:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.cast %[[A]]
func.func @host_store_through_cast(%ctx: !hip.context, %i: index, %x: i32, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xi32>
  %av = memref.cast %a : memref<16xi32> to memref<?xi32>
  memref.store %x, %av[%i] : memref<?xi32>
  hip.cast(%ctx) ins(%a : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<16xi32>
  %bv = memref.cast %b : memref<16xi32> to memref<?xi32>
  memref.store %x, %bv[%i] : memref<?xi32>
  hip.cast(%ctx) ins(%b : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<16xi32>
  %cv = memref.cast %c : memref<16xi32> to memref<?xi32>
  memref.store %x, %cv[%i] : memref<?xi32>
  hip.cast(%ctx) ins(%c : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_reinterpret_cast
// CHECK:         %[[A:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.reinterpret_cast %[[A]]
func.func @host_store_through_reinterpret_cast(%ctx: !hip.context, %i: index, %x: i32, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xi32>
  %av = memref.reinterpret_cast %a to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xi32> to memref<4x4xi32>
  memref.store %x, %av[%i, %i] : memref<4x4xi32>
  hip.cast(%ctx) ins(%a : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<16xi32>
  %bv = memref.reinterpret_cast %b to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xi32> to memref<4x4xi32>
  memref.store %x, %bv[%i, %i] : memref<4x4xi32>
  hip.cast(%ctx) ins(%b : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<16xi32>
  %cv = memref.reinterpret_cast %c to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xi32> to memref<4x4xi32>
  memref.store %x, %cv[%i, %i] : memref<4x4xi32>
  hip.cast(%ctx) ins(%c : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_view
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xi8>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xi8>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.view %[[A]]
func.func @host_store_through_view(%ctx: !hip.context, %i: index, %x: i32, %o: memref<64xf32>) {
  %a = memref.alloc() : memref<64xi8>
  %av = memref.view %a[%i][] : memref<64xi8> to memref<16xi32>
  memref.store %x, %av[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%a : memref<64xi8>) outs(%o : memref<64xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<64xi8>
  %bv = memref.view %b[%i][] : memref<64xi8> to memref<16xi32>
  memref.store %x, %bv[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%b : memref<64xi8>) outs(%o : memref<64xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<64xi8>
  %cv = memref.view %c[%i][] : memref<64xi8> to memref<16xi32>
  memref.store %x, %cv[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%c : memref<64xi8>) outs(%o : memref<64xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_expand_shape
// CHECK:         %[[A:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.expand_shape %[[A]]
func.func @host_store_through_expand_shape(%ctx: !hip.context, %i: index, %x: i32, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xi32>
  %av = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xi32> into memref<4x4xi32>
  memref.store %x, %av[%i, %i] : memref<4x4xi32>
  hip.cast(%ctx) ins(%a : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<16xi32>
  %bv = memref.expand_shape %b [[0, 1]] output_shape [4, 4] : memref<16xi32> into memref<4x4xi32>
  memref.store %x, %bv[%i, %i] : memref<4x4xi32>
  hip.cast(%ctx) ins(%b : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<16xi32>
  %cv = memref.expand_shape %c [[0, 1]] output_shape [4, 4] : memref<16xi32> into memref<4x4xi32>
  memref.store %x, %cv[%i, %i] : memref<4x4xi32>
  hip.cast(%ctx) ins(%c : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_collapse_shape
// CHECK:         %[[A:.+]] = memref.alloc() : memref<4x4xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<4x4xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.collapse_shape %[[A]]
func.func @host_store_through_collapse_shape(%ctx: !hip.context, %i: index, %x: i32, %o: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xi32>
  %av = memref.collapse_shape %a [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  memref.store %x, %av[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%a : memref<4x4xi32>) outs(%o : memref<4x4xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<4x4xi32>
  %bv = memref.collapse_shape %b [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  memref.store %x, %bv[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%b : memref<4x4xi32>) outs(%o : memref<4x4xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<4x4xi32>
  %cv = memref.collapse_shape %c [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  memref.store %x, %cv[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%c : memref<4x4xi32>) outs(%o : memref<4x4xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_memory_space_cast
// CHECK:         %[[A:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.memory_space_cast %[[A]]
func.func @host_store_through_memory_space_cast(%ctx: !hip.context, %i: index, %x: i32, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xi32>
  %av = memref.memory_space_cast %a : memref<16xi32> to memref<16xi32, 1>
  memref.store %x, %av[%i] : memref<16xi32, 1>
  hip.cast(%ctx) ins(%a : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<16xi32>
  %bv = memref.memory_space_cast %b : memref<16xi32> to memref<16xi32, 1>
  memref.store %x, %bv[%i] : memref<16xi32, 1>
  hip.cast(%ctx) ins(%b : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<16xi32>
  %cv = memref.memory_space_cast %c : memref<16xi32> to memref<16xi32, 1>
  memref.store %x, %cv[%i] : memref<16xi32, 1>
  hip.cast(%ctx) ins(%c : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  return
}
// -----

// CHECK-LABEL: func.func @host_store_through_assume_alignment
// CHECK:         %[[A:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<16xi32>
// CHECK:         memplan.synchronize
// CHECK-NOT:     memref.alloc
// CHECK:         memref.assume_alignment %[[A]]
func.func @host_store_through_assume_alignment(%ctx: !hip.context, %i: index, %x: i32, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xi32>
  %av = memref.assume_alignment %a, 16 : memref<16xi32>
  memref.store %x, %av[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%a : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a}}
  %b = memref.alloc() : memref<16xi32>
  %bv = memref.assume_alignment %b, 16 : memref<16xi32>
  memref.store %x, %bv[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%b : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %c = memref.alloc() : memref<16xi32>
  %cv = memref.assume_alignment %c, 16 : memref<16xi32>
  memref.store %x, %cv[%i] : memref<16xi32>
  hip.cast(%ctx) ins(%c : memref<16xi32>) outs(%o : memref<16xf32>) {to = 1 : i64}
  return
}

// -----

// A buffer that is never read or written is dead: it takes no slot, so its early
// dealloc cannot free the live slot of %a (hip-ep moved it there).
// CHECK-LABEL: func.func @dead_buffer_takes_no_slot
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK-NEXT:    %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<64xf32>
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%[[A]] : memref<64xf32>) outs(%{{.+}} : memref<64xf32>)
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<64xf32>
func.func @dead_buffer_takes_no_slot(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  // expected-remark @+1 {{buffer left alone: it is never read or written}}
  %b = memref.alloc() : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  return
}

// -----

// %b takes %a's slot (a shape query is no access), but %b's dealloc comes before
// %a's last use in program order: the slot keeps its own dealloc, after the query,
// and %b's is erased.
// CHECK-LABEL: func.func @slot_keeps_its_free_after_a_later_use
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         hip.tanh(%{{.+}}) ins(%[[A]] : memref<64xf32>) outs(%{{.+}} : memref<64xf32>)
// CHECK-NOT:     memref.dealloc
// CHECK:         memref.rank %[[A]] : memref<64xf32>
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<64xf32>
// CHECK-NEXT:    return
func.func @slot_keeps_its_free_after_a_later_use(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) -> index {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %b : memref<64xf32>
  %r = memref.rank %a : memref<64xf32>
  memref.dealloc %a : memref<64xf32>
  return %r : index
}

// -----

// No dealloc can free the merged slot: %b's comes before %a's last use (a shape
// query) and %a's before %b's accesses. %b keeps its own bytes.
// CHECK-LABEL: func.func @no_dealloc_can_free_the_merged_slot
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         memref.dealloc %[[A]] : memref<64xf32>
// CHECK-NEXT:    %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         memref.dealloc %[[B]] : memref<64xf32>
// CHECK-NEXT:    memref.rank %[[A]] : memref<64xf32>
func.func @no_dealloc_can_free_the_merged_slot(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) -> index {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %b : memref<64xf32>
  %r = memref.rank %a : memref<64xf32>
  return %r : index
}

// -----

// A buffer whose address is taken escapes: %b may not take %a's slot, nor %a
// give it, although their accesses are apart.
// CHECK-LABEL: func.func @address_taken_escapes
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
func.func @address_taken_escapes(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) -> index {
  // expected-remark @+1 {{buffer left alone: its address is taken by 'memref.extract_aligned_pointer_as_index'}}
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  %p = memref.extract_aligned_pointer_as_index %a : memref<64xf32> -> index
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  return %p : index
}

// -----

// memref.reshape reads its shape operand on the host when it builds the view: the
// second shape buffer, stored by the host after that read, takes the first's slot
// (hip-ep's host-staged shape vectors, seen by materialize-host-scalars too).
// CHECK-LABEL: func.func @reshape_shape_read_on_the_host
// CHECK:         %[[S:.+]] = memref.alloc() : memref<2xindex>
// CHECK:         memref.reshape %{{.+}}(%[[S]])
// CHECK-NOT:     memref.alloc
// CHECK:         memref.store %{{.+}}, %[[S]][%{{.+}}] : memref<2xindex>
// CHECK:         memref.reshape %{{.+}}(%[[S]])
func.func @reshape_shape_read_on_the_host(%ctx: !hip.context, %n: index, %data: memref<?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.alloc() : memref<2xindex>
  memref.store %n, %s[%c0] : memref<2xindex>
  memref.store %c1, %s[%c1] : memref<2xindex>
  %r = memref.reshape %data(%s) : (memref<?xf16>, memref<2xindex>) -> memref<?x?xf16>
  hip.tanh(%ctx) ins(%r : memref<?x?xf16>) outs(%out : memref<?x?xf16>)
  %t = memref.alloc() : memref<2xindex>
  memref.store %c1, %t[%c0] : memref<2xindex>
  memref.store %n, %t[%c1] : memref<2xindex>
  %q = memref.reshape %data(%t) : (memref<?xf16>, memref<2xindex>) -> memref<?x?xf16>
  hip.tanh(%ctx) ins(%q : memref<?x?xf16>) outs(%out : memref<?x?xf16>)
  return
}

// -----

// A reshape of a buffer is a view of it: %a is read through %v after %b is
// written, so %b may not take %a's slot.
// CHECK-LABEL: func.func @reshape_source_is_a_view
// CHECK:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         memref.reshape %[[A]]
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         outs(%[[B]] : memref<64xf32>)
func.func @reshape_source_is_a_view(%ctx: !hip.context, %shape: memref<2xindex>, %in: memref<64xf32>, %out: memref<8x8xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %v = memref.reshape %a(%shape) : (memref<64xf32>, memref<2xindex>) -> memref<8x8xf32>
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%v : memref<8x8xf32>) outs(%out : memref<8x8xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%in : memref<64xf32>)
  return
}
