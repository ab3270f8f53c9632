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

// -----

// A tensor clone between equal resource types is its source when it is used
// once or by no op tying a result to it, whatever the tensor types (a reshape
// copies nothing); a lifetime change, or a second use next to a tied one, keep it.
// CHECK-LABEL: @clone_reshape
// CHECK-NEXT: util.return %arg0
util.func public @clone_reshape(%r: !stream.resource<*>, %s: index, %t: index) -> !stream.resource<*> {
  %0 = stream.tensor.clone %r : tensor<2x8xf32> in !stream.resource<*>{%s} -> tensor<16xf32> in !stream.resource<*>{%t}
  util.return %0 : !stream.resource<*>
}

// CHECK-LABEL: @clone_untied_uses
// CHECK-NEXT: util.return %arg0, %arg0
util.func public @clone_untied_uses(%r: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.clone %r : tensor<8xi32> in !stream.resource<*>{%s} -> tensor<8xi32> in !stream.resource<*>{%s}
  util.return %0, %0 : !stream.resource<*>, !stream.resource<*>
}

// CHECK-LABEL: @clone_one_tied_use
// CHECK-NOT: stream.tensor.clone
// CHECK: stream.tensor.fill %{{.*}}, %arg0
util.func public @clone_one_tied_use(%r: !stream.resource<*>, %s: index, %v: i32) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %0 = stream.tensor.clone %r : tensor<8xi32> in !stream.resource<*>{%s} -> tensor<8xi32> in !stream.resource<*>{%s}
  %1 = stream.tensor.fill %v, %0[%c0 for %c2] : i32 -> tensor<8xi32> in %0 as !stream.resource<*>{%s}
  util.return %1 : !stream.resource<*>
}

// CHECK-LABEL: @clone_tied_and_other_use
// CHECK: %[[C:.*]] = stream.tensor.clone %arg0
// CHECK: stream.tensor.fill %{{.*}}, %[[C]]
util.func public @clone_tied_and_other_use(%r: !stream.resource<*>, %s: index, %v: i32) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %0 = stream.tensor.clone %r : tensor<8xi32> in !stream.resource<*>{%s} -> tensor<8xi32> in !stream.resource<*>{%s}
  %1 = stream.tensor.fill %v, %0[%c0 for %c2] : i32 -> tensor<8xi32> in %0 as !stream.resource<*>{%s}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// CHECK-LABEL: @clone_lifetime
// CHECK: stream.tensor.clone %arg0 : tensor<8xi32> in !stream.resource<*>{%arg1} -> tensor<8xi32> in !stream.resource<transient>{%arg1}
util.func public @clone_lifetime(%r: !stream.resource<*>, %s: index) -> !stream.resource<transient> {
  %0 = stream.tensor.clone %r : tensor<8xi32> in !stream.resource<*>{%s} -> tensor<8xi32> in !stream.resource<transient>{%s}
  util.return %0 : !stream.resource<transient>
}
