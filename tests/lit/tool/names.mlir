// SSA names as mlir-opt prints them: source names dropped, op name hints, %argN,
// numbers, `_N` on clashes, ^bbN labels with predecessor comments. Each case was
// compared by hand with mlir-opt-22 (docs/design/memplan-opt.md).
// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect --keep-names | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @constants
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %c0_0 = arith.constant 0 : index
// KEEP-LABEL: func.func @constants
// KEEP-NEXT: %zero = arith.constant 0 : index
func.func @constants() {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %m = arith.constant -1 : i32
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %again = arith.constant 0 : index
  "test.use"(%zero, %one, %m, %t, %f, %x, %again) : (index, i32, i32, i1, i1, f32, index) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @memref_hints
// CHECK-SAME: (%arg0: index, %arg1: memref<4xf32>)
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %alloc = memref.alloc() : memref<16xi8>
// CHECK-NEXT: %alloca = memref.alloca() : memref<8xf32>
// CHECK-NEXT: %view = memref.view %alloc[%c0][] : memref<16xi8> to memref<4xf32>
// CHECK-NEXT: %subview = memref.subview %alloca[0] [4] [1]
// CHECK-NEXT: %cast = memref.cast %arg1 : memref<4xf32> to memref<?xf32>
// CHECK-NEXT: %dim = memref.dim %cast, %c0 : memref<?xf32>
// CHECK-NEXT: %reinterpret_cast = memref.reinterpret_cast
// CHECK-NEXT: %expand_shape = memref.expand_shape
// CHECK-NEXT: %collapse_shape = memref.collapse_shape %expand_shape
// CHECK-NEXT: %memspacecast = memref.memory_space_cast
// CHECK-NEXT: %0 = memref.load %arg1[%c0] : memref<4xf32>
// CHECK-NEXT: %1 = arith.addi %arg0, %dim : index
// CHECK-NEXT: %alloc_0 = memref.alloc() : memref<16xi8>
func.func @memref_hints(%n: index, %m: memref<4xf32>) {
  %c = arith.constant 0 : index
  %raw = memref.alloc() : memref<16xi8>
  %stack = memref.alloca() : memref<8xf32>
  %v = memref.view %raw[%c][] : memref<16xi8> to memref<4xf32>
  %s = memref.subview %stack[0][4][1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %dyn = memref.cast %m : memref<4xf32> to memref<?xf32>
  %d = memref.dim %dyn, %c : memref<?xf32>
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<4xf32> to memref<4xf32>
  %e = memref.expand_shape %m [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  %k = memref.collapse_shape %e [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  %sp = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>
  %l = memref.load %m[%c] : memref<4xf32>
  %sum = arith.addi %n, %d : index
  %raw2 = memref.alloc() : memref<16xi8>
  "test.use"(%v, %s, %r, %k, %sp, %l, %sum, %raw2) : (memref<4xf32>, memref<4xf32, strided<[1]>>, memref<4xf32>, memref<4xf32>, memref<4xf32, 1>, f32, index, memref<16xi8>) -> ()
  return
}

// -----

// Results of a multi-result op are `%N:k` and `%N#i`; nested regions continue the
// argument numbering.
// CHECK-LABEL: func.func @groups_and_regions
// CHECK-NEXT: %0:2 = "test.two"() : () -> (index, index)
// CHECK-NEXT: %1 = scf.for %arg1 = %0#0 to %0#1 step %arg0 iter_args(%arg2 = %arg0) -> (index) {
// CHECK-NEXT:   scf.yield %arg2 : index
// KEEP-LABEL: func.func @groups_and_regions
// KEEP-NEXT: %pair, %pair_0 = "test.two"()
func.func @groups_and_regions(%step: index) -> index {
  %pair:2 = "test.two"() : () -> (index, index)
  %r = scf.for %i = %pair#0 to %pair#1 step %step iter_args(%acc = %step) -> (index) {
    scf.yield %acc : index
  }
  return %r : index
}

// -----

// Blocks are ^bbN by position, whatever the source called them, with MLIR's
// predecessor comments.
// CHECK-LABEL: func.func @blocks
// CHECK:      cf.cond_br %arg0, ^bb1(%arg1 : index), ^bb2
// CHECK-NEXT: ^bb1(%0: index):  // pred: ^bb0
// CHECK-NEXT:   cf.br ^bb2
// CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:   return
// CHECK-NEXT: ^bb3:  // no predecessors
// KEEP-LABEL: func.func @blocks
// KEEP: ^left(%x: index):
func.func @blocks(%c: i1, %v: index) {
  cf.cond_br %c, ^left(%v : index), ^done
^left(%x: index):
  cf.br ^done
^done:
  return
^dead:
  return
}

// -----

// Affine maps print as #map aliases, as MLIR's builtin dialect asks; identity
// layouts are dropped.
// CHECK: #map = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-LABEL: func.func @aliases
// CHECK-SAME: (%arg0: memref<4xf32, #map>, %arg1: memref<4xf32>)
func.func @aliases(%a: memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>, %b: memref<4xf32, affine_map<(d0) -> (d0)>>) {
  return
}

// -----

// An op that names a range of results prints it as one group, `%sizes:2`, used as
// `%sizes#1`.
// CHECK-LABEL: func.func @named_groups
// CHECK-NEXT: %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg0
// CHECK-NEXT: %base_buffer_0, %offset_1, %sizes_2, %strides_3 = memref.extract_strided_metadata %arg1
// CHECK-NEXT: return %sizes#1, %strides#0 : index, index
func.func @named_groups(%a: memref<8x2xf32>, %m: memref<4xf32>) -> (index, index) {
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<8x2xf32> -> memref<f32>, index, index, index, index, index
  %b, %o, %s, %t = memref.extract_strided_metadata %m : memref<4xf32> -> memref<f32>, index, index, index
  return %sizes#1, %strides#0 : index, index
}
