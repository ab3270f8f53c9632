// RUN: memplan-opt %s --split-input-file --canonicalize | FileCheck %s

// The folders IREE's StreamOpFolders defines for the runtime-facing stream ops,
// each with a case where it must not apply.

// CHECK-LABEL: @unused_transfers
// CHECK-SAME: (%[[F:.+]]: !stream.file, %[[OFF:.+]]: i64, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @unused_transfers(%f: !stream.file, %off: i64, %r: !stream.resource<*>, %n: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  // Nobody waits on the first read or on the write: both go.
  // CHECK-NOT: stream.file.write
  // CHECK: %[[KEPT:.+]] = stream.file.read : %[[F]][%[[OFF]]], %[[R]][%{{.+}}], %[[N]]
  // CHECK-NOT: stream.file.{{read|write}}
  %unused = stream.file.read : %f[%off], %r[%c0], %n : !stream.file -> !stream.resource<*>{%n} => !stream.timepoint
  %written = stream.file.write : %r[%c0], %f[%off], %n : !stream.resource<*>{%n} -> !stream.file => !stream.timepoint
  %kept = stream.file.read : %f[%off], %r[%c0], %n : !stream.file -> !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: util.return %[[KEPT]]
  util.return %kept : !stream.timepoint
}

// -----

// CHECK-LABEL: @channel_queries
// CHECK-SAME: (%[[RANK:.+]]: index, %[[CH:.+]]: !stream.channel)
util.func public @channel_queries(%rank: index, %other: !stream.channel) -> (index, index, index) {
  // The rank a channel was created with is its rank; its count was not given,
  // and a channel from elsewhere tells nothing.
  // CHECK: %[[NEW:.+]] = stream.channel.create rank(%[[RANK]]) : !stream.channel
  %ch = stream.channel.create rank(%rank) : !stream.channel
  %r = stream.channel.rank %ch : index
  // CHECK: %[[COUNT:.+]] = stream.channel.count %[[NEW]] : index
  %c = stream.channel.count %ch : index
  // CHECK: %[[OTHER:.+]] = stream.channel.rank %[[CH]] : index
  %o = stream.channel.rank %other : index
  // An unused split goes.
  // CHECK-NOT: stream.channel.split
  %unused = stream.channel.split %ch, %rank, %rank : !stream.channel -> !stream.channel
  // CHECK: util.return %[[RANK]], %[[COUNT]], %[[OTHER]]
  util.return %r, %c, %o : index, index, index
}

// -----

// CHECK-LABEL: @dispatches
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @dispatches(%r: !stream.resource<*>, %n: index) -> !stream.resource<*> {
  // An entry point named twice is named once; an unused dispatch goes.
  // CHECK: %[[D:.+]] = stream.tensor.dispatch {@ex::@a, @ex::@b}(%[[R]])
  // CHECK-NOT: stream.tensor.dispatch
  %d = stream.tensor.dispatch {@ex::@a, @ex::@b, @ex::@a}(%r) : (tensor<4xf32> in !stream.resource<*>{%n}) -> tensor<4xf32> in !stream.resource<*>{%n}
  %unused = stream.tensor.dispatch @ex::@a(%r) : (tensor<4xf32> in !stream.resource<*>{%n}) -> tensor<4xf32> in !stream.resource<*>{%n}
  // CHECK: util.return %[[D]]
  util.return %d : !stream.resource<*>
}

// -----

// CHECK-LABEL: @parameter_waits
// CHECK-SAME: (%[[K:.+]]: !util.buffer, %[[OFF:.+]]: i64, %[[N:.+]]: index, %[[T:.+]]: !stream.timepoint)
util.func public @parameter_waits(%k: !util.buffer, %off: i64, %n: index, %t: !stream.timepoint) -> (!stream.resource<*>, !stream.timepoint, !stream.resource<*>, !stream.timepoint) {
  // Waiting on an immediate timepoint is no wait; a real one stays.
  %now = stream.timepoint.immediate => !stream.timepoint
  // CHECK: %[[A:.+]], %[[AT:.+]] = stream.async.parameter.load %[[K]][%[[OFF]]] : !stream.resource<*>{%[[N]]}
  %a, %at = stream.async.parameter.load await(%now) %k[%off] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: %[[B:.+]], %[[BT:.+]] = stream.async.parameter.load await(%[[T]]) %[[K]][%[[OFF]]] : !stream.resource<*>{%[[N]]}
  %b, %bt = stream.async.parameter.load await(%t) %k[%off] : !stream.resource<*>{%n} => !stream.timepoint
  // A load nobody uses goes.
  // CHECK-NOT: stream.async.parameter.load
  %c, %ct = stream.async.parameter.load %k[%off] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: util.return %[[A]], %[[AT]], %[[B]], %[[BT]]
  util.return %a, %at, %b, %bt : !stream.resource<*>, !stream.timepoint, !stream.resource<*>, !stream.timepoint
}

// -----

// CHECK-LABEL: @unused_collective
util.func public @unused_collective(%r: !stream.resource<*>, %n: index, %ch: !stream.channel) -> !stream.resource<*> {
  // CHECK-NOT: stream.async.collective
  %0 = stream.async.collective<all_gather : f32>[%n] channel(%ch) %r[%n to %n for %n], %r[%n to %n for %n] : !stream.resource<*>{%n} -> %r as !stream.resource<*>{%n}
  // CHECK: util.return
  util.return %r : !stream.resource<*>
}

// -----

// A resource's size is the one a dispatch passes with it, found by operand
// position: the workload comes first, so position and resource index differ.
// CHECK-LABEL: @sizes_through_dispatches
// CHECK-SAME: (%[[A:.+]]: !stream.resource<*>, %[[B:.+]]: !stream.resource<*>, %[[NA:.+]]: index, %[[NB:.+]]: index)
util.func public @sizes_through_dispatches(%a: !stream.resource<*>, %b: !stream.resource<*>, %na: index, %nb: index) -> (index, index, !stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %d = stream.async.dispatch @ex::@e[%nb](%a[%c0 to %na for %na], %b[%c0 to %nb for %nb]) : (!stream.resource<*>{%na}, !stream.resource<*>{%nb}) -> !stream.resource<*>{%na}
  %t = stream.tensor.dispatch @ex::@e[%na](%b, %a) : (tensor<4xf32> in !stream.resource<*>{%nb}, tensor<4xf32> in !stream.resource<*>{%na}) -> tensor<4xf32> in !stream.resource<*>{%na}
  %sa = stream.resource.size %a : !stream.resource<*>
  %sb = stream.resource.size %b : !stream.resource<*>
  // CHECK: util.return %[[NA]], %[[NB]]
  util.return %sa, %sb, %d, %t : index, index, !stream.resource<*>, !stream.resource<*>
}

// -----

// CHECK-LABEL: @cmd_parameter_waits
// CHECK-SAME: (%[[K:.+]]: !util.buffer, %[[OFF:.+]]: i64, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @cmd_parameter_waits(%k: !util.buffer, %off: i64, %r: !stream.resource<*>, %n: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %now = stream.timepoint.immediate => !stream.timepoint
  // An immediate wait goes; a read nobody waits on goes.
  // CHECK-NOT: stream.timepoint.immediate
  // CHECK: %[[T:.+]] = stream.cmd.parameter.read %[[K]][%[[OFF]]] -> %[[R]]
  // CHECK-NOT: stream.cmd.parameter.read
  %t = stream.cmd.parameter.read await(%now) => %k[%off] -> %r[%c0 for %n] : !stream.resource<*>{%n} => !stream.timepoint
  %unused = stream.cmd.parameter.read %k[%off] -> %r[%c0 for %n] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: util.return %[[T]]
  util.return %t : !stream.timepoint
}
