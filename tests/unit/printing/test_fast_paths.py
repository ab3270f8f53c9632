"""The printer's shortcuts print what the long way prints."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    f32,
    f64,
    i1,
    i32,
)
from xdsl.printer import Printer

from memplan.context import make_context
from memplan.printing import MlirPrinter, print_mlir, print_module, structure
from memplan.tools.source import parse_module

SOURCE = """\
func.func @f(%m: memref<4xf32>, %i: index) -> (index, i1) {
  %c = arith.constant 3 : index
  %t = arith.constant true
  %s = arith.addi %i, %c : index
  %f = arith.constant -0.0 : f32
  %g = arith.constant 0.0 : f32
  %h = arith.constant 1.0e-05 : f32
  %h2 = arith.constant 1.0e-05 : f32
  %k = arith.constant 0.1 : f64
  memref.store %f, %m[%c] {note = "a\\"b\\\\c", n = 7 : i64} : memref<4xf32>
  %p:2 = "test.pair"(%s) {fn = (index) -> index} : (index) -> (index, (index) -> i1)
  "test.none"() : () -> ()
  return %s, %t : index, i1
}
"""


def _module():
    return parse_module(make_context(allow_unregistered=True), SOURCE, "t.mlir")


@pytest.mark.parametrize("debuginfo", [False, True])
def test_generic_ops_print_as_xdsls_print_op(monkeypatch, debuginfo: bool):
    """One string per op, or xDSL's `print_op` piece by piece: the same text."""
    module = _module()

    def printed() -> str:
        stream = io.StringIO()
        print_module(module, stream, generic=True, debuginfo=debuginfo)
        return stream.getvalue()

    fast = printed()
    monkeypatch.setattr(structure.MlirStructurePrinter, "_generic_text", lambda self, op, plan: None)
    assert printed() == fast
    assert '"test.pair"' in fast and ("loc(" in fast) == debuginfo


def test_custom_ops_with_locations_print_as_piece_by_piece(monkeypatch):
    module = _module()
    stream = io.StringIO()
    print_module(module, stream, debuginfo=True)
    monkeypatch.setattr(structure, "compiled_print", lambda op_type: op_type.print)
    slow = io.StringIO()
    print_module(module, slow, debuginfo=True)
    assert stream.getvalue() == slow.getvalue()
    assert 'loc("t.mlir":3:3)' in stream.getvalue()


def _xdsl_text(attribute) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(attribute)
    return stream.getvalue()


def _memplan_text(attribute) -> str:
    stream = io.StringIO()
    MlirPrinter(stream=stream).print_attribute(attribute)
    return stream.getvalue()


@pytest.mark.parametrize(
    "attribute",
    [
        IntegerAttr(1, i1),
        IntegerAttr(0, i1),
        IntegerAttr(-3, i32),
        IntegerAttr(5, IndexType()),
        IntegerAttr(-2, IntegerType(8, Signedness.SIGNED)),
        IntegerAttr(200, IntegerType(8, Signedness.UNSIGNED)),
        StringAttr('quote " backslash \\ tab \t é'),
        FileLineColLoc(StringAttr('dir/"x".mlir'), IntAttr(12), IntAttr(4)),
    ],
    ids=str,
)
def test_builtin_attributes_print_as_xdsl(attribute):
    assert _memplan_text(attribute) == _xdsl_text(attribute)


def test_float_texts_are_kept_per_value_and_type():
    printer = MlirPrinter(stream=io.StringIO())
    texts = []
    # One printer prints each value in turn; a fresh printer each value alone.
    for value, type in [(1e-05, f32), (-0.0, f32), (0.0, f32), (1e-05, f32), (0.1, f64), (0.1, f32)]:
        texts.append(printer.printed_aside(lambda: printer.print_float(value, type)))
    assert texts[1] != texts[2]  # -0.0 and 0.0 are one dictionary key, two texts
    assert texts[0] == texts[3]
    assert texts[4] != texts[5]  # 0.1 rounds differently in f32
    for (value, type), text in zip(
        [(1e-05, f32), (-0.0, f32), (0.0, f32), (0.1, f64), (0.1, f32)],
        [texts[0], texts[1], texts[2], texts[4], texts[5]],
    ):
        other = MlirPrinter(stream=io.StringIO())
        assert other.printed_aside(lambda: other.print_float(value, type)) == text


def test_printing_twice_gives_the_same_text():
    module = _module()
    assert print_mlir(module) == print_mlir(module)
    assert "%cst = arith.constant -0.000000e+00 : f32" in print_mlir(module)
    assert "%cst_0 = arith.constant 0.000000e+00 : f32" in print_mlir(module)


SIGNATURES = """\
func.func @g(%ctx: !hip.context, %a: memref<4xf32>, %b: memref<4xf32>, %x: memref<1x2x2xf32>, %i: index, %j: index) -> index {
  %0 = arith.addi %i, %i : index
  %1 = arith.addi %i, %j : index
  %2 = arith.addi %j, %i : index
  %3 = arith.addi %1, %1 : index
  %4 = arith.addi %2, %3 {note = "x\\00y"} : index
  %5 = arith.addi %3, %4 {note = "x\\00y"} : index
  %f = arith.constant -0.0 : f32
  %g = arith.constant 0.0 : f32
  %h = arith.constant -0.0 : f32
  hip.add(%ctx) ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  hip.add(%ctx) ins(%b, %b : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  hip.add(%ctx) ins(%b, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  %c = memref.collapse_shape %x [[0], [1, 2]] : memref<1x2x2xf32> into memref<1x4xf32>
  %d = memref.collapse_shape %x [[0, 1], [2]] : memref<1x2x2xf32> into memref<2x2xf32>
  return %5 : index
}
"""


def _printed(module, **options) -> str:
    stream = io.StringIO()
    print_module(module, stream, **options)
    return stream.getvalue()


@pytest.mark.parametrize("options", [{}, {"debuginfo": True}, {"keep_names": True}])
def test_ops_of_one_signature_print_as_each_alone(monkeypatch, options):
    """An op's text made from the first op of its signature, its names filled in,
    is the text the op prints alone: with repeated operands (no template is made
    from them; one made from distinct operands serves them), equal attributes,
    floats equal as Python numbers but not by bits, hip kernels' custom syntax,
    and a format with a custom directive (never shared)."""
    module = parse_module(make_context(), SIGNATURES, "s.mlir")
    made: list[object] = []
    of = structure._Template.of

    def recorded(*args):
        template = of(*args)
        made.append(template)
        return template

    monkeypatch.setattr(structure._Template, "of", staticmethod(recorded))
    fast = _printed(module, **options)
    assert any(template is not None for template in made)
    monkeypatch.setattr(structure.MlirStructurePrinter, "_signature_text", lambda self, op, text: text(op, self))
    assert _printed(module, **options) == fast
    assert "arith.addi %arg4, %arg4 : index" in fast or "arith.addi %i, %i : index" in fast
    assert "hip.add(%arg0) ins(%arg2, %arg2 :" in fast or "hip.add(%ctx) ins(%b, %b :" in fast
    assert "[[0, 1], [2]]" in fast and "-0.000000e+00" in fast
    collapse = next(op for op in module.walk() if op.name == "memref.collapse_shape")
    assert not MlirPrinter(stream=io.StringIO())._plan(collapse).by_signature


def test_a_template_that_does_not_give_its_op_back_is_not_made():
    module = parse_module(make_context(), SIGNATURES, "s.mlir")
    printer = MlirPrinter(stream=io.StringIO())
    add = next(op for op in module.walk() if op.name == "arith.addi" and op.operands[0] is not op.operands[1])
    names = {value: f"v{n}" for n, value in enumerate((*add.operands, *add.results))}
    own = list(names.values())

    def upper(op, printer) -> str:  # a print that rewrites the names it is given
        return " " + ", ".join(names[v].upper() for v in op.operands)

    assert structure._Template.of(add, upper, printer, names, own, upper(add, printer)) is None
    assert names == {value: f"v{n}" for n, value in enumerate((*add.operands, *add.results))}

    def fine(op, printer) -> str:
        return " " + ", ".join("%" + names[v] for v in op.operands)

    template = structure._Template.of(add, fine, printer, names, own, fine(add, printer))
    assert template is not None and template.filled(["a", "b", "c"]) == " %a, %b"
