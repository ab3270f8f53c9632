// RUN: memplan-opt %s --split-input-file | FileCheck %s --check-prefix=PRINT
// RUN: memplan-opt %s --split-input-file --canonicalize | FileCheck %s

// util's types, attributes and small ops read and print as IREE writes them.

// PRINT: util.global private @list = #util.uninitialized : !util.list<?>
util.global private @list = #util.uninitialized : !util.list<?>
// PRINT: util.global private @typed = #util.uninitialized : !util.list<i32>
util.global private @typed = #util.uninitialized : !util.list<i32>
// PRINT: util.global private mutable @v : tensor<4xf32>
util.global private mutable @v : tensor<4xf32>

// Loads and stores through a global's address are direct ones.

// PRINT-LABEL: @indirect
// CHECK-LABEL: @indirect
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
util.func public @indirect(%x: tensor<4xf32>) -> (tensor<4xf32>, !util.list<?>) {
  // PRINT: %[[P:.+]] = util.global.address @v : !util.ptr<tensor<4xf32>>
  %p = util.global.address @v : !util.ptr<tensor<4xf32>>
  // PRINT: util.global.load.indirect %[[P]] : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
  // CHECK-NOT: util.global.address
  // CHECK: %[[L:.+]] = util.global.load @v : tensor<4xf32>
  %l = util.global.load.indirect %p : !util.ptr<tensor<4xf32>> -> tensor<4xf32>
  // PRINT: util.global.store.indirect %{{.+}}, %[[P]] : tensor<4xf32> -> !util.ptr<tensor<4xf32>>
  // CHECK: util.global.store %[[X]], @v : tensor<4xf32>
  util.global.store.indirect %x, %p : tensor<4xf32> -> !util.ptr<tensor<4xf32>>
  %list = util.global.load @list : !util.list<?>
  // PRINT: util.optimization_barrier {test.tag} %{{.+}} : tensor<4xf32>
  // CHECK: util.optimization_barrier
  %b = util.optimization_barrier {test.tag} %l : tensor<4xf32>
  util.return %b, %list : tensor<4xf32>, !util.list<?>
}

// -----

// Outside scf, util.scf.unreachable ends its block as util.unreachable and what
// follows goes; inside scf.if (written `-> i32`, as MLIR reads it) the rest of
// the region goes and its yield gives poison.

util.func private @effect()

// CHECK-LABEL: @unreachable_outside_scf
util.func public @unreachable_outside_scf() -> i32 {
  // CHECK-NEXT: util.unreachable "gone"
  // CHECK-NEXT: }
  util.scf.unreachable "gone"
  %c1 = arith.constant 1 : i32
  util.call @effect() : () -> ()
  util.return %c1 : i32
}

// CHECK-LABEL: @unreachable_in_scf
// CHECK-SAME: (%[[C:.+]]: i1)
util.func public @unreachable_in_scf(%c: i1) -> i32 {
  // CHECK: %[[P:.+]] = ub.poison : i32
  // CHECK: scf.if %[[C]] -> (i32) {
  // CHECK-NEXT: util.call @effect()
  // CHECK-NEXT: util.scf.unreachable "in scf"
  // CHECK-NEXT: scf.yield %[[P]] : i32
  %r = scf.if %c -> i32 {
    util.call @effect() : () -> ()
    util.scf.unreachable "in scf"
    %c2 = arith.constant 2 : i32
    scf.yield %c2 : i32
  } else {
    %c3 = arith.constant 3 : i32
    scf.yield %c3 : i32
  }
  util.return %r : i32
}
