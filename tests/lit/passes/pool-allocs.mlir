// RUN: memplan-opt %s --split-input-file -p 'pool-allocs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'hip-pool-allocs{debug=true}' --verify-diagnostics | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs{alignment=64}' | FileCheck %s --check-prefix=ALIGN64
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs{strategy=exact}' | FileCheck %s --check-prefix=EXACT
// RUN: not memplan-opt %s --split-input-file -p 'pool-allocs{alignment=48}' 2>&1 | FileCheck %s --check-prefix=BADALIGN
// RUN: not memplan-opt %s --split-input-file -p 'hip-pool-allocs{alignment=0}' 2>&1 | FileCheck %s --check-prefix=ZEROALIGN

// Every buffer of the function becomes a view into one pool at a planned byte
// offset (256-byte aligned by default); buffers the ordering rules of DESIGN.md
// section 2 keep apart never overlap. The plan is recorded on the module.

// BADALIGN: error: invalid options for pass 'pool-allocs': alignment must be a positive power of two, got 48
// BADALIGN-NOT: Traceback
// ZEROALIGN: error: invalid options for pass 'hip-pool-allocs': alignment must be a positive power of two, got 0

// Two static buffers live together: apart, each at a 256-byte boundary; their
// deallocs are erased.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = array<i64: 0, 256>, hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @two_static_allocations
// CHECK-NEXT:    %[[SIZE:.+]] = arith.constant 512 : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[OFF_A:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.+]] = memref.view %[[POOL]][%[[OFF_A]]][] : memref<?xi8> to memref<16xf32>
// CHECK-NEXT:    %[[OFF_B:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[B:.+]] = memref.view %[[POOL]][%[[OFF_B]]][] : memref<?xi8> to memref<8xf16>
// CHECK-NEXT:    hip.relu(%{{.+}}) ins(%{{.+}} : memref<16xf32>) outs(%[[A]] : memref<16xf32>)
// CHECK-NEXT:    hip.launch @k(%{{.+}}) ins(%[[A]] : memref<16xf32>) outs(%[[B]] : memref<8xf16>)
// CHECK-NEXT:    hip.launch @k(%{{.+}}) ins(%[[B]] : memref<8xf16>)
// CHECK-NEXT:    return
// ALIGN64:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = array<i64: 0, 64>, hipdnn.pool_size = 128 : i64}
// ALIGN64-LABEL: func.func @two_static_allocations
// ALIGN64:         arith.constant 128 : index
func.func @two_static_allocations(%ctx: !hip.context, %in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @+1 {{domain 0: 2 buffers, static region 512 bytes (lower bound 80), 0 slabs}}
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<8xf16>
  hip.relu(%ctx) ins(%in : memref<16xf32>) outs(%a : memref<16xf32>)
  hip.launch @k(%ctx) ins(%a : memref<16xf32>) outs(%b : memref<8xf16>)
  hip.launch @k(%ctx) ins(%b : memref<8xf16>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<8xf16>
  return
}

// -----

// Device work on one stream is in order: t2 is written after the kernel that
// last reads t0 was enqueued, so it takes t0's bytes whatever its element type.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 0, 256, 0>, hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @disjoint_lifetimes_share
// CHECK:         %[[T0:.+]] = memref.view %[[POOL:.+]][%{{.+}}][] : memref<?xi8> to memref<64xf32>
// CHECK:         %[[T1:.+]] = memref.view %[[POOL]][%{{.+}}][] : memref<?xi8> to memref<256xi8>
// CHECK:         %[[OFF:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[T2:.+]] = memref.view %[[POOL]][%[[OFF]]][] : memref<?xi8> to memref<32xi64>
// ALIGN64:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 0, 256, 0>, hipdnn.pool_size = 512 : i64}
func.func @disjoint_lifetimes_share(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static region 512 bytes (lower bound 512), 0 slabs}}
  %t0 = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%in : memref<64xf32>) outs(%t0 : memref<64xf32>)
  %t1 = memref.alloc() : memref<256xi8>
  hip.launch @k(%ctx) ins(%t0 : memref<64xf32>) outs(%t1 : memref<256xi8>)
  %t2 = memref.alloc() : memref<32xi64>
  hip.launch @k(%ctx) ins(%t1 : memref<256xi8>) outs(%t2 : memref<32xi64>)
  hip.launch @k(%ctx) ins(%t2 : memref<32xi64>) outs(%out : memref<64xf32>)
  return
}

// -----

// Overlapping lifetimes: t0 is read again after t2 is written, so all three are
// apart.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 0, 256, 512>, hipdnn.pool_size = 768 : i64}
// CHECK-LABEL: func.func @overlapping_lifetimes_apart
func.func @overlapping_lifetimes_apart(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static region 768 bytes (lower bound 768), 0 slabs}}
  %t0 = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%in : memref<64xf32>) outs(%t0 : memref<64xf32>)
  %t1 = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%t0 : memref<64xf32>) outs(%t1 : memref<64xf32>)
  %t2 = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%t1 : memref<64xf32>) outs(%t2 : memref<64xf32>)
  hip.add(%ctx) ins(%t0, %t2 : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// The seed's race: %a is dead in program order before %b is allocated, but the
// cast that reads %a may not have run when the host stores into %b.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = array<i64: 0, 256>, hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @host_fed_apart_from_pending_device
// CHECK:         %[[A:.+]] = memref.view %[[POOL:.+]][%{{.+}}][] : memref<?xi8> to memref<32xi64>
// CHECK:         arith.constant 256 : index
// CHECK-NEXT:    %[[B:.+]] = memref.view %[[POOL]][%{{.+}}][] : memref<?xi8> to memref<32xi64>
func.func @host_fed_apart_from_pending_device(%ctx: !hip.context, %x: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{domain 0: 2 buffers, static region 512 bytes (lower bound 512), 0 slabs}}
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>)
  // expected-remark @+1 {{kept apart from %a (allocated at 98:3) in the pool: its device access at 'hip.cast' (100:3) may still be running at 'memref.store' (103:3): no op in between waits for its stream}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>)
  return
}

// -----

// After a synchronize the cast has read %a: %b may take its bytes.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = array<i64: 0, 0>, hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @host_fed_share_after_synchronize
// CHECK:         hip.synchronize
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    memref.view
func.func @host_fed_share_after_synchronize(%ctx: !hip.context, %x: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{domain 0: 2 buffers, static region 256 bytes}}
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>)
  hip.synchronize(%ctx)
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>)
  return
}

// -----

// A returned buffer stays a plain allocation: the next invocation reuses the pool
// while the caller may still read it.
// CHECK:       module attributes {hipdnn.buffer_count = 1 : i64, hipdnn.buffer_offsets = array<i64: 0>, hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @returned_buffer_kept_out
// CHECK:         %[[T:.+]] = memref.view
// CHECK:         %[[R:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         return %[[R]] : memref<64xf32>
func.func @returned_buffer_kept_out(%ctx: !hip.context, %in: memref<64xf32>) -> memref<64xf32> {
  // expected-remark @+1 {{domain 0: 1 buffer, static region 256 bytes}}
  %t = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  // expected-remark @+1 {{buffer left out of the pool: returned by 'func.return'; the next invocation reuses the pool while the caller may still read it}}
  %r = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%t : memref<64xf32>) outs(%r : memref<64xf32>)
  return %r : memref<64xf32>
}

// -----

// A buffer passed to an unknown call escapes: it stays out, with its dealloc.
// CHECK:       module attributes {hipdnn.buffer_count = 1 : i64, hipdnn.buffer_offsets = array<i64: 0>, hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @escaping_buffer_kept_out
// CHECK:         %[[E:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         call @consume(%[[E]])
// CHECK:         memref.dealloc %[[E]]
func.func private @consume(memref<64xf32>)
func.func @escaping_buffer_kept_out(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  // expected-remark @+1 {{buffer left out of the pool: used by 'func.call', whose memory effects are unknown}}
  %e = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%in : memref<64xf32>) outs(%e : memref<64xf32>)
  func.call @consume(%e) : (memref<64xf32>) -> ()
  // expected-remark @+1 {{domain 0: 1 buffer, static region 256 bytes}}
  %t = memref.alloc() : memref<64xf32>
  hip.relu(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  hip.relu(%ctx) ins(%t : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %e : memref<64xf32>
  return
}

// -----

// Dynamic buffers of SSA-identical byte size (4 * %n) that the rules let share go
// into one slab after the static region; its offset is the static region's end.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 256, 0, 256>, hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @dynamic_same_size_share
// CHECK-SAME:    (%[[CTX:[^:]+]]: !hip.context, %[[N:[^:]+]]: index
// CHECK-NEXT:    %[[STATIC:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[ALIGN:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[FOUR:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[BYTES:.+]] = arith.muli %[[FOUR]], %[[N]] : index
// CHECK-NEXT:    %[[UNITS:.+]] = arith.ceildivui %[[BYTES]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[SLAB:.+]] = arith.muli %[[UNITS]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[SIZE:.+]] = arith.addi %[[STATIC]], %[[SLAB]] : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%[[CTX]], %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[A:.+]] = memref.view %[[POOL]][%[[STATIC]]][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK:         memref.view %[[POOL]][%{{.+}}][] : memref<?xi8> to memref<16xf32>
// CHECK:         %[[B:.+]] = memref.view %[[POOL]][%[[STATIC]]][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK-NOT:     memref.dealloc
func.func @dynamic_same_size_share(%ctx: !hip.context, %n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static region 256 bytes (lower bound 64), 1 slab}}
  %a = memref.alloc(%n) : memref<?xf32>
  hip.relu(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?xf32>)
  %s = memref.alloc() : memref<16xf32>
  hip.launch @k(%ctx) ins(%a : memref<?xf32>) outs(%s : memref<16xf32>)
  %b = memref.alloc(%n) : memref<?xf32>
  hip.launch @k(%ctx) ins(%s : memref<16xf32>) outs(%b : memref<?xf32>)
  hip.relu(%ctx) ins(%b : memref<?xf32>) outs(%out : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Different sizes never share a slab, even when ordered: %a and %c (4 * %n) share
// one, %b (4 * %m) and %d (%n * %m) get their own; later slabs start at runtime
// offsets (-1 in the recorded plan).
// CHECK:       module attributes {hipdnn.buffer_count = 4 : i64, hipdnn.buffer_offsets = array<i64: 0, -1, 0, -1>, hipdnn.pool_size = 0 : i64}
// CHECK-LABEL: func.func @dynamic_different_sizes_apart
// CHECK-SAME:    (%{{[^:]+}}: !hip.context, %[[N:[^:]+]]: index, %[[M:[^:]+]]: index
// CHECK-NEXT:    %[[STATIC:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ALIGN:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[FOUR:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[B0:.+]] = arith.muli %[[FOUR]], %[[N]] : index
// CHECK-NEXT:    %[[U0:.+]] = arith.ceildivui %[[B0]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[SLAB0:.+]] = arith.muli %[[U0]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[END0:.+]] = arith.addi %[[STATIC]], %[[SLAB0]] : index
// CHECK-NEXT:    %[[FOUR_1:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[B1:.+]] = arith.muli %[[FOUR_1]], %[[M]] : index
// CHECK-NEXT:    %[[U1:.+]] = arith.ceildivui %[[B1]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[SLAB1:.+]] = arith.muli %[[U1]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[END1:.+]] = arith.addi %[[END0]], %[[SLAB1]] : index
// CHECK-NEXT:    %[[NM:.+]] = arith.muli %[[N]], %[[M]] : index
// CHECK-NEXT:    %[[U2:.+]] = arith.ceildivui %[[NM]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[SLAB2:.+]] = arith.muli %[[U2]], %[[ALIGN]] : index
// CHECK-NEXT:    %[[SIZE:.+]] = arith.addi %[[END1]], %[[SLAB2]] : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    memref.view %[[POOL]][%[[STATIC]]][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK:         memref.view %[[POOL]][%[[END0]]][%[[M]]] : memref<?xi8> to memref<?xf32>
// CHECK:         memref.view %[[POOL]][%[[STATIC]]][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK:         memref.view %[[POOL]][%[[END1]]][%[[N]], %[[M]]] : memref<?xi8> to memref<?x?xi8>
func.func @dynamic_different_sizes_apart(%ctx: !hip.context, %n: index, %m: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{domain 0: 4 buffers, static region 0 bytes (lower bound 0), 3 slabs}}
  %a = memref.alloc(%n) : memref<?xf32>
  hip.relu(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?xf32>)
  %b = memref.alloc(%m) : memref<?xf32>
  hip.relu(%ctx) ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
  %c = memref.alloc(%n) : memref<?xf32>
  hip.relu(%ctx) ins(%b : memref<?xf32>) outs(%c : memref<?xf32>)
  %d = memref.alloc(%n, %m) : memref<?x?xi8>
  hip.launch @k(%ctx) ins(%c : memref<?xf32>) outs(%d : memref<?x?xi8>)
  hip.launch @k(%ctx) ins(%d : memref<?x?xi8>) outs(%out : memref<?xf32>)
  return
}

// -----

// %m is defined after the first buffer, so the pool taken before it cannot hold
// %a: %a opens domain 1, whose pool is taken where %m is known. Static buffers
// stay in domain 0.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_domains = array<i64: 0, 1, 0>, hipdnn.buffer_offsets = array<i64: 0, 0, 0>, hipdnn.domain_count = 2 : i64, hipdnn.pool_size = 256 : i64, hipdnn.pool_sizes = array<i64: 256, 0>}
// CHECK-LABEL: func.func @two_domains
// CHECK-NEXT:    %[[SIZE0:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[POOL0:.+]] = hip.get_pool(%{{.+}}, %[[SIZE0]]) : memref<?xi8>
// CHECK:         %[[M:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:         arith.muli %{{.+}}, %[[M]] : index
// CHECK:         %[[SIZE1:.+]] = arith.addi
// CHECK-NEXT:    %[[POOL1:.+]] = hip.get_pool(%{{.+}}, %[[SIZE1]]) {domain_id = 1 : i64} : memref<?xi8>
// CHECK-NEXT:    %[[A:.+]] = memref.view %[[POOL1]][%{{.+}}][%[[M]]] : memref<?xi8> to memref<?xf32>
// CHECK:         memref.view %[[POOL0]]
func.func @two_domains(%ctx: !hip.context, %n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{domain 0: 2 buffers, static region 256 bytes (lower bound 256), 0 slabs}}
  %s = memref.alloc() : memref<64xf32>
  hip.launch @k(%ctx) ins(%in : memref<?xf32>) outs(%s : memref<64xf32>)
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index
  // expected-remark @+2 {{opens pool domain 1: its size is defined after the first buffer of every earlier domain}}
  // expected-remark @+1 {{domain 1: 1 buffer, static region 0 bytes (lower bound 0), 1 slab}}
  %a = memref.alloc(%m) : memref<?xf32>
  hip.launch @k(%ctx) ins(%s : memref<64xf32>) outs(%a : memref<?xf32>)
  %t = memref.alloc() : memref<64xf32>
  hip.launch @k(%ctx) ins(%a : memref<?xf32>) outs(%t : memref<64xf32>)
  hip.launch @k(%ctx) ins(%t : memref<64xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// An allocation asking for more than the pass's alignment gets its own; a static
// strided layout is placed as its contiguous span (5 + 1 * 8 + 3 * 1 + 1 = 17
// elements) and reinterpreted; other layouts and memory spaces stay out. Greedy
// places the largest buffer first; the exact strategy puts the 1024-aligned one at
// 0 and packs tighter.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 1024, 0, 256>, hipdnn.pool_size = 1280 : i64}
// CHECK-LABEL: func.func @alignment_and_layouts
// CHECK:         memref.view %{{.+}}[%{{.+}}][] : memref<?xi8> to memref<16xf32>
// CHECK:         %[[SPAN:.+]] = memref.view %{{.+}}[%{{.+}}][] : memref<?xi8> to memref<17xf32>
// CHECK-NEXT:    %[[S:.+]] = memref.reinterpret_cast %[[SPAN]] to offset: [5], sizes: [2, 4], strides: [8, 1] : memref<17xf32> to memref<2x4xf32, strided<[8, 1], offset: 5>>
// CHECK:         memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
// CHECK:         memref.alloc() : memref<16xf32, 3>
// ALIGN64:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 1024, 0, 128>, hipdnn.pool_size = 1088 : i64}
// EXACT:         module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = array<i64: 0, 256, 512>, hipdnn.pool_size = 768 : i64}
// EXACT-LABEL:   func.func @alignment_and_layouts
func.func @alignment_and_layouts(%ctx: !hip.context, %in: memref<16xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static region 1280 bytes}}
  %big = memref.alloc() {alignment = 1024 : i64} : memref<16xf32>
  %s = memref.alloc() : memref<2x4xf32, strided<[8, 1], offset: 5>>
  %small = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{buffer left out of the pool: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>> has a layout that is not static strided with a static shape}}
  %t = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  // expected-remark @+1 {{buffer left out of the pool: memref<16xf32, 3 : i64> is not in the default memory space of the pool}}
  %w = memref.alloc() : memref<16xf32, 3 : i64>
  hip.launch @k(%ctx) ins(%in : memref<16xf32>) outs(%big, %s, %small, %t, %w : memref<16xf32>, memref<2x4xf32, strided<[8, 1], offset: 5>>, memref<4xf32>, memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<16xf32, 3 : i64>)
  return
}

// -----

// Left alone: no context argument (the runtime hands out pools through it), and
// a function with nothing to pool. Neither records a plan.
// CHECK-NOT:   hipdnn
// CHECK-LABEL: func.func @no_context_argument
// CHECK-NEXT:    memref.alloc() : memref<16xf32>
// CHECK-LABEL: func.func @no_allocations
// CHECK-NEXT:    hip.relu
// CHECK-NOT:     hip.get_pool
// expected-remark @+1 {{function left alone: argument 0 is not a !hip.context}}
func.func @no_context_argument(%in: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  return
}
func.func @no_allocations(%ctx: !hip.context, %in: memref<16xf32>, %out: memref<16xf32>) {
  hip.relu(%ctx) ins(%in : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}
