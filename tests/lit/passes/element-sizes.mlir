// Elements take the bytes LLVM's data layout gives them (alloc size: i24 4 bytes,
// i33 8, i1 1), never ceil(bits / 8); the planners, the checker and the interpreter
// share that one rule (memplan.analysis.data_layout). Every memory pipeline, then
// the plan checker:
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars,verify-memory-plan' | FileCheck %s --check-prefix=SCALARS
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs,verify-memory-plan' | FileCheck %s --check-prefix=OPT
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs,verify-memory-plan' | FileCheck %s --check-prefix=POOL
// RUN: memplan-opt %s --split-input-file -p 'hip-memory-plan,verify-memory-plan' | FileCheck %s --check-prefix=PLAN
// The checker finds the plans the old sizes made:
// RUN: not memplan-opt %S/Inputs/element-sizes-plans.mlir --split-input-file -p verify-memory-plan 2>&1 >/dev/null | FileCheck %s --check-prefix=RACE

// 9 x i33 is 72 bytes: the next scalar goes to 128, not to 64 (45 bytes rounded up),
// where the host would overwrite bytes the first cast has not read yet.
// SCALARS-LABEL: func.func @i33_scalars
// SCALARS:         %[[SIZE:.+]] = arith.constant 192 : index
// SCALARS-NEXT:    %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %[[SIZE]])
// SCALARS-NEXT:    arith.constant 0 : index
// SCALARS-NEXT:    arith.constant 8 : index
// SCALARS:         %[[OFF_A:.+]] = arith.constant 0 : index
// SCALARS-NEXT:    memref.view %[[S]][%[[OFF_A]]][] : memref<?xi8> to memref<9xi33>
// SCALARS:         %[[OFF_B:.+]] = arith.constant 128 : index
// SCALARS-NEXT:    memref.view %[[S]][%[[OFF_B]]][] : memref<?xi8> to memref<1xi64>
// OPT-LABEL: func.func @i33_scalars
// OPT-COUNT-2:     memref.alloc()
// POOL-LABEL: func.func @i33_scalars
// POOL:         %[[OFF_B:.+]] = arith.constant 256 : index
// POOL:         memref.view %{{.+}}[%[[OFF_B]]][] : memref<?xi8> to memref<1xi64>
// PLAN-LABEL: func.func @i33_scalars
// PLAN:         %[[OFF_B:.+]] = arith.constant 128 : index
// PLAN:         memref.view %{{.+}}[%[[OFF_B]]][] : memref<?xi8> to memref<1xi64>
func.func @i33_scalars(%ctx: !hip.context, %x: i33, %y: i64, %o: memref<9xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<9xi33>
  memref.store %x, %a[%c8] : memref<9xi33>
  hip.cast(%ctx) ins(%a : memref<9xi33>) outs(%o : memref<9xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// 256 x i24 is 1024 bytes: a buffer live at the same time goes to 1024, not to 768.
// SCALARS-LABEL: func.func @i24_in_the_pool
// OPT-LABEL: func.func @i24_in_the_pool
// OPT-COUNT-2:     memref.alloc()
// POOL-LABEL: func.func @i24_in_the_pool
// POOL:         %[[SIZE:.+]] = arith.constant 1280 : index
// POOL:         %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]])
// POOL:         %[[OFF_B:.+]] = arith.constant 1024 : index
// POOL:         memref.view %[[POOL]][%[[OFF_B]]][] : memref<?xi8> to memref<4xi1>
// PLAN-LABEL: func.func @i24_in_the_pool
// PLAN:         %[[OFF_B:.+]] = arith.constant 1024 : index
// PLAN:         memref.view %{{.+}}[%[[OFF_B]]][] : memref<?xi8> to memref<4xi1>
func.func @i24_in_the_pool(%ctx: !hip.context, %in: memref<256xi24>, %flags: memref<4xi1>, %out: memref<256xi24>) {
  %a = memref.alloc() : memref<256xi24>
  hip.sign(%ctx) ins(%in : memref<256xi24>) outs(%a : memref<256xi24>)
  %b = memref.alloc() : memref<4xi1>
  hip.sign(%ctx) ins(%flags : memref<4xi1>) outs(%b : memref<4xi1>)
  hip.sign(%ctx) ins(%a : memref<256xi24>) outs(%out : memref<256xi24>)
  hip.sign(%ctx) ins(%b : memref<4xi1>) outs(%flags : memref<4xi1>)
  return
}

// -----

// index and f80 take 8 and 16 bytes; two live buffers of each stay apart.
// OPT-LABEL: func.func @index_and_f80
// OPT-COUNT-2:     memref.alloc()
// POOL-LABEL: func.func @index_and_f80
// POOL:         %[[OFF_I:.+]] = arith.constant 256 : index
// POOL:         memref.view %{{.+}}[%[[OFF_I]]][] : memref<?xi8> to memref<3xindex>
// PLAN-LABEL: func.func @index_and_f80
func.func @index_and_f80(%ctx: !hip.context, %i: memref<3xindex>, %f: memref<15xf80>) {
  %a = memref.alloc() : memref<3xindex>
  hip.sign(%ctx) ins(%i : memref<3xindex>) outs(%a : memref<3xindex>)
  %b = memref.alloc() : memref<15xf80>
  hip.sign(%ctx) ins(%f : memref<15xf80>) outs(%b : memref<15xf80>)
  hip.sign(%ctx) ins(%a : memref<3xindex>) outs(%i : memref<3xindex>)
  hip.sign(%ctx) ins(%b : memref<15xf80>) outs(%f : memref<15xf80>)
  return
}

// The checker's verdicts on the old plans (sizes from the data layout, as the
// planners' now):
// RACE: element-sizes-plans.mlir:14:3: error: unordered accesses to overlapping bytes of %a and %b (both in %s): write of %b (host) by 'memref.store' {{.*}} and read of %a (device, stream %ctx) by 'hip.cast'
// RACE: element-sizes-plans.mlir:4:1: error: verify-memory-plan: 1 unordered pair(s)
// RACE: element-sizes-plans.mlir:30:3: error: {{.*}} overlapping bytes of %a and %b (both in %pool)
// RACE: element-sizes-plans.mlir:22:1: error: verify-memory-plan: 1 unordered pair(s)
