// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'optimize-memrefs' | FileCheck %s --check-prefix=OPT
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file -p 'pool-allocs' | FileCheck %s --check-prefix=POOL

// Regressions found in review of optimize-memrefs / pool-allocs and the ordering
// analysis. Each case checks the correct plan.

// A buffer with no access (only a dealloc) "follows" every slot, so it takes the
// live slot of %a; its dealloc is retargeted to %a and %a's own dealloc erased:
// %a is freed before the kernel that still reads it (use after free).
// OPT-LABEL: func.func @unaccessed_buffer_frees_live_slot
// OPT:         %[[A:.+]] = memref.alloc() : memref<64xf32>
// OPT:         hip.tanh(%{{.+}}) ins(%{{.+}} : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// OPT-NOT:     memref.dealloc %[[A]] :
// OPT:         hip.tanh(%{{.+}}) ins(%[[A]] : memref<64xf32>) outs(%{{.+}} : memref<64xf32>)
// OPT:         memref.dealloc %[[A]]
// OPT:         return
// POOL-LABEL: func.func @unaccessed_buffer_frees_live_slot
func.func @unaccessed_buffer_frees_live_slot(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  return
}

// -----

// extract_aligned_pointer_as_index lets the address escape (here into a call that
// may read or write through it); the analysis sees "no effect, no memref result"
// and %a, having no access, shares bytes with %b, which is live across the call.
// OPT-LABEL: func.func @pointer_escape_through_extract_aligned_pointer
// OPT:         %[[A:[^ :]+]] = memref.alloc() : memref<64xf32>
// OPT:         %[[B:[^ :]+]] = memref.alloc() : memref<64xf32>
// POOL-LABEL: func.func @pointer_escape_through_extract_aligned_pointer
// POOL:         %[[A:[^ :]+]] = memref.alloc() : memref<64xf32>
func.func private @consume_ptr(index)
func.func @pointer_escape_through_extract_aligned_pointer(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<64xf32> -> index
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  func.call @consume_ptr(%p) : (index) -> ()
  hip.tanh(%ctx) ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// %a is stored as a *value* into %box (memref.store's effect is tied to %box only),
// then loaded back as %a2 and written by a kernel while %b is live. The analysis
// ignores the value use, so %a and %b share bytes.
// OPT-LABEL: func.func @buffer_stored_into_another_memref
// OPT:         %[[A:[^ :]+]] = memref.alloc() : memref<64xf32>
// OPT:         %[[B:[^ :]+]] = memref.alloc() : memref<64xf32>
// POOL-LABEL: func.func @buffer_stored_into_another_memref
// POOL:         %[[A:[^ :]+]] = memref.alloc() : memref<64xf32>
func.func @buffer_stored_into_another_memref(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>, %box: memref<1xmemref<64xf32>>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xf32>
  memref.store %a, %box[%c0] : memref<1xmemref<64xf32>>
  %b = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  %a2 = memref.load %box[%c0] : memref<1xmemref<64xf32>>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a2 : memref<64xf32>)
  hip.add(%ctx) ins(%a2, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// An unregistered op answers has_trait(IsTerminator) with True, so the analysis
// takes its use for the function's return: %a counts as "returned" (no escape),
// has no access, and takes the slot of %s, which a later kernel still reads.
// OPT-LABEL: func.func @unregistered_user_is_not_a_return
// OPT:         %[[S:[^ :]+]] = memref.alloc() : memref<64xf32>
// OPT:         %[[A:[^ :]+]] = memref.alloc() : memref<64xf32>
// OPT:         "test.fill"(%[[A]]) : (memref<64xf32>) -> ()
// POOL-LABEL: func.func @unregistered_user_is_not_a_return
func.func @unregistered_user_is_not_a_return(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %s = memref.alloc() : memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%s : memref<64xf32>)
  %a = memref.alloc() : memref<64xf32>
  "test.fill"(%a) : (memref<64xf32>) -> ()
  hip.tanh(%ctx) ins(%s : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Two functions take a pool (one already did), so by the recorded-plan contract
// the module must carry no hipdnn.* attributes; pool-allocs counts only the
// functions it pooled in this run and puts @pooled_now's plan on the module.
// OPT-LABEL: func.func @already_pooled
// POOL:      module {
// POOL-NEXT:   func.func @already_pooled
// POOL:        func.func @pooled_now
// POOL-SAME:     hipdnn.buffer_count = 1
func.func @already_pooled(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %pool_size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %pool_size) : memref<?xi8>
  %c0 = arith.constant 0 : index
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  hip.tanh(%ctx) ins(%a : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}
func.func @pooled_now(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>) {
  %b = memref.alloc() : memref<128xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%b : memref<128xf32>)
  hip.tanh(%ctx) ins(%b : memref<128xf32>) outs(%out : memref<64xf32>)
  return
}
