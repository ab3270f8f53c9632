// RUN: memplan-opt %s --split-input-file --canonicalize | FileCheck %s

// The folders of stream's async, resource, tensor and timepoint ops (IREE's
// StreamOpFolders), each with a case where it must not apply.

// CHECK-LABEL: @splats
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: index)
util.func public @splats(%n: index, %m: index) -> (!stream.resource<*>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  // A repeated byte splats as i8; a slice of a splat and a clone of one are
  // splats of their own size and type.
  // CHECK-DAG: %[[B:.+]] = arith.constant 17 : i8
  %v = arith.constant 0x11111111 : i32
  %s = stream.async.splat %v : i32 -> !stream.resource<*>{%n}
  // CHECK-DAG: %[[S1:.+]] = stream.async.splat %[[B]] : i8 -> !stream.resource<*>{%[[M]]}
  %sl = stream.async.slice %s[%c0 to %m] : !stream.resource<*>{%n} -> !stream.resource<*>{%m}
  // CHECK-DAG: %[[S2:.+]] = stream.async.splat %[[B]] : i8 -> !stream.resource<external>{%[[N]]}
  %cl = stream.async.clone %s : !stream.resource<*>{%n} -> !stream.resource<external>{%n}
  // CHECK-NOT: stream.async.slice
  // CHECK-NOT: stream.async.clone
  // CHECK: util.return %[[S1]], %[[S2]]
  util.return %sl, %cl : !stream.resource<*>, !stream.resource<external>
}

// -----

// An update of all of a fresh splat is the update; one into an argument stays.

// CHECK-LABEL: @updates
// CHECK-SAME: (%[[A:.+]]: !stream.resource<*>, %[[B:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @updates(%a: !stream.resource<*>, %b: !stream.resource<*>, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %s = stream.async.splat %c1 : i32 -> !stream.resource<*>{%n}
  %u0 = stream.async.update %a, %s[%c0 to %n] : !stream.resource<*>{%n} -> %s as !stream.resource<*>{%n}
  // CHECK: %[[U:.+]] = stream.async.update %[[A]], %[[B]]
  %u1 = stream.async.update %a, %b[%c0 to %n] : !stream.resource<*>{%n} -> %b as !stream.resource<*>{%n}
  // CHECK: util.return %[[A]], %[[U]]
  util.return %u0, %u1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Casts that come back to the source type vanish; others collapse into one.

// CHECK-LABEL: @casts
// CHECK-SAME: (%[[R:.+]]: !stream.resource<external>, %[[N:.+]]: index)
util.func public @casts(%r: !stream.resource<external>, %n: index) -> (!stream.resource<external>, !stream.resource<transient>) {
  %0 = stream.async.cast %r : !stream.resource<external>{%n} -> !stream.resource<*>{%n}
  %1 = stream.async.cast %0 : !stream.resource<*>{%n} -> !stream.resource<external>{%n}
  // CHECK: %[[C:.+]] = stream.async.cast %[[R]] : !stream.resource<external>{%[[N]]} -> !stream.resource<transient>{%[[N]]}
  %2 = stream.async.cast %0 : !stream.resource<*>{%n} -> !stream.resource<transient>{%n}
  // CHECK: util.return %[[R]], %[[C]]
  util.return %1, %2 : !stream.resource<external>, !stream.resource<transient>
}

// -----

// Joins drop immediate and repeated timepoints and flatten nested joins; an await
// of an immediate timepoint is its resources.

// CHECK-LABEL: @timepoints
// CHECK-SAME: (%[[T0:.+]]: !stream.timepoint, %[[T1:.+]]: !stream.timepoint, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @timepoints(%t0: !stream.timepoint, %t1: !stream.timepoint, %r: !stream.resource<*>, %n: index) -> (!stream.timepoint, !stream.resource<*>) {
  %imm = stream.timepoint.immediate => !stream.timepoint
  %j0 = stream.timepoint.join max(%t0, %imm) => !stream.timepoint
  // CHECK: %[[J:.+]] = stream.timepoint.join max(%[[T0]], %[[T1]])
  %j1 = stream.timepoint.join max(%j0, %t1, %t0) => !stream.timepoint
  %a = stream.timepoint.await %imm => %r : !stream.resource<*>{%n}
  // CHECK: util.return %[[J]], %[[R]]
  util.return %j1, %a : !stream.timepoint, !stream.resource<*>
}

// -----

// A pack of one slice is that slice at the base offset; subviews of subviews add
// their offsets.

// CHECK-LABEL: @packs_and_subviews
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[O:.+]]: index)
util.func public @packs_and_subviews(%r: !stream.resource<*>, %n: index, %o: index) -> (index, index, !stream.resource<*>) {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %len, %off = stream.resource.pack offset(%o) slices({[0, 1] = %n}) : index
  %v0 = stream.resource.subview %r[%c16] : !stream.resource<*>{%n} -> !stream.resource<*>{%c32}
  // CHECK: %[[C48:.+]] = arith.constant 48 : index
  // CHECK: %[[V:.+]] = stream.resource.subview %[[R]][%[[C48]]] : !stream.resource<*>{%[[N]]}
  %v1 = stream.resource.subview %v0[%c32] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c16}
  // CHECK: util.return %[[N]], %[[O]], %[[V]]
  util.return %len, %off, %v1 : index, index, !stream.resource<*>
}

// -----

// Importing what was just exported is the resource; a no-op execution region is
// its captures, ready once its await is.

// CHECK-LABEL: @import_export_and_regions
// CHECK-SAME: (%[[R:.+]]: !stream.resource<external>, %[[N:.+]]: index, %[[T:.+]]: !stream.timepoint)
util.func public @import_export_and_regions(%r: !stream.resource<external>, %n: index, %t: !stream.timepoint) -> (!stream.resource<external>, !stream.resource<external>, !stream.timepoint) {
  %b = stream.tensor.export %r : tensor<4xf32> in !stream.resource<external>{%n} -> !util.buffer
  %i = stream.tensor.import %b : !util.buffer -> tensor<4xf32> in !stream.resource<external>{%n}
  %e:2 = stream.async.execute await(%t) => with(%r as %c: !stream.resource<external>{%n}) -> %r{%n} {
    stream.yield %c : !stream.resource<external>{%n}
  } => !stream.timepoint
  // CHECK-NOT: stream.async.execute
  // CHECK: util.return %[[R]], %[[R]], %[[T]]
  util.return %i, %e#0, %e#1 : !stream.resource<external>, !stream.resource<external>, !stream.timepoint
}

// -----

// A transfer between equal affinities stays a transfer (memplan does not rewrite it
// to stream.async.clone, which is not Pure and would stop CSE).

// CHECK-LABEL: @transfer_stays
util.func public @transfer_stays(%r: !stream.resource<constant>, %n: index) -> !stream.resource<external> {
  // CHECK: stream.async.transfer
  // CHECK-NOT: stream.async.clone
  %0 = stream.async.transfer %r : !stream.resource<constant>{%n} -> !stream.resource<external>{%n}
  util.return %0 : !stream.resource<external>
}
