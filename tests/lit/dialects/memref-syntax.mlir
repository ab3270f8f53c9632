// RUN: memplan-opt %s | memplan-opt | FileCheck %s
// RUN: memplan-opt %s --mlir-print-op-generic | memplan-opt | FileCheck %s

// memref ops in MLIR's custom syntax, as mlir-opt-22 prints them: printing,
// reparsing and printing again gives the same text, and so does a detour
// through the generic form. (An integer memory space prints as `1 : i64` unless
// memplan-opt prints with memplan.printing.builtin_syntax.MlirBuiltinPrinter; the checks
// accept both.)

// CHECK:      memref.global "private" constant @c : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global @pub : memref<4xi32> = uninitialized
// CHECK-NEXT: memref.global "nested" @nest : memref<4xi32>
// CHECK-NEXT: memref.global "private" @ext : memref<3xf16>
// CHECK-NEXT: memref.global "public" @explicit_public : memref<2xf32>
// CHECK-NEXT: memref.global @splat : memref<2x2xf32> = dense<0.000000e+00>
// CHECK-NEXT: memref.global "private" constant @scalar : memref<i64> = dense<3>
// CHECK-NEXT: memref.global constant @bools : memref<3xi1> = dense<[true, false, true]>
// CHECK-NEXT: memref.global "private" constant @mat : memref<2x3xi32> = dense<{{\[\[}}1, 2, 3], [4, 5, 6]]>
// CHECK-NEXT: memref.global "private" @"quoted:name" : memref<2xf32> = uninitialized
// CHECK-NEXT: memref.global "private" @spaced : memref<4xf32, 1{{( : i64)?}}> = uninitialized {alignment = 16 : i64, foo = "bar"}
// CHECK-NEXT: memref.global "private" @tagged : memref<4xi32> {custom.attr}
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64 : i64}
memref.global @pub : memref<4xi32> = uninitialized
memref.global "nested" @nest : memref<4xi32>
memref.global "private" @ext : memref<3xf16>
memref.global "public" @explicit_public : memref<2xf32>
memref.global @splat : memref<2x2xf32> = dense<0.0>
memref.global "private" constant @scalar : memref<i64> = dense<3>
memref.global constant @bools : memref<3xi1> = dense<[true, false, true]>
memref.global "private" constant @mat : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
memref.global "private" @"quoted:name" : memref<2xf32> = uninitialized
memref.global "private" @spaced : memref<4xf32, 1> = uninitialized {alignment = 16 : i64, foo = "bar"}
memref.global "private" @tagged : memref<4xi32> {custom.attr}

// CHECK-LABEL: @get_globals
// CHECK:       memref.get_global @c : memref<2xf32>
// CHECK:       memref.get_global @"quoted:name" : memref<2xf32>
func.func @get_globals() -> memref<2xf32> {
  %0 = memref.get_global @c : memref<2xf32>
  %1 = memref.get_global @"quoted:name" : memref<2xf32>
  return %0 : memref<2xf32>
}

// CHECK-LABEL: @casts
// CHECK:       memref.cast %{{.*}} : memref<4xf32> to memref<?xf32>
// CHECK:       memref.cast %{{.*}} : memref<4xf32, strided<[2], offset: 3>> to memref<?xf32, strided<[?], offset: ?>>
// CHECK:       memref.cast %{{.*}} : memref<4xf32> to memref<*xf32>
// CHECK:       memref.cast %{{.*}} : memref<*xf32> to memref<4xf32>
// CHECK:       memref.cast %{{.*}} : memref<?x?xf32> to memref<2x?xf32>
// CHECK:       memref.cast %{{.*}} {tag = 1 : i32} : memref<4xf32> to memref<?xf32>
// CHECK:       memref.memory_space_cast %{{.*}} : memref<4xf32> to memref<4xf32, 1{{( : i64)?}}>
// CHECK:       memref.memory_space_cast %{{.*}} : memref<*xf32> to memref<*xf32, 2{{( : i64)?}}>
func.func @casts(%a: memref<4xf32>, %s: memref<4xf32, strided<[2], offset: 3>>, %u: memref<*xf32>, %d: memref<?x?xf32>) {
  %0 = memref.cast %a : memref<4xf32> to memref<?xf32>
  %1 = memref.cast %s : memref<4xf32, strided<[2], offset: 3>> to memref<?xf32, strided<[?], offset: ?>>
  %2 = memref.cast %a : memref<4xf32> to memref<*xf32>
  %3 = memref.cast %u : memref<*xf32> to memref<4xf32>
  %4 = memref.cast %d : memref<?x?xf32> to memref<2x?xf32>
  %5 = memref.cast %a {tag = 1 : i32} : memref<4xf32> to memref<?xf32>
  %6 = memref.memory_space_cast %a : memref<4xf32> to memref<4xf32, 1>
  %7 = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 2>
  return
}

// CHECK-LABEL: @copies
// CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<?xf32>
// CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<4x4xf32, strided<[8, 1], offset: ?>> to memref<4x4xf32>
// CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<*xf32> to memref<4xf32>
// CHECK:       memref.copy %{{.*}}, %{{.*}} {note = "self"} : memref<4xf32> to memref<4xf32>
func.func @copies(%a: memref<4xf32>, %b: memref<?xf32>, %s: memref<4x4xf32, strided<[8, 1], offset: ?>>, %t: memref<4x4xf32>, %u: memref<*xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<?xf32>
  memref.copy %s, %t : memref<4x4xf32, strided<[8, 1], offset: ?>> to memref<4x4xf32>
  memref.copy %u, %a : memref<*xf32> to memref<4xf32>
  memref.copy %a, %a {note = "self"} : memref<4xf32> to memref<4xf32>
  return
}

// CHECK-LABEL: @reshapes
// CHECK:       memref.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [%{{.*}}, 4, 8] : memref<?x8xf32> into memref<?x4x8xf32>
// CHECK:       memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<4x8xf32> into memref<32xf32>
// CHECK:       memref.collapse_shape %{{.*}} [] : memref<1x1xf32> into memref<f32>
// CHECK:       memref.expand_shape %{{.*}} [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
// CHECK:       memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<4x8xf32> into memref<32xf32>
func.func @reshapes(%a: memref<?x8xf32>, %d: index, %r: memref<4x8xf32>, %one: memref<1x1xf32>, %z: memref<f32>) {
  %0 = memref.expand_shape %a [[0, 1], [2]] output_shape [%d, 4, 8] : memref<?x8xf32> into memref<?x4x8xf32>
  %1 = memref.collapse_shape %r [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %2 = memref.collapse_shape %one [] : memref<1x1xf32> into memref<f32>
  %3 = memref.expand_shape %z [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
  // xDSL's own form of the reassociation is read too, and printed as MLIR's.
  %4 = memref.collapse_shape %r [[0 : i64, 1 : i64]] : memref<4x8xf32> into memref<32xf32>
  return
}

// CHECK-LABEL: @misc
// CHECK:       memref.rank %{{.*}} : memref<?x8xf32>
// CHECK:       memref.rank %{{.*}} : memref<*xf32>
// CHECK:       memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f32, memref<4xf32>) -> f32
// CHECK:       memref.atomic_rmw maxs %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<4xi32>) -> i32
// CHECK:       memref.atomic_rmw xori %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<4xi32>) -> i32
// CHECK:       memref.extract_aligned_pointer_as_index %{{.*}} : memref<4xf32> -> index
func.func @misc(%a: memref<?x8xf32>, %u: memref<*xf32>, %v: f32, %w: i32, %m: memref<4xf32>, %n: memref<4xi32>, %i: index) {
  %0 = memref.rank %a : memref<?x8xf32>
  %1 = memref.rank %u : memref<*xf32>
  %2 = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32
  %3 = memref.atomic_rmw maxs %w, %n[%i] : (i32, memref<4xi32>) -> i32
  %4 = memref.atomic_rmw xori %w, %n[%i] : (i32, memref<4xi32>) -> i32
  %5 = memref.extract_aligned_pointer_as_index %m : memref<4xf32> -> index
  return
}

// The other ops a hip-ep decoder uses, which xDSL already prints as mlir-opt does.
// CHECK-LABEL: @decoder_ops
// CHECK:       memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK:       memref.alloc() : memref<4xf32>
// CHECK:       memref.alloc(%{{.*}})[%{{.*}}] : memref<?xf32, strided<[1], offset: ?>>
// CHECK:       memref.alloca() : memref<16xi8>
// CHECK:       memref.alloca(%{{.*}}) {alignment = 32 : i64} : memref<?xi8>
// CHECK:       memref.load %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:       memref.load %{{.*}}[%{{.*}}] {nontemporal = true} : memref<4xf32>
// CHECK:       memref.load %{{.*}}[] : memref<f32>
// CHECK:       memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK:       memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK:       memref.subview %{{.*}}[0, 2] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
// CHECK:       memref.subview %{{.*}}[%{{.*}}, 2] [4, %{{.*}}] [1, 1] : memref<4x8xf32> to memref<4x?xf32, strided<[8, 1], offset: ?>>
// CHECK:       memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
// CHECK:       memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1] : memref<4xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK:       memref.view %{{.*}}[%{{.*}}][] : memref<16xi8> to memref<2xi32>
// CHECK:       memref.view %{{.*}}[%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xf32>
// CHECK:       memref.dim %{{.*}}, %{{.*}} : memref<?x8xf32>
// CHECK:       memref.dim %{{.*}}, %{{.*}} : memref<*xf32>
// CHECK:       memref.assume_alignment %{{.*}}, 16 : memref<4xf32>
// CHECK:       memref.dealloc %{{.*}} : memref<?x4xf32>
// CHECK:       memref.dealloc %{{.*}} : memref<*xf32>
func.func @decoder_ops(%arg0: memref<4xf32>, %arg1: memref<?x8xf32>, %i: index, %v: f32, %d: index, %r: memref<4x8xf32>, %u: memref<*xf32>, %z: memref<f32>) {
  %a = memref.alloc(%d) {alignment = 64 : i64} : memref<?x4xf32>
  %a2 = memref.alloc() : memref<4xf32>
  %a3 = memref.alloc(%d)[%i] : memref<?xf32, strided<[1], offset: ?>>
  %b = memref.alloca() : memref<16xi8>
  %b2 = memref.alloca(%d) {alignment = 32 : i64} : memref<?xi8>
  %l = memref.load %arg0[%i] : memref<4xf32>
  %l2 = memref.load %arg0[%i] {nontemporal = true} : memref<4xf32>
  %l3 = memref.load %z[] : memref<f32>
  memref.store %v, %arg0[%i] : memref<4xf32>
  memref.store %v, %z[] : memref<f32>
  %s = memref.subview %r[0, 2] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
  %s2 = memref.subview %r[%i, 2] [4, %d] [1, 1] : memref<4x8xf32> to memref<4x?xf32, strided<[8, 1], offset: ?>>
  %rc = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
  %rc2 = memref.reinterpret_cast %arg0 to offset: [%i], sizes: [%d], strides: [1] : memref<4xf32> to memref<?xf32, strided<[1], offset: ?>>
  %vw = memref.view %b[%i][] : memref<16xi8> to memref<2xi32>
  %vw2 = memref.view %b2[%i][%d] : memref<?xi8> to memref<?xf32>
  %dm = memref.dim %arg1, %i : memref<?x8xf32>
  %dm2 = memref.dim %u, %i : memref<*xf32>
  %aa = memref.assume_alignment %arg0, 16 : memref<4xf32>
  memref.dealloc %a : memref<?x4xf32>
  memref.dealloc %u : memref<*xf32>
  return
}
