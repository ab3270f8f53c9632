func.func @f(%ctx: !hip.context, %x: memref<4xf32>) -> memref<4xf32> {
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  hip.tanh(%ctx) ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<4xf32>
  hip.exp(%ctx) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return %b : memref<4xf32>
}
