"""The byte-range query of views: which bytes of its root a value reaches."""

import pytest

from memplan.analysis.byte_ranges import Linear, bytes_in_root
from memplan.context import make_context
from memplan.tools.source import parse_module

PROGRAM = """
func.func @f(%ctx: !hip.context, %off: index, %n: index) {
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %size = arith.constant 1024 : index
  %scratch = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %scratch[%c64][] : memref<?xi8> to memref<1xi64>
  %wide = memref.reinterpret_cast %a to offset: [1], sizes: [2], strides: [1] : memref<1xi64> to memref<2xi64, strided<[1], offset: 1>>
  %cast = memref.cast %wide : memref<2xi64, strided<[1], offset: 1>> to memref<?xi64, strided<[1], offset: 1>>
  %sub = memref.subview %wide[1] [1] [1] : memref<2xi64, strided<[1], offset: 1>> to memref<1xi64, strided<[1], offset: 2>>
  %odd = memref.view %scratch[%c8][] : memref<?xi8> to memref<9xi33>
  %dyn = memref.view %scratch[%off][%n] : memref<?xi8> to memref<?xi24>
  %dsub = memref.subview %dyn[%off] [4] [1] : memref<?xi24> to memref<4xi24, strided<[1], offset: ?>>
  %grid = memref.view %scratch[%c8][%n, %n] : memref<?xi8> to memref<?x?xf32>
  "test.use"(%cast, %sub, %odd, %dsub, %grid) : (memref<?xi64, strided<[1], offset: 1>>, memref<1xi64, strided<[1], offset: 2>>, memref<9xi33>, memref<4xi24, strided<[1], offset: ?>>, memref<?x?xf32>) -> ()
  return
}
"""


@pytest.fixture(scope="module")
def values():
    module = parse_module(make_context(allow_unregistered=True), PROGRAM, "t.mlir")
    found = {}
    for op in module.walk():
        for r in op.results:
            if r.name_hint:
                found[r.name_hint] = r
        if op.name == "func.func":
            for i, name in enumerate(("ctx", "off", "n")):
                found[name] = op.body.blocks[0].args[i]
    return found


def _const(v, name):
    root, start, end = bytes_in_root(v[name])
    assert root is v["scratch"]
    return start.constant(), None if end is None else end.constant()


def test_a_view_of_a_view_reaches_past_its_source(values):
    """The reinterpret_cast of the 1 x i64 view at 64 reaches bytes 72..88."""
    assert _const(values, "a") == (64, 72)
    assert _const(values, "wide") == (72, 88)
    assert _const(values, "cast") == (72, 88)
    assert _const(values, "sub") == (80, 88)


def test_elements_take_their_alloc_size(values):
    assert _const(values, "odd") == (8, 8 + 9 * 8)


def test_dynamic_offsets_and_sizes_are_linear(values):
    off, n = values["off"], values["n"]
    root, start, end = bytes_in_root(values["dyn"])
    assert start == Linear(0, ((off, 1),))
    assert end == Linear(0, ((off, 1), (n, 4)))
    root, start, end = bytes_in_root(values["dsub"])
    assert start == Linear(0, ((off, 5),))  # the view's shift plus 4 bytes per element
    assert end == Linear(16, ((off, 5),))


def test_a_product_of_dynamic_sizes_has_no_known_end(values):
    root, start, end = bytes_in_root(values["grid"])
    assert start == Linear(8) and end is None


def test_a_root_reaches_from_zero(values):
    root, start, end = bytes_in_root(values["scratch"])
    assert root is values["scratch"] and start == Linear(0) and end is None
