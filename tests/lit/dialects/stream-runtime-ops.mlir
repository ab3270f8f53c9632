// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s

// The runtime-facing stream ops print as IREE 3.13 writes them, and read back
// from both their custom and their generic form.

util.global private @gpu : !hal.device

// CHECK-LABEL: @context_and_ownership
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index)
util.func public @context_and_ownership(%r: !stream.resource<*>, %n: index) -> (i1, i1) {
  // CHECK: %{{.+}}:2 = stream.context.resolve on(#hal.device.affinity<@gpu>) : !hal.device, i64
  %d:2 = stream.context.resolve on(#hal.device.affinity<@gpu>) : !hal.device, i64
  // CHECK: stream.context.resolve : !hal.device
  %e = stream.context.resolve : !hal.device
  // CHECK: stream.resource.retain %[[R]] : !stream.resource<*>{%[[N]]}
  stream.resource.retain %r : !stream.resource<*>{%n}
  // CHECK: %[[REL:.+]] = stream.resource.release %[[R]] : !stream.resource<*>{%[[N]]}
  %rel = stream.resource.release %r : !stream.resource<*>{%n}
  // CHECK: %[[TERM:.+]] = stream.resource.is_terminal %[[R]] : !stream.resource<*>{%[[N]]}
  %term = stream.resource.is_terminal %r : !stream.resource<*>{%n}
  // CHECK: util.return %[[REL]], %[[TERM]]
  util.return %rel, %term : i1, i1
}

// -----

util.global private @gpu : !hal.device

// CHECK-LABEL: @constants
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: index)
util.func public @constants(%n: index, %m: index) -> !stream.timepoint {
  // CHECK: %[[C:.+]]:2, %[[T:.+]] = stream.resource.constants on(#hal.device.affinity<@gpu>) :
  // CHECK-NEXT: !stream.resource<constant>{%[[N]]} = dense<1> : tensor<4xi32>,
  // CHECK-NEXT: !stream.resource<constant>{%[[M]]} = dense<[1, 2]> : tensor<2xi64>
  // CHECK-NEXT: => !stream.timepoint
  %c:2, %t = stream.resource.constants on(#hal.device.affinity<@gpu>) :
    !stream.resource<constant>{%n} = dense<1> : tensor<4xi32>,
    !stream.resource<constant>{%m} = dense<[1, 2]> : tensor<2xi64>
    => !stream.timepoint
  util.return %t : !stream.timepoint
}

// -----

util.global private @gpu : !hal.device

// CHECK-LABEL: @files
// CHECK-SAME: (%[[B:.+]]: !util.buffer, %[[BN:.+]]: index, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[O:.+]]: index, %[[F:.+]]: i64, %[[T:.+]]: !stream.timepoint)
util.func public @files(%b: !util.buffer, %bn: index, %r: !stream.resource<*>, %n: index, %o: index, %f: i64, %t: !stream.timepoint) -> (!stream.timepoint, !stream.timepoint) {
  // CHECK: %[[FILE:.+]] = stream.file.constant on(#hal.device.affinity<@gpu>) %[[B]][%[[O]] for %[[N]]] : !util.buffer{%[[BN]]} -> !stream.file
  %file = stream.file.constant on(#hal.device.affinity<@gpu>) %b[%o for %n] : !util.buffer{%bn} -> !stream.file
  // CHECK: %[[RT:.+]] = stream.file.read await(%[[T]]) => %[[FILE]][%[[F]]], %[[R]][%[[O]]], %[[N]] : !stream.file -> !stream.resource<*>{%[[N]]} => !stream.timepoint
  %rt = stream.file.read await(%t) => %file[%f], %r[%o], %n : !stream.file -> !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: %[[WT:.+]] = stream.file.write : %[[R]][%[[O]]], %[[FILE]][%[[F]]], %[[N]] : !stream.resource<*>{%[[N]]} -> !stream.file => !stream.timepoint
  %wt = stream.file.write : %r[%o], %file[%f], %n : !stream.resource<*>{%n} -> !stream.file => !stream.timepoint
  util.return %rt, %wt : !stream.timepoint, !stream.timepoint
}

// -----

util.global private @gpu : !hal.device

// CHECK-LABEL: @channels_and_collectives
// CHECK-SAME: (%[[ID:.+]]: !util.buffer, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[O:.+]]: index, %[[P:.+]]: i32)
util.func public @channels_and_collectives(%id: !util.buffer, %r: !stream.resource<*>, %n: index, %o: index, %p: i32) -> (!stream.resource<*>, !stream.resource<*>, index, index) {
  // CHECK: %[[CH:.+]] = stream.channel.create on(#hal.device.affinity<@gpu>) id(%[[ID]]) group("all") rank(%[[O]]) count(%[[N]]) : !stream.channel
  %ch = stream.channel.create on(#hal.device.affinity<@gpu>) id(%id) group("all") rank(%o) count(%n) : !stream.channel
  // CHECK: %[[SPLIT:.+]] = stream.channel.split %[[CH]], %[[O]], %[[N]] : !stream.channel -> !stream.channel
  %split = stream.channel.split %ch, %o, %n : !stream.channel -> !stream.channel
  // CHECK: %[[RANK:.+]] = stream.channel.rank %[[SPLIT]] : index
  %rank = stream.channel.rank %split : index
  // CHECK: %[[COUNT:.+]] = stream.channel.count %[[SPLIT]] : index
  %count = stream.channel.count %split : index
  // CHECK: %[[AR:.+]] = stream.async.collective<all_reduce with sum : f32>[%[[N]]] on(#hal.device.affinity<@gpu>) channel(%[[CH]]) %[[R]][%[[O]] to %[[N]] for %[[N]]], %[[R]][%[[O]] to %[[N]] for %[[N]]] : !stream.resource<*>{%[[N]]} -> %[[R]] as !stream.resource<*>{%[[N]]}
  %ar = stream.async.collective<all_reduce with sum : f32>[%n] on(#hal.device.affinity<@gpu>) channel(%ch) %r[%o to %n for %n], %r[%o to %n for %n] : !stream.resource<*>{%n} -> %r as !stream.resource<*>{%n}
  // CHECK: %[[BC:.+]] = stream.async.collective<broadcast : bf16>[%[[N]]] channel(%[[CH]]) source(%[[P]]) %[[R]][%[[O]] to %[[N]] for %[[N]]], %[[AR]][%[[O]] to %[[N]] for %[[N]]] : !stream.resource<*>{%[[N]]} -> %[[AR]] as !stream.resource<*>{%[[N]]}
  %bc = stream.async.collective<broadcast : bf16>[%n] channel(%ch) source(%p) %r[%o to %n for %n], %ar[%o to %n for %n] : !stream.resource<*>{%n} -> %ar as !stream.resource<*>{%n}
  // CHECK: %[[BAR:.+]] = stream.async.barrier on(#hal.device.affinity<@gpu>) %[[BC]] : !stream.resource<*>{%[[N]]}
  %bar = stream.async.barrier on(#hal.device.affinity<@gpu>) %bc : !stream.resource<*>{%n}
  util.return %ar, %bar, %rank, %count : !stream.resource<*>, !stream.resource<*>, index, index
}

// -----

// CHECK-LABEL: stream.async.func private @external(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)
stream.async.func private @external(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)
// CHECK: stream.async.func private @no_results(%arg0: index {a.tag})
stream.async.func private @no_results(%x: index {a.tag})
// CHECK: stream.async.func private @nothing()
stream.async.func private @nothing()

// CHECK-LABEL: @calls
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[O:.+]]: index)
util.func public @calls(%r: !stream.resource<*>, %n: index, %o: index) -> !stream.resource<*> {
  // CHECK: %[[C:.+]]:2 = stream.async.call @external(%[[R]][%[[O]] to %[[N]] for %[[N]]], %[[O]]) : (!stream.resource<*>{%[[N]]}, index) -> (%[[R]]{%[[N]]}, !stream.resource<*>{%[[O]]})
  %c:2 = stream.async.call @external(%r[%o to %n for %n], %o) : (!stream.resource<*>{%n}, index) -> (%r{%n}, !stream.resource<*>{%o})
  util.return %c#1 : !stream.resource<*>
}

// -----

util.global private @gpu : !hal.device

// CHECK-LABEL: @tensor_dispatch_and_trace
// CHECK-SAME: (%[[R:.+]]: !stream.resource<*>, %[[S:.+]]: !stream.resource<staging>, %[[N:.+]]: index, %[[D:.+]]: index)
util.func public @tensor_dispatch_and_trace(%r: !stream.resource<*>, %s: !stream.resource<staging>, %n: index, %d: index) -> (!stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[A:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@gpu>) @ex::@entry[%[[D]], %[[N]]](%[[R]], %[[D]]) : (tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[N]]}, index) -> tensor<4x?xf16>{%[[D]]} in !stream.resource<*>{%[[N]]}
  %a = stream.tensor.dispatch on(#hal.device.affinity<@gpu>) @ex::@entry[%d, %n](%r, %d) : (tensor<?x4xf32>{%d} in !stream.resource<*>{%n}, index) -> tensor<4x?xf16>{%d} in !stream.resource<*>{%n}
  // CHECK: %[[B:.+]] = stream.tensor.dispatch {@ex::@a, @ex::@b}(%[[A]]) : (tensor<4xf32> in !stream.resource<*>{%[[N]]}) -> tensor<4xf32> in %[[A]]{%[[N]]}
  %b = stream.tensor.dispatch {@ex::@a, @ex::@b}(%a) : (tensor<4xf32> in !stream.resource<*>{%n}) -> tensor<4xf32> in %a{%n}
  // CHECK: stream.tensor.dispatch @ex::@none(%[[D]]) : (index) -> ()
  stream.tensor.dispatch @ex::@none(%d) : (index) -> ()
  // CHECK: stream.tensor.trace "probe" = [
  // CHECK-NEXT: %[[S]] : tensor<?x4xf32>{%[[D]]} in !stream.resource<staging>{%[[N]]},
  // CHECK-NEXT: %[[S]] : tensor<2xi8> in !stream.resource<staging>{%[[N]]}
  // CHECK-NEXT: ]
  stream.tensor.trace "probe" = [%s : tensor<?x4xf32>{%d} in !stream.resource<staging>{%n}, %s : tensor<2xi8> in !stream.resource<staging>{%n}]
  util.return %a, %b : !stream.resource<*>, !stream.resource<*>
}

// -----

util.global private @gpu : !hal.device

// CHECK-LABEL: @parameters
// CHECK-SAME: (%[[SC:.+]]: !util.buffer, %[[K:.+]]: !util.buffer, %[[K2:.+]]: !util.buffer, %[[OFF:.+]]: i64, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[O:.+]]: index, %[[T:.+]]: !stream.timepoint)
util.func public @parameters(%sc: !util.buffer, %k: !util.buffer, %k2: !util.buffer, %off: i64, %r: !stream.resource<*>, %n: index, %o: index, %t: !stream.timepoint) {
  // CHECK: stream.tensor.parameter.load on(#hal.device.affinity<@gpu>) %[[SC]]::%[[K]][%[[OFF]]] : tensor<?x4xf32>{%[[O]]} in !stream.resource<*>{%[[N]]}
  %tl = stream.tensor.parameter.load on(#hal.device.affinity<@gpu>) %sc::%k[%off] : tensor<?x4xf32>{%o} in !stream.resource<*>{%n}
  // CHECK: stream.tensor.parameter.load %[[K]][%[[OFF]]] : tensor<4xf32> in !stream.resource<*>{%[[N]]}
  %tl2 = stream.tensor.parameter.load %k[%off] : tensor<4xf32> in !stream.resource<*>{%n}
  // CHECK: stream.tensor.parameter.write %[[R]] -> %[[K]][%[[OFF]]] : tensor<4xf32> in !stream.resource<*>{%[[N]]}
  %tw = stream.tensor.parameter.write %r -> %k[%off] : tensor<4xf32> in !stream.resource<*>{%n}
  // CHECK: %{{.+}}, %{{.+}} = stream.async.parameter.load await(%[[T]]) %[[SC]]::%[[K]][%[[OFF]]] : !stream.resource<*>{%[[N]]} => !stream.timepoint
  %l, %lt = stream.async.parameter.load await(%t) %sc::%k[%off] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: stream.async.parameter.read %[[K]][%[[OFF]]] -> %[[R]][%[[O]] to %[[N]] for %[[N]]] : !stream.resource<*>{%[[N]]} => !stream.timepoint
  %rd, %rdt = stream.async.parameter.read %k[%off] -> %r[%o to %n for %n] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: stream.async.parameter.write on(#hal.device.affinity<@gpu>) %[[R]][%[[O]] to %[[N]] for %[[N]]] -> %[[SC]]::%[[K]][%[[OFF]]] : !stream.resource<*>{%[[N]]} => !stream.timepoint
  %wr, %wrt = stream.async.parameter.write on(#hal.device.affinity<@gpu>) %r[%o to %n for %n] -> %sc::%k[%off] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: stream.async.parameter.gather await(%[[T]]) {
  // CHECK-NEXT: %[[SC]]::%[[K]][%[[OFF]]] -> %[[R]][%[[O]] to %[[N]] for %[[N]]] : !stream.resource<*>{%[[N]]},
  // CHECK-NEXT: %[[SC]]::%[[K2]][%[[OFF]]] -> %[[R]][%[[N]] to %[[N]] for %[[O]]] : !stream.resource<*>{%[[N]]}
  // CHECK-NEXT: } : !stream.resource<*> => !stream.timepoint
  %g, %gt = stream.async.parameter.gather await(%t) {
    %sc::%k[%off] -> %r[%o to %n for %n] : !stream.resource<*>{%n},
    %sc::%k2[%off] -> %r[%n to %n for %o] : !stream.resource<*>{%n}
  } : !stream.resource<*> => !stream.timepoint
  // CHECK: stream.async.parameter.scatter {
  // CHECK-NEXT: %[[R]][%[[O]] to %[[N]] for %[[N]]] : !stream.resource<*>{%[[N]]} -> %[[K]][%[[OFF]]],
  // CHECK-NEXT: %[[R]][%[[N]] to %[[N]] for %[[O]]] : !stream.resource<*>{%[[N]]} -> %[[K2]][%[[OFF]]]
  // CHECK-NEXT: } : !stream.resource<*> => !stream.timepoint
  %s, %st = stream.async.parameter.scatter {
    %r[%o to %n for %n] : !stream.resource<*>{%n} -> %k[%off],
    %r[%n to %n for %o] : !stream.resource<*>{%n} -> %k2[%off]
  } : !stream.resource<*> => !stream.timepoint
  util.return
}

// -----

util.global private @gpu : !hal.device

// CHECK-LABEL: @cmd_parameters
// CHECK-SAME: (%[[SC:.+]]: !util.buffer, %[[K:.+]]: !util.buffer, %[[K2:.+]]: !util.buffer, %[[OFF:.+]]: i64, %[[R:.+]]: !stream.resource<*>, %[[N:.+]]: index, %[[O:.+]]: index, %[[T:.+]]: !stream.timepoint)
util.func public @cmd_parameters(%sc: !util.buffer, %k: !util.buffer, %k2: !util.buffer, %off: i64, %r: !stream.resource<*>, %n: index, %o: index, %t: !stream.timepoint) {
  // CHECK: %{{.+}}:2, %{{.+}} = stream.cmd.parameter.load on(#hal.device.affinity<@gpu>) await(%[[T]]) => {
  // CHECK-NEXT: %[[SC]]::%[[K]][%[[OFF]]] : !stream.resource<constant>{%[[N]]},
  // CHECK-NEXT: %[[SC]]::%[[K2]][%[[OFF]]] : !stream.resource<constant>{%[[O]]}
  // CHECK-NEXT: } => !stream.timepoint
  %l:2, %lt = stream.cmd.parameter.load on(#hal.device.affinity<@gpu>) await(%t) => {
    %sc::%k[%off] : !stream.resource<constant>{%n},
    %sc::%k2[%off] : !stream.resource<constant>{%o}
  } => !stream.timepoint
  // CHECK: stream.cmd.parameter.read await(%[[T]]) => %[[SC]]::%[[K]][%[[OFF]]] -> %[[R]][%[[O]] for %[[N]]] : !stream.resource<*>{%[[N]]} => !stream.timepoint
  %rd = stream.cmd.parameter.read await(%t) => %sc::%k[%off] -> %r[%o for %n] : !stream.resource<*>{%n} => !stream.timepoint
  // CHECK: stream.cmd.parameter.write %[[R]][%[[O]] for %[[N]]] : !stream.resource<*>{%[[N]]} -> %[[K]][%[[OFF]]] => !stream.timepoint
  %wr = stream.cmd.parameter.write %r[%o for %n] : !stream.resource<*>{%n} -> %k[%off] => !stream.timepoint
  // CHECK: stream.cmd.parameter.gather await(%[[T]]) => {
  // CHECK-NEXT: %[[SC]]::%[[K]][%[[OFF]]] -> %[[R]][%[[O]] for %[[N]]] : !stream.resource<*>{%[[N]]},
  // CHECK-NEXT: %[[SC]]::%[[K2]][%[[OFF]]] -> %[[R]][%[[N]] for %[[O]]] : !stream.resource<*>{%[[N]]}
  // CHECK-NEXT: } => !stream.timepoint
  %g = stream.cmd.parameter.gather await(%t) => {
    %sc::%k[%off] -> %r[%o for %n] : !stream.resource<*>{%n},
    %sc::%k2[%off] -> %r[%n for %o] : !stream.resource<*>{%n}
  } => !stream.timepoint
  // CHECK: stream.cmd.parameter.scatter {
  // CHECK-NEXT: %[[R]][%[[O]] for %[[N]]] : !stream.resource<*>{%[[N]]} -> %[[K]][%[[OFF]]],
  // CHECK-NEXT: %[[R]][%[[N]] for %[[O]]] : !stream.resource<*>{%[[N]]} -> %[[K2]][%[[OFF]]]
  // CHECK-NEXT: } => !stream.timepoint
  %s = stream.cmd.parameter.scatter {
    %r[%o for %n] : !stream.resource<*>{%n} -> %k[%off],
    %r[%n for %o] : !stream.resource<*>{%n} -> %k2[%off]
  } => !stream.timepoint
  util.return
}

// -----

// The configuration attributes print as IREE prints them (its partitioning
// config in a form IREE's parser rejects, its flag as 0 or 1); memplan reads both.
// CHECK: module attributes {stream.partitioning = #stream.partitioning_config<favor-max-concurrency>, stream.resources = #stream.resource_config<{max_allocation_size = 1024, min_buffer_offset_alignment = 16, max_buffer_range = 0, min_buffer_range_alignment = 0, index_bits = 32, alias_mutable_bindings = 1, memory_model = Unified}>}
module attributes {stream.partitioning = #stream.partitioning_config<"max-concurrency">, stream.resources = #stream.resource_config<{max_allocation_size = 1024, min_buffer_offset_alignment = 16, alias_mutable_bindings = true, memory_model = Unified}>} {
}
