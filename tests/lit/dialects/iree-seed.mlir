// RUN: memplan-opt %examples/iree_seed_initializer.mlir | FileCheck %s
// The print is the input, character for character (but for the blank line mlir-opt
// and iree-opt print at the end).
// RUN: cp %examples/iree_seed_initializer.mlir %t.expected && echo >> %t.expected
// RUN: memplan-opt %examples/iree_seed_initializer.mlir | diff %t.expected -
// RUN: memplan-opt %examples/iree_seed_initializer.mlir --mlir-print-op-generic | memplan-opt | FileCheck %s

// The IREE seed (PR #21921's "before" IR) prints back as IREE prints it: the
// `#encoding` alias, `module`, quoted symbols, `%cst`, load results named after
// their globals with `:` as `3A`. The second load of each global is a clash
// MLIR suffixes `_0`/`_1`; those suffixes are matched loosely here (the unit test
// test_iree_seed.py checks the text character for character).

// CHECK:      #encoding = #iree_encoding.testing<>
// CHECK-NEXT: module {
// CHECK-NEXT:   util.global private @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
// CHECK-NEXT:   util.global private @"__auto.blk.0.attn_q.weight:qs__size" : index
// CHECK-NEXT:   util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
// CHECK-NEXT:   util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
// CHECK-NEXT:   util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
// CHECK-NEXT:   util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
// CHECK-NEXT:   util.initializer {
// CHECK-NEXT:     %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<constant> = #stream.parameter.named<"model"::"blk.0.attn_q.weight:qs"> : tensor<4096x4096xf8E4M3FNUZ>
// CHECK-NEXT:     %0 = stream.resource.size %cst : !stream.resource<constant>
// CHECK-NEXT:     util.global.store %cst, @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
// CHECK-NEXT:     util.global.store %0, @"__auto.blk.0.attn_q.weight:qs__size" : index
// CHECK-NEXT:     %__auto.blk.0.attn_q.weight3Aqs__size = util.global.load @"__auto.blk.0.attn_q.weight:qs__size" : index
// CHECK-NEXT:     %__auto.blk.0.attn_q.weight3Aqs = util.global.load @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
// CHECK-NEXT:     %1 = stream.async.transfer %__auto.blk.0.attn_q.weight3Aqs : !stream.resource<constant>{%__auto.blk.0.attn_q.weight3Aqs__size} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size}
// CHECK-NEXT:     %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
// CHECK-NEXT:     %3 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %1 : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%2}
// CHECK-NEXT:     %4 = stream.async.transfer %3 : !stream.resource<*>{%2} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%2}
// CHECK-NEXT:     util.global.store %4, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
// CHECK-NEXT:     util.global.store %2, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
// CHECK-NEXT:     [[SIZE1:%__auto.blk.0.attn_q.weight3Aqs__size_[0-9]+]] = util.global.load @"__auto.blk.0.attn_q.weight:qs__size" : index
// CHECK-NEXT:     [[RES1:%__auto.blk.0.attn_q.weight3Aqs_[0-9]+]] = util.global.load @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
// CHECK-NEXT:     %5 = stream.async.transfer [[RES1]] : !stream.resource<constant>{[[SIZE1]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{[[SIZE1]]}
// CHECK-NEXT:     %6 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
// CHECK-NEXT:     %7 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %5 : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{[[SIZE1]]} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%6}
// CHECK-NEXT:     %8 = stream.async.transfer %7 : !stream.resource<*>{%6} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%6}
// CHECK-NEXT:     util.global.store %8, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
// CHECK-NEXT:     util.global.store %6, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
// CHECK-NEXT:     util.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
