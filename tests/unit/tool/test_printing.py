"""Printing as mlir-opt prints, without ever changing the IR."""

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, f32

from memplan.analysis.fingerprint import fingerprint
from memplan.context import make_context
from memplan.printing import print_mlir
from memplan.tools.source import parse_module

SOURCE = """\
func.func @f(%m: memref<4xf32>) -> memref<?xf32> {
  %source_name = memref.cast %m : memref<4xf32> to memref<?xf32>
  return %source_name : memref<?xf32>
}
"""


def test_printing_a_pass_built_op_does_not_replace_it():
    module = parse_module(make_context(), SOURCE, "t.mlir")
    func = next(iter(module.body.block.ops))
    block = func.regions[0].blocks.first
    # What a pass builds: xDSL's own class, which prints only generically.
    built = xmemref.CastOp.get(block.args[0], MemRefType(f32, [DYNAMIC_INDEX]))
    block.insert_op_before(built, block.first_op)
    before = fingerprint(module)
    ops_before = list(module.walk())
    first = print_mlir(module)
    assert type(built) is xmemref.CastOp
    assert list(module.walk()) == ops_before and fingerprint(module) == before
    # Printed in MLIR's custom syntax all the same, and the same every time.
    assert "%cast = memref.cast %arg0 : memref<4xf32> to memref<?xf32>" in first
    assert '"memref.cast"' not in first
    assert print_mlir(module) == first


def test_source_names_only_with_keep_names():
    module = parse_module(make_context(), SOURCE, "t.mlir")
    assert "%source_name" not in print_mlir(module)
    assert "%cast = memref.cast %arg0" in print_mlir(module)
    kept = print_mlir(module, keep_names=True)
    assert "%source_name = memref.cast %m" in kept
    # Printing with names left the hints in place for the next print.
    assert print_mlir(module, keep_names=True) == kept
