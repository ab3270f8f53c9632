// RUN: memplan-opt %s | FileCheck %s
// IREE's iree_encoding attributes as iree-opt 3.13 prints them: encoding, layout,
// testing and unknown under the `#encoding` alias (sorted after the maps they
// name), the others inline; struct parameters in any order in, declared order out.

// CHECK-DAG: #[[T:encoding[0-9]*]] = #iree_encoding.testing<>
// CHECK-DAG: #[[T2:encoding[0-9]*]] = #iree_encoding.testing<layouts = [#iree_encoding.specialized<3>], original_element_type = i4>
// CHECK-DAG: #[[U:encoding[0-9]*]] = #iree_encoding.unknown
// CHECK-DAG: #[[L:encoding[0-9]*]] = #iree_encoding.layout<[#iree_encoding.specialized<1>]>
// CHECK-DAG: #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[T2D:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK: #[[E0:encoding[0-9]*]] = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iteration_sizes = [?, 16, 32]>
// CHECK-NEXT: #[[E1:encoding[0-9]*]] = #iree_encoding.encoding<operand_index = 2 : index, op_type = scaled_matmul, element_types = [i8], original_element_type = i4, user_indexing_maps = {{\[\[}}#[[T2D]], #[[OUT]]], #[[RHS]], []]>
// CHECK-LABEL: @attrs
// CHECK-SAME: tensor<8x8xf16, #[[E0]]>
// CHECK-SAME: tensor<8x8xi8, #[[E1]]>
// CHECK-SAME: tensor<8xf32, #iree_encoding.identity>
// CHECK-SAME: tensor<8xi4, #iree_encoding.packed_storage>
// CHECK-SAME: tensor<8xf32, #[[T]]>
// CHECK-SAME: tensor<8xi8, #[[T2]]>
// CHECK-SAME: tensor<8xf32, #iree_encoding.specialized<5, tensor<8xf32>>>
// CHECK-SAME: tensor<8xf32, #iree_encoding.padding<[0]>>
// CHECK-SAME: tensor<8xf32, #[[U]]>
// CHECK-SAME: tensor<8xf32, #[[L]]>
// CHECK-SAME: {r = [#iree_encoding.identity_resolver, #iree_encoding.unsupported_resolver, #iree_encoding.specialization_resolver<-3>]}
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
#t = affine_map<(a, b) -> (b, a)>
util.func private @attrs(
  %a: tensor<8x8xf16, #iree_encoding.encoding<iteration_sizes = [?, 16, 32], op_type = matmul, operand_index = 0, element_types = [f16, f16, f32], user_indexing_maps = [#lhs, #rhs, #out]>>,
  %b: tensor<8x8xi8, #iree_encoding.encoding<operand_index = 2 : index, op_type = scaled_matmul, element_types = [i8], user_indexing_maps = [[#t, #out], #rhs, []], original_element_type = i4>>,
  %c: tensor<8xf32, #iree_encoding.identity>,
  %d: tensor<8xi4, #iree_encoding.packed_storage>,
  %e: tensor<8xf32, #iree_encoding.testing<>>,
  %f: tensor<8xi8, #iree_encoding.testing<original_element_type = i4, layouts = [#iree_encoding.specialized<3>]>>,
  %g: tensor<8xf32, #iree_encoding.specialized<5, tensor<8xf32>>>,
  %h: tensor<8xf32, #iree_encoding.padding<[0]>>,
  %u: tensor<8xf32, #iree_encoding.unknown>,
  %l: tensor<8xf32, #iree_encoding.layout<[#iree_encoding.specialized<1>]>>
  ) attributes {r = [#iree_encoding.identity_resolver, #iree_encoding.unsupported_resolver, #iree_encoding.specialization_resolver<-3>]}

