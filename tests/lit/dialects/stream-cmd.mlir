// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Scheduled stream IR prints as IREE 3.13 writes it: execution regions capture
// resources, elide their `stream.yield`, and dispatches list one resource a line.

// CHECK-LABEL: @cmd_ops
// CHECK-SAME: (%[[R:.+]]: !stream.resource<transient>, %[[E:.+]]: !stream.resource<external>, %[[N:.+]]: index, %[[W:.+]]: index, %[[V:.+]]: i32, %[[T:.+]]: !stream.timepoint)
util.func public @cmd_ops(%r: !stream.resource<transient>, %e: !stream.resource<external>, %n: index, %w: index, %v: i32, %t: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // CHECK: %[[X:.+]] = stream.cmd.execute once on(#hal.device.affinity<@dev, [0, 2]>) await(%[[T]]) => with(%[[R]] as %[[A:.+]]: !stream.resource<transient>{%[[N]]}, %[[E]] as %[[B:.+]]: !stream.resource<external>{%[[N]]}) {
  %0 = stream.cmd.execute once on(#hal.device.affinity<@dev, [2, 0]>) await(%t) => with(%r as %a: !stream.resource<transient>{%n}, %e as %b: !stream.resource<external>{%n}) {
    // CHECK-NEXT: stream.cmd.fill %[[V]], %[[A]][%[[C0:.+]] for %[[C8:.+]]] : i32 -> !stream.resource<transient>{%[[N]]}
    stream.cmd.fill %v, %a[%c0 for %c8] : i32 -> !stream.resource<transient>{%n}
    // CHECK-NEXT: stream.cmd.serial {
    stream.cmd.serial {
      // CHECK-NEXT: stream.cmd.copy %[[A]][%[[C0]]], %[[B]][%[[C8]]], %[[C8]] : !stream.resource<transient>{%[[N]]} -> !stream.resource<external>{%[[N]]}
      stream.cmd.copy %a[%c0], %b[%c8], %c8 : !stream.resource<transient>{%n} -> !stream.resource<external>{%n}
      // CHECK-NEXT: stream.cmd.dispatch {@ex::@entry, @ex::@alt}[%[[W]], %[[N]]](%[[V]], %[[W]] : i32, index) {
      // CHECK-NEXT:   ro %[[A]][%[[C0]] for %[[N]]] : !stream.resource<transient>{%[[N]]},
      // CHECK-NEXT:   rw %[[B]][%[[C8]] for %[[C8]]] : !stream.resource<external>{%[[N]]}
      // CHECK-NEXT: }
      stream.cmd.dispatch {@ex::@entry, @ex::@alt}[%w, %n](%v, %w : i32, index) {
        ro %a[%c0 for %n] : !stream.resource<transient>{%n},
        rw %b[%c8 for %c8] : !stream.resource<external>{%n}
      }
    // CHECK-NEXT: }
    }
    // CHECK-NEXT: stream.cmd.concurrent {
    stream.cmd.concurrent {
      // CHECK-NEXT: stream.cmd.invalidate from(#hal.device.affinity<@dev>) %[[B]][%[[C0]] for %[[N]]] : !stream.resource<external>{%[[N]]}
      stream.cmd.invalidate from(#hal.device.affinity<@dev>) %b[%c0 for %n] : !stream.resource<external>{%n}
      // CHECK-NEXT: stream.cmd.discard %[[A]][%[[C0]] for %[[N]]] : !stream.resource<transient>{%[[N]]}
      stream.cmd.discard %a[%c0 for %n] : !stream.resource<transient>{%n}
    }
    // CHECK: stream.cmd.flush to(#hal.device.affinity<@dev>) %[[B]][%[[C0]] for %[[N]]] : !stream.resource<external>{%[[N]]}
    stream.cmd.flush to(#hal.device.affinity<@dev>) %b[%c0 for %n] : !stream.resource<external>{%n}
  // CHECK-NEXT: } => !stream.timepoint
  } => !stream.timepoint
  // CHECK: stream.cmd.execute with(%[[R]] as %[[A2:.+]]: !stream.resource<transient>{%[[N]]}) {
  // CHECK-NEXT: stream.cmd.dispatch @ex::@plain {
  // CHECK-NEXT:   wo %[[A2]][%[[C0]] for %[[N]]] : !stream.resource<transient>{%[[N]]}
  // CHECK-NEXT: } attributes {tag}
  %1 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.dispatch @ex::@plain {
      wo %a[%c0 for %n] : !stream.resource<transient>{%n}
    } attributes {tag}
  } => !stream.timepoint
  %2 = stream.timepoint.join max(%0, %1) => !stream.timepoint
  util.return %2 : !stream.timepoint
}
// The generic form carries IREE's segment sizes and i32 access bits; the
// implicit yield is explicit, with no segment sizes of its own.
// GENERIC-LABEL: "util.func"
// GENERIC: "stream.cmd.execute"({{.*}}) <{affinity = #hal.device.affinity<@dev, [0, 2]>, once, operandSegmentSizes = array<i32: 2, 2, 1>}>
// GENERIC: "stream.cmd.dispatch"({{.*}}) <{entry_points = [@ex::@entry, @ex::@alt], operandSegmentSizes = array<i32: 2, 2, 2, 2, 2, 2>, resource_accesses = [1 : i32, 3 : i32]}>
// GENERIC: "stream.yield"() : () -> ()

// -----

// Buffer-view ops at the ABI boundary, with IREE's result names.

// CHECK-LABEL: @hal_ops
// CHECK-SAME: (%[[VIEW:.+]]: !hal.buffer_view, %{{.+}}: !hal.buffer, %[[N:.+]]: index)
util.func public @hal_ops(%view: !hal.buffer_view, %buf: !hal.buffer, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  // CHECK: %element_type_f16 = hal.element_type<f16> : i32
  %t = hal.element_type<f16> : i32
  // CHECK: %dense_row_major = hal.encoding_type<dense_row_major> : i32
  %e = hal.encoding_type<dense_row_major> : i32
  // CHECK: hal.buffer_view.assert<%[[VIEW]] : !hal.buffer_view> message("in0") shape([%[[N]], %{{.+}}]) type(%element_type_f16) encoding(%dense_row_major)
  hal.buffer_view.assert<%view : !hal.buffer_view> message("in0") shape([%n, %c0]) type(%t) encoding(%e)
  // CHECK: %[[RANK:.+]] = hal.buffer_view.rank<%[[VIEW]] : !hal.buffer_view> : index
  %rank = hal.buffer_view.rank<%view : !hal.buffer_view> : index
  // CHECK: %[[DIM:.+]] = hal.buffer_view.dim<%[[VIEW]] : !hal.buffer_view>[1] : index
  %dim = hal.buffer_view.dim<%view : !hal.buffer_view>[1] : index
  // CHECK: %buffer = hal.buffer_view.buffer<%[[VIEW]] : !hal.buffer_view> : !hal.buffer
  %b = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  // CHECK: %[[ET:.+]] = hal.buffer_view.element_type<%[[VIEW]] : !hal.buffer_view> : i32
  %et = hal.buffer_view.element_type<%view : !hal.buffer_view> : i32
  // CHECK: %view = hal.buffer_view.create buffer(%buffer : !hal.buffer)[%{{.+}}, %[[N]]] shape([%[[RANK]], %[[DIM]]]) type(%[[ET]]) encoding(%dense_row_major) : !hal.buffer_view
  %v = hal.buffer_view.create buffer(%b : !hal.buffer)[%c0, %n] shape([%rank, %dim]) type(%et) encoding(%e) : !hal.buffer_view
  util.return %v : !hal.buffer_view
}

// -----

// Device globals: targets, selections and fallbacks are typed `!hal.device`
// values. Attributes of dialects memplan does not model (`#iree_codegen`,
// `#iree_cpu`) print back as written, `<>` included.

// Targets print under IREE's aliases (`#device_target_<id>`,
// `#executable_target_<format>`), inner ones first.
// CHECK: #[[BARE:device_target_local]] = #hal.device.target<"local"> : !hal.device
// CHECK-NEXT: #[[EX:executable_target_vmvx_bytecode_fb]] = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {bare = #iree_codegen.marker, codegen = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Default>>, resolver = #iree_cpu.vmvx_encoding_resolver<>}>
// CHECK-NEXT: #[[DEV:device_target_vmvx]] = #hal.device.target<"vmvx", {legacy_sync}, [#[[EX]]]> : !hal.device
// CHECK: util.global private @dev = #[[DEV]]{{$}}
util.global private @dev = #hal.device.target<"vmvx", {legacy_sync}, [#hal.executable.target<"vmvx", "vmvx-bytecode-fb", {resolver = #iree_cpu.vmvx_encoding_resolver<>, codegen = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Default>>, bare = #iree_codegen.marker}>]> : !hal.device
// CHECK-LABEL: util.global private @sel = #hal.device.select<[#hal.device.ordinal<1> : !hal.device, #hal.device.fallback<@dev> : !hal.device, #hal.device.alias<"vulkan"[2], {x = 1 : i64}> : !hal.device]> : !hal.device
util.global private @sel = #hal.device.select<[#hal.device.ordinal<1> : !hal.device, #hal.device.fallback<@dev> : !hal.device, #hal.device.alias<"vulkan"[2], {x = 1 : i64}> : !hal.device]> : !hal.device
// CHECK: util.global private @bare = #[[BARE]]{{$}}
util.global private @bare = #hal.device.target<"local"> : !hal.device
// CHECK-LABEL: util.func public @promised
// CHECK-SAME: stream.affinity = #hal.device.promise<@dev, [1]>
util.func public @promised() attributes {stream.affinity = #hal.device.promise<@dev, [1]>} {
  util.return
}

// -----

// An executable's exports are parsed (dispatches reference `@ex::@alt`); its
// `builtin.module` is kept as text, aliases it used replaced by what they name.
// In generic output the module stays as written inside the generic executable.

#swap = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: stream.executable private @ex {
// CHECK-NEXT:   stream.executable.export public @entry as("alt") workgroups(%[[W0:.+]]: index, %[[W1:.+]]: index) -> (index, index, index) {
// CHECK-NEXT:     %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[W0]], %[[W1]])
// CHECK-NEXT:     stream.return %x, %y, %z : index, index, index
// CHECK-NEXT:   }
// CHECK-NEXT:   stream.executable.export public @plain
// CHECK-NEXT:   builtin.module attributes {acme.kept} {
// CHECK-NEXT:     func.func @entry(%arg0: !stream.binding, %arg1: index) {
// CHECK-NEXT:       %c0 = arith.constant 0 : index
// CHECK-NEXT:       %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x4xf32>>{%arg1}
// CHECK-NEXT:       %1 = acme.transpose %0 {map = affine_map<(d0, d1) -> (d1, d0)>} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x4xf32>>
// CHECK-NEXT:       return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC-LABEL: "stream.executable"() <{sym_name = "ex", sym_visibility = "private"}> ({
// GENERIC: "stream.executable.export"() <{function_ref = @entry, sym_name = "alt", sym_visibility = "public"}> ({
// GENERIC: builtin.module attributes {acme.kept} {
// GENERIC: %1 = acme.transpose %0 {map = affine_map<(d0, d1) -> (d1, d0)>}
// GENERIC: "stream.executable.end"() : () -> ()
stream.executable private @ex {
  stream.executable.export public @entry as("alt") workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
    stream.return %x, %y, %z : index, index, index
  }
  stream.executable.export public @plain
  builtin.module attributes {acme.kept} {
    func.func @entry(%arg0: !stream.binding, %arg1: index) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x4xf32>>{%arg1}
      %1 = acme.transpose %0 {map = #swap} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x4xf32>>
      return
    }
  }
}

// -----

// A module kept from generic text stays generic; block arguments named by the
// generic printer are text too.

// CHECK-LABEL: stream.executable private @gen {
// CHECK-NEXT:   "builtin.module"() ({
// CHECK-NEXT:     "acme.kernel"() <{note = "}) : ("}> : () -> ()
// CHECK-NEXT:   }) {acme.kept} : () -> ()
// CHECK-NEXT: }
"stream.executable"() <{sym_name = "gen", sym_visibility = "private"}> ({
  "builtin.module"() ({
    "acme.kernel"() <{note = "}) : ("}> : () -> ()
  }) {acme.kept} : () -> ()
  "stream.executable.end"() : () -> ()
}) : () -> ()

// -----

// Ops of executables written without foreign ops are modelled, with IREE's
// result names.

// CHECK-LABEL: func.func @plain_kernel
// CHECK: %workgroup_id_0 = stream.dispatch.workgroup.id[0] : index
// CHECK: %workgroup_count_1 = stream.dispatch.workgroup.count[1] : index
// CHECK: %workgroup_size_2 = stream.dispatch.workgroup.size[2] : index
// CHECK: stream.binding.subspan %{{.+}}[%workgroup_id_0] : !stream.binding -> memref<?xf32>{%workgroup_count_1}
func.func @plain_kernel(%b: !stream.binding) {
  %i = stream.dispatch.workgroup.id[0] : index
  %n = stream.dispatch.workgroup.count[1] : index
  %s = stream.dispatch.workgroup.size[2] : index
  %0 = stream.binding.subspan %b[%i] : !stream.binding -> memref<?xf32>{%n}
  return
}

// -----

// A HAL executable (after the stream phase): variants are parsed, their exports,
// conditions and modules kept as text; exports keep their symbols, so a dispatch
// names `@hex::@cpu::@run`. A custom op kept as text ends where its line ends
// outside brackets (`} <workgroup_size = ...>`).

// CHECK: #executable_target_elf = #hal.executable.target<"llvm-cpu", "elf", {acme.cfg = #iree_cpu.cfg<>}>
// CHECK-LABEL: hal.executable private @hex {
// CHECK-NEXT:   hal.executable.variant public @cpu target(#executable_target_elf) {
// CHECK-NEXT:     hal.executable.export public @run ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) count(%arg0: !hal.device) -> (index, index, index) {
// CHECK-NEXT:       %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
// CHECK-NEXT:       hal.return %x, %y, %z : index, index, index
// CHECK-NEXT:     } <workgroup_size = [1 : index, 1 : index, 1 : index]>
// CHECK-NEXT:     builtin.module {
// CHECK-NEXT:       func.func @run() {
// CHECK-NEXT:         return
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: stream.cmd.dispatch @hex::@cpu::@run {
// GENERIC-LABEL: "hal.executable"() <{sym_name = "hex", sym_visibility = "private"}> ({
// GENERIC-NEXT: "hal.executable.variant"() <{sym_name = "cpu", sym_visibility = "public", target = #executable_target_elf}> ({
// GENERIC-NEXT: hal.executable.export public @run
// GENERIC: "hal.executable.variant_end"() : () -> ()
// GENERIC: "hal.executable_end"() : () -> ()
hal.executable private @hex {
  hal.executable.variant public @cpu target(<"llvm-cpu", "elf", {acme.cfg = #iree_cpu.cfg<>}>) {
    hal.executable.export public @run ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    } <workgroup_size = [1 : index, 1 : index, 1 : index]>
    builtin.module {
      func.func @run() {
        return
      }
    }
  }
}
util.func public @launch(%r: !stream.resource<transient>, %n: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.dispatch @hex::@cpu::@run {
      wo %a[%c0 for %n] : !stream.resource<transient>{%n}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// External calls and collectives: a call's resource operands carry an access and
// a range, its plain operands do not; the callee's resource arguments bring their
// offset and length as two more arguments.

// CHECK-LABEL: stream.cmd.func private @ext(%arg0[%arg1 for %arg2]: !stream.resource<*>, %arg3: i32 {acme.tag}) -> (i32, index)
stream.cmd.func private @ext(%arg0[%arg1 for %arg2]: !stream.resource<*>, %arg3: i32 {acme.tag}) -> (i32, index)
// CHECK-LABEL: @calls
// CHECK-SAME: (%[[R:.+]]: !stream.resource<external>, %[[N:.+]]: index, %[[V:.+]]: i32, %[[CH:.+]]: !stream.channel)
util.func public @calls(%r: !stream.resource<external>, %n: index, %v: i32, %ch: !stream.channel) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  // CHECK: stream.cmd.execute with(%[[R]] as %[[A:.+]]: !stream.resource<external>{%[[N]]}) {
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<external>{%n}) {
    // CHECK-NEXT: stream.cmd.call @ext(rw %[[A]][%[[C0:.+]] for %[[N]]], %[[V]]) : (!stream.resource<external>{%[[N]]}, i32) -> (i32, index)
    // GENERIC: "stream.cmd.call"({{.*}}) <{callee = @ext, operandSegmentSizes = array<i32: 2, 1, 1, 1, 0>, resource_operand_accesses = [3 : i32], tied_operands = [-1 : index, -1 : index]}>
    %1:2 = stream.cmd.call @ext(rw %a[%c0 for %n], %v) : (!stream.resource<external>{%n}, i32) -> (i32, index)
    // CHECK-NEXT: stream.cmd.collective<all_reduce with sum : f32>[%[[N]]] channel(%[[CH]]) param(%[[V]] : i32) {
    // CHECK-NEXT:   ro %[[A]][%[[C0]] for %[[N]]] : !stream.resource<external>{%[[N]]},
    // CHECK-NEXT:   wo %[[A]][%[[C0]] for %[[N]]] : !stream.resource<external>{%[[N]]}
    // CHECK-NEXT: }
    stream.cmd.collective<all_reduce with sum : f32>[%n] channel(%ch) param(%v : i32) {
      ro %a[%c0 for %n] : !stream.resource<external>{%n},
      wo %a[%c0 for %n] : !stream.resource<external>{%n}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
