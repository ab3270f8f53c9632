// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// arith casts keep their width and index rules with flags present, with MLIR's
// messages (checked with iree-opt --verify-diagnostics as well).

func.func @trunci_widens(%x: i32) {
  // expected-error @+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %x overflow<nsw> : i32 to i64
  return
}

// -----

func.func @extui_narrows(%x: i64) {
  // expected-error @+1 {{'arith.extui' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %x nneg : i64 to i32
  return
}

// -----

func.func @index_castui_no_index(%x: i64) {
  // expected-error @+1 {{'arith.index_castui' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = arith.index_castui %x nneg : i64 to i32
  return
}

// -----

func.func @extsi_shaped_narrows(%x: vector<2xi64>) {
  // expected-error @+1 {{'arith.extsi' op operand type 'vector<2xi64>' and result type 'vector<2xi32>' are cast incompatible}}
  %0 = arith.extsi %x : vector<2xi64> to vector<2xi32>
  return
}

// -----

func.func @index_cast_no_index(%x: vector<2xi64>) {
  // expected-error @+1 {{'arith.index_cast' op operand type 'vector<2xi64>' and result type 'vector<2xi32>' are cast incompatible}}
  %0 = arith.index_cast %x : vector<2xi64> to vector<2xi32>
  return
}
