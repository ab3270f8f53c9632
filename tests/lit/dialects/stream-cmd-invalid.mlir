// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// stream.cmd.*, executable and hal ops IREE 3.13 rejects, with IREE's messages
// (memplan names the offending nested op in the region checks).

util.func public @fill_pattern_width(%r: !stream.resource<transient>, %n: index, %v: i1) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    // expected-error @+1 {{fill pattern must be an 8, 16, 32 or 64-bit integer}}
    stream.cmd.fill %v, %a[%c0 for %n] : i1 -> !stream.resource<transient>{%n}
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.func public @uncaptured(%r: !stream.resource<transient>, %n: index, %v: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{used resource not listed in explicit captures (or produced internally), by 'stream.cmd.fill'}}
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.fill %v, %r[%c0 for %n] : i32 -> !stream.resource<transient>{%n}
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.func public @host_op_in_region(%r: !stream.resource<transient>, %n: index) -> !stream.timepoint {
  // expected-error @+1 {{explicit execution regions must only contain explicit ops, not 'arith.constant'}}
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    %c0 = arith.constant 0 : index
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.func public @wave_outside_execute() {
  // expected-error @+1 {{'stream.cmd.serial' expects parent op to be one of 'stream.cmd.execute', 'stream.cmd.serial', 'stream.cmd.concurrent'}}
  stream.cmd.serial {
  }
  util.return
}

// -----

util.func public @dispatch_without_entry(%r: !stream.resource<transient>, %n: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    // expected-error @+1 {{at least one entry point must be defined}}
    "stream.cmd.dispatch"(%a, %n, %c0, %n) <{entry_points = [], operandSegmentSizes = array<i32: 0, 0, 1, 1, 1, 1>, resource_accesses = [1 : i32]}> : (!stream.resource<transient>, index, index, index) -> ()
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.func public @dispatch_ranges(%r: !stream.resource<transient>, %n: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    // expected-error @+1 {{dispatch with 1 resources has mismatched associated ranges}}
    "stream.cmd.dispatch"(%a, %n, %c0, %n) <{entry_points = [@ex::@e], operandSegmentSizes = array<i32: 0, 0, 1, 1, 1, 1>, resource_accesses = []}> : (!stream.resource<transient>, index, index, index) -> ()
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

stream.executable private @ex {
  stream.executable.export public @entry workgroups(%arg0: index) -> (index, index, index) {
    // expected-error @+1 {{workgroup count region must return the XYZ dimension counts}}
    "stream.return"(%arg0, %arg0) : (index, index) -> ()
  }
}

// -----

util.func public @workgroup_dimension() -> index {
  // expected-error @+1 {{dimension 3 out of bounds of dispatch dimensions; expected [0, 3)}}
  %0 = stream.dispatch.workgroup.id[3] : index
  util.return %0 : index
}

// -----

util.func public @element_type() -> i32 {
  // expected-error @+1 {{unsupported element type}}
  %0 = hal.element_type<index> : i32
  util.return %0 : i32
}

// -----

util.func public @encoding_type() -> i32 {
  // expected-error @+1 {{unsupported encoding type}}
  %0 = hal.encoding_type<#iree_encoding.testing<>> : i32
  util.return %0 : i32
}

// -----

// expected-error @+1 {{symbol declaration cannot have public visibility}}
stream.cmd.func public @visible(%arg0: i32)

// -----

stream.cmd.func private @ext(%arg0[%arg1 for %arg2]: !stream.resource<*>)
util.func public @call_ranges(%r: !stream.resource<transient>, %n: index) -> !stream.timepoint {
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    // expected-error @+1 {{expects 1 resource range operand sets but 0 are present}}
    "stream.cmd.call"(%a, %n) <{callee = @ext, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, resource_operand_accesses = []}> : (!stream.resource<transient>, index) -> ()
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
