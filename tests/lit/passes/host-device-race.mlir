// The seed's table (DESIGN.md section 2; ROCm hip-ep pull request #1305): "host
// store, device read, host store, device read" on a pair of host-fed buffers.
//
// | pass setup                                  | 1 element           | 32 elements         |
// |---------------------------------------------|---------------------|---------------------|
// | no host-access rule (the old pass)          | slot reused (race)  | slot reused (race)  |
// | materialize-host-scalars first, old pass    | kept apart          | slot reused (race)  |
// | memplan's optimize-memrefs                  | kept apart          | kept apart          |
// | memplan, either pass order                  | kept apart          | kept apart          |
//
// Each RUN line is a row; its prefixes name the outcome per column:
// ONE_* for the 1-element pair, WIDE_* for the 32-element pair. RACE: %b took
// %a's slot; KEPT: two device buffers; SCRATCH: two host-scratch slots (0, 64);
// SHARED_SCRATCH: one host-scratch slot for both (the race, moved to host memory).
//
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs{host-ordering=false}' | FileCheck %s --check-prefixes=CHECK,ONE_RACE,WIDE_RACE
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars,optimize-memrefs{host-ordering=false}' | FileCheck %s --check-prefixes=CHECK,ONE_SCRATCH,WIDE_RACE
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs{host-ordering=false},materialize-host-scalars' | FileCheck %s --check-prefixes=CHECK,ONE_SHARED_SCRATCH,WIDE_RACE
// RUN: memplan-opt %s --split-input-file -p 'optimize-memrefs' | FileCheck %s --check-prefixes=CHECK,ONE_KEPT,WIDE_KEPT
// RUN: memplan-opt %s --split-input-file -p 'materialize-host-scalars,optimize-memrefs' | FileCheck %s --check-prefixes=CHECK,ONE_SCRATCH,WIDE_KEPT
// RUN: memplan-opt %s --split-input-file -p 'hip-optimize-memrefs,hip-materialize-host-scalars' | FileCheck %s --check-prefixes=CHECK,ONE_SCRATCH,WIDE_KEPT

// The GQA decoder's case: two shape scalars, each read by a cast queued behind
// earlier device work.
// CHECK-LABEL: func.func @host_fed_scalars

// ONE_RACE:         %[[A:.+]] = memref.alloc() : memref<1xi64>
// ONE_RACE-NEXT:    memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// ONE_RACE-NEXT:    hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)
// ONE_RACE-NEXT:    memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// ONE_RACE-NEXT:    hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)

// ONE_SHARED_SCRATCH:      %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %{{.+}}) : memref<?xi8>
// ONE_SHARED_SCRATCH-NEXT: arith.constant 0 : index
// ONE_SHARED_SCRATCH-NEXT: %[[A:.+]] = memref.view %[[S]]
// ONE_SHARED_SCRATCH-NEXT: memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// ONE_SHARED_SCRATCH-NEXT: hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)
// ONE_SHARED_SCRATCH-NEXT: memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// ONE_SHARED_SCRATCH-NEXT: hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)

// ONE_KEPT:         %[[A:.+]] = memref.alloc() : memref<1xi64>
// ONE_KEPT-NEXT:    memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// ONE_KEPT-NEXT:    hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)
// ONE_KEPT-NEXT:    %[[B:.+]] = memref.alloc() : memref<1xi64>
// ONE_KEPT-NEXT:    memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<1xi64>
// ONE_KEPT-NEXT:    hip.cast(%{{.+}}) ins(%[[B]] : memref<1xi64>)

// ONE_SCRATCH:      %[[S:.+]] = hip.get_host_scratch(%{{.+}}, %{{.+}}) : memref<?xi8>
// ONE_SCRATCH-NEXT: arith.constant 0 : index
// ONE_SCRATCH-NEXT: %[[A:.+]] = memref.view %[[S]]
// ONE_SCRATCH-NEXT: memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<1xi64>
// ONE_SCRATCH-NEXT: hip.cast(%{{.+}}) ins(%[[A]] : memref<1xi64>)
// ONE_SCRATCH-NEXT: arith.constant 64 : index
// ONE_SCRATCH-NEXT: %[[B:.+]] = memref.view %[[S]]
// ONE_SCRATCH-NEXT: memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<1xi64>
// ONE_SCRATCH-NEXT: hip.cast(%{{.+}}) ins(%[[B]] : memref<1xi64>)

// CHECK:            return
func.func @host_fed_scalars(%ctx: !hip.context, %i: index, %x: i64, %y: i64, %ao: memref<1xf32>, %bo: memref<1xf32>) {
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%i] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%i] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%bo : memref<1xf32>) {to = 1 : i64}
  return
}

// -----

// Too large for materialize-host-scalars: only the ordering rules keep it apart.
// CHECK-LABEL: func.func @host_fed_wide_buffers
// CHECK-NOT:        hip.get_host_scratch

// WIDE_RACE:        %[[A:.+]] = memref.alloc() : memref<32xi64>
// WIDE_RACE-NEXT:   memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// WIDE_RACE-NEXT:   hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// WIDE_RACE-NEXT:   memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// WIDE_RACE-NEXT:   hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)

// WIDE_KEPT:        %[[A:.+]] = memref.alloc() : memref<32xi64>
// WIDE_KEPT-NEXT:   memref.store %{{.+}}, %[[A]][%{{.+}}] : memref<32xi64>
// WIDE_KEPT-NEXT:   hip.cast(%{{.+}}) ins(%[[A]] : memref<32xi64>)
// WIDE_KEPT-NEXT:   %[[B:.+]] = memref.alloc() : memref<32xi64>
// WIDE_KEPT-NEXT:   memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<32xi64>
// WIDE_KEPT-NEXT:   hip.cast(%{{.+}}) ins(%[[B]] : memref<32xi64>)

// CHECK:            return
func.func @host_fed_wide_buffers(%ctx: !hip.context, %i: index, %x: i64, %y: i64, %ao: memref<32xf32>, %bo: memref<32xf32>) {
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%i] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%ao : memref<32xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<32xi64>
  memref.store %y, %b[%i] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%bo : memref<32xf32>) {to = 1 : i64}
  return
}
