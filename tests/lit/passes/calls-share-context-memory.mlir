// Host scratch is one buffer per context at run time, and a pool one per context and
// domain: a callee's `hip.get_host_scratch(%ctx, ..)` is its caller's bytes, and two
// calls within one invocation are not synchronized (docs/design/execution-model.md).
// A function that is called keeps its buffers out of context memory; a caller's new
// scalars go after the bytes its callees already use. Every memory pipeline, then
// the checker (which sees a callee's uses of context memory at the call):
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars,verify-memory-plan' | FileCheck %s --check-prefix=SCALARS
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s --check-prefix=OPT
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL
// RUN: memplan-opt %s --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars{debug=true}' --verify-diagnostics > /dev/null
// The checker finds the plan made per function:
// RUN: not memplan-opt %S/Inputs/calls-share-context-memory-plans.mlir --split-input-file -p verify-memory-plan 2>&1 >/dev/null | FileCheck %s --check-prefix=RACE
// RACE: calls-share-context-memory-plans.mlir:26:3: error: unordered accesses to overlapping bytes of %b and @callee's 'hip.get_host_scratch' (both in the 'hip.get_host_scratch' of %ctx): write of @callee's 'hip.get_host_scratch' (host) by 'func.call' {{.*}} and read of %b (device, stream %ctx) by 'hip.cast'
// RACE: calls-share-context-memory-plans.mlir:27:3: error: unordered accesses to overlapping bytes of %b and @callee's
// RACE: calls-share-context-memory-plans.mlir:27:3: error: unordered accesses to overlapping bytes of @callee's 'hip.get_host_scratch' and @callee's 'hip.get_host_scratch' {{.*}}: write {{.*}} (host) by 'func.call' at {{.*}}:27:3 and read {{.*}} (device, stream %ctx) by 'func.call' at {{.*}}:26:3
// RACE: calls-share-context-memory-plans.mlir:12:1: error: verify-memory-plan: 3 unordered pair(s)

// The callee's scalar stays a plain allocation: in scratch it would be the caller's
// bytes, and the second call's store could land before the first call's cast runs.
// SCALARS-LABEL: func.func @callee
// SCALARS-NOT:     hip.get_host_scratch
// SCALARS:         memref.alloc() : memref<1xi64>
// SCALARS-LABEL: func.func @caller
// SCALARS:         hip.get_host_scratch
// SCALARS:         memref.view
// SCALARS-COUNT-2: call @callee
// OPT-LABEL: func.func @callee
// OPT-LABEL: func.func @caller
// POOL-LABEL: func.func @callee
// POOL-NOT:        hip.get_pool
// POOL:            memref.alloc() : memref<1xi64>
// POOL-LABEL: func.func @caller
// PLAN-LABEL: func.func @callee
// PLAN-NOT:        hip.get_
// PLAN:            memref.alloc() : memref<1xi64>
// PLAN-LABEL: func.func @caller
// expected-remark @+1 {{materialize-host-scalars: function left alone: it is referenced by 'func.call', so it may run inside another function's invocation}}
func.func @callee(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
  memref.dealloc %a : memref<1xi64>
  return
}
func.func @caller(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  func.call @callee(%ctx, %x, %o) : (!hip.context, i64, memref<1xf32>) -> ()
  func.call @callee(%ctx, %x, %o) : (!hip.context, i64, memref<1xf32>) -> ()
  memref.dealloc %b : memref<1xi64>
  return
}

// -----

// A callee that already takes scratch (reaching 72 bytes through a reinterpret_cast):
// the caller's scalar goes to 128 and the caller asks for at least the callee's 128
// bytes, so the callee's request never makes the runtime grow (and move) it.
// SCALARS-LABEL: func.func @caller_of_scratch
// SCALARS:         %[[SIZE:.+]] = arith.constant 192 : index
// SCALARS-NEXT:    %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]])
// SCALARS:         %[[OFF:.+]] = arith.constant 128 : index
// SCALARS-NEXT:    memref.view %[[S]][%[[OFF]]][] : memref<?xi8> to memref<1xi64>
// OPT-LABEL: func.func @caller_of_scratch
// POOL-LABEL: func.func @caller_of_scratch
// PLAN-LABEL: func.func @caller_of_scratch
// PLAN:            arith.constant 128 : index
// expected-remark @+1 {{function left alone: it is referenced by 'func.call'}}
func.func @scratch_callee(%ctx: !hip.context, %x: i64, %o: memref<9xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %s = hip.get_host_scratch(%ctx, %c128) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  %w = memref.reinterpret_cast %a to offset: [0], sizes: [9], strides: [1] : memref<1xi64> to memref<9xi64>
  memref.store %x, %w[%c8] : memref<9xi64>
  hip.cast(%ctx) ins(%w : memref<9xi64>) outs(%o : memref<9xf32>) {to = 1 : i64}
  return
}
func.func @caller_of_scratch(%ctx: !hip.context, %x: i64, %o: memref<9xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  func.call @scratch_callee(%ctx, %x, %o) : (!hip.context, i64, memref<9xf32>) -> ()
  return
}

// -----

// A function that hands its context to a function whose body is not here is left
// alone: that function may use the same scratch. One that does not hand it on is not.
// SCALARS-LABEL: func.func @hands_on_its_context
// SCALARS-NOT:     hip.get_host_scratch
// SCALARS-LABEL: func.func @keeps_its_context
// SCALARS:         hip.get_host_scratch
// OPT-LABEL: func.func @hands_on_its_context
// POOL-LABEL: func.func @hands_on_its_context
// POOL-NOT:        hip.get_pool
// POOL-LABEL: func.func @keeps_its_context
// POOL:            hip.get_pool
// PLAN-LABEL: func.func @hands_on_its_context
// PLAN-NOT:        hip.get_
// PLAN-LABEL: func.func @keeps_its_context
func.func private @runtime_helper(!hip.context)
func.func private @plain_helper(i64)
// expected-remark @+1 {{function left alone: 'func.call' hands the runtime context to a function whose body is not in the module, which may use the same memory}}
func.func @hands_on_its_context(%ctx: !hip.context, %x: i64, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  func.call @runtime_helper(%ctx) : (!hip.context) -> ()
  return
}
func.func @keeps_its_context(%ctx: !hip.context, %x: i64, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  func.call @plain_helper(%x) : (i64) -> ()
  return
}
