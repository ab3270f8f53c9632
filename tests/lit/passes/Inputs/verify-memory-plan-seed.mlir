// The hip-ep seed's pattern: host store, device read, host store, device read.
func.func @seed_scalars(%ctx: !hip.context, %n: i64, %m: i64) -> (memref<1xi32>, memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %n, %a[%c0] : memref<1xi64>
  %oa = memref.alloc() : memref<1xi32>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%oa : memref<1xi32>) {to = 6 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %m, %b[%c0] : memref<1xi64>
  %ob = memref.alloc() : memref<1xi32>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%ob : memref<1xi32>) {to = 6 : i64}
  return %oa, %ob : memref<1xi32>, memref<1xi32>
}

// -----

func.func @seed_32_elements(%ctx: !hip.context, %n: i64, %m: i64) -> (memref<32xi32>, memref<32xi32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %n, %a[%c0] : memref<32xi64>
  %oa = memref.alloc() : memref<32xi32>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%oa : memref<32xi32>) {to = 6 : i64}
  %b = memref.alloc() : memref<32xi64>
  memref.store %m, %b[%c0] : memref<32xi64>
  %ob = memref.alloc() : memref<32xi32>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%ob : memref<32xi32>) {to = 6 : i64}
  return %oa, %ob : memref<32xi32>, memref<32xi32>
}
