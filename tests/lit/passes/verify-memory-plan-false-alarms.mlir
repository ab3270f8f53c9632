// verify-memory-plan accepts these plans, which earlier versions reported as races:
// scf.while's two regions, chains of views, views at a dynamic offset, a body of
// several blocks. Every memory pipeline leaves them checker-clean too:
// RUN: memplan-opt %s --split-input-file -p verify-memory-plan | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars,verify-memory-plan' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs,verify-memory-plan' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs,verify-memory-plan' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s
// The same shapes with a real race are still reported:
// RUN: not memplan-opt %S/Inputs/verify-memory-plan-false-alarms-races.mlir --split-input-file -p verify-memory-plan 2>&1 >/dev/null | FileCheck %s --check-prefix=RACE
// RACE: races.mlir:14:5: error: unordered accesses to %a {{.*}}: read of %a (host) by 'memref.load' {{.*}} and write of %a (device, stream %ctx) by 'memplan.launch'
// RACE: races.mlir:33:3: error: unordered accesses to {{.*}} write of %a (host) by 'memref.store' {{.*}} and read of %a (device, stream %ctx) by 'hip.sign'
// RACE: races.mlir:49:3: error: unordered accesses to overlapping bytes of %a and %b (both in %pool)
// RACE: races.mlir:64:3: error: unordered accesses to %a {{.*}} write of %a (host) by 'memref.store' {{.*}} and read of %a (device, stream %ctx) by 'hip.sign' {{.*}} (in blocks that may run in either order)

// The condition region writes %a on the device, the body reads it on the same
// stream: ordered in every iteration.
// CHECK-LABEL: func.func @while_two_regions
func.func @while_two_regions(%ctx: !hip.context, %out: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %n : index
    memplan.launch @fill(%ctx) outs(%a : memref<4xf32>)
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    hip.tanh(%ctx) ins(%a : memref<4xf32>) outs(%out : memref<4xf32>)
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  }
  return
}

// -----

// A reinterpret_cast and a subview of a buffer placed in a pool name parts of that
// one buffer, not buffers of their own.
// CHECK-LABEL: func.func @chain_of_views
func.func @chain_of_views(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c64][] : memref<?xi8> to memref<4xf32>
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
  %s = memref.subview %r[1, 0] [1, 2] [1, 1] : memref<2x2xf32> to memref<2xf32, strided<[1], offset: 2>>
  hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  memplan.synchronize(%ctx)
  memref.store %v, %s[%c0] : memref<2xf32, strided<[1], offset: 2>>
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  return
}

// -----

// A reinterpret_cast of a part (subview) of an allocation reshapes that part's
// contents, which a kernel wrote through the allocation: it reads them between the
// allocation's other accesses, as a fused QKV buffer's heads are read.
// CHECK-LABEL: func.func @reshape_of_a_part
func.func @reshape_of_a_part(%ctx: !hip.context, %x: memref<1x8xf32>, %y: memref<2x2xf32>, %z: memref<1x8xf32>) {
  %qkv = memref.alloc() : memref<1x8xf32>
  hip.sign(%ctx) ins(%x : memref<1x8xf32>) outs(%qkv : memref<1x8xf32>)
  %q = memref.subview %qkv[0, 0] [1, 4] [1, 1] : memref<1x8xf32> to memref<1x4xf32, strided<[8, 1]>>
  %heads = memref.reinterpret_cast %q to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<1x4xf32, strided<[8, 1]>> to memref<2x2xf32>
  hip.sign(%ctx) ins(%heads : memref<2x2xf32>) outs(%y : memref<2x2xf32>)
  hip.sign(%ctx) ins(%qkv : memref<1x8xf32>) outs(%z : memref<1x8xf32>)
  memref.dealloc %qkv : memref<1x8xf32>
  return
}

// -----

// Views at %off and %off + 16 of 16 bytes each are apart, and a subview of the
// first stays inside it.
// CHECK-LABEL: func.func @dynamic_offset_views
func.func @dynamic_offset_views(%ctx: !hip.context, %x: memref<4xf32>, %off: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %o2 = arith.addi %off, %c16 : index
  %a = memref.view %pool[%off][] : memref<?xi8> to memref<4xf32>
  %b = memref.view %pool[%o2][] : memref<?xi8> to memref<4xf32>
  %sa = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  hip.sign(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  memref.store %v, %b[%c0] : memref<4xf32>
  hip.sign(%ctx) ins(%b : memref<4xf32>) outs(%x : memref<4xf32>)
  hip.tanh(%ctx) ins(%sa : memref<2xf32, strided<[1], offset: 1>>) outs(%sa : memref<2xf32, strided<[1], offset: 1>>)
  return
}

// -----

// The host store in the entry block comes before the copy in ^bb1 on every path,
// and the store in ^bb2 after a synchronize.
// CHECK-LABEL: func.func @multi_block
func.func @multi_block(%ctx: !hip.context, %x: memref<4xf32>, %v: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  cf.br ^bb2
^bb2:
  memplan.synchronize(%ctx)
  memref.store %v, %a[%c0] : memref<4xf32>
  return
}

// -----

// Slabs of hip-ep's layout: the second starts at the first's width rounded up with
// addi/divui/muli (or at a maxui of two widths): apart from the first, whose
// accesses surround the second's.
// CHECK-LABEL: func.func @rounded_slabs
func.func @rounded_slabs(%ctx: !hip.context, %n: index, %m: index, %x: memref<?xf16>, %v: f16) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %bytes = arith.muli %n, %c2 : index
  %other = arith.muli %m, %c2 : index
  %width = arith.maxui %bytes, %other : index
  %up = arith.addi %width, %c255 : index
  %units = arith.divui %up, %c256 : index
  %slab = arith.muli %units, %c256 : index
  %size = arith.addi %slab, %slab : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][%n] : memref<?xi8> to memref<?xf16>
  %b = memref.view %pool[%slab][%n] : memref<?xi8> to memref<?xf16>
  hip.sign(%ctx) ins(%x : memref<?xf16>) outs(%a : memref<?xf16>)
  memref.store %v, %b[%c0] : memref<?xf16>
  hip.sign(%ctx) ins(%a : memref<?xf16>) outs(%x : memref<?xf16>)
  return
}
