// The plans ceil(bits / 8) made, for verify-memory-plan (element-sizes.mlir).

// 9 x i33 sized 45 bytes: the second scalar at 64 overlaps bytes 64..71 of the first.
func.func @i33_scalars_old_plan(%ctx: !hip.context, %x: i33, %y: i64, %o: memref<9xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 128 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<9xi33>
  memref.store %x, %a[%c8] : memref<9xi33>
  hip.cast(%ctx) ins(%a : memref<9xi33>) outs(%o : memref<9xf32>) {to = 1 : i64}
  %b = memref.view %s[%c64][] : memref<?xi8> to memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// 256 x i24 sized 768 bytes: the buffer at 768 overlaps it while both are live.
func.func @i24_old_plan(%ctx: !hip.context, %in: memref<256xi24>, %flags: memref<4xi1>, %out: memref<256xi24>) {
  %c0 = arith.constant 0 : index
  %c768 = arith.constant 768 : index
  %size = arith.constant 1024 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<256xi24>
  hip.sign(%ctx) ins(%in : memref<256xi24>) outs(%a : memref<256xi24>)
  %b = memref.view %pool[%c768][] : memref<?xi8> to memref<4xi1>
  hip.sign(%ctx) ins(%flags : memref<4xi1>) outs(%b : memref<4xi1>)
  hip.sign(%ctx) ins(%a : memref<256xi24>) outs(%out : memref<256xi24>)
  hip.sign(%ctx) ins(%b : memref<4xi1>) outs(%flags : memref<4xi1>)
  return
}
