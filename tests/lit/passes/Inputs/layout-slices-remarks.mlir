// Remarks of layout-slices{debug=true}: what was planned, and the sizes read only
// as unknowns (and why).

util.func public @remarks(%s: index, %n: index) -> (index, index, index, index) {
  %c4096 = arith.constant 4096 : index
  %c100 = arith.constant 100 : index
  %big = arith.muli %s, %c4096 : index
  %less = arith.subi %n, %s : index
  // expected-remark @+1 {{dynamic pack of 3 slices: 1 layout(s) chosen at run time; sizes are polynomials over 2 unknown value(s); read only as unknowns: slice 2: 'arith.subi' may be negative as a polynomial}}
  %t:4 = stream.resource.pack slices({
    [0, 1] = %big,
    [1, 2] = %c100,
    [0, 2] = %less
  }) : index
  util.return %t#0, %t#1, %t#2, %t#3 : index, index, index, index
}

// -----

util.func public @static_remark() -> (index, index) {
  %c100 = arith.constant 100 : index
  // expected-remark @+1 {{static pack of 1 slices: 128 bytes (iree-greedy); lower bound 128, IREE's greedy 128}}
  %t:2 = stream.resource.pack slices({
    [0, 1] = %c100
  }) : index
  util.return %t#0, %t#1 : index, index
}
