// RUN: memplan-opt %s --split-input-file -p canonicalize | FileCheck %s
// RUN: xdsl-opt %s --split-input-file -p canonicalize | FileCheck %s --check-prefix=XDSL
// RUN: memplan-opt %s --split-input-file -p apply-patterns | FileCheck %s

// The folders of util's value, buffer and string ops, declared on the ops: each
// case has the IR a folder rewrites and the IR it must leave alone.

// XDSL-LABEL: @casts
// CHECK-LABEL: @casts
// CHECK-SAME: (%[[B:.+]]: !util.buffer)
util.func public @casts(%b: !util.buffer) -> (!util.buffer, !util.object, !util.object) {
  %o = util.cast %b : !util.buffer to !util.object
  // A cast back to the source type is the source.
  %back = util.cast %o : !util.object to !util.buffer
  // A cast to a third type stays.
  // CHECK-DAG: %[[O:.+]] = util.cast %[[B]] : !util.buffer to !util.object
  // A cast of a null is a null.
  // CHECK-DAG: %[[N:.+]] = util.null : !util.object
  %n = util.null : !util.buffer
  %no = util.cast %n : !util.buffer to !util.object
  // CHECK: util.return %[[B]], %[[O]], %[[N]]
  // XDSL: util.return %b, %{{.+}}, %{{.+}}
  util.return %back, %o, %no : !util.buffer, !util.object, !util.object
}

// -----

// CHECK-LABEL: @compares
// CHECK-SAME: (%[[A:.+]]: !util.buffer, %[[B:.+]]: !util.buffer)
util.func public @compares(%a: !util.buffer, %b: !util.buffer) -> (i1, i1, i1, i1, i1) {
  // CHECK-DAG: %[[T:.+]] = arith.constant true
  // CHECK-DAG: %[[F:.+]] = arith.constant false
  %0 = util.cmp.eq %a, %a : !util.buffer
  %1 = util.cmp.ne %a, %a : !util.buffer
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %2 = util.cmp.eq %c1, %c1b : i32
  // Distinct values are not known to differ.
  // CHECK: %[[E:.+]] = util.cmp.eq %[[A]], %[[B]] : !util.buffer
  %3 = util.cmp.eq %a, %b : !util.buffer
  // CHECK: %[[N:.+]] = util.cmp.ne %[[A]], %[[B]] : !util.buffer
  %4 = util.cmp.ne %a, %b : !util.buffer
  // CHECK: util.return %[[T]], %[[F]], %[[T]], %[[E]], %[[N]]
  util.return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}

// -----

// CHECK-LABEL: @min_max
// CHECK-SAME: (%[[X:.+]]: index, %[[Y:.+]]: index, %[[Z:.+]]: index)
util.func public @min_max(%x: index, %y: index, %z: index) -> (index, index, index, index, index) {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  // One operand is itself.
  %0 = util.range.min %x : index
  // Constants fold.
  %1 = util.range.max %c2, %c5 : index
  // Two values become the unsigned arith op.
  // CHECK-DAG: %[[MIN2:.+]] = arith.minui %[[X]], %[[Y]] : index
  %2 = util.range.min %x, %y : index
  // Duplicates go and constants merge; three values stay a range op.
  // CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
  // CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
  // CHECK-DAG: %[[MIN3:.+]] = util.range.min %[[X]], %[[Y]], %[[C2]] : index
  %3 = util.range.min %x, %c5, %y, %x, %c2 : index
  // CHECK-DAG: %[[MAX3:.+]] = util.range.max %[[X]], %[[Y]], %[[Z]] : index
  %4 = util.range.max %x, %y, %z : index
  // CHECK: util.return %[[X]], %[[C5]], %[[MIN2]], %[[MIN3]], %[[MAX3]]
  util.return %0, %1, %2, %3, %4 : index, index, index, index, index
}

// -----

// CHECK-LABEL: @extents
// CHECK-SAME: (%[[O:.+]]: index, %[[L:.+]]: index, %[[P:.+]]: index, %[[M:.+]]: index, %[[Q:.+]]: index, %[[N:.+]]: index)
util.func public @extents(%o: index, %l: index, %p: index, %m: index, %q: index, %n: index) -> (index, index, index, index, index, index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // Constant ranges fold: [1, 4] and [8, 11] span min 1, and IREE's max value.
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
  // CHECK-DAG: %[[C11:.+]] = arith.constant 11 : index
  %a:2 = util.range.extents [%c1 for %c4], [%c8 for %c4] : index
  // One range is [offset, offset + length - 1].
  // CHECK-DAG: %[[END:.+]] = arith.addi %[[O]], %[[L]] : index
  // CHECK-DAG: %[[LAST:.+]] = arith.subi %[[END]], %[[C1]] : index
  %b:2 = util.range.extents [%o for %l] : index
  // Three dynamic ranges stay.
  // CHECK-DAG: %{{.+}}, %[[MAX:.+]] = util.range.extents [%[[O]] for %[[L]]], [%[[P]] for %[[M]]], [%[[Q]] for %[[N]]] : index
  %c:2 = util.range.extents [%o for %l], [%p for %m], [%q for %n] : index
  // CHECK: util.return %[[C1]], %[[C11]], %[[O]], %[[LAST]], %{{.+}}, %[[MAX]]
  util.return %a#0, %a#1, %b#0, %b#1, %c#0, %c#1 : index, index, index, index, index, index
}

// -----

// CHECK-LABEL: @align
// CHECK-SAME: (%[[X:.+]]: index, %[[Y:.+]]: index, %[[A:.+]]: index)
util.func public @align(%x: index, %y: index, %a: index) -> (index, index, index, index, index, index) {
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  // Constants fold: 3 up to 16.
  // CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
  %0 = util.align %c3, %c16 : index
  // Aligned to 32 is aligned to 16, and to the same dynamic alignment twice.
  // CHECK-DAG: %[[X32:.+]] = util.align %[[X]], %{{.+}} : index
  %x32 = util.align %x, %c32 : index
  %1 = util.align %x32, %c16 : index
  // CHECK-DAG: %[[XA:.+]] = util.align %[[X]], %[[A]] : index
  %xa = util.align %x, %a : index
  %2 = util.align %xa, %a : index
  // A sum of aligned values is aligned.
  // CHECK-DAG: %[[Y32:.+]] = util.align %[[Y]], %{{.+}} : index
  %y32 = util.align %y, %c32 : index
  // CHECK-DAG: %[[SUM:.+]] = arith.addi %[[X32]], %[[Y32]] : index
  %sum = arith.addi %x32, %y32 : index
  %3 = util.align %sum, %c32 : index
  // Aligned to 32 is not aligned to 64, nor is a sum with an unaligned value.
  // CHECK-DAG: %[[NO1:.+]] = util.align %[[X32]], %{{.+}} : index
  %4 = util.align %x32, %c64 : index
  // CHECK-DAG: %[[SUM2:.+]] = arith.addi %[[X32]], %[[Y]] : index
  %sum2 = arith.addi %x32, %y : index
  // CHECK-DAG: %[[NO2:.+]] = util.align %[[SUM2]], %{{.+}} : index
  %5 = util.align %sum2, %c32 : index
  // CHECK: util.return %[[C16]], %[[X32]], %[[XA]], %[[SUM]], %[[NO1]], %[[NO2]]
  util.return %0, %1, %2, %3, %4, %5 : index, index, index, index, index, index
}

// -----

// CHECK-LABEL: @sizeof
util.func public @sizeof() -> (index, index, index) {
  // CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
  // CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
  // CHECK-DAG: %[[S:.+]] = util.sizeof !util.buffer
  %0 = util.sizeof bf16
  %1 = util.sizeof i17
  %2 = util.sizeof !util.buffer
  // CHECK: util.return %[[C2]], %[[C4]], %[[S]]
  util.return %0, %1, %2 : index, index, index
}

// -----

// XDSL-LABEL: @switch
// XDSL: util.return %b, %d, %d, %{{.+}} : i32, i32, i32, i32
// CHECK-LABEL: @switch
// CHECK-SAME: (%[[I:.+]]: index, %[[A:.+]]: i32, %[[B:.+]]: i32, %[[D:.+]]: i32)
util.func public @switch(%i: index, %a: i32, %b: i32, %d: i32) -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %0 = util.switch i32 from [%a, %b] at %c1 else %d : i32
  %1 = util.switch i32 from [%a, %b] at %c5 else %d : i32
  %2 = util.switch i32 from [%d, %d] at %i else %d : i32
  // CHECK: %[[S:.+]] = util.switch i32 from [%[[A]], %[[B]]] at %[[I]] else %[[D]] : i32
  %3 = util.switch i32 from [%a, %b] at %i else %d : i32
  // CHECK: util.return %[[B]], %[[D]], %[[D]], %[[S]]
  util.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// CHECK-LABEL: @assume
// CHECK-SAME: (%[[X:[^:]+]]: index, %[[Y:[^:]+]]: index, %{{[^:]+}}: index)
util.func public @assume(%x: index, %y: index, %z: index) -> (index, index, index, index, index) {
  %c3 = arith.constant 3 : index
  // A constant operand passes through; a value assumed to be one number is it;
  // a row of one repeated assumption is that one; a repeated operand is assumed
  // once with the rows intersected; an unused result goes.
  // CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
  // CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
  // CHECK: %[[R:.+]]:2 = util.assume.int {{$}}
  // CHECK-NEXT: %[[X]]<umin = 2, umax = 9, udiv = 12>, {{$}}
  // CHECK-NEXT: %[[Y]][<umin = 1>, <umin = 2>]
  %0:5 = util.assume.int %c3<umin = 0>, %x<umin = 2, udiv = 4>, %y[<umin = 1>, <umin = 2>], %x<umax = 9, udiv = 6>, %z[<umin = 7, umax = 7>, <umin = 7, umax = 7>] : index, index, index, index, index
  %unused = util.assume.int %x<umin = 1> : index
  // CHECK: util.return %[[C3]], %[[R]]#0, %[[R]]#1, %[[R]]#0, %[[C7]]
  util.return %0#0, %0#1, %0#2, %0#3, %0#4 : index, index, index, index, index
}

// -----

// CHECK-LABEL: @assume_kept
util.func public @assume_kept(%x: index) -> index {
  // CHECK: util.assume.int %{{.+}}[<umin = 1>, <umax = 4>] : index
  %0 = util.assume.int %x[<umin = 1>, <umax = 4>] : index
  util.return %0 : index
}

// -----

// XDSL-LABEL: @unfoldable
// XDSL: %[[C:.+]] = arith.constant 7 : i32
// XDSL: util.optimization_barrier %[[C]] : i32
// CHECK-LABEL: @unfoldable
util.func public @unfoldable() -> i32 {
  // CHECK: %[[C:.+]] = arith.constant 7 : i32
  // CHECK: %[[B:.+]] = util.optimization_barrier %[[C]] : i32
  %0 = util.unfoldable_constant 7 : i32
  // CHECK: util.return %[[B]]
  util.return %0 : i32
}

// -----

// CHECK-LABEL: @subspans
// CHECK-SAME: (%[[B:[^:]+]]: !util.buffer, %[[S:[^:]+]]: index, %[[O:[^:]+]]: index, %[[L:[^:]+]]: index, %[[B2:[^:]+]]: !util.buffer)
util.func public @subspans(%b: !util.buffer, %s: index, %o: index, %l: index, %b2: !util.buffer) -> (!util.buffer, !util.buffer, !util.buffer, index, index, index) {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  // A subspan of the whole buffer is the buffer.
  %whole = util.buffer.subspan %b[%o] : !util.buffer{%s} -> !util.buffer{%s}
  // A subspan of a subspan is one subspan of the source.
  // CHECK-DAG: %[[SP:.+]] = util.buffer.subspan %[[B]][%[[O]]] : !util.buffer{%[[S]]} -> !util.buffer{%[[L]]}
  %sp = util.buffer.subspan %b[%o] : !util.buffer{%s} -> !util.buffer{%l}
  // CHECK-DAG: %[[OFF:.+]] = arith.addi %[[O]], %{{.+}} : index
  // CHECK-DAG: %[[SP2:.+]] = util.buffer.subspan %[[B]][%[[OFF]]] : !util.buffer{%[[S]]} -> !util.buffer{%{{.+}}}
  %sp2 = util.buffer.subspan %sp[%c8] : !util.buffer{%l} -> !util.buffer{%c4}
  // The size of a subspan is its length, and of its source the size the subspan
  // states; of a buffer nothing states, a query.
  %size = util.buffer.size %sp : !util.buffer
  %source_size = util.buffer.size %b : !util.buffer
  // CHECK-DAG: %[[Q:.+]] = util.buffer.size %[[B2]] : !util.buffer
  %q = util.buffer.size %b2 : !util.buffer
  // CHECK: util.return %[[B]], %[[SP]], %[[SP2]], %[[L]], %[[S]], %[[Q]]
  util.return %whole, %sp, %sp2, %size, %source_size, %q : !util.buffer, !util.buffer, !util.buffer, index, index, index
}

// -----

// CHECK-LABEL: @buffer_sizes
// CHECK-SAME: (%[[C:.+]]: i1, %[[A:.+]]: !util.buffer, %[[B:.+]]: !util.buffer, %[[N:.+]]: index)
util.func public @buffer_sizes(%c: i1, %a: !util.buffer, %b: !util.buffer, %n: index) -> (index, index, index, i32) {
  // The storage size of a constant: 3 x i32, and a string.
  // CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
  %k = util.buffer.constant : !util.buffer = dense<[1, 2, 3]> : tensor<3xi32>
  %0 = util.buffer.size %k : !util.buffer
  // An earlier user in the block states the size of %a.
  %x = util.buffer.load %a[%n for %n] : !util.buffer{%n} -> i32
  // The size of a select is the select of the sizes.
  // CHECK-DAG: %[[QB:.+]] = util.buffer.size %[[B]] : !util.buffer
  // CHECK-DAG: %[[SEL:.+]] = arith.select %[[C]], %[[N]], %[[QB]] : index
  %s = arith.select %c, %a, %b : !util.buffer
  %1 = util.buffer.size %s : !util.buffer
  %2 = util.buffer.size %a : !util.buffer
  // CHECK: util.return %[[C12]], %[[SEL]], %[[N]]
  util.return %0, %1, %2, %x : index, index, index, i32
}

// -----

// CHECK-LABEL: @storage
// CHECK-SAME: (%[[B:.+]]: !util.buffer, %[[S:.+]]: index, %[[O:.+]]: index, %[[L:.+]]: index)
util.func public @storage(%b: !util.buffer, %s: index, %o: index, %l: index) -> (memref<?xi8>, index) {
  %sp = util.buffer.subspan %b[%o] : !util.buffer{%s} -> !util.buffer{%l}
  // CHECK: %[[M:.+]], %[[BO:.+]] = util.buffer.storage %[[B]] : !util.buffer{%[[S]]} -> (memref<?xi8>, index)
  // CHECK: %[[OFF:.+]] = arith.addi %[[O]], %[[BO]] : index
  %m, %off = util.buffer.storage %sp : !util.buffer{%l} -> (memref<?xi8>, index)
  // CHECK: util.return %[[M]], %[[OFF]]
  util.return %m, %off : memref<?xi8>, index
}

// -----

// CHECK-LABEL: @strings
// CHECK-SAME: (%[[I:.+]]: index, %[[W:.+]]: i8)
util.func public @strings(%i: index, %w: i8) -> (!util.buffer, !util.buffer, !util.buffer, !util.buffer, !util.buffer) {
  %c7 = arith.constant 7 : index
  %m1 = arith.constant -1 : i8
  %name = util.buffer.constant : !util.buffer = "w"
  // Constant arguments fold to a string constant: integers unsigned.
  // CHECK-DAG: util.buffer.constant : !util.buffer = "w.7.{255}"
  %0 = util.string.format "{}.{}.{{{}}}"(%name, %c7, %m1) : (!util.buffer, index, i8) -> !util.buffer
  // CHECK-DAG: util.buffer.constant : !util.buffer = "7"
  %1 = util.string.itoa %c7 : index -> !util.buffer
  // itoa of a zero-extended value is itoa of the value.
  // CHECK-DAG: %[[IT:.+]] = util.string.itoa %[[W]] : i8 -> !util.buffer
  %e = arith.extui %w : i8 to i32
  %2 = util.string.itoa %e : i32 -> !util.buffer
  // A dynamic argument stays.
  // CHECK-DAG: %[[F:.+]] = util.string.format "b.{}"(%[[I]]) : (index) -> !util.buffer
  %3 = util.string.format "b.{}"(%i) : (index) -> !util.buffer
  // CHECK-DAG: %[[IT2:.+]] = util.string.itoa %[[I]] : index -> !util.buffer
  %4 = util.string.itoa %i : index -> !util.buffer
  // CHECK: util.return %{{.+}}, %{{.+}}, %[[IT]], %[[F]], %[[IT2]]
  util.return %0, %1, %2, %3, %4 : !util.buffer, !util.buffer, !util.buffer, !util.buffer, !util.buffer
}

// -----

// (x / c) * c is x when x is assumed a multiple of c in every row.

// CHECK-LABEL: @div_mul_of_assume
util.func public @div_mul_of_assume(%x: index, %y: index) -> (index, index) {
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  // CHECK: %[[A:.+]]:2 = util.assume.int
  %a:2 = util.assume.int %x[<udiv = 8>, <udiv = 12>], %y[<udiv = 8>, <umin = 1>] : index, index
  %d = arith.divui %a#0, %c4 : index
  %m = arith.muli %d, %c4 : index
  // A row without a divisor leaves the product alone.
  // CHECK: %[[D:.+]] = arith.divui %[[A]]#1, %{{.+}} : index
  // CHECK: %[[M:.+]] = arith.muli %[[D]], %{{.+}} : index
  %d2 = arith.divui %a#1, %c4 : index
  %m2 = arith.muli %d2, %c4 : index
  // CHECK: util.return %[[A]]#0, %[[M]]
  util.return %m, %m2 : index, index
}

// -----

// A negative constant is a huge unsigned divisor: (16 divui -1) * -1 is 0, not x.

// CHECK-LABEL: @div_mul_of_assume_negative_factor
util.func public @div_mul_of_assume_negative_factor(%x: i64) -> i64 {
  %a = util.assume.int %x<udiv = 16> : i64
  %c = arith.constant -1 : i64
  // CHECK: %[[D:.+]] = arith.divui
  // CHECK: %[[M:.+]] = arith.muli %[[D]]
  // CHECK: util.return %[[M]]
  %d = arith.divui %a, %c : i64
  %m = arith.muli %d, %c : i64
  util.return %m : i64
}

// -----

// An op accessing a range of a subspan accesses the source at the summed offset;
// a range of a buffer that is no subspan stays.

// CHECK-LABEL: @subspan_into_consumers
// CHECK-SAME: (%[[B:[^:]+]]: !util.buffer, %[[S:[^:]+]]: index, %[[O:[^:]+]]: index, %[[L:[^:]+]]: index, %[[T:[^:]+]]: !util.buffer)
util.func public @subspan_into_consumers(%b: !util.buffer, %s: index, %o: index, %l: index, %t: !util.buffer) -> i32 {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %sp = util.buffer.subspan %b[%o] : !util.buffer{%s} -> !util.buffer{%l}
  // CHECK: %[[OFF:.+]] = arith.addi %[[O]], %{{.+}} : index
  // CHECK: %[[V:.+]] = util.buffer.load %[[B]][%[[OFF]] for %{{.+}}] : !util.buffer{%[[S]]} -> i32
  %v = util.buffer.load %sp[%c8 for %c4] : !util.buffer{%l} -> i32
  // CHECK: util.buffer.store %[[V]], %[[T]][%{{.+}} for %{{.+}}] : i32 -> !util.buffer{%[[L]]}
  util.buffer.store %v, %t[%c8 for %c4] : i32 -> !util.buffer{%l}
  util.return %v : i32
}

// -----

// Constant arguments become text; `{N}` placeholders become `{}` in use order;
// `"{}"` of a buffer is the buffer, of an integer its itoa.

// CHECK-LABEL: @partial_formats
// CHECK-SAME: (%[[I:[^:]+]]: index, %[[J:[^:]+]]: i32, %[[B:[^:]+]]: !util.buffer)
util.func public @partial_formats(%i: index, %j: i32, %b: !util.buffer) -> (!util.buffer, !util.buffer, !util.buffer, !util.buffer, !util.buffer) {
  %c3 = arith.constant 3 : index
  // CHECK-DAG: %[[P:.+]] = util.string.format "blk.3.{}.{{[{][{]}}x{{[}][}]}}"(%[[I]]) : (index) -> !util.buffer
  %0 = util.string.format "blk.{}.{}.{{x}}"(%c3, %i) : (index, index) -> !util.buffer
  // CHECK-DAG: %[[O:.+]] = util.string.format "{}-{}-{}"(%[[J]], %[[I]], %[[J]]) : (i32, index, i32) -> !util.buffer
  %1 = util.string.format "{1}-{0}-{1}"(%i, %j) : (index, i32) -> !util.buffer
  %2 = util.string.format "{}"(%b) : (!util.buffer) -> !util.buffer
  // CHECK-DAG: %[[T:.+]] = util.string.itoa %[[J]] : i32 -> !util.buffer
  %3 = util.string.format "{0}"(%j) : (i32) -> !util.buffer
  // Text beside the one argument keeps the format.
  // CHECK-DAG: %[[K:.+]] = util.string.format "<{}>"(%[[B]]) : (!util.buffer) -> !util.buffer
  %4 = util.string.format "<{}>"(%b) : (!util.buffer) -> !util.buffer
  // CHECK: util.return %[[P]], %[[O]], %[[B]], %[[T]], %[[K]]
  util.return %0, %1, %2, %3, %4 : !util.buffer, !util.buffer, !util.buffer, !util.buffer, !util.buffer
}

// -----

// A select of two equally long subspans of one buffer is one subspan at the
// selected offset; of subspans of other lengths it stays.

// CHECK-LABEL: @select_of_subspans
// CHECK-SAME: (%[[C:[^:]+]]: i1, %[[B:[^:]+]]: !util.buffer, %[[S:[^:]+]]: index, %[[X:[^:]+]]: index, %[[Y:[^:]+]]: index, %[[L:[^:]+]]: index, %[[M:[^:]+]]: index)
util.func public @select_of_subspans(%c: i1, %b: !util.buffer, %s: index, %x: index, %y: index, %l: index, %m: index) -> (!util.buffer, !util.buffer) {
  %0 = util.buffer.subspan %b[%x] : !util.buffer{%s} -> !util.buffer{%l}
  %1 = util.buffer.subspan %b[%y] : !util.buffer{%s} -> !util.buffer{%l}
  // CHECK: %[[OFF:.+]] = arith.select %[[C]], %[[X]], %[[Y]] : index
  // CHECK: %[[SP:.+]] = util.buffer.subspan %[[B]][%[[OFF]]] : !util.buffer{%[[S]]} -> !util.buffer{%[[L]]}
  %2 = arith.select %c, %0, %1 : !util.buffer
  %3 = util.buffer.subspan %b[%y] : !util.buffer{%s} -> !util.buffer{%m}
  // CHECK: %[[KEPT:.+]] = arith.select %[[C]], %{{.+}}, %{{.+}} : !util.buffer
  %4 = arith.select %c, %0, %3 : !util.buffer
  // CHECK: util.return %[[SP]], %[[KEPT]]
  util.return %2, %4 : !util.buffer, !util.buffer
}
