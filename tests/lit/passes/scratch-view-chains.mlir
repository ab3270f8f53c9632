// A function that already takes host scratch keeps the bytes its uses reach through
// any chain of views (reinterpret_cast, subview, cast of a view: ViewLike's byte-range
// query), and new host scalars go after them. Every memory pipeline, then the checker:
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars,verify-memory-plan' | FileCheck %s --check-prefixes=SCALARS,ALONE
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s --check-prefix=OTHER
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=OTHER
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=OTHER
// RUN: memplan-opt %s --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s --check-prefixes=SCALARS,PLAN
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars{debug=true}' --verify-diagnostics > /dev/null
// The checker finds the plan that counted direct views only:
// RUN: not memplan-opt %S/Inputs/scratch-view-chains-plans.mlir -p verify-memory-plan 2>&1 >/dev/null | FileCheck %s --check-prefix=RACE
// RACE: scratch-view-chains-plans.mlir:14:3: error: unordered accesses to overlapping bytes of %a and %b (both in %s): write of %b (host) by 'memref.store' {{.*}} and read of %a (device, stream %ctx) by 'hip.cast'

// The 1 x i64 view at 0 is reinterpreted as 9 x i64: 72 bytes are in use, so the
// new scalar goes to 128, not to 64.
// SCALARS-LABEL: func.func @reinterpret_cast_of_a_view
// SCALARS:         %[[SIZE:.+]] = arith.constant 192 : index
// SCALARS-NEXT:    %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]])
// SCALARS:         %[[OFF:.+]] = arith.constant 128 : index
// SCALARS-NEXT:    memref.view %[[S]][%[[OFF]]][] : memref<?xi8> to memref<1xi64>
// OTHER-LABEL: func.func @reinterpret_cast_of_a_view
func.func @reinterpret_cast_of_a_view(%ctx: !hip.context, %x: i64, %o: memref<9xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %size = arith.constant 100 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %v = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  %wide = memref.reinterpret_cast %v to offset: [0], sizes: [9], strides: [1] : memref<1xi64> to memref<9xi64>
  memref.store %x, %wide[%c8] : memref<9xi64>
  hip.cast(%ctx) ins(%wide : memref<9xi64>) outs(%o : memref<9xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// A subview of a cast of a view at 64: 16 x i64 from 64 reaches byte 192; the part
// the subview names ends there too (offset 8, 8 elements).
// SCALARS-LABEL: func.func @subview_of_a_cast_of_a_view
// SCALARS:         %[[SIZE:.+]] = arith.constant 256 : index
// SCALARS-NEXT:    %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]])
// SCALARS:         %[[OFF:.+]] = arith.constant 192 : index
// SCALARS-NEXT:    memref.view %[[S]][%[[OFF]]][] : memref<?xi8> to memref<2xi32>
// OTHER-LABEL: func.func @subview_of_a_cast_of_a_view
func.func @subview_of_a_cast_of_a_view(%ctx: !hip.context, %x: i64, %y: i32, %o: memref<8xf32>, %p: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 200 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %v = memref.view %s[%c64][] : memref<?xi8> to memref<16xi64>
  %cast = memref.cast %v : memref<16xi64> to memref<?xi64>
  %part = memref.subview %cast[8] [8] [1] : memref<?xi64> to memref<8xi64, strided<[1], offset: 8>>
  memref.store %x, %part[%c0] : memref<8xi64, strided<[1], offset: 8>>
  hip.cast(%ctx) ins(%part : memref<8xi64, strided<[1], offset: 8>>) outs(%o : memref<8xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<2xi32>
  memref.store %y, %b[%c0] : memref<2xi32>
  hip.cast(%ctx) ins(%b : memref<2xi32>) outs(%p : memref<2xf32>) {to = 1 : i64}
  return
}

// -----

// A view at a byte shift that is not a constant: the bytes in use are not known, so
// the function is left alone.
// SCALARS-LABEL: func.func @view_at_a_dynamic_shift
// ALONE:           memref.alloc() : memref<1xi64>
// PLAN:            hip.get_pool
// OTHER-LABEL: func.func @view_at_a_dynamic_shift
// expected-remark @+1 {{materialize-host-scalars: function left alone: 'memref.reinterpret_cast' uses its host scratch at bytes that are not constant; new buffers could overlap them}}
func.func @view_at_a_dynamic_shift(%ctx: !hip.context, %x: i64, %at: index, %o: memref<1xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 128 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %v = memref.view %s[%at][] : memref<?xi8> to memref<1xi64>
  %r = memref.reinterpret_cast %v to offset: [0], sizes: [1], strides: [1] : memref<1xi64> to memref<1xi64>
  memref.store %x, %r[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%r : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}
