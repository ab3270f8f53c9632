// RUN: memplan-opt %s --split-input-file -p stream-cleanup | FileCheck %s
// Ops whose declared effects or folders decide what stream-cleanup removes, as
// IREE 3.13's canonicalize,cse removes them.

// A try_map only allocates its result: unused, it is dead, and so is the
// initializer left empty.
// CHECK-LABEL: module
// CHECK-NOT: stream.resource.try_map
// CHECK-NOT: util.initializer
util.initializer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %b = util.buffer.constant : !util.buffer = dense<1> : vector<16xi8>
  %ok, %r = stream.resource.try_map %b[%c0] : !util.buffer -> i1, !stream.resource<constant>{%c16}
  util.return
}

// -----

// CHECK-LABEL: @try_map_used
// CHECK: %[[OK:.*]], %{{.*}} = stream.resource.try_map
// CHECK: util.return %[[OK]]
util.func public @try_map_used(%b: !util.buffer) -> i1 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %ok, %r = stream.resource.try_map %b[%c0] : !util.buffer -> i1, !stream.resource<constant>{%c16}
  util.return %ok : i1
}
