// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | FileCheck %s

// Async ops with value semantics print as IREE writes them: fills, updates, copies
// and stores show the updated target as `%t as type{%size}`.

// CHECK-LABEL: @async_ops
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[V:.+]]: i32, %[[T:.+]]: !stream.timepoint)
util.func public @async_ops(%r: !stream.resource<*>, %n: index, %v: i32, %t: !stream.timepoint) -> !stream.resource<staging> {
  %c0 = arith.constant 0 : index
  // CHECK: %[[CST:.+]] = stream.async.constant await(%[[T]]) : !stream.resource<transient>{%[[N]]} = dense<[1, 2]> : tensor<2xi32>
  %cst = stream.async.constant await(%t) : !stream.resource<transient>{%n} = dense<[1, 2]> : tensor<2xi32>
  // CHECK: %[[S:.+]] = stream.async.splat %[[V]] : i32 -> !stream.resource<*>{%[[N]]}
  %s = stream.async.splat %v : i32 -> !stream.resource<*>{%n}
  // CHECK: %[[F:.+]] = stream.async.fill %[[V]], %[[S]][%{{.+}} to %[[N]] for %[[N]]] : i32 -> %[[S]] as !stream.resource<*>{%[[N]]}
  %f = stream.async.fill %v, %s[%c0 to %n for %n] : i32 -> %s as !stream.resource<*>{%n}
  // CHECK: %[[U:.+]] = stream.async.update %[[R]], %[[F]][%{{.+}} to %[[N]]] : !stream.resource<*>{%[[N]]} -> %[[F]] as !stream.resource<*>{%[[N]]}
  %u = stream.async.update %r, %f[%c0 to %n] : !stream.resource<*>{%n} -> %f as !stream.resource<*>{%n}
  // CHECK: %[[C:.+]] = stream.async.copy %[[R]][%{{.+}} to %[[N]]], %[[U]][%{{.+}} to %[[N]]], %[[N]] : !stream.resource<*>{%[[N]]} -> %[[U]] as !stream.resource<*>{%[[N]]}
  %c = stream.async.copy %r[%c0 to %n], %u[%c0 to %n], %n : !stream.resource<*>{%n} -> %u as !stream.resource<*>{%n}
  // CHECK: %[[SL:.+]] = stream.async.slice %[[C]][%{{.+}} to %[[N]]] : !stream.resource<*>{%[[N]]} -> !stream.resource<*>{%[[N]]}
  %sl = stream.async.slice %c[%c0 to %n] : !stream.resource<*>{%n} -> !stream.resource<*>{%n}
  // CHECK: %[[EX:.+]] = stream.async.cast %[[SL]] : !stream.resource<*>{%[[N]]} -> !stream.resource<external>{%[[N]]}
  %ex = stream.async.cast %sl : !stream.resource<*>{%n} -> !stream.resource<external>{%n}
  // CHECK: %[[CA:.+]] = stream.async.transfer %[[EX]] : !stream.resource<external>{%[[N]]} -> !stream.resource<staging>{%[[N]]}
  %ca = stream.async.transfer %ex : !stream.resource<external>{%n} -> !stream.resource<staging>{%n}
  // CHECK: %[[L:.+]] = stream.async.load %[[CA]][%{{.+}}] : !stream.resource<staging>{%[[N]]} -> f32
  %l = stream.async.load %ca[%c0] : !stream.resource<staging>{%n} -> f32
  // CHECK: stream.async.store %[[L]], %[[CA]][%{{.+}}] : f32 -> %[[CA]] as !stream.resource<staging>{%[[N]]}
  %st = stream.async.store %l, %ca[%c0] : f32 -> %ca as !stream.resource<staging>{%n}
  util.return %st : !stream.resource<staging>
}

// -----

// An execution region captures resources under new names and ties results to
// captures; `stream.yield` gives the results with their sizes.

// CHECK-LABEL: @regions
util.func public @regions(%r: !stream.resource<*>, %n: index, %t: !stream.timepoint) -> (!stream.resource<*>, !stream.timepoint) {
  // CHECK: stream.async.execute await(%{{.+}}) => with(%{{.+}} as %[[A:.+]]: !stream.resource<*>{%{{.+}}}) -> %{{.+}}{%{{.+}}} {
  %0:2 = stream.async.execute await(%t) => with(%r as %a: !stream.resource<*>{%n}) -> %r{%n} {
    // CHECK: stream.async.concurrent with(%[[A]] as %[[B:.+]]: !stream.resource<*>{%{{.+}}}) -> %[[A]]{%{{.+}}} {
    %1 = stream.async.concurrent with(%a as %b: !stream.resource<*>{%n}) -> %a{%n} {
      // CHECK: stream.yield %[[B]] : !stream.resource<*>{%{{.+}}}
      stream.yield %b : !stream.resource<*>{%n}
    }
    stream.yield %1 : !stream.resource<*>{%n}
  // CHECK: } => !stream.timepoint
  } => !stream.timepoint
  util.return %0#0, %0#1 : !stream.resource<*>, !stream.timepoint
}

// -----

// Tensor, resource and timepoint ops, with IREE's encodings and hal types.

#padded = #iree_encoding.padding<[0, ?]>
// CHECK-LABEL: @tensor_resource_timepoint_ops
util.func public @tensor_resource_timepoint_ops(%b: !util.buffer, %d: index, %n: index, %sem: !hal.semaphore, %dev: !hal.device) -> (index, !util.buffer, !hal.fence) {
  %c0 = arith.constant 0 : index
  // CHECK: stream.tensor.import consume %{{.+}} : !util.buffer -> tensor<?x4xf32>{%{{.+}}} in !stream.resource<external>{%{{.+}}}
  %i = stream.tensor.import consume %b : !util.buffer -> tensor<?x4xf32>{%d} in !stream.resource<external>{%n}
  // CHECK: stream.tensor.export %{{.+}} : tensor<?x4xf32, #iree_encoding.padding<[0, ?]>>{%{{.+}}} in !stream.resource<external>{%{{.+}}} -> !util.buffer
  %e = stream.tensor.export %i : tensor<?x4xf32, #padded>{%d} in !stream.resource<external>{%n} -> !util.buffer
  // CHECK: stream.tensor.empty : tensor<0xf32> in !stream.resource<*>{%{{.+}}}
  %em = stream.tensor.empty : tensor<0xf32> in !stream.resource<*>{%c0}
  // CHECK: %[[SV:.+]] = stream.resource.subview %{{.+}}[%{{.+}}] : !stream.resource<external>{%{{.+}}} -> !stream.resource<external>{%{{.+}}}
  %sv = stream.resource.subview %i[%c0] : !stream.resource<external>{%n} -> !stream.resource<external>{%n}
  // CHECK: %[[P:.+]]:3 = stream.resource.pack slices({
  // CHECK-NEXT: [0, 4] = %{{.+}},
  // CHECK-NEXT: [1, 2] = %{{.+}}
  // CHECK-NEXT: }) : index
  %p:3 = stream.resource.pack slices({[0, 4] = %n, [1, 2] = %n,}) : index
  // CHECK: %[[TP:.+]] = stream.timepoint.import %{{.+}}, %{{.+}} : (!hal.semaphore, index) => !stream.timepoint
  %tp = stream.timepoint.import %sem, %n : (!hal.semaphore, index) => !stream.timepoint
  // CHECK: %[[FENCE:.+]] = hal.fence.create device(%{{.+}} : !hal.device) flags("None") : !hal.fence
  %fence = hal.fence.create device(%dev : !hal.device) flags("None") : !hal.fence
  // CHECK: stream.timepoint.chain_external %[[TP]] => (%[[FENCE]] : !hal.fence)
  stream.timepoint.chain_external %tp => (%fence : !hal.fence)
  // CHECK: %[[BR:.+]], %[[BT:.+]] = stream.timepoint.barrier %[[SV]] : !stream.resource<external>{%{{.+}}} => !stream.timepoint
  %br, %bt = stream.timepoint.barrier %sv : !stream.resource<external>{%n} => !stream.timepoint
  util.return %p#0, %e, %fence : index, !util.buffer, !hal.fence
}
