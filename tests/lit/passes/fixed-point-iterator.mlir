// RUN: memplan-opt %s --split-input-file -p 'fixed-point-iterator{pipeline="fold-globals,fuse-globals"}' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'iree-util-fixed-point-iterator{pipeline="fold-globals,fuse-globals" debug}' -o %t.discard 2>&1 | FileCheck %s --check-prefix=ITER
// RUN: not memplan-opt %s --split-input-file -p 'fixed-point-iterator{pipeline="fold-globals,fuse-globals" max-iterations=1}' -o %t 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not test -e %t
// RUN: not memplan-opt %s -p 'fixed-point-iterator{pipeline="fold-globals,no-such-pass"}' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: memplan-opt %s --split-input-file -p 'fixed-point-iterator{pipeline="fixed-point-iterator{pipeline=\"fold-globals\"},fuse-globals" debug}' 2>&1 | FileCheck %s --check-prefix=NESTED

// Nothing to do: one iteration confirms it.

// ITER: remark: fixed-point-iterator: iteration 1: no change; converged after 1 iteration
// NESTED: remark: fixed-point-iterator: iteration 1: no change; converged after 1 iteration

// CHECK-LABEL: @use_clean(
// CHECK-NEXT: util.global.load @clean
util.global private mutable @clean : index
util.func @use_clean(%arg0: index) -> index {
  %0 = util.global.load @clean : index
  util.global.store %arg0, @clean : index
  util.return %0 : index
}

// -----

// fold-globals makes @a and @b immutable, fuse-globals fuses them: one productive
// iteration, then one that changes nothing. The loop keeps no attribute of its own
// on the module.

// ITER-NEXT: remark: fixed-point-iterator: iteration 1: changed by fold-globals, fuse-globals
// ITER-NEXT: remark: fixed-point-iterator: iteration 2: no change; converged after 2 iterations

// NESTED-NEXT: remark: fixed-point-iterator: iteration 1: changed by fixed-point-iterator, fuse-globals
// NESTED-NEXT: remark: fixed-point-iterator: iteration 2: no change; converged after 2 iterations

// LIMIT: fixed-point-iterator.mlir:{{[0-9]+}}:1: error: fixed-point-iterator: the pipeline 'fold-globals,fuse-globals' did not converge within 1 iteration (the last one was changed by fold-globals, fuse-globals); raise max-iterations or fix the pass that keeps changing the IR

// CHECK-LABEL: module {
// CHECK-NEXT: util.global private @a : index
// CHECK-NEXT: util.initializer
util.global private mutable @a : index
util.global private mutable @b : index
util.initializer {
  %c1 = arith.constant 1 : index
  %0 = arith.addi %c1, %c1 : index
  // CHECK: util.global.store %{{.+}}, @a : index
  util.global.store %0, @a : index
  // CHECK-NOT: util.global.store
  util.global.store %0, @b : index
  util.return
}
// CHECK-LABEL: @read(
util.func @read() -> (index, index) {
  // CHECK: util.global.load immutable @a : index
  // CHECK: util.global.load immutable @a : index
  %0 = util.global.load @a : index
  %1 = util.global.load @b : index
  util.return %0, %1 : index, index
}

// -----

// fuse-globals fuses @q into @p; only then is @c a chained global (only ever stored
// loads of @p), which fold-globals replaces by @p in the next iteration.

// ITER-NEXT: remark: fixed-point-iterator: iteration 1: changed by fold-globals, fuse-globals
// ITER-NEXT: remark: fixed-point-iterator: iteration 2: changed by fold-globals
// ITER-NEXT: remark: fixed-point-iterator: iteration 3: no change; converged after 3 iterations

// NESTED-NEXT: remark: fixed-point-iterator: iteration 1: changed by fixed-point-iterator, fuse-globals
// NESTED-NEXT: remark: fixed-point-iterator: iteration 2: changed by fixed-point-iterator
// NESTED-NEXT: remark: fixed-point-iterator: iteration 3: no change; converged after 3 iterations

// LIMIT: fixed-point-iterator.mlir:{{[0-9]+}}:1: error: fixed-point-iterator: the pipeline 'fold-globals,fuse-globals' did not converge within 1 iteration
// LIMIT-NOT: error

// CHECK-LABEL: module {
// CHECK-NEXT: util.global private @p : index
// CHECK-NEXT: util.initializer
util.global private mutable @p : index
util.global private mutable @q : index
util.global private mutable @c : index
util.initializer {
  %c1 = arith.constant 1 : index
  %0 = arith.addi %c1, %c1 : index
  util.global.store %0, @p : index
  util.global.store %0, @q : index
  util.return
}
// CHECK-LABEL: @copy_p(
util.func @copy_p() {
  // CHECK-NEXT: util.return
  %0 = util.global.load @p : index
  util.global.store %0, @c : index
  util.return
}
// CHECK-LABEL: @copy_q(
util.func @copy_q() {
  // CHECK-NEXT: util.return
  %0 = util.global.load @q : index
  util.global.store %0, @c : index
  util.return
}
// CHECK-LABEL: @read_c(
util.func @read_c() -> index {
  // CHECK-NEXT: util.global.load immutable @p : index
  %0 = util.global.load @c : index
  util.return %0 : index
}

// BAD: error: in the pipeline of fixed-point-iterator: 'no-such-pass' does not refer to a registered pass
