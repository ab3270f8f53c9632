// RUN: memplan-opt %s -p 'hip-memory-plan' | FileCheck %s
// RUN: memplan-opt %examples/decoder_step.mlir -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s --check-prefix=EXAMPLE

// hip-memory-plan = materialize-host-scalars, pool-allocs. The host-fed scalar goes
// to host scratch; the 32-element host-fed buffer stays in the pool, apart from
// the buffer whose device read may still be pending when the host writes it (the
// seed's race); device temporaries share bytes on the in-order stream (%h2 those of
// %total_i32, %h3 those of %positions); the returned buffer stays an allocation.

// CHECK:       module attributes {hipdnn.buffer_count = 5 : i64, hipdnn.buffer_offsets = [512, 256, 0, 512, 0], hipdnn.pool_size = 768 : i64}
// CHECK-LABEL: func.func @small_decoder_step
// CHECK-NEXT:    %[[SSIZE:.+]] = arith.constant 64 : index
// CHECK-NEXT:    %[[SCRATCH:.+]] = hip.get_host_scratch(%{{.+}}, %[[SSIZE]]) : memref<?xi8>
// CHECK:         %[[LEN:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<1xi64>
// CHECK:         %[[PSIZE:.+]] = arith.constant 768 : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[PSIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[O1:.+]] = arith.constant 512 : index
// CHECK-NEXT:    %[[O2:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[O3:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[O4:.+]] = arith.constant 512 : index
// CHECK-NEXT:    %[[O5:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[LEN32:.+]] = memref.view %[[POOL]][%[[O1]]][] : memref<?xi8> to memref<1xi32>
// CHECK:         %[[H:.+]] = memref.view %[[POOL]][%[[O2]]][] : memref<?xi8> to memref<1x64xf16>
// CHECK:         %[[POS:.+]] = memref.view %[[POOL]][%[[O3]]][] : memref<?xi8> to memref<32xi64>
// CHECK:         %[[H2:.+]] = memref.view %[[POOL]][%[[O4]]][] : memref<?xi8> to memref<1x64xf16>
// CHECK:         %[[H3:.+]] = memref.view %[[POOL]][%[[O5]]][] : memref<?xi8> to memref<1x64xf16>
// CHECK:         %[[R:.+]] = memref.alloc() : memref<1x64xf16>
// CHECK-NOT:     memref.dealloc
// CHECK:         return %[[R]]
func.func @small_decoder_step(%ctx: !hip.context, %x: memref<1x64xf16>, %w: memref<64x64xf16>,
                              %len: i64, %past: i64) -> memref<1x64xf16> {
  %c0 = arith.constant 0 : index
  %total_len = memref.alloc() : memref<1xi64>
  memref.store %len, %total_len[%c0] : memref<1xi64>
  %total_i32 = memref.alloc() : memref<1xi32>
  hip.cast(%ctx) ins(%total_len : memref<1xi64>) outs(%total_i32 : memref<1xi32>) {to = 6 : i64}
  %h = memref.alloc() : memref<1x64xf16>
  memplan.launch @rope(%ctx) ins(%x, %total_i32 : memref<1x64xf16>, memref<1xi32>) outs(%h : memref<1x64xf16>)
  // %total_i32 is dead in program order, but the kernel reading it may still be
  // pending when the host stores here: %positions may not take its bytes.
  %positions = memref.alloc() : memref<32xi64>
  memref.store %past, %positions[%c0] : memref<32xi64>
  %h2 = memref.alloc() : memref<1x64xf16>
  memplan.launch @rope(%ctx) ins(%h, %positions : memref<1x64xf16>, memref<32xi64>) outs(%h2 : memref<1x64xf16>)
  // Device after device on one stream: %h3 may take the bytes of %h.
  %h3 = memref.alloc() : memref<1x64xf16>
  hip.matmul(%ctx) ins(%h2, %w : memref<1x64xf16>, memref<64x64xf16>) outs(%h3 : memref<1x64xf16>)
  %out = memref.alloc() : memref<1x64xf16>
  hip.add(%ctx) ins(%h3, %x : memref<1x64xf16>, memref<1x64xf16>) outs(%out : memref<1x64xf16>)
  memref.dealloc %total_len : memref<1xi64>
  memref.dealloc %h : memref<1x64xf16>
  return %out : memref<1x64xf16>
}

// The shipped example: four host-fed scalars (two inputs, top_k's k and the
// read-back token) in 192 bytes of host scratch (the token, written by top_k on the
// stream and read by the host after the synchronize, takes the slot of the first
// input, whose only device read is enqueued before top_k), every other
// intermediate in one pool whose size is
// the lower bound (the logits, 64,000 bytes, plus the residual stream alive across
// them), the returned token outside; the independent checker finds no race.
// EXAMPLE:       module attributes {hipdnn.buffer_count = 17 : i64, hipdnn.buffer_offsets = [{{[-0-9, ]+}}], hipdnn.pool_size = 65024 : i64}
// EXAMPLE-LABEL: func.func @decode_step
// EXAMPLE-NEXT:    arith.constant 192 : index
// EXAMPLE-NEXT:    %[[SCRATCH:.+]] = hip.get_host_scratch
// EXAMPLE:         %[[SIZE:.+]] = arith.constant 65024 : index
// EXAMPLE-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// EXAMPLE-NOT:     hip.get_pool
// EXAMPLE-NOT:     memref.alloc
// EXAMPLE:         %[[LOGITS:.+]] = memref.view %[[POOL]][%{{.+}}][] : memref<?xi8> to memref<1x32000xf16>
// EXAMPLE:         memref.view %[[SCRATCH]][%{{.+}}][] : memref<?xi8> to memref<1x1xi64>
// EXAMPLE:         hip.readback_scalar
// EXAMPLE:         %[[RESULT:.+]] = memref.alloc() : memref<1xi64>
// EXAMPLE-NOT:     memref.dealloc
// EXAMPLE:         return %[[RESULT]]
