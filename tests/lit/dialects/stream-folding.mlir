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

// -----

// A transfer within one device (equal affinities, no staging side) of a splat, an
// empty tensor or an alloca makes that op again in the transfer's lifetime (what
// IREE reaches through transfer -> clone -> splat); an original used elsewhere
// stays, one used only there dies.

// CHECK-LABEL: @transfer_remakes_cloneable
// CHECK-SAME: (%[[N:.+]]: index)
util.func public @transfer_remakes_cloneable(%n: index) -> (!stream.resource<*>, !stream.resource<external>, !stream.resource<*>, !stream.resource<*>, !stream.resource<constant>, !stream.resource<*>) {
  %c0 = arith.constant 0 : i8
  %c1 = arith.constant 1 : i32
  // CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i8
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
  // CHECK-DAG: %[[S:.+]] = stream.tensor.splat on(#hal.device.affinity<@dev>) %[[C0]] : i8 -> tensor<4xf32> in !stream.resource<*>{%[[N]]}
  %s = stream.tensor.splat on(#hal.device.affinity<@dev>) %c0 : i8 -> tensor<4xf32> in !stream.resource<constant>{%n}
  %0 = stream.async.transfer %s : !stream.resource<constant>{%n} from(#hal.device.affinity<@dev>) -> to(#hal.device.affinity<@dev>) !stream.resource<*>{%n}
  // CHECK-DAG: %[[AS:.+]] = stream.async.splat %[[C1]] : i32 -> !stream.resource<external>{%[[N]]}
  %a = stream.async.splat %c1 : i32 -> !stream.resource<transient>{%n}
  %1 = stream.async.transfer %a : !stream.resource<transient>{%n} -> !stream.resource<external>{%n}
  // CHECK-DAG: %[[E:.+]] = stream.tensor.empty : tensor<0xf32> in !stream.resource<*>{%[[N]]}
  %e = stream.tensor.empty : tensor<0xf32> in !stream.resource<transient>{%n}
  %2 = stream.async.transfer %e : !stream.resource<transient>{%n} -> !stream.resource<*>{%n}
  // CHECK-DAG: %[[AL:.+]] = stream.async.alloca : !stream.resource<*>{%[[N]]}
  %al = stream.async.alloca : !stream.resource<transient>{%n}
  %3 = stream.async.transfer %al : !stream.resource<transient>{%n} -> !stream.resource<*>{%n}
  // A splat used elsewhere stays beside the new one.
  // CHECK-DAG: %[[K:.+]] = stream.tensor.splat %[[C1]] : i32 -> tensor<4xi32> in !stream.resource<constant>{%[[N]]}
  // CHECK-DAG: %[[K2:.+]] = stream.tensor.splat %[[C1]] : i32 -> tensor<4xi32> in !stream.resource<*>{%[[N]]}
  %k = stream.tensor.splat %c1 : i32 -> tensor<4xi32> in !stream.resource<constant>{%n}
  %4 = stream.async.transfer %k : !stream.resource<constant>{%n} -> !stream.resource<*>{%n}
  // CHECK-NOT: stream.async.transfer
  // CHECK: util.return %[[S]], %[[AS]], %[[E]], %[[AL]], %[[K]], %[[K2]]
  util.return %0, %1, %2, %3, %k, %4 : !stream.resource<*>, !stream.resource<external>, !stream.resource<*>, !stream.resource<*>, !stream.resource<constant>, !stream.resource<*>
}

// -----

// Transfers that stay: to or from staging (a copy IREE keeps as a transfer too),
// between two devices, from no stated affinity to one, and of a value an op that
// is no splat-like makes (a dispatch's result to another lifetime).

// CHECK-LABEL: @transfers_that_stay
util.func public @transfers_that_stay(%n: index) -> (!stream.resource<staging>, !stream.resource<*>, !stream.resource<*>, !stream.resource<external>) {
  %c0 = arith.constant 0 : i8
  %s = stream.async.splat %c0 : i8 -> !stream.resource<*>{%n}
  // CHECK: stream.async.transfer %{{.+}} : !stream.resource<*>{%{{.+}}} -> !stream.resource<staging>
  %0 = stream.async.transfer %s : !stream.resource<*>{%n} -> !stream.resource<staging>{%n}
  %t = stream.async.splat %c0 : i8 -> !stream.resource<constant>{%n}
  // CHECK: stream.async.transfer %{{.+}} from(#hal.device.affinity<@a>) -> to(#hal.device.affinity<@b>)
  %1 = stream.async.transfer %t : !stream.resource<constant>{%n} from(#hal.device.affinity<@a>) -> to(#hal.device.affinity<@b>) !stream.resource<*>{%n}
  // CHECK: stream.async.transfer %{{.+}} -> to(#hal.device.affinity<@a>)
  %2 = stream.async.transfer %t : !stream.resource<constant>{%n} -> to(#hal.device.affinity<@a>) !stream.resource<*>{%n}
  %d = stream.tensor.dispatch @ex::@entry(%s) : (tensor<4xi32> in !stream.resource<*>{%n}) -> tensor<4xi32> in !stream.resource<*>{%n}
  // CHECK: stream.async.transfer %{{.+}} : !stream.resource<*>{%{{.+}}} -> !stream.resource<external>
  %3 = stream.async.transfer %d : !stream.resource<*>{%n} -> !stream.resource<external>{%n}
  util.return %0, %1, %2, %3 : !stream.resource<staging>, !stream.resource<*>, !stream.resource<*>, !stream.resource<external>
}

// -----

// A transfer within one device to the same type of a fresh value nothing else
// uses is that value. It stays when the value has another use, when the value is
// not fresh (an argument, a global's contents), or across devices.

// CHECK-LABEL: @elide_transfer_of_fresh_value
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @elide_transfer_of_fresh_value(%r: !stream.resource<*>, %n: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[D:.+]] = stream.tensor.dispatch @ex::@entry(%[[R]])
  %d = stream.tensor.dispatch @ex::@entry(%r) : (tensor<4xi32> in !stream.resource<*>{%n}) -> tensor<4xi32> in !stream.resource<*>{%n}
  %0 = stream.async.transfer %d : !stream.resource<*>{%n} -> !stream.resource<*>{%n}
  // CHECK: %[[D2:.+]] = stream.tensor.dispatch @ex::@entry(%[[R]])
  %d2 = stream.tensor.dispatch @ex::@entry(%r) : (tensor<4xi32> in !stream.resource<*>{%n}) -> tensor<4xi32> in !stream.resource<*>{%n}
  // CHECK: %[[T2:.+]] = stream.async.transfer %[[D2]]
  %1 = stream.async.transfer %d2 : !stream.resource<*>{%n} -> !stream.resource<*>{%n}
  // CHECK: %[[T3:.+]] = stream.async.transfer %[[R]]
  %2 = stream.async.transfer %r : !stream.resource<*>{%n} -> !stream.resource<*>{%n}
  // CHECK: %[[D3:.+]] = stream.tensor.dispatch @ex::@entry(%[[R]])
  %d3 = stream.tensor.dispatch @ex::@entry(%r) : (tensor<4xi32> in !stream.resource<*>{%n}) -> tensor<4xi32> in !stream.resource<*>{%n}
  // CHECK: %[[T4:.+]] = stream.async.transfer %[[D3]] : !stream.resource<*>{%[[N]]} from(#hal.device.affinity<@a>) -> to(#hal.device.affinity<@b>)
  %3 = stream.async.transfer %d3 : !stream.resource<*>{%n} from(#hal.device.affinity<@a>) -> to(#hal.device.affinity<@b>) !stream.resource<*>{%n}
  // CHECK: util.return %[[D]], %[[T2]], %[[D2]], %[[T3]], %[[T4]]
  util.return %0, %1, %d2, %2, %3 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}

// -----

// A clone of an empty tensor, an alloca or a clone, as of a splat, makes it
// again; so does a transfer within one device of a clone (IREE: transfer ->
// clone, clone of a clone -> clone).

// CHECK-LABEL: @clone_remakes_cloneable
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @clone_remakes_cloneable(%r: !stream.resource<*>, %n: index) -> (!stream.resource<external>, !stream.resource<*>, !stream.resource<*>, !stream.resource<external>) {
  // CHECK-DAG: %[[E:.+]] = stream.tensor.empty : tensor<0xf32> in !stream.resource<external>
  %e = stream.tensor.empty : tensor<0xf32> in !stream.resource<*>{%n}
  %0 = stream.async.clone %e : !stream.resource<*>{%n} -> !stream.resource<external>{%n}
  // CHECK-DAG: %[[A:.+]] = stream.async.alloca : !stream.resource<*>
  %a = stream.async.alloca : !stream.resource<transient>{%n}
  %1 = stream.async.clone %a : !stream.resource<transient>{%n} -> !stream.resource<*>{%n}
  // CHECK-DAG: %[[C1:.+]] = stream.async.clone %[[R]] : !stream.resource<*>{%[[N]]} -> !stream.resource<*>{%[[N]]}
  %c = stream.async.clone %r : !stream.resource<*>{%n} -> !stream.resource<constant>{%n}
  %2 = stream.async.clone %c : !stream.resource<constant>{%n} -> !stream.resource<*>{%n}
  // CHECK-DAG: %[[C2:.+]] = stream.async.clone %[[R]] : !stream.resource<*>{%[[N]]} -> !stream.resource<external>{%[[N]]}
  %d = stream.async.clone %r : !stream.resource<*>{%n} -> !stream.resource<transient>{%n}
  %3 = stream.async.transfer %d : !stream.resource<transient>{%n} -> !stream.resource<external>{%n}
  // CHECK-NOT: stream.async.transfer
  // CHECK: util.return %[[E]], %[[A]], %[[C1]], %[[C2]]
  util.return %0, %1, %2, %3 : !stream.resource<external>, !stream.resource<*>, !stream.resource<*>, !stream.resource<external>
}

// -----

// A fill of the bytes the previous fill wrote, right after or right before its
// range, widens that fill (an i32 zero fills the same bytes as an i8 zero). A fill
// with other bytes, one leaving a gap, or one after a fill used twice stays.

// CHECK-LABEL: @adjacent_fills
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @adjacent_fills(%r: !stream.resource<*>, %n: index) -> !stream.resource<*> {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %c20 = arith.constant 20 : index
  %c30 = arith.constant 30 : index
  %c40 = arith.constant 40 : index
  %c50 = arith.constant 50 : index
  %z8 = arith.constant 0 : i8
  %z32 = arith.constant 0 : i32
  %one = arith.constant 1 : i8
  // CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
  // CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
  // CHECK-DAG: %[[C10:.+]] = arith.constant 10 : index
  // CHECK-DAG: %[[Z:.+]] = arith.constant 0 : i8
  // CHECK: %[[F:.+]] = stream.async.fill %[[Z]], %[[R]][%[[C2]] to %[[C10]] for %[[C8]]] : i8 -> %[[R]] as !stream.resource<*>{%[[N]]}
  %0 = stream.async.fill %z8, %r[%c2 to %c6 for %c4] : i8 -> %r as !stream.resource<*>{%n}
  %1 = stream.async.fill %z32, %0[%c6 to %c10 for %c4] : i32 -> %0 as !stream.resource<*>{%n}
  // CHECK: %[[G:.+]] = stream.async.fill %{{.+}}, %[[F]][%[[C10]] to
  %2 = stream.async.fill %one, %1[%c10 to %c30 for %c20] : i8 -> %1 as !stream.resource<*>{%n}
  // CHECK: stream.async.fill %{{.+}}, %[[G]][%{{.+}} to
  %3 = stream.async.fill %one, %2[%c40 to %c50 for %c10] : i8 -> %2 as !stream.resource<*>{%n}
  util.return %3 : !stream.resource<*>
}

// CHECK-LABEL: @front_fill
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @front_fill(%r: !stream.resource<*>, %n: index) -> !stream.resource<*> {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %v = arith.constant 7 : i8
  // CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
  // CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
  // CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
  // CHECK: %[[F:.+]] = stream.async.fill %{{.+}}, %[[R]][%[[C4]] to %[[C12]] for %[[C8]]]
  // CHECK-NEXT: util.return %[[F]]
  %0 = stream.async.fill %v, %r[%c8 to %c12 for %c4] : i8 -> %r as !stream.resource<*>{%n}
  %1 = stream.async.fill %v, %0[%c4 to %c8 for %c4] : i8 -> %0 as !stream.resource<*>{%n}
  util.return %1 : !stream.resource<*>
}

// CHECK-LABEL: @shared_fill_stays
util.func public @shared_fill_stays(%r: !stream.resource<*>, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %v = arith.constant 7 : i8
  // CHECK-COUNT-2: stream.async.fill
  %0 = stream.async.fill %v, %r[%c0 to %c4 for %c4] : i8 -> %r as !stream.resource<*>{%n}
  %1 = stream.async.fill %v, %0[%c4 to %c8 for %c4] : i8 -> %0 as !stream.resource<*>{%n}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A load of a clone staged by a transfer loads a staged slice of just the loaded
// element of the clone's source; a transfer with another user keeps the clone.

// CHECK-LABEL: @clone_into_load
// CHECK-SAME: (%[[R:.+]]: !stream.resource<external>, %[[N:.+]]: index, %[[O:.+]]: index)
util.func public @clone_into_load(%r: !stream.resource<external>, %n: index, %o: index) -> i16 {
  // CHECK-NOT: stream.async.clone
  // CHECK-DAG: %[[W:.+]] = arith.constant 2 : index
  // CHECK-DAG: %[[Z:.+]] = arith.constant 0 : index
  // CHECK: %[[E:.+]] = arith.addi %[[O]], %[[W]]
  // CHECK: %[[S:.+]] = stream.async.slice %[[R]][%[[O]] to %[[E]]] : !stream.resource<external>{%[[N]]} -> !stream.resource<external>{%[[W]]}
  // CHECK: %[[T:.+]] = stream.async.transfer %[[S]] : !stream.resource<external>{%[[W]]} -> !stream.resource<staging>{%[[W]]}
  // CHECK: stream.async.load %[[T]][%[[Z]]] : !stream.resource<staging>{%[[W]]} -> i16
  %0 = stream.async.clone %r : !stream.resource<external>{%n} -> !stream.resource<*>{%n}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%n} -> !stream.resource<staging>{%n}
  %2 = stream.async.load %1[%o] : !stream.resource<staging>{%n} -> i16
  util.return %2 : i16
}

// CHECK-LABEL: @shared_transfer_keeps_clone
util.func public @shared_transfer_keeps_clone(%r: !stream.resource<external>, %n: index, %o: index) -> (i16, !stream.resource<staging>) {
  // CHECK: stream.async.clone
  // CHECK-NOT: stream.async.slice
  %0 = stream.async.clone %r : !stream.resource<external>{%n} -> !stream.resource<*>{%n}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%n} -> !stream.resource<staging>{%n}
  %2 = stream.async.load %1[%o] : !stream.resource<staging>{%n} -> i16
  util.return %2, %1 : i16, !stream.resource<staging>
}

// CHECK-LABEL: @tensor_clone_into_load
// CHECK-SAME: (%[[R:.+]]: !stream.resource<external>, %[[N:.+]]: index, %[[I:.+]]: index)
util.func public @tensor_clone_into_load(%r: !stream.resource<external>, %n: index, %i: index) -> f16 {
  // CHECK-NOT: stream.tensor.clone
  // CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
  // CHECK-DAG: %[[Z:.+]] = arith.constant 0 : index
  // CHECK: %[[SZ:.+]] = stream.tensor.sizeof tensor<1x1x1xf16> : index
  // CHECK: %[[S:.+]] = stream.tensor.slice %[[R]][%[[I]], %[[I]], %[[Z]] for %[[ONE]], %[[ONE]], %[[ONE]]] : tensor<2x3x4xf16> in !stream.resource<external>{%[[N]]} -> tensor<1x1x1xf16> in !stream.resource<external>{%[[SZ]]}
  // CHECK: %[[T:.+]] = stream.async.transfer %[[S]]
  // CHECK: stream.tensor.load %[[T]][%[[Z]], %[[Z]], %[[Z]]] : tensor<1x1x1xf16> in !stream.resource<staging>{%[[SZ]]} -> f16
  %c0 = arith.constant 0 : index
  %0 = stream.tensor.clone %r : tensor<2x3x4xf16> in !stream.resource<external>{%n} -> tensor<2x3x4xf16> in !stream.resource<*>{%n}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%n} -> !stream.resource<staging>{%n}
  %2 = stream.tensor.load %1[%i, %i, %c0] : tensor<2x3x4xf16> in !stream.resource<staging>{%n} -> f16
  util.return %2 : f16
}

// CHECK-LABEL: @needless_clone_before_load
// CHECK-SAME: (%[[R:[^:]+]]: !stream.resource<*>, %[[N:[^:]+]]: index,
util.func public @needless_clone_before_load(%r: !stream.resource<*>, %n: index, %i: index) -> f16 {
  // CHECK-NOT: stream.tensor.clone
  // CHECK-NOT: stream.tensor.slice
  // CHECK: %[[T:.+]] = stream.async.transfer %[[R]] : !stream.resource<*>{%[[N]]}
  // CHECK: stream.tensor.load %[[T]]
  %0 = stream.tensor.clone %r : tensor<8xf16> in !stream.resource<*>{%n} -> tensor<8xf16> in !stream.resource<*>{%n}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%n} -> !stream.resource<staging>{%n}
  %2 = stream.tensor.load %1[%i] : tensor<8xf16> in !stream.resource<staging>{%n} -> f16
  util.return %2 : f16
}

// CHECK-LABEL: @reshaping_clone_stays
util.func public @reshaping_clone_stays(%r: !stream.resource<external>, %n: index, %i: index) -> f16 {
  // CHECK: stream.tensor.clone
  // CHECK-NOT: stream.tensor.slice
  %0 = stream.tensor.clone %r : tensor<2x12xf16> in !stream.resource<external>{%n} -> tensor<24xf16> in !stream.resource<*>{%n}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%n} -> !stream.resource<staging>{%n}
  %2 = stream.tensor.load %1[%i] : tensor<24xf16> in !stream.resource<staging>{%n} -> f16
  util.return %2 : f16
}

// -----

// The size of a selected resource selects the two sizes (queried when nothing
// states them); a selection of two subviews of one resource with one size is a
// subview at the selected offset, of two resources it stays.

// CHECK-LABEL: @select_sizes
// CHECK-SAME: (%[[C:.+]]: i1, %[[A:.+]]: !stream.resource<*>, %[[B:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @select_sizes(%c: i1, %a: !stream.resource<*>, %b: !stream.resource<*>, %n: index) -> (!stream.resource<*>, index, index) {
  // CHECK: %[[S:.+]] = arith.select %[[C]], %[[A]], %[[B]] : !stream.resource<*>
  // CHECK: %[[AS:.+]] = stream.resource.size %[[A]]
  // CHECK: %[[BS:.+]] = stream.resource.size %[[B]]
  // CHECK: %[[Z:.+]] = arith.select %[[C]], %[[AS]], %[[BS]] : index
  %s = arith.select %c, %a, %b : !stream.resource<*>
  %z = stream.resource.size %s : !stream.resource<*>
  // CHECK-NOT: stream.async.transfer
  // CHECK: %[[BS2:.+]] = stream.resource.size %[[B]]
  // CHECK: %[[W:.+]] = arith.select %[[C]], %[[N]], %[[BS2]] : index
  // CHECK: util.return %[[S]], %[[Z]], %[[W]]
  %t = stream.async.transfer %a : !stream.resource<*>{%n} -> !stream.resource<*>{%n}
  %u = arith.select %c, %t, %b : !stream.resource<*>
  %w = stream.resource.size %u : !stream.resource<*>
  util.return %s, %z, %w : !stream.resource<*>, index, index
}

// CHECK-LABEL: @select_subviews
// CHECK-SAME: (%[[C:.+]]: i1, %[[R:.+]]: !stream.resource<*>, %[[Q:.+]]: !stream.resource<*>)
util.func public @select_subviews(%c: i1, %r: !stream.resource<*>, %q: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  // CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
  // CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
  // CHECK: %[[O:.+]] = arith.select %[[C]], %[[C16]], %[[C0]] : index
  // CHECK: %[[V:.+]] = stream.resource.subview %[[R]][%[[O]]] : !stream.resource<*>{%[[C64]]} -> !stream.resource<*>{%[[C16]]}
  %0 = stream.resource.subview %r[%c16] : !stream.resource<*>{%c64} -> !stream.resource<*>{%c16}
  %1 = stream.resource.subview %r[%c0] : !stream.resource<*>{%c64} -> !stream.resource<*>{%c16}
  %2 = arith.select %c, %0, %1 : !stream.resource<*>
  // CHECK: %[[X:.+]] = stream.resource.subview %[[R]][%[[C0]]]
  // CHECK: %[[Y:.+]] = stream.resource.subview %[[Q]][%[[C0]]]
  // CHECK: %[[K:.+]] = arith.select %[[C]], %[[X]], %[[Y]] : !stream.resource<*>
  // CHECK: util.return %[[V]], %[[K]]
  %3 = stream.resource.subview %r[%c0] : !stream.resource<*>{%c64} -> !stream.resource<*>{%c16}
  %4 = stream.resource.subview %q[%c0] : !stream.resource<*>{%c64} -> !stream.resource<*>{%c16}
  %5 = arith.select %c, %3, %4 : !stream.resource<*>
  util.return %2, %5 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A cast pairing a resource with its size is the resource, and the size asked of
// it is that size; a cast of something else stays.

// CHECK-LABEL: @resource_size_casts
// CHECK-SAME: (%[[R:.+]]: !stream.resource<transient>, %[[N:.+]]: index, %[[P:.+]]: !stream.resource<*>)
util.func public @resource_size_casts(%r: !stream.resource<transient>, %n: index, %p: !stream.resource<*>) -> (!stream.resource<transient>, index, !stream.resource<transient>) {
  // CHECK-NOT: unrealized_conversion_cast %[[R]]
  // CHECK: %[[K:.+]] = builtin.unrealized_conversion_cast %[[P]], %[[N]] : !stream.resource<*>, index to !stream.resource<transient>
  // CHECK: util.return %[[R]], %[[N]], %[[K]]
  %0 = builtin.unrealized_conversion_cast %r, %n : !stream.resource<transient>, index to !stream.resource<transient>
  %1 = stream.resource.size %0 : !stream.resource<transient>
  %2 = builtin.unrealized_conversion_cast %p, %n : !stream.resource<*>, index to !stream.resource<transient>
  util.return %0, %1, %2 : !stream.resource<transient>, index, !stream.resource<transient>
}

// -----

// A tensor splat of complex numbers splats a complex.constant of its element; a
// resource splat takes only integer patterns, so an async constant of complex
// elements stays (iree-opt 3.13 crashes on it); a complex constant whose elements
// differ stays a constant.

// CHECK-LABEL: @complex_splats
util.func public @complex_splats(%n: index) -> (!stream.resource<constant>, !stream.resource<*>, !stream.resource<constant>) {
  // CHECK-DAG: %[[F:.+]] = complex.constant [1.500000e+00 : f32, -2.000000e+00 : f32] : complex<f32>
  // CHECK-DAG: %[[SZ:.+]] = stream.tensor.sizeof tensor<3xcomplex<f32>> : index
  // CHECK: %[[A:.+]] = stream.tensor.splat %[[F]] : complex<f32> -> tensor<3xcomplex<f32>> in !stream.resource<constant>{%[[SZ]]}
  %0 = stream.tensor.constant : tensor<3xcomplex<f32>> in !stream.resource<constant> = dense<(1.500000e+00,-2.000000e+00)> : tensor<3xcomplex<f32>>
  // CHECK-DAG: %[[B:.+]] = stream.async.constant : !stream.resource<*>{%{{.+}}} = dense<(4,5)> : tensor<2xcomplex<i16>>
  %1 = stream.async.constant : !stream.resource<*>{%n} = dense<(4,5)> : tensor<2xcomplex<i16>>
  // CHECK-DAG: %[[C:.+]] = stream.tensor.constant : tensor<2xcomplex<f32>>
  %2 = stream.tensor.constant : tensor<2xcomplex<f32>> in !stream.resource<constant> = dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
  // CHECK: util.return %[[A]], %[[B]], %[[C]]
  util.return %0, %1, %2 : !stream.resource<constant>, !stream.resource<*>, !stream.resource<constant>
}

// -----

// A fill whose 32-bit value repeats one byte fills that byte; one whose bytes
// differ keeps its value.

// CHECK-LABEL: @fills_narrow
// CHECK-SAME: (%[[T:[^:]+]]: !stream.resource<*>
util.func public @fills_narrow(%t: !stream.resource<*>, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %ones = arith.constant 16843009 : i32
  %mixed = arith.constant 16843010 : i32
  // CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i8
  // CHECK-DAG: %[[MIXED:.+]] = arith.constant 16843010 : i32
  // CHECK: %[[F:.+]] = stream.tensor.fill %[[ONE]], %[[T]][%{{.+}} for %{{.+}}] : i8 -> tensor<4xi32> in %[[T]]
  // CHECK: stream.tensor.fill %[[MIXED]], %[[F]]{{.+}} : i32 ->
  %0 = stream.tensor.fill %ones, %t[%c0 for %c2] : i32 -> tensor<4xi32> in %t as !stream.resource<*>{%n}
  %1 = stream.tensor.fill %mixed, %0[%c2 for %c2] : i32 -> tensor<4xi32> in %0 as !stream.resource<*>{%n}
  // CHECK: stream.async.fill %[[ONE]], %[[T]]{{.+}} : i8 ->
  %2 = stream.async.fill %ones, %t[%c0 to %c8 for %c8] : i32 -> %t as !stream.resource<*>{%n}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}
