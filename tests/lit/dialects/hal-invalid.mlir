// RUN: memplan-opt %s --split-input-file --verify-diagnostics

util.func public @unknown_flag(%d: !hal.device) -> !hal.fence {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'flags' [None, Reserved]}}
  %0 = hal.fence.create device(%d : !hal.device) flags(Bogus) : !hal.fence
  util.return %0 : !hal.fence
}

// -----

util.func public @flag_out_of_range(%d: !hal.device) -> !hal.fence {
  // expected-error @+1 {{invalid properties {flags = 2 : i64}}}
  %0 = "hal.fence.create"(%d) <{flags = 2 : i64}> : (!hal.device) -> !hal.fence
  util.return %0 : !hal.fence
}

// -----

util.func public @await_unknown_flag(%f: !hal.fence, %t: i32) -> i32 {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'flags' [None, Reserved]}}
  %0 = hal.fence.await until([%f]) timeout_millis(%t) flags(Bogus) : i32
  util.return %0 : i32
}

// -----

util.func public @await_flag_out_of_range(%f: !hal.fence, %t: i32) -> i32 {
  // expected-error @+1 {{invalid properties {flags = 3 : i64}}}
  %0 = "hal.fence.await"(%t, %f) <{flags = 3 : i64}> : (i32, !hal.fence) -> i32
  util.return %0 : i32
}

// -----

util.func public @length_type(%b: !hal.buffer) -> i32 {
  // expected-error @+1 {{}}
  %0 = "hal.buffer.length"(%b) : (!hal.buffer) -> i32
  util.return %0 : i32
}
