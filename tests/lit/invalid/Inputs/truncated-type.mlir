func.func @f(%ctx: !hip.context, %a: memref<4xf32>) {
  hip.tanh(%ctx) ins(%a : memref<4x