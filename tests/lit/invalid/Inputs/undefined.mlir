// A call to a function that does not exist.
func.func @call_missing() {
  func.call @nowhere() : () -> ()
  return
}
// -----
// A value used in a nested region but never defined.
func.func @undefined_in_region(%c: i1) {
  scf.if %c {
    %r = arith.addi %y, %y : index
  }
  return
}
// -----
// A call whose operands do not match the callee's signature.
func.func private @takes_index(index)
func.func @call_signature(%x: i32) {
  func.call @takes_index(%x) : (i32) -> ()
  return
}
// -----
// A value used before it is defined in a straight-line block.
func.func @use_before_def() {
  %a = arith.addi %b, %b : index
  %b = arith.constant 1 : index
  return
}
