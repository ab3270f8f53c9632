// Pass options and anchored pipelines as mlir-opt takes them.
// RUN: memplan-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(cse))' | FileCheck %s --check-prefix=FUNC
// RUN: memplan-opt %s --split-input-file --pass-pipeline='builtin.module(util.func(cse))' | FileCheck %s --check-prefix=UTIL
// RUN: memplan-opt %s --split-input-file --pass-pipeline='builtin.module(util.initializer(cse))' | FileCheck %s --check-prefix=INIT
// RUN: memplan-opt %s --split-input-file -cse | FileCheck %s --check-prefix=ALL
// Options as one quoted string, in braces, and unquoted nested pipelines.
// RUN: memplan-opt %s --split-input-file --canonicalize='max-iterations=3 test-convergence' -cse | FileCheck %s --check-prefix=ALL
// RUN: memplan-opt %s --split-input-file '--canonicalize={max-iterations=3 test-convergence=true}' -cse | FileCheck %s --check-prefix=ALL
// RUN: memplan-opt %s --split-input-file -p 'fixed-point-iterator{pipeline=canonicalize,cse max-iterations=4}' | FileCheck %s --check-prefix=ALL
// RUN: memplan-opt %s --split-input-file -p 'fixed-point-iterator{pipeline="canonicalize,cse" max-iterations=4}' | FileCheck %s --check-prefix=ALL
// test-convergence fails when the patterns need more sweeps than allowed.
// RUN: not memplan-opt %s --split-input-file --canonicalize='max-iterations=1 test-convergence' 2>&1 | FileCheck %s --check-prefix=CONVERGE
// CONVERGE: error: canonicalize: the patterns did not converge within max-iterations=1 (test-convergence)
// Bad option names and values are named, with the closest spelling.
// RUN: not memplan-opt %s --canonicalize='max-iteration=2' 2>&1 | FileCheck %s --check-prefix=BADNAME
// BADNAME: error: invalid options for pass 'canonicalize': no option 'max-iteration' {{.*}}; did you mean 'max-iterations'?
// RUN: not memplan-opt %s --pass-pipeline='builtin.module(func.func(scf.for(cse)))' 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: error: pass anchors nest only below 'builtin.module'

// FUNC-LABEL: func.func @in_func
// FUNC-COUNT-1: arith.addi
// FUNC-NOT: arith.addi
// FUNC-LABEL: util.func public @in_util_func
// FUNC-COUNT-2: arith.addi
// UTIL-LABEL: func.func @in_func
// UTIL-COUNT-2: arith.addi
// UTIL-LABEL: util.func public @in_util_func
// UTIL-COUNT-1: arith.addi
// UTIL-NOT: arith.addi
// INIT-LABEL: func.func @in_func
// INIT-COUNT-2: arith.addi
// INIT-LABEL: util.func public @in_util_func
// INIT-COUNT-2: arith.addi
// ALL-LABEL: func.func @in_func
// ALL-COUNT-1: arith.addi
// ALL-NOT: arith.addi
// ALL-LABEL: util.func public @in_util_func
// ALL-COUNT-1: arith.addi
// ALL-NOT: arith.addi
func.func @in_func(%a: index) -> (index, index) {
  %0 = arith.addi %a, %a : index
  %1 = arith.addi %a, %a : index
  return %0, %1 : index, index
}
util.func public @in_util_func(%a: index) -> (index, index) {
  %0 = arith.addi %a, %a : index
  %1 = arith.addi %a, %a : index
  util.return %0, %1 : index, index
}

// -----

// INIT-LABEL: util.initializer
// INIT-COUNT-1: arith.muli
// INIT-NOT: arith.muli
// FUNC-LABEL: util.initializer
// FUNC-COUNT-2: arith.muli
// UTIL-LABEL: util.initializer
// UTIL-COUNT-2: arith.muli
// ALL-LABEL: util.initializer
// ALL-NOT: arith.muli{{.*}}arith.muli
// CONVERGE-NOT: error
util.global private mutable @g : index
util.initializer {
  %c2 = arith.constant 2 : index
  %0 = arith.muli %c2, %c2 : index
  %1 = arith.muli %c2, %c2 : index
  %2 = arith.addi %0, %1 : index
  util.global.store %2, @g : index
  util.return
}
