// --verify-diagnostics fails on an expectation nothing produced and on an error
// nobody expected.
// RUN: not memplan-opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 1]]:4: error: expected error "never emitted" was not produced
// expected-error @+1 {{never emitted}}
func.func @fine() {
  return
}

// -----

func.func @broken(%a: memref<4xf32>) {
  // CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 1]]:3: error: unexpected error: 'memref.load' op
  %v = "memref.load"(%a) : (memref<4xf32>) -> f32
  return
}
