// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s

// util's value, buffer, list and string ops read and print as IREE 3.13 writes
// them, and their generic form reads back as the same IR.

// CHECK-LABEL: @values
// CHECK-SAME: (%[[I:.+]]: index, %[[B:.+]]: !util.buffer, %[[F:.+]]: i32)
util.func public @values(%i: index, %b: !util.buffer, %f: i32) {
  // CHECK: %[[N:.+]] = util.null : !util.buffer
  %n = util.null : !util.buffer
  // CHECK: %[[O:.+]] = util.cast %[[N]] : !util.buffer to !util.object
  %o = util.cast %n : !util.buffer to !util.object
  // CHECK: util.cmp.eq %[[B]], %[[N]] : !util.buffer
  %eq = util.cmp.eq %b, %n : !util.buffer
  // CHECK: util.cmp.ne %[[B]], %[[N]] : !util.buffer
  %ne = util.cmp.ne %b, %n : !util.buffer
  // CHECK: util.numeric.optional_narrow %[[F]] : i32 as si8 <min_value = 1 : i32, max_value = 9 : i32>
  %nar = util.numeric.optional_narrow %f : i32 as si8 <min_value = 1 : i32, max_value = 9 : i32>
  // CHECK: util.numeric.optional_narrow %[[F]] : i32 as ui16
  %nar2 = util.numeric.optional_narrow %f : i32 as ui16
  // CHECK: util.range.min %[[I]], %[[I]] : index
  %min = util.range.min %i, %i : index
  // CHECK: util.range.max %[[I]] : index
  %max = util.range.max %i : index
  // CHECK: %min, %max = util.range.extents [%[[I]] for %[[I]]], [%[[I]] for %[[I]]] : index
  %lo, %hi = util.range.extents [%i for %i], [%i for %i] : index
  // CHECK: util.align %[[I]], %[[I]] : index
  %a = util.align %i, %i : index
  // CHECK: util.sizeof !util.buffer
  %s = util.sizeof !util.buffer
  // CHECK: util.switch i32 from [%[[F]], %[[F]]] at %[[I]] else %[[F]] : i32
  %sw = util.switch i32 from [%f, %f] at %i else %f : i32
  // CHECK: util.assume.int %[[I]]<umin = 0, umax = 8, udiv = 4> : index
  %as = util.assume.int %i<umax = 8, udiv = 4, umin = 0> : index
  // CHECK: util.assume.int %[[I]][<udiv = 2>, <umin = 1>] : index
  %as2 = util.assume.int %i[#util.int.assumption<udiv = 2>, <umin = 1>] : index
  // CHECK: util.unfoldable_constant 42 : i32
  %u = util.unfoldable_constant 42 : i32
  // CHECK: util.unfoldable_constant {test.tag} @values : () -> ()
  %u2 = util.unfoldable_constant {test.tag} @values : () -> ()
  util.return
}

// -----

// Two or more operands of util.assume.int print one per line, as IREE does.

// CHECK-LABEL: @assume_rows
util.func public @assume_rows(%a: index, %b: i64) -> (index, i64) {
  //      CHECK: util.assume.int {{$}}
  // CHECK-NEXT:   %{{.+}}[<umin = 0>, <udiv = 5>], {{$}}
  // CHECK-NEXT:   %{{.+}}[<umax = 10>, <udiv = 6>]
  // CHECK-NEXT: : index, i64
  %0:2 = util.assume.int %a[<umin = 0>, <udiv = 5>], %b[<umax = 10>, <udiv = 6>] : index, i64
  util.return %0#0, %0#1 : index, i64
}

// -----

// IREE reads the results of a util.func without parentheses, and prints them in.

// CHECK-LABEL: @bare_results
// CHECK-SAME: -> (index, i64) {
util.func public @bare_results(%a: index, %b: i64) -> index, i64 {
  util.return %a, %b : index, i64
}

// -----

// CHECK-LABEL: @hoistable
util.func public @hoistable(%x: i32) -> i64 {
  // CHECK: util.hoistable_conversion "widen" inverts("narrow") (%[[A:.+]] = %{{.+}}) : (i32) -> i64 {
  // CHECK-NEXT: arith.extui %[[A]] : i32 to i64
  // CHECK-NEXT: util.return
  // CHECK-NEXT: } {test.tag}
  %0 = util.hoistable_conversion "widen" inverts("narrow") (%y = %x) : (i32) -> i64 {
    %1 = arith.extui %y : i32 to i64
    util.return %1 : i64
  } {test.tag}
  util.return %0 : i64
}

// -----

// CHECK-LABEL: @buffers
// CHECK-SAME: (%[[B:.+]]: !util.buffer, %[[S:.+]]: index, %[[O:.+]]: index)
util.func public @buffers(%b: !util.buffer, %s: index, %o: index) {
  // CHECK: %[[K:.+]] = util.buffer.constant : !util.buffer = dense<[1, 2]> : tensor<2xi32>
  %k = util.buffer.constant : !util.buffer = dense<[1, 2]> : tensor<2xi32>
  // CHECK: %name = util.buffer.constant "name" <alignment = 64, mime_type = "text/plain"> : !util.buffer = "text"
  %t = util.buffer.constant "name" <alignment = 64, mime_type = "text/plain"> : !util.buffer = "text"
  // CHECK: %[[A:.+]] = util.buffer.alloc uninitialized <alignment = 16> : !util.buffer{%[[S]]}
  %a = util.buffer.alloc uninitialized <alignment = 16> : !util.buffer{%s}
  // CHECK: util.buffer.slice %[[B]][%[[O]]] : !util.buffer{%[[S]]} -> !util.buffer{%[[S]]}
  %sl = util.buffer.slice %b[%o] : !util.buffer{%s} -> !util.buffer{%s}
  // CHECK: %buffer_span = util.buffer.subspan %[[B]][%[[O]]] : !util.buffer{%[[S]]} -> !util.buffer{%[[S]]}
  %sp = util.buffer.subspan %b[%o] : !util.buffer{%s} -> !util.buffer{%s}
  // CHECK: %buffer_size = util.buffer.size %[[B]] : !util.buffer
  %sz = util.buffer.size %b : !util.buffer
  // CHECK: %buffer_storage, %buffer_offset = util.buffer.storage %[[B]] : !util.buffer{%[[S]]} -> (memref<?xi8>, index)
  %st, %off = util.buffer.storage %b : !util.buffer{%s} -> (memref<?xi8>, index)
  // CHECK: util.buffer.copy %[[B]][%[[O]]], %[[A]][%[[O]]], %[[S]] : !util.buffer{%[[S]]} -> !util.buffer{%[[S]]}
  util.buffer.copy %b[%o], %a[%o], %s : !util.buffer{%s} -> !util.buffer{%s}
  // CHECK: util.buffer.compare %[[B]][%[[O]]], %[[A]][%[[O]]], %[[S]] : !util.buffer{%[[S]]}, !util.buffer{%[[S]]}
  %c = util.buffer.compare %b[%o], %a[%o], %s : !util.buffer{%s}, !util.buffer{%s}
  %v = arith.constant 7 : i32
  // CHECK: util.buffer.fill %{{.+}}, %[[A]][%[[O]] for %[[S]]] : i32 -> !util.buffer{%[[S]]}
  util.buffer.fill %v, %a[%o for %s] : i32 -> !util.buffer{%s}
  // CHECK: util.buffer.load %[[B]][%[[O]] for %[[S]]] : !util.buffer{%[[S]]} -> i32
  %l = util.buffer.load %b[%o for %s] : !util.buffer{%s} -> i32
  // CHECK: util.buffer.store %{{.+}}, %[[A]][%[[O]] for %[[S]]] : i32 -> !util.buffer{%[[S]]}
  util.buffer.store %l, %a[%o for %s] : i32 -> !util.buffer{%s}
  // CHECK: util.buffer.hash %[[B]][%[[O]] for %[[S]]] : !util.buffer{%[[S]]} -> i64
  %h = util.buffer.hash %b[%o for %s] : !util.buffer{%s} -> i64
  // CHECK: util.buffer.dealloc %[[A]] : !util.buffer{%[[S]]}
  util.buffer.dealloc %a : !util.buffer{%s}
  util.return
}

// -----

// CHECK-LABEL: @lists
util.func public @lists(%i: index, %t: tensor<4xf32>) {
  // CHECK: %[[L:.+]] = util.list.create %{{.+}} : !util.list<?>
  %l = util.list.create %i : !util.list<?>
  // CHECK: util.list.create : !util.list<tensor<4xf32>>
  %e = util.list.create : !util.list<tensor<4xf32>>
  // CHECK: util.list.construct [%{{.+}} : index, %{{.+}} : tensor<4xf32>] : !util.list<?>
  %c = util.list.construct [%i : index, %t : tensor<4xf32>] : !util.list<?>
  // CHECK: util.list.construct [] : !util.list<i32>
  %empty = util.list.construct [] : !util.list<i32>
  // CHECK: util.list.size %[[L]] : !util.list<?>
  %n = util.list.size %l : !util.list<?>
  // CHECK: util.list.resize %[[L]], %{{.+}} : !util.list<?>
  util.list.resize %l, %n : !util.list<?>
  // CHECK: util.list.get %[[L]][%{{.+}}] : !util.list<?> -> tensor<4xf32>
  %g = util.list.get %l[%i] : !util.list<?> -> tensor<4xf32>
  // CHECK: util.list.get %{{.+}}[%{{.+}}] : !util.list<tensor<4xf32>>{{$}}
  %g2 = util.list.get %e[%i] : !util.list<tensor<4xf32>>
  // CHECK: util.list.set %[[L]][%{{.+}}], %{{.+}} : tensor<4xf32> -> !util.list<?>
  util.list.set %l[%i], %t : tensor<4xf32> -> !util.list<?>
  // CHECK: util.list.set %{{.+}}[%{{.+}}], %{{.+}} : !util.list<tensor<4xf32>>{{$}}
  util.list.set %e[%i], %t : !util.list<tensor<4xf32>>
  util.return
}

// -----

// CHECK-LABEL: @strings
util.func public @strings(%i: index, %b: !util.buffer, %s: i32) {
  // CHECK: %blk_N_w = util.string.format "blk.{}.w"(%{{.+}}) : (index) -> !util.buffer
  %0 = util.string.format "blk.{}.w"(%i) : (index) -> !util.buffer
  // CHECK: %N_N = util.string.format "{1}/{0}"(%{{.+}}, %{{.+}}) : (index, !util.buffer) -> !util.buffer
  %1 = util.string.format "{1}/{0}"(%i, %b) : (index, !util.buffer) -> !util.buffer
  // CHECK: %itoa = util.string.itoa %{{.+}} : index -> !util.buffer
  %2 = util.string.itoa %i : index -> !util.buffer
  // CHECK: util.status.check_ok %{{.+}}, "failed"
  util.status.check_ok %s, "failed"
  // CHECK: util.status.check_ok %{{.+}}{{$}}
  util.status.check_ok %s
  util.return
}

// -----

// Attributes of util: a composite prints one value a line, four spaces in,
// wherever it sits, under IREE's alias; a byte range, a null and an assumption as
// IREE writes them.

// Aliases print in MLIR's order (by name here, not first use).
//      CHECK: #[[C0:composite_of_0b]] = #util.composite<0xi8, []>
// CHECK-NEXT: #[[C6:composite_of_6b]] = #util.composite<6xi8, [
// CHECK-NEXT: {{^    }}dense<1> : vector<2xi8>,
// CHECK-NEXT: {{^    }}#util.byte_pattern<7> : tensor<2xi8>,
// CHECK-NEXT: {{^    }}"ab",
// CHECK-NEXT: {{^}}]>
// CHECK-LABEL: module @attributes
// CHECK-SAME: util.a = #util.int.assumption<umin = 1, udiv = 8>
// CHECK-SAME: util.c = #[[C6]]
// CHECK-SAME: util.e = #[[C0]]
// CHECK-SAME: util.n = #util.null : !util.buffer
// CHECK-SAME: util.r = #util.byte_range<2, 6>
module @attributes attributes {
  util.a = #util.int.assumption<udiv = 8, umin = 1>,
  util.c = #util.composite<6xi8, [dense<1> : vector<2xi8>, #util.byte_pattern<7> : tensor<2xi8>, "ab"]>,
  util.e = #util.composite<0xi8, []>,
  util.n = #util.null : !util.buffer,
  util.r = #util.byte_range<2, 6>
} {}
