// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// Each case is IR that hip-ep would reject, one mistake away from valid IR, but the
// cases marked STRICTER: hip-ep accepts them and memplan does not, for the reason
// docs/design/dialect-hip.md gives ("Where memplan is stricter than hip-ep").

func.func @kernel_mixed_modes(%ctx: !hip.context, %a: memref<4xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'hip.add' op all data operands must be the same kind (all tensor or all memref)}}
  hip.add(%ctx) ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%a : memref<4xf32>)
  func.return
}

// -----

func.func @kernel_result_type_differs_from_its_destination(%ctx: !hip.context, %t: tensor<4xf32>) {
  // expected-error @+1 {{'hip.sigmoid' op expected type of operand #2 ('tensor<4xf32>') to match type of corresponding result ('tensor<8xf32>')}}
  %r = hip.sigmoid(%ctx) ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) : tensor<8xf32>
  func.return
}

// -----

func.func @rope_without_position_ids(%ctx: !hip.context, %q: memref<1x8x64xf16>, %cos: memref<32x32xf16>) {
  // expected-error @+1 {{'hip.rope' expects 4 operand(s) in 'ins', got 3}}
  hip.rope(%ctx) ins(%q, %cos, %cos : memref<1x8x64xf16>, memref<32x32xf16>, memref<32x32xf16>) outs(%q : memref<1x8x64xf16>) {interleaved = 0 : i64, num_heads = 8 : i64, rotary_embedding_dim = 64 : i64}
  func.return
}

// -----

func.func @empty_outs(%ctx: !hip.context, %a: memref<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  hip.hipdnn_graph(%ctx) graph_id(1) ins(%a : memref<4xf32>) outs() {input_uids = [1], output_uids = []}
  func.return
}

// -----

func.func @tensor_kernel_without_result(%ctx: !hip.context, %t: tensor<4xf32>) {
  // expected-error @+1 {{'hip.silu' op tensor mode requires 1 result(s), got 0}}
  "hip.silu"(%ctx, %t, %t) : (!hip.context, tensor<4xf32>, tensor<4xf32>) -> ()
  func.return
}

// -----

func.func @tensor_kernel_extra_result(%ctx: !hip.context, %t: tensor<4xf32>) {
  // expected-error @+1 {{'hip.sigmoid' op expected the number of tensor results (2) to be equal to the number of output tensors (1)}}
  %r:2 = hip.sigmoid(%ctx) ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) : tensor<4xf32>, tensor<4xf32>
  func.return
}

// -----

func.func @memref_kernel_with_result(%ctx: !hip.context, %a: memref<4xf32>) {
  // expected-error @+1 {{'hip.silu' op memref mode must have zero results, got 1}}
  %r = "hip.silu"(%ctx, %a, %a) : (!hip.context, memref<4xf32>, memref<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @kernel_scalar_operand(%ctx: !hip.context, %x: f32, %a: memref<4xf32>) {
  // expected-error @+1 {{'hip.neg' op operand #1 must be ranked tensor or memref, but got 'f32'}}
  hip.neg(%ctx) ins(%x : f32) outs(%a : memref<4xf32>)
  func.return
}

// -----

func.func @kernel_attribute_type(%ctx: !hip.context, %a: memref<4xf32>, %i: memref<1xi64>) {
  // expected-error @+1 {{'hip.gather' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  hip.gather(%ctx) ins(%a, %i : memref<4xf32>, memref<1xi64>) outs(%a : memref<4xf32>) {axis = 1.0 : f32}
  func.return
}

// -----

func.func @launch_without_outs(%ctx: !hip.context, %a: memref<4xf32>) {
  // expected-error @+1 {{'memplan.launch' op expects at least 1 outs operand, but got 0}}
  "memplan.launch"(%ctx, %a) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!hip.context, memref<4xf32>) -> ()
  func.return
}

// -----

func.func @alloc_output_sizes(%ctx: !hip.context) {
  // expected-error @+1 {{'hip.alloc_output' op expected 1 dynamic size operand(s), got 0}}
  %o = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<?x4xf16>
  func.return
}

// -----

func.func @readback_dim_result(%ctx: !hip.context, %s: memref<i32>) {
  // expected-error @+1 {{'hip.readback_dim' op result #0 must be index, but got 'i32'}}
  %n = hip.readback_dim(%ctx, %s : memref<i32>) -> i32
  func.return
}

// -----

func.func @readback_scalar_result(%ctx: !hip.context, %s: memref<i32>) {
  // expected-error @+1 {{'hip.readback_scalar' op result #0 must be integer or floating-point or index, but got 'memref<i32>'}}
  %v = hip.readback_scalar(%ctx, %s : memref<i32>) -> memref<i32>
  func.return
}

// -----

func.func @loop_carried_count(%ctx: !hip.context, %n: index, %v: memref<4xf32>) {
  // expected-error @+1 {{'hip.loop' op num_loop_carried (2) must equal the v_init operand count (1)}}
  hip.loop(%ctx, %n) iter_args(%v : memref<4xf32>) body @body {num_loop_carried = 2 : i32}
  func.return
}
func.func private @body(!hip.context)

// -----

func.func @loop_tensor_results(%ctx: !hip.context, %n: index, %v: tensor<4xf32>) {
  // expected-error @+1 {{'hip.loop' op tensor mode: num_loop_carried (1) must equal the result count (0)}}
  hip.loop(%ctx, %n) iter_args(%v : tensor<4xf32>) body @body {num_loop_carried = 1 : i32}
  func.return
}
func.func private @body(!hip.context)

// -----

func.func @loop_memref_results(%ctx: !hip.context, %n: index, %v: memref<4xf32>) {
  // expected-error @+1 {{'hip.loop' op memref mode must have zero results, got 1}}
  %r = "hip.loop"(%ctx, %n, %v) <{body_func = @body, num_loop_carried = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>}> : (!hip.context, index, memref<4xf32>) -> tensor<4xf32>
  func.return
}
func.func private @body(!hip.context)

// -----

func.func @if_result_type(%ctx: !hip.context, %c: i1, %v: tensor<4xf32>) {
  // expected-error @+1 {{'hip.if' op result type #0 ('tensor<8xf32>') must match o_init type #0 ('tensor<4xf32>')}}
  %r = hip.if(%ctx, %c) outs(%v : tensor<4xf32>) -> (tensor<8xf32>) then @t else @e {num_outputs = 1 : i32}
  func.return
}

// -----

func.func @if_output_count(%ctx: !hip.context, %c: i1, %v: memref<4xf32>) {
  // expected-error @+1 {{'hip.if' op num_outputs (0) must equal the o_init operand count (1)}}
  hip.if(%ctx, %c) outs(%v : memref<4xf32>) then @t else @e {num_outputs = 0 : i32}
  func.return
}

// -----

func.func @yield_outside_outline(%t: tensor<4xf32>) {
  // expected-error @+1 {{expects parent op 'hip.hipdnn_graph_outline'}}
  hip.yield %t : tensor<4xf32>
}

// -----

func.func @constant_size(%ctx: !hip.context) {
  // expected-error @+1 {{'hip.constant' op external source byte size 12 does not match result byte size 16}}
  %c = hip.constant {location = "w.bin", offset = 0 : i64, size = 12 : i64} : tensor<4xf32>
  func.return
}

// -----

func.func @constant_without_source() {
  // expected-error @+1 {{'hip.constant' op requires exactly one source: `value`, complete file source, or complete memory source}}
  %c = hip.constant : tensor<4xf32>
  func.return
}

// -----

func.func @constant_value_type() {
  // expected-error @+1 {{'hip.constant' op inline `value` type 'tensor<2xf32>' does not match result type 'tensor<4xf32>'}}
  %c = hip.constant {value = dense<1.0> : tensor<2xf32>} : tensor<4xf32>
  func.return
}

// -----

func.func @kernel_context(%x: index, %a: memref<4xf32>) {
  // expected-error @+1 {{'hip.silu' op operand #0 must be !hip.context, but got index}}
  "hip.silu"(%x, %a, %a) : (index, memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// -----

// STRICTER: a pool domain indexes the runtime's pool table.
func.func @negative_domain(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.get_pool' op domain_id must be non-negative, but got -1}}
  %p = hip.get_pool(%ctx, %n) {domain_id = -1 : i64} : memref<?xi8>
  func.return
}

// -----

// STRICTER: the passes view planned buffers into the pool's bytes.
func.func @pool_not_bytes(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.get_pool' op result must be a 1-D memref of i8 with the identity layout (memref<?xi8>), but got memref<?xf32>}}
  %p = hip.get_pool(%ctx, %n) : memref<?xf32>
  func.return
}

// -----

// STRICTER: the passes view host scalars into the scratch's bytes.
func.func @scratch_rank(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.get_host_scratch' op result must be a 1-D memref of i8}}
  %s = hip.get_host_scratch(%ctx, %n) : memref<2x?xi8>
  func.return
}

// -----

func.func @pool_size_type(%ctx: !hip.context, %n: i64) {
  // expected-error @+1 {{'hip.get_pool' op size operand must be index, but got i64}}
  %p = "hip.get_pool"(%ctx, %n) : (!hip.context, i64) -> memref<?xi8>
  func.return
}

// -----

// STRICTER: a plan needs every dynamic size.
func.func @alloc_missing_size(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.alloc' op has 1 dynamic size operands but its result type memref<?x?xf32> has 2 dynamic dimensions}}
  %x = hip.alloc(%ctx, %n) : memref<?x?xf32>
  func.return
}

// -----

// STRICTER: a plan needs every dynamic size.
func.func @alloc_extra_size(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.alloc' op has 1 dynamic size operands but its result type memref<128xf32> has 0 dynamic dimensions}}
  %x = hip.alloc(%ctx, %n) : memref<128xf32>
  func.return
}

// -----

func.func @alloc_not_memref(%ctx: !hip.context) {
  // expected-error @+1 {{'hip.alloc' op result must be a ranked memref, but got tensor<4xf32>}}
  %x = hip.alloc(%ctx) : tensor<4xf32>
  func.return
}

// -----

func.func @free_not_memref(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.free' op operand #1 must be a ranked memref, but got index}}
  hip.free(%ctx, %n) : index
  func.return
}

// -----

func.func @synchronize_context(%x: i32) {
  // expected-error @+1 {{'memplan.synchronize' op operand #0 must be !hip.context, but got i32}}
  "memplan.synchronize"(%x) : (i32) -> ()
  func.return
}

// -----

func.func @context_used_as_index(%ctx: !hip.context) {
  // expected-error @+1 {{operand is used with type index, but has been previously used or defined with type !hip.context}}
  %p = hip.get_pool(%ctx, %ctx) : memref<?xi8>
  func.return
}

// -----

func.func @constant_i1_size() {
  // expected-error @+1 {{'hip.constant' op external source byte size 1 does not match result byte size 4}}
  %c = hip.constant {location = "m.bin", offset = 8 : i64, size = 1 : i64} : tensor<4xi1>
  func.return
}

// -----

func.func @constant_f16_size() {
  // expected-error @+1 {{'hip.constant' op external source byte size 6 does not match result byte size 12}}
  %c = hip.constant {memory_address = 64 : i64, size = 6 : i64} : tensor<2x3xf16>
  func.return
}

// -----

func.func @constant_resource_value() {
  // expected-error @+1 {{'hip.constant' op inline `value` must be a DenseElementsAttr}}
  %c = hip.constant {value = dense_resource<blob> : tensor<2xi8>} : tensor<2xi8>
  func.return
}

// -----

func.func @loop_body_missing(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.loop' op body_func 'absent' does not reference a func.func}}
  hip.loop(%ctx, %n) body @absent {num_loop_carried = 0 : i32}
  func.return
}

// -----

func.func @if_else_missing(%ctx: !hip.context, %c: i1) {
  // expected-error @+1 {{'hip.if' op else_func 'absent' does not reference a func.func}}
  hip.if(%ctx, %c) then @if_else_missing else @absent {num_outputs = 0 : i32}
  func.return
}
