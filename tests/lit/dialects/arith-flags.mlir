// RUN: memplan-opt %s --split-input-file | FileCheck %s
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: memplan-opt %s --split-input-file --mlir-print-op-generic | memplan-opt --split-input-file | FileCheck %s

// The flags upstream MLIR prints on arith ops read and print as it writes them,
// in both forms; an op without its flag prints none.

// CHECK-LABEL: @overflow
// CHECK-SAME: (%[[X:.+]]: i64, %[[Y:.+]]: i64)
func.func @overflow(%x: i64, %y: i64) -> (i32, i32, i32, i64) {
  // CHECK: arith.trunci %[[X]] overflow<nsw> : i64 to i32
  // GENERIC: "arith.trunci"(%{{.+}}) <{overflowFlags = #arith.overflow<nsw>}> : (i64) -> i32
  %0 = arith.trunci %x overflow<nsw> : i64 to i32
  // CHECK: arith.trunci %[[X]] overflow<nsw, nuw> : i64 to i32
  // GENERIC: <{overflowFlags = #arith.overflow<nsw, nuw>}>
  %1 = arith.trunci %x overflow<nuw, nsw> : i64 to i32
  // CHECK: arith.trunci %[[X]] : i64 to i32
  // GENERIC: "arith.trunci"(%{{.+}}) <{overflowFlags = #arith.overflow<none>}>
  %2 = arith.trunci %x : i64 to i32
  // CHECK: arith.muli %[[X]], %[[Y]] overflow<nsw, nuw> : i64
  %3 = arith.muli %x, %y overflow<nsw, nuw> : i64
  return %0, %1, %2, %3 : i32, i32, i32, i64
}

// -----

// CHECK-LABEL: @exact
func.func @exact(%x: i64, %y: i64) -> (i64, i64, i64, i64, i64) {
  // CHECK: arith.divsi %{{.+}}, %{{.+}} exact : i64
  // GENERIC: "arith.divsi"(%{{.+}}, %{{.+}}) <{isExact}> : (i64, i64) -> i64
  %0 = arith.divsi %x, %y exact : i64
  // CHECK: arith.divui %{{.+}}, %{{.+}} exact : i64
  %1 = arith.divui %x, %y exact : i64
  // CHECK: arith.shrsi %{{.+}}, %{{.+}} exact : i64
  %2 = arith.shrsi %x, %y exact : i64
  // CHECK: arith.shrui %{{.+}}, %{{.+}} exact : i64
  %3 = arith.shrui %x, %y exact : i64
  // CHECK: arith.divsi %{{.+}}, %{{.+}} : i64
  // GENERIC: "arith.divsi"(%{{.+}}, %{{.+}}) : (i64, i64) -> i64
  %4 = arith.divsi %x, %y : i64
  return %0, %1, %2, %3, %4 : i64, i64, i64, i64, i64
}

// -----

// CHECK-LABEL: @nneg
func.func @nneg(%i: i32, %x: i64) -> (i64, f32, index, index) {
  // CHECK: arith.extui %{{.+}} nneg : i32 to i64
  // GENERIC: "arith.extui"(%{{.+}}) <{nonNeg}> : (i32) -> i64
  %0 = arith.extui %i nneg : i32 to i64
  // CHECK: arith.uitofp %{{.+}} nneg : i32 to f32
  %1 = arith.uitofp %i nneg : i32 to f32
  // CHECK: arith.index_castui %{{.+}} nneg : i64 to index
  %2 = arith.index_castui %x nneg : i64 to index
  // CHECK: arith.index_castui %{{.+}} : i64 to index
  // GENERIC: "arith.index_castui"(%{{.+}}) : (i64) -> index
  %3 = arith.index_castui %x : i64 to index
  return %0, %1, %2, %3 : i64, f32, index, index
}

// -----

// CHECK-LABEL: @float_casts
func.func @float_casts(%a: f32) -> (f32, bf16, f16) {
  // CHECK: %[[T:.+]] = arith.truncf %{{.+}} to_nearest_even fastmath<fast> : f32 to bf16
  // GENERIC: <{fastmath = #arith.fastmath<fast>, roundingmode = 0 : i32}>
  %0 = arith.truncf %a to_nearest_even fastmath<fast> : f32 to bf16
  // CHECK: arith.truncf %{{.+}} toward_zero : f32 to f16
  // GENERIC: <{roundingmode = 3 : i32}> : (f32) -> f16
  %1 = arith.truncf %a toward_zero : f32 to f16
  // CHECK: arith.extf %[[T]] fastmath<nnan,ninf> : bf16 to f32
  %2 = arith.extf %0 fastmath<nnan,ninf> : bf16 to f32
  return %2, %0, %1 : f32, bf16, f16
}

// -----

// The casts take vectors and tensors of integers, as MLIR's do.

// CHECK-LABEL: @shaped_casts
func.func @shaped_casts(%v: vector<4xi64>, %t: tensor<4xi32>) -> (vector<4xi32>, tensor<4xi64>, tensor<4xi64>, vector<4xf32>, tensor<4xf32>, vector<4xindex>) {
  // CHECK: arith.trunci %{{.+}} overflow<nuw> : vector<4xi64> to vector<4xi32>
  %0 = arith.trunci %v overflow<nuw> : vector<4xi64> to vector<4xi32>
  // CHECK: arith.extui %{{.+}} nneg : tensor<4xi32> to tensor<4xi64>
  %1 = arith.extui %t nneg : tensor<4xi32> to tensor<4xi64>
  // CHECK: arith.extsi %{{.+}} : tensor<4xi32> to tensor<4xi64>
  %2 = arith.extsi %t : tensor<4xi32> to tensor<4xi64>
  // CHECK: arith.sitofp %{{.+}} : vector<4xi64> to vector<4xf32>
  %3 = arith.sitofp %v : vector<4xi64> to vector<4xf32>
  // CHECK: arith.uitofp %{{.+}} nneg : tensor<4xi32> to tensor<4xf32>
  %4 = arith.uitofp %t nneg : tensor<4xi32> to tensor<4xf32>
  // CHECK: arith.index_cast %{{.+}} : vector<4xi64> to vector<4xindex>
  %5 = arith.index_cast %v : vector<4xi64> to vector<4xindex>
  return %0, %1, %2, %3, %4, %5 : vector<4xi32>, tensor<4xi64>, tensor<4xi64>, vector<4xf32>, tensor<4xf32>, vector<4xindex>
}
