// RUN: memplan-opt %s | memplan-opt | FileCheck %s
// The generic form denotes the same IR: it reads back to the same text, from
// itself and through the custom form (generic printing numbers values, as MLIR).
// RUN: memplan-opt %s --mlir-print-op-generic > %t.generic
// RUN: memplan-opt %t.generic --mlir-print-op-generic | diff %t.generic -
// (An explicit default `domain_id = 0` is not printed in the custom form, so the
// custom form is compared with itself.)
// RUN: memplan-opt %s | memplan-opt --mlir-print-op-generic > %t.from-custom
// RUN: memplan-opt %t.from-custom --mlir-print-op-generic | diff %t.from-custom -
// RUN: memplan-opt %t.from-custom | memplan-opt --mlir-print-op-generic | diff %t.from-custom -

// The hip dialect's custom syntax survives a print/parse cycle, directly and
// through the generic form.

// A decoder step in the style of hip-ep's dumps: a host-fed sequence-length
// scalar in host scratch, activations viewed out of the pool, kernel ops on
// strided views, a synchronize before the host reads a device result.

// CHECK-LABEL: func.func @step(
// CHECK-SAME:      %ctx: !hip.context, %tokens: memref<1x1xi64>, %embed: memref<32000x4096xf16>, %wqkv: memref<4096x6144xf16>, %cache: memref<2x32x8x128xf16>, %norm_w: memref<4096xf16>, %cos: memref<4096x64xf16>, %sin: memref<4096x64xf16>, %seqlen: index, %logits: memref<1x32000xf16>, %next: memref<1xi64>)
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c64 = arith.constant 64 : index
// CHECK-NEXT:    %c128 = arith.constant 128 : index
// CHECK-NEXT:    %pool_bytes = arith.constant 1048576 : index
// CHECK-NEXT:    %pool = hip.get_pool(%ctx, %pool_bytes) : memref<?xi8>
// CHECK-NEXT:    %[[POOL1:pool_[0-9]+]] = hip.get_pool(%ctx, %seqlen) {domain_id = 1 : i64} : memref<?xi8>
// CHECK-NEXT:    %scratch = hip.get_host_scratch(%ctx, %c128) : memref<?xi8>
// CHECK-NEXT:    %total = memref.view %scratch[%c0][] : memref<?xi8> to memref<1xi64>
// CHECK-NEXT:    %step_len = memref.view %scratch[%c64][] : memref<?xi8> to memref<1xi64>
// CHECK-NEXT:    %seqlen_i64 = arith.index_cast %seqlen : index to i64
// CHECK-NEXT:    memref.store %seqlen_i64, %total[%c0] : memref<1xi64>
// CHECK-NEXT:    %total_i32 = memref.alloc() {alignment = 64 : i64} : memref<1xi32>
// CHECK-NEXT:    hip.cast(%ctx) ins(%total : memref<1xi64>) outs(%total_i32 : memref<1xi32>)
// CHECK-NEXT:    %x = memref.view %pool[%c0][] : memref<?xi8> to memref<1x4096xf16>
// CHECK-NEXT:    hip.gather(%ctx) ins(%embed, %tokens : memref<32000x4096xf16>, memref<1x1xi64>) outs(%x : memref<1x4096xf16>) {axis = 0 : i64}
// CHECK-NEXT:    %xn = memref.alloc() {alignment = 64 : i64} : memref<1x4096xf16>
// CHECK-NEXT:    hip.rms_norm(%ctx) ins(%x, %norm_w : memref<1x4096xf16>, memref<4096xf16>) outs(%xn : memref<1x4096xf16>) {epsilon = 1.000000e-05 : f32}
// CHECK-NEXT:    %qkv = memref.view %pool[%c0][] : memref<?xi8> to memref<1x6144xf16>
// CHECK-NEXT:    hip.matmul(%ctx) ins(%xn, %wqkv : memref<1x4096xf16>, memref<4096x6144xf16>) outs(%qkv : memref<1x6144xf16>)
// CHECK-NEXT:    %q = memref.subview %qkv[0, 0] [1, 4096] [1, 1] : memref<1x6144xf16> to memref<1x4096xf16, strided<[6144, 1]>>
// CHECK-NEXT:    %kv = memref.subview %qkv[0, 4096] [1, 2048] [1, 1] : memref<1x6144xf16> to memref<1x2048xf16, strided<[6144, 1], offset: 4096>>
// CHECK-NEXT:    %q_heads = memref.reinterpret_cast %q to offset: [0], sizes: [1, 32, 128], strides: [6144, 128, 1] : memref<1x4096xf16, strided<[6144, 1]>> to memref<1x32x128xf16, strided<[6144, 128, 1]>>
// CHECK-NEXT:    %q_rot = memref.alloc() {alignment = 64 : i64} : memref<1x32x128xf16>
// CHECK-NEXT:    hip.rope(%ctx) ins(%q_heads, %cos, %sin : memref<1x32x128xf16, strided<[6144, 128, 1]>>, memref<4096x64xf16>, memref<4096x64xf16>) outs(%q_rot : memref<1x32x128xf16>) {interleaved = false}
// CHECK-NEXT:    %k_slot = memref.subview %cache[0, 0, 0, 0] [1, 1, 8, 128] [1, 1, 1, 1] : memref<2x32x8x128xf16> to memref<8x128xf16, strided<[128, 1]>>
// CHECK-NEXT:    %kv_heads = memref.expand_shape %kv [[0], [1, 2]] output_shape [1, 16, 128] : memref<1x2048xf16, strided<[6144, 1], offset: 4096>> into memref<1x16x128xf16, strided<[6144, 128, 1], offset: 4096>>
// CHECK-NEXT:    %attn = memref.view %[[POOL1]][%c0][] : memref<?xi8> to memref<1x32x128xf16>
// CHECK-NEXT:    hip.group_query_attention(%ctx) ins(%q_rot, %kv_heads, %k_slot, %total_i32 : memref<1x32x128xf16>, memref<1x16x128xf16, strided<[6144, 128, 1], offset: 4096>>, memref<8x128xf16, strided<[128, 1]>>, memref<1xi32>) outs(%attn : memref<1x32x128xf16>) {kv_num_heads = 8 : i64, num_heads = 32 : i64}
// CHECK-NEXT:    %attn_flat = memref.collapse_shape %attn [[0], [1, 2]] : memref<1x32x128xf16> into memref<1x4096xf16>
// CHECK-NEXT:    hip.add(%ctx) ins(%x, %attn_flat : memref<1x4096xf16>, memref<1x4096xf16>) outs(%x : memref<1x4096xf16>)
// CHECK-NEXT:    %w_head = memref.subview %embed[0, 0] [32000, 4096] [1, 1] : memref<32000x4096xf16> to memref<32000x4096xf16, strided<[4096, 1]>>
// CHECK-NEXT:    hip.gemm(%ctx) ins(%x, %w_head : memref<1x4096xf16>, memref<32000x4096xf16, strided<[4096, 1]>>) outs(%logits : memref<1x32000xf16>) {transB = 1 : i64}
// CHECK-NEXT:    hip.miopen.softmax(%ctx) ins(%logits : memref<1x32000xf16>) outs(%logits : memref<1x32000xf16>)
// CHECK-NEXT:    hip.argmax(%ctx) ins(%logits : memref<1x32000xf16>) outs(%next : memref<1xi64>) {axis = 1 : i64}
// CHECK-NEXT:    hip.synchronize(%ctx)
// CHECK-NEXT:    %token = memref.load %next[%c0] : memref<1xi64>
// CHECK-NEXT:    memref.store %token, %step_len[%c0] : memref<1xi64>
// CHECK-NEXT:    memref.dealloc %q_rot : memref<1x32x128xf16>
// CHECK-NEXT:    {{(func\.)?}}return
func.func @step(%ctx: !hip.context, %tokens: memref<1x1xi64>, %embed: memref<32000x4096xf16>, %wqkv: memref<4096x6144xf16>, %cache: memref<2x32x8x128xf16>, %norm_w: memref<4096xf16>, %cos: memref<4096x64xf16>, %sin: memref<4096x64xf16>, %seqlen: index, %logits: memref<1x32000xf16>, %next: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %pool_bytes = arith.constant 1048576 : index
  %pool = hip.get_pool(%ctx, %pool_bytes) : memref<?xi8>
  %pool_1 = hip.get_pool(%ctx, %seqlen) {domain_id = 1 : i64} : memref<?xi8>
  %scratch = hip.get_host_scratch(%ctx, %c128) : memref<?xi8>
  %total = memref.view %scratch[%c0][] : memref<?xi8> to memref<1xi64>
  %step_len = memref.view %scratch[%c64][] : memref<?xi8> to memref<1xi64>
  %seqlen_i64 = arith.index_cast %seqlen : index to i64
  memref.store %seqlen_i64, %total[%c0] : memref<1xi64>
  %total_i32 = memref.alloc() {alignment = 64 : i64} : memref<1xi32>
  hip.cast(%ctx) ins(%total : memref<1xi64>) outs(%total_i32 : memref<1xi32>)
  %x = memref.view %pool[%c0][] : memref<?xi8> to memref<1x4096xf16>
  hip.gather(%ctx) ins(%embed, %tokens : memref<32000x4096xf16>, memref<1x1xi64>) outs(%x : memref<1x4096xf16>) {axis = 0 : i64}
  %xn = memref.alloc() {alignment = 64 : i64} : memref<1x4096xf16>
  hip.rms_norm(%ctx) ins(%x, %norm_w : memref<1x4096xf16>, memref<4096xf16>) outs(%xn : memref<1x4096xf16>) {epsilon = 1.000000e-05 : f32}
  %qkv = memref.view %pool[%c0][] : memref<?xi8> to memref<1x6144xf16>
  hip.matmul(%ctx) ins(%xn, %wqkv : memref<1x4096xf16>, memref<4096x6144xf16>) outs(%qkv : memref<1x6144xf16>)
  %q = memref.subview %qkv[0, 0] [1, 4096] [1, 1] : memref<1x6144xf16> to memref<1x4096xf16, strided<[6144, 1]>>
  %kv = memref.subview %qkv[0, 4096] [1, 2048] [1, 1] : memref<1x6144xf16> to memref<1x2048xf16, strided<[6144, 1], offset: 4096>>
  %q_heads = memref.reinterpret_cast %q to offset: [0], sizes: [1, 32, 128], strides: [6144, 128, 1] : memref<1x4096xf16, strided<[6144, 1]>> to memref<1x32x128xf16, strided<[6144, 128, 1]>>
  %q_rot = memref.alloc() {alignment = 64 : i64} : memref<1x32x128xf16>
  hip.rope(%ctx) ins(%q_heads, %cos, %sin : memref<1x32x128xf16, strided<[6144, 128, 1]>>, memref<4096x64xf16>, memref<4096x64xf16>) outs(%q_rot : memref<1x32x128xf16>) {interleaved = false}
  %k_slot = memref.subview %cache[0, 0, 0, 0] [1, 1, 8, 128] [1, 1, 1, 1] : memref<2x32x8x128xf16> to memref<8x128xf16, strided<[128, 1]>>
  %kv_heads = memref.expand_shape %kv [[0], [1, 2]] output_shape [1, 16, 128] : memref<1x2048xf16, strided<[6144, 1], offset: 4096>> into memref<1x16x128xf16, strided<[6144, 128, 1], offset: 4096>>
  %attn = memref.view %pool_1[%c0][] : memref<?xi8> to memref<1x32x128xf16>
  hip.group_query_attention(%ctx) ins(%q_rot, %kv_heads, %k_slot, %total_i32 : memref<1x32x128xf16>, memref<1x16x128xf16, strided<[6144, 128, 1], offset: 4096>>, memref<8x128xf16, strided<[128, 1]>>, memref<1xi32>) outs(%attn : memref<1x32x128xf16>) {kv_num_heads = 8 : i64, num_heads = 32 : i64}
  %attn_flat = memref.collapse_shape %attn [[0], [1, 2]] : memref<1x32x128xf16> into memref<1x4096xf16>
  hip.add(%ctx) ins(%x, %attn_flat : memref<1x4096xf16>, memref<1x4096xf16>) outs(%x : memref<1x4096xf16>)
  %w_head = memref.subview %embed[0, 0] [32000, 4096] [1, 1] : memref<32000x4096xf16> to memref<32000x4096xf16, strided<[4096, 1]>>
  hip.gemm(%ctx) ins(%x, %w_head : memref<1x4096xf16>, memref<32000x4096xf16, strided<[4096, 1]>>) outs(%logits : memref<1x32000xf16>) {transB = 1 : i64}
  hip.miopen.softmax(%ctx) ins(%logits : memref<1x32000xf16>) outs(%logits : memref<1x32000xf16>)
  hip.argmax(%ctx) ins(%logits : memref<1x32000xf16>) outs(%next : memref<1xi64>) {axis = 1 : i64}
  hip.synchronize(%ctx)
  %token = memref.load %next[%c0] : memref<1xi64>
  memref.store %token, %step_len[%c0] : memref<1xi64>
  memref.dealloc %q_rot : memref<1x32x128xf16>
  func.return
}

// Kernels memplan does not list go through hip.launch; empty ins are omitted;
// dynamic and strided memrefs with a dynamic offset pass through unchanged.

// CHECK-LABEL: func.func @kernel_family(
// CHECK-NEXT:    hip.launch @fused_qk_norm(%ctx) ins(%a, %b : memref<?x8xf32, strided<[8, 1], offset: ?>>, memref<8xf32>) outs(%a : memref<?x8xf32, strided<[8, 1], offset: ?>>) {block = 256 : i64}
// CHECK-NEXT:    hip.launch @"lib-v2"::@kernel(%ctx) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.fill(%ctx) outs(%c : memref<4x8xf32>) {value = 0.000000e+00 : f32}
// CHECK-NEXT:    hip.fill(%ctx) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.miopen.add(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.layer_norm(%ctx) ins(%c, %b, %b : memref<4x8xf32>, memref<8xf32>, memref<8xf32>) outs(%c : memref<4x8xf32>) {axis = -1 : i64}
// CHECK-NEXT:    hip.transpose(%ctx) ins(%c : memref<4x8xf32>) outs(%t : memref<8x4xf32>) {perm = array<i64: 1, 0>}
// CHECK-NEXT:    hip.silu(%ctx) ins(%c : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.sigmoid(%ctx) ins(%c : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.tanh(%ctx) ins(%c : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.mul(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.sub(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.div(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.pow(%ctx) ins(%c, %b : memref<4x8xf32>, memref<8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.cumsum(%ctx) ins(%c, %axis : memref<4x8xf32>, memref<1xi64>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.pad(%ctx) ins(%b, %pads : memref<8xf32>, memref<2xi64>) outs(%c16 : memref<16xf32>) {mode = "constant"}
// CHECK-NEXT:    hip.tile(%ctx) ins(%b, %reps : memref<8xf32>, memref<1xi64>) outs(%c16 : memref<16xf32>)
// CHECK-NEXT:    hip.expand(%ctx) ins(%b, %shape : memref<8xf32>, memref<2xi64>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.slice(%ctx) ins(%c16 : memref<16xf32>) outs(%b : memref<8xf32>) {ends = [8 : i64], starts = [0 : i64]}
// CHECK-NEXT:    hip.concat(%ctx) ins(%b, %b : memref<8xf32>, memref<8xf32>) outs(%c16 : memref<16xf32>) {axis = 0 : i64}
// CHECK-NEXT:    hip.where(%ctx) ins(%mask, %c, %c : memref<4x8xi1>, memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    hip.equal(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%mask : memref<4x8xi1>)
// CHECK-NEXT:    hip.not(%ctx) ins(%mask : memref<4x8xi1>) outs(%mask : memref<4x8xi1>)
// CHECK-NEXT:    hip.and(%ctx) ins(%mask, %mask : memref<4x8xi1>, memref<4x8xi1>) outs(%mask : memref<4x8xi1>)
// CHECK-NEXT:    hip.reduce_mean(%ctx) ins(%c : memref<4x8xf32>) outs(%b4 : memref<4xf32>) {axes = [1 : i64], keepdims = 0 : i64}
// CHECK-NEXT:    hip.topk(%ctx) ins(%b : memref<8xf32>) outs(%b4, %i4 : memref<4xf32>, memref<4xi64>) {k = 4 : i64}
// CHECK-NEXT:    hip.conv(%ctx) ins(%img, %filt : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%fmap : memref<1x4x6x6xf32>) {strides = [1 : i64, 1 : i64]}
// CHECK-NEXT:    {{(func\.)?}}return
func.func @kernel_family(%ctx: !hip.context, %a: memref<?x8xf32, strided<[8, 1], offset: ?>>, %b: memref<8xf32>, %c: memref<4x8xf32>, %t: memref<8x4xf32>, %c16: memref<16xf32>, %b4: memref<4xf32>, %i4: memref<4xi64>, %mask: memref<4x8xi1>, %axis: memref<1xi64>, %pads: memref<2xi64>, %reps: memref<1xi64>, %shape: memref<2xi64>, %img: memref<1x3x8x8xf32>, %filt: memref<4x3x3x3xf32>, %fmap: memref<1x4x6x6xf32>) {
  hip.launch @fused_qk_norm(%ctx) ins(%a, %b : memref<?x8xf32, strided<[8, 1], offset: ?>>, memref<8xf32>) outs(%a : memref<?x8xf32, strided<[8, 1], offset: ?>>) {block = 256 : i64}
  hip.launch @"lib-v2"::@kernel(%ctx) outs(%c : memref<4x8xf32>)
  hip.fill(%ctx) outs(%c : memref<4x8xf32>) {value = 0.0 : f32}
  hip.fill(%ctx) ins() outs(%c : memref<4x8xf32>)
  hip.miopen.add(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.layer_norm(%ctx) ins(%c, %b, %b : memref<4x8xf32>, memref<8xf32>, memref<8xf32>) outs(%c : memref<4x8xf32>) {axis = -1 : i64}
  hip.transpose(%ctx) ins(%c : memref<4x8xf32>) outs(%t : memref<8x4xf32>) {perm = array<i64: 1, 0>}
  hip.silu(%ctx) ins(%c : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.sigmoid(%ctx) ins(%c : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.tanh(%ctx) ins(%c : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.mul(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.sub(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.div(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.pow(%ctx) ins(%c, %b : memref<4x8xf32>, memref<8xf32>) outs(%c : memref<4x8xf32>)
  hip.cumsum(%ctx) ins(%c, %axis : memref<4x8xf32>, memref<1xi64>) outs(%c : memref<4x8xf32>)
  hip.pad(%ctx) ins(%b, %pads : memref<8xf32>, memref<2xi64>) outs(%c16 : memref<16xf32>) {mode = "constant"}
  hip.tile(%ctx) ins(%b, %reps : memref<8xf32>, memref<1xi64>) outs(%c16 : memref<16xf32>)
  hip.expand(%ctx) ins(%b, %shape : memref<8xf32>, memref<2xi64>) outs(%c : memref<4x8xf32>)
  hip.slice(%ctx) ins(%c16 : memref<16xf32>) outs(%b : memref<8xf32>) {ends = [8 : i64], starts = [0 : i64]}
  hip.concat(%ctx) ins(%b, %b : memref<8xf32>, memref<8xf32>) outs(%c16 : memref<16xf32>) {axis = 0 : i64}
  hip.where(%ctx) ins(%mask, %c, %c : memref<4x8xi1>, memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  hip.equal(%ctx) ins(%c, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%mask : memref<4x8xi1>)
  hip.not(%ctx) ins(%mask : memref<4x8xi1>) outs(%mask : memref<4x8xi1>)
  hip.and(%ctx) ins(%mask, %mask : memref<4x8xi1>, memref<4x8xi1>) outs(%mask : memref<4x8xi1>)
  hip.reduce_mean(%ctx) ins(%c : memref<4x8xf32>) outs(%b4 : memref<4xf32>) {axes = [1 : i64], keepdims = 0 : i64}
  hip.topk(%ctx) ins(%b : memref<8xf32>) outs(%b4, %i4 : memref<4xf32>, memref<4xi64>) {k = 4 : i64}
  hip.conv(%ctx) ins(%img, %filt : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%fmap : memref<1x4x6x6xf32>) {strides = [1 : i64, 1 : i64]}
  func.return
}

// Runtime buffers: domain_id = 0 is the default and is not printed; hip.alloc takes
// one size per dynamic dimension.

// CHECK-LABEL: func.func @buffers(
// CHECK-NEXT:    %p = hip.get_pool(%ctx, %n) : memref<?xi8>
// CHECK-NEXT:    %{{p_[0-9]+}} = hip.get_pool(%ctx, %n) {domain_id = 3 : i64} : memref<?xi8>
// CHECK-NEXT:    %s = hip.get_host_scratch(%ctx, %n) : memref<?xi8>
// CHECK-NEXT:    %x = hip.alloc(%ctx, %n) : memref<?x128xf32>
// CHECK-NEXT:    %y = hip.alloc(%ctx, %n, %m) {alignment = 256 : i64} : memref<?x4x?xf16>
// CHECK-NEXT:    %z = hip.alloc(%ctx) : memref<16xi32>
// CHECK-NEXT:    hip.free(%ctx, %x) : memref<?x128xf32>
// CHECK-NEXT:    hip.free(%ctx, %y) : memref<?x4x?xf16>
// CHECK-NEXT:    hip.synchronize(%ctx)
// CHECK-NEXT:    hip.free(%ctx, %z) : memref<16xi32>
// CHECK-NEXT:    {{(func\.)?}}return
func.func @buffers(%ctx: !hip.context, %n: index, %m: index) {
  %p = hip.get_pool(%ctx, %n) {domain_id = 0 : i64} : memref<?xi8>
  %p_1 = hip.get_pool(%ctx, %n) {domain_id = 3 : i64} : memref<?xi8>
  %s = hip.get_host_scratch(%ctx, %n) : memref<?xi8>
  %x = hip.alloc(%ctx, %n) : memref<?x128xf32>
  %y = hip.alloc(%ctx, %n, %m) {alignment = 256 : i64} : memref<?x4x?xf16>
  %z = hip.alloc(%ctx) : memref<16xi32>
  hip.free(%ctx, %x) : memref<?x128xf32>
  hip.free(%ctx, %y) : memref<?x4x?xf16>
  hip.synchronize(%ctx)
  hip.free(%ctx, %z) : memref<16xi32>
  func.return
}

// The generic form of every hip op parses as well.

// CHECK-LABEL: func.func @generic(
// CHECK-NEXT:    %p = hip.get_pool(%ctx, %n) {domain_id = 1 : i64} : memref<?xi8>
// CHECK-NEXT:    %s = hip.get_host_scratch(%ctx, %n) : memref<?xi8>
// CHECK-NEXT:    %x = hip.alloc(%ctx, %n) : memref<?xf32>
// CHECK-NEXT:    hip.relu(%ctx) ins(%x : memref<?xf32>) outs(%x : memref<?xf32>) {tag = 1 : i64}
// CHECK-NEXT:    hip.launch @k(%ctx) outs(%x : memref<?xf32>)
// CHECK-NEXT:    hip.synchronize(%ctx)
// CHECK-NEXT:    hip.free(%ctx, %x) : memref<?xf32>
// CHECK-NEXT:    {{(func\.)?}}return
func.func @generic(%ctx: !hip.context, %n: index) {
  %p = "hip.get_pool"(%ctx, %n) {domain_id = 1 : i64} : (!hip.context, index) -> memref<?xi8>
  %s = "hip.get_host_scratch"(%ctx, %n) : (!hip.context, index) -> memref<?xi8>
  %x = "hip.alloc"(%ctx, %n) <{operandSegmentSizes = array<i32: 1, 1>}> : (!hip.context, index) -> memref<?xf32>
  "hip.relu"(%ctx, %x, %x) <{operandSegmentSizes = array<i32: 1, 1, 1>}> {tag = 1 : i64} : (!hip.context, memref<?xf32>, memref<?xf32>) -> ()
  "hip.launch"(%ctx, %x) <{kernel = @k, operandSegmentSizes = array<i32: 1, 0, 1>}> : (!hip.context, memref<?xf32>) -> ()
  "hip.synchronize"(%ctx) : (!hip.context) -> ()
  "hip.free"(%ctx, %x) : (!hip.context, memref<?xf32>) -> ()
  func.return
}
