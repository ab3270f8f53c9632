// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// Each case is IR that hip-ep would reject, one mistake away from valid IR.

func.func @kernel_arity(%ctx: !hip.context, %a: memref<4xf32>) {
  // expected-error @+1 {{'hip.add' op expects 2 ins operands, but got 1}}
  hip.add(%ctx) ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  func.return
}

// -----

func.func @kernel_arity_range(%ctx: !hip.context, %a: memref<4x4xf32>) {
  // expected-error @+1 {{'hip.matmul' op expects 2 to 3 ins operands, but got 4}}
  hip.matmul(%ctx) ins(%a, %a, %a, %a : memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  func.return
}

// -----

func.func @kernel_two_outs(%ctx: !hip.context, %a: memref<8xf32>, %v: memref<4xf32>) {
  // expected-error @+1 {{'hip.topk' op expects 2 outs operands, but got 1}}
  hip.topk(%ctx) ins(%a : memref<8xf32>) outs(%v : memref<4xf32>) {k = 4 : i64}
  func.return
}

// -----

func.func @launch_without_outs(%ctx: !hip.context, %a: memref<4xf32>) {
  // expected-error @+1 {{'hip.launch' op expects at least 1 outs operand, but got 0}}
  hip.launch @k(%ctx) ins(%a : memref<4xf32>) outs()
  func.return
}

// -----

func.func @kernel_ins_not_memref(%ctx: !hip.context, %a: memref<4xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'hip.relu' op ins operand #0 must be a ranked memref, but got tensor<4xf32>}}
  hip.relu(%ctx) ins(%t : tensor<4xf32>) outs(%a : memref<4xf32>)
  func.return
}

// -----

func.func @kernel_outs_unranked(%ctx: !hip.context, %a: memref<4xf32>, %u: memref<*xf32>) {
  // expected-error @+1 {{'hip.exp' op outs operand #0 must be a ranked memref, but got memref<*xf32>}}
  hip.exp(%ctx) ins(%a : memref<4xf32>) outs(%u : memref<*xf32>)
  func.return
}

// -----

func.func @kernel_element_types(%ctx: !hip.context, %a: memref<4xf32>, %h: memref<4xf16>) {
  // expected-error @+1 {{'hip.mul' op expects all ins and outs to have the same element type, but got f32 and f16}}
  hip.mul(%ctx) ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%h : memref<4xf16>)
  func.return
}

// -----

func.func @compare_element_types(%ctx: !hip.context, %a: memref<4xf32>, %h: memref<4xf16>, %m: memref<4xi1>) {
  // expected-error @+1 {{'hip.greater' op expects all ins to have the same element type, but got f32 and f16}}
  hip.greater(%ctx) ins(%a, %h : memref<4xf32>, memref<4xf16>) outs(%m : memref<4xi1>)
  func.return
}

// -----

func.func @kernel_context(%x: index, %a: memref<4xf32>) {
  // expected-error @+1 {{'hip.silu' op operand #0 must be !hip.context, but got index}}
  "hip.silu"(%x, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (index, memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// -----

func.func @negative_domain(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.get_pool' op domain_id must be non-negative, but got -1}}
  %p = hip.get_pool(%ctx, %n) {domain_id = -1 : i64} : memref<?xi8>
  func.return
}

// -----

func.func @pool_not_bytes(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.get_pool' op result must be a 1-D memref of i8 with the identity layout (memref<?xi8>), but got memref<?xf32>}}
  %p = hip.get_pool(%ctx, %n) : memref<?xf32>
  func.return
}

// -----

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

func.func @alloc_missing_size(%ctx: !hip.context, %n: index) {
  // expected-error @+1 {{'hip.alloc' op has 1 dynamic size operands but its result type memref<?x?xf32> has 2 dynamic dimensions}}
  %x = hip.alloc(%ctx, %n) : memref<?x?xf32>
  func.return
}

// -----

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
  // expected-error @+1 {{'hip.synchronize' op operand #0 must be !hip.context, but got i32}}
  "hip.synchronize"(%x) : (i32) -> ()
  func.return
}

// -----

func.func @ins_types_count(%ctx: !hip.context, %a: memref<4xf32>) {
  // expected-error @+1 {{'ins' has 2 operands but 1 types}}
  hip.add(%ctx) ins(%a, %a : memref<4xf32>) outs(%a : memref<4xf32>)
  func.return
}

// -----

func.func @context_used_as_index(%ctx: !hip.context) {
  // expected-error @+1 {{operand is used with type index, but has been previously used or defined with type !hip.context}}
  %p = hip.get_pool(%ctx, %ctx) : memref<?xi8>
  func.return
}
