// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// Runtime-facing stream ops IREE 3.13 rejects, with IREE's messages.

util.func public @constants_count_mismatch(%n: index) {
  // expected-error @+1 {{'stream.resource.constants' op mismatched constant/result counts}}
  %0:3 = "stream.resource.constants"(%n, %n) <{values = [dense<1> : tensor<4xi32>]}> : (index, index) -> (!stream.resource<constant>, !stream.resource<constant>, !stream.timepoint)
  util.return
}

// -----

util.func public @constants_mixed_lifetimes(%n: index) {
  // expected-error @+1 {{'stream.resource.constants' op all results must be of the same type}}
  %0:3 = stream.resource.constants :
    !stream.resource<constant>{%n} = dense<1> : tensor<4xi32>,
    !stream.resource<variable>{%n} = dense<2> : tensor<4xi32>
    => !stream.timepoint
  util.return
}

// -----

util.func public @broadcast_without_source(%r: !stream.resource<*>, %n: index, %ch: !stream.channel) {
  // expected-error @+1 {{'stream.async.collective' op collective operation requires a source parameter but none present}}
  %0 = "stream.async.collective"(%r, %n, %n, %n, %n, %r, %n, %n, %n, %n, %n, %ch) <{op = #stream.collective<broadcast : f32>}> : (!stream.resource<*>, index, index, index, index, !stream.resource<*>, index, index, index, index, index, !stream.channel) -> !stream.resource<*>
  util.return
}

// -----

util.func public @all_gather_with_param(%r: !stream.resource<*>, %n: index, %ch: !stream.channel, %p: i32) {
  // expected-error @+1 {{'stream.async.collective' op collective operation does not require a parameter but one present}}
  %0 = "stream.async.collective"(%r, %n, %n, %n, %n, %r, %n, %n, %n, %n, %n, %ch, %p) <{op = #stream.collective<all_gather : si32>}> : (!stream.resource<*>, index, index, index, index, !stream.resource<*>, index, index, index, index, index, !stream.channel, i32) -> !stream.resource<*>
  util.return
}

// -----

stream.async.func private @fn(%arg0: !stream.resource<*>) -> index

util.func public @call_returns_index(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.call' op non-resource return values are not yet supported on async calls}}
  %0 = stream.async.call @fn(%r[%n to %n for %n]) : (!stream.resource<*>{%n}) -> index
  util.return
}

// -----

stream.async.func private @fn(%arg0: !stream.resource<*>) -> !stream.resource<*>

util.func public @call_without_range(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.call' op expects 1 resource range operand sets but 0 are present}}
  %0 = stream.async.call @fn(%r) : (!stream.resource<*>{%n}) -> !stream.resource<*>{%n}
  util.return
}

// -----

// expected-error @+1 {{'stream.async.func' op symbol declaration cannot have public visibility}}
stream.async.func @public_declaration(%arg0: index)

// -----

// expected-error @+1 {{'stream.async.func' op arguments may only have dialect attributes}}
stream.async.func private @plain_arg_attr(%arg0: index {tag})

// -----

util.func public @trace_count_mismatch(%s: !stream.resource<staging>, %n: index) {
  // expected-error @+1 {{'stream.tensor.trace' op each resource needs a matching resource encoding and size (array length mismatch)}}
  "stream.tensor.trace"(%s, %n) <{key = "k", operandSegmentSizes = array<i32: 1, 1, 0>, resource_encodings = [tensor<4xf32>, tensor<4xf32>]}> : (!stream.resource<staging>, index) -> ()
  util.return
}

// -----

util.func public @gather_count_mismatch(%k: !util.buffer, %o: i64, %r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.parameter.gather' op requires that the source keys, source offsets, target offsets, target ends, and lengths are all 1:1}}
  %0:2 = "stream.async.parameter.gather"(%k, %k, %o, %r, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 2, 1, 1, 1, 1, 1, 1, 0>}> : (!util.buffer, !util.buffer, i64, !stream.resource<*>, index, index, index, index) -> (!stream.resource<*>, !stream.timepoint)
  util.return
}

// -----

util.func public @cmd_load_count_mismatch(%k: !util.buffer, %o: i64, %n: index) {
  // expected-error @+1 {{'stream.cmd.parameter.load' op requires that the source keys, source offsets, and result sizes are all 1:1}}
  %0:2 = "stream.cmd.parameter.load"(%k, %o, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 2, 0>}> : (!util.buffer, i64, index, index) -> (!stream.resource<constant>, !stream.timepoint)
  util.return
}

// -----

util.func public @cmd_scatter_count_mismatch(%r: !stream.resource<*>, %n: index, %k: !util.buffer, %o: i64) {
  // expected-error @+1 {{'stream.cmd.parameter.scatter' op requires that the source offsets, source lengths, target keys, and target offsets are all 1:1}}
  %0 = "stream.cmd.parameter.scatter"(%r, %n, %n, %n, %n, %k, %o) <{operandSegmentSizes = array<i32: 1, 1, 2, 1, 0, 1, 1, 0>}> : (!stream.resource<*>, index, index, index, index, !util.buffer, i64) -> !stream.timepoint
  util.return
}

// -----

// expected-error @+1 {{unknown favor value: fastest}}
module attributes {stream.partitioning = #stream.partitioning_config<"fastest">} {
}

// -----

util.func public @resource_constants_of_transient(%n: index) -> !stream.resource<transient> {
  // expected-error @+1 {{constant resource or variable resource, but got '!stream.resource<transient>'}}
  %0:2 = stream.resource.constants :
    !stream.resource<transient>{%n} = dense<1> : tensor<4xi32>
    => !stream.timepoint
  util.return %0#0 : !stream.resource<transient>
}

// -----

util.func public @async_dispatch_to_staging(%r: !stream.resource<*>, %n: index) -> !stream.resource<staging> {
  // expected-error @+1 {{resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.async.dispatch @ex::@a(%r[%n to %n for %n]) : (!stream.resource<*>{%n}) -> !stream.resource<staging>{%n}
  util.return %0 : !stream.resource<staging>
}

// -----

util.func public @cmd_fill_of_staging(%r: !stream.resource<staging>, %n: index, %c0: index, %v: i32) -> !stream.timepoint {
  %0 = stream.cmd.execute with(%r as %t: !stream.resource<staging>{%n}) {
    // expected-error @+1 {{must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
    stream.cmd.fill %v, %t[%c0 for %n] : i32 -> !stream.resource<staging>{%n}
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
