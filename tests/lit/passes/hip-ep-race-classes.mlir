// RUN: memplan-opt %s --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s

// The race classes bench/vs_hip_ep.py finds in hip-ep's own plans (its
// hip-materialize-host-scalars, hip-optimize-memrefs, hip-pool-allocs), each as a
// small function whose plan by memplan's hip-memory-plan does not race: the
// independent checker (verify-memory-plan) runs after the pipeline and fails the
// run on any unordered pair of accesses to shared bytes. The checks pin the
// offsets that keep the accesses apart. (An offset's constant is named after its
// value: %c256 is 256.)

// Class 1: a slot reused while a kernel that reads it is still queued. Each
// "layer" fills a 32-element position table on the host (too large for host
// scratch) and enqueues a kernel that reads it; the next layer's host fill may
// not land in the bytes the queued kernel still reads, so the two tables get
// different offsets. After a read-back (the third table) the stream is drained
// and the bytes may be reused.
// CHECK-LABEL: func.func @host_fill_after_queued_read
// CHECK:         %[[POOL:.+]] = hip.get_pool
// CHECK:         %[[P0:.+]] = memref.view %[[POOL]][%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1x32xi64>
// CHECK:         scf.for
// CHECK:         hip.rope(%{{.+}}) ins(%{{.+}}, %[[P0]],
// CHECK:         %[[P1:.+]] = memref.view %[[POOL]][%c256{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1x32xi64>
// CHECK:         scf.for
// CHECK:         hip.rope(%{{.+}}) ins(%{{.+}}, %[[P1]],
// CHECK:         hip.readback_scalar
// CHECK:         memref.view %[[POOL]][%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<1x32xi64>
func.func @host_fill_after_queued_read(%ctx: !hip.context, %q: memref<1x2x8xf16>, %cos: memref<64x4xf16>, %sin: memref<64x4xf16>, %r0: memref<1x2x8xf16>, %r1: memref<1x2x8xf16>, %r2: memref<1x2x8xf16>, %s: memref<i64>, %base: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %p0 = memref.alloc() : memref<1x32xi64>
  scf.for %i = %c0 to %c32 step %c1 {
    %v = arith.addi %base, %i : index
    %w = arith.index_cast %v : index to i64
    memref.store %w, %p0[%c0, %i] : memref<1x32xi64>
  }
  hip.rope(%ctx) ins(%q, %p0, %cos, %sin : memref<1x2x8xf16>, memref<1x32xi64>, memref<64x4xf16>, memref<64x4xf16>) outs(%r0 : memref<1x2x8xf16>) {interleaved = 0 : i64, num_heads = 2 : i64, rotary_embedding_dim = 8 : i64}
  %p1 = memref.alloc() : memref<1x32xi64>
  scf.for %i = %c0 to %c32 step %c1 {
    %w = arith.index_cast %i : index to i64
    memref.store %w, %p1[%c0, %i] : memref<1x32xi64>
  }
  hip.rope(%ctx) ins(%q, %p1, %cos, %sin : memref<1x2x8xf16>, memref<1x32xi64>, memref<64x4xf16>, memref<64x4xf16>) outs(%r1 : memref<1x2x8xf16>) {interleaved = 0 : i64, num_heads = 2 : i64, rotary_embedding_dim = 8 : i64}
  %seen = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %p2 = memref.alloc() : memref<1x32xi64>
  scf.for %i = %c0 to %c32 step %c1 {
    %w = arith.index_cast %i : index to i64
    memref.store %w, %p2[%c0, %i] : memref<1x32xi64>
  }
  hip.rope(%ctx) ins(%q, %p2, %cos, %sin : memref<1x2x8xf16>, memref<1x32xi64>, memref<64x4xf16>, memref<64x4xf16>) outs(%r2 : memref<1x2x8xf16>) {interleaved = 0 : i64, num_heads = 2 : i64, rotary_embedding_dim = 8 : i64}
  return %seen : i64
}

// -----

// Class 1 in host scratch, which memplan's materialize-host-scalars could make
// since it shares scratch slots (hip-ep's never does): the next scalar the host
// stores may not take the slot of one a queued cast still reads; only after a
// read-back drains the stream (tests/lit/passes/host-scratch-reuse.mlir).
// CHECK-LABEL: func.func @scratch_store_after_queued_cast
// CHECK-NEXT:    arith.constant 128 : index
// CHECK:         memref.view %{{.+}}[%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<i64>
// CHECK:         memref.view %{{.+}}[%c64{{(_[0-9]+)?}}][] : memref<?xi8> to memref<i64>
func.func @scratch_store_after_queued_cast(%ctx: !hip.context, %a: i64, %b: i64, %o0: memref<i32>, %o1: memref<i32>) {
  %t0 = memref.alloc() : memref<i64>
  memref.store %a, %t0[] : memref<i64>
  hip.cast(%ctx) ins(%t0 : memref<i64>) outs(%o0 : memref<i32>) {to = 6 : i64}
  %t1 = memref.alloc() : memref<i64>
  memref.store %b, %t1[] : memref<i64>
  hip.cast(%ctx) ins(%t1 : memref<i64>) outs(%o1 : memref<i32>) {to = 6 : i64}
  return
}

// -----

// A kernel's input and its output in the same bytes: the input's last use is the
// kernel that writes the output, and an interval that ends where the other begins
// lets them share. One op reading and writing the same bytes is not ordered with
// itself: memplan keeps them apart.
// CHECK-LABEL: func.func @kernel_input_and_output_apart
// CHECK:         %[[POOL:.+]] = hip.get_pool
// CHECK:         %[[A:.+]] = memref.view %[[POOL]][%c0{{(_[0-9]+)?}}][] : memref<?xi8> to memref<4x8xf32>
// CHECK:         %[[B:.+]] = memref.view %[[POOL]][%c256{{(_[0-9]+)?}}][] : memref<?xi8> to memref<4x8xf32>
// CHECK:         hip.miopen.softmax(%{{.+}}) ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
func.func @kernel_input_and_output_apart(%ctx: !hip.context, %x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  hip.miopen.softmax(%ctx) ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  %b = memref.alloc() : memref<4x8xf32>
  hip.miopen.softmax(%ctx) ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  hip.miopen.softmax(%ctx) ins(%b : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// Class 2: host scratch the function already takes. New scalars go after the bytes
// its views reach (8 bytes at offset 0, so 64), never from offset 0 of a second
// request (the runtime hands back the same bytes), and the one scratch op is grown
// to hold them.
// CHECK-LABEL: func.func @existing_scratch_kept
// CHECK-NEXT:    %[[SIZE:.+]] = arith.constant 128 : index
// CHECK-NEXT:    %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]])
// CHECK-NOT:     hip.get_host_scratch
// CHECK:         memref.view %[[S]][%c64{{(_[0-9]+)?}}][] : memref<?xi8> to memref<i64>
// CHECK:         memref.view %[[S]][%{{.+}}][] : memref<?xi8> to memref<1xi64>
func.func @existing_scratch_kept(%ctx: !hip.context, %a: i64, %o0: memref<i32>, %o1: memref<1xi32>) {
  %t = memref.alloc() : memref<i64>
  memref.store %a, %t[] : memref<i64>
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c0 = arith.constant 0 : index
  %s = hip.get_host_scratch(%ctx, %c16) : memref<?xi8>
  %e = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %a, %e[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%t : memref<i64>) outs(%o0 : memref<i32>) {to = 6 : i64}
  hip.cast(%ctx) ins(%e : memref<1xi64>) outs(%o1 : memref<1xi32>) {to = 6 : i64}
  return
}

// -----

// Class 2 across calls: the host scratch is one per context, so a callee's scratch
// is its caller's bytes. The callee is left alone, and the caller's scalar goes
// after the bytes the callee's scratch reaches (64), in a scratch asked for at
// least the callee's size, so the call neither overwrites it nor makes the runtime
// grow (and move) it under the caller's views.
// CHECK-LABEL: func.func @helper
// CHECK:         hip.get_host_scratch(%{{.+}}, %{{.+}})
// CHECK-LABEL: func.func @caller_of_scratch
// CHECK-NEXT:    arith.constant 128 : index
// CHECK-NEXT:    hip.get_host_scratch
// CHECK:         memref.view %{{.+}}[%c64{{(_[0-9]+)?}}][] : memref<?xi8> to memref<i64>
// CHECK:         call @helper
func.func @helper(%ctx: !hip.context, %x: i64, %o: memref<i32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
  %v = memref.view %s[%c0][] : memref<?xi8> to memref<i64>
  memref.store %x, %v[] : memref<i64>
  hip.cast(%ctx) ins(%v : memref<i64>) outs(%o : memref<i32>) {to = 6 : i64}
  return
}
func.func @caller_of_scratch(%ctx: !hip.context, %x: i64, %o: memref<i32>, %p: memref<i32>) {
  %t = memref.alloc() : memref<i64>
  memref.store %x, %t[] : memref<i64>
  hip.cast(%ctx) ins(%t : memref<i64>) outs(%o : memref<i32>) {to = 6 : i64}
  func.call @helper(%ctx, %x, %p) : (!hip.context, i64, memref<i32>) -> ()
  return
}
