// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect -p cse | FileCheck %s

// Pure duplicates merge, and so do their users once their operands are the same.

// CHECK-LABEL: @pure_duplicates
// CHECK-SAME: (%[[A:.+]]: index, %[[B:.+]]: index)
func.func @pure_duplicates(%a: index, %b: index) -> (index, index) {
  // CHECK-NEXT: %[[S:.+]] = arith.addi %[[A]], %[[B]]
  // CHECK-NEXT: %[[M:.+]] = arith.muli %[[S]], %[[S]]
  // CHECK-NEXT: return %[[M]], %[[M]]
  %0 = arith.addi %a, %b : index
  %1 = arith.addi %a, %b : index
  %2 = arith.muli %0, %1 : index
  %3 = arith.muli %0, %1 : index
  return %2, %3 : index, index
}

// -----

// Ops differing in an attribute, an operand order (of a non-commutative op) or a
// result type are not equal; a commutative op's operand order does not matter.

// CHECK-LABEL: @not_equal
func.func @not_equal(%a: index, %b: index) -> (i32, i32, index, index, index, index) {
  // CHECK-NEXT: arith.constant 1 : i32
  // CHECK-NEXT: arith.constant 2 : i32
  // CHECK-NEXT: %[[S0:.+]] = arith.subi %{{.+}}, %{{.+}} : index
  // CHECK-NEXT: %[[S1:.+]] = arith.subi %{{.+}}, %{{.+}} : index
  // CHECK-NEXT: %[[ADD:.+]] = arith.addi %{{.+}}, %{{.+}} : index
  // CHECK-NEXT: return %{{.+}}, %{{.+}}, %[[S0]], %[[S1]], %[[ADD]], %[[ADD]]
  %0 = arith.constant 1 : i32
  %1 = arith.constant 2 : i32
  %2 = arith.subi %a, %b : index
  %3 = arith.subi %b, %a : index
  %4 = arith.addi %a, %b : index
  %5 = arith.addi %b, %a : index
  return %0, %1, %2, %3, %4, %5 : i32, i32, index, index, index, index
}

// -----

// Two reads of the same buffer merge when nothing writes between them.

// CHECK-LABEL: @read_duplicates
func.func @read_duplicates(%m: memref<4xf32>, %i: index) -> (f32, f32) {
  // CHECK-NEXT: %[[L:.+]] = memref.load
  // CHECK-NEXT: return %[[L]], %[[L]]
  %0 = memref.load %m[%i] : memref<4xf32>
  %1 = memref.load %m[%i] : memref<4xf32>
  return %0, %1 : f32, f32
}

// -----

// A write that may alias (another argument could be the same buffer) lies between:
// the second read stays.

// CHECK-LABEL: @read_write_between
func.func @read_write_between(%m: memref<4xf32>, %n: memref<4xf32>, %i: index, %v: f32) -> (f32, f32) {
  // CHECK-NEXT: %[[L0:.+]] = memref.load
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: %[[L1:.+]] = memref.load
  // CHECK-NEXT: return %[[L0]], %[[L1]]
  %0 = memref.load %m[%i] : memref<4xf32>
  memref.store %v, %n[%i] : memref<4xf32>
  %1 = memref.load %m[%i] : memref<4xf32>
  return %0, %1 : f32, f32
}

// -----

// Two fresh allocations never alias: a write to one does not block reads of the
// other, even through a view.

// CHECK-LABEL: @write_to_other_allocation
func.func @write_to_other_allocation(%i: index, %v: f32) -> (f32, f32) {
  // CHECK: %[[L:.+]] = memref.load
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: return %[[L]], %[[L]]
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %bv = memref.subview %b[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %0 = memref.load %a[%i] : memref<4xf32>
  memref.store %v, %bv[%i] : memref<2xf32, strided<[1]>>
  %1 = memref.load %a[%i] : memref<4xf32>
  return %0, %1 : f32, f32
}

// -----

// ... but a write through a view of the same allocation does.

// CHECK-LABEL: @write_through_view
func.func @write_through_view(%i: index, %v: f32) -> (f32, f32) {
  // CHECK: %[[L0:.+]] = memref.load
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: %[[L1:.+]] = memref.load
  // CHECK-NEXT: return %[[L0]], %[[L1]]
  %a = memref.alloc() : memref<4xf32>
  %av = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %0 = memref.load %a[%i] : memref<4xf32>
  memref.store %v, %av[%i] : memref<2xf32, strided<[1]>>
  %1 = memref.load %a[%i] : memref<4xf32>
  return %0, %1 : f32, f32
}

// -----

// Reads of a mutable global merge unless a store to that global lies between; a
// store to another global does not matter.

util.global private mutable @g : i32
util.global private mutable @h : i32

// CHECK-LABEL: @global_reads
util.func public @global_reads(%v: i32) -> (i32, i32, i32, i32) {
  // CHECK-NEXT: %[[G0:.+]] = util.global.load @g
  // CHECK-NEXT: util.global.store %{{.+}}, @h
  // CHECK-NEXT: util.global.store %{{.+}}, @g
  // CHECK-NEXT: %[[G1:.+]] = util.global.load @g
  // CHECK-NEXT: util.return %[[G0]], %[[G0]], %[[G1]], %[[G1]]
  %0 = util.global.load @g : i32
  util.global.store %v, @h : i32
  %1 = util.global.load @g : i32
  util.global.store %v, @g : i32
  %2 = util.global.load @g : i32
  %3 = util.global.load @g : i32
  util.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Ops with unknown effects are never merged, and they block the merging of reads.

// CHECK-LABEL: @unknown_effects
func.func @unknown_effects(%m: memref<4xf32>, %i: index) -> (i32, i32, f32, f32) {
  // CHECK-NEXT: %[[X:.+]] = "test.unknown"()
  // CHECK-NEXT: %[[Y:.+]] = "test.unknown"()
  // CHECK-NEXT: %[[L0:.+]] = memref.load
  // CHECK-NEXT: call @f()
  // CHECK-NEXT: %[[L1:.+]] = memref.load
  // CHECK-NEXT: return %[[X]], %[[Y]], %[[L0]], %[[L1]]
  %0 = "test.unknown"() : () -> i32
  %1 = "test.unknown"() : () -> i32
  %2 = memref.load %m[%i] : memref<4xf32>
  func.call @f() : () -> ()
  %3 = memref.load %m[%i] : memref<4xf32>
  return %0, %1, %2, %3 : i32, i32, f32, f32
}
func.func private @f()

// -----

// Multi-block regions: an op is reused where its block dominates the duplicate
// (successors, the join), never from a sibling branch.

// CHECK-LABEL: @multi_block_dominance
func.func @multi_block_dominance(%c: i1, %a: index) -> (index, index) {
  // CHECK-NEXT: %[[E:.+]] = arith.addi %{{.+}}, %{{.+}} : index
  // CHECK-NEXT: cf.cond_br
  %0 = arith.addi %a, %a : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // CHECK: ^bb1:
  // CHECK-NEXT: %[[T:.+]] = arith.muli %[[E]], %[[E]]
  // CHECK-NEXT: cf.br ^bb3(%[[T]] : index)
  %1 = arith.addi %a, %a : index
  %2 = arith.muli %1, %1 : index
  cf.br ^bb3(%2 : index)
^bb2:
  // CHECK: ^bb2:
  // CHECK-NEXT: %[[F:.+]] = arith.muli %[[E]], %[[E]]
  // CHECK-NEXT: cf.br ^bb3(%[[F]] : index)
  %3 = arith.muli %0, %0 : index
  cf.br ^bb3(%3 : index)
^bb3(%x: index):
  // CHECK: ^bb3(%[[X:.+]]: index):
  // CHECK-NEXT: %[[J:.+]] = arith.muli %[[E]], %[[E]]
  // CHECK-NEXT: return %[[J]], %[[E]]
  %4 = arith.muli %0, %0 : index
  %5 = arith.addi %a, %a : index
  return %4, %5 : index, index
}

// -----

// Reads across blocks: reused in a block reached only from the reading block; not
// in a join whose other path writes.

util.global private mutable @g : i32

// CHECK-LABEL: @multi_block_reads
util.func public @multi_block_reads(%c: i1, %v: i32) -> (i32, i32) {
  // CHECK-NEXT: %[[G:.+]] = util.global.load @g
  %0 = util.global.load @g : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // CHECK: ^bb1:
  // CHECK-NEXT: cf.br ^bb3(%[[G]] : i32)
  %1 = util.global.load @g : i32
  cf.br ^bb3(%1 : i32)
^bb2:
  util.global.store %v, @g : i32
  cf.br ^bb3(%0 : i32)
^bb3(%x: i32):
  // CHECK: ^bb3(%{{.+}}: i32):
  // CHECK-NEXT: %[[J:.+]] = util.global.load @g
  // CHECK-NEXT: util.return %{{.+}}, %[[J]]
  %2 = util.global.load @g : i32
  util.return %x, %2 : i32, i32
}

// -----

// Nested regions see the enclosing scope; equal ops inside sibling regions do not
// see each other. Two equal region ops merge.

// CHECK-LABEL: @nested_regions
func.func @nested_regions(%c: i1, %a: index) -> (index, index, index) {
  // CHECK-NEXT: %[[E:.+]] = arith.addi
  %0 = arith.addi %a, %a : index
  // CHECK-NEXT: %[[R:.+]] = scf.if
  %r = scf.if %c -> (index) {
    // CHECK-NEXT: %[[T:.+]] = arith.muli %[[E]], %[[E]]
    // CHECK-NEXT: scf.yield %[[T]]
    %1 = arith.addi %a, %a : index
    %2 = arith.muli %1, %1 : index
    scf.yield %2 : index
  } else {
    // CHECK-NEXT: } else {
    // CHECK-NEXT: %[[F:.+]] = arith.muli %[[E]], %[[E]]
    // CHECK-NEXT: scf.yield %[[F]]
    %3 = arith.muli %0, %0 : index
    scf.yield %3 : index
  }
  // CHECK-NOT: scf.if
  // CHECK: return %[[E]], %[[R]], %[[R]]
  %r2 = scf.if %c -> (index) {
    %4 = arith.muli %0, %0 : index
    scf.yield %4 : index
  } else {
    %5 = arith.muli %0, %0 : index
    scf.yield %5 : index
  }
  return %0, %r, %r2 : index, index, index
}

// -----

// A read inside a loop body is not reused from before the loop when the body may
// write the buffer (on an earlier iteration); a pure op is.

// CHECK-LABEL: @loop_read
func.func @loop_read(%m: memref<4xf32>, %i: index, %n: index, %v: f32) -> f32 {
  // CHECK: %[[L:.+]] = memref.load
  // CHECK: scf.for
  // CHECK-NEXT: %[[IN:.+]] = memref.load
  // CHECK-NEXT: arith.addf %[[IN]], %{{.+}}
  // CHECK-NEXT: memref.store
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = memref.load %m[%i] : memref<4xf32>
  scf.for %k = %c0 to %n step %c1 {
    %1 = memref.load %m[%i] : memref<4xf32>
    %c1_0 = arith.constant 1 : index
    %2 = arith.addf %1, %v : f32
    memref.store %2, %m[%c1_0] : memref<4xf32>
  }
  return %0 : f32
}

// -----

// Ops isolated from above start with an empty scope: the nested constant is not
// replaced by the enclosing one (that would capture an outside value).

// CHECK-LABEL: @isolated_from_above
func.func @isolated_from_above() -> i32 {
  // CHECK-NEXT: arith.constant 7 : i32
  // CHECK-NEXT: "test.isolated"() ({
  // CHECK-NEXT: arith.constant 7 : i32
  %0 = arith.constant 7 : i32
  "test.isolated"() ({
    %1 = arith.constant 7 : i32
    "test.use"(%1) : (i32) -> ()
  }) : () -> ()
  return %0 : i32
}

// -----

// Fresh allocations are never merged: their users would share one buffer.

// CHECK-LABEL: @fresh_allocations
func.func @fresh_allocations() -> (memref<4xf32>, memref<4xf32>) {
  // CHECK-NEXT: memref.alloc
  // CHECK-NEXT: memref.alloc
  %0 = memref.alloc() : memref<4xf32>
  %1 = memref.alloc() : memref<4xf32>
  return %0, %1 : memref<4xf32>, memref<4xf32>
}

// -----

// Two equal stream.async.dispatch ops with fresh results stay two (IREE bug #23665:
// merged, both consumers write one buffer); so do equal allocas and clones.

// CHECK-LABEL: @fresh_dispatch_results
util.func public @fresh_dispatch_results(%arg0: !stream.resource<*>, %size: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<transient>, !stream.resource<transient>, !stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[D0:.+]] = stream.async.dispatch @ex::@entry
  // CHECK-NEXT: %[[D1:.+]] = stream.async.dispatch @ex::@entry
  // CHECK-NEXT: %[[A0:.+]] = stream.async.alloca
  // CHECK-NEXT: %[[A1:.+]] = stream.async.alloca
  // CHECK-NEXT: %[[C0:.+]] = stream.async.clone
  // CHECK-NEXT: %[[C1:.+]] = stream.async.clone
  // CHECK-NEXT: util.return %[[D0]], %[[D1]], %[[A0]], %[[A1]], %[[C0]], %[[C1]]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%arg0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %1 = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%arg0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %2 = stream.async.alloca : !stream.resource<transient>{%size}
  %3 = stream.async.alloca : !stream.resource<transient>{%size}
  %4 = stream.async.clone %arg0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %5 = stream.async.clone %arg0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  util.return %0, %1, %2, %3, %4, %5 : !stream.resource<*>, !stream.resource<*>, !stream.resource<transient>, !stream.resource<transient>, !stream.resource<*>, !stream.resource<*>
}

// -----

// Dead ops go: unused pure ops, reads and fresh allocations (and then what only they
// used); ops that write or have unknown effects stay.

// CHECK-LABEL: @dead_ops
func.func @dead_ops(%m: memref<4xf32>, %i: index, %v: f32) {
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: "test.unknown"()
  // CHECK-NEXT: return
  %0 = arith.addi %i, %i : index
  %1 = arith.muli %0, %0 : index
  %2 = memref.load %m[%1] : memref<4xf32>
  %a = memref.alloc() : memref<4xf32>
  memref.store %v, %m[%i] : memref<4xf32>
  %3 = "test.unknown"() : () -> i32
  return
}
