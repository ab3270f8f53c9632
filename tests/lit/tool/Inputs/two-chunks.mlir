func.func @one(%a: index) -> index {
  %0 = arith.addi %a, %a : index
  %1 = arith.addi %a, %a : index
  %2 = arith.muli %0, %1 : index
  return %2 : index
}
// -----
func.func @two() {
  return
}
