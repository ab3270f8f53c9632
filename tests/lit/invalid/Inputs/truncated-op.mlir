func.func @f(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[