// The plan that counted direct views only (scratch-view-chains.mlir): the new
// scalar at 64 is inside the 72 bytes the reinterpret_cast reaches.
func.func @reinterpret_cast_of_a_view_old_plan(%ctx: !hip.context, %x: i64, %o: memref<9xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 128 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  %wide = memref.reinterpret_cast %a to offset: [0], sizes: [9], strides: [1] : memref<1xi64> to memref<9xi64>
  memref.store %x, %wide[%c8] : memref<9xi64>
  hip.cast(%ctx) ins(%wide : memref<9xi64>) outs(%o : memref<9xf32>) {to = 1 : i64}
  %b = memref.view %s[%c64][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}
