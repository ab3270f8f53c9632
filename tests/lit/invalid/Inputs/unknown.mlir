// An op of a dialect memplan does not know.
func.func @unknown_dialect_op() {
  "foo.bar"() : () -> ()
  return
}
// -----
// A hip op that does not exist (a kernel no dialect lists is memplan.launch).
func.func @unknown_hip_op(%ctx: !hip.context, %a: memref<4xf32>) {
  hip.frobnicate(%ctx) ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
// -----
// An unknown type of a known dialect.
func.func @unknown_hip_type(%s: !hip.stream) {
  return
}
// -----
// An unknown attribute.
func.func @unknown_attribute() attributes {tag = #foo.bar<1>} {
  return
}
// -----
// An unknown dialect type.
func.func @unknown_dialect_type(%x: !foo.thing) {
  return
}
// -----
// An op name without a dialect.
func.func @no_dialect() {
  frobnicate
  return
}
