func.func @f(%ctx: !hip.context, %a: memref<4xf32>) {
  hip.relu(%ctx) ins(%a : memref<4x