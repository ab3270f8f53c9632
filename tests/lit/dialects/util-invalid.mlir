// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// util IR that IREE 3.13 rejects, with IREE's messages. Each case is one mistake
// away from valid IR.

util.global private @x : !stream.resource<constant>
util.func public @store_type_mismatch(%arg0: index) {
  // expected-error @+1 {{'util.global.store' op global type mismatch; global "x" is '!stream.resource<constant>' but store is 'index'}}
  util.global.store %arg0, @x : index
  util.return
}

// -----

util.global private @x : !stream.resource<constant>
util.func public @load_type_mismatch() {
  // expected-error @+1 {{'util.global.load' op global type mismatch; global "x" is '!stream.resource<constant>' but load is 'index'}}
  %0 = util.global.load @x : index
  util.return
}

// -----

util.func public @load_undefined() {
  // expected-error @+1 {{'util.global.load' op undefined global: @nope}}
  %0 = util.global.load @nope : index
  util.return
}

// -----

util.func public @load_of_a_function() {
  // expected-error @+1 {{'util.global.load' op undefined global: @load_of_a_function}}
  %0 = util.global.load @load_of_a_function : index
  util.return
}

// -----

util.func public @store_undefined(%arg0: index) {
  // expected-error @+1 {{'util.global.store' op undefined global: @nope}}
  util.global.store %arg0, @nope : index
  util.return
}

// -----

util.global private mutable @m : index
util.func public @immutable_load_of_mutable_global() {
  // expected-error @+1 {{'util.global.load' op is marked as immutable but the global is mutable}}
  %0 = util.global.load immutable @m : index
  util.return
}

// -----

// expected-error @+1 {{'util.global' op initial value type mismatch; global "w" is 'index' but initial value provided is 'i32'}}
util.global private @w : index = 4 : i32

// -----

// expected-error @+1 {{'util.global' op initial value type mismatch; global "r" is '!stream.resource<constant>' but initial value provided is 'i32'}}
util.global private @r : !stream.resource<constant> = 4 : i32

// -----

util.func public @return_too_few(%arg0: index) -> index {
  // expected-error @+1 {{'util.return' op has 0 operands, but enclosing function-like op returns 1}}
  util.return
}

// -----

util.func public @return_wrong_type(%arg0: index) -> i32 {
  // expected-error @+1 {{'util.return' op type of return operand 0 ('index') doesn't match function result type ('i32')}}
  util.return %arg0 : index
}

// -----

util.initializer {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'util.return' op has 1 operands, but enclosing function-like op returns 0}}
  util.return %c1 : index
}

// -----

util.func public @call_undefined(%arg0: index) {
  // expected-error @+1 {{'util.call' op undefined/incompatible callee: nope}}
  %0 = util.call @nope(%arg0) : (index) -> index
  util.return
}

// -----

util.func private @callee(%arg0: index) -> index
util.func public @call_type_mismatch(%arg0: index) {
  // expected-error @+1 {{'util.call' op function type mismatch; expected '(index, index) -> index' but callee is '(index) -> index'}}
  %0 = util.call @callee(%arg0, %arg0) : (index, index) -> index
  util.return
}

// -----

// expected-error @+1 {{'util.func' op result #0 tied to invalid operand index 2}}
"util.func"() <{function_type = (index) -> index, sym_name = "tied", sym_visibility = "private", tied_operands = [2 : index]}> ({
}) : () -> ()
