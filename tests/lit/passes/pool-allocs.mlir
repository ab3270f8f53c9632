// RUN: memplan-opt %s --split-input-file -p 'pool-allocs' | FileCheck %s
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs{debug=true}' --verify-diagnostics
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs{alignment=64}' | FileCheck %s --check-prefix=ALIGN64
// RUN: memplan-opt %s --split-input-file -p 'pool-allocs{strategy=exact}' | FileCheck %s --check-prefix=EXACT
// RUN: not memplan-opt %s --split-input-file -p 'pool-allocs{alignment=48}' 2>&1 | FileCheck %s --check-prefix=BADALIGN

// memplan's own pool-allocs: every buffer of a function becomes a view into one
// pool per domain at a planned byte offset (256-byte aligned by default); buffers
// the ordering rules of DESIGN.md section 2 keep apart never overlap; returned
// buffers stay out. The plan is recorded on the module as hip-ep records it
// (hipdnn.*); arrays print as mlir-opt prints them, without the i64.
// hip-pool-allocs' own defaults are in pool-allocs-hip.mlir.

// BADALIGN: error: invalid options for pass 'pool-allocs': alignment must be a positive power of 2 (got 48)
// BADALIGN-NOT: Traceback


// Two static buffers live together: apart, each at a 256-byte boundary; the
// pool's size and every offset are constants taken right after it; their deallocs
// are erased.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 256], hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @two_live_together
// CHECK-NEXT:    %[[SIZE:.+]] = arith.constant 512 : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// CHECK-NEXT:    %[[OFF_A:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[OFF_B:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[A:.+]] = memref.view %[[POOL]][%[[OFF_A]]][] : memref<?xi8> to memref<16xf32>
// CHECK-NEXT:    %[[B:.+]] = memref.view %[[POOL]][%[[OFF_B]]][] : memref<?xi8> to memref<8xf16>
// CHECK-NEXT:    hip.tanh(%{{.+}}) ins(%{{.+}} : memref<16xf32>) outs(%[[A]] : memref<16xf32>)
// CHECK-NEXT:    hip.miopen.softmax(%{{.+}}) ins(%[[A]] : memref<16xf32>) outs(%[[B]] : memref<8xf16>)
// CHECK-NEXT:    hip.miopen.softmax(%{{.+}}) ins(%[[B]] : memref<8xf16>)
// CHECK-NEXT:    return
// ALIGN64:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 64], hipdnn.pool_size = 128 : i64}
// ALIGN64-LABEL: func.func @two_live_together
// ALIGN64-NEXT:    arith.constant 128 : index
func.func @two_live_together(%ctx: !hip.context, %in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 512 bytes (lower bound 512), 0 slabs, 0 buckets}}
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<8xf16>
  hip.tanh(%ctx) ins(%in : memref<16xf32>) outs(%a : memref<16xf32>)
  hip.miopen.softmax(%ctx) ins(%a : memref<16xf32>) outs(%b : memref<8xf16>)
  hip.miopen.softmax(%ctx) ins(%b : memref<8xf16>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<8xf16>
  return
}

// -----

// Device work on one stream is in order: %t2 is written after the kernel that
// last reads %t0 was enqueued, so it takes %t0's bytes whatever its element type.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = [0, 256, 0], hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @device_chain_shares
// ALIGN64:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = [0, 256, 0], hipdnn.pool_size = 512 : i64}
func.func @device_chain_shares(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static prefix 512 bytes (lower bound 512), 0 slabs, 0 buckets}}
  %t0 = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%t0 : memref<64xf32>)
  %t1 = memref.alloc() : memref<256xi8>
  hip.miopen.softmax(%ctx) ins(%t0 : memref<64xf32>) outs(%t1 : memref<256xi8>)
  %t2 = memref.alloc() : memref<32xi64>
  hip.miopen.softmax(%ctx) ins(%t1 : memref<256xi8>) outs(%t2 : memref<32xi64>)
  hip.miopen.softmax(%ctx) ins(%t2 : memref<32xi64>) outs(%out : memref<64xf32>)
  return
}

// -----

// A buffer's accesses, not its allocation, decide: %a is allocated before %b but
// first written after %b's last read, so they share (hip-pool-allocs keeps them
// apart: its lifetimes start at the allocation).
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 0], hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @first_access_not_allocation
func.func @first_access_not_allocation(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 256 bytes (lower bound 256), 0 slabs, 0 buckets}}
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// The seed's race: %a is dead in program order before %b is allocated, but the
// cast that reads %a may not have run when the host stores into %b.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 256], hipdnn.pool_size = 512 : i64}
// CHECK-LABEL: func.func @host_write_after_pending_read
func.func @host_write_after_pending_read(%ctx: !hip.context, %x: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 512 bytes}}
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  // expected-remark @+1 {{kept apart from %a (allocated at 94:3) in the pool: its device access at 'hip.cast' (96:3) may still be running at 'memref.store' (99:3): no op in between waits for its stream}}
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  return
}

// -----

// After a synchronize the cast has read %a: %b may take its bytes.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 0], hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @shared_after_synchronize
func.func @shared_after_synchronize(%ctx: !hip.context, %x: i64, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 256 bytes (lower bound 256), 0 slabs, 0 buckets}}
  %a = memref.alloc() : memref<32xi64>
  memref.store %x, %a[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%a : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  memplan.synchronize(%ctx)
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  hip.cast(%ctx) ins(%b : memref<32xi64>) outs(%o : memref<32xf32>) {to = 1 : i64}
  return
}

// -----

// A returned buffer stays a plain allocation: the next invocation reuses the pool
// while the caller may still read it.
// CHECK-LABEL: func.func @returned_stays_out
// CHECK:         hip.get_pool
// CHECK:         %[[R:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         return %[[R]]
func.func @returned_stays_out(%ctx: !hip.context, %in: memref<64xf32>) -> memref<64xf32> {
  // expected-remark @+1 {{domain 0: 1 buffer, static prefix 256 bytes (lower bound 256), 0 slabs, 0 buckets}}
  %t = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  // expected-remark @+1 {{buffer left out of the pool: returned by 'func.return'; the next invocation reuses the pool while the caller may still read it}}
  %r = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%t : memref<64xf32>) outs(%r : memref<64xf32>)
  return %r : memref<64xf32>
}

// -----

// A buffer passed to an unknown call escapes: it stays out, with its dealloc; the
// pool is taken before the first buffer it holds.
// CHECK-LABEL: func.func @escaping_stays_out
// CHECK:         %[[E:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         call @consume(%[[E]])
// CHECK-NEXT:    arith.constant 256 : index
// CHECK-NEXT:    hip.get_pool
// CHECK:         memref.dealloc %[[E]]
func.func private @consume(memref<64xf32>)
func.func @escaping_stays_out(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  // expected-remark @+1 {{buffer left out of the pool: used by 'func.call', whose memory effects are unknown}}
  %e = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%e : memref<64xf32>)
  func.call @consume(%e) : (memref<64xf32>) -> ()
  // expected-remark @+1 {{domain 0: 1 buffer, static prefix 256 bytes (lower bound 256), 0 slabs, 0 buckets}}
  %t = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
  hip.tanh(%ctx) ins(%t : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %e : memref<64xf32>
  return
}

// -----

// Dynamic buffers (256 * %n bytes each) that never live together share one slab
// after the static prefix; its width is the runtime maximum of their sizes, and
// its base the prefix's size, a constant.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = [256, 0, 256], hipdnn.pool_size = 256 : i64}
// CHECK-LABEL: func.func @slab_after_static_prefix
// CHECK-SAME:    (%{{.+}}: !hip.context, %[[N:[^:]+]]: index
// CHECK:         %[[A:.+]] = arith.muli %[[N]], %[[C256:.+]] : index
// CHECK:         %[[B:.+]] = arith.muli %[[N]], %{{.+}} : index
// CHECK-NEXT:    %[[W:.+]] = arith.maxui %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[PREFIX:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[SIZE:.+]] = arith.addi %[[W]], %[[PREFIX]] : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]]) : memref<?xi8>
// CHECK:         %[[BASE:.+]] = arith.constant 256 : index
// CHECK-NEXT:    memref.view %[[POOL]][%[[BASE]]][%[[N]]] : memref<?xi8> to memref<?x64xf32>
// CHECK:         memref.view %[[POOL]][%[[BASE]]][%[[N]]] : memref<?xi8> to memref<?x64xf32>
// CHECK-NOT:     memref.dealloc
func.func @slab_after_static_prefix(%ctx: !hip.context, %n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static prefix 256 bytes (lower bound 256), 1 slab, 0 buckets}}
  %a = memref.alloc(%n) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?x64xf32>)
  %s = memref.alloc() : memref<16xf32>
  hip.miopen.softmax(%ctx) ins(%a : memref<?x64xf32>) outs(%s : memref<16xf32>)
  %b = memref.alloc(%n) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%s : memref<16xf32>) outs(%b : memref<?x64xf32>)
  hip.miopen.softmax(%ctx) ins(%b : memref<?x64xf32>) outs(%out : memref<?xf32>)
  memref.dealloc %a : memref<?x64xf32>
  return
}

// -----

// Sizes of different operands share a slab too (hip-ep's lifetime-only groups):
// 12 * %m is no multiple of 256, so the width is rounded up at run time.
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, 0], hipdnn.pool_size = 0 : i64}
// CHECK-LABEL: func.func @slab_of_two_sizes
// CHECK:         %[[W:.+]] = arith.maxui
// CHECK-NEXT:    %[[M1:.+]] = arith.constant 255 : index
// CHECK-NEXT:    %[[AL:.+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[SUM:.+]] = arith.addi %[[W]], %[[M1]] : index
// CHECK-NEXT:    %[[Q:.+]] = arith.divui %[[SUM]], %[[AL]] : index
// CHECK-NEXT:    %[[SIZE:.+]] = arith.muli %[[Q]], %[[AL]] : index
// CHECK-NEXT:    hip.get_pool(%{{.+}}, %[[SIZE]])
func.func @slab_of_two_sizes(%ctx: !hip.context, %n: index, %m: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 0 bytes (lower bound 0), 1 slab, 0 buckets}}
  %a = memref.alloc(%n) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?x64xf32>)
  hip.miopen.softmax(%ctx) ins(%a : memref<?x64xf32>) outs(%out : memref<?xf32>)
  %b = memref.alloc(%m) : memref<?x3xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%b : memref<?x3xf32>)
  hip.miopen.softmax(%ctx) ins(%b : memref<?x3xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// Dynamic buffers live together take two slabs; the second starts at the first's
// width, a runtime offset (-1 in the recorded plan).
// CHECK:       module attributes {hipdnn.buffer_count = 2 : i64, hipdnn.buffer_offsets = [0, -1], hipdnn.pool_size = 0 : i64}
// CHECK-LABEL: func.func @live_together_stacked
// CHECK:         %[[A:.+]] = arith.muli
// CHECK:         %[[B:.+]] = arith.muli
// CHECK-NEXT:    %[[SIZE:.+]] = arith.addi %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[POOL:.+]] = hip.get_pool(%{{.+}}, %[[SIZE]])
// CHECK:         memref.view %[[POOL]][%[[A]]]
func.func @live_together_stacked(%ctx: !hip.context, %n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 0 bytes (lower bound 0), 2 slabs, 0 buckets}}
  %a = memref.alloc(%n) : memref<?x64xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%a : memref<?x64xf32>)
  %b = memref.alloc(%n) : memref<?x128xf16>
  hip.miopen.softmax(%ctx) ins(%a : memref<?x64xf32>) outs(%b : memref<?x128xf16>)
  hip.miopen.softmax(%ctx) ins(%b : memref<?x128xf16>) outs(%out : memref<?xf32>)
  return
}

// -----

// %m is loaded after the first buffer, so the pool taken before it cannot hold %a:
// %a opens domain 1, whose pool is taken where %m is known. Static buffers stay in
// domain 0.
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_domains = [0, 1, 0], hipdnn.buffer_offsets = [0, 0, 0], hipdnn.domain_count = 2 : i64, hipdnn.pool_size = 256 : i64, hipdnn.pool_sizes = [256, 0]}
// CHECK-LABEL: func.func @late_size_opens_a_domain
// CHECK:         %[[POOL0:.+]] = hip.get_pool(%{{.+}}, %{{.+}}) : memref<?xi8>
// CHECK:         %[[M:.+]] = memref.load
// CHECK-NEXT:    arith.constant 4 : index
// CHECK-NEXT:    arith.muli %[[M]]
// CHECK:         %[[POOL1:.+]] = hip.get_pool(%{{.+}}, %{{.+}}) {domain_id = 1 : i64} : memref<?xi8>
// CHECK:         memref.view %[[POOL1]][%{{.+}}][%[[M]]] : memref<?xi8> to memref<?xf32>
// CHECK:         memref.view %[[POOL0]]
func.func @late_size_opens_a_domain(%ctx: !hip.context, %n: index, %shape: memref<2xindex>, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{domain 0: 2 buffers, static prefix 256 bytes (lower bound 256), 0 slabs, 0 buckets}}
  %s = memref.alloc() : memref<64xf32>
  hip.miopen.softmax(%ctx) ins(%in : memref<?xf32>) outs(%s : memref<64xf32>)
  %m = memref.load %shape[%c0] : memref<2xindex>
  // expected-remark @+2 {{opens pool domain 1: its size is defined after the first buffer of every earlier domain}}
  // expected-remark @+1 {{domain 1: 1 buffer, static prefix 0 bytes (lower bound 0), 1 slab, 0 buckets}}
  %a = memref.alloc(%m) : memref<?xf32>
  hip.miopen.softmax(%ctx) ins(%s : memref<64xf32>) outs(%a : memref<?xf32>)
  %t = memref.alloc() : memref<64xf32>
  hip.miopen.softmax(%ctx) ins(%a : memref<?xf32>) outs(%t : memref<64xf32>)
  hip.miopen.softmax(%ctx) ins(%t : memref<64xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// An allocation asking for more than the pass's alignment gets its own; a static
// strided layout is placed as its contiguous span (5 + 1 * 8 + 3 * 1 + 1 = 17
// elements) and reinterpreted; other memory spaces stay out. The greedy strategy
// puts the 1024-aligned buffer on top (1,280 bytes); exact puts it at 0 and packs
// the others after it (768 bytes).
// CHECK:       module attributes {hipdnn.buffer_count = 3 : i64, hipdnn.buffer_offsets = [1024, 0, 256], hipdnn.pool_size = 1280 : i64}
// CHECK-LABEL: func.func @alignment_and_layouts
// CHECK:         %[[SPAN:.+]] = memref.view %{{.+}} : memref<?xi8> to memref<17xf32>
// CHECK-NEXT:    memref.reinterpret_cast %[[SPAN]] to offset: [5], sizes: [2, 4], strides: [8, 1] : memref<17xf32> to memref<2x4xf32, strided<[8, 1], offset: 5>>
// CHECK:         memref.alloc() : memref<16xf32, 3>
// EXACT-LABEL: func.func @late_size_opens_a_domain
// EXACT:       module attributes {hipdnn.buffer_count = 3 : i64
// EXACT-SAME:    hipdnn.buffer_offsets = [0, 256, 512], hipdnn.pool_size = 768 : i64}
func.func @alignment_and_layouts(%ctx: !hip.context, %in: memref<16xf32>) {
  // expected-remark @+1 {{domain 0: 3 buffers, static prefix 1280 bytes}}
  %big = memref.alloc() {alignment = 1024 : i64} : memref<16xf32>
  %s = memref.alloc() : memref<2x4xf32, strided<[8, 1], offset: 5>>
  %small = memref.alloc() : memref<4xf32>
  // expected-remark @+1 {{buffer left out of the pool: memref<16xf32, 3 : i64> is not in the default memory space of the pool}}
  %w = memref.alloc() : memref<16xf32, 3 : i64>
  hip.miopen.softmax(%ctx) ins(%in : memref<16xf32>) outs(%big : memref<16xf32>)
  hip.miopen.softmax(%ctx) ins(%in : memref<16xf32>) outs(%s : memref<2x4xf32, strided<[8, 1], offset: 5>>)
  hip.miopen.softmax(%ctx) ins(%in : memref<16xf32>) outs(%small : memref<4xf32>)
  hip.miopen.softmax(%ctx) ins(%in : memref<16xf32>) outs(%w : memref<16xf32, 3 : i64>)
  hip.miopen.softmax(%ctx) ins(%big : memref<16xf32>) outs(%in : memref<16xf32>)
  hip.miopen.softmax(%ctx) ins(%s : memref<2x4xf32, strided<[8, 1], offset: 5>>) outs(%in : memref<16xf32>)
  hip.miopen.softmax(%ctx) ins(%small : memref<4xf32>) outs(%in : memref<16xf32>)
  hip.miopen.softmax(%ctx) ins(%w : memref<16xf32, 3 : i64>) outs(%in : memref<16xf32>)
  return
}

// -----

// Left alone: no context argument (the runtime hands out pools through it); no
// plan is recorded.
// CHECK-NOT:   hipdnn
// CHECK-LABEL: func.func @no_context_argument
// CHECK:         memref.alloc()
// CHECK:         memref.dealloc
// expected-remark @+1 {{function left alone: argument 0 is not a runtime context}}
func.func @no_context_argument(%in: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// Nothing to pool: no pool, and the empty plan hip-ep's code generator expects.
// CHECK:       module attributes {hipdnn.buffer_count = 0 : i64, hipdnn.buffer_offsets = [], hipdnn.pool_size = 0 : i64}
// CHECK-LABEL: func.func @nothing_to_pool
// CHECK-NOT:     hip.get_pool
func.func @nothing_to_pool(%ctx: !hip.context, %in: memref<16xf32>, %out: memref<16xf32>) {
  hip.tanh(%ctx) ins(%in : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}
