// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: memplan-opt %s --split-input-file -p stream-cleanup | FileCheck %s --check-prefix=CLEAN
// The hal ops stream-phase IR uses at its edges, as IREE 3.13 prints them, with
// the names IREE gives their results and the effects IREE declares.

// CHECK-LABEL: @devices
// GENERIC-LABEL: "devices"
// CLEAN-LABEL: @devices
util.func public @devices(%i: index) -> (!hal.device, !hal.device, index) {
  %c1 = arith.constant 1 : index
  // CHECK: %device_1 = hal.devices.get %{{.*}} : !hal.device
  // GENERIC: "hal.devices.get"(%{{.*}}) : (index) -> !hal.device
  %a = hal.devices.get %c1 : !hal.device
  // CHECK: %device_n = hal.devices.get %arg0 : !hal.device
  %b = hal.devices.get %i : !hal.device
  // CHECK: %device_count = hal.devices.count : index
  // GENERIC: "hal.devices.count"() : () -> index
  %n = hal.devices.count : index
  // Pure: unused ones are dead.
  // CLEAN: hal.devices.get
  // CLEAN-NEXT: hal.devices.get
  // CLEAN-NEXT: hal.devices.count
  // CLEAN-NEXT: util.return
  %unused = hal.devices.get %c1 : !hal.device
  %unused_n = hal.devices.count : index
  util.return %a, %b, %n : !hal.device, !hal.device, index
}

// -----

// CHECK-LABEL: @buffers
// CLEAN-LABEL: @buffers
util.func public @buffers(%b: !hal.buffer) -> (index, !hal.buffer, i1, i1) {
  %c4 = arith.constant 4 : index
  // CHECK: %length = hal.buffer.length<%arg0 : !hal.buffer> : index
  // GENERIC: "hal.buffer.length"(%{{.*}}) : (!hal.buffer) -> index
  %n = hal.buffer.length<%b : !hal.buffer> : index
  // CHECK: %buffer = hal.buffer.subspan<%arg0 : !hal.buffer>[%c4, %length] : !hal.buffer
  // GENERIC: "hal.buffer.subspan"(%{{.*}}, %{{.*}}, %{{.*}}) : (!hal.buffer, index, index) -> !hal.buffer
  %s = hal.buffer.subspan<%b : !hal.buffer>[%c4, %n] : !hal.buffer
  // CHECK: hal.buffer.allocation.preserve<%arg0 : !hal.buffer>
  hal.buffer.allocation.preserve<%b : !hal.buffer>
  // CHECK: %was_terminal = hal.buffer.allocation.discard<%arg0 : !hal.buffer> : i1
  %w = hal.buffer.allocation.discard<%b : !hal.buffer> : i1
  // CHECK: %is_terminal = hal.buffer.allocation.is_terminal<%arg0 : !hal.buffer> : i1
  %t = hal.buffer.allocation.is_terminal<%b : !hal.buffer> : i1
  // The Pure length is merged and the unused subspan goes; the ownership ops
  // touch the buffer and stay.
  // CLEAN: hal.buffer.length
  // CLEAN-NEXT: hal.buffer.subspan
  // CLEAN-NEXT: hal.buffer.allocation.preserve
  // CLEAN-NEXT: hal.buffer.allocation.discard
  // CLEAN-NEXT: hal.buffer.allocation.is_terminal
  // CLEAN-NEXT: hal.buffer.allocation.discard
  // CLEAN-NEXT: util.return
  %n2 = hal.buffer.length<%b : !hal.buffer> : index
  %s2 = hal.buffer.subspan<%b : !hal.buffer>[%c4, %n2] : !hal.buffer
  %w2 = hal.buffer.allocation.discard<%b : !hal.buffer> : i1
  util.return %n, %s, %w, %t : index, !hal.buffer, i1, i1
}

// -----

// The fence flags are a bit enum: the generic form holds the i64, the custom
// form the case name (the empty set quoted, as MLIR prints it).
// CHECK-LABEL: @fences
// CLEAN-LABEL: @fences
util.func public @fences(%d: !hal.device, %f: !hal.fence, %s: i32) -> (!hal.fence, !hal.fence, i32) {
  // CHECK: %fence = hal.fence.create device(%arg0 : !hal.device) flags("None") : !hal.fence
  // GENERIC: "hal.fence.create"(%{{.*}}) <{flags = 0 : i64}> : (!hal.device) -> !hal.fence
  %a = hal.fence.create device(%d : !hal.device) flags(None) : !hal.fence
  // CHECK: %fence_0 = hal.fence.create device(%arg0 : !hal.device) flags(Reserved) : !hal.fence
  // GENERIC: "hal.fence.create"(%{{.*}}) <{flags = 1 : i64}> : (!hal.device) -> !hal.fence
  %b = "hal.fence.create"(%d) <{flags = 1 : i64}> : (!hal.device) -> !hal.fence
  // CHECK: hal.fence.signal<%arg1 : !hal.fence>
  hal.fence.signal<%f : !hal.fence>
  // CHECK: hal.fence.fail<%arg1 : !hal.fence> status(%arg2)
  hal.fence.fail<%f : !hal.fence> status(%s)
  // CHECK: hal.fence.query<%arg1 : !hal.fence> : i32
  %q = hal.fence.query<%f : !hal.fence> : i32
  // CHECK: %status = hal.fence.await until([%arg1, %fence]) timeout_millis(%c-1_i32) flags("None") : i32
  // GENERIC: "hal.fence.await"(%{{.*}}, %{{.*}}, %{{.*}}) <{flags = 0 : i64}> : (i32, !hal.fence, !hal.fence) -> i32
  %c-1_i32 = arith.constant -1 : i32
  %w = hal.fence.await until([%f, %a]) timeout_millis(%c-1_i32) flags("None") : i32
  // An unused fence is dead; signal, fail, query and await declare no effect and stay.
  // CLEAN: hal.fence.create
  // CLEAN-NEXT: hal.fence.create
  // CLEAN-NEXT: hal.fence.signal
  // CLEAN-NEXT: hal.fence.fail
  // CLEAN-NEXT: hal.fence.query
  // CLEAN-NEXT: hal.fence.await
  // CLEAN-NEXT: hal.fence.query
  // CLEAN-NEXT: util.return
  %unused = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence
  %q2 = hal.fence.query<%f : !hal.fence> : i32
  util.return %a, %b, %q : !hal.fence, !hal.fence, i32
}

// -----

// Targets print under IREE's aliases: `#executable_target_<format>` and
// `#device_target_<id>` (with `_<ordinal>_` when configured), inner ones first;
// a variant's target is the alias too, and reads back from it.
// CHECK: #[[EX:executable_target_embedded_elf_x86_64]] = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic"}>
// CHECK-NEXT: #[[LOCAL:device_target_local_1_]] = #hal.device.target<"local", {ordinal = 1 : index}, [#[[EX]]]> : !hal.device
// CHECK: util.global private @dev = #[[LOCAL]]{{$}}
// CHECK: hal.executable.variant public @elf target(#[[EX]]) {
util.global private @dev = #hal.device.target<"local", {ordinal = 1 : index}, [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic"}>]> : !hal.device
hal.executable private @ex {
  hal.executable.variant public @elf target(<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic"}>) {
  }
}
