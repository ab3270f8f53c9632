// RUN: memplan-opt %s --split-input-file --allow-unregistered-dialect --cse | FileCheck %s

// Attributes and types of dialects memplan does not model compare by their text:
// CSE merges only ops whose opaque parts are written the same.

// CHECK-LABEL: @sizes_of_two_encodings
util.func public @sizes_of_two_encodings() -> (index, index, index) {
  // CHECK: %[[A:.+]] = stream.tensor.sizeof tensor<4xf32, #acme.enc<a>> : index
  // CHECK: %[[B:.+]] = stream.tensor.sizeof tensor<4xf32, #acme.enc<b>> : index
  // CHECK-NOT: stream.tensor.sizeof
  // CHECK: util.return %[[A]], %[[B]], %[[A]]
  %0 = stream.tensor.sizeof tensor<4xf32, #acme.enc<a>> : index
  %1 = stream.tensor.sizeof tensor<4xf32, #acme.enc<b>> : index
  %2 = stream.tensor.sizeof tensor<4xf32, #acme.enc<a>> : index
  util.return %0, %1, %2 : index, index, index
}

// -----

// CHECK-LABEL: @casts_to_two_opaque_types
func.func @casts_to_two_opaque_types(%x: i32) -> (!iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>) {
  // CHECK: %[[A:.+]] = builtin.unrealized_conversion_cast %{{.+}} : i32 to !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
  // CHECK: %[[B:.+]] = builtin.unrealized_conversion_cast %{{.+}} : i32 to !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
  // CHECK: return %[[A]], %[[B]]
  %a = builtin.unrealized_conversion_cast %x : i32 to !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
  %b = builtin.unrealized_conversion_cast %x : i32 to !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
  return %a, %b : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
}
