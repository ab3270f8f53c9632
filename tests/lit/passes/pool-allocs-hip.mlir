// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs{lifetime-only=false}' | FileCheck %s --check-prefix=GROUPED
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs{emit-fragmentation-report=true}' --verify-diagnostics
// RUN: not memplan-opt %s --split-input-file -p 'hip-pool-allocs{alignment=0}' 2>&1 | FileCheck %s --check-prefix=NOALIGN
// RUN: not memplan-opt %s --split-input-file -p 'hip-pool-allocs{alignment=-8}' 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// hip-pool-allocs: pool-allocs with hip-ep's contract as its defaults. Returned
// buffers are pooled (hip-ep's pipeline has turned every graph output into
// hip.alloc_output before pooling), a buffer lives from its allocation to its last
// use as in hip-ep, on top of the ordering rules, and static buffers are placed by
// hip-ep's best fit. The size arithmetic is what hip-ep emits, folded.

// NOALIGN: error: invalid options for pass 'hip-pool-allocs': alignment must be a positive power of 2 (got 0)
// NEGATIVE: alignment must be a positive power of 2 (got -8)


// The returned buffer is pooled beside the temporary it reads.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 256], hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @returned_pooled
// CHECK:         memref.view %{{.+}} : memref<?xi8> to memref<64xf32>
// CHECK:         %[[R:.+]] = memref.view %{{.+}} : memref<?xi8> to memref<64xf32>
// CHECK-NEXT:    hip.tanh
// CHECK-NEXT:    return %[[R]]
// expected-remark @+1 {{hip-pool-allocs fragmentation: domain 0: static 512/512 B (0 frag); dyn-pool 0/0 units (0 frag); small-buckets 0/0 bins (0 excess)}}
func.func @returned_pooled(%ctx: !hip.context, %in: memref<64xf32>) -> memref<64xf32> {
  %t = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  %r = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%t : memref<64xf32>) outs(%r : memref<64xf32>)
  return %r : memref<64xf32>
}

// -----

// %a is allocated before %b is last read: apart, although their accesses never
// overlap (pool-allocs shares them).
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 256], hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @live_from_allocation
// expected-remark @+1 {{static 512/512 B (0 frag)}}
func.func @live_from_allocation(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Intervals alone would let %b take %a's bytes; the ordering rules still keep the
// host store apart from the cast that may not have run.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 256], hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @host_race_still_apart
// expected-remark @+1 {{static 512/512 B (0 frag)}}
func.func @host_race_still_apart(%ctx: !hip.context, %x: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  return
}

// -----

// lifetime-only (default): each dynamic buffer is a group; %a's slab is shared by
// %b and %s, and %c and %t (live with %b and %s) share a second: 768 * %n bytes
// where 512 * %n would do (the report says so). lifetime-only=false packs the buffers of %n whose factors are multiples
// of 256 in units of %n (%b and %c in the 512 * %n that %a needs; %c at
// 256 * %n), and puts the 3 * %n buffers in two bins of their rounded size.
// CHECK:       module attributes {hipdnn.buffer_count = 5 : i64, hipdnn.buffer_offsets = [0, 0, -1, 0, -1], hipdnn.pool_size = 0 : i64}
// CHECK-LABEL: func.func @grouped_in_units
// CHECK-COUNT-1: hip.get_pool
// CHECK-NOT:     hip.get_pool
// GROUPED-LABEL: func.func @grouped_in_units
// GROUPED-SAME:    (%{{.+}}: !hip.context, %[[N:[^:]+]]: index
// GROUPED:         %[[BYTES:.+]] = arith.muli %[[N]], %{{.+}} : index
// GROUPED:         %[[BIN:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// GROUPED-NEXT:    %[[C512:.+]] = arith.constant 512 : index
// GROUPED-NEXT:    %[[GROUP:.+]] = arith.muli %[[N]], %[[C512]] : index
// GROUPED-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// GROUPED-NEXT:    %[[BINS:.+]] = arith.muli %[[BIN]], %[[C2]] : index
// GROUPED-NEXT:    %[[SIZE:.+]] = arith.addi %[[GROUP]], %[[BINS]] : index
// GROUPED-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// GROUPED-NEXT:    %[[ZERO:.+]] = arith.constant 0 : index
// GROUPED-NEXT:    %[[C256:.+]] = arith.constant 256 : index
// GROUPED-NEXT:    %[[HALF:.+]] = arith.muli %[[N]], %[[C256]] : index
// GROUPED-NEXT:    %[[SECOND:.+]] = arith.addi %[[GROUP]], %[[BIN]] : index
// GROUPED-NEXT:    memref.view %[[POOL]][%[[ZERO]]][%[[N]]] : memref<?xi8> to memref<?x128xf32>
// GROUPED:         memref.view %[[POOL]][%[[ZERO]]][%[[N]]] : memref<?xi8> to memref<?x64xf32>
// GROUPED-NEXT:    memref.view %[[POOL]][%[[HALF]]][%[[N]]] : memref<?xi8> to memref<?x64xf32>
// GROUPED:         memref.view %[[POOL]][%[[GROUP]]][%[[N]]] : memref<?xi8> to memref<?x3xi8>
// GROUPED-NEXT:    memref.view %[[POOL]][%[[SECOND]]][%[[N]]] : memref<?xi8> to memref<?x3xi8>
// expected-remark @+1 {{static 0/0 B (0 frag); dyn-pool 768/512 units (256 frag); small-buckets 0/0 bins (0 excess)}}
func.func @grouped_in_units(%ctx: !hip.context, %n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  %a = memref.alloc(%n) : memref<?x128xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?x128xf32>)
  hip.miopen.softmax(%ctx) ins(%a : memref<?x128xf32>) outs(%out : memref<?xf32>)
  %b = memref.alloc(%n) : memref<?x64xf32>
  %c = memref.alloc(%n) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%b : memref<?x64xf32>)
  hip.miopen.softmax(%ctx) ins(%b : memref<?x64xf32>) outs(%c : memref<?x64xf32>)
  hip.miopen.softmax(%ctx) ins(%c : memref<?x64xf32>) outs(%out : memref<?xf32>)
  %s = memref.alloc(%n) : memref<?x3xi8>
  %t = memref.alloc(%n) : memref<?x3xi8>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%s : memref<?x3xi8>)
  hip.miopen.softmax(%ctx) ins(%s : memref<?x3xi8>) outs(%t : memref<?x3xi8>)
  hip.miopen.softmax(%ctx) ins(%t : memref<?x3xi8>) outs(%out : memref<?xf32>)
  return
}

// -----

// Two runtime factors (%n, %m) have no common unit to compare; the static prefix
// sits under both.
// CHECK-LABEL: func.func @report
// CHECK:         arith.maxui
// expected-remark @+1 {{static 512/512 B (0 frag); dyn-pool coefficient unavailable (mixed runtime factors); small-buckets 0/0 bins (0 excess)}}
func.func @report(%ctx: !hip.context, %n: index, %m: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  %s = memref.alloc() : memref<100xf32>
  %a = memref.alloc(%n) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%s : memref<100xf32>) outs(%a : memref<?x64xf32>)
  hip.miopen.softmax(%ctx) ins(%a : memref<?x64xf32>) outs(%s : memref<100xf32>)
  %b = memref.alloc(%m) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%s : memref<100xf32>) outs(%b : memref<?x64xf32>)
  return
}

// -----

// Each size is loaded after the previous buffer: ten domains, one pool each, and
// hip-ep's advisory remark above eight.
// CHECK:       hipdnn.domain_count = 10 : i64
// CHECK-LABEL: func.func @many_domains
// CHECK-COUNT-10: hip.get_pool
// CHECK:         return
// expected-remark @+11 {{hip-pool-allocs: dominance partition produced 10 domains (advisory threshold 8)}}
// expected-remark @+10 {{hip-pool-allocs fragmentation: domain 0: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+9 {{hip-pool-allocs fragmentation: domain 1: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+8 {{hip-pool-allocs fragmentation: domain 2: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+7 {{hip-pool-allocs fragmentation: domain 3: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+6 {{hip-pool-allocs fragmentation: domain 4: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+5 {{hip-pool-allocs fragmentation: domain 5: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+4 {{hip-pool-allocs fragmentation: domain 6: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+3 {{hip-pool-allocs fragmentation: domain 7: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+2 {{hip-pool-allocs fragmentation: domain 8: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
// expected-remark @+1 {{hip-pool-allocs fragmentation: domain 9: static 0/0 B (0 frag); dyn-pool coefficient unavailable (runtime alignment)}}
func.func @many_domains(%ctx: !hip.context, %x: memref<?xf32>, %sizes: memref<16xindex>) {
  %c0 = arith.constant 0 : index
  %d0 = memref.dim %x, %c0 : memref<?xf32>
  %a0 = memref.alloc(%d0) : memref<?xf32>
  hip.tanh(%ctx) ins(%x : memref<?xf32>) outs(%a0 : memref<?xf32>)
  %i1 = arith.constant 1 : index
  %d1 = memref.load %sizes[%i1] : memref<16xindex>
  %a1 = memref.alloc(%d1) : memref<?xf32>
  hip.tanh(%ctx) ins(%a0 : memref<?xf32>) outs(%a1 : memref<?xf32>)
  %i2 = arith.constant 2 : index
  %d2 = memref.load %sizes[%i2] : memref<16xindex>
  %a2 = memref.alloc(%d2) : memref<?xf32>
  hip.tanh(%ctx) ins(%a1 : memref<?xf32>) outs(%a2 : memref<?xf32>)
  %i3 = arith.constant 3 : index
  %d3 = memref.load %sizes[%i3] : memref<16xindex>
  %a3 = memref.alloc(%d3) : memref<?xf32>
  hip.tanh(%ctx) ins(%a2 : memref<?xf32>) outs(%a3 : memref<?xf32>)
  %i4 = arith.constant 4 : index
  %d4 = memref.load %sizes[%i4] : memref<16xindex>
  %a4 = memref.alloc(%d4) : memref<?xf32>
  hip.tanh(%ctx) ins(%a3 : memref<?xf32>) outs(%a4 : memref<?xf32>)
  %i5 = arith.constant 5 : index
  %d5 = memref.load %sizes[%i5] : memref<16xindex>
  %a5 = memref.alloc(%d5) : memref<?xf32>
  hip.tanh(%ctx) ins(%a4 : memref<?xf32>) outs(%a5 : memref<?xf32>)
  %i6 = arith.constant 6 : index
  %d6 = memref.load %sizes[%i6] : memref<16xindex>
  %a6 = memref.alloc(%d6) : memref<?xf32>
  hip.tanh(%ctx) ins(%a5 : memref<?xf32>) outs(%a6 : memref<?xf32>)
  %i7 = arith.constant 7 : index
  %d7 = memref.load %sizes[%i7] : memref<16xindex>
  %a7 = memref.alloc(%d7) : memref<?xf32>
  hip.tanh(%ctx) ins(%a6 : memref<?xf32>) outs(%a7 : memref<?xf32>)
  %i8 = arith.constant 8 : index
  %d8 = memref.load %sizes[%i8] : memref<16xindex>
  %a8 = memref.alloc(%d8) : memref<?xf32>
  hip.tanh(%ctx) ins(%a7 : memref<?xf32>) outs(%a8 : memref<?xf32>)
  %i9 = arith.constant 9 : index
  %d9 = memref.load %sizes[%i9] : memref<16xindex>
  %a9 = memref.alloc(%d9) : memref<?xf32>
  hip.tanh(%ctx) ins(%a8 : memref<?xf32>) outs(%a9 : memref<?xf32>)
  hip.tanh(%ctx) ins(%a9 : memref<?xf32>) outs(%x : memref<?xf32>)
  return
}

// -----

// Sizes read through views (a dim of a collapse_shape and of a reshape) and a
// size the host loads from its scratch are all known before the first buffer:
// one pool, taken after them, with no code motion.
// CHECK-LABEL: func.func @sizes_known_before_the_first_buffer
// CHECK:         memref.collapse_shape
// CHECK-NEXT:    %[[D:.+]] = memref.dim
// CHECK-NEXT:    memref.reshape
// CHECK-NEXT:    %[[E:.+]] = memref.dim
// CHECK:         hip.get_host_scratch
// CHECK:         %[[F:.+]] = memref.load
// CHECK:         %[[POOL:.+]] = hip.get_pool(%{{.+}}, %{{.+}}) : memref<?xi8>
// CHECK-NOT:     hip.get_pool
// CHECK:         memref.view %[[POOL]][%{{.+}}][%[[D]]]
// CHECK:         memref.view %[[POOL]][%{{.+}}][%[[E]]]
// CHECK:         memref.view %[[POOL]][%{{.+}}][%[[F]]]
// expected-remark @+1 {{static 0/0 B (0 frag); dyn-pool coefficient unavailable (mixed runtime factors)}}
func.func @sizes_known_before_the_first_buffer(%ctx: !hip.context, %a: memref<?x4x8xf16>, %src: memref<?x?xf16>, %shape: memref<2xindex>, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %col = memref.collapse_shape %a [[0], [1, 2]] : memref<?x4x8xf16> into memref<?x32xf16>
  %d = memref.dim %col, %c0 : memref<?x32xf16>
  %r = memref.reshape %src(%shape) : (memref<?x?xf16>, memref<2xindex>) -> memref<?x?xf16>
  %e = memref.dim %r, %c1 : memref<?x?xf16>
  %c64 = arith.constant 64 : index
  %scratch = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
  %v = memref.view %scratch[%c0][] : memref<?xi8> to memref<1xindex>
  %f = memref.load %v[%c0] : memref<1xindex>
  %p = memref.alloc(%d) : memref<?xf32>
  %q = memref.alloc(%e) : memref<?xf32>
  %s = memref.alloc(%f) : memref<?xf32>
  hip.miopen.softmax(%ctx) ins(%x : memref<?xf32>) outs(%p : memref<?xf32>)
  hip.miopen.softmax(%ctx) ins(%p : memref<?xf32>) outs(%q : memref<?xf32>)
  hip.miopen.softmax(%ctx) ins(%q : memref<?xf32>) outs(%s : memref<?xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<?xf32>) outs(%x : memref<?xf32>)
  return
}
