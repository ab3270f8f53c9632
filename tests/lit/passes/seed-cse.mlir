// RUN: memplan-opt %examples/iree_seed_initializer.mlir -p simplify-global-accesses,cse | FileCheck %s
// RUN: memplan-opt %examples/iree_seed_initializer.mlir -p cse | FileCheck %s --check-prefix=CSE-ONLY

// The IREE seed (PR #21921): one parameter encoded twice in a hoisted initializer.
// Forwarding the stored parameter to its reloads makes the two
// transfer -> encode -> transfer chains identical, and CSE, with transfers Pure,
// leaves one chain; both hoisted globals receive its result (the stores at the end
// of the initializer, where simplify-global-accesses moves them, as IREE).

// CHECK-LABEL: util.initializer {
// CHECK-NEXT:   %[[CST:.+]] = stream.tensor.constant
// CHECK-NEXT:   %[[SIZE:.+]] = stream.resource.size %[[CST]]
// CHECK-NEXT:   %[[T0:.+]] = stream.async.transfer %[[CST]] : !stream.resource<constant>{%[[SIZE]]}
// CHECK-NEXT:   %[[ESIZE:.+]] = stream.tensor.sizeof
// CHECK-NEXT:   %[[ENC:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[T0]]
// CHECK-NEXT:   %[[T1:.+]] = stream.async.transfer %[[ENC]]
// CHECK-NEXT:   util.global.store %[[CST]], @"__auto.blk.0.attn_q.weight:qs"
// CHECK-NEXT:   util.global.store %[[SIZE]], @"__auto.blk.0.attn_q.weight:qs__size"
// CHECK-NEXT:   util.global.store %[[T1]], @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded :
// CHECK-NEXT:   util.global.store %[[ESIZE]], @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size
// CHECK-NEXT:   util.global.store %[[T1]], @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0 :
// CHECK-NEXT:   util.global.store %[[ESIZE]], @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size
// CHECK-NEXT:   util.return

// CSE alone already leaves one chain: the stores between the two pairs of loads
// write other globals, which does not block merging the loads (IREE 3.13's CSE
// treats any write as a barrier and keeps both chains). The loads stay.

// CSE-ONLY-LABEL: util.initializer {
// CSE-ONLY-COUNT-2: util.global.load
// CSE-ONLY-NOT: util.global.load
// CSE-ONLY-COUNT-1: stream.tensor.encode
// CSE-ONLY-NOT: stream.tensor.encode
