// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// stream IR that IREE 3.13 rejects, with IREE's messages (size and dimension
// operand counts, entry points). The out-of-range dispatch tie is memplan's own
// check: IREE 3.13 does not verify it.

util.func public @sizeof_missing_dim() {
  // expected-error @+1 {{'stream.tensor.sizeof' op type set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = stream.tensor.sizeof tensor<?xf32> : index
  util.return
}

// -----

util.func public @constant_extra_dim(%arg0: index) {
  // expected-error @+1 {{'stream.tensor.constant' op type set has 0 dynamic dimensions but only 1 dimension values are attached}}
  %cst = stream.tensor.constant : tensor<4xf32>{%arg0} in !stream.resource<constant> = dense<1.000000e+00> : tensor<4xf32>
  util.return
}

// -----

util.func public @encode_missing_dim(%arg0: index, %arg1: !stream.resource<*>) {
  // expected-error @+1 {{'stream.tensor.encode' op type set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = stream.tensor.encode %arg1 : tensor<4xf32> in !stream.resource<*>{%arg0} -> tensor<?xf32> in !stream.resource<*>{%arg0}
  util.return
}

// -----

util.func public @dispatch_missing_result_size(%arg0: index, %arg1: !stream.resource<*>) {
  // expected-error @+1 {{'stream.async.dispatch' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 0>}> : (!stream.resource<*>, index, index, index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @dispatch_missing_operand_range(%arg0: index, %arg1: !stream.resource<*>) {
  // expected-error @+1 {{'stream.async.dispatch' op mismatch on resource range offsets/ends/lengths; counts must match}}
  %0 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 0, 1, 1, 1>}> : (!stream.resource<*>, index, index, index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @dispatch_tie_out_of_range(%arg0: index, %arg1: !stream.resource<*>) {
  // expected-error @+1 {{'stream.async.dispatch' op result #0 tied to invalid operand index 1}}
  %0 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1>, tied_operands = [1 : index]}> : (!stream.resource<*>, index, index, index, index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @await_result_count(%arg0: index, %arg1: !stream.resource<*>, %arg2: !stream.timepoint) {
  // expected-error @+1 {{'stream.timepoint.await' op results/tied operand indices mismatch}}
  %0:2 = "stream.timepoint.await"(%arg1, %arg0, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!stream.resource<*>, index, !stream.timepoint) -> (!stream.resource<*>, !stream.resource<*>)
  util.return
}

// -----

util.func public @await_missing_size(%arg1: !stream.resource<*>, %arg2: !stream.timepoint) {
  // expected-error @+1 {{'stream.timepoint.await' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = "stream.timepoint.await"(%arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!stream.resource<*>, !stream.timepoint) -> !stream.resource<*>
  util.return
}

// -----

util.func public @dispatch_without_entry_points() {
  // expected-error @+1 {{'stream.async.dispatch' op at least one entry point must be defined}}
  "stream.async.dispatch"() <{entry_points = [], operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> : () -> ()
  util.return
}

// -----

util.func public @cast_to_staging(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.async.cast %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<staging>{%arg1}
  util.return
}

// -----

util.func public @fill_changes_type(%arg0: !stream.resource<*>, %arg1: index, %arg2: i32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.fill' op}}
  %0 = "stream.async.fill"(%arg0, %arg1, %c0, %arg1, %arg1, %arg2) : (!stream.resource<*>, index, index, index, index, i32) -> !stream.resource<transient>
  util.return
}

// -----

// A resource fill or splat repeats an 8/16/32/64-bit integer pattern; IREE rejects
// a float (the narrowing pattern would otherwise rewrite it to bytes).
util.func public @async_fill_float_pattern(%r: !stream.resource<*>, %sz: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 0.0 : f32
  // expected-error @+1 {{f32 should be of base attribute integer_type}}
  %0 = stream.async.fill %f, %r[%c0 to %c16 for %c16] : f32 -> %r as !stream.resource<*>{%sz}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @async_splat_i1_pattern(%sz: index) -> !stream.resource<*> {
  %b = arith.constant true
  // expected-error @+1 {{Invalid value 1, expected one of {8, 16, 32, 64}}}
  %0 = stream.async.splat %b : i1 -> !stream.resource<*>{%sz}
  util.return %0 : !stream.resource<*>
}

// -----

// Lifetimes: loads, stores and traces touch host-visible staging memory only;
// device work (clones, fills, updates, dispatch operands) never does.

util.func public @tensor_store_into_device_resource(%r: !stream.resource<transient>, %sz: index, %i: index, %v: f32) -> !stream.resource<transient> {
  // expected-error @+1 {{must be staging resource, but got '!stream.resource<transient>'}}
  %0 = stream.tensor.store %v, %r[%i] : f32 -> tensor<4xf32> in %r as !stream.resource<transient>{%sz}
  util.return %0 : !stream.resource<transient>
}

// -----

util.func public @tensor_clone_of_staging(%r: !stream.resource<staging>, %sz: index) -> !stream.resource<*> {
  // expected-error @+1 {{must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.tensor.clone %r : tensor<4xf32> in !stream.resource<staging>{%sz} -> tensor<4xf32> in !stream.resource<*>{%sz}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @tensor_load_from_device_resource(%r: !stream.resource<*>, %sz: index) -> f32 {
  // expected-error @+1 {{must be staging resource, but got '!stream.resource<*>'}}
  %0 = stream.tensor.load %r : tensor<f32> in !stream.resource<*>{%sz} -> f32
  util.return %0 : f32
}

// -----

util.func public @async_load_from_constant(%r: !stream.resource<constant>, %sz: index, %i: index) -> i32 {
  // expected-error @+1 {{must be staging resource, but got '!stream.resource<constant>'}}
  %0 = stream.async.load %r[%i] : !stream.resource<constant>{%sz} -> i32
  util.return %0 : i32
}

// -----

util.func public @async_store_into_external(%r: !stream.resource<external>, %sz: index, %i: index, %v: f32) -> !stream.resource<external> {
  // expected-error @+1 {{must be staging resource, but got '!stream.resource<external>'}}
  %0 = stream.async.store %v, %r[%i] : f32 -> %r as !stream.resource<external>{%sz}
  util.return %0 : !stream.resource<external>
}

// -----

util.func public @resource_load_from_variable(%r: !stream.resource<variable>, %sz: index, %i: index) -> i32 {
  // expected-error @+1 {{must be staging resource, but got '!stream.resource<variable>'}}
  %0 = stream.resource.load %r[%i] : !stream.resource<variable>{%sz} -> i32
  util.return %0 : i32
}

// -----

util.func public @async_clone_to_staging(%r: !stream.resource<*>, %sz: index) -> !stream.resource<staging> {
  // expected-error @+1 {{must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.async.clone %r : !stream.resource<*>{%sz} -> !stream.resource<staging>{%sz}
  util.return %0 : !stream.resource<staging>
}

// -----

util.func public @async_update_of_staging(%t: !stream.resource<*>, %u: !stream.resource<staging>, %sz: index, %c0: index, %c4: index) -> !stream.resource<*> {
  // expected-error @+1 {{must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.async.update %u, %t[%c0 to %c4] : !stream.resource<staging>{%c4} -> %t as !stream.resource<*>{%sz}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @staging_loads_and_stores(%r: !stream.resource<staging>, %sz: index, %i: index, %v: f32) -> f32 {
  %0 = stream.async.store %v, %r[%i] : f32 -> %r as !stream.resource<staging>{%sz}
  %1 = stream.async.load %0[%i] : !stream.resource<staging>{%sz} -> f32
  util.return %1 : f32
}
