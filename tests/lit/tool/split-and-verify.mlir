// Chunks are independent: an error in one does not stop the others, line numbers are
// those of the whole file, and the exit code reports the failure.
// RUN: not memplan-opt %s --split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// The same file under --verify-diagnostics matches the expected-error comment.
// RUN: memplan-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @first
func.func @first(%a: i32) -> i32 {
  // CHECK: arith.addi
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

func.func @second(%a: memref<4xf32>) {
  // ERR: split-and-verify.mlir:[[# @LINE + 2]]:3: error: 'memref.load' op expected an index for each dimension
  // expected-error @+1 {{expected an index for each dimension}}
  %v = "memref.load"(%a) : (memref<4xf32>) -> f32
  return
}

// -----

// CHECK: // -----
// CHECK-LABEL: func.func @third
func.func @third() {
  return
}
