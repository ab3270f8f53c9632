// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect -p canonicalize | FileCheck %s

// memref canonicalization patterns (memplan.passes.patterns.memref): each one
// with a case where it applies and a case where it must not.

// CHECK-LABEL: @cast_to_own_type_and_back
// CHECK-SAME:  (%[[A:[^:]*]]: memref<8xi32>)
// CHECK-NEXT:  return %[[A]], %[[A]]
func.func @cast_to_own_type_and_back(%a: memref<8xi32>) -> (memref<8xi32>, memref<8xi32>) {
  %0 = memref.cast %a : memref<8xi32> to memref<8xi32>
  %1 = memref.cast %a : memref<8xi32> to memref<?xi32>
  %2 = memref.cast %1 : memref<?xi32> to memref<8xi32>
  return %0, %2 : memref<8xi32>, memref<8xi32>
}

// -----

// A cast that adds a static size is an assertion: it stays.
// CHECK-LABEL: @cast_adding_facts_kept
// CHECK:       %[[C:.*]] = memref.cast %{{.*}} : memref<?xi32> to memref<8xi32>
// CHECK-NEXT:  return %[[C]]
func.func @cast_adding_facts_kept(%a: memref<?xi32>) -> memref<8xi32> {
  %0 = memref.cast %a : memref<?xi32> to memref<8xi32>
  return %0 : memref<8xi32>
}

// -----

// Accesses look through a cast that only forgets static facts.
// CHECK-LABEL: @accesses_through_forgetting_cast
// CHECK-SAME:  (%[[A:[^:]*]]: memref<8xi32>, %[[I:[^:]*]]: index, %[[V:[^:]*]]: i32)
// CHECK-NEXT:  %[[L:.*]] = memref.load %[[A]][%[[I]]] : memref<8xi32>
// CHECK-NEXT:  memref.store %[[V]], %[[A]][%[[I]]] : memref<8xi32>
// CHECK-NEXT:  memref.dealloc %[[A]] : memref<8xi32>
// CHECK-NEXT:  return %[[L]]
func.func @accesses_through_forgetting_cast(%a: memref<8xi32>, %i: index, %v: i32) -> i32 {
  %c = memref.cast %a : memref<8xi32> to memref<?xi32>
  %l = memref.load %c[%i] : memref<?xi32>
  memref.store %v, %c[%i] : memref<?xi32>
  memref.dealloc %c : memref<?xi32>
  return %l : i32
}

// -----

// Not through a cast that adds facts, and never where the cast is the data.
// CHECK-LABEL: @accesses_keep_asserting_cast_and_stored_buffer
// CHECK:       %[[C:.*]] = memref.cast %{{.*}} : memref<?xi32> to memref<8xi32>
// CHECK:       memref.load %[[C]]
// CHECK:       %[[F:.*]] = memref.cast %{{.*}} : memref<4xi32> to memref<?xi32>
// CHECK:       memref.store %[[F]], %{{.*}}[] : memref<memref<?xi32>>
func.func @accesses_keep_asserting_cast_and_stored_buffer(%a: memref<?xi32>, %b: memref<4xi32>,
    %box: memref<memref<?xi32>>, %i: index) -> i32 {
  %c = memref.cast %a : memref<?xi32> to memref<8xi32>
  %l = memref.load %c[%i] : memref<8xi32>
  %f = memref.cast %b : memref<4xi32> to memref<?xi32>
  memref.store %f, %box[] : memref<memref<?xi32>>
  return %l : i32
}

// -----

// CHECK-LABEL: @dim_of_static_and_allocated_sizes
// CHECK-SAME:  (%[[N:[^:]*]]: index)
// CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
// CHECK-NOT:   memref.dim
// CHECK:       return %[[C6]], %[[N]]
func.func @dim_of_static_and_allocated_sizes(%n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<6x?xf32>
  %d0 = memref.dim %a, %c0 : memref<6x?xf32>
  %d1 = memref.dim %a, %c1 : memref<6x?xf32>
  "test.keep"(%a) : (memref<6x?xf32>) -> ()
  return %d0, %d1 : index, index
}

// -----

// A dynamic size of a function argument is not known; an unknown index is not
// folded either.
// CHECK-LABEL: @dim_unknown_kept
// CHECK:       memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK:       memref.dim %{{.*}}, %{{.*}} : memref<6x?xf32>
func.func @dim_unknown_kept(%a: memref<?xf32>, %b: memref<6x?xf32>, %i: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %d0 = memref.dim %a, %c0 : memref<?xf32>
  %d1 = memref.dim %b, %i : memref<6x?xf32>
  return %d0, %d1 : index, index
}

// -----

// Views state their dynamic sizes: a dim of one is that size (through the
// dims a rank-reducing subview keeps).
// CHECK-LABEL: @dim_of_sized_views
// CHECK-SAME:  (%[[B:[^:]*]]: memref<?xi8>, %[[M:[^:]*]]: memref<4x?xf32>, %[[N:[^:]*]]: index, %[[K:[^:]*]]: index)
// CHECK-NOT:   memref.dim
// CHECK:       return %[[N]], %[[K]], %[[N]]
func.func @dim_of_sized_views(%b: memref<?xi8>, %m: memref<4x?xf32>, %n: index, %k: index)
    -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.view %b[%c0][%n] : memref<?xi8> to memref<?xf32>
  %s = memref.subview %m[0, 0] [1, %k] [1, 1] : memref<4x?xf32> to memref<?xf32, strided<[1]>>
  %r = memref.reinterpret_cast %b to offset: [0], sizes: [2, %n], strides: [%n, 1] : memref<?xi8> to memref<2x?xi8, strided<[?, 1]>>
  %d0 = memref.dim %v, %c0 : memref<?xf32>
  %d1 = memref.dim %s, %c0 : memref<?xf32, strided<[1]>>
  %d2 = memref.dim %r, %c1 : memref<2x?xi8, strided<[?, 1]>>
  "test.use"(%v, %s, %r) : (memref<?xf32>, memref<?xf32, strided<[1]>>, memref<2x?xi8, strided<[?, 1]>>) -> ()
  return %d0, %d1, %d2 : index, index, index
}

// -----

// The shape a reshape reads is loaded where the reshape reads it, not later.
// CHECK-LABEL: @dim_of_reshape_loads_at_reshape
// CHECK-SAME:  (%[[M:[^:]*]]: memref<*xf32>, %[[S:[^:]*]]: memref<?xindex>, %[[I:[^:]*]]: index
// CHECK-NEXT:  %[[L:.*]] = memref.load %[[S]][%[[I]]] : memref<?xindex>
// CHECK-NEXT:  memref.store %{{.*}}, %[[S]][%[[I]]]
// CHECK-NEXT:  return %[[L]]
func.func @dim_of_reshape_loads_at_reshape(%m: memref<*xf32>, %s: memref<?xindex>, %i: index,
    %v: index) -> index {
  %r = memref.reshape %m(%s) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  memref.store %v, %s[%i] : memref<?xindex>
  %d = memref.dim %r, %i : memref<*xf32>
  return %d : index
}

// -----

// An index computed after the reshape cannot be loaded at the reshape.
// CHECK-LABEL: @dim_of_reshape_later_index_kept
// CHECK:       memref.reshape
// CHECK:       memref.dim
// CHECK-NOT:   memref.load
func.func @dim_of_reshape_later_index_kept(%m: memref<*xf32>, %s: memref<?xindex>, %i: index) -> index {
  %r = memref.reshape %m(%s) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  %j = arith.addi %i, %i : index
  %d = memref.dim %r, %j : memref<*xf32>
  return %d : index
}

// -----

// CHECK-LABEL: @rank_of_ranked_and_unranked
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       %[[R:.*]] = memref.rank %{{.*}} : memref<*xf32>
// CHECK:       return %[[C3]], %[[R]]
func.func @rank_of_ranked_and_unranked(%a: memref<2x?x4xf32>, %b: memref<*xf32>) -> (index, index) {
  %0 = memref.rank %a : memref<2x?x4xf32>
  %1 = memref.rank %b : memref<*xf32>
  return %0, %1 : index, index
}

// -----

// CHECK-LABEL: @alloca_constant_size_static
// CHECK:       %[[A:.*]] = memref.alloca(%{{.*}}) : memref<3x?xi8>
// CHECK:       %[[C:.*]] = memref.cast %[[A]] : memref<3x?xi8> to memref<?x?xi8>
// CHECK:       "test.use"(%[[C]])
func.func @alloca_constant_size_static(%n: index) {
  %c3 = arith.constant 3 : index
  %a = memref.alloca(%c3, %n) : memref<?x?xi8>
  "test.use"(%a) : (memref<?x?xi8>) -> ()
  return
}

// -----

// A negative constant size stays dynamic (the program is undefined there).
// CHECK-LABEL: @alloc_negative_size_kept
// CHECK:       memref.alloc(%{{.*}}) : memref<?xi8>
func.func @alloc_negative_size_kept() -> memref<?xi8> {
  %c = arith.constant -4 : index
  %a = memref.alloc(%c) : memref<?xi8>
  return %a : memref<?xi8>
}

// -----

// Only written, then freed: nothing can observe the buffer.
// CHECK-LABEL: @write_only_allocation_erased
// CHECK-NEXT:  return
func.func @write_only_allocation_erased(%v: f32, %src: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  memref.copy %src, %a : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Read back, copied out, or stored as a value: the allocation is observed.
// CHECK-LABEL: @observed_allocations_kept
// CHECK-COUNT-3: memref.alloc()
func.func @observed_allocations_kept(%v: f32, %dst: memref<4xf32>, %box: memref<memref<4xf32>>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  %l = memref.load %a[%c0] : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %b, %dst : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.store %c, %box[] : memref<memref<4xf32>>
  return %l : f32
}

// -----

// A static row-major buffer reshaped back to its type is itself, even through
// other groups.
// CHECK-LABEL: @reshape_round_trips_fold
// CHECK-SAME:  (%[[A:[^:]*]]: memref<4x6xf32>, %[[B:[^:]*]]: memref<?x3xf32>, %{{[^:]*}}: index, %[[C:[^:]*]]: memref<2x2xf32>
// CHECK-NEXT:  return %[[A]], %[[B]], %[[A]], %[[C]]
func.func @reshape_round_trips_fold(%a: memref<4x6xf32>, %b: memref<?x3xf32>, %n: index, %c: memref<2x2xf32>)
    -> (memref<4x6xf32>, memref<?x3xf32>, memref<4x6xf32>, memref<2x2xf32>) {
  %0 = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : memref<4x6xf32> into memref<2x2x6xf32>
  %1 = memref.collapse_shape %0 [[0, 1], [2]] : memref<2x2x6xf32> into memref<4x6xf32>
  %2 = memref.collapse_shape %b [[0, 1]] : memref<?x3xf32> into memref<?xf32>
  %3 = memref.expand_shape %2 [[0, 1]] output_shape [%n, 3] : memref<?xf32> into memref<?x3xf32>
  %4 = memref.collapse_shape %a [[0], [1]] : memref<4x6xf32> into memref<4x6xf32>
  %5 = memref.expand_shape %c [[0, 1], [2]] output_shape [2, 1, 2] : memref<2x2xf32> into memref<2x1x2xf32>
  %6 = memref.collapse_shape %5 [[0], [1, 2]] : memref<2x1x2xf32> into memref<2x2xf32>
  return %1, %3, %4, %6 : memref<4x6xf32>, memref<?x3xf32>, memref<4x6xf32>, memref<2x2xf32>
}

// -----

// Expanding `?` into `?x?` may split it differently than before: not `%b`.
// CHECK-LABEL: @reshape_not_round_trip
// CHECK:       memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK:       memref.expand_shape
func.func @reshape_not_round_trip(%b: memref<?x?xf32>, %m: index, %n: index) -> memref<?x?xf32> {
  %0 = memref.collapse_shape %b [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %1 = memref.expand_shape %0 [[0, 1]] output_shape [%m, %n] : memref<?xf32> into memref<?x?xf32>
  return %1 : memref<?x?xf32>
}

// -----

// CHECK-LABEL: @reshapes_compose
// CHECK:       memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<2x3x4x5xf32> into memref<120xf32>
// CHECK:       memref.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [2, 3, 4] : memref<24xf32> into memref<2x3x4xf32>
// CHECK-NOT:   memref.{{.*}}_shape
func.func @reshapes_compose(%a: memref<2x3x4x5xf32>, %b: memref<24xf32>) -> (memref<120xf32>, memref<2x3x4xf32>) {
  %0 = memref.collapse_shape %a [[0, 1], [2, 3]] : memref<2x3x4x5xf32> into memref<6x20xf32>
  %1 = memref.collapse_shape %0 [[0, 1]] : memref<6x20xf32> into memref<120xf32>
  %2 = memref.expand_shape %b [[0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
  %3 = memref.expand_shape %2 [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  return %1, %3 : memref<120xf32>, memref<2x3x4xf32>
}

// -----

// An expand of a collapse with other groups does not compose into one reshape.
// CHECK-LABEL: @collapse_then_expand_kept
// CHECK:       memref.collapse_shape
// CHECK:       memref.expand_shape
func.func @collapse_then_expand_kept(%a: memref<6x4xf32>) -> memref<2x12xf32> {
  %0 = memref.collapse_shape %a [[0, 1]] : memref<6x4xf32> into memref<24xf32>
  %1 = memref.expand_shape %0 [[0, 1]] output_shape [2, 12] : memref<24xf32> into memref<2x12xf32>
  return %1 : memref<2x12xf32>
}

// -----

// CHECK-LABEL: @collapse_sees_through_forgetting_cast
// CHECK-SAME:  (%[[A:[^:]*]]: memref<3x4xf32>)
// CHECK-NEXT:  %[[C:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0, 1]] : memref<3x4xf32> into memref<12xf32>
// CHECK-NEXT:  %[[D:.*]] = memref.cast %[[C]] : memref<12xf32> to memref<?xf32>
// CHECK-NEXT:  return %[[D]]
func.func @collapse_sees_through_forgetting_cast(%a: memref<3x4xf32>) -> memref<?xf32> {
  %0 = memref.cast %a : memref<3x4xf32> to memref<?x?xf32>
  %1 = memref.collapse_shape %0 [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  return %1 : memref<?xf32>
}

// -----

// CHECK-LABEL: @subview_folds
// CHECK-SAME:  (%[[A:[^:]*]]: memref<8x8xf32>, %[[I:[^:]*]]: index)
// CHECK-NEXT:  %[[S:.*]] = memref.subview %[[A]][%[[I]], 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:  %[[C:.*]] = memref.cast %[[S]] : memref<4x4xf32, strided<[8, 1], offset: ?>> to memref<?x4xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:  %[[W:.*]] = memref.cast %[[A]] : memref<8x8xf32> to memref<8x8xf32, strided<[8, 1]>>
// CHECK-NEXT:  return %[[C]], %[[W]]
func.func @subview_folds(%a: memref<8x8xf32>, %i: index)
    -> (memref<?x4xf32, strided<[8, 1], offset: ?>>, memref<8x8xf32, strided<[8, 1]>>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = memref.subview %a[%i, %c2] [%c4, 4] [1, 1] : memref<8x8xf32> to memref<?x4xf32, strided<[8, 1], offset: ?>>
  %1 = memref.subview %a[0, 0] [8, 8] [1, 1] : memref<8x8xf32> to memref<8x8xf32, strided<[8, 1]>>
  return %0, %1 : memref<?x4xf32, strided<[8, 1], offset: ?>>, memref<8x8xf32, strided<[8, 1]>>
}

// -----

// A slice past the end, a zero stride or a negative size stays dynamic; a slice
// that starts elsewhere is no copy of the whole buffer.
// CHECK-LABEL: @subview_not_folded
// CHECK:       memref.subview %{{.*}}[4] [%{{.*}}] [1]
// CHECK:       memref.subview %{{.*}}[0] [2] [%{{.*}}]
// CHECK:       memref.subview %{{.*}}[0] [%{{.*}}] [1]
// CHECK:       memref.subview %{{.*}}[1] [7] [1]
func.func @subview_not_folded(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %cm1 = arith.constant -1 : index
  %0 = memref.subview %a[4] [%c6] [1] : memref<8xf32> to memref<?xf32, strided<[1], offset: 4>>
  %1 = memref.subview %a[0] [2] [%c0] : memref<8xf32> to memref<2xf32, strided<[?]>>
  %2 = memref.subview %a[0] [%cm1] [1] : memref<8xf32> to memref<?xf32, strided<[1]>>
  %3 = memref.subview %a[1] [7] [1] : memref<8xf32> to memref<7xf32, strided<[1], offset: 1>>
  "test.use"(%0, %1, %2, %3) : (memref<?xf32, strided<[1], offset: 4>>, memref<2xf32, strided<[?]>>, memref<?xf32, strided<[1]>>, memref<7xf32, strided<[1], offset: 1>>) -> ()
  return
}

// -----

// CHECK-LABEL: @subview_of_forgetting_cast
// CHECK-SAME:  (%[[A:[^:]*]]: memref<4x8xf32>)
// CHECK-NEXT:  %[[S:.*]] = memref.subview %[[A]][1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
// CHECK-NEXT:  return %[[S]]
func.func @subview_of_forgetting_cast(%a: memref<4x8xf32>) -> memref<8xf32, strided<[1], offset: 8>> {
  %0 = memref.cast %a : memref<4x8xf32> to memref<?x8xf32>
  %1 = memref.subview %0[1, 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  return %1 : memref<8xf32, strided<[1], offset: 8>>
}

// -----

// A subview of a subview with other sizes, or an offset, is not the inner one.
// CHECK-LABEL: @subview_of_subview_kept
// CHECK:       %[[S:.*]] = memref.subview %{{.*}}[2] [%{{.*}}] [1]
// CHECK:       memref.subview %[[S]][0] [%{{.*}}] [1]
// CHECK:       memref.subview %[[S]][1] [%{{.*}}] [1]
func.func @subview_of_subview_kept(%a: memref<?xf32>, %n: index, %m: index) {
  %0 = memref.subview %a[2] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: 2>>
  %1 = memref.subview %0[0] [%m] [1] : memref<?xf32, strided<[1], offset: 2>> to memref<?xf32, strided<[1], offset: 2>>
  %2 = memref.subview %0[1] [%n] [1] : memref<?xf32, strided<[1], offset: 2>> to memref<?xf32, strided<[1], offset: 3>>
  "test.use"(%1, %2) : (memref<?xf32, strided<[1], offset: 2>>, memref<?xf32, strided<[1], offset: 3>>) -> ()
  return
}

// -----

// CHECK-LABEL: @reinterpret_cast_folds
// CHECK-SAME:  (%[[A:[^:]*]]: memref<2x3xf32>, %[[B:[^:]*]]: memref<?xi8>, %[[N:[^:]*]]: index)
// CHECK-NEXT:  %[[R:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[N]]], strides: [1]
// CHECK-NEXT:  return %[[A]], %[[R]]
func.func @reinterpret_cast_folds(%a: memref<2x3xf32>, %b: memref<?xi8>, %n: index) -> (memref<2x3xf32>, memref<?xi8>) {
  %0 = memref.reinterpret_cast %a to offset: [0], sizes: [2, 3], strides: [3, 1] : memref<2x3xf32> to memref<2x3xf32>
  %1 = memref.cast %b : memref<?xi8> to memref<16xi8>
  %2 = memref.reinterpret_cast %1 to offset: [0], sizes: [%n], strides: [1] : memref<16xi8> to memref<?xi8>
  return %0, %2 : memref<2x3xf32>, memref<?xi8>
}

// -----

// Another shape of the same type reinterprets for real; a subview that moves the
// start is not looked through.
// CHECK-LABEL: @reinterpret_cast_kept
// CHECK:       memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [3, 2], strides: [2, 1]
// CHECK:       %[[S:.*]] = memref.subview
// CHECK:       memref.reinterpret_cast %[[S]]
func.func @reinterpret_cast_kept(%a: memref<6xf32>, %b: memref<?xi8>, %n: index) -> (memref<3x2xf32>, memref<?xi8>) {
  %0 = memref.reinterpret_cast %a to offset: [0], sizes: [3, 2], strides: [2, 1] : memref<6xf32> to memref<3x2xf32>
  %1 = memref.subview %b[4] [%n] [1] : memref<?xi8> to memref<?xi8, strided<[1], offset: 4>>
  %2 = memref.reinterpret_cast %1 to offset: [0], sizes: [%n], strides: [1] : memref<?xi8, strided<[1], offset: 4>> to memref<?xi8>
  return %0, %2 : memref<3x2xf32>, memref<?xi8>
}

// -----

// CHECK-LABEL: @reinterpret_own_metadata_is_cast
// CHECK-SAME:  (%[[A:[^:]*]]: memref<4x?xf32>)
// CHECK-NEXT:  %[[C:.*]] = memref.cast %[[A]] : memref<4x?xf32> to memref<?x?xf32, strided<[?, 1]>>
// CHECK-NEXT:  return %[[C]]
func.func @reinterpret_own_metadata_is_cast(%a: memref<4x?xf32>) -> memref<?x?xf32, strided<[?, 1]>> {
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
  %0 = memref.reinterpret_cast %base to offset: [0], sizes: [%sizes#0, %sizes#1], strides: [%strides#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1]>>
  return %0 : memref<?x?xf32, strided<[?, 1]>>
}

// -----

// Swapped sizes are another view of the buffer.
// CHECK-LABEL: @reinterpret_other_metadata_kept
// CHECK:       memref.reinterpret_cast
func.func @reinterpret_other_metadata_kept(%a: memref<?x?xf32>) -> memref<?x?xf32, strided<[?, 1], offset: ?>> {
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<?x?xf32> -> memref<f32>, index, index, index, index, index
  %0 = memref.reinterpret_cast %base to offset: [%off], sizes: [%sizes#1, %sizes#0], strides: [%strides#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  return %0 : memref<?x?xf32, strided<[?, 1], offset: ?>>
}

// -----

// CHECK-LABEL: @transposes_compose
// CHECK-SAME:  (%[[A:[^:]*]]: memref<2x3x4xf32>)
// CHECK-NEXT:  %[[T:.*]] = memref.transpose %[[A]] (d0, d1, d2) -> (d1, d2, d0) : memref<2x3x4xf32> to memref<3x4x2xf32, strided<[4, 1, 12]>>
// CHECK-NEXT:  return %[[T]], %[[A]]
func.func @transposes_compose(%a: memref<2x3x4xf32>) -> (memref<3x4x2xf32, strided<[4, 1, 12]>>, memref<2x3x4xf32>) {
  %0 = memref.transpose %a (d0, d1, d2) -> (d2, d1, d0) : memref<2x3x4xf32> to memref<4x3x2xf32, strided<[1, 4, 12]>>
  %1 = memref.transpose %0 (d0, d1, d2) -> (d1, d0, d2) : memref<4x3x2xf32, strided<[1, 4, 12]>> to memref<3x4x2xf32, strided<[4, 1, 12]>>
  %2 = memref.transpose %0 (d0, d1, d2) -> (d2, d1, d0) : memref<4x3x2xf32, strided<[1, 4, 12]>> to memref<2x3x4xf32>
  return %1, %2 : memref<3x4x2xf32, strided<[4, 1, 12]>>, memref<2x3x4xf32>
}

// -----

// A transpose of a cast stays a transpose of the cast.
// CHECK-LABEL: @transpose_of_cast_kept
// CHECK:       %[[C:.*]] = memref.cast
// CHECK:       memref.transpose %[[C]]
func.func @transpose_of_cast_kept(%a: memref<2x4xf32>) -> memref<?x?xf32, strided<[1, ?]>> {
  %0 = memref.cast %a : memref<2x4xf32> to memref<?x?xf32>
  %1 = memref.transpose %0 (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  return %1 : memref<?x?xf32, strided<[1, ?]>>
}

// -----

// CHECK-LABEL: @memory_space_casts_collapse
// CHECK-SAME:  (%[[A:[^:]*]]: memref<4xf32>)
// CHECK-NEXT:  %[[M:.*]] = memref.memory_space_cast %[[A]] : memref<4xf32> to memref<4xf32, 3>
// CHECK-NEXT:  return %[[M]], %[[A]]
func.func @memory_space_casts_collapse(%a: memref<4xf32>) -> (memref<4xf32, 3>, memref<4xf32>) {
  %0 = memref.memory_space_cast %a : memref<4xf32> to memref<4xf32, 1>
  %1 = memref.memory_space_cast %0 : memref<4xf32, 1> to memref<4xf32, 3>
  %2 = memref.memory_space_cast %0 : memref<4xf32, 1> to memref<4xf32>
  return %1, %2 : memref<4xf32, 3>, memref<4xf32>
}

// -----

// CHECK-LABEL: @memory_space_cast_kept
// CHECK:       memref.memory_space_cast %{{.*}} : memref<4xf32> to memref<4xf32, 1>
func.func @memory_space_cast_kept(%a: memref<4xf32>) -> memref<4xf32, 1> {
  %0 = memref.memory_space_cast %a : memref<4xf32> to memref<4xf32, 1>
  return %0 : memref<4xf32, 1>
}

// -----

// CHECK-LABEL: @trivial_copies_erased
// CHECK-NEXT:  return
func.func @trivial_copies_erased(%a: memref<?xf32>, %e: memref<0x4xf32>, %b: memref<?x4xf32>) {
  memref.copy %a, %a : memref<?xf32> to memref<?xf32>
  memref.copy %e, %b : memref<0x4xf32> to memref<?x4xf32>
  return
}

// -----

// A copy between two buffers, or between overlapping views of one, is kept (a
// copy of a view of a buffer onto the buffer itself is a self-copy, erased).
// CHECK-LABEL: @copies_kept
// CHECK-COUNT-2: memref.copy
// CHECK-NOT:   memref.copy
func.func @copies_kept(%a: memref<4xf32>, %b: memref<4xf32>) {
  %v = memref.cast %a : memref<4xf32> to memref<?xf32>
  %s = memref.subview %a[1] [3] [1] : memref<4xf32> to memref<3xf32, strided<[1], offset: 1>>
  %t = memref.subview %a[0] [3] [1] : memref<4xf32> to memref<3xf32, strided<[1]>>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.copy %s, %t : memref<3xf32, strided<[1], offset: 1>> to memref<3xf32, strided<[1]>>
  memref.copy %v, %a : memref<?xf32> to memref<4xf32>
  return
}

// -----

// Any constant-like op gives a static size: `index.constant` too.
// CHECK-LABEL: @alloc_size_from_index_constant
// CHECK-NEXT:  %[[A:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK-NEXT:  %[[C:.*]] = memref.cast %[[A]] : memref<2x3xf32> to memref<?x3xf32>
// CHECK-NEXT:  return %[[C]]
func.func @alloc_size_from_index_constant() -> memref<?x3xf32> {
  %two = index.constant 2
  %a = memref.alloc(%two) : memref<?x3xf32>
  return %a : memref<?x3xf32>
}

// -----

// A scope that allocates nothing on its stack is its body; so is one that ends a
// function, whose scope then holds its allocations. A parallel loop is a scope of
// its own: its allocas are not the outer scope's.
// CHECK-LABEL: @alloca_scopes_inlined
// CHECK-NOT:   memref.alloca_scope
// CHECK:       "test.region"() ({
// CHECK-NEXT:    memref.store
// CHECK:         affine.parallel (%[[I:.*]]) = (0) to (8) {
// CHECK-NEXT:      memref.alloca(%[[I]]) : memref<?xi8>
// CHECK:       %[[N:.*]] = "test.count"
// CHECK-NEXT:  memref.alloca(%[[N]]) : memref<?xi8>
func.func @alloca_scopes_inlined(%m: memref<index>, %v: index) {
  "test.region"() ({
    memref.alloca_scope {
      memref.store %v, %m[] : memref<index>
      affine.parallel (%i) = (0) to (8) {
        %a = memref.alloca(%i) : memref<?xi8>
        "test.use"(%a) : (memref<?xi8>) -> ()
      }
    }
    "test.terminator"() : () -> ()
  }) : () -> ()
  memref.alloca_scope {
    %n = "test.count"() : () -> index
    %b = memref.alloca(%n) : memref<?xi8>
    "test.use"(%b) : (memref<?xi8>) -> ()
  }
  return
}

// -----

// An alloca whose size is known outside leaves a scope that ends an unknown
// region which itself ends the function.
// CHECK-LABEL: @alloca_hoisted
// CHECK:       %[[N:.*]] = "test.count"
// CHECK-NEXT:  %[[H:.*]] = memref.alloca(%[[N]]) : memref<?xi8>
// CHECK-NEXT:  "test.region"() ({
// CHECK-NEXT:    memref.alloca_scope {
// CHECK-NEXT:      "test.use"(%[[H]])
func.func @alloca_hoisted() {
  %n = "test.count"() : () -> index
  "test.region"() ({
    memref.alloca_scope {
      %a = memref.alloca(%n) : memref<?xi8>
      "test.use"(%a) : (memref<?xi8>) -> ()
    }
    "test.terminator"() : () -> ()
  }) : () -> ()
  return
}

// -----

// With more work after the scope, or after the region, the alloca stays (its
// lifetime would grow).
// CHECK-LABEL: @allocas_kept
// CHECK:       "test.region"() ({
// CHECK-NEXT:    memref.alloca_scope {
// CHECK-NEXT:      memref.alloca
// CHECK:         "test.op"()
// CHECK:       "test.region"() ({
// CHECK-NEXT:    memref.alloca_scope {
// CHECK-NEXT:      memref.alloca
// CHECK:       "test.op"()
func.func @allocas_kept(%n: index) {
  "test.region"() ({
    memref.alloca_scope {
      %b = memref.alloca(%n) : memref<?xi8>
      "test.use"(%b) : (memref<?xi8>) -> ()
    }
    "test.op"() : () -> ()
    "test.terminator"() : () -> ()
  }) : () -> ()
  "test.region"() ({
    memref.alloca_scope {
      %c = memref.alloca(%n) : memref<?xi8>
      "test.use"(%c) : (memref<?xi8>) -> ()
    }
    "test.terminator"() : () -> ()
  }) : () -> ()
  "test.op"() : () -> ()
  return
}
