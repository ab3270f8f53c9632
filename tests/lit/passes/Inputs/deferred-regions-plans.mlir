// The plan that took the region for host code (deferred-regions.mlir): %b in %a's
// slot, though the region that reads %a may run after the host stores %b.
func.func @read_in_a_deferred_region_old_plan(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  "test.async_region"() ({
    hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
    "test.end"() : () -> ()
  }) : () -> ()
  %b = memref.reinterpret_cast %a to offset: [0], sizes: [1], strides: [1] : memref<1xi64> to memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}
