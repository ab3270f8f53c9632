// A missing closing bracket in an index list.
func.func @missing_bracket(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0 : memref<4xf32>
  return
}
// -----
// A missing '=' after a result name.
func.func @missing_equals() {
  %c0 arith.constant 0 : index
  return
}
// -----
// A stray character.
func.func @stray_character() {
  %c0 = arith.constant 0 : index $
  return
}
// -----
// An unterminated string attribute.
func.func @unterminated_string() attributes {note = "never closed} {
  return
}
// -----
// A malformed memref type.
func.func @bad_memref_type(%a: memref<4xf32) {
  return
}
// -----
// A malformed attribute dictionary.
func.func @bad_attr_dict(%ctx: !hip.context, %a: memref<4xf32>, %b: memref<4xf32>) {
  hip.tanh(%ctx) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {alpha = }
  return
}
// -----
// A kernel's ins with fewer types than operands.
func.func @kernel_types_count(%ctx: !hip.context, %a: memref<4xf32>, %b: memref<4xf32>) {
  hip.add(%ctx) ins(%a, %a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
// -----
// A kernel without outs.
func.func @kernel_without_outs(%ctx: !hip.context, %a: memref<4xf32>) {
  hip.tanh(%ctx) ins(%a : memref<4xf32>)
  return
}
// -----
// hip.get_pool takes the context and one size.
func.func @pool_operands(%ctx: !hip.context, %n: index) {
  %p = hip.get_pool(%ctx, %n, %n) : memref<?xi8>
  return
}
// -----
// A redefined SSA value.
func.func @redefined_value() {
  %x = arith.constant 0 : index
  %x = arith.constant 1 : index
  return
}
// -----
// A declaration that names some arguments and not others.
func.func private @mixed(%a: i32, f32)
// -----
// A named argument after an unnamed one, marked at the argument.
func.func private @mixed_named_late(i32, %a: i64)
