// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars{debug=true}' --verify-diagnostics | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s --check-prefix=PLAN

// Host scratch is memory too: two host-fed scalars share a slot of the scratch
// only when every access to the first happens before every access to the second
// under the execution model (DESIGN.md section 2). After the whole pipeline the
// independent checker (verify-memory-plan) would fail the run on any race.

// Host store, device read, host store: the cast of %a is only enqueued when the
// host stores into %b, so %b may not take %a's bytes (the seed race in scratch).
// (An offset's constant is named after its value: %c64 is 64.)
// CHECK-LABEL: func.func @store_read_store_kept_apart
// CHECK-NEXT:    arith.constant 128 : index
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
// CHECK:         memref.view %{{.+}}[%c64{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
func.func @store_read_store_kept_apart(%ctx: !hip.context, %x: i64, %y: i64, %ao: memref<1xf32>, %bo: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%bo : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// The same after a read-back: hip.readback_scalar waits for the stream, so the
// cast of %a has run before the host stores into %b, which takes %a's slot.
// CHECK-LABEL: func.func @after_a_read_back_shared
// CHECK-NEXT:    arith.constant 64 : index
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
// CHECK:         hip.readback_scalar
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
// expected-remark @+1 {{2 host-fed buffers in 64 bytes of host scratch, 128 without sharing slots}}
func.func @after_a_read_back_shared(%ctx: !hip.context, %x: i64, %y: i64, %ao: memref<1xf32>, %bo: memref<1xf32>, %s: memref<i64>) -> i64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  %v = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%bo : memref<1xf32>) {to = 1 : i64}
  return %v : i64
}

// -----

// A read-back inside a branch may not run: it orders nothing, the slots stay apart.
// CHECK-LABEL: func.func @read_back_in_a_branch_kept_apart
// CHECK-NEXT:    arith.constant 128 : index
func.func @read_back_in_a_branch_kept_apart(%ctx: !hip.context, %p: i1, %x: i64, %y: i64, %ao: memref<1xf32>, %bo: memref<1xf32>, %s: memref<i64>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  scf.if %p {
    %v = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  }
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%bo : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// Host accesses that interleave (store %a, store %b, load %a) keep the slots apart;
// a buffer whose last host access comes before another's first shares with it.
// CHECK-LABEL: func.func @host_accesses
// CHECK-NEXT:    arith.constant 128 : index
// CHECK:         %[[A:.+]] = memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<2xi32>
// CHECK:         memref.view %{{.+}}[%c64{{(_[0-9]+)?}}][] : memref<?xi8> to memref<2xi32>
// CHECK:         memref.load %[[A]]
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<2xi32>
// expected-remark @+1 {{3 host-fed buffers in 128 bytes of host scratch, 192 without sharing slots}}
func.func @host_accesses(%x: !hip.context, %w: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<2xi32>
  memref.store %w, %a[%c0] : memref<2xi32>
  %b = memref.alloc() : memref<2xi32>
  memref.store %w, %b[%c0] : memref<2xi32>
  %la = memref.load %a[%c0] : memref<2xi32>
  %c = memref.alloc() : memref<2xi32>
  memref.store %w, %c[%c0] : memref<2xi32>
  %lc = memref.load %c[%c0] : memref<2xi32>
  %lb = memref.load %b[%c0] : memref<2xi32>
  return %la, %lb, %lc : i32, i32, i32
}

// -----

// A scalar that only the host reads back (top_k's index, written on the stream)
// needs no bytes of its own: it is written by the device after the cast of %n
// read it (one in-order stream) and read by the host after the read-back's wait.
// %k2 is stored by the host once that read-back's value is in hand: it takes the
// slot again. (top_k's own k, %k, is read by the op that writes %idx: apart.)
// CHECK-LABEL: func.func @read_back_index_takes_a_free_slot
// CHECK-NEXT:    arith.constant 128 : index
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
// CHECK:         memref.view %{{.+}}[%c64{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1x1xi64>
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1xi64>
// expected-remark @+1 {{4 host-fed buffers in 128 bytes of host scratch, 256 without sharing slots}}
func.func @read_back_index_takes_a_free_slot(%ctx: !hip.context, %one: i64, %x: memref<1x8xf16>, %kc: memref<1xi32>, %kc2: memref<1xi32>) -> i64 {
  %c0 = arith.constant 0 : index
  %n = memref.alloc() : memref<1xi64>
  memref.store %one, %n[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%n : memref<1xi64>) outs(%kc : memref<1xi32>) {to = 6 : i64}
  %k = memref.alloc() : memref<1xi64>
  memref.store %one, %k[%c0] : memref<1xi64>
  %top = memref.alloc() : memref<1x1xf16>
  %idx = memref.alloc() : memref<1x1xi64>
  hip.top_k(%ctx) ins(%x, %k : memref<1x8xf16>, memref<1xi64>) outs(%top, %idx : memref<1x1xf16>, memref<1x1xi64>) {axis = 1 : i64, largest = true, sorted = true}
  %seen = hip.readback_scalar(%ctx, %idx : memref<1x1xi64>) -> i64
  %k2 = memref.alloc() : memref<1xi64>
  memref.store %seen, %k2[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%k2 : memref<1xi64>) outs(%kc2 : memref<1xi32>) {to = 6 : i64}
  return %seen : i64
}

// -----

// Decoder layers: each stores its sequence length for a cast on the stream; a
// read-back every second layer. Without sharing the scratch grows by a slot per
// layer (384 bytes); with it the two layers between read-backs take two slots.
// CHECK-LABEL: func.func @layers
// CHECK-NEXT:    arith.constant 128 : index
// PLAN-LABEL:  func.func @layers
// PLAN-NEXT:     arith.constant 128 : index
// PLAN-NEXT:     hip.get_host_scratch
// expected-remark @+1 {{6 host-fed buffers in 128 bytes of host scratch, 384 without sharing slots}}
func.func @layers(%ctx: !hip.context, %n: i64, %o: memref<1xi32>, %s: memref<i64>) {
  %c0 = arith.constant 0 : index
  %l0 = memref.alloc() : memref<1xi64>
  memref.store %n, %l0[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%l0 : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
  %l1 = memref.alloc() : memref<1xi64>
  memref.store %n, %l1[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%l1 : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
  %v1 = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %l2 = memref.alloc() : memref<1xi64>
  memref.store %n, %l2[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%l2 : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
  %l3 = memref.alloc() : memref<1xi64>
  memref.store %n, %l3[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%l3 : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
  %v2 = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %l4 = memref.alloc() : memref<1xi64>
  memref.store %n, %l4[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%l4 : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
  %l5 = memref.alloc() : memref<1xi64>
  memref.store %n, %l5[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%l5 : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
  return
}

// -----

// A caller's scalars go after the bytes its callee's scratch reaches (64), and may
// share among themselves after that base.
// CHECK-LABEL: func.func @callee
// CHECK-LABEL: func.func @caller_shares_after_the_callee
// CHECK-NEXT:    arith.constant 128 : index
// CHECK:         arith.constant 64 : index
// CHECK-NEXT:    memref.view
// CHECK:         arith.constant 64 : index
// CHECK-NEXT:    memref.view
// expected-remark @+1 {{function left alone: it is referenced by 'func.call'}}
func.func @callee(%ctx: !hip.context, %x: i64) {
  %c0 = arith.constant 0 : index
  %size = arith.constant 64 : index
  %scratch = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %e = memref.view %scratch[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %e[%c0] : memref<1xi64>
  return
}
// expected-remark @+1 {{2 host-fed buffers in 64 bytes of host scratch, 128 without sharing slots}}
func.func @caller_shares_after_the_callee(%ctx: !hip.context, %x: i64) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  %la = memref.load %a[%c0] : memref<1xi64>
  func.call @callee(%ctx, %x) : (!hip.context, i64) -> ()
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  %lb = memref.load %b[%c0] : memref<1xi64>
  return %la, %lb : i64, i64
}
