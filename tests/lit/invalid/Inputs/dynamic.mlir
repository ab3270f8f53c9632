// A dynamic dimension needs a size operand.
func.func @alloc_without_size() {
  %a = memref.alloc() : memref<?x4xf32>
  return
}
// -----
// hip.alloc: one size operand per dynamic dimension.
func.func @hip_alloc_without_size(%ctx: !hip.context) {
  %a = hip.alloc(%ctx) : memref<?x128xf32>
  return
}
// -----
// A view into a pool with a dynamic result and no size.
func.func @view_without_size(%ctx: !hip.context, %n: index) {
  %c0 = arith.constant 0 : index
  %p = hip.get_pool(%ctx, %n) : memref<?xi8>
  %v = memref.view %p[%c0][] : memref<?xi8> to memref<?xf32>
  return
}
// -----
// Too many sizes for the dynamic dimensions.
func.func @alloc_too_many_sizes(%n: index) {
  %a = memref.alloc(%n, %n) : memref<?x4xf32>
  return
}
