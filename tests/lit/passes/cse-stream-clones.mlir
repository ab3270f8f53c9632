// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect -p cse | FileCheck %s

// Equal clones (same source, sizes, affinity, result type) whose results are only
// read merge: nobody can tell one buffer from two (docs/design/cse.md, "Copies").

// CHECK-LABEL: @read_only_clones
util.func public @read_only_clones(%src: !stream.resource<constant>, %size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[C:.+]] = stream.async.clone on(#hal.device.affinity<@dev>) %{{.+}}
  // CHECK-NOT: stream.async.clone
  // CHECK: stream.async.dispatch @ex::@entry[%{{.+}}](%[[C]][
  // CHECK: stream.async.dispatch @ex::@entry[%{{.+}}](%[[C]][
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.async.clone on(#hal.device.affinity<@dev>) %src : !stream.resource<constant>{%size} -> !stream.resource<*>{%size}
  %1 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %2 = stream.async.clone on(#hal.device.affinity<@dev>) %src : !stream.resource<constant>{%size} -> !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %1, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The shape of IREE 3.13's duplicated encode chain (a weight shared by two
// matmuls under data tiling): clone -> encode -> clone to constant -> global. The
// clones merge, then the encodes (Pure), then the clones to `constant`, which may
// be stored: IREE never updates a constant in place.

// CHECK-LABEL: util.initializer
util.global private @a : !stream.resource<constant>
util.global private @b : !stream.resource<constant>
util.initializer {
  // CHECK: stream.async.clone
  // CHECK-NEXT: stream.tensor.encode
  // CHECK-NEXT: %[[K:.+]] = stream.async.clone
  // CHECK-NEXT: util.global.store %[[K]], @a
  // CHECK-NEXT: util.global.store %[[K]], @b
  %c64 = arith.constant 64 : index
  %cst = stream.tensor.constant on(#hal.device.affinity<@dev>) : tensor<4xf32> in !stream.resource<constant> = dense<1.0> : tensor<4xf32>
  %size = stream.resource.size %cst : !stream.resource<constant>
  %0 = stream.async.clone on(#hal.device.affinity<@dev>) %cst : !stream.resource<constant>{%size} -> !stream.resource<*>{%size}
  %1 = stream.tensor.encode on(#hal.device.affinity<@dev>) %0 : tensor<4xf32> in !stream.resource<*>{%size} -> tensor<4xf32, #iree_encoding.testing<>> in !stream.resource<*>{%c64}
  %2 = stream.async.clone on(#hal.device.affinity<@dev>) %1 : !stream.resource<*>{%c64} -> !stream.resource<constant>{%c64}
  %3 = stream.async.clone on(#hal.device.affinity<@dev>) %cst : !stream.resource<constant>{%size} -> !stream.resource<*>{%size}
  %4 = stream.tensor.encode on(#hal.device.affinity<@dev>) %3 : tensor<4xf32> in !stream.resource<*>{%size} -> tensor<4xf32, #iree_encoding.testing<>> in !stream.resource<*>{%c64}
  %5 = stream.async.clone on(#hal.device.affinity<@dev>) %4 : !stream.resource<*>{%c64} -> !stream.resource<constant>{%c64}
  util.global.store %2, @a : !stream.resource<constant>
  util.global.store %5, @b : !stream.resource<constant>
  util.return
}
util.func public @encode_chains() {
  util.return
}

// -----

// stream.tensor.clone: the same rule.

// CHECK-LABEL: @tensor_clones
util.func public @tensor_clones(%src: !stream.resource<*>, %size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[C:.+]] = stream.tensor.clone
  // CHECK-NOT: stream.tensor.clone
  // CHECK: stream.async.dispatch @ex::@entry[%{{.+}}](%[[C]][
  // CHECK: stream.async.dispatch @ex::@entry[%{{.+}}](%[[C]][
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.tensor.clone %src : tensor<4xf32> in !stream.resource<*>{%size} -> tensor<4xf32> in !stream.resource<*>{%size}
  %1 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %2 = stream.tensor.clone %src : tensor<4xf32> in !stream.resource<*>{%size} -> tensor<4xf32> in !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %1, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A consumer tying a result to a clone updates it in place (after copy-on-write
// materialization, in the clone's own buffer): neither clone is shared, whichever
// of the two is tied.

// CHECK-LABEL: @tied_consumer
util.func public @tied_consumer(%src: !stream.resource<*>, %tsrc: !stream.resource<transient>, %size: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<transient>, index) {
  // CHECK: %[[A:.+]] = stream.async.clone
  // CHECK-NEXT: stream.async.dispatch @ex::@entry[{{.+}}](%[[A]][{{.+}}-> %[[A]]{
  // CHECK-NEXT: %[[B:.+]] = stream.async.clone
  // CHECK-NEXT: stream.async.dispatch @ex::@entry[{{.+}}](%[[B]][
  // CHECK-NEXT: %[[C:.+]] = stream.async.clone
  // CHECK: stream.async.fill %{{.+}}, %[[C]][
  // CHECK-NEXT: %[[D:.+]] = stream.async.clone
  // CHECK-NEXT: stream.resource.size %[[D]]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %1 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %0{%size}
  %2 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %4 = stream.async.clone %tsrc : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
  %c7 = arith.constant 7 : i32
  %5 = stream.async.fill %c7, %4[%c0 to %size for %size] : i32 -> %4 as !stream.resource<transient>{%size}
  %6 = stream.async.clone %tsrc : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
  %7 = stream.resource.size %6 : !stream.resource<transient>
  util.return %1, %3, %5, %7 : !stream.resource<*>, !stream.resource<*>, !stream.resource<transient>, index
}

// -----

// A clone result that leaves what memplan sees may be updated in place there:
// returned (a caller's single tied use), passed to a call, to an op of unknown
// effects, or through an op that may hand its operand's buffer on (a select).
// Only a `constant` result may be returned or stored (see @encode_chains).

// CHECK-LABEL: @escapes
// %1, read by a dispatch only, merges into none: each other clone escapes.
util.func private @callee(!stream.resource<*>) -> ()
util.func public @escapes(%src: !stream.resource<*>, %size: index, %p: i1) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  // CHECK-COUNT-5: stream.async.clone
  // CHECK-NOT: stream.async.clone
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %1 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %3 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  util.call @callee(%3) : (!stream.resource<*>) -> ()
  %4 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  "test.use"(%4) : (!stream.resource<*>) -> ()
  %5 = stream.async.clone %src : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %6 = arith.select %p, %5, %src : !stream.resource<*>
  util.return %0, %2, %6 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}

// -----

// Clones on different devices, to different lifetimes or of different sizes are
// different copies.

// CHECK-LABEL: @different_clones
util.func public @different_clones(%src: !stream.resource<constant>, %size: index, %other: index) -> (index, index, index, index) {
  // CHECK-COUNT-4: stream.async.clone
  %0 = stream.async.clone on(#hal.device.affinity<@dev0>) %src : !stream.resource<constant>{%size} -> !stream.resource<*>{%size}
  %1 = stream.async.clone on(#hal.device.affinity<@dev1>) %src : !stream.resource<constant>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.clone on(#hal.device.affinity<@dev0>) %src : !stream.resource<constant>{%size} -> !stream.resource<transient>{%size}
  %3 = stream.async.clone on(#hal.device.affinity<@dev0>) %src : !stream.resource<constant>{%size} -> !stream.resource<*>{%other}
  %4 = stream.resource.size %0 : !stream.resource<*>
  %5 = stream.resource.size %1 : !stream.resource<*>
  %6 = stream.resource.size %2 : !stream.resource<transient>
  %7 = stream.resource.size %3 : !stream.resource<*>
  util.return %4, %5, %6, %7 : index, index, index, index
}

// -----

// Untied dispatches are values computed from what they read, too: two equal ones
// whose results are only read merge. When a consumer ties its result to one (IREE
// bug #23665: merged, both consumers write one buffer), both stay.

// CHECK-LABEL: @dispatch_values
util.func public @dispatch_values(%src: !stream.resource<*>, %size: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[D:.+]] = stream.async.dispatch @ex::@entry[{{.+}}](%arg0[
  // CHECK-NEXT: stream.async.dispatch @ex::@reader[{{.+}}](%[[D]][
  // CHECK-NEXT: stream.async.dispatch @ex::@reader[{{.+}}](%[[D]][
  // CHECK-NEXT: %[[E:.+]] = stream.async.dispatch @ex::@other[{{.+}}](%arg0[
  // CHECK-NEXT: stream.async.dispatch @ex::@reader[{{.+}}](%[[E]][{{.+}}-> %[[E]]{
  // CHECK-NEXT: %[[F:.+]] = stream.async.dispatch @ex::@other[{{.+}}](%arg0[
  // CHECK-NEXT: stream.async.dispatch @ex::@reader[{{.+}}](%[[F]][{{.+}}-> %[[F]]{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%src[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %1 = stream.async.dispatch @ex::@reader[%c1, %c1, %c1](%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %2 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%src[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@reader[%c1, %c1, %c1](%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %4 = stream.async.dispatch @ex::@other[%c1, %c1, %c1](%src[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %5 = stream.async.dispatch @ex::@reader[%c1, %c1, %c1](%4[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %4{%size}
  %6 = stream.async.dispatch @ex::@other[%c1, %c1, %c1](%src[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %7 = stream.async.dispatch @ex::@reader[%c1, %c1, %c1](%6[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %6{%size}
  util.return %1, %3, %5, %7 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}
