// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p canonicalize,cse | FileCheck %s --check-prefix=KEPT

// IREE's test assertions (`check`), in the forms IREE's e2e tests write them; they
// report to the runtime, so cleanup keeps every one, repeated ones too.

// CHECK-LABEL: @assertions
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>, %[[I:[^:]+]]: i32, %[[D:[^:]+]]: !hal.device, %[[V:[^:]+]]: !hal.buffer_view, %[[T:[^:]+]]: tensor<2xi32>)
// KEPT-LABEL: @assertions
util.func public @assertions(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: i32, %d: !hal.device, %v: !hal.buffer_view, %t: tensor<2xi32>) {
  // CHECK: check.expect_true(%[[I]]) : i32
  // KEPT-COUNT-2: check.expect_true
  check.expect_true(%i) : i32
  check.expect_true(%i) : i32
  // CHECK: check.expect_false(%[[I]]) : i32
  check.expect_false(%i) : i32
  // CHECK: check.expect_all_true<%[[D]]>(%[[V]]) : !hal.buffer_view
  check.expect_all_true<%d>(%v) : !hal.buffer_view
  // CHECK: check.expect_all_true(%[[T]]) : tensor<2xi32>
  check.expect_all_true(%t) : tensor<2xi32>
  // CHECK: check.expect_eq(%[[A]], %[[B]]) : tensor<4xf32>
  check.expect_eq(%a, %b) : tensor<4xf32>
  // CHECK: check.expect_eq<%[[D]]>(%[[V]], %[[V]]) : !hal.buffer_view
  check.expect_eq<%d>(%v, %v) : !hal.buffer_view
  // CHECK: check.expect_eq_const(%[[T]], dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%t, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  // CHECK: check.expect_almost_eq(%[[A]], %[[B]]) : tensor<4xf32>
  check.expect_almost_eq(%a, %b) : tensor<4xf32>
  // CHECK: check.expect_almost_eq(%[[A]], %[[B]], atol 5.000000e-01, rtol 2.500000e-01) : tensor<4xf32>
  check.expect_almost_eq(%a, %b, atol 5.000000e-01, rtol 2.500000e-01) : tensor<4xf32>
  // CHECK: check.expect_almost_eq_const(%[[A]], dense<1.000000e+00> : tensor<4xf32>, atol 1.250000e-01) : tensor<4xf32>
  check.expect_almost_eq_const(%a, dense<1.000000e+00> : tensor<4xf32>, atol 1.250000e-01) : tensor<4xf32>
  util.return
}
