// RUN: memplan-opt %s | FileCheck %s
// Results print under the names IREE's ops give them (getAsmResultNames), so
// later numbers match iree-opt's.

// CHECK-LABEL: @names
util.func public @names(%d: !hal.device, %n: index) -> (!hal.fence, !stream.resource<*>, index) {
  // CHECK: %fence = hal.fence.create
  %0 = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT: %empty = stream.tensor.empty : tensor<2x3xf16> in !stream.resource<*>{%arg1}
  %1 = stream.tensor.empty : tensor<2x3xf16> in !stream.resource<*>{%n}
  // CHECK-NEXT: %empty_0 = stream.tensor.empty : tensor<0xf16> in !stream.resource<*>{%arg1}
  %2 = stream.tensor.empty : tensor<0xf16> in !stream.resource<*>{%n}
  // CHECK-NEXT: %0 = arith.addi %arg1, %arg1 : index
  %3 = arith.addi %n, %n : index
  util.return %0, %1, %3 : !hal.fence, !stream.resource<*>, index
}
