// Only ops that declare `HostInlineRegions` (scf's loops and branches) run their
// regions inline on the host; a buffer used inside any other op with regions (an
// unregistered op, `gpu.launch async`) escapes, since its body may run later or
// elsewhere. Every memory pipeline, then the checker:
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'materialize-host-scalars,verify-memory-plan' | FileCheck %s --check-prefix=SCALARS
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s --check-prefix=OPT
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'hip-pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s --check-prefix=PLAN
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'optimize-memrefs{debug=true}' --verify-diagnostics > /dev/null
// The checker finds the plan that took the region for host code:
// RUN: not memplan-opt %S/Inputs/deferred-regions-plans.mlir --allow-unregistered-dialect -p verify-memory-plan 2>&1 >/dev/null | FileCheck %s --check-prefix=RACE
// RACE: deferred-regions-plans.mlir:7:3: error: %a escapes to 'test.async_region' at {{.*}}, which may access it at any time, but shares bytes of %a with

// %a is read only inside a region that may run after the host stores %b: the two
// never share a slot or pool bytes, and %a stays out of host scratch.
// SCALARS-LABEL: func.func @read_in_a_deferred_region
// SCALARS:         %[[S:.+]] = hip.get_host_scratch
// SCALARS:         %[[A:.+]] = memref.alloc() : memref<1xi64>
// SCALARS:         memref.view %[[S]]
// OPT-LABEL: func.func @read_in_a_deferred_region
// OPT:             %[[A:.+]] = memref.alloc() : memref<1xi64>
// OPT:             "test.async_region"
// OPT:             %[[B:.+]] = memref.alloc() : memref<1xi64>
// OPT:             memref.store %{{.+}}, %[[B]]
// POOL-LABEL: func.func @read_in_a_deferred_region
// POOL:            memref.alloc() : memref<1xi64>
// PLAN-LABEL: func.func @read_in_a_deferred_region
// PLAN:            memref.alloc() : memref<1xi64>
func.func @read_in_a_deferred_region(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{optimize-memrefs: buffer left alone: used inside 'test.async_region', which does not declare that it runs its regions inline on the host}}
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  "test.async_region"() ({
    hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
    "test.end"() : () -> ()
  }) : () -> ()
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// scf.execute_region declares it runs its region inline: %a's accesses count at
// it, and after the synchronize %b may take %a's slot (its bytes in the pool: the
// two fit in one 256-byte pool).
// SCALARS-LABEL: func.func @read_in_an_inline_region
// OPT-LABEL: func.func @read_in_an_inline_region
// OPT:             %[[A:.+]] = memref.alloc() : memref<1xi64>
// OPT:             scf.execute_region
// OPT:             memplan.synchronize
// OPT-NOT:         memref.alloc
// OPT:             memref.store %{{.+}}, %[[A]]
// POOL-LABEL: func.func @read_in_an_inline_region
// POOL:            %[[SIZE:.+]] = arith.constant 256 : index
// POOL-NEXT:       hip.get_pool(%{{.+}}, %[[SIZE]])
// POOL-COUNT-2:    memref.view %{{.+}} : memref<?xi8> to memref<1xi64>
// PLAN-LABEL: func.func @read_in_an_inline_region
func.func @read_in_an_inline_region(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  scf.execute_region {
    hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
    scf.yield
  }
  memplan.synchronize(%ctx)
  %b = memref.alloc() : memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// A kernel whose region runs on the device later: a buffer written inside it and
// one the host stores after it stay apart too, nested in an inline loop or not.
// OPT-LABEL: func.func @deferred_inside_a_loop
// OPT-COUNT-2:     memref.alloc() : memref<4xf32>
// POOL-LABEL: func.func @deferred_inside_a_loop
// POOL:            %[[A:.+]] = memref.alloc() : memref<4xf32>
// POOL:            memplan.launch @fill(%{{.+}}) outs(%[[A]] : memref<4xf32>)
// PLAN-LABEL: func.func @deferred_inside_a_loop
// SCALARS-LABEL: func.func @deferred_inside_a_loop
func.func @deferred_inside_a_loop(%ctx: !hip.context, %v: f32, %n: index, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @+1 {{optimize-memrefs: buffer left alone: used inside 'test.launch', which does not declare that it runs its regions inline on the host}}
  %a = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    "test.launch"() ({
      memplan.launch @fill(%ctx) outs(%a : memref<4xf32>)
      "test.end"() : () -> ()
    }) : () -> ()
    %after = arith.addi %i, %c1 : index
  }
  %b = memref.alloc() : memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  hip.sign(%ctx) ins(%b : memref<4xf32>) outs(%o : memref<4xf32>)
  return
}
