// RUN: memplan-opt %s --split-input-file -p stream-cleanup | FileCheck %s

// stream-cleanup over scheduled (stream.cmd) IR, as IREE 3.13's cleanup pipeline
// treats it: an execute nobody waits on is dropped, an empty one becomes an
// immediate timepoint, empty waves go, an await on an immediate timepoint is
// dropped. Commands write the captured resources, so two identical fills stay,
// and a dispatch that writes nothing is kept (its effects are unknown).

// CHECK-LABEL: @unused_and_kept
// CHECK-SAME: (%[[R:.+]]: !stream.resource<transient>, %[[N:.+]]: index, %[[V:.+]]: i32)
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT: %[[X:.+]] = stream.cmd.execute with(%[[R]] as %[[A:.+]]: !stream.resource<transient>{%[[N]]}) {
// CHECK-NEXT:   stream.cmd.fill %[[V]], %[[A]][%[[C0]] for %[[C4]]]
// CHECK-NEXT:   stream.cmd.fill %[[V]], %[[A]][%[[C0]] for %[[C4]]]
// CHECK-NEXT:   stream.cmd.dispatch @ex::@entry {
// CHECK-NEXT:     ro %[[A]][%[[C0]] for %[[N]]]
// CHECK-NEXT:   }
// CHECK-NEXT: } => !stream.timepoint
// CHECK-NEXT: util.return %[[X]]
util.func public @unused_and_kept(%r: !stream.resource<transient>, %n: index, %v: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c0_0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %unused = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.fill %v, %a[%c0 for %c4] : i32 -> !stream.resource<transient>{%n}
  } => !stream.timepoint
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.fill %v, %a[%c0 for %c4] : i32 -> !stream.resource<transient>{%n}
    stream.cmd.fill %v, %a[%c0_0 for %c4] : i32 -> !stream.resource<transient>{%n}
    stream.cmd.concurrent {
    }
    stream.cmd.serial {
      stream.cmd.concurrent {
      }
    }
    stream.cmd.dispatch @ex::@entry {
      ro %a[%c0_0 for %n] : !stream.resource<transient>{%n}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// CHECK-LABEL: @empty_and_immediate
// CHECK-SAME: (%[[R:.+]]: !stream.resource<transient>, %[[N:.+]]: index, %[[V:.+]]: i32)
// CHECK-NOT: stream.timepoint.immediate
// CHECK: %[[X:.+]] = stream.cmd.execute with(%[[R]] as
// CHECK-NOT: await
// CHECK: util.return %[[X]]
util.func public @empty_and_immediate(%r: !stream.resource<transient>, %n: index, %v: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %now = stream.timepoint.immediate => !stream.timepoint
  %empty = stream.cmd.execute await(%now) => with(%r as %a: !stream.resource<transient>{%n}) {
  } => !stream.timepoint
  %0 = stream.cmd.execute await(%empty) => with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.fill %v, %a[%c0 for %n] : i32 -> !stream.resource<transient>{%n}
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// A no-op execute after a real wait keeps the wait (IREE 3.13 drops it).

// CHECK-LABEL: @noop_keeps_wait
// CHECK-SAME: (%[[T:[^:]+]]: !stream.timepoint,
// CHECK-NEXT: util.return %[[T]]
util.func public @noop_keeps_wait(%t: !stream.timepoint, %r: !stream.resource<transient>, %n: index) -> !stream.timepoint {
  %0 = stream.cmd.execute await(%t) => with(%r as %a: !stream.resource<transient>{%n}) {
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// A captured resource awaited just before is captured as the awaited resource;
// the execute waits on both timepoints.

// CHECK-LABEL: @chain_awaits
// CHECK-SAME: (%[[R:[^:]+]]: !stream.resource<transient>, %[[N:[^:]+]]: index, %[[T:[^:]+]]: !stream.timepoint, %[[U:[^:]+]]: !stream.timepoint)
// CHECK-NOT: stream.timepoint.await
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[U]], %[[T]]) => !stream.timepoint
// CHECK: stream.cmd.execute await(%[[J]]) => with(%[[R]] as
util.func public @chain_awaits(%r: !stream.resource<transient>, %n: index, %t: !stream.timepoint, %u: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.timepoint.await %t => %r : !stream.resource<transient>{%n}
  %1 = stream.cmd.execute await(%u) => with(%0 as %a: !stream.resource<transient>{%n}) {
    stream.cmd.discard %a[%c0 for %n] : !stream.resource<transient>{%n}
  } => !stream.timepoint
  util.return %1 : !stream.timepoint
}

// -----

// A captured subview: the whole resource is captured, the commands use it at
// the summed offsets, and a value captured twice is captured once; an unused
// capture goes.

// CHECK-LABEL: @subview_captures
// CHECK-SAME: (%[[R:[^:]+]]: !stream.resource<transient>, %[[N:[^:]+]]: index, %[[Q:[^:]+]]: !stream.resource<transient>)
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : index
// CHECK: stream.cmd.execute with(%[[R]] as %[[A:[^:]+]]: !stream.resource<transient>{%[[N]]}) {
// CHECK-NEXT: stream.cmd.copy %[[A]][%[[C24]]], %[[A]][%[[C16]]], %{{.+}} : !stream.resource<transient>{%[[N]]} -> !stream.resource<transient>{%[[N]]}
// CHECK-NEXT: stream.cmd.dispatch @ex::@entry {
// CHECK-NEXT:   rw %[[A]][%[[C16]] for %{{.+}}] : !stream.resource<transient>{%[[N]]}
util.func public @subview_captures(%r: !stream.resource<transient>, %n: index, %q: !stream.resource<transient>) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %v = stream.resource.subview %r[%c16] : !stream.resource<transient>{%n} -> !stream.resource<transient>{%c32}
  %0 = stream.cmd.execute with(%v as %a: !stream.resource<transient>{%c32}, %r as %b: !stream.resource<transient>{%n}, %r as %c: !stream.resource<transient>{%n}, %q as %d: !stream.resource<transient>{%n}) {
    stream.cmd.copy %a[%c8], %c[%c16], %c8 : !stream.resource<transient>{%c32} -> !stream.resource<transient>{%n}
    stream.cmd.dispatch @ex::@entry {
      rw %b[%c16 for %c8] : !stream.resource<transient>{%n}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// A subview of a subview captured by an execute: the summed offset is computed
// before the execute (its body holds commands only), and the fill's range takes it.

// CHECK-LABEL: @nested_subviews_into_a_command
// CHECK-SAME: (%[[R:[^:]+]]: !stream.resource<transient>, %[[S:[^:]+]]: index, %[[O:[^:]+]]: index
util.func public @nested_subviews_into_a_command(%r: !stream.resource<transient>, %s: index, %o: index, %l: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %pattern = arith.constant 7 : i8
  // CHECK: %[[OFF:.+]] = arith.addi %[[O]], %{{.+}} : index
  // CHECK-NEXT: stream.cmd.execute with(%[[R]] as %[[CAP:[^:]+]]: !stream.resource<transient>{%[[S]]}) {
  // CHECK-NEXT: stream.cmd.fill %{{.+}}, %[[CAP]][%[[OFF]] for %{{.+}}] : i8 -> !stream.resource<transient>{%[[S]]}
  // CHECK-NEXT: } => !stream.timepoint
  %v = stream.resource.subview %r[%o] : !stream.resource<transient>{%s} -> !stream.resource<transient>{%l}
  %v2 = stream.resource.subview %v[%c2] : !stream.resource<transient>{%l} -> !stream.resource<transient>{%c16}
  %t = stream.cmd.execute with(%v2 as %cap: !stream.resource<transient>{%c16}) {
    stream.cmd.fill %pattern, %cap[%c0 for %c2] : i8 -> !stream.resource<transient>{%c16}
  } => !stream.timepoint
  util.return %t : !stream.timepoint
}
