util.func public @backwards() -> (index, index) {
  %c64 = arith.constant 64 : index
  %t:2 = stream.resource.pack slices({
    [3, 1] = %c64
  }) : index
  util.return %t#0, %t#1 : index, index
}

// -----

util.func public @odd_alignment() -> (index, index) attributes {stream.resources = #stream.resource_config<{min_buffer_offset_alignment = 24, min_buffer_range_alignment = 24}>} {
  %c64 = arith.constant 64 : index
  %t:2 = stream.resource.pack slices({
    [0, 1] = %c64
  }) : index
  util.return %t#0, %t#1 : index, index
}
