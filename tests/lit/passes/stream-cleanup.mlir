// RUN: memplan-opt %s --split-input-file -p stream-cleanup | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'stream-cleanup{debug}' -o %t.discard 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ITER

// The IREE seed (shared/seeds/003_*, shared/examples/iree_seed_initializer.mlir):
// one parameter hoisted and encoded twice into two pairs of globals, which a
// function loads. The cleanup leaves one constant, one transfer -> encode ->
// transfer chain, one store of the encoded value and one of its size; the
// `_encoded_0` globals are fused into `_encoded`, the `__auto` parameter globals
// erased, and the function loads each surviving global once, immutable.

// ITER: iteration 1: changed by
// ITER: iteration 2: changed by
// ITER: iteration 3: no change; converged after 3 iterations

// CHECK: #encoding = #iree_encoding.testing<>
// CHECK-NOT: __auto
// CHECK-NOT: __hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0
// CHECK: util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
// CHECK-NEXT: util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
// CHECK-NEXT: util.initializer {
// CHECK-NEXT: %[[CST:.+]] = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<constant> = #stream.parameter.named<"model"::"blk.0.attn_q.weight:qs"> : tensor<4096x4096xf8E4M3FNUZ>
// CHECK-NEXT: %[[SIZE:.+]] = stream.resource.size %[[CST]] : !stream.resource<constant>
// CHECK-NEXT: %[[T0:.+]] = stream.async.transfer %[[CST]] : !stream.resource<constant>{%[[SIZE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT: %[[ESIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
// CHECK-NEXT: %[[ENC:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[T0]] : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%[[SIZE]]} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%[[ESIZE]]}
// CHECK-NEXT: %[[T1:.+]] = stream.async.transfer %[[ENC]] : !stream.resource<*>{%[[ESIZE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%[[ESIZE]]}
// CHECK-NEXT: util.global.store %[[T1]], @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
// CHECK-NEXT: util.global.store %[[ESIZE]], @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
// CHECK-NEXT: util.return
// CHECK-NEXT: }
// CHECK-NEXT: util.func public @use()
// CHECK-NEXT: %[[V:.+]] = util.global.load immutable @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
// CHECK-NEXT: %[[VS:.+]] = util.global.load immutable @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
// CHECK-NEXT: util.return %[[V]], %[[VS]], %[[V]], %[[VS]] :
#encoding = #iree_encoding.testing<>
module {
  util.global private @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
  util.global private @"__auto.blk.0.attn_q.weight:qs__size" : index
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
  util.initializer {
    %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<constant> = #stream.parameter.named<"model"::"blk.0.attn_q.weight:qs"> : tensor<4096x4096xf8E4M3FNUZ>
    %0 = stream.resource.size %cst : !stream.resource<constant>
    util.global.store %cst, @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
    util.global.store %0, @"__auto.blk.0.attn_q.weight:qs__size" : index
    %__auto.blk.0.attn_q.weight3Aqs__size = util.global.load @"__auto.blk.0.attn_q.weight:qs__size" : index
    %__auto.blk.0.attn_q.weight3Aqs = util.global.load @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
    %1 = stream.async.transfer %__auto.blk.0.attn_q.weight3Aqs : !stream.resource<constant>{%__auto.blk.0.attn_q.weight3Aqs__size} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size}
    %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
    %3 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %1 : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%2}
    %4 = stream.async.transfer %3 : !stream.resource<*>{%2} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%2}
    util.global.store %4, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
    util.global.store %2, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
    %__auto.blk.0.attn_q.weight3Aqs__size_0 = util.global.load @"__auto.blk.0.attn_q.weight:qs__size" : index
    %__auto.blk.0.attn_q.weight3Aqs_1 = util.global.load @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
    %5 = stream.async.transfer %__auto.blk.0.attn_q.weight3Aqs_1 : !stream.resource<constant>{%__auto.blk.0.attn_q.weight3Aqs__size_0} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size_0}
    %6 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
    %7 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %5 : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size_0} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%6}
    %8 = stream.async.transfer %7 : !stream.resource<*>{%6} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%6}
    util.global.store %8, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
    util.global.store %6, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
    util.return
  }
  util.func public @use() -> (!stream.resource<constant>, index, !stream.resource<constant>, index) {
    %0 = util.global.load @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
    %1 = util.global.load @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
    %2 = util.global.load @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
    %3 = util.global.load @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
    util.return %0, %1, %2, %3 : !stream.resource<constant>, index, !stream.resource<constant>, index
  }
}

// -----

// Without a function nothing reads the globals: all of them, and all the
// initializer's work, go away (the emptied initializer in the same iteration).

// ITER: iteration 1: changed by
// ITER: iteration 2: no change; converged after 2 iterations

// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
#encoding = #iree_encoding.testing<>
module {
  util.global private @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
  util.global private @"__auto.blk.0.attn_q.weight:qs__size" : index
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
  util.global private @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
  util.initializer {
    %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<constant> = #stream.parameter.named<"model"::"blk.0.attn_q.weight:qs"> : tensor<4096x4096xf8E4M3FNUZ>
    %0 = stream.resource.size %cst : !stream.resource<constant>
    util.global.store %cst, @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
    util.global.store %0, @"__auto.blk.0.attn_q.weight:qs__size" : index
    %__auto.blk.0.attn_q.weight3Aqs__size = util.global.load @"__auto.blk.0.attn_q.weight:qs__size" : index
    %__auto.blk.0.attn_q.weight3Aqs = util.global.load @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
    %1 = stream.async.transfer %__auto.blk.0.attn_q.weight3Aqs : !stream.resource<constant>{%__auto.blk.0.attn_q.weight3Aqs__size} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size}
    %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
    %3 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %1 : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%2}
    %4 = stream.async.transfer %3 : !stream.resource<*>{%2} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%2}
    util.global.store %4, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded : !stream.resource<constant>
    util.global.store %2, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size : index
    %__auto.blk.0.attn_q.weight3Aqs__size_0 = util.global.load @"__auto.blk.0.attn_q.weight:qs__size" : index
    %__auto.blk.0.attn_q.weight3Aqs_1 = util.global.load @"__auto.blk.0.attn_q.weight:qs" : !stream.resource<constant>
    %5 = stream.async.transfer %__auto.blk.0.attn_q.weight3Aqs_1 : !stream.resource<constant>{%__auto.blk.0.attn_q.weight3Aqs__size_0} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size_0}
    %6 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
    %7 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %5 : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%__auto.blk.0.attn_q.weight3Aqs__size_0} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%6}
    %8 = stream.async.transfer %7 : !stream.resource<*>{%6} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%6}
    util.global.store %8, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 : !stream.resource<constant>
    util.global.store %6, @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size : index
    util.return
  }
}

// -----

// Two parameters, each hoisted twice; the second copy of @b reads it through a
// chained global (@"__auto.b_alias", only ever stored from a load of @"__auto.b").
// The chains merge over several productive iterations; one chain, one encoded
// global and one size per parameter survive.

// ITER: iteration 1: changed by
// ITER: iteration 2: changed by
// ITER: iteration 3: changed by
// ITER: iteration 4: no change; converged after 4 iterations
// ITER-NOT: iteration

// CHECK-NOT: __auto
// CHECK-NOT: _0
// CHECK: util.global private @enc_a : !stream.resource<constant>
// CHECK-NEXT: util.global private @enc_a__size : index
// CHECK-NEXT: util.global private @enc_b : !stream.resource<constant>
// CHECK-NEXT: util.global private @enc_b__size : index
// CHECK-NEXT: util.initializer {
// CHECK-COUNT-2: stream.tensor.constant
// CHECK-NOT: stream.tensor.constant
// CHECK-COUNT-2: stream.tensor.encode
// CHECK-NOT: stream.tensor.encode
// CHECK: util.global.store %{{.+}}, @enc_a : !stream.resource<constant>
// CHECK-NEXT: util.global.store %{{.+}}, @enc_a__size : index
// CHECK-NEXT: util.global.store %{{.+}}, @enc_b : !stream.resource<constant>
// CHECK-NEXT: util.global.store %{{.+}}, @enc_b__size : index
// CHECK-NEXT: util.return
// CHECK: util.func public @use()
// CHECK-NEXT: %[[A:.+]] = util.global.load immutable @enc_a : !stream.resource<constant>
// CHECK-NEXT: %[[AS:.+]] = util.global.load immutable @enc_a__size : index
// CHECK-NEXT: %[[B:.+]] = util.global.load immutable @enc_b : !stream.resource<constant>
// CHECK-NEXT: %[[BS:.+]] = util.global.load immutable @enc_b__size : index
// CHECK-NEXT: util.return %[[A]], %[[AS]], %[[A]], %[[AS]], %[[B]], %[[BS]], %[[B]], %[[BS]] :
#encoding = #iree_encoding.testing<>
module {
  util.global private @"__auto.a" : !stream.resource<constant>
  util.global private @"__auto.a__size" : index
  util.global private @"__auto.b" : !stream.resource<constant>
  util.global private @"__auto.b__size" : index
  util.global private @"__auto.b_alias" : !stream.resource<constant>
  util.global private @"__auto.b_alias__size" : index
  util.global private @enc_a : !stream.resource<constant>
  util.global private @enc_a__size : index
  util.global private @enc_a_0 : !stream.resource<constant>
  util.global private @enc_a_0__size : index
  util.global private @enc_b : !stream.resource<constant>
  util.global private @enc_b__size : index
  util.global private @enc_b_0 : !stream.resource<constant>
  util.global private @enc_b_0__size : index
  util.initializer {
    %cst_a = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<constant> = #stream.parameter.named<"model"::"a.weight"> : tensor<4096x4096xf8E4M3FNUZ>
    %size_a = stream.resource.size %cst_a : !stream.resource<constant>
    util.global.store %cst_a, @"__auto.a" : !stream.resource<constant>
    util.global.store %size_a, @"__auto.a__size" : index
    %cst_b = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<1024x4096xf8E4M3FNUZ> in !stream.resource<constant> = #stream.parameter.named<"model"::"b.weight"> : tensor<1024x4096xf8E4M3FNUZ>
    %size_b = stream.resource.size %cst_b : !stream.resource<constant>
    util.global.store %cst_b, @"__auto.b" : !stream.resource<constant>
    util.global.store %size_b, @"__auto.b__size" : index
    %ld_b = util.global.load @"__auto.b" : !stream.resource<constant>
    %ld_bs = util.global.load @"__auto.b__size" : index
    util.global.store %ld_b, @"__auto.b_alias" : !stream.resource<constant>
    util.global.store %ld_bs, @"__auto.b_alias__size" : index
    %a0_sz = util.global.load @"__auto.a__size" : index
    %a0_v = util.global.load @"__auto.a" : !stream.resource<constant>
    %a0_t = stream.async.transfer %a0_v : !stream.resource<constant>{%a0_sz} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%a0_sz}
    %a0_es = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
    %a0_e = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %a0_t : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%a0_sz} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%a0_es}
    %a0_r = stream.async.transfer %a0_e : !stream.resource<*>{%a0_es} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%a0_es}
    util.global.store %a0_r, @enc_a : !stream.resource<constant>
    util.global.store %a0_es, @enc_a__size : index
    %a1_sz = util.global.load @"__auto.a__size" : index
    %a1_v = util.global.load @"__auto.a" : !stream.resource<constant>
    %a1_t = stream.async.transfer %a1_v : !stream.resource<constant>{%a1_sz} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%a1_sz}
    %a1_es = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf8E4M3FNUZ, #encoding> : index
    %a1_e = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %a1_t : tensor<4096x4096xf8E4M3FNUZ> in !stream.resource<*>{%a1_sz} -> tensor<4096x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%a1_es}
    %a1_r = stream.async.transfer %a1_e : !stream.resource<*>{%a1_es} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%a1_es}
    util.global.store %a1_r, @enc_a_0 : !stream.resource<constant>
    util.global.store %a1_es, @enc_a_0__size : index
    %b0_sz = util.global.load @"__auto.b__size" : index
    %b0_v = util.global.load @"__auto.b" : !stream.resource<constant>
    %b0_t = stream.async.transfer %b0_v : !stream.resource<constant>{%b0_sz} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%b0_sz}
    %b0_es = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<1024x4096xf8E4M3FNUZ, #encoding> : index
    %b0_e = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %b0_t : tensor<1024x4096xf8E4M3FNUZ> in !stream.resource<*>{%b0_sz} -> tensor<1024x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%b0_es}
    %b0_r = stream.async.transfer %b0_e : !stream.resource<*>{%b0_es} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%b0_es}
    util.global.store %b0_r, @enc_b : !stream.resource<constant>
    util.global.store %b0_es, @enc_b__size : index
    %b1_sz = util.global.load @"__auto.b_alias__size" : index
    %b1_v = util.global.load @"__auto.b_alias" : !stream.resource<constant>
    %b1_t = stream.async.transfer %b1_v : !stream.resource<constant>{%b1_sz} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%b1_sz}
    %b1_es = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<1024x4096xf8E4M3FNUZ, #encoding> : index
    %b1_e = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %b1_t : tensor<1024x4096xf8E4M3FNUZ> in !stream.resource<*>{%b1_sz} -> tensor<1024x4096xf8E4M3FNUZ, #encoding> in !stream.resource<*>{%b1_es}
    %b1_r = stream.async.transfer %b1_e : !stream.resource<*>{%b1_es} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%b1_es}
    util.global.store %b1_r, @enc_b_0 : !stream.resource<constant>
    util.global.store %b1_es, @enc_b_0__size : index
    util.return
  }
  util.func public @use() -> (!stream.resource<constant>, index, !stream.resource<constant>, index, !stream.resource<constant>, index, !stream.resource<constant>, index) {
    %u0 = util.global.load @enc_a : !stream.resource<constant>
    %u0s = util.global.load @enc_a__size : index
    %u1 = util.global.load @enc_a_0 : !stream.resource<constant>
    %u1s = util.global.load @enc_a_0__size : index
    %u2 = util.global.load @enc_b : !stream.resource<constant>
    %u2s = util.global.load @enc_b__size : index
    %u3 = util.global.load @enc_b_0 : !stream.resource<constant>
    %u3s = util.global.load @enc_b_0__size : index
    util.return %u0, %u0s, %u1, %u1s, %u2, %u2s, %u3, %u3s : !stream.resource<constant>, index, !stream.resource<constant>, index, !stream.resource<constant>, index, !stream.resource<constant>, index
  }
}
