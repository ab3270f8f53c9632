// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// arith casts keep their width and index rules with flags present.

func.func @trunci_widens(%x: i32) {
  // expected-error @+1 {{Destination bit-width must be smaller than the input bit-width}}
  %0 = arith.trunci %x overflow<nsw> : i32 to i64
  return
}

// -----

func.func @extui_narrows(%x: i64) {
  // expected-error @+1 {{Destination bit-width must be larger than the input bit-width}}
  %0 = arith.extui %x nneg : i64 to i32
  return
}

// -----

func.func @index_castui_no_index(%x: i64) {
  // expected-error @+1 {{'arith.index_castui' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = arith.index_castui %x nneg : i64 to i32
  return
}
