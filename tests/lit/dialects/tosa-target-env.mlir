// RUN: memplan-opt %s | FileCheck %s
// RUN: memplan-opt %s --mlir-print-op-generic | memplan-opt | FileCheck %s
// A TOSA input's module keeps its target environment through the stream phase;
// xDSL models tosa only in part, so the attribute is kept as its text.

// CHECK: module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_fp], extensions = [bf16]>}
// CHECK: util.func public @f
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = none, profiles = [pro_fp], extensions = [bf16]>} {
  util.func public @f() {
    util.return
  }
}
