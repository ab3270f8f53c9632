// RUN: memplan-opt %s --split-input-file --iree-util-fold-globals | FileCheck %s

// An uninitialized private global always stored 5 starts as 5; with no store left
// it is immutable, so its load becomes the constant and the global goes away.

// CHECK-NOT: util.global
// CHECK-LABEL: @uniform_constants(
util.global private mutable @uniformConstants : index
util.func @uniform_constants() -> index {
  // CHECK: %[[C5:.+]] = arith.constant 5 : index
  %0 = util.global.load @uniformConstants : index
  // CHECK: util.return %[[C5]]
  util.return %0 : index
}
// CHECK-LABEL: @store_a(
util.func @store_a() {
  // CHECK-NEXT: util.return
  %c5 = arith.constant 5 : index
  util.global.store %c5, @uniformConstants : index
  util.return
}
// CHECK-LABEL: @store_b(
util.func @store_b() {
  // CHECK-NEXT: util.return
  %c5 = arith.constant 5 : index
  util.global.store %c5, @uniformConstants : index
  util.return
}

// -----

// Two different constants: the stores stay.

// CHECK: util.global private mutable @nonuniformConstants : index
util.global private mutable @nonuniformConstants : index
// CHECK-LABEL: @nonuniform_constants(
util.func @nonuniform_constants() -> index {
  // CHECK: util.global.load @nonuniformConstants : index
  %0 = util.global.load @nonuniformConstants : index
  util.return %0 : index
}
util.func @store_a() {
  %c5 = arith.constant 5 : index
  // CHECK: util.global.store %{{.+}}, @nonuniformConstants
  util.global.store %c5, @nonuniformConstants : index
  util.return
}
util.func @store_b() {
  %c6 = arith.constant 6 : index
  // CHECK: util.global.store %{{.+}}, @nonuniformConstants
  util.global.store %c6, @nonuniformConstants : index
  util.return
}

// -----

// An initialized global keeps its stores: a load before the store sees 3.

// CHECK: util.global private mutable @initialized = 3 : index
util.global private mutable @initialized = 3 : index
// CHECK-LABEL: @initialized_uniform_store(
util.func @initialized_uniform_store() -> index {
  // CHECK: %[[V:.+]] = util.global.load @initialized : index
  %0 = util.global.load @initialized : index
  %c5 = arith.constant 5 : index
  // CHECK: util.global.store %{{.+}}, @initialized
  util.global.store %c5, @initialized : index
  util.return %0 : index
}

// -----

// Uniform constant stores fold into a public global too, as in IREE (the runtime
// reads public globals, it does not store them); a different store keeps them.

// CHECK: util.global public mutable @publicUniform = 5 : index
util.global public mutable @publicUniform : index
// CHECK: util.global public mutable @publicMixed : index
util.global public mutable @publicMixed : index
// CHECK-LABEL: @public_uniform_constants(
util.func @public_uniform_constants() {
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  // CHECK-NOT: util.global.store %{{.+}}, @publicUniform
  // CHECK: util.global.store %{{.+}}, @publicMixed
  // CHECK: util.global.store %{{.+}}, @publicMixed
  util.global.store %c5, @publicUniform : index
  util.global.store %c5, @publicMixed : index
  util.global.store %c6, @publicMixed : index
  util.return
}

// -----

// A global named in the module's own attributes is referenced: it stays.

// CHECK: module attributes {test.plan = @named}
// CHECK: util.global private @named = 5 : index
module attributes {test.plan = @named} {
  util.global private @named = 5 : index
}

// -----

// An initializer left empty once its stores are folded is erased; a global with a
// dialect attribute keeps its loads (the attribute may matter to its dialect).

// CHECK-NOT: util.initializer
// CHECK: util.global private @tagged {test.tag = 1 : index} = 5 : index
util.global private @folded : index
util.initializer {
  %c7 = arith.constant 7 : index
  util.global.store %c7, @folded : index
  util.return
}
util.global private @tagged {test.tag = 1 : index} = 5 : index
// CHECK-LABEL: @dialect_attrs(
util.func @dialect_attrs() -> (index, index) {
  // CHECK: arith.constant 7
  // CHECK: util.global.load immutable @tagged
  %0 = util.global.load @folded : index
  %1 = util.global.load @tagged : index
  util.return %0, %1 : index, index
}

// -----

// @chained1 only ever holds what @chained0 (never stored) holds: it is replaced by
// @chained0, which, never stored, becomes immutable.

// CHECK: util.global private @chained0 : index
util.global private mutable @chained0 : index
// CHECK-NOT: @chained1
util.global private mutable @chained1 : index
// CHECK-LABEL: @chained(
util.func @chained() -> index {
  // CHECK: %[[V:.+]] = util.global.load immutable @chained0 : index
  %0 = util.global.load @chained0 : index
  // CHECK-NOT: util.global.store
  util.global.store %0, @chained1 : index
  // CHECK: util.return %[[V]]
  util.return %0 : index
}
// CHECK-LABEL: @load_chained1(
util.func @load_chained1() -> index {
  // CHECK: %[[V:.+]] = util.global.load immutable @chained0 : index
  %0 = util.global.load @chained1 : index
  // CHECK: util.return %[[V]]
  util.return %0 : index
}

// -----

// The source is stored only in an initializer and the copy only in functions, so
// the copy always holds the source's final value: the copy goes away.

// CHECK: util.global private @source : index
util.global private mutable @source : index
// CHECK-NOT: @copy
util.global private mutable @copy : index
util.initializer {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = arith.addi %c1, %c2 : index
  util.global.store %0, @source : index
  util.return
}
// CHECK-LABEL: @chained_through_initializer(
util.func @chained_through_initializer() -> index {
  // CHECK-NOT: util.global.store
  %0 = util.global.load @source : index
  util.global.store %0, @copy : index
  // CHECK: %[[V:.+]] = util.global.load immutable @source : index
  %1 = util.global.load @copy : index
  // CHECK: util.return %[[V]]
  util.return %1 : index
}

// -----

// The copy is made in a later initializer than the source's only store: the copy
// always holds the source's value.

// CHECK: util.global private @param : index
util.global private mutable @param : index
// CHECK-NOT: @param_copy
util.global private mutable @param_copy : index
// CHECK: util.global.store %{{.+}}, @param : index
util.initializer {
  %c1 = arith.constant 1 : index
  %0 = arith.addi %c1, %c1 : index
  util.global.store %0, @param : index
  util.return
}
// CHECK-NOT: util.initializer
util.initializer {
  %0 = util.global.load @param : index
  util.global.store %0, @param_copy : index
  util.return
}
// CHECK-LABEL: @chained_across_initializers(
util.func @chained_across_initializers() -> index {
  // CHECK: util.global.load immutable @param : index
  %0 = util.global.load @param_copy : index
  util.return %0 : index
}

// -----

// The source is stored again after the copy read it: the copy keeps the first
// value, so it stays.

// CHECK: util.global private @twice : index
util.global private mutable @twice : index
// CHECK: util.global private @first : index
util.global private mutable @first : index
util.initializer {
  %c1 = arith.constant 1 : index
  %0 = arith.addi %c1, %c1 : index
  %1 = arith.muli %0, %0 : index
  util.global.store %0, @twice : index
  // CHECK: %[[FIRST:.+]] = util.global.load @twice
  %2 = util.global.load @twice : index
  util.global.store %1, @twice : index
  // CHECK: util.global.store %[[FIRST]], @first
  util.global.store %2, @first : index
  util.return
}
// CHECK-LABEL: @source_stored_after_copy(
util.func @source_stored_after_copy() -> (index, index) {
  // CHECK: util.global.load immutable @twice
  // CHECK: util.global.load immutable @first
  %0 = util.global.load @twice : index
  %1 = util.global.load @first : index
  util.return %0, %1 : index, index
}

// -----

// The source changes after it was copied (@set stores it), so the copy must keep
// the old value: no renaming (IREE renames; see docs/design/fold-globals.md).

// CHECK: util.global private mutable @changing : index
util.global private mutable @changing : index
// CHECK: util.global private mutable @snapshot : index
util.global private mutable @snapshot : index
// CHECK-LABEL: @chained_source_stored_later(
util.func @chained_source_stored_later() {
  %0 = util.global.load @changing : index
  // CHECK: util.global.store %{{.+}}, @snapshot
  util.global.store %0, @snapshot : index
  util.return
}
util.func @set(%arg0: index) {
  util.global.store %arg0, @changing : index
  util.return
}
util.func @get() -> index {
  // CHECK: util.global.load @snapshot
  %0 = util.global.load @snapshot : index
  util.return %0 : index
}

// -----

// @unchained1 is also stored from an argument: not a chain.

// CHECK: util.global private mutable @unchained0 : index
util.global private mutable @unchained0 : index
// CHECK: util.global private mutable @unchained1 : index
util.global private mutable @unchained1 : index
// CHECK-LABEL: @unchained(
util.func @unchained() {
  // CHECK: %[[V:.+]] = util.global.load @unchained0 : index
  %0 = util.global.load @unchained0 : index
  // CHECK: util.global.store %[[V]], @unchained1 : index
  util.global.store %0, @unchained1 : index
  util.return
}
util.func @unchained_b(%arg0: index) -> index {
  // CHECK: util.global.store %arg0, @unchained1 : index
  util.global.store %arg0, @unchained1 : index
  %0 = util.global.load @unchained1 : index
  util.return %0 : index
}
util.func @unchained_c(%arg0: index) {
  // CHECK: util.global.store %arg0, @unchained0 : index
  util.global.store %arg0, @unchained0 : index
  util.return
}

// -----

// Immutable constants and never-stored mutable constants are inlined (one
// constant for equal values, as IREE's canonicalization leaves them); a global
// stored in a function stays mutable and loaded.

// CHECK-NOT: @immutable1
util.global private @immutable1 = 1 : index
// CHECK-NOT: @mutable1
util.global private mutable @mutable1 = 1 : index
// CHECK: util.global private mutable @mutable2 = 2 : index
util.global private mutable @mutable2 = 2 : index
// CHECK-LABEL: @immutability(
util.func @immutability() -> (index, index, index) {
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
  %0 = util.global.load @immutable1 : index
  %1 = util.global.load @mutable1 : index
  // CHECK-DAG: %[[V2:.+]] = util.global.load @mutable2 : index
  %2 = util.global.load @mutable2 : index
  // CHECK: util.return %[[C1]], %[[C1]], %[[V2]]
  util.return %0, %1, %2 : index, index, index
}
util.func @store_mutable2(%arg0: index) {
  util.global.store %arg0, @mutable2 : index
  util.return
}

// -----

// Stored only in an initializer: no longer mutable; loads in functions become
// immutable, loads in the initializer stay ordered with its stores.

// CHECK: util.global private @initOnly : index
util.global private mutable @initOnly : index
// CHECK-LABEL: util.initializer
util.initializer {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = arith.addi %c1, %c2 : index
  // CHECK: util.global.store %{{.+}}, @initOnly
  util.global.store %0, @initOnly : index
  // CHECK: util.global.load @initOnly : index
  %1 = util.global.load @initOnly : index
  util.global.store %1, @initOnly : index
  util.return
}
// CHECK-LABEL: @stored_only_in_initializer(
util.func @stored_only_in_initializer() -> index {
  // CHECK: util.global.load immutable @initOnly : index
  %0 = util.global.load @initOnly : index
  util.return %0 : index
}

// -----

// Loaded globals stay, with their stores.

// CHECK: util.global private mutable @used0 = 5 : index
util.global private mutable @used0 = 5 : index
// CHECK: util.global private mutable @used1 : index
util.global private mutable @used1 : index
// CHECK-LABEL: @used(
util.func @used(%arg0: index, %arg1: index) -> (index, index) {
  // CHECK: util.global.load @used0 : index
  %0 = util.global.load @used0 : index
  // CHECK: util.global.load @used1 : index
  %1 = util.global.load @used1 : index
  // CHECK: util.global.store %arg0, @used0 : index
  util.global.store %arg0, @used0 : index
  // CHECK: util.global.store %arg0, @used1 : index
  util.global.store %arg0, @used1 : index
  // CHECK: util.global.store %arg1, @used1 : index
  util.global.store %arg1, @used1 : index
  util.return %0, %1 : index, index
}

// -----

// Private globals nothing loads are erased with their stores (and what only fed
// the stores).

// CHECK-NOT: @unused0
util.global private mutable @unused0 = 5 : index
// CHECK-NOT: @unused1
util.global private mutable @unused1 : index
// CHECK-LABEL: @unused(
util.func @unused(%arg0: index) {
  // CHECK-NEXT: util.return
  %0 = arith.addi %arg0, %arg0 : index
  util.global.store %0, @unused0 : index
  util.global.store %arg0, @unused1 : index
  util.return
}

// -----

// Public globals and globals named in an attribute are kept, with their stores.

// CHECK: util.global public mutable @unusedPublic : index
util.global public mutable @unusedPublic : index
// CHECK: util.global private mutable @referenced : index
util.global private mutable @referenced : index
// CHECK: util.global private @referencedInAffinity : index
util.global private @referencedInAffinity : index
// CHECK-LABEL: @kept(
util.func @kept(%arg0: index) attributes {note = {uses = [@referenced]}, dev = #hal.device.affinity<@referencedInAffinity>} {
  // CHECK: util.global.store %arg0, @unusedPublic
  util.global.store %arg0, @unusedPublic : index
  // CHECK: util.global.store %arg0, @referenced
  util.global.store %arg0, @referenced : index
  util.return
}

// -----

// Equal constants that cannot be inlined (a resource) are merged into the first;
// another affinity (a dialect attribute), another value or another type keeps a
// global apart. A never-stored mutable global is immutable, so it joins.

// CHECK: util.global private @dupe0 = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
util.global private @dupe0 = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
// CHECK-NOT: @dupe1
util.global private @dupe1 = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
// CHECK-NOT: @dupe2
util.global private mutable @dupe2 = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
// CHECK: util.global private @onDevA {stream.affinity = #hal.device.affinity<@dev_a>}
util.global private @onDevA {stream.affinity = #hal.device.affinity<@dev_a>} = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
// CHECK-NOT: @onDevA1
util.global private @onDevA1 {stream.affinity = #hal.device.affinity<@dev_a>} = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
// CHECK: util.global private @onDevB {stream.affinity = #hal.device.affinity<@dev_b>}
util.global private @onDevB {stream.affinity = #hal.device.affinity<@dev_b>} = #stream.parameter.named<"m"::"k"> : !stream.resource<constant>
// CHECK: util.global private @otherKey = #stream.parameter.named<"m"::"q">
util.global private @otherKey = #stream.parameter.named<"m"::"q"> : !stream.resource<constant>
// CHECK: util.global private @otherType = #stream.parameter.named<"m"::"k"> : !stream.resource<variable>
util.global private @otherType = #stream.parameter.named<"m"::"k"> : !stream.resource<variable>
// CHECK-LABEL: @duplicate_constants(
util.func @duplicate_constants() -> (!stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<variable>) {
  // CHECK: %[[D0:.+]] = util.global.load immutable @dupe0
  %0 = util.global.load @dupe0 : !stream.resource<constant>
  // CHECK: %[[D1:.+]] = util.global.load immutable @dupe0
  %1 = util.global.load @dupe1 : !stream.resource<constant>
  // CHECK: %[[D2:.+]] = util.global.load immutable @dupe0
  %2 = util.global.load @dupe2 : !stream.resource<constant>
  // CHECK: %[[A0:.+]] = util.global.load immutable @onDevA
  %3 = util.global.load @onDevA : !stream.resource<constant>
  // CHECK: %[[A1:.+]] = util.global.load immutable @onDevA
  %4 = util.global.load @onDevA1 : !stream.resource<constant>
  // CHECK: %[[B:.+]] = util.global.load immutable @onDevB
  %5 = util.global.load @onDevB : !stream.resource<constant>
  // CHECK: %[[K:.+]] = util.global.load immutable @otherKey
  %6 = util.global.load @otherKey : !stream.resource<constant>
  // CHECK: %[[T:.+]] = util.global.load immutable @otherType
  %7 = util.global.load @otherType : !stream.resource<variable>
  // CHECK: util.return %[[D0]], %[[D1]], %[[D2]], %[[A0]], %[[A1]], %[[B]], %[[K]], %[[T]]
  util.return %0, %1, %2, %3, %4, %5, %6, %7 : !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.resource<variable>
}

// -----

// Uninitialized globals hold no known value: never inlined, never merged, but
// never stored they are immutable.

// CHECK: util.global private @uninitialized0 : index
util.global private mutable @uninitialized0 : index
// CHECK: util.global private @uninitialized1 : index
util.global private @uninitialized1 : index
// CHECK-LABEL: @uninitialized(
util.func @uninitialized() -> (index, index) {
  // CHECK: %[[U0:.+]] = util.global.load immutable @uninitialized0 : index
  %0 = util.global.load @uninitialized0 : index
  // CHECK: %[[U1:.+]] = util.global.load immutable @uninitialized1 : index
  %1 = util.global.load @uninitialized1 : index
  // CHECK: util.return %[[U0]], %[[U1]]
  util.return %0, %1 : index, index
}

// -----

// The folds feed each other within one run: @a's uniform store makes it a
// constant, which makes @b's store a constant store, and so on.

// CHECK-NOT: util.global
// CHECK-LABEL: @cascade(
util.global private mutable @a : index
util.global private mutable @b : index
util.func @cascade() -> index {
  // CHECK: %[[C:.+]] = arith.constant 7 : index
  %0 = util.global.load @b : index
  // CHECK: util.return %[[C]]
  util.return %0 : index
}
util.func @set() {
  %c7 = arith.constant 7 : index
  util.global.store %c7, @a : index
  %0 = util.global.load @a : index
  util.global.store %0, @b : index
  util.return
}

// -----

// A dialect attribute naming a global keeps it (never loaded, it is not erased
// and the attribute never dangles), and follows a chained global to its source.

// CHECK: util.global private mutable @marker : index
util.global private mutable @marker : index
// CHECK: util.global private @origin : index
util.global private @origin : index
// CHECK-NOT: @replica
util.global private mutable @replica : index
// CHECK-LABEL: @named_by_dialect_attributes(
util.func @named_by_dialect_attributes(%arg0: index) -> index {
  // CHECK: util.global.store %arg0, @marker
  util.global.store %arg0, @marker : index
  %0 = util.global.load @origin : index
  util.global.store %0, @replica : index
  // CHECK: %[[R:.+]] = util.global.load immutable @origin : index
  %1 = util.global.load @replica : index
  // CHECK: util.optimization_barrier {test.about = [@marker, @origin]} %[[R]]
  %2 = util.optimization_barrier {test.about = [@marker, @replica]} %1 : index
  util.return %2 : index
}

// -----

// util's own dialect attributes do not keep a constant global's loads (another
// dialect's do, as @tagged above).

// CHECK-NOT: @utilNoted
util.global private @utilNoted {util.note = "kept by nothing"} = 9 : index
// CHECK-LABEL: @util_attributes_inline(
util.func @util_attributes_inline() -> index {
  // CHECK: %[[C:.+]] = arith.constant 9 : index
  %0 = util.global.load @utilNoted : index
  // CHECK: util.return %[[C]]
  util.return %0 : index
}

// -----

// An inlining policy (as IREE 3.13 prints it, or in the attribute dictionary as
// older IREE did): `never` keeps every load, `always` lets them fold.

// CHECK: util.global private @pinned <inlining_policy = #util.inline.never> = 4 : index
util.global private @pinned {inlining_policy = #util.inline.never} = 4 : index
// CHECK-NOT: @inlinable
util.global private @inlinable <inlining_policy = #util.inline.always> = 6 : index
// CHECK-LABEL: @inlining_policies(
util.func @inlining_policies() -> (index, index) {
  // CHECK-DAG: %[[P:.+]] = util.global.load immutable @pinned : index
  %0 = util.global.load @pinned : index
  // CHECK-DAG: %[[C:.+]] = arith.constant 6 : index
  %1 = util.global.load @inlinable : index
  // CHECK: util.return %[[P]], %[[C]]
  util.return %0, %1 : index, index
}

// -----

// Equal never-inlined constants merge into the first; a dialect attribute that
// names the second is renamed, on the function as on an op.

// CHECK: util.global private @first <inlining_policy = #util.inline.never> = 5 : index
util.global private @first <inlining_policy = #util.inline.never> = 5 : index
// CHECK-NOT: @second
util.global private @second <inlining_policy = #util.inline.never> = 5 : index
// CHECK-LABEL: @merged_pinned_constants(
// CHECK-SAME: attributes {test.about = @first}
util.func @merged_pinned_constants() -> (index, index) attributes {test.about = @second} {
  // CHECK: %[[A:.+]] = util.global.load immutable @first : index
  %0 = util.global.load @first : index
  // CHECK: %[[B:.+]] = util.global.load immutable @first : index
  %1 = util.global.load @second : index
  // CHECK: util.optimization_barrier {test.about = @first} %[[B]]
  %2 = util.optimization_barrier {test.about = @second} %1 : index
  util.return %0, %2 : index, index
}
