// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s

// func.func declarations print as MLIR prints them: no `-> ()`, argument and
// result attributes kept.

// CHECK: func.func private @no_results(){{$}}
func.func private @no_results()

// -----

// CHECK: func.func private @arg_attrs(i32 {test.a = 1 : i32}, f32) -> i32 attributes {test.b = 2 : i32}
func.func private @arg_attrs(i32 {test.a = 1 : i32}, f32) -> i32 attributes {test.b = 2 : i32}

// -----

// CHECK: func.func private @result_attrs(i32) -> (i32 {test.c}, f32)
func.func private @result_attrs(i32) -> (i32 {test.c}, f32)

// -----

// A single function-typed result keeps its parentheses.
// CHECK: func.func private @returns_function() -> ((i32) -> i32)
func.func private @returns_function() -> ((i32) -> i32)

// -----

// Definitions are unchanged.
// CHECK-LABEL: func.func @definition(
// CHECK-SAME: %{{.+}}: i32 {test.x}) -> (i32 {test.y}) {
func.func @definition(%a: i32 {test.x}) -> (i32 {test.y}) {
  return %a : i32
}

// -----

// Inherent attributes written in the dictionary are read as MLIR reads them.
// CHECK: func.func private @arg_attrs_in_dictionary(i32 {test.k}){{$}}
func.func private @arg_attrs_in_dictionary(i32) attributes {arg_attrs = [{test.k}]}
