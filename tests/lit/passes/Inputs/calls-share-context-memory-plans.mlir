// The plan made per function (calls-share-context-memory.mlir): callee and caller
// both put their scalar at offset 0 of the context's one host scratch.
func.func @callee(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
  return
}
func.func @caller(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %b = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  // The callee's store to offset 0 may land before the cast above reads %b, and
  // the second call's before the first call's cast runs.
  //
  //
  //
  //
  //
  func.call @callee(%ctx, %x, %o) : (!hip.context, i64, memref<1xf32>) -> ()
  func.call @callee(%ctx, %x, %o) : (!hip.context, i64, memref<1xf32>) -> ()
  return
}
