// A kernel's first operand must be the !hip.context.
func.func @kernel_without_context(%ctx: index, %a: memref<4xf32>) {
  hip.tanh(%ctx) ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
// -----
// memplan.synchronize waits for a context.
func.func @synchronize_without_context(%a: memref<4xf32>) {
  memplan.synchronize(%a)
  return
}
// -----
// hip.get_pool needs a context too.
func.func @pool_without_context(%n: index) {
  %p = hip.get_pool(%n, %n) : memref<?xi8>
  return
}
// -----
// A context value that was never defined.
func.func @undefined_context(%a: memref<4xf32>) {
  hip.tanh(%ctx) ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
