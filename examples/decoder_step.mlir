// One decode step of a small GQA decoder, as hip-ep lowers it before memory
// planning: every intermediate is a `memref.alloc`, the host feeds the sequence
// lengths through small buffers that kernels read asynchronously, and the host reads
// the sampled token back with hip-ep's synchronizing `hip.readback_scalar`.
// hip-ep's own `hip-mlir-opt` reads it unchanged.
//
//   memplan-opt examples/decoder_step.mlir -p hip-memory-plan
func.func @decode_step(%ctx: !hip.context, %token: memref<1x1xi64>, %embed: memref<32000x512xf16>,
                       %norm_w: memref<512xf16>, %wqkv: memref<512x1024xf16>, %wo: memref<512x512xf16>,
                       %w_up: memref<512x1408xf16>, %w_down: memref<1408x512xf16>,
                       %cos: memref<2048x32xf16>, %sin: memref<2048x32xf16>,
                       %k_cache: memref<2048x4x64xf16>, %v_cache: memref<2048x4x64xf16>,
                       %past_len: i64, %step_len: i64) -> memref<1xi64> {
  %c0 = arith.constant 0 : index

  // Host-fed scalars: the total and the step sequence length (the seed's race).
  %total_len = memref.alloc() : memref<1xi64>
  %total = arith.addi %past_len, %step_len : i64
  memref.store %total, %total_len[%c0] : memref<1xi64>
  %total_i32 = memref.alloc() : memref<1xi32>
  hip.cast(%ctx) ins(%total_len : memref<1xi64>) outs(%total_i32 : memref<1xi32>) {to = 6 : i64}
  %step = memref.alloc() : memref<1xi64>
  memref.store %step_len, %step[%c0] : memref<1xi64>
  %step_i32 = memref.alloc() : memref<1xi32>
  hip.cast(%ctx) ins(%step : memref<1xi64>) outs(%step_i32 : memref<1xi32>) {to = 6 : i64}

  // Host-fed position ids: too large for host scratch (32 elements).
  %positions = memref.alloc() : memref<32xi64>
  %past_idx = arith.index_cast %past_len : i64 to index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %pos = arith.addi %past_idx, %i : index
    %pos_i64 = arith.index_cast %pos : index to i64
    memref.store %pos_i64, %positions[%i] : memref<32xi64>
  }

  // Embedding and attention block.
  %x = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.gather(%ctx) ins(%embed, %token : memref<32000x512xf16>, memref<1x1xi64>) outs(%x : memref<1x512xf16>) {axis = 0 : i64}
  %xn = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.rms_norm(%ctx) ins(%x, %norm_w : memref<1x512xf16>, memref<512xf16>) outs(%xn : memref<1x512xf16>) {axis = -1 : i64, epsilon = 1.000000e-05 : f32, stash_type = 1 : i64}
  %qkv = memref.alloc() {alignment = 64 : i64} : memref<1x1024xf16>
  hip.matmul(%ctx) ins(%xn, %wqkv : memref<1x512xf16>, memref<512x1024xf16>) outs(%qkv : memref<1x1024xf16>)
  %q = memref.subview %qkv[0, 0] [1, 512] [1, 1] : memref<1x1024xf16> to memref<1x512xf16, strided<[1024, 1]>>
  %q_heads = memref.reinterpret_cast %q to offset: [0], sizes: [1, 8, 64], strides: [1024, 64, 1] : memref<1x512xf16, strided<[1024, 1]>> to memref<1x8x64xf16, strided<[1024, 64, 1]>>
  %q_rot = memref.alloc() {alignment = 64 : i64} : memref<1x8x64xf16>
  hip.rope(%ctx) ins(%q_heads, %positions, %cos, %sin : memref<1x8x64xf16, strided<[1024, 64, 1]>>, memref<32xi64>, memref<2048x32xf16>, memref<2048x32xf16>) outs(%q_rot : memref<1x8x64xf16>) {interleaved = 0 : i64, num_heads = 8 : i64, rotary_embedding_dim = 64 : i64}
  %attn = memref.alloc() {alignment = 64 : i64} : memref<1x8x64xf16>
  // query, this step's key and value (views of the fused QKV buffer), the past KV
  // cache, seqlens_k, total_seq_len; the cache is updated in place (present_key and
  // present_value are the past buffers).
  %k_new = memref.subview %qkv[0, 512] [1, 256] [1, 1] : memref<1x1024xf16> to memref<1x256xf16, strided<[1024, 1], offset: 512>>
  %v_new = memref.subview %qkv[0, 768] [1, 256] [1, 1] : memref<1x1024xf16> to memref<1x256xf16, strided<[1024, 1], offset: 768>>
  hip.gqa(%ctx) ins(%q_rot, %k_new, %v_new, %k_cache, %v_cache, %step_i32, %total_i32 : memref<1x8x64xf16>, memref<1x256xf16, strided<[1024, 1], offset: 512>>, memref<1x256xf16, strided<[1024, 1], offset: 768>>, memref<2048x4x64xf16>, memref<2048x4x64xf16>, memref<1xi32>, memref<1xi32>) outs(%attn, %k_cache, %v_cache : memref<1x8x64xf16>, memref<2048x4x64xf16>, memref<2048x4x64xf16>) {kv_num_heads = 4 : i64, num_heads = 8 : i64}
  %attn_flat = memref.collapse_shape %attn [[0], [1, 2]] : memref<1x8x64xf16> into memref<1x512xf16>
  %proj = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.matmul(%ctx) ins(%attn_flat, %wo : memref<1x512xf16>, memref<512x512xf16>) outs(%proj : memref<1x512xf16>)
  %h = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.add(%ctx) ins(%x, %proj : memref<1x512xf16>, memref<1x512xf16>) outs(%h : memref<1x512xf16>)

  // MLP block.
  %hn = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.rms_norm(%ctx) ins(%h, %norm_w : memref<1x512xf16>, memref<512xf16>) outs(%hn : memref<1x512xf16>) {axis = -1 : i64, epsilon = 1.000000e-05 : f32, stash_type = 1 : i64}
  %up = memref.alloc() {alignment = 64 : i64} : memref<1x1408xf16>
  hip.matmul(%ctx) ins(%hn, %w_up : memref<1x512xf16>, memref<512x1408xf16>) outs(%up : memref<1x1408xf16>)
  %act = memref.alloc() {alignment = 64 : i64} : memref<1x1408xf16>
  hip.silu(%ctx) ins(%up : memref<1x1408xf16>) outs(%act : memref<1x1408xf16>)
  %down = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.matmul(%ctx) ins(%act, %w_down : memref<1x1408xf16>, memref<1408x512xf16>) outs(%down : memref<1x512xf16>)
  %out = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>
  hip.add(%ctx) ins(%h, %down : memref<1x512xf16>, memref<1x512xf16>) outs(%out : memref<1x512xf16>)

  // Greedy sampling; the host reads the token once the stream is drained.
  %logits = memref.alloc() {alignment = 64 : i64} : memref<1x32000xf16>
  hip.gemm(%ctx) ins(%out, %embed : memref<1x512xf16>, memref<32000x512xf16>) outs(%logits : memref<1x32000xf16>) {transB = 1 : i64}
  %k = memref.alloc() : memref<1xi64>
  %one = arith.constant 1 : i64
  memref.store %one, %k[%c0] : memref<1xi64>
  %best = memref.alloc() : memref<1x1xf16>
  %next = memref.alloc() : memref<1x1xi64>
  hip.top_k(%ctx) ins(%logits, %k : memref<1x32000xf16>, memref<1xi64>) outs(%best, %next : memref<1x1xf16>, memref<1x1xi64>)
  %sampled = hip.readback_scalar(%ctx, %next : memref<1x1xi64>) -> i64
  %result = memref.alloc() : memref<1xi64>
  memref.store %sampled, %result[%c0] : memref<1xi64>
  memref.dealloc %total_len : memref<1xi64>
  memref.dealloc %step : memref<1xi64>
  memref.dealloc %k : memref<1xi64>
  return %result : memref<1xi64>
}
