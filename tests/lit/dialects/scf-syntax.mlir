// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | FileCheck %s

// scf as MLIR reads it: `-> i32` without parentheses on scf.if and scf.for (printed
// with them); a result-less scf.index_switch's default region may leave out its
// yield, so `default {}` is an empty default (printed `default {` on its own line
// as MLIR).

// CHECK-LABEL: @arrow_types
// CHECK-SAME: (%[[C:.+]]: i1, %[[I:.+]]: index, %[[A:.+]]: i32)
func.func @arrow_types(%c: i1, %i: index, %a: i32) -> i32 {
  // CHECK: %[[R:.+]] = scf.if %[[C]] -> (i32) {
  // CHECK-NEXT: scf.yield %[[A]] : i32
  // CHECK-NEXT: } else {
  %0 = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    %1 = arith.muli %a, %a : i32
    scf.yield %1 : i32
  }
  // CHECK: scf.for %{{.+}} = %[[I]] to %[[I]] step %[[I]] iter_args(%{{.+}} = %[[R]]) -> (i32) {
  %2 = scf.for %k = %i to %i step %i iter_args(%x = %0) -> i32 {
    scf.yield %x : i32
  }
  return %2 : i32
}

// -----

// CHECK-LABEL: @empty_defaults
// CHECK-SAME: (%[[I:.+]]: index, %[[A:.+]]: i32)
func.func @empty_defaults(%i: index, %a: i32) -> i32 {
  // CHECK: scf.index_switch %[[I]]
  // CHECK-NEXT: case 3 {
  // CHECK-NEXT: func.call @side_effect()
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: default {
  // CHECK-NEXT: }
  scf.index_switch %i
  case 3 {
    func.call @side_effect() : () -> ()
    scf.yield
  }
  default {}
  // CHECK: %[[S:.+]] = scf.index_switch %[[I]] -> i32
  // CHECK: default {
  // CHECK-NEXT: scf.yield %[[A]] : i32
  %0 = scf.index_switch %i -> i32
  case 1 {
    %1 = arith.addi %a, %a : i32
    scf.yield %1 : i32
  }
  default {
    scf.yield %a : i32
  }
  return %0 : i32
}
func.func private @side_effect()

// -----

// scf.execute_region has no implicit terminator: MLIR prints its scf.yield with or
// without results (xDSL drops a result-less one, which MLIR then rejects).
// CHECK-LABEL: func.func @execute_region
// CHECK:       scf.execute_region {
// CHECK-NEXT:    func.call @side_effect() : () -> ()
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:  }
// CHECK:       scf.execute_region -> (i32) {
// CHECK:         scf.yield %{{.+}} : i32
func.func @execute_region(%a: i32) -> i32 {
  scf.execute_region {
    func.call @side_effect() : () -> ()
    scf.yield
  }
  %0 = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  return %0 : i32
}
func.func private @side_effect()
