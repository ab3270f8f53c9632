// RUN: not memplan-opt %s --split-input-file -p verify-memory-plan 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR
// RUN: not memplan-opt %s --split-input-file -p verify-memory-plan 2>/dev/null | FileCheck %s

// The seed's table, checked by the plan checker instead of by reading the plan:
// the old interval-only reuse races on both sizes; host scalars first fixes only
// the 1-element pair; memplan's optimize-memrefs keeps both apart.
// RUN: not memplan-opt %S/Inputs/verify-memory-plan-seed.mlir --split-input-file -p 'optimize-memrefs{host-ordering=false},verify-memory-plan' 2>&1 >/dev/null | FileCheck %s --check-prefix=UNSAFE
// UNSAFE: verify-memory-plan-seed.mlir:9:3: error: unordered accesses to %a {{.*}}: write of %a (host) by 'memref.store' at {{.*}}verify-memory-plan-seed.mlir:9:3 and read of %a (device, stream %ctx) by 'hip.cast' at {{.*}}verify-memory-plan-seed.mlir:7:3; the host write may happen before the enqueued read runs
// UNSAFE: verify-memory-plan-seed.mlir:7:3: note: the other access is here
// UNSAFE: verify-memory-plan-seed.mlir:2:1: error: verify-memory-plan: 1 unordered pair(s)
// UNSAFE: verify-memory-plan-seed.mlir:24:3: error: unordered accesses to %a
// UNSAFE: verify-memory-plan-seed.mlir:22:3: note: the other access is here
// RUN: not memplan-opt %S/Inputs/verify-memory-plan-seed.mlir --split-input-file -p 'materialize-host-scalars,optimize-memrefs{host-ordering=false},verify-memory-plan' 2>&1 >/dev/null | FileCheck %s --check-prefix=SCALARS
// SCALARS-NOT: seed.mlir:9:3: error
// SCALARS: verify-memory-plan-seed.mlir:24:3: error: unordered accesses to %a
// SCALARS: verify-memory-plan-seed.mlir:22:3: note: the other access is here
// SCALARS: verify-memory-plan-seed.mlir:17:1: error: verify-memory-plan: 1 unordered pair(s)
// SCALARS-NOT: error:
// RUN: memplan-opt %S/Inputs/verify-memory-plan-seed.mlir --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s --check-prefix=SAFE
// RUN: memplan-opt %S/Inputs/verify-memory-plan-seed.mlir --split-input-file -p 'materialize-host-scalars,optimize-memrefs,verify-memory-plan' | FileCheck %s --check-prefix=SAFE
// RUN: memplan-opt %S/Inputs/verify-memory-plan-seed.mlir --split-input-file -p 'optimize-memrefs,materialize-host-scalars,verify-memory-plan' | FileCheck %s --check-prefix=SAFE
// SAFE-LABEL: @seed_scalars
// SAFE-LABEL: @seed_32_elements

// A kernel writes the pool's first bytes; after a synchronize the host may reuse
// them for another buffer.
// CHECK-LABEL: @pool_overlap_after_synchronize
func.func @pool_overlap_after_synchronize(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  memplan.synchronize(%ctx)
  %b = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// The same without the synchronize: the host store may land before the kernel
// reads %a.
// CHECK-NOT: @pool_overlap_pending
func.func @pool_overlap_pending(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  %b = memref.view %pool[%c8][] : memref<?xi8> to memref<4xf32>
  // ERR: [[# @LINE + 5]]:3: error: unordered accesses to overlapping bytes of %a and %b (both in %pool): write of %b (host) by 'memref.store' at {{.*}}:[[# @LINE + 5]]:3 and write of %a (device, stream %ctx) by 'hip.sign' at {{.*}}:[[# @LINE - 3]]:3; the host write may happen before the enqueued write runs: no op between them waits for stream %ctx
  // ERR: [[# @LINE - 4]]:3: note: the other access is here
  // ERR: [[# @LINE + 3]]:3: error: unordered accesses to overlapping bytes of %a and %b (both in %pool): write of %b (host) by 'memref.store' at {{.*}}:[[# @LINE + 3]]:3 and read of %a (device, stream %ctx) by 'hip.sign' at {{.*}}:[[# @LINE - 4]]:3; the host write may happen before the enqueued read runs
  // ERR: [[# @LINE - 5]]:3: note: the other access is here
  // ERR: verify-memory-plan.mlir:[[# @LINE - 13]]:1: error: verify-memory-plan: 2 unordered pair(s) of accesses to shared bytes (see the errors above)
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// Views at disjoint constant offsets never conflict, whatever is pending.
// CHECK-LABEL: @pool_disjoint_views
func.func @pool_disjoint_views(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.view %pool[%c16][] : memref<?xi8> to memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// Device-only reuse on one in-order stream is ordered.
// CHECK-LABEL: @device_chain_reuse
func.func @device_chain_reuse(%ctx: !hip.context, %x: memref<64xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<64xf32>
  hip.tanh(%ctx) ins(%x : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.exp(%ctx) ins(%a : memref<64xf32>) outs(%y : memref<64xf32>)
  %b = memref.view %pool[%c0][] : memref<?xi8> to memref<64xf32>
  hip.neg(%ctx) ins(%y : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.abs(%ctx) ins(%b : memref<64xf32>) outs(%x : memref<64xf32>)
  return
}

// -----

// A smaller buffer reusing a slot through reinterpret_cast while the kernel that
// reads the slot's first buffer may still be queued.
// CHECK-NOT: @reinterpret_slot_pending
func.func @reinterpret_slot_pending(%ctx: !hip.context, %out: memref<8xi32>, %v: i64) {
  %c0 = arith.constant 0 : index
  %slot = memref.alloc() : memref<8xi64>
  memref.store %v, %slot[%c0] : memref<8xi64>
  hip.cast(%ctx) ins(%slot : memref<8xi64>) outs(%out : memref<8xi32>) {to = 6 : i64}
  %small = memref.reinterpret_cast %slot to offset: [0], sizes: [2], strides: [1] : memref<8xi64> to memref<2xi64>
  // ERR: [[# @LINE + 2]]:3: error: unordered accesses to overlapping bytes of %slot and %small (both in %slot)
  // ERR: [[# @LINE - 3]]:3: note: the other access is here
  memref.store %v, %small[%c0] : memref<2xi64>
  return
}

// -----

// The host alone: %b overwrites %a's bytes between two uses of %a.
// CHECK-NOT: @host_interleaving
func.func @host_interleaving(%v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pool = memref.alloc() : memref<64xi8>
  %a = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  %b = memref.view %pool[%c4][] : memref<64xi8> to memref<4xf32>
  // ERR: [[# @LINE + 1]]:3: error: unordered accesses to overlapping bytes of %a and %b {{.*}}; accesses of %b lie between accesses of %a to the same bytes
  memref.store %v, %b[%c0] : memref<4xf32>
  // ERR: [[# @LINE + 1]]:3: note: the other access is here
  %r = memref.load %a[%c0] : memref<4xf32>
  return %r : f32
}

// -----

// A view defined in a loop body into a pool outside it: each iteration's buffer
// shares bytes with the previous one's, whose kernel may still be reading.
// CHECK-NOT: @loop_iterations_pending
func.func @loop_iterations_pending(%ctx: !hip.context, %out: memref<1xi32>, %v: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.view %pool[%c0][] : memref<?xi8> to memref<1xi64>
    // ERR: [[# @LINE + 2]]:5: error: unordered accesses to the bytes of %a by two of its instances: {{.*}}(in consecutive iterations of the loop at {{.*}}:[[# @LINE - 2]]:3)
    // ERR: [[# @LINE + 2]]:5: note: the other access is here
    memref.store %v, %a[%c0] : memref<1xi64>
    hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%out : memref<1xi32>) {to = 6 : i64}
  }
  return
}

// -----

// The same loop with a synchronize at the end of the body is ordered.
// CHECK-LABEL: @loop_iterations_synchronized
func.func @loop_iterations_synchronized(%ctx: !hip.context, %out: memref<1xi32>, %v: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.view %pool[%c0][] : memref<?xi8> to memref<1xi64>
    memref.store %v, %a[%c0] : memref<1xi64>
    hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%out : memref<1xi32>) {to = 6 : i64}
    memplan.synchronize(%ctx)
  }
  return
}

// -----

// The two branches of an scf.if never both run: they may use the same bytes.
// CHECK-LABEL: @if_branches_share
func.func @if_branches_share(%ctx: !hip.context, %c: i1, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  scf.if %c {
    %a = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
    hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  } else {
    %b = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
    memref.store %v, %b[%c0] : memref<4xf32>
  }
  return
}

// -----

// A buffer used by a kernel inside a loop is busy for the whole loop: another
// buffer in its bytes after the loop needs a synchronize.
// CHECK-NOT: @loop_keeps_buffer_busy
func.func @loop_keeps_buffer_busy(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  }
  %b = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  // ERR: [[# @LINE + 2]]:3: error: unordered accesses to overlapping bytes of %a and %b
  // ERR: [[# @LINE - 4]]:5: note: the other access is here
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// A view at an offset the checker cannot compute covers the whole pool.
// CHECK-NOT: @unknown_offset_whole_pool
func.func @unknown_offset_whole_pool(%ctx: !hip.context, %x: memref<4xf32>, %off: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c128][] : memref<?xi8> to memref<4xf32>
  hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.view %pool[%off][] : memref<?xi8> to memref<4xf32>
  // ERR: [[# @LINE + 2]]:3: error: unordered accesses to overlapping bytes of %a and %b
  // ERR: [[# @LINE - 3]]:3: note: the other access is here
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// A buffer passed to a call may be used at any time: it shares bytes with no one.
func.func private @consume(memref<4xf32>)
// CHECK-NOT: @escape_shares_bytes
func.func @escape_shares_bytes(%v: f32) {
  %c0 = arith.constant 0 : index
  %pool = memref.alloc() : memref<64xi8>
  %a = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
  // ERR: [[# @LINE + 2]]:3: error: %a escapes to 'func.call' at {{.*}}, which may access it at any time, but shares bytes of %pool with %b
  // ERR: [[# @LINE + 3]]:3: note: the other access is here
  func.call @consume(%a) : (memref<4xf32>) -> ()
  %b = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// A returned buffer is read by the caller after the call: nothing may reuse its
// bytes after its last write.
// CHECK-NOT: @returned_then_reused
func.func @returned_then_reused(%v: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %pool = memref.alloc() : memref<64xi8>
  %a = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  %b = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
  // ERR: [[# @LINE + 1]]:3: error: unordered accesses to overlapping bytes of %a and %b {{.*}}; accesses of %b lie between accesses of %a
  memref.store %v, %b[%c0] : memref<4xf32>
  // ERR: [[# @LINE + 1]]:3: note: the other access is here
  return %a : memref<4xf32>
}

// -----

// One kernel reading and writing two buffers in the same bytes.
// CHECK-NOT: @one_kernel_both_buffers
func.func @one_kernel_both_buffers(%ctx: !hip.context) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<4xf32>
  %b = memref.view %pool[%c4][] : memref<?xi8> to memref<4xf32>
  // ERR: [[# @LINE + 2]]:3: error: {{.*}} one op accesses both buffers
  // ERR: [[# @LINE + 1]]:3: note: the other access is here
  hip.exp(%ctx) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

// Subviews, casts and reshapes stay in their buffer: a kernel writing one half and
// the host reading the other after a synchronize is fine.
// CHECK-LABEL: @views_of_one_buffer
func.func @views_of_one_buffer(%ctx: !hip.context, %x: memref<2x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<2x4xf32>
  hip.sign(%ctx) ins(%x : memref<2x4xf32>) outs(%a : memref<2x4xf32>)
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  %row = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  memplan.synchronize(%ctx)
  %r = memref.load %row[%c0] : memref<4xf32, strided<[1], offset: 4>>
  %s = memref.load %flat[%c0] : memref<8xf32>
  %t = arith.addf %r, %s : f32
  return %t : f32
}

// -----

// Slot reuse that replaced buffers by the slot's value: %slot holds three original
// buffers, the middle one through a reinterpret_cast. Each comes back with a
// kernel writing all of it, so nothing old is read.
// CHECK-LABEL: @merged_generations_come_back_fresh
func.func @merged_generations_come_back_fresh(%ctx: !hip.context, %x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %slot = memref.alloc() : memref<4x8xf32>
  hip.tanh(%ctx) ins(%x : memref<4x8xf32>) outs(%slot : memref<4x8xf32>)
  hip.exp(%ctx) ins(%slot : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  %r = memref.reinterpret_cast %slot to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32> to memref<32xf32>
  %flat = memref.collapse_shape %x [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  hip.neg(%ctx) ins(%flat : memref<32xf32>) outs(%r : memref<32xf32>)
  hip.abs(%ctx) ins(%r : memref<32xf32>) outs(%flat : memref<32xf32>)
  hip.tanh(%ctx) ins(%y : memref<4x8xf32>) outs(%slot : memref<4x8xf32>)
  hip.exp(%ctx) ins(%slot : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// The same, but the first buffer is read again after the middle one clobbered it.
// CHECK-NOT: @merged_buffer_read_after_clobber
func.func @merged_buffer_read_after_clobber(%ctx: !hip.context, %x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %slot = memref.alloc() : memref<4x8xf32>
  hip.tanh(%ctx) ins(%x : memref<4x8xf32>) outs(%slot : memref<4x8xf32>)
  hip.exp(%ctx) ins(%slot : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  %r = memref.reinterpret_cast %slot to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32> to memref<32xf32>
  %flat = memref.collapse_shape %x [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  // ERR: [[# @LINE + 2]]:3: error: unordered accesses to overlapping bytes of %slot and %r {{.*}}; accesses of %r lie between accesses of %slot to the same bytes
  // ERR: [[# @LINE + 2]]:3: note: the other access is here
  hip.neg(%ctx) ins(%flat : memref<32xf32>) outs(%r : memref<32xf32>)
  hip.exp(%ctx) ins(%slot : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// Dynamic slabs as a pool planner lays them out: the second starts at the first's
// size rounded up, so the two never share a byte, whatever %n is.
// CHECK-LABEL: @dynamic_slabs_apart
func.func @dynamic_slabs_apart(%ctx: !hip.context, %x: memref<?xi64>, %n: index, %v: i64) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %bytes = arith.muli %c8, %n : index
  %blocks = arith.ceildivui %bytes, %c256 : index
  %slab = arith.muli %blocks, %c256 : index
  %second = arith.addi %c256, %slab : index
  %size = arith.addi %second, %slab : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c256][%n] : memref<?xi8> to memref<?xi64>
  %b = memref.view %pool[%second][%n] : memref<?xi8> to memref<?xi64>
  hip.sign(%ctx) ins(%x : memref<?xi64>) outs(%a : memref<?xi64>)
  memref.store %v, %b[%c0] : memref<?xi64>
  return
}

// -----

// The second slab starts only half way into the first one.
// CHECK-NOT: @dynamic_slabs_overlap
func.func @dynamic_slabs_overlap(%ctx: !hip.context, %x: memref<?xi64>, %n: index, %v: i64) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %half = arith.muli %n, %c4 : index
  %second = arith.addi %c256, %half : index
  %pool = hip.get_pool(%ctx, %n) : memref<?xi8>
  %a = memref.view %pool[%c256][%n] : memref<?xi8> to memref<?xi64>
  %b = memref.view %pool[%second][%n] : memref<?xi8> to memref<?xi64>
  hip.sign(%ctx) ins(%x : memref<?xi64>) outs(%a : memref<?xi64>)
  // ERR: [[# @LINE + 2]]:3: error: unordered accesses to overlapping bytes of %a and %b
  // ERR: [[# @LINE - 2]]:3: note: the other access is here
  memref.store %v, %b[%c0] : memref<?xi64>
  return
}

// -----

// A buffer merged into a slot comes back filled by a host loop over all of it
// before anything reads it (decoders fill position ids this way).
// CHECK-LABEL: @merged_generation_filled_by_a_loop
func.func @merged_generation_filled_by_a_loop(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %slot = memref.alloc() : memref<4xf32>
  hip.tanh(%ctx) ins(%x : memref<4xf32>) outs(%slot : memref<4xf32>)
  %half = memref.reinterpret_cast %slot to offset: [0], sizes: [2], strides: [1] : memref<4xf32> to memref<2xf32>
  hip.neg(%ctx) ins(%x : memref<4xf32>) outs(%half : memref<2xf32>)
  memplan.synchronize(%ctx)
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %slot[%i] : memref<4xf32>
  }
  return %slot : memref<4xf32>
}

// -----

// The same loop stops one element short: the last element still holds what the
// middle buffer wrote.
// CHECK-NOT: @merged_generation_partly_filled
func.func @merged_generation_partly_filled(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %slot = memref.alloc() : memref<4xf32>
  hip.tanh(%ctx) ins(%x : memref<4xf32>) outs(%slot : memref<4xf32>)
  %half = memref.reinterpret_cast %slot to offset: [0], sizes: [2], strides: [1] : memref<4xf32> to memref<2xf32>
  // ERR: [[# @LINE + 2]]:3: error: unordered accesses to overlapping bytes of %slot and %half {{.*}}; accesses of %half lie between accesses of %slot
  // ERR: [[# @LINE + 6]]:3: note: the other access is here
  hip.neg(%ctx) ins(%x : memref<4xf32>) outs(%half : memref<2xf32>)
  memplan.synchronize(%ctx)
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %v, %slot[%i] : memref<4xf32>
  }
  return %slot : memref<4xf32>
}
