// RUN: memplan-opt %s --split-input-file --iree-util-fuse-globals | FileCheck %s

// Always stored the same value together: @fusable1 becomes @fusable0.

// CHECK: util.global private mutable @fusable0 : index
util.global private mutable @fusable0 : index
// CHECK-NOT: @fusable1
util.global private mutable @fusable1 : index
// CHECK-LABEL: @fusable(
util.func @fusable(%arg0: index) -> (index, index) {
  // CHECK: util.global.store %arg0, @fusable0 : index
  util.global.store %arg0, @fusable0 : index
  // CHECK-NOT: util.global.store
  util.global.store %arg0, @fusable1 : index
  // CHECK: %[[V0:.+]] = util.global.load @fusable0 : index
  %0 = util.global.load @fusable0 : index
  // CHECK: %[[V1:.+]] = util.global.load @fusable0 : index
  %1 = util.global.load @fusable1 : index
  // CHECK: util.return %[[V0]], %[[V1]]
  util.return %0, %1 : index, index
}

// -----

// Fused in an initializer too, whatever lies between the two stores as long as it
// touches neither global; a load elsewhere follows the fused global.

// CHECK: util.global private @init0 : index
util.global private @init0 : index
// CHECK: util.global private @init0_size : index
util.global private @init0_size : index
// CHECK-NOT: @init1
util.global private @init1 : index
util.global private @init1_size : index
// CHECK-LABEL: util.initializer
util.initializer {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = arith.addi %c1, %c2 : index
  %1 = arith.muli %c1, %c2 : index
  // CHECK: util.global.store %{{.+}}, @init0 : index
  util.global.store %0, @init0 : index
  // CHECK: util.global.store %{{.+}}, @init0_size : index
  util.global.store %1, @init0_size : index
  // CHECK-NOT: util.global.store
  util.global.store %0, @init1 : index
  util.global.store %1, @init1_size : index
  // CHECK: util.return
  util.return
}
// CHECK-LABEL: @load_fused(
util.func @load_fused() -> (index, index) {
  // CHECK: util.global.load immutable @init0 : index
  %0 = util.global.load immutable @init1 : index
  // CHECK: util.global.load immutable @init0_size : index
  %1 = util.global.load immutable @init1_size : index
  util.return %0, %1 : index, index
}

// -----

// Stored different values: nothing fuses.

// CHECK: util.global private mutable @nonuniform0 : index
util.global private mutable @nonuniform0 : index
// CHECK: util.global private mutable @nonuniform1 : index
util.global private mutable @nonuniform1 : index
// CHECK-LABEL: @nonuniform(
util.func @nonuniform(%arg0: index, %arg1: index) -> (index, index) {
  // CHECK: util.global.store %arg0, @nonuniform0 : index
  util.global.store %arg0, @nonuniform0 : index
  // CHECK: util.global.store %arg1, @nonuniform1 : index
  util.global.store %arg1, @nonuniform1 : index
  %0 = util.global.load @nonuniform0 : index
  %1 = util.global.load @nonuniform1 : index
  util.return %0, %1 : index, index
}

// -----

// Different initial values: a load before the stores tells them apart.

// CHECK: util.global private mutable @initial0 = 1 : index
util.global private mutable @initial0 = 1 : index
// CHECK: util.global private mutable @initial1 = 2 : index
util.global private mutable @initial1 = 2 : index
// CHECK-LABEL: @different_initial_values(
util.func @different_initial_values(%arg0: index) -> (index, index) {
  %0 = util.global.load @initial0 : index
  %1 = util.global.load @initial1 : index
  // CHECK: util.global.store %arg0, @initial0 : index
  util.global.store %arg0, @initial0 : index
  // CHECK: util.global.store %arg0, @initial1 : index
  util.global.store %arg0, @initial1 : index
  util.return %0, %1 : index, index
}

// -----

// Equal initial values fuse.

// CHECK: util.global private mutable @same0 = 1 : index
util.global private mutable @same0 = 1 : index
// CHECK-NOT: @same1
util.global private mutable @same1 = 1 : index
// CHECK-LABEL: @same_initial_values(
util.func @same_initial_values(%arg0: index) -> (index, index) {
  // CHECK: util.global.load @same0
  %0 = util.global.load @same0 : index
  // CHECK: util.global.load @same0
  %1 = util.global.load @same1 : index
  util.global.store %arg0, @same0 : index
  util.global.store %arg0, @same1 : index
  util.return %0, %1 : index, index
}

// -----

// @divergent1 is also stored another value elsewhere: no fusion.

// CHECK: util.global private mutable @divergent0 : index
util.global private mutable @divergent0 : index
// CHECK: util.global private mutable @divergent1 : index
util.global private mutable @divergent1 : index
// CHECK-LABEL: @divergent(
util.func @divergent(%arg0: index) {
  // CHECK: util.global.store %arg0, @divergent0 : index
  util.global.store %arg0, @divergent0 : index
  // CHECK: util.global.store %arg0, @divergent1 : index
  util.global.store %arg0, @divergent1 : index
  util.return
}
util.func @divergent_b(%arg0: index) {
  // CHECK: util.global.store %arg0, @divergent1 : index
  util.global.store %arg0, @divergent1 : index
  util.return
}
util.func @read() -> (index, index) {
  %0 = util.global.load @divergent0 : index
  %1 = util.global.load @divergent1 : index
  util.return %0, %1 : index, index
}

// -----

// A subset fuses: @subset0 and @subset1 are always stored together; @subset2 is
// not in @bar.

// CHECK: util.global private mutable @subset0 : index
util.global private mutable @subset0 : index
// CHECK-NOT: @subset1
util.global private mutable @subset1 : index
// CHECK: util.global private mutable @subset2 : index
util.global private mutable @subset2 : index
// CHECK-LABEL: @subset_foo(
util.func @subset_foo(%arg0: index) {
  // CHECK-NEXT: util.global.store %arg0, @subset0 : index
  util.global.store %arg0, @subset0 : index
  util.global.store %arg0, @subset1 : index
  // CHECK-NEXT: util.global.store %arg0, @subset2 : index
  util.global.store %arg0, @subset2 : index
  // CHECK-NEXT: util.return
  util.return
}
// CHECK-LABEL: @subset_bar(
util.func @subset_bar(%arg0: index, %arg1: index) {
  // CHECK-NEXT: util.global.store %arg0, @subset0 : index
  util.global.store %arg0, @subset0 : index
  util.global.store %arg0, @subset1 : index
  // CHECK-NEXT: util.global.store %arg1, @subset2 : index
  util.global.store %arg1, @subset2 : index
  // CHECK-NEXT: util.return
  util.return
}
// CHECK-LABEL: @subset_read(
util.func @subset_read() -> (index, index, index) {
  // CHECK: util.global.load @subset0
  // CHECK: util.global.load @subset0
  // CHECK: util.global.load @subset2
  %0 = util.global.load @subset0 : index
  %1 = util.global.load @subset1 : index
  %2 = util.global.load @subset2 : index
  util.return %0, %1, %2 : index, index, index
}

// -----

// A load of one of the two between their stores sees them differ (the old value
// of @between1): no fusion (IREE fuses; see docs/design/fuse-globals.md). The same
// for a call between them, which may load either.

// CHECK: util.global private mutable @between0 = 0 : index
util.global private mutable @between0 = 0 : index
// CHECK: util.global private mutable @between1 = 0 : index
util.global private mutable @between1 = 0 : index
// CHECK: util.global private mutable @call0 = 0 : index
util.global private mutable @call0 = 0 : index
// CHECK: util.global private mutable @call1 = 0 : index
util.global private mutable @call1 = 0 : index
// CHECK-LABEL: @load_between(
util.func @load_between(%arg0: index) -> index {
  // CHECK: util.global.store %arg0, @between0
  util.global.store %arg0, @between0 : index
  %0 = util.global.load @between1 : index
  // CHECK: util.global.store %arg0, @between1
  util.global.store %arg0, @between1 : index
  util.return %0 : index
}
// CHECK-LABEL: @call_between(
util.func @call_between(%arg0: index) {
  // CHECK: util.global.store %arg0, @call0
  util.global.store %arg0, @call0 : index
  util.call @read_call1() : () -> index
  // CHECK: util.global.store %arg0, @call1
  util.global.store %arg0, @call1 : index
  util.return
}
util.func private @read_call1() -> index {
  %0 = util.global.load @call1 : index
  util.return %0 : index
}
util.func @read() -> (index, index) {
  %0 = util.global.load @between0 : index
  %1 = util.global.load @call0 : index
  util.return %0, %1 : index, index
}

// -----

// Only private globals used by nothing but loads and stores fuse: not public ones,
// not ones named in an attribute, not ones on other devices.

// CHECK: util.global public mutable @public0 : index
util.global public mutable @public0 : index
// CHECK: util.global public mutable @public1 : index
util.global public mutable @public1 : index
// CHECK: util.global private mutable @named0 : index
util.global private mutable @named0 : index
// CHECK: util.global private mutable @named1 : index
util.global private mutable @named1 : index
// CHECK: util.global private mutable @devA {stream.affinity = #hal.device.affinity<@dev_a>} : index
util.global private mutable @devA {stream.affinity = #hal.device.affinity<@dev_a>} : index
// CHECK: util.global private mutable @devB {stream.affinity = #hal.device.affinity<@dev_b>} : index
util.global private mutable @devB {stream.affinity = #hal.device.affinity<@dev_b>} : index
// CHECK-LABEL: @not_candidates(
util.func @not_candidates(%arg0: index) attributes {uses = [@named1]} {
  // CHECK-COUNT-6: util.global.store %arg0
  util.global.store %arg0, @public0 : index
  util.global.store %arg0, @public1 : index
  util.global.store %arg0, @named0 : index
  util.global.store %arg0, @named1 : index
  util.global.store %arg0, @devA : index
  util.global.store %arg0, @devB : index
  util.return
}

// -----

// A dialect attribute naming a global (nested in a dictionary here) is a name, not
// an access: the global fuses and the attribute follows it. A reference in an
// attribute of the op's own (not `dialect.name`) may be an access: that global
// stays apart.

// CHECK: util.global private mutable @tagged0 : i32
util.global private mutable @tagged0 : i32
// CHECK-NOT: util.global private mutable @tagged1
util.global private mutable @tagged1 : i32
// CHECK: util.global private mutable @owned0 : i32
util.global private mutable @owned0 : i32
// CHECK: util.global private mutable @owned1 : i32
util.global private mutable @owned1 : i32
// CHECK-LABEL: @named_in_attributes(
util.func @named_in_attributes(%v: i32, %w: i32) -> (i32, i32) {
  util.global.store %v, @tagged0 : i32
  util.global.store %v, @tagged1 : i32
  util.global.store %w, @owned0 : i32
  util.global.store %w, @owned1 : i32
  // CHECK: %[[T:.+]] = util.global.load @tagged0 : i32
  %0 = util.global.load @tagged1 : i32
  // CHECK: util.optimization_barrier {test.dev = #hal.device.affinity<@tagged0>, test.info = {of = [@tagged0, @owned0]}} %[[T]]
  %1 = util.optimization_barrier {test.dev = #hal.device.affinity<@tagged1>, test.info = {of = [@tagged1, @owned0]}} %0 : i32
  // CHECK: util.optimization_barrier {ref = @owned1}
  %2 = util.optimization_barrier {ref = @owned1} %v : i32
  util.return %1, %2 : i32, i32
}
