// verify-memory-plan-false-alarms.mlir's shapes with a real race each.

// The body reads %a on the host while the condition's fill may be pending.
func.func @while_race(%ctx: !hip.context, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %n : index
    memplan.launch @fill(%ctx) outs(%a : memref<4xf32>)
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %x = memref.load %a[%c0] : memref<4xf32>
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  }
  return
}

// -----

// No synchronize between the kernel and the store through the chain.
func.func @chain_race(%ctx: !hip.context, %x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %a = memref.view %pool[%c64][] : memref<?xi8> to memref<4xf32>
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<4xf32> to memref<2x2xf32>
  %s = memref.subview %r[1, 0] [1, 2] [1, 1] : memref<2x2xf32> to memref<2xf32, strided<[1], offset: 2>>
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  memref.store %v, %s[%c0] : memref<2xf32, strided<[1], offset: 2>>
  return
}

// -----

// %b at %off + 8 overlaps %a at %off (16 bytes).
func.func @dynamic_offset_race(%ctx: !hip.context, %x: memref<4xf32>, %off: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %o2 = arith.addi %off, %c8 : index
  %a = memref.view %pool[%off][] : memref<?xi8> to memref<4xf32>
  %b = memref.view %pool[%o2][] : memref<?xi8> to memref<4xf32>
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  memref.store %v, %b[%c0] : memref<4xf32>
  return
}

// -----

// ^bb1 loops back to itself: its store may follow its own copy with no wait.
func.func @multi_block_race(%ctx: !hip.context, %x: memref<4xf32>, %v: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  cf.br ^bb1
^bb1:
  hip.sign(%ctx) ins(%a : memref<4xf32>) outs(%x : memref<4xf32>)
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  memref.store %v, %a[%c0] : memref<4xf32>
  cf.br ^bb1
^bb3:
  return
}
