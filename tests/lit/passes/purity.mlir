// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect -p cse | FileCheck %s

// The purity each stream/util/hip op declares decides what CSE may merge. The
// seed's bug was one missing trait: stream.async.transfer was not Pure, so two
// identical transfer -> encode -> transfer chains were never merged.

// CHECK-LABEL: @seed_transfers_merge
util.func public @seed_transfers_merge(%src: !stream.resource<constant>, %size: index) -> (!stream.resource<constant>, !stream.resource<constant>) {
  // CHECK-NEXT: stream.async.transfer
  // CHECK-NEXT: stream.tensor.sizeof
  // CHECK-NEXT: stream.tensor.encode
  // CHECK-NEXT: %[[R:.+]] = stream.async.transfer
  // CHECK-NEXT: util.return %[[R]], %[[R]] :
  %0 = stream.async.transfer %src : !stream.resource<constant>{%size} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%size}
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<64x64xf32, #iree_encoding.testing<>> : index
  %2 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %0 : tensor<64x64xf32> in !stream.resource<*>{%size} -> tensor<64x64xf32, #iree_encoding.testing<>> in !stream.resource<*>{%1}
  %3 = stream.async.transfer %2 : !stream.resource<*>{%1} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%1}
  %4 = stream.async.transfer %src : !stream.resource<constant>{%size} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%size}
  %5 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<64x64xf32, #iree_encoding.testing<>> : index
  %6 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %4 : tensor<64x64xf32> in !stream.resource<*>{%size} -> tensor<64x64xf32, #iree_encoding.testing<>> in !stream.resource<*>{%5}
  %7 = stream.async.transfer %6 : !stream.resource<*>{%5} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%5}
  util.return %3, %7 : !stream.resource<constant>, !stream.resource<constant>
}

// -----

// The other Pure stream ops merge too: constants, sizes, timepoints.

// CHECK-LABEL: @pure_stream_ops
util.func public @pure_stream_ops() -> (index, index, !stream.timepoint, !stream.timepoint) {
  // CHECK-NEXT: %[[CST:.+]] = stream.tensor.constant
  // CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[CST]]
  // CHECK-NEXT: %[[T:.+]] = stream.timepoint.immediate
  // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join
  // CHECK-NEXT: util.return %[[SZ]], %[[SZ]], %[[J]], %[[J]]
  %c0 = stream.tensor.constant : tensor<4xi32> in !stream.resource<constant> = dense<[1, 2, 3, 4]> : tensor<4xi32>
  %c1 = stream.tensor.constant : tensor<4xi32> in !stream.resource<constant> = dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s0 = stream.resource.size %c0 : !stream.resource<constant>
  %s1 = stream.resource.size %c1 : !stream.resource<constant>
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %t1 = stream.timepoint.immediate => !stream.timepoint
  %j0 = stream.timepoint.join max(%t0, %t1) => !stream.timepoint
  %j1 = stream.timepoint.join max(%t1, %t0) => !stream.timepoint
  util.return %s0, %s1, %j0, %j1 : index, index, !stream.timepoint, !stream.timepoint
}

// -----

// An op without a purity trait has unknown effects and is never merged: a call, an
// op of an unregistered dialect.

util.func private @callee() -> i32

// CHECK-LABEL: @no_purity_trait
util.func public @no_purity_trait() -> (i32, i32, i32, i32) {
  // CHECK-NEXT: %[[A:.+]] = util.call @callee()
  // CHECK-NEXT: %[[B:.+]] = util.call @callee()
  // CHECK-NEXT: %[[C:.+]] = "test.op"()
  // CHECK-NEXT: %[[D:.+]] = "test.op"()
  // CHECK-NEXT: util.return %[[A]], %[[B]], %[[C]], %[[D]]
  %0 = util.call @callee() : () -> i32
  %1 = util.call @callee() : () -> i32
  %2 = "test.op"() : () -> i32
  %3 = "test.op"() : () -> i32
  util.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// A mutable global's loads merge only when no store to that global lies between; an
// immutable load is Pure and merges across stores.

util.global private mutable @counter : i32
util.global private mutable @other : i32
util.global private @weights = 3 : i32

// CHECK-LABEL: @global_loads
util.func public @global_loads(%v: i32) -> (i32, i32, i32, i32, i32, i32) {
  // CHECK-NEXT: %[[A:.+]] = util.global.load @counter
  // CHECK-NEXT: %[[W:.+]] = util.global.load immutable @weights
  // CHECK-NEXT: util.global.store %{{.+}}, @other
  // CHECK-NEXT: util.global.store %{{.+}}, @counter
  // CHECK-NEXT: %[[B:.+]] = util.global.load @counter
  // CHECK-NEXT: util.return %[[A]], %[[A]], %[[B]], %[[B]], %[[W]], %[[W]]
  %0 = util.global.load @counter : i32
  %w0 = util.global.load immutable @weights : i32
  util.global.store %v, @other : i32
  %1 = util.global.load @counter : i32
  util.global.store %v, @counter : i32
  %2 = util.global.load @counter : i32
  %3 = util.global.load @counter : i32
  %w1 = util.global.load immutable @weights : i32
  util.return %0, %1, %2, %3, %w0, %w1 : i32, i32, i32, i32, i32, i32
}

// -----

// An unknown op between two loads of a global may store it: they stay apart.

util.global private mutable @counter : i32

// CHECK-LABEL: @unknown_op_blocks_global_load
util.func public @unknown_op_blocks_global_load() -> (i32, i32) {
  // CHECK-NEXT: %[[A:.+]] = util.global.load @counter
  // CHECK-NEXT: "test.op"()
  // CHECK-NEXT: %[[B:.+]] = util.global.load @counter
  // CHECK-NEXT: util.return %[[A]], %[[B]]
  %0 = util.global.load @counter : i32
  "test.op"() : () -> ()
  %1 = util.global.load @counter : i32
  util.return %0, %1 : i32, i32
}

// -----

// stream ops that allocate (clone, alloca, dispatch with fresh results) are never
// merged, whatever they read.

// CHECK-LABEL: @stream_allocations
util.func public @stream_allocations(%src: !stream.resource<*>, %size: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<transient>, !stream.resource<transient>) {
  // CHECK-COUNT-2: stream.async.clone
  // CHECK-COUNT-2: stream.async.alloca
  %0 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %1 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.alloca : !stream.resource<transient>{%size}
  %3 = stream.async.alloca : !stream.resource<transient>{%size}
  util.return %0, %1, %2, %3 : !stream.resource<*>, !stream.resource<*>, !stream.resource<transient>, !stream.resource<transient>
}

// -----

// hip: kernels write their outs, runtime buffers are fresh allocations, the
// synchronization writes the context; none is merged.

// CHECK-LABEL: @hip_ops
func.func @hip_ops(%ctx: !hip.context, %n: index, %a: memref<4xf32>, %b: memref<4xf32>) -> (memref<?xi8>, memref<?xi8>, memref<?x4xf32>, memref<?x4xf32>) {
  // CHECK-COUNT-2: hip.get_pool
  // CHECK-COUNT-2: hip.alloc
  // CHECK-COUNT-2: hip.add
  // CHECK-COUNT-2: memplan.synchronize
  %p0 = hip.get_pool(%ctx, %n) : memref<?xi8>
  %p1 = hip.get_pool(%ctx, %n) : memref<?xi8>
  %x0 = hip.alloc(%ctx, %n) : memref<?x4xf32>
  %x1 = hip.alloc(%ctx, %n) : memref<?x4xf32>
  hip.add(%ctx) ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  hip.add(%ctx) ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  memplan.synchronize(%ctx)
  memplan.synchronize(%ctx)
  return %p0, %p1, %x0, %x1 : memref<?xi8>, memref<?xi8>, memref<?x4xf32>, memref<?x4xf32>
}

// -----

// A device kernel writing a buffer lies between two host reads of it: not merged.

// CHECK-LABEL: @hip_kernel_blocks_reads
func.func @hip_kernel_blocks_reads(%ctx: !hip.context, %a: memref<4xf32>, %b: memref<4xf32>, %i: index) -> (f32, f32) {
  // CHECK-NEXT: %[[L0:.+]] = memref.load
  // CHECK-NEXT: hip.add
  // CHECK-NEXT: %[[L1:.+]] = memref.load
  // CHECK-NEXT: return %[[L0]], %[[L1]]
  %0 = memref.load %b[%i] : memref<4xf32>
  hip.add(%ctx) ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  %1 = memref.load %b[%i] : memref<4xf32>
  return %0, %1 : f32, f32
}
