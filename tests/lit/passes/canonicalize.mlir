// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect -p canonicalize | FileCheck %s

// A transfer back to where, and as what, the data came from is the original value.

// CHECK-LABEL: @transfer_round_trip
// CHECK-SAME: (%[[SRC:.+]]: !stream.resource<constant>, %{{.+}}: index)
util.func public @transfer_round_trip(%src: !stream.resource<constant>, %size: index) -> !stream.resource<constant> {
  // CHECK-NEXT: util.return %[[SRC]]
  %0 = stream.async.transfer %src : !stream.resource<constant>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<constant>{%size}
  util.return %1 : !stream.resource<constant>
}

// -----

// Two hops to a third place become one; the first hop stays while it has other
// users.

// CHECK-LABEL: @transfer_chain_composes
// CHECK-SAME: (%[[SRC:.+]]: !stream.resource<constant>, %[[SIZE:.+]]: index)
util.func public @transfer_chain_composes(%src: !stream.resource<constant>, %size: index) -> (!stream.resource<*>, !stream.resource<constant>) {
  // CHECK-NEXT: %[[HOP:.+]] = stream.async.transfer %[[SRC]] : !stream.resource<constant>{%[[SIZE]]} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%[[SIZE]]}
  // CHECK-NEXT: %[[DIRECT:.+]] = stream.async.transfer %[[SRC]] : !stream.resource<constant>{%[[SIZE]]} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<constant>{%[[SIZE]]}
  // CHECK-NEXT: util.return %[[HOP]], %[[DIRECT]]
  %0 = stream.async.transfer %src : !stream.resource<constant>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<constant>{%size}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<constant>
}

// -----

// A transfer between equal affinities stays a transfer (IREE 3.13 turns it into
// stream.async.clone, which is not Pure and so is never merged by CSE).

// CHECK-LABEL: @same_affinity_transfer_is_kept
util.func public @same_affinity_transfer_is_kept(%src: !stream.resource<constant>, %size: index) -> !stream.resource<*> {
  // CHECK-NEXT: %[[T:.+]] = stream.async.transfer
  // CHECK-NOT: stream.async.clone
  // CHECK-NEXT: util.return %[[T]]
  %0 = stream.async.transfer %src : !stream.resource<constant>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// Encoding to the same encoding is the source; to another encoding it is kept.

// CHECK-LABEL: @encode
// CHECK-SAME: (%[[SRC:.+]]: !stream.resource<*>, %{{.+}}: index, %{{.+}}: index)
util.func public @encode(%src: !stream.resource<*>, %size: index, %size2: index) -> (!stream.resource<*>, !stream.resource<*>) {
  // CHECK-NEXT: %[[E:.+]] = stream.tensor.encode on(#hal.device.affinity<@dev_a>) %[[SRC]] : tensor<4x4xf32> in !stream.resource<*>{%{{.+}}} -> tensor<4x4xf32, #encoding>
  // CHECK-NEXT: util.return %[[SRC]], %[[E]]
  %0 = stream.tensor.encode on(#hal.device.affinity<@dev_a>) %src : tensor<4x4xf32> in !stream.resource<*>{%size} -> tensor<4x4xf32> in !stream.resource<*>{%size}
  %1 = stream.tensor.encode on(#hal.device.affinity<@dev_a>) %src : tensor<4x4xf32> in !stream.resource<*>{%size} -> tensor<4x4xf32, #iree_encoding.testing<>> in !stream.resource<*>{%size2}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A resource's size is known from the op defining it, or from a user in the same
// block that passes it with a size defined before the query; otherwise it stays a
// query.

// CHECK-LABEL: @resource_size
// CHECK-SAME: (%[[SRC:.+]]: !stream.resource<*>, %[[SIZE:.+]]: index, %[[OTHER:.+]]: !stream.resource<*>)
util.func public @resource_size(%src: !stream.resource<*>, %size: index, %other: !stream.resource<*>) -> (!stream.resource<constant>, index, index, index) {
  // CHECK-NEXT: %[[T:.+]] = stream.async.transfer %[[SRC]]
  // CHECK-NEXT: %[[Q:.+]] = stream.resource.size %[[OTHER]]
  // CHECK-NEXT: util.return %[[T]], %[[SIZE]], %[[SIZE]], %[[Q]]
  %0 = stream.async.transfer %src : !stream.resource<*>{%size} -> !stream.resource<constant>{%size}
  %1 = stream.resource.size %0 : !stream.resource<constant>
  %2 = stream.resource.size %src : !stream.resource<*>
  %3 = stream.resource.size %other : !stream.resource<*>
  util.return %0, %1, %2, %3 : !stream.resource<constant>, index, index, index
}

// -----

// A later user tells the size (a resource has one size) when its size value is
// already defined at the query, as IREE folds it; a size defined after the query
// does not.

// CHECK-LABEL: @resource_size_later_user
// CHECK-SAME: (%[[SRC:.+]]: !stream.resource<*>, %[[SIZE:.+]]: index)
util.func public @resource_size_later_user(%src: !stream.resource<*>, %size: index) -> (index, !stream.resource<constant>, index) {
  // CHECK-NEXT: %[[Q:.+]] = stream.resource.size %[[SRC]]
  // CHECK-NEXT: %[[LATE:.+]] = arith.addi %[[SIZE]], %[[SIZE]]
  // CHECK-NEXT: %[[T:.+]] = stream.async.transfer %[[SRC]]
  // CHECK-NEXT: util.return %[[Q]], %[[T]], %[[LATE]]
  %0 = stream.resource.size %src : !stream.resource<*>
  %late = arith.addi %size, %size : index
  %1 = stream.async.transfer %src : !stream.resource<*>{%late} -> !stream.resource<constant>{%late}
  %2 = stream.resource.size %src : !stream.resource<*>
  util.return %0, %1, %2 : index, !stream.resource<constant>, index
}

// -----

// Unused ops without effects go; ops with effects stay.

util.func private @sink()

// CHECK-LABEL: @unused_pure_ops
util.func public @unused_pure_ops(%src: !stream.resource<*>, %size: index) {
  // CHECK-NEXT: util.call @sink()
  // CHECK-NEXT: "test.op"()
  // CHECK-NEXT: util.return
  %0 = stream.async.transfer %src : !stream.resource<*>{%size} -> !stream.resource<constant>{%size}
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@dev_a>) tensor<4x4xf32> : index
  %2 = stream.resource.size %0 : !stream.resource<constant>
  util.call @sink() : () -> ()
  "test.op"() : () -> ()
  util.return
}

// -----

// Equal constants merge, and constants move to the front of their function's entry
// block (so the one kept dominates every former use).

// CHECK-LABEL: @constants
util.func public @constants(%c: i1, %a: index) -> index {
  // CHECK-NEXT: %[[C5:.+]] = arith.constant 5 : index
  // CHECK-NEXT: %[[C7:.+]] = arith.constant 7 : index
  // CHECK-NEXT: %[[X:.+]] = arith.muli %{{.+}}, %[[C5]]
  // CHECK-NEXT: %[[R:.+]] = scf.if
  // CHECK-NEXT: arith.addi %[[X]], %[[C7]]
  // CHECK: } else {
  // CHECK-NEXT: arith.addi %[[X]], %[[C5]]
  // CHECK-NOT: arith.constant
  %x0 = arith.constant 5 : index
  %x = arith.muli %a, %x0 : index
  %r = scf.if %c -> (index) {
    %c7 = arith.constant 7 : index
    %y = arith.addi %x, %c7 : index
    scf.yield %y : index
  } else {
    %c5 = arith.constant 5 : index
    %z = arith.addi %x, %c5 : index
    scf.yield %z : index
  }
  util.return %r : index
}

// -----

// A block argument that receives the same value from every predecessor is that
// value; an unused one is dropped; an unreachable block is erased.

util.func private @side(i32)

// CHECK-LABEL: @block_arguments
// CHECK-SAME: (%[[C:.+]]: i1, %[[A:.+]]: i32, %[[B:.+]]: i32)
util.func public @block_arguments(%c: i1, %a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: cf.cond_br %[[C]], ^bb1, ^bb2
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // CHECK: ^bb1:
  // CHECK-NEXT: util.call @side(%[[A]])
  // CHECK-NEXT: cf.br ^bb3(%[[B]] : i32)
  util.call @side(%a) : (i32) -> ()
  cf.br ^bb3(%a, %b, %a : i32, i32, i32)
^bb2:
  // CHECK: ^bb2:
  // CHECK-NEXT: util.call @side(%[[B]])
  // CHECK-NEXT: cf.br ^bb3(%[[A]] : i32)
  util.call @side(%b) : (i32) -> ()
  cf.br ^bb3(%a, %a, %b : i32, i32, i32)
// CHECK: ^bb3(%[[Y:.+]]: i32):
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[A]], %[[Y]]
// CHECK-NEXT: util.return %[[S]]
// CHECK-NOT: ^bb
^bb3(%x: i32, %y: i32, %unused: i32):
  %0 = arith.addi %x, %y : i32
  util.return %0 : i32
^bb4:
  util.call @side(%a) : (i32) -> ()
  cf.br ^bb3(%b, %b, %b : i32, i32, i32)
}

// -----

// A loop-invariant argument (the same value on entry, itself on the back edge).

// CHECK-LABEL: @loop_invariant_argument
// CHECK-SAME: (%[[N:.+]]: index)
util.func public @loop_invariant_argument(%n: index) -> index {
  // CHECK: cf.br ^bb1(%{{.+}} : index)
  // CHECK-NEXT: ^bb1(%[[I:.+]]: index):
  // CHECK-NEXT: arith.cmpi slt, %[[I]], %[[N]]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %n : index, index)
^bb1(%i: index, %m: index):
  %cond = arith.cmpi slt, %i, %m : index
  %next = arith.addi %i, %c1 : index
  cf.cond_br %cond, ^bb1(%next, %m : index, index), ^bb2
^bb2:
  util.return %i : index
}

// -----

// xDSL's own ops' patterns and folders apply: constant arithmetic folds, a branch on
// a constant condition becomes an unconditional one.

util.func private @side(i32)

// CHECK-LABEL: @upstream_patterns
util.func public @upstream_patterns(%a: i32) -> i32 {
  // CHECK-NEXT: %[[C5:.+]] = arith.constant 5 : i32
  // CHECK-NEXT: util.call @side(%[[C5]])
  // CHECK-NEXT: util.return %[[C5]]
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %true = arith.constant true
  %s = arith.addi %c2, %c3 : i32
  cf.cond_br %true, ^bb1, ^bb2
^bb1:
  util.call @side(%s) : (i32) -> ()
  util.return %s : i32
^bb2:
  util.return %a : i32
}

// -----

// An initializer that does nothing is erased.

// CHECK-LABEL: module
// CHECK-NOT: util.initializer
util.initializer {
  util.return
}

// -----

// A store of the value just loaded from the same global is a no-op and goes, unless
// a store to that global lies between (IREE 3.13 erases it then too, leaving the
// wrong value in the global).

util.global private mutable @g : i32

// CHECK-LABEL: @store_of_loaded_value
util.func public @store_of_loaded_value(%v: i32) {
  // CHECK-NEXT: %[[L:.+]] = util.global.load @g
  // CHECK-NEXT: util.global.store %{{.+}}, @g
  // CHECK-NEXT: util.global.store %[[L]], @g
  // CHECK-NEXT: util.return
  %0 = util.global.load @g : i32
  util.global.store %0, @g : i32
  %1 = util.global.load @g : i32
  util.global.store %v, @g : i32
  util.global.store %1, @g : i32
  util.return
}

// -----

// scf.while as MLIR canonicalizes it: a carried value the body hands back
// unchanged (or its init value) is the init value, a value the condition passes
// from outside the loop is that value, and a result nobody uses (in the body or
// after) is dropped; the counter, which changes, stays carried.

// CHECK-LABEL: @while_invariants
// CHECK-SAME: (%[[INIT:.+]]: i32, %[[K:.+]]: i32, %[[BOUND:.+]]: i32)
func.func @while_invariants(%init: i32, %k: i32, %bound: i32) -> (i32, i32, i32) {
  // CHECK: %[[R:.+]] = scf.while (%[[I:.+]] = %[[INIT]]) : (i32) -> i32 {
  // CHECK: scf.condition(%{{.+}}) %[[I]] : i32
  // CHECK: ^bb0(%[[A:.+]]: i32):
  // CHECK: arith.addi %[[A]], %[[K]] : i32
  %r:3 = scf.while (%i = %init, %inv = %k, %same = %k) : (i32, i32, i32) -> (i32, i32, i32) {
    %cond = arith.cmpi slt, %i, %bound : i32
    scf.condition(%cond) %i, %inv, %bound : i32, i32, i32
  } do {
  ^bb0(%a: i32, %b: i32, %c: i32):
    %next = arith.addi %a, %b : i32
    scf.yield %next, %b, %k : i32, i32, i32
  }
  // CHECK: return %[[R]], %[[K]], %[[BOUND]]
  func.return %r#0, %r#1, %r#2 : i32, i32, i32
}

// CHECK-LABEL: @while_unused_result
func.func @while_unused_result(%init: i32, %bound: i32) -> i32 {
  // CHECK: %[[R:.+]] = scf.while (%{{.+}}) : (i32) -> i32 {
  // CHECK-NOT: arith.muli
  // CHECK: scf.condition(%{{.+}}) %{{.+}} : i32
  %r:2 = scf.while (%i = %init) : (i32) -> (i32, i32) {
    %cond = arith.cmpi slt, %i, %bound : i32
    %sq = arith.muli %i, %i : i32
    scf.condition(%cond) %i, %sq : i32, i32
  } do {
  ^bb0(%a: i32, %b: i32):
    %next = arith.addi %a, %a : i32
    scf.yield %next : i32
  }
  // CHECK: return %[[R]]
  func.return %r#0 : i32
}

// -----

// scf.for as MLIR's ForOpIterArgsFolder: a carried value the body yields back
// unchanged (itself, or its init value, as IREE's stream conversion threads a
// resource size), or one nobody uses in the body or after, is the init value; the
// accumulator, which changes, stays carried.

// CHECK-LABEL: @for_invariants
// CHECK-SAME: (%[[N:.+]]: index, %[[X:.+]]: i32, %[[K:.+]]: i32)
func.func @for_invariants(%n: index, %x: i32, %k: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[R:.+]] = scf.for %{{.+}} = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[X]]) -> (i32) {
  // CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[ACC]], %[[K]] : i32
  // CHECK-NEXT: scf.yield %[[NEXT]] : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %self = %k, %init = %k, %dead = %x) -> (i32, i32, i32, i32) {
    %next = arith.addi %acc, %self : i32
    %d = arith.muli %acc, %acc : i32
    scf.yield %next, %self, %k, %d : i32, i32, i32, i32
  }
  // CHECK: return %[[R]], %[[K]], %[[K]], %[[X]]
  func.return %r#0, %r#1, %r#2, %x : i32, i32, i32, i32
}
