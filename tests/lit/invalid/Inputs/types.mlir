// Operands of arith.addi must have the result's type.
func.func @addi_mismatch(%a: i32, %b: i64) {
  %r = arith.addi %a, %b : i32
  return
}
// -----
// A load whose type annotation does not match its memref.
func.func @load_type_mismatch(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<4xi32>
  return
}
// -----
// A kernel mixing memref and tensor operands.
func.func @kernel_mixed_modes(%ctx: !hip.context, %a: memref<4xf32>, %b: tensor<4xf32>) {
  hip.add(%ctx) ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : tensor<4xf32>)
  return
}
// -----
// A pool is a 1-D byte buffer.
func.func @pool_result_type(%ctx: !hip.context, %n: index) {
  %p = hip.get_pool(%ctx, %n) : memref<?xf32>
  return
}
// -----
// A function returning a value of the wrong type.
func.func @return_type(%a: i32) -> i64 {
  return %a : i32
}
// -----
// A store of an f32 into an i32 memref.
func.func @store_type(%a: memref<4xi32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %a[%c0] : memref<4xi32>
  return
}
// -----
// A kernel operand that is not a memref.
func.func @kernel_scalar_operand(%ctx: !hip.context, %a: f32, %b: memref<4xf32>) {
  hip.neg(%ctx) ins(%a : f32) outs(%b : memref<4xf32>)
  return
}
// -----
// A binary kernel given one input.
func.func @kernel_arity(%ctx: !hip.context, %a: memref<4xf32>) {
  hip.add(%ctx) ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
