// RUN: memplan-opt %s | FileCheck %s
// The generic form denotes the same IR: it reads back to the same text, from
// itself and through the custom form (generic printing numbers values, as MLIR).
// RUN: memplan-opt %s --mlir-print-op-generic > %t.generic
// RUN: memplan-opt %t.generic --mlir-print-op-generic | diff %t.generic -
// (An absent visibility prints `public`, which reads back as an explicit one, as in
// IREE; so the custom form is compared with itself.)
// RUN: memplan-opt %s | memplan-opt --mlir-print-op-generic > %t.from-custom
// RUN: memplan-opt %t.from-custom --mlir-print-op-generic | diff %t.from-custom -
// RUN: memplan-opt %t.from-custom | memplan-opt --mlir-print-op-generic | diff %t.from-custom -

// IREE's stream/util/hal/iree_encoding ops in the text iree-opt 3.13 prints, read
// and printed back, directly and through the generic form. Values with a name in
// the source keep it; results of multi-result ops are matched loosely because
// printers spell them `%0:2`/`%0#1` (MLIR) or `%0, %1` (xDSL).

#encoding = #iree_encoding.testing<>
module attributes {stream.affinity.default = #hal.device.affinity<@device>} {
  util.global private @device : index
  util.global private mutable @"1st global" = 0 : index
  util.global private @"weird-name.$x" = #stream.timepoint<immediate> : !stream.timepoint
  util.global public @pub_param = #stream.parameter.named<"scope"::"key", {offset = 4 : i64}> : !stream.resource<constant>
  util.global nested mutable @nested_g : !stream.resource<variable>
  util.global private @enc : tensor<?x4xf32, #encoding>
  util.global private @cfg <inlining_policy = #util.inline.never> : !stream.resource<constant> = #stream.parameter.named<"key"> : tensor<8xf32>
  util.global @implicit_public {foo = 1 : i32} : index
  util.initializer attributes {note = "init"} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %var = stream.resource.alloc uninitialized on(#hal.device.affinity<@device, [1]>) : !stream.resource<variable>{%c128}
    util.global.store %var, @nested_g : !stream.resource<variable>
    util.global.store %c0, @"1st global" : index
    util.return
  }
  util.func private @callee(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, index)
  util.func private @callee_as(%arg0: !stream.resource<*> {test.arg}) -> (%arg0 as !stream.resource<transient> {test.res}) attributes {inlining_policy = #util.inline.never}
  util.func public @body(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<*>, index) {
    %_1st_global = util.global.load @"1st global" : index
    %ready = util.global.load immutable @"weird-name.$x" : !stream.timepoint
    %joined = stream.timepoint.join max(%arg2, %ready) => !stream.timepoint
    %now = stream.timepoint.immediate => !stream.timepoint
    %call:2 = util.call @callee(%arg0, %arg1) : (!stream.resource<*>, index) -> (%arg0, index)
    %as = util.call @callee_as(%arg0) {tag} : (!stream.resource<*>) -> %arg0 as !stream.resource<transient>
    %dispatch:3 = stream.async.dispatch on(#hal.device.affinity<@device>) {@ex::@a, @ex::@b}[%arg1, %_1st_global](%arg0[%arg1 to %arg1 for %arg1], %arg1, %as[%arg1 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}, index, !stream.resource<transient>{%arg1}) -> (%arg0{%arg1}, !stream.resource<transient>{%arg1}, %as as !stream.resource<external>{%arg1})
    %single = stream.async.dispatch @ex::@a(%arg0[%arg1 to %arg1 for %arg1]) {tag} : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
    stream.async.dispatch @ex::@a() : () -> ()
    %clone = stream.async.clone on(#hal.device.affinity<@device>) %single : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1}
    %result, %result_timepoint = stream.resource.alloca uninitialized await(%joined) => !stream.resource<transient>{%arg1} => !stream.timepoint
    %tmp, %tmp_ready = stream.resource.alloca uninitialized indeterminate on(#hal.device.affinity<@device>) : {tag} !stream.resource<transient>{%arg1} => !stream.timepoint
    %freed = stream.resource.dealloca await(%result_timepoint) => %result : !stream.resource<transient>{%arg1} => !stream.timepoint
    %freed2 = stream.resource.dealloca origin on(#hal.device.affinity<@device>) %tmp : !stream.resource<transient>{%arg1} => !stream.timepoint {tag}
    %waited = stream.timepoint.await sync %freed => %clone : !stream.resource<*>{%arg1}
    %moved = stream.async.transfer %waited : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@device, [0, 1]>) !stream.resource<*>{%arg1}
    %staged = stream.async.transfer on(#hal.device.affinity<@device>) %moved : !stream.resource<*>{%arg1} from(#hal.device.affinity<@device>) -> !stream.resource<staging>{%arg1} attributes {tag}
    %size = stream.tensor.sizeof tensor<?x4xf32, #encoding>{%arg1} : index
    %static = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<4xf32> : index
    %encoded = stream.tensor.encode %moved : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg1} -> tensor<?x4xf32, #encoding>{%arg1} in !stream.resource<*>{%size}
    %cst = stream.tensor.constant on(#hal.device.affinity<@device>) : tensor<?x4xf32>{%arg1} in !stream.resource<constant> = #stream.parameter.named<"model"::"w"> : tensor<8x4xf32>
    %dense = stream.tensor.constant : tensor<4xf32> in !stream.resource<constant> = dense<1.000000e+00> : tensor<4xf32> attributes {tag}
    %fresh = stream.async.alloca on(#hal.device.affinity<@device>) : !stream.resource<*>{%size}
    %plain = stream.resource.alloc : !stream.resource<external>{%static}
    %bytes = stream.resource.size %fresh <affinity = #hal.device.affinity<@device>> : !stream.resource<*>
    %cbytes = stream.resource.size %cst : !stream.resource<constant>
    util.global.store %cst, @cfg : !stream.resource<constant>
    util.return %encoded, %bytes : !stream.resource<*>, index
  }
}

// CHECK:      #encoding = #iree_encoding.testing<>
// CHECK-NEXT: module attributes {stream.affinity.default = #hal.device.affinity<@device>} {
// CHECK-NEXT:   util.global private @device : index
// CHECK-NEXT:   util.global private mutable @"1st global" = 0 : index
// CHECK-NEXT:   util.global private @"weird-name.$x" = #stream.timepoint<immediate> : !stream.timepoint
// CHECK-NEXT:   util.global public @pub_param = #stream.parameter.named<"scope"::"key", {offset = 4 : i64}> : !stream.resource<constant>
// CHECK-NEXT:   util.global nested mutable @nested_g : !stream.resource<variable>
// CHECK-NEXT:   util.global private @enc : tensor<?x4xf32, #encoding>
// CHECK-NEXT:   util.global private @cfg <inlining_policy = #util.inline.never> : !stream.resource<constant> = #stream.parameter.named<"key"> : tensor<8xf32>
// CHECK-NEXT:   util.global public @implicit_public {foo = 1 : i32} : index
// CHECK-NEXT:   util.initializer attributes {note = "init"} {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c128 = arith.constant 128 : index
// CHECK-NEXT:     %[[VAR:[^ :]+]] = stream.resource.alloc uninitialized on(#hal.device.affinity<@device, [1]>) : !stream.resource<variable>{%c128}
// CHECK-NEXT:     util.global.store %[[VAR]], @nested_g : !stream.resource<variable>
// CHECK-NEXT:     util.global.store %c0, @"1st global" : index
// CHECK-NEXT:     util.return
// CHECK-NEXT:   }
// CHECK-NEXT:   util.func private @callee(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, index)
// CHECK-NEXT:   util.func private @callee_as(%arg0: !stream.resource<*> {test.arg}) -> (%arg0 as !stream.resource<transient> {test.res}) attributes {inlining_policy = #util.inline.never}
// CHECK-NEXT:   util.func public @body(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<*>, index) {
// CHECK-NEXT:     %[[_1ST_GLOBAL:[^ :]+]] = util.global.load @"1st global" : index
// CHECK-NEXT:     %[[READY:[^ :]+]] = util.global.load immutable @"weird-name.$x" : !stream.timepoint
// CHECK-NEXT:     %[[JOINED:[^ :]+]] = stream.timepoint.join max(%arg2, %[[READY]]) => !stream.timepoint
// CHECK-NEXT:     %[[NOW:[^ :]+]] = stream.timepoint.immediate => !stream.timepoint
// CHECK-NEXT:     {{.+}} = util.call @callee(%arg0, %arg1) : (!stream.resource<*>, index) -> (%arg0, index)
// CHECK-NEXT:     %[[AS:[^ :]+]] = util.call @callee_as(%arg0) {tag} : (!stream.resource<*>) -> %arg0 as !stream.resource<transient>
// CHECK-NEXT:     {{.+}} = stream.async.dispatch on(#hal.device.affinity<@device>) {@ex::@a, @ex::@b}[%arg1, %[[_1ST_GLOBAL]]](%arg0[%arg1 to %arg1 for %arg1], %arg1, %[[AS]][%arg1 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}, index, !stream.resource<transient>{%arg1}) -> (%arg0{%arg1}, !stream.resource<transient>{%arg1}, %[[AS]] as !stream.resource<external>{%arg1})
// CHECK-NEXT:     %[[SINGLE:[^ :]+]] = stream.async.dispatch @ex::@a(%arg0[%arg1 to %arg1 for %arg1]) {tag} : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
// CHECK-NEXT:     stream.async.dispatch @ex::@a() : () -> ()
// CHECK-NEXT:     %[[CLONE:[^ :]+]] = stream.async.clone on(#hal.device.affinity<@device>) %[[SINGLE]] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1}
// CHECK-NEXT:     %[[RESULT:[^ ,:)]+]], %[[RESULT_TIMEPOINT:[^ :]+]] = stream.resource.alloca uninitialized await(%[[JOINED]]) => !stream.resource<transient>{%arg1} => !stream.timepoint
// CHECK-NEXT:     %[[TMP:[^ ,:)]+]], %[[TMP_READY:[^ :]+]] = stream.resource.alloca uninitialized indeterminate on(#hal.device.affinity<@device>) : {tag} !stream.resource<transient>{%arg1} => !stream.timepoint
// CHECK-NEXT:     %[[FREED:[^ :]+]] = stream.resource.dealloca await(%[[RESULT_TIMEPOINT]]) => %[[RESULT]] : !stream.resource<transient>{%arg1} => !stream.timepoint
// CHECK-NEXT:     %[[FREED2:[^ :]+]] = stream.resource.dealloca origin on(#hal.device.affinity<@device>) %[[TMP]] : !stream.resource<transient>{%arg1} => !stream.timepoint {tag}
// CHECK-NEXT:     %[[WAITED:[^ :]+]] = stream.timepoint.await sync %[[FREED]] => %[[CLONE]] : !stream.resource<*>{%arg1}
// CHECK-NEXT:     %[[MOVED:[^ :]+]] = stream.async.transfer %[[WAITED]] : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@device, [0, 1]>) !stream.resource<*>{%arg1}
// CHECK-NEXT:     %[[STAGED:[^ :]+]] = stream.async.transfer on(#hal.device.affinity<@device>) %[[MOVED]] : !stream.resource<*>{%arg1} from(#hal.device.affinity<@device>) -> !stream.resource<staging>{%arg1} attributes {tag}
// CHECK-NEXT:     %[[SIZE:[^ :]+]] = stream.tensor.sizeof tensor<?x4xf32, #encoding>{%arg1} : index
// CHECK-NEXT:     %[[STATIC:[^ :]+]] = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<4xf32> : index
// CHECK-NEXT:     %[[ENCODED:[^ :]+]] = stream.tensor.encode %[[MOVED]] : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg1} -> tensor<?x4xf32, #encoding>{%arg1} in !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT:     %cst = stream.tensor.constant on(#hal.device.affinity<@device>) : tensor<?x4xf32>{%arg1} in !stream.resource<constant> = #stream.parameter.named<"model"::"w"> : tensor<8x4xf32>
// CHECK-NEXT:     %[[DENSE:[^ :]+]] = stream.tensor.constant : tensor<4xf32> in !stream.resource<constant> = dense<1.000000e+00> : tensor<4xf32> attributes {tag}
// CHECK-NEXT:     %[[FRESH:[^ :]+]] = stream.async.alloca on(#hal.device.affinity<@device>) : !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT:     %[[PLAIN:[^ :]+]] = stream.resource.alloc : !stream.resource<external>{%[[STATIC]]}
// CHECK-NEXT:     %[[BYTES:[^ :]+]] = stream.resource.size %[[FRESH]] <affinity = #hal.device.affinity<@device>> : !stream.resource<*>
// CHECK-NEXT:     %[[CBYTES:[^ :]+]] = stream.resource.size %cst : !stream.resource<constant>
// CHECK-NEXT:     util.global.store %cst, @cfg : !stream.resource<constant>
// CHECK-NEXT:     util.return %[[ENCODED]], %[[BYTES]] : !stream.resource<*>, index
// CHECK-NEXT:   }
// CHECK-NEXT: }
