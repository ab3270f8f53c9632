// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s

// memref.reshape, memref.transpose and memref.realloc in mlir-opt-22's syntax,
// and layouts xDSL cannot evaluate (semi-affine maps) kept as written.

// CHECK-LABEL: @reshape_ranked_and_unranked
// CHECK:       memref.reshape %{{.*}}(%{{.*}}) : (memref<4x4xf32>, memref<1xindex>) -> memref<16xf32>
// CHECK:       memref.reshape %{{.*}}(%{{.*}}) : (memref<*xf32>, memref<?xi32>) -> memref<*xf32>
func.func @reshape_ranked_and_unranked(%m: memref<4x4xf32>, %s: memref<1xindex>,
    %u: memref<*xf32>, %t: memref<?xi32>) -> (memref<16xf32>, memref<*xf32>) {
  %a = memref.reshape %m(%s) : (memref<4x4xf32>, memref<1xindex>) -> memref<16xf32>
  %b = memref.reshape %u(%t) : (memref<*xf32>, memref<?xi32>) -> memref<*xf32>
  return %a, %b : memref<16xf32>, memref<*xf32>
}

// -----

// CHECK-LABEL: @transpose_strided
// CHECK:       memref.transpose %{{.*}} (d0, d1, d2) -> (d2, d0, d1) : memref<2x3x4xf32> to memref<4x2x3xf32, strided<[1, 12, 4]>>
func.func @transpose_strided(%m: memref<2x3x4xf32>) -> memref<4x2x3xf32, strided<[1, 12, 4]>> {
  %t = memref.transpose %m (d0, d1, d2) -> (d2, d0, d1) : memref<2x3x4xf32> to memref<4x2x3xf32, strided<[1, 12, 4]>>
  return %t : memref<4x2x3xf32, strided<[1, 12, 4]>>
}

// -----

// A semi-affine layout (a dimension times a symbol): parsed, printed as MLIR
// prints it, and accepted as the transposed type of a dynamic matrix.
// CHECK:       #[[SEMI:.+]] = affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>
// CHECK-LABEL: @transpose_semi_affine_layout
// CHECK:       memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, #[[SEMI]]>
func.func @transpose_semi_affine_layout(%m: memref<?x?xf32>)
    -> memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>> {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>>
  return %t : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>>
}

// -----

// Layouts nothing evaluates stay opaque: no crash, printed back unchanged.
// CHECK:       #[[FLOOR:.+]] = affine_map<(d0)[s0, s1] -> (d0 floordiv s0 + d0 mod s1)>
// CHECK:       #[[CEIL:.+]] = affine_map<(d0, d1) -> (d0 * 4 + d1 - 3, d1 ceildiv 2)>
// CHECK-LABEL: @opaque_layouts
// CHECK-SAME:  memref<8xf32, #[[FLOOR]]>
// CHECK-SAME:  memref<4x4xf32, #[[CEIL]]>
func.func @opaque_layouts(
    %a: memref<8xf32, affine_map<(d0)[s0, s1] -> (d0 floordiv s0 + d0 mod s1)>>,
    %b: memref<4x4xf32, affine_map<(d0, d1) -> (d0 * 4 + d1 - 3, d1 ceildiv 2)>>) {
  return
}

// -----

// CHECK-LABEL: @realloc_static_and_dynamic
// CHECK:       memref.realloc %{{.*}} : memref<2xf32> to memref<4xf32>
// CHECK:       memref.realloc %{{.*}}(%{{.*}}) {alignment = 8 : i64} : memref<2xf32> to memref<?xf32>
func.func @realloc_static_and_dynamic(%m: memref<2xf32>, %n: index) -> (memref<4xf32>, memref<?xf32>) {
  %a = memref.realloc %m : memref<2xf32> to memref<4xf32>
  %b = memref.realloc %m(%n) {alignment = 8 : i64} : memref<2xf32> to memref<?xf32>
  return %a, %b : memref<4xf32>, memref<?xf32>
}

// -----

// CHECK-LABEL: @identity_layout_dropped
// CHECK-SAME:  memref<32xf32>)
func.func @identity_layout_dropped(%a: memref<32xf32, affine_map<(d0) -> (d0)>>) {
  return
}
