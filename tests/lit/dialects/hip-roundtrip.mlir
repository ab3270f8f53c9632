// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | FileCheck %s
// The generic form denotes the same IR: it reads back to the same text, and the
// custom form printed and read again gives the same generic text.
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic > %t.generic
// RUN: memplan-opt %t.generic --split-input-file --mlir-print-op-generic | diff %t.generic -
// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file --mlir-print-op-generic | diff %t.generic -

// The hip dialect in hip-ep's syntax, one small case per form.

// Kernels after bufferization: no results; operands in hip-ep's order.
// CHECK-LABEL: func.func @memref_kernels
// CHECK-SAME:      (%[[CTX:[^:]+]]: !hip.context, %[[A:[^:]+]]: memref<4x8xf32>, %[[B:[^:]+]]: memref<8x4xf32>, %[[C:[^:]+]]: memref<4x4xf32>
// CHECK:         hip.matmul(%[[CTX]]) ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<8x4xf32>) outs(%[[C]] : memref<4x4xf32>)
// CHECK:         hip.gemm(%[[CTX]]) ins(%[[A]], %[[B]], %[[C]] : memref<4x8xf32>, memref<8x4xf32>, memref<4x4xf32>) outs(%[[C]] : memref<4x4xf32>) {transB = 1 : i64}
// CHECK:         hip.add(%[[CTX]]) ins(%[[C]], %[[C]] : memref<4x4xf32>, memref<4x4xf32>) outs(%[[C]] : memref<4x4xf32>)
// CHECK:         hip.miopen.softmax(%[[CTX]]) ins(%[[C]] : memref<4x4xf32>) outs(%[[C]] : memref<4x4xf32>)
// CHECK:         hip.cast(%[[CTX]]) ins(%[[A]] : memref<4x8xf32>) outs(%{{.+}} : memref<4x8xf16>) {to = 10 : i64}
// CHECK:         hip.transpose(%[[CTX]]) ins(%[[A]] : memref<4x8xf32>) outs(%{{.+}} : memref<8x4xf32>) {perm = [1, 0]}
func.func @memref_kernels(%ctx: !hip.context, %a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>, %h: memref<4x8xf16>, %t: memref<8x4xf32>) {
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  hip.gemm(%ctx) ins(%a, %b, %c : memref<4x8xf32>, memref<8x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>) {transB = 1 : i64}
  hip.add(%ctx) ins(%c, %c : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  hip.miopen.softmax(%ctx) ins(%c : memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  hip.cast(%ctx) ins(%a : memref<4x8xf32>) outs(%h : memref<4x8xf16>) {to = 10 : i64}
  hip.transpose(%ctx) ins(%a : memref<4x8xf32>) outs(%t : memref<8x4xf32>) {perm = [1, 0]}
  return
}

// -----

// Default-valued attributes are left out when they hold the default (gather's
// axis 0, gemm's alpha 1.0), kept otherwise; other attributes pass through.
// CHECK-LABEL: func.func @defaults_elided
// CHECK:         hip.gather(%{{.+}}) ins(%{{.+}}, %{{.+}} : memref<8x4xf32>, memref<2xi64>) outs(%{{.+}} : memref<2x4xf32>){{$}}
// CHECK:         hip.gather(%{{.+}}) ins(%{{.+}}, %{{.+}} : memref<8x4xf32>, memref<2xi64>) outs(%{{.+}} : memref<2x4xf32>) {axis = 1 : i64, tag = "x"}{{$}}
// CHECK:         hip.gemm(%{{.+}}) ins(%{{.+}}, %{{.+}} : memref<2x4xf32>, memref<4x2xf32>) outs(%{{.+}} : memref<2x2xf32>) {beta = 5.000000e-01 : f32}{{$}}
func.func @defaults_elided(%ctx: !hip.context, %d: memref<8x4xf32>, %i: memref<2xi64>, %o: memref<2x4xf32>, %x: memref<2x4xf32>, %y: memref<4x2xf32>, %z: memref<2x2xf32>) {
  hip.gather(%ctx) ins(%d, %i : memref<8x4xf32>, memref<2xi64>) outs(%o : memref<2x4xf32>) {axis = 0 : i64}
  hip.gather(%ctx) ins(%d, %i : memref<8x4xf32>, memref<2xi64>) outs(%o : memref<2x4xf32>) {tag = "x", axis = 1 : i64}
  hip.gemm(%ctx) ins(%x, %y : memref<2x4xf32>, memref<4x2xf32>) outs(%z : memref<2x2xf32>) {alpha = 1.0 : f32, beta = 0.5 : f32}
  return
}

// -----

// Optional operands: in the ins list (layer_norm's bias; rope's position_ids,
// which text must write: hip-ep's format takes it whenever a value follows) or
// behind their own keyword (matmul_nbits' zero_points, pad's cval, slice's steps).
// CHECK-LABEL: func.func @optional_operands
// CHECK:         hip.rope(%{{.+}}) ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : memref<1x8x64xf16>, memref<1xi64>, memref<32x32xf16>, memref<32x32xf16>) outs(%{{.+}} : memref<1x8x64xf16>)
// CHECK:         hip.matmul_nbits(%{{.+}}) ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<1x64xf16>, memref<32x2x16xi8>, memref<32x2xf16>) zero_points(%{{.+}} : memref<32xi8>) outs(%{{.+}} : memref<1x32xf16>) {K = 64 : i64, N = 32 : i64, accuracy_level = 4 : i64, bits = 4 : i64, block_size = 32 : i64, zp_elem_size = 1 : i64}
// CHECK:         hip.pad(%{{.+}}) ins(%{{.+}}, %{{.+}} : memref<8xf32>, memref<2xi64>) cval(%{{.+}} : memref<f32>) outs(%{{.+}} : memref<16xf32>)
// CHECK:         hip.slice(%{{.+}}) ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<16xf32>, memref<1xi64>, memref<1xi64>) steps(%{{.+}} : memref<1xi64>) outs(%{{.+}} : memref<8xf32>)
// CHECK:         hip.layer_norm(%{{.+}}) ins(%{{.+}}, %{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8xf32>, memref<8xf32>) outs(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<4xf32>)
func.func @optional_operands(%ctx: !hip.context, %q: memref<1x8x64xf16>, %pos: memref<1xi64>, %cos: memref<32x32xf16>, %sin: memref<32x32xf16>, %act: memref<1x64xf16>, %w: memref<32x2x16xi8>, %sc: memref<32x2xf16>, %zp: memref<32xi8>, %y: memref<1x32xf16>, %v8: memref<8xf32>, %pads: memref<2xi64>, %cv: memref<f32>, %v16: memref<16xf32>, %x: memref<4x8xf32>, %mean: memref<4xf32>) {
  hip.rope(%ctx) ins(%q, %pos, %cos, %sin : memref<1x8x64xf16>, memref<1xi64>, memref<32x32xf16>, memref<32x32xf16>) outs(%q : memref<1x8x64xf16>) {interleaved = 0 : i64, num_heads = 8 : i64, rotary_embedding_dim = 64 : i64}
  hip.matmul_nbits(%ctx) ins(%act, %w, %sc : memref<1x64xf16>, memref<32x2x16xi8>, memref<32x2xf16>) zero_points(%zp : memref<32xi8>) outs(%y : memref<1x32xf16>) {K = 64 : i64, N = 32 : i64, bits = 4 : i64, block_size = 32 : i64, accuracy_level = 4 : i64, zp_elem_size = 1 : i64}
  hip.pad(%ctx) ins(%v8, %pads : memref<8xf32>, memref<2xi64>) cval(%cv : memref<f32>) outs(%v16 : memref<16xf32>) {mode = "constant"}
  hip.slice(%ctx) ins(%v16, %pos, %pos : memref<16xf32>, memref<1xi64>, memref<1xi64>) steps(%pos : memref<1xi64>) outs(%v8 : memref<8xf32>)
  hip.layer_norm(%ctx) ins(%x, %v8, %v8 : memref<4x8xf32>, memref<8xf32>, memref<8xf32>) outs(%x, %mean : memref<4x8xf32>, memref<4xf32>)
  return
}

// -----

// Before bufferization kernels return tensors: after `->` for hip-ep's
// hand-written formats (add, mul, miopen.add, miopen.softmax, silu), after `:`
// for its declarative ones.
// CHECK-LABEL: func.func @tensor_kernels
// CHECK:         %[[S:.+]] = hip.silu(%{{.+}}) ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[M:.+]] = hip.mul(%{{.+}}) ins(%[[S]], %[[S]] : tensor<4xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[G:.+]] = hip.sigmoid(%{{.+}}) ins(%[[M]] : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>) : tensor<4xf32>
// CHECK:         %[[K:.+]]:2 = hip.top_k(%{{.+}}) ins(%[[G]], %{{.+}} : tensor<4xf32>, tensor<1xi64>) outs(%{{.+}}, %{{.+}} : tensor<2xf32>, tensor<2xi64>) {largest = false} : tensor<2xf32>, tensor<2xi64>
// CHECK:         return %[[K]]#0
func.func @tensor_kernels(%ctx: !hip.context, %x: tensor<4xf32>, %e: tensor<4xf32>, %k: tensor<1xi64>, %v: tensor<2xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %s = hip.silu(%ctx) ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = hip.mul(%ctx) ins(%s, %s : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = hip.sigmoid(%ctx) ins(%m : tensor<4xf32>) outs(%e : tensor<4xf32>) : tensor<4xf32>
  %vals, %idx = hip.top_k(%ctx) ins(%g, %k : tensor<4xf32>, tensor<1xi64>) outs(%v, %i : tensor<2xf32>, tensor<2xi64>) {largest = false} : tensor<2xf32>, tensor<2xi64>
  return %vals : tensor<2xf32>
}

// -----

// Attention with hip-ep's operand layout: gqa's optional past and cache inputs,
// three outputs.
// CHECK-LABEL: func.func @gqa
// CHECK:         hip.gqa(%{{.+}}) ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : memref<1x1x512xf16>, memref<1x1x128xf16>, memref<1x1x128xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1xi32>, memref<i32>) outs(%{{.+}}, %{{.+}}, %{{.+}} : memref<1x1x512xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) {kv_num_heads = 2 : i64, num_heads = 8 : i64}
func.func @gqa(%ctx: !hip.context, %q: memref<1x1x512xf16>, %k: memref<1x1x128xf16>, %v: memref<1x1x128xf16>, %pk: memref<1x2x64x64xf16>, %pv: memref<1x2x64x64xf16>, %sl: memref<1xi32>, %tl: memref<i32>, %o: memref<1x1x512xf16>) {
  hip.gqa(%ctx) ins(%q, %k, %v, %pk, %pv, %sl, %tl : memref<1x1x512xf16>, memref<1x1x128xf16>, memref<1x1x128xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1xi32>, memref<i32>) outs(%o, %pk, %pv : memref<1x1x512xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) {num_heads = 8 : i64, kv_num_heads = 2 : i64}
  return
}

// -----

// A fused hipDNN graph called by id, and its outlined form before compilation.
// CHECK-LABEL: func.func @hipdnn_graphs
// CHECK:         hip.hipdnn_graph(%{{.+}}) graph_id(7) ins(%{{.+}} : memref<4xf32>) outs(%{{.+}} : memref<4xf32>) {input_uids = [1], output_uids = [2]}
// CHECK:         %[[R:.+]] = hip.hipdnn_graph_outline ins(%{{.+}} : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^{{.+}}(%[[X:.+]]: tensor<4xf32>):
// CHECK-NEXT:      hip.yield %[[X]] : tensor<4xf32>
// CHECK-NEXT:    }
func.func @hipdnn_graphs(%ctx: !hip.context, %m: memref<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  hip.hipdnn_graph(%ctx) graph_id(7) ins(%m : memref<4xf32>) outs(%m : memref<4xf32>) {input_uids = [1], output_uids = [2]}
  %r = hip.hipdnn_graph_outline ins(%t : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hip.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Library graphs: one block of ops, no terminator.
// CHECK-LABEL: func.func @library_graphs
// CHECK:         hip.miopen.graph {
// CHECK-NEXT:      hip.miopen.add
// CHECK-NEXT:    } {fused = true}
// CHECK:         hip.hipblaslt.graph {
// CHECK-NEXT:      hip.matmul
// CHECK-NEXT:    }
func.func @library_graphs(%ctx: !hip.context, %a: memref<4x4xf32>) {
  hip.miopen.graph {
    hip.miopen.add(%ctx) ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  } {fused = true}
  hip.hipblaslt.graph {
    hip.matmul(%ctx) ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  }
  return
}

// -----

// Outlined control flow in memref mode (no results) and tensor mode.
// CHECK-LABEL: func.func @outlined_control_flow
// CHECK:         hip.loop(%{{.+}}, %{{.+}}, %{{.+}}) iter_args(%{{.+}} : memref<16xf32>) captures(%{{.+}} : memref<16xf32>) body @body {cond_is_passthrough, num_loop_carried = 1 : i32}
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) body @body {num_loop_carried = 0 : i32}
// CHECK:         %{{.+}} = hip.loop(%{{.+}}, %{{.+}}) iter_args(%{{.+}} : tensor<16xf32>) -> (tensor<16xf32>) body @body {num_loop_carried = 1 : i32}
// CHECK:         hip.if(%{{.+}}, %{{.+}}) outs(%{{.+}} : memref<16xf32>) captures(%{{.+}}, %{{.+}} : memref<16xf32>, index) then @then else @else {num_outputs = 1 : i32}
// CHECK:         %{{.+}} = hip.if(%{{.+}}, %{{.+}}) outs(%{{.+}} : tensor<16xf32>) -> (tensor<16xf32>) then @then else @else {num_outputs = 1 : i32}
func.func @outlined_control_flow(%ctx: !hip.context, %n: index, %c: i1, %v: memref<16xf32>, %w: memref<16xf32>, %t: tensor<16xf32>) -> tensor<16xf32> {
  hip.loop(%ctx, %n, %c) iter_args(%v : memref<16xf32>) captures(%w : memref<16xf32>) body @body {num_loop_carried = 1 : i32, cond_is_passthrough}
  hip.loop(%ctx, %n) body @body {num_loop_carried = 0 : i32}
  %r = hip.loop(%ctx, %n) iter_args(%t : tensor<16xf32>) -> (tensor<16xf32>) body @body {num_loop_carried = 1 : i32}
  hip.if(%ctx, %c) outs(%v : memref<16xf32>) captures(%w, %n : memref<16xf32>, index) then @then else @else {num_outputs = 1 : i32}
  %s = hip.if(%ctx, %c) outs(%r : tensor<16xf32>) -> (tensor<16xf32>) then @then else @else {num_outputs = 1 : i32}
  return %s : tensor<16xf32>
}
func.func private @body(!hip.context, memref<i64>, memref<i1>, memref<16xf32>, memref<16xf32>)
func.func private @then(!hip.context, memref<16xf32>)
func.func private @else(!hip.context, memref<16xf32>)

// -----

// Runtime memory, graph outputs, read-backs and constants.
// CHECK-LABEL: func.func @runtime
// CHECK:         hip.get_pool(%{{.+}}, %{{.+}}) : memref<?xi8>
// CHECK:         hip.get_pool(%{{.+}}, %{{.+}}) {domain_id = 3 : i64} : memref<?xi8>
// CHECK:         hip.get_host_scratch(%{{.+}}, %{{.+}}) : memref<?xi8>
// CHECK:         %[[X:.+]] = hip.alloc(%{{.+}}, %{{.+}}) {alignment = 256 : i64} : memref<?x128xf32>
// CHECK:         hip.free(%{{.+}}, %[[X]]) : memref<?x128xf32>
// CHECK:         %[[O:.+]] = hip.alloc_output(%{{.+}}, %{{.+}}) {out_idx = 0 : i64} : memref<?x4xf16>
// CHECK:         hip.readback_scalar(%{{.+}}, %{{.+}} : memref<i64>) -> i64
// CHECK:         hip.readback_dim(%{{.+}}, %{{.+}} : memref<i32>) -> index
// CHECK:         memplan.synchronize(%{{.+}})
// CHECK:         hip.get_constant(%{{.+}}, %{{.+}}) : memref<4xf32>
// CHECK:         hip.constant {value = dense<1.000000e+00> : tensor<4xf32>} : tensor<4xf32>
// CHECK:         hip.constant {location = "w.bin", offset = 0 : i64, size = 16 : i64} : tensor<4xf32>
func.func @runtime(%ctx: !hip.context, %n: index, %s: memref<i64>, %d: memref<i32>, %i: i64) -> memref<?x4xf16> {
  %p = hip.get_pool(%ctx, %n) : memref<?xi8>
  %p3 = hip.get_pool(%ctx, %n) {domain_id = 3 : i64} : memref<?xi8>
  %h = hip.get_host_scratch(%ctx, %n) : memref<?xi8>
  %x = hip.alloc(%ctx, %n) {alignment = 256 : i64} : memref<?x128xf32>
  hip.free(%ctx, %x) : memref<?x128xf32>
  %o = hip.alloc_output(%ctx, %n) {out_idx = 0 : i64} : memref<?x4xf16>
  %v = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
  %e = hip.readback_dim(%ctx, %d : memref<i32>) -> index
  memplan.synchronize(%ctx)
  %g = hip.get_constant(%ctx, %i) : memref<4xf32>
  %c1 = hip.constant {value = dense<1.0> : tensor<4xf32>} : tensor<4xf32>
  %c2 = hip.constant {location = "w.bin", offset = 0 : i64, size = 16 : i64} : tensor<4xf32>
  return %o : memref<?x4xf16>
}

// -----

// memplan's own memplan.launch, for kernels no dialect lists: empty ins left out,
// nested symbols, tensor results after `->`.
// CHECK-LABEL: func.func @launch
// CHECK:         memplan.launch @fused(%{{.+}}) ins(%{{.+}} : memref<?x8xf32, strided<[8, 1], offset: ?>>) outs(%{{.+}} : memref<4xf32>) {block = 256 : i64}
// CHECK:         memplan.launch @"lib-v2"::@kernel(%{{.+}}) outs(%{{.+}} : memref<4xf32>)
// CHECK:         memplan.launch @k(%{{.+}}) ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>) -> tensor<4xf32>
func.func @launch(%ctx: !hip.context, %a: memref<?x8xf32, strided<[8, 1], offset: ?>>, %b: memref<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  memplan.launch @fused(%ctx) ins(%a : memref<?x8xf32, strided<[8, 1], offset: ?>>) outs(%b : memref<4xf32>) {block = 256 : i64}
  memplan.launch @"lib-v2"::@kernel(%ctx) outs(%b : memref<4xf32>)
  %r = memplan.launch @k(%ctx) ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The generic form reads as well, inherent attributes as properties.
// CHECK-LABEL: func.func @generic
// CHECK:         hip.gather(%{{.+}}) ins(%{{.+}}, %{{.+}} : memref<4xf32>, memref<1xi64>) outs(%{{.+}} : memref<1xf32>) {tag = 1 : i64}{{$}}
// CHECK:         hip.readback_scalar(%{{.+}}, %{{.+}} : memref<1xi64>) -> i64
// CHECK:         hip.loop(%{{.+}}, %{{.+}}) body @f {num_loop_carried = 0 : i32}
func.func @generic(%ctx: !hip.context, %a: memref<4xf32>, %i: memref<1xi64>, %o: memref<1xf32>, %n: index) {
  "hip.gather"(%ctx, %a, %i, %o) <{axis = 0 : i64}> {tag = 1 : i64} : (!hip.context, memref<4xf32>, memref<1xi64>, memref<1xf32>) -> ()
  %v = "hip.readback_scalar"(%ctx, %i) : (!hip.context, memref<1xi64>) -> i64
  "hip.loop"(%ctx, %n) <{body_func = @f, num_loop_carried = 0 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!hip.context, index) -> ()
  return
}
func.func private @f(!hip.context)
