// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// Kernel attributes as HipOps.td declares them (required unless optional or
// default-valued, each of its declared kind), and the kernel verifiers of hip-ep's
// HipDialect.cpp, in their words. Each case is one mistake away from valid IR.

func.func @cast_without_to(%ctx: !hip.context, %a: memref<4xi64>, %b: memref<4xf32>) {
  // expected-error @+1 {{'hip.cast' op requires attribute 'to'}}
  hip.cast(%ctx) ins(%a : memref<4xi64>) outs(%b : memref<4xf32>)
  func.return
}

// -----

func.func @cast_without_to_generic(%ctx: !hip.context, %a: memref<4xi64>, %b: memref<4xf32>) {
  // expected-error @+1 {{'hip.cast' op requires attribute 'to'}}
  "hip.cast"(%ctx, %a, %b) {note = 1 : i64} : (!hip.context, memref<4xi64>, memref<4xf32>) -> ()
  func.return
}

// -----

func.func @cast_to_of_the_wrong_width(%ctx: !hip.context, %a: memref<4xi64>, %b: memref<4xf32>) {
  // expected-error @+1 {{'hip.cast' op attribute 'to' failed to satisfy constraint: 64-bit signless integer attribute}}
  "hip.cast"(%ctx, %a, %b) <{to = 1 : i32}> : (!hip.context, memref<4xi64>, memref<4xf32>) -> ()
  func.return
}

// -----

func.func @rms_norm_without_epsilon(%ctx: !hip.context, %x: memref<2x8xf16>, %w: memref<8xf16>) {
  // expected-error @+1 {{'hip.rms_norm' op requires attribute 'epsilon'}}
  hip.rms_norm(%ctx) ins(%x, %w : memref<2x8xf16>, memref<8xf16>) outs(%x : memref<2x8xf16>) {axis = -1 : i64, stash_type = 1 : i64}
  func.return
}

// -----

func.func @leaky_relu_alpha_is_f64(%ctx: !hip.context, %x: memref<8xf32>) {
  // expected-error @+1 {{'hip.leaky_relu' op attribute 'alpha' failed to satisfy constraint: 64-bit float attribute}}
  hip.leaky_relu(%ctx) ins(%x : memref<8xf32>) outs(%x : memref<8xf32>) {alpha = 2.000000e-01 : f32}
  func.return
}

// -----

func.func @conv_kernel_shape_of_floats(%ctx: !hip.context, %x: memref<1x1x4x4xf32>, %w: memref<1x1x3x3xf32>, %y: memref<1x1x2x2xf32>) {
  // expected-error @+1 {{'hip.conv' op attribute 'kernel_shape' failed to satisfy constraint: 64-bit integer array attribute}}
  hip.conv(%ctx) ins(%x, %w : memref<1x1x4x4xf32>, memref<1x1x3x3xf32>) outs(%y : memref<1x1x2x2xf32>) {dilations = [1, 1], group = 1 : i64, kernel_shape = [3.0, 3.0], pads = [0, 0, 0, 0], strides = [1, 1]}
  func.return
}

// -----

func.func @conv_without_group(%ctx: !hip.context, %x: memref<1x1x4x4xf32>, %w: memref<1x1x3x3xf32>, %y: memref<1x1x2x2xf32>) {
  // expected-error @+1 {{'hip.conv' op requires attribute 'group'}}
  hip.conv(%ctx) ins(%x, %w : memref<1x1x4x4xf32>, memref<1x1x3x3xf32>) outs(%y : memref<1x1x2x2xf32>) {dilations = [1, 1], kernel_shape = [3, 3], pads = [0, 0, 0, 0], strides = [1, 1]}
  func.return
}

// -----

func.func @unit_flags_are_optional(%ctx: !hip.context, %d: memref<16x8xi8>, %i: memref<2xi64>, %s: memref<16x1xf16>, %o: memref<2x8xf16>) {
  hip.gather_block_quantized(%ctx) ins(%d, %i, %s : memref<16x8xi8>, memref<2xi64>, memref<16x1xf16>) outs(%o : memref<2x8xf16>) {bits = 4 : i64, block_size = 16 : i64, gather_axis = 0 : i64, quantize_axis = 1 : i64}
  func.return
}

// -----

func.func @transpose_perm_too_short(%ctx: !hip.context, %a: memref<2x3x4xf32>, %b: memref<3x2x4xf32>) {
  // expected-error @+1 {{'hip.transpose' op perm length (2) must match input rank (3)}}
  hip.transpose(%ctx) ins(%a : memref<2x3x4xf32>) outs(%b : memref<3x2x4xf32>) {perm = [1, 0]}
  func.return
}

// -----

func.func @transpose_perm_out_of_range(%ctx: !hip.context, %a: memref<2x3xf32>, %b: memref<3x2xf32>) {
  // expected-error @+1 {{'hip.transpose' op perm value 2 is out of range}}
  hip.transpose(%ctx) ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>) {perm = [2, 0]}
  func.return
}

// -----

func.func @transpose_perm_repeats(%ctx: !hip.context, %a: memref<2x3xf32>, %b: memref<3x2xf32>) {
  // expected-error @+1 {{'hip.transpose' op perm must be a permutation (duplicate value 1)}}
  hip.transpose(%ctx) ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>) {perm = [1, 1]}
  func.return
}

// -----

func.func @transpose_without_perm(%ctx: !hip.context, %a: memref<2x3xf32>, %b: memref<3x2xf32>) {
  // expected-error @+1 {{'hip.transpose' op requires attribute 'perm'}}
  hip.transpose(%ctx) ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>)
  func.return
}

// -----

func.func @gqa_without_heads(%ctx: !hip.context, %q: memref<1x1x64xf16>, %s: memref<1xi32>, %t: memref<i32>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xf16>) {
  // expected-error @+1 {{'hip.gqa' op requires attribute 'kv_num_heads'}}
  hip.gqa(%ctx) ins(%q, %q, %q, %k, %k, %s, %t : memref<1x1x64xf16>, memref<1x1x64xf16>, memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>, memref<1xi32>, memref<i32>) outs(%o, %k, %k : memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>) {num_heads = 8 : i64}
  func.return
}

// -----

func.func @gqa_quantized_keys_without_scale(%ctx: !hip.context, %q: memref<1x1x64xf16>, %kv: memref<1x1x8xi8>, %s: memref<1xi32>, %t: memref<i32>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xi8>) {
  // expected-error @+1 {{'hip.gqa' op k_quant_type is 'PER_TENSOR' but k_scale is not provided}}
  hip.gqa(%ctx) ins(%q, %kv, %kv, %k, %k, %s, %t : memref<1x1x64xf16>, memref<1x1x8xi8>, memref<1x1x8xi8>, memref<1x1x8x8xi8>, memref<1x1x8x8xi8>, memref<1xi32>, memref<i32>) outs(%o, %k, %k : memref<1x1x64xf16>, memref<1x1x8x8xi8>, memref<1x1x8x8xi8>) {k_quant_type = "PER_TENSOR", kv_num_heads = 1 : i64, num_heads = 8 : i64}
  func.return
}

// -----

func.func @gqa_unknown_quant_type(%ctx: !hip.context, %q: memref<1x1x64xf16>, %kv: memref<1x1x8xf16>, %s: memref<1xi32>, %t: memref<i32>, %x: memref<4xf16>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xf16>) {
  // query, key, value, past_key, past_value, seqlens_k, total_seq_len, cos_cache,
  // sin_cache, position_ids, attention_bias, head_sink, k_scale, v_scale:
  // expected-error @+1 {{'hip.gqa' op v_quant_type must be 'NONE', 'PER_TENSOR', or 'PER_CHANNEL', got 'none'}}
  hip.gqa(%ctx) ins(%q, %kv, %kv, %k, %k, %s, %t, %x, %x, %x, %x, %x, %x, %x : memref<1x1x64xf16>, memref<1x1x8xf16>, memref<1x1x8xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>, memref<1xi32>, memref<i32>, memref<4xf16>, memref<4xf16>, memref<4xf16>, memref<4xf16>, memref<4xf16>, memref<4xf16>, memref<4xf16>) outs(%o, %k, %k : memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>) {kv_num_heads = 1 : i64, num_heads = 8 : i64, v_quant_type = "none"}
  func.return
}

// -----

func.func @gqa_kv_cache_of_six_bits(%ctx: !hip.context, %q: memref<1x1x64xf16>, %s: memref<1xi32>, %t: memref<i32>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xf16>) {
  // expected-error @+1 {{'hip.gqa' op kv_cache_bit_width must be 4 or 8, got 6}}
  hip.gqa(%ctx) ins(%q, %q, %q, %k, %k, %s, %t : memref<1x1x64xf16>, memref<1x1x64xf16>, memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>, memref<1xi32>, memref<i32>) outs(%o, %k, %k : memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>) {kv_cache_bit_width = 6 : i64, kv_num_heads = 1 : i64, num_heads = 8 : i64}
  func.return
}

// -----

func.func @gqa_qk_output_without_buffer(%ctx: !hip.context, %q: memref<1x1x64xf16>, %s: memref<1xi32>, %t: memref<i32>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xf16>) {
  // expected-error @+1 {{'hip.gqa' op qk_output is 1 but output_qk buffer is not provided}}
  hip.gqa(%ctx) ins(%q, %q, %q, %k, %k, %s, %t : memref<1x1x64xf16>, memref<1x1x64xf16>, memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>, memref<1xi32>, memref<i32>) outs(%o, %k, %k : memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>) {kv_num_heads = 1 : i64, num_heads = 8 : i64, qk_output = 1 : i64}
  func.return
}

// -----

func.func @gqa_cos_cache_without_sin_cache(%ctx: !hip.context, %q: memref<1x1x64xf16>, %kv: memref<1x1x8xf16>, %s: memref<1xi32>, %t: memref<i32>, %c: memref<16x4xf16>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xf16>) {
  // expected-error @+1 {{'hip.gqa' op cos_cache and sin_cache must both be provided or both be omitted (found cos_cache=present, sin_cache=absent)}}
  hip.gqa(%ctx) ins(%q, %kv, %kv, %k, %k, %s, %t, %c : memref<1x1x64xf16>, memref<1x1x8xf16>, memref<1x1x8xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>, memref<1xi32>, memref<i32>, memref<16x4xf16>) outs(%o, %k, %k : memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>) {do_rotary = 1 : i64, kv_num_heads = 1 : i64, num_heads = 8 : i64}
  func.return
}

// -----

func.func @gqa_key_without_value(%ctx: !hip.context, %q: memref<1x1x64xf16>, %kv: memref<1x1x8xf16>, %s: memref<1xi32>, %t: memref<i32>, %o: memref<1x1x64xf16>, %k: memref<1x1x8x8xf16>) {
  // A key without a value can be written only in the generic form: hip-ep's format
  // takes key, value, past_key and past_value whenever values follow.
  // expected-error @+1 {{'hip.gqa' op key and value must both be provided or both be omitted (found key=present, value=absent)}}
  "hip.gqa"(%ctx, %q, %kv, %s, %t, %o, %k, %k) <{kv_num_heads = 1 : i64, num_heads = 8 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0>}> : (!hip.context, memref<1x1x64xf16>, memref<1x1x8xf16>, memref<1xi32>, memref<i32>, memref<1x1x64xf16>, memref<1x1x8x8xf16>, memref<1x1x8x8xf16>) -> ()
  func.return
}
