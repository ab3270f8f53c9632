// RUN: memplan-opt %s --split-input-file -p simplify-global-accesses | FileCheck %s

// Loads of immutable globals move to the top of the entry block in order of first
// appearance; later loads, in any block or nested region, reuse them.

util.global private @constA = 1 : i32
util.global private @constB = 2 : i32
util.func private @use(i32)

// CHECK-LABEL: @immutable_loads_hoist
util.func public @immutable_loads_hoist(%cond: i1) {
  // CHECK-NEXT: %[[A:.+]] = util.global.load @constA : i32
  // CHECK-NEXT: %[[B:.+]] = util.global.load @constB : i32
  // CHECK-NEXT: %[[C:.+]] = arith.constant 3 : i32
  %c = arith.constant 3 : i32
  util.call @use(%c) : (i32) -> ()
  %a = util.global.load @constA : i32
  // CHECK: util.call @use(%[[A]])
  util.call @use(%a) : (i32) -> ()
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  // CHECK: ^bb1:
  // CHECK-NEXT: util.call @use(%[[B]])
  %b = util.global.load @constB : i32
  util.call @use(%b) : (i32) -> ()
  cf.br ^bb2
^bb2:
  // CHECK: ^bb2:
  // CHECK-NOT: util.global.load
  // CHECK: scf.if
  // CHECK-NEXT: util.call @use(%[[A]])
  scf.if %cond {
    %a2 = util.global.load @constA : i32
    util.call @use(%a2) : (i32) -> ()
  }
  util.return
}

// -----

// Read after write: the load takes the stored value.

util.global private mutable @varA : i32

// CHECK-LABEL: @raw
// CHECK-SAME: (%[[V:.+]]: i32)
util.func public @raw(%v: i32) -> i32 {
  // CHECK-NEXT: util.global.store %[[V]], @varA
  util.global.store %v, @varA : i32
  // CHECK-NOT: util.global.load
  %0 = util.global.load @varA : i32
  // CHECK: util.return %[[V]]
  util.return %0 : i32
}

// -----

// Read after read: the second load reuses the first.

util.global private mutable @varA : i32

// CHECK-LABEL: @rar
util.func public @rar() -> (i32, i32) {
  // CHECK-NEXT: %[[A:.+]] = util.global.load @varA : i32
  %0 = util.global.load @varA : i32
  // CHECK-NEXT: util.return %[[A]], %[[A]]
  %1 = util.global.load @varA : i32
  util.return %0, %1 : i32, i32
}

// -----

// Write after write: the first store is dead.

util.global private mutable @varA : i32

// CHECK-LABEL: @waw
// CHECK-SAME: (%{{.+}}: i32, %[[W:.+]]: i32)
util.func public @waw(%v: i32, %w: i32) {
  // CHECK-NEXT: util.global.store %[[W]], @varA
  // CHECK-NEXT: util.return
  util.global.store %v, @varA : i32
  util.global.store %w, @varA : i32
  util.return
}

// -----

// A store, a load forwarded from it, then another store: the first store is dead
// too (nothing reads the global between the two stores any more).

util.global private mutable @varA : i32

// CHECK-LABEL: @raw_then_waw
// CHECK-SAME: (%[[V:.+]]: i32, %[[W:.+]]: i32)
util.func public @raw_then_waw(%v: i32, %w: i32) -> i32 {
  // CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[V]], %[[V]]
  // CHECK-NEXT: util.global.store %[[W]], @varA
  // CHECK-NEXT: util.return %[[SUM]]
  util.global.store %v, @varA : i32
  %0 = util.global.load @varA : i32
  %1 = arith.addi %0, %0 : i32
  util.global.store %w, @varA : i32
  util.return %1 : i32
}

// -----

// A call may read or write any global: nothing is forwarded across it, and a store
// before it is not dead.

util.global private mutable @varA : i32
util.func private @other()

// CHECK-LABEL: @call_blocks_forwarding
// CHECK-SAME: (%[[V:.+]]: i32, %[[W:.+]]: i32)
util.func public @call_blocks_forwarding(%v: i32, %w: i32) -> i32 {
  // CHECK-NEXT: util.global.store %[[V]], @varA
  // CHECK-NEXT: util.call @other()
  // CHECK-NEXT: %[[L:.+]] = util.global.load @varA
  // CHECK-NEXT: util.call @other()
  // CHECK-NEXT: util.global.store %[[W]], @varA
  // CHECK-NEXT: util.return %[[L]]
  util.global.store %v, @varA : i32
  util.call @other() : () -> ()
  %0 = util.global.load @varA : i32
  util.call @other() : () -> ()
  util.global.store %w, @varA : i32
  util.return %0 : i32
}

// -----

// Accesses to different globals do not interfere, and ops whose effects name
// buffers (not globals) are no barrier.

util.global private mutable @varA : i32
util.global private mutable @varB : i32

// CHECK-LABEL: @other_globals_and_buffers
// CHECK-SAME: (%[[V:.+]]: i32, %[[M:.+]]: memref<4xi32>, %{{.+}}: index)
util.func public @other_globals_and_buffers(%v: i32, %m: memref<4xi32>, %i: index) -> (i32, i32) {
  // The first access of @varB, a load, moves to the top; the last of @varA, a
  // store, to the bottom (memref.store touches no global: no barrier).
  // CHECK-NEXT: %[[B:.+]] = util.global.load @varB
  // CHECK-NEXT: memref.store %[[B]], %[[M]]
  // CHECK-NEXT: util.global.store %[[V]], @varA
  // CHECK-NEXT: util.return %[[V]], %[[B]]
  util.global.store %v, @varA : i32
  %b = util.global.load @varB : i32
  memref.store %b, %m[%i] : memref<4xi32>
  %a = util.global.load @varA : i32
  %b2 = util.global.load @varB : i32
  util.return %a, %b2 : i32, i32
}

// -----

// An op whose nested region stores the global is a barrier; the nested block is
// simplified on its own.

util.global private mutable @varA : i32

// CHECK-LABEL: @region_barrier
// CHECK-SAME: (%{{.+}}: i1, %[[V:.+]]: i32)
util.func public @region_barrier(%cond: i1, %v: i32) -> i32 {
  // CHECK-NEXT: %[[L0:.+]] = util.global.load @varA
  %0 = util.global.load @varA : i32
  // CHECK-NEXT: scf.if
  scf.if %cond {
    // CHECK-NEXT: util.global.store %[[V]], @varA
    // CHECK-NEXT: }
    util.global.store %0, @varA : i32
    util.global.store %v, @varA : i32
  }
  // CHECK-NEXT: %[[L1:.+]] = util.global.load @varA
  %1 = util.global.load @varA : i32
  %2 = arith.addi %0, %1 : i32
  util.return %2 : i32
}

// -----

// Accesses in different blocks are not related.

util.global private mutable @varA : i32

// CHECK-LABEL: @blocks_are_separate
util.func public @blocks_are_separate(%v: i32) -> i32 {
  util.global.store %v, @varA : i32
  cf.br ^bb1
// CHECK: ^bb1:
// CHECK-NEXT: %[[L:.+]] = util.global.load @varA
// CHECK-NEXT: util.return %[[L]]
^bb1:
  %0 = util.global.load @varA : i32
  util.return %0 : i32
}

// -----

// In an initializer every global counts as mutable: the immutable global is
// initialized here, so its loads are ordered with its stores (and not hoisted).

util.global private @immutable : i32
util.func private @use(i32)

// CHECK-LABEL: util.initializer
util.initializer {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 5 : i32
  // CHECK-NEXT: util.call @use
  // CHECK-NEXT: util.global.store %[[C]], @immutable
  // CHECK-NEXT: util.call @use(%[[C]])
  %c = arith.constant 5 : i32
  util.call @use(%c) : (i32) -> ()
  util.global.store %c, @immutable : i32
  %0 = util.global.load @immutable : i32
  util.call @use(%0) : (i32) -> ()
  util.return
}

// -----

// Already simple: nothing moves.

util.global private @constA = 1 : i32
util.global private mutable @varA : i32

// CHECK-LABEL: @already_simple
// CHECK-SAME: (%[[ARG:.+]]: i32)
util.func public @already_simple(%v: i32) -> (i32, i32) {
  // CHECK-NEXT: %[[A:.+]] = util.global.load @constA
  // CHECK-NEXT: %[[V:.+]] = util.global.load @varA
  // CHECK-NEXT: util.global.store %[[ARG]], @varA
  // CHECK-NEXT: util.return %[[A]], %[[V]]
  %a = util.global.load @constA : i32
  %0 = util.global.load @varA : i32
  util.global.store %v, @varA : i32
  util.return %a, %0 : i32, i32
}

// -----

// Loads move up and stores down only within their segment: a call ends it. Loads
// keep their program order among themselves, and so do stores.

util.global private mutable @segA : i32
util.global private mutable @segB : i32
util.func private @barrier()

// CHECK-LABEL: @motion_stops_at_calls
// CHECK-SAME: (%[[V:.+]]: i32)
util.func public @motion_stops_at_calls(%v: i32) -> (i32, i32) {
  // CHECK-NEXT: %[[A:.+]] = util.global.load @segA
  // CHECK-NEXT: %[[B:.+]] = util.global.load @segB
  // CHECK-NEXT: %[[C:.+]] = arith.addi %[[V]], %[[V]]
  // CHECK-NEXT: util.global.store %[[C]], @segB
  // CHECK-NEXT: util.call @barrier()
  // CHECK-NEXT: %[[A2:.+]] = util.global.load @segA
  // CHECK-NEXT: util.global.store %[[V]], @segB
  // CHECK-NEXT: util.return %[[A2]], %[[B]]
  %c = arith.addi %v, %v : i32
  %a = util.global.load @segA : i32
  %b = util.global.load @segB : i32
  util.global.store %c, @segB : i32
  util.call @barrier() : () -> ()
  util.global.store %v, @segB : i32
  %a2 = util.global.load @segA : i32
  util.return %a2, %b : i32, i32
}
