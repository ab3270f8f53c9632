// RUN: memplan-opt %s --split-input-file --verify-diagnostics
// iree_encoding.encoding's verifier, as IREE's.


#m = affine_map<(m, n, k) -> (m, k)>
// expected-error @+1 {{`operandIndex` exceeds the size of `user_indexing_maps`}}
util.func private @index_past_maps(%a: tensor<8x8xf32, #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32], user_indexing_maps = [#m]>>)

// -----

#m = affine_map<(m, n, k) -> (m, k)>
// expected-error @+1 {{found a non-composable attribute in `user_indexing_maps` at index: 1}}
util.func private @not_a_map(%a: tensor<8x8xf32, #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32], user_indexing_maps = [#m, 3]>>)

// -----

#m = affine_map<(m, n, k) -> (m, k)>
// expected-error @+1 {{found an encoding with 2 iteration sizes, but expected 3 based on the user indexing maps}}
util.func private @sizes_vs_dims(%a: tensor<8x8xf32, #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32], user_indexing_maps = [#m], iteration_sizes = [4, 4]>>)

// -----

// expected-error @+1 {{found `iteration_sizes` without any corresponding `user_indexing_maps`}}
util.func private @sizes_without_maps(%a: tensor<8x8xf32, #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32], iteration_sizes = [4]>>)
