// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// memref IR that mlir-opt-22 rejects, each one mistake away from valid IR, with
// mlir-opt's messages. xDSL alone accepts most of these.

func.func @cast_shape(%a: memref<4xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible}}
  %0 = memref.cast %a : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @cast_memory_space(%a: memref<4xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<4xf32, 1>' are cast incompatible}}
  %0 = memref.cast %a : memref<4xf32> to memref<4xf32, 1>
  return
}

// -----

func.func @cast_unranked_to_unranked(%u: memref<*xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<*xf32>' and result type 'memref<*xf32>' are cast incompatible}}
  %0 = memref.cast %u : memref<*xf32> to memref<*xf32>
  return
}

// -----

func.func @cast_strides(%s: memref<4xf32, strided<[2]>>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32, strided<[2]>>' and result type 'memref<4xf32>' are cast incompatible}}
  %0 = memref.cast %s : memref<4xf32, strided<[2]>> to memref<4xf32>
  return
}

// -----

func.func @copy_element_types(%a: memref<4xf32>, %b: memref<4xf16>) {
  // expected-error @+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<4xf16>
  return
}

// -----

func.func @copy_shapes(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error @+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @memory_space_cast_shape(%a: memref<4xf32>) {
  // expected-error @+1 {{'memref.memory_space_cast' op operand type 'memref<4xf32>' and result type 'memref<?xf32, 1>' are cast incompatible}}
  %0 = memref.memory_space_cast %a : memref<4xf32> to memref<?xf32, 1>
  return
}

// -----

func.func @collapse_size(%r: memref<4x8xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op collapsed dim size (31) must equal reassociation group size (32)}}
  %0 = memref.collapse_shape %r [[0, 1]] : memref<4x8xf32> into memref<31xf32>
  return
}

// -----

func.func @expand_output_shape(%m: memref<32xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op invalid output shape provided at pos 1}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [4, 7] : memref<32xf32> into memref<4x8xf32>
  return
}

// -----

func.func @atomic_kind_type(%w: i32, %n: memref<4xi32>, %i: index) {
  // expected-error @+1 {{'memref.atomic_rmw' op with kind 'addf' expects a floating-point type}}
  %0 = memref.atomic_rmw addf %w, %n[%i] : (i32, memref<4xi32>) -> i32
  return
}

// -----

func.func @atomic_subscripts(%v: f32, %m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4x4xf32>) -> f32
  return
}

// -----

// expected-error @+1 {{'memref.global' op alignment attribute value 3 is not a positive power of 2}}
memref.global @unaligned : memref<2xf32> = uninitialized {alignment = 3 : i64}

// -----

// expected-error @+1 {{'memref.global' op initial value expected to be of type 'tensor<2xf32>', but was of type 'tensor<3xf32>'}}
"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> ()
