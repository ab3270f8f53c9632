func.func @f() {
  %v = arith.addi %x, %x : i32
  return
}
