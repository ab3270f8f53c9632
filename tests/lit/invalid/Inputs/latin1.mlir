func.func @f() {
  // café in Latin-1
  return
}
