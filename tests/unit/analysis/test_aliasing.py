"""View chains back to root buffers, learnt from `ViewLike` alone."""

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    StridedLayoutAttr,
    f16,
    i1,
    i32,
    i64,
)
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect

from memplan.analysis.aliasing import (
    alias_uses,
    aliases_of,
    root_of,
    static_bytes,
)
from memplan.context import make_context
from memplan.interfaces import ViewLike
from memplan.tools.source import parse_module


@irdl_op_definition
class SecondOperandViewOp(IRDLOperation):
    """A view of its *second* operand: the first is only read for its shape."""

    name = "atest.view_second"
    like = operand_def()
    source = operand_def()
    result = result_def()
    traits = traits_def(ViewLike(1), NoMemoryEffect())


def parse(text: str):
    ctx = make_context()
    ctx.load_dialect(Dialect("atest", [SecondOperandViewOp]))
    module = parse_module(ctx, text, "test.mlir")
    values = {}
    for op in module.walk():
        for r in op.results:
            if r.name_hint:
                values[r.name_hint] = r
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if arg.name_hint:
                        values[arg.name_hint] = arg
    return values


CHAIN = """
func.func @f(%arg: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xi32>
  %s = memref.subview %a[0] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1]>>
  %c = memref.cast %s : memref<8xi32, strided<[1]>> to memref<?xi32, strided<[1]>>
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xi32> into memref<4x4xi32>
  %k = memref.collapse_shape %e [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  %w = "atest.view_second"(%arg, %k) : (memref<8xi32>, memref<16xi32>) -> memref<16xi32>
  %d = memref.dim %c, %c0 : memref<?xi32, strided<[1]>>
  %v = memref.load %w[%c0] : memref<16xi32>
  return
}
"""


def test_root_of_follows_every_view_back_to_the_allocation():
    v = parse(CHAIN)
    for name in ("a", "s", "c", "e", "k", "w"):
        assert root_of(v[name]) is v["a"]
    assert root_of(v["arg"]) is v["arg"]
    assert root_of(v["d"]) is v["d"]


def test_aliases_of_lists_the_root_and_each_view_once():
    v = parse(CHAIN)
    got = aliases_of(v["a"])
    assert got[0] is v["a"]
    assert sorted(x.name_hint for x in got) == ["a", "c", "e", "k", "s", "w"]


def test_alias_uses_marks_view_edges_and_real_uses():
    v = parse(CHAIN)
    uses = list(alias_uses(v["a"]))
    views = {u.user.name for u in uses if u.is_view}
    real = {u.user.name for u in uses if not u.is_view}
    assert views == {
        "memref.subview", "memref.cast", "memref.expand_shape",
        "memref.collapse_shape", "atest.view_second",
    }
    assert real == {"memref.dim", "memref.load"}
    load = next(u for u in uses if u.user.name == "memref.load")
    assert load.value is v["w"]


def test_an_operand_that_is_not_the_view_source_is_a_plain_use():
    v = parse(CHAIN)
    uses = list(alias_uses(v["arg"]))
    assert [(u.user.name, u.is_view) for u in uses] == [("atest.view_second", False)]
    assert aliases_of(v["arg"]) == [v["arg"]]


def test_static_bytes_only_for_static_identity_layouts():
    assert static_bytes(MemRefType(i32, [4, 8])) == 128
    assert static_bytes(MemRefType(f16, [3])) == 6
    assert static_bytes(MemRefType(i64, [])) == 8
    assert static_bytes(MemRefType(i32, [DYNAMIC_INDEX])) is None
    strided = MemRefType(i32, [4], StridedLayoutAttr([2], 0))
    assert static_bytes(strided) is None
