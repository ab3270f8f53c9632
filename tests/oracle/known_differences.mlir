// Differences between memplan-opt and mlir-opt-22 that lie outside the memref ops
// (xDSL's builtin attribute parsing and printing). compare_mlir_opt.py reports
// them; they are listed in docs/design/dialect-memref.md.

// Generic form: a float dense<...> with NaN/inf elements. memplan's custom
// memref.global syntax reads the bits correctly; xDSL's generic attribute parser
// (used for the `initial_value` property and for every other dense attribute,
// e.g. arith.constant) reads 0xFF800000 as the integer 4286578688.
func.func @hex_float_dense() -> tensor<2xf32> {
  %0 = arith.constant dense<[0xFF800000, 1.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Affine-map layouts: MLIR prints an alias (#map = affine_map<...>) and single
// parentheses; xDSL inlines the map and prints ((d0 + s0)).
func.func @affine_layout(%d: index, %s: index) {
  %0 = memref.alloc(%d)[%s] : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}
