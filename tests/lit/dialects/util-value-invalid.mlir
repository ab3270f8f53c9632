// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// util value, buffer and list IR that IREE 3.13 rejects, with IREE's messages.

util.func public @cast_of_a_primitive(%x: i32) {
  // expected-error @+1 {{'util.cast' op operand type 'i32' is not object cast compatible}}
  %0 = util.cast %x : i32 to !util.object
  util.return
}

// -----

util.func public @assumption_ranks(%x: index, %y: index) {
  // expected-error @+1 {{'util.assume.int' op expected operand #1 to have 2 assumptions but it has 3}}
  %0:2 = util.assume.int %x[<umin = 0>, <umin = 1>], %y[<umin = 0>, <umin = 1>, <umin = 2>] : index, index
  util.return
}

// -----

util.func public @list_get_type(%l: !util.list<i32>, %i: index) {
  // expected-error @+1 {{list contains 'i32' and cannot be accessed as 'i64'}}
  %0 = "util.list.get"(%l, %i) : (!util.list<i32>, index) -> i64
  util.return
}

// -----

util.func public @list_set_type(%l: !util.list<i32>, %i: index, %v: f32) {
  // expected-error @+1 {{list contains 'i32' and cannot be mutated as 'f32'}}
  util.list.set %l[%i], %v : f32 -> !util.list<i32>
  util.return
}

// -----

util.func public @format_placeholders(%i: index) {
  // expected-error @+1 {{'util.string.format' op format string placeholder count does not match the 1 provided argument(s)}}
  %0 = util.string.format "{}.{}"(%i) : (index) -> !util.buffer
  util.return
}

// -----

util.func public @format_mixed(%i: index) {
  // expected-error @+1 {{'util.string.format' op cannot mix sequential '{}' and explicit '{N}' placeholders}}
  %0 = util.string.format "{}.{0}"(%i, %i) : (index, index) -> !util.buffer
  util.return
}

// -----

util.func public @alloc_alignment(%n: index) {
  // expected-error @+1 {{'util.buffer.alloc' op invalid alignment; must be a power of two}}
  %0 = util.buffer.alloc uninitialized <alignment = 12> : !util.buffer{%n}
  util.return
}

// -----

util.func public @constant_not_serializable() {
  // expected-error @+1 {{'util.buffer.constant' op attribute 'value' failed to satisfy constraint: buffer-like constant attribute values}}
  %0 = util.buffer.constant : !util.buffer = 42 : i32
  util.return
}

// -----

util.func public @hoistable_argument_type(%x: i32) {
  // expected-error @+1 {{'util.hoistable_conversion' op block argument #0 type 'i64' does not match input type 'i32'}}
  %0 = "util.hoistable_conversion"(%x) <{tag = "a", inverseTag = "b"}> ({
  ^bb0(%y: i64):
    "util.return"(%y) : (i64) -> ()
  }) : (i32) -> i64
  util.return
}

// -----

util.func public @list_construct_type(%x: i64) {
  // expected-error @+1 {{list[0] type 'i64' cannot be be cast to list type 'i32'}}
  %0 = util.list.construct [%x : i64] : !util.list<i32>
  util.return
}
