"""The parse-speed helpers change nothing that is read: same IR, same errors."""

from __future__ import annotations

import gc

import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr, f32, i64
from xdsl.ir import Operation
from xdsl.irdl import OpDef
from xdsl.parser import Parser
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import ParseError, VerifyException

import memplan
from memplan.parsing import (
    TypeCachingParser,
    indexed_symbol_lookups,
    memoized_definition_checks,
    without_gc,
)
from memplan.printing import print_mlir

TEXT = """
func.func @f(%a: memref<4x8xf32>, %b: memref<4x8xf32, strided<[16, 1]>>) -> memref<4x8xf32> {
  %c = memref.alloc() : memref<4x8xf32>
  %d = memref.alloc() : memref<4x8xf32, strided<[16, 1]>>
  %e = memref.alloc() : memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %f = memref.alloc() : memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %g = memref.alloc() : memref<4x8xf32>// a comment right after the type
  %h = memref.alloc() : memref<4x8xf32>
  return %c : memref<4x8xf32>
}
"""


class _Caching(TypeCachingParser):
    pass


def _parse(parser_class, text: str):
    return parser_class(memplan.make_context(), text).parse_module()


def test_cached_types_give_the_same_module():
    plain = _parse(Parser, TEXT)
    cached_parser = _Caching(memplan.make_context(), TEXT)
    cached = cached_parser.parse_module()
    assert print_mlir(cached, generic=True) == print_mlir(plain, generic=True)
    # The repeated spellings were cached; the affine map's `->` defeats the candidate
    # span, so it is parsed each time (and still right).
    assert "memref<4x8xf32>" in cached_parser._types_by_text
    assert "memref<4x8xf32, strided<[16, 1]>>" in cached_parser._types_by_text
    assert not any("affine_map" in text for text in cached_parser._types_by_text)
    types = [op.results[0].type for op in cached.walk() if op.name == "memref.alloc"]
    assert types[0] is types[4] is types[5]


def test_cached_dialect_attributes_give_the_same_module():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "examples" / "iree_seed_initializer.mlir").read_text()
    parser = _Caching(memplan.make_context(), text)
    assert print_mlir(parser.parse_module(), generic=True) == print_mlir(_parse(Parser, text), generic=True)
    assert "#hal.device.affinity<@__device_0>" in parser._attributes_by_text


def test_without_gc_restores_the_collector():
    assert gc.isenabled()
    with without_gc():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_indexed_lookups_agree_with_xdsl():
    module = _parse(Parser, "util.global private @g : index\nutil.global private @h : i32\n"
                    "func.func @f() -> index {\n  %0 = util.global.load @g : index\n  return %0 : index\n}\n")
    load = next(op for op in module.walk() if op.name == "util.global.load")
    original = SymbolTable.lookup_symbol
    expected = [SymbolTable.lookup_symbol(load, name) for name in ("g", "h", "nothing")]
    with indexed_symbol_lookups():
        found = [SymbolTable.lookup_symbol(load, name) for name in ("g", "h", "nothing")]
    assert found == expected and found[0] is not None and found[2] is None
    assert SymbolTable.lookup_symbol is original


def _counting_definition_checks(monkeypatch) -> list[Operation]:
    """OpDef.verify recording the ops it checks (installed before the memo, which
    calls it on a miss)."""
    checked: list[Operation] = []
    original = OpDef.verify

    def verify(op_def: OpDef, op: Operation) -> None:
        checked.append(op)
        original(op_def, op)

    monkeypatch.setattr(OpDef, "verify", verify)
    return checked


def test_memoized_definition_checks_check_a_combination_once(monkeypatch):
    checked = _counting_definition_checks(monkeypatch)
    t = MemRefType(f32, [4])
    first, same, other = memref.AllocOp([], [], t), memref.AllocOp([], [], t), memref.AllocOp(
        [], [], MemRefType(f32, [8]))
    with memoized_definition_checks():
        for op in (first, same, other):
            op.verify()
    assert checked == [first, other]



def test_memoized_definition_checks_take_equal_type_objects_as_one(monkeypatch):
    """A pass builds a new type object per op: equal ones share one check."""
    checked = _counting_definition_checks(monkeypatch)
    first, equal, other = (memref.AllocOp([], [], t) for t in (
        MemRefType(f32, [4]), MemRefType(f32, [4]), MemRefType(f32, [8])))
    assert first.memref.type is not equal.memref.type
    with memoized_definition_checks():
        for op in (first, equal, other):
            op.verify()
    assert checked == [first, other]

def test_memoized_definition_checks_still_reject_what_differs(monkeypatch):
    t = MemRefType(f32, [4])
    good = memref.AllocOp([], [], t, alignment=IntegerAttr(64, i64))
    bad = memref.AllocOp([], [], t)
    bad.properties["alignment"] = StringAttr("64")  # alignment must be an integer
    with memoized_definition_checks():
        good.verify()
        with pytest.raises(VerifyException):
            bad.verify()


def test_memoized_definition_checks_run_traits_every_time():
    inside = func.FuncOp("f", ((), ()))
    returned = func.ReturnOp()
    inside.body.block.add_op(returned)
    alone = func.ReturnOp()  # its parent must be a function (a trait's rule)
    ModuleOp([alone])
    with memoized_definition_checks():
        returned.verify()
        with pytest.raises(VerifyException):
            alone.verify()


def test_cached_attribute_dictionaries_are_copies():
    text = ('func.func @f() {\n  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>\n'
            '  %b = memref.alloc() {alignment = 64 : i64} : memref<4xf32>\n  return\n}\n')
    parser = _Caching(memplan.make_context(), text)
    module = parser.parse_module()
    assert print_mlir(module, generic=True) == print_mlir(_parse(Parser, text), generic=True)
    assert "{alignment = 64 : i64}" in parser._dictionaries_by_text
    again = _Caching(memplan.make_context(), "{alignment = 64 : i64} {alignment = 64 : i64}")
    first = again.parse_optional_attr_dict()
    first.pop("alignment")
    assert list(again.parse_optional_attr_dict()) == ["alignment"]


KERNELS = """
func.func @k(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x8xf16>) {
  %c = memref.alloc() : memref<4x8xf16>
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x8xf16>) outs(%c : memref<4x8xf16>)
  hip.matmul(%ctx) ins( %c , %b:memref<4x8xf16>,memref<8x8xf16> ) outs(%a : memref<4x8xf16>)
  hip.matmul(%ctx) ins(%a, // a comment in the group
                       %b : memref<4x8xf16>, memref<8x8xf16>) outs(%c : memref<4x8xf16>)
  return
}
"""


def test_kernel_operand_groups_read_from_the_text_give_the_same_module(monkeypatch):
    import memplan.dialects.hip_kernels as kernels

    read = []
    original = kernels._typed_operands_from_text

    def counting(parser):
        found = original(parser)
        read.append(found is not None)
        return found

    monkeypatch.setattr(kernels, "_typed_operands_from_text", counting)
    cached = _parse(_Caching, KERNELS)
    assert print_mlir(cached, generic=True) == print_mlir(_parse(Parser, KERNELS), generic=True)
    # Once its types are known a group is read from the text; the comment is not.
    assert read.count(True) >= 4 and read.count(False) >= 1


def test_a_kernel_operand_of_another_type_is_reported_where_it_is_written():
    text = KERNELS.replace("outs(%a : memref<4x8xf16>)", "outs(%b : memref<4x8xf16>)")
    at = _same_error_with_and_without_caching(text)
    assert text[at:].startswith("%b : memref<4x8xf16>)")


def _same_error_with_and_without_caching(text: str) -> int:
    """Where both parsers report `text`'s error (the same place and message)."""
    errors = []
    for parser_class in (_Caching, Parser):
        with pytest.raises(ParseError) as caught:
            _parse(parser_class, text)
        errors.append((caught.value.span.start, caught.value.msg))
    assert errors[0] == errors[1]
    return errors[0][0]


MEMREF_OPS = """
func.func @m(%i: index, %v: f32, %big: memref<4x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<4x8xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  memref.store %v, %a[%i, %i] : memref<4x8xf32>
  memref.store %v,%b [ %i,%i ]:memref<4x8xf32>
  memref.store %v, %a[%i, %i] {nontemporal = true} : memref<4x8xf32>
  %s = memref.subview %a[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %t = memref.subview %b[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %u = memref.subview %b[%i, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  memref.dealloc %a : memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32> // a comment
  memref.dealloc %c : memref<4x8xf32>
  return
}
"""


def test_memref_ops_read_from_the_text_give_the_same_module(monkeypatch):
    import memplan.dialects.memref as mlir_memref

    read = []
    original = mlir_memref._memref_type_after

    def counting(parser, pattern):
        found = original(parser, pattern)
        read.append(found is not None)
        return found

    monkeypatch.setattr(mlir_memref, "_memref_type_after", counting)
    cached = _parse(_Caching, MEMREF_OPS)
    assert print_mlir(cached, generic=True) == print_mlir(_parse(Parser, MEMREF_OPS), generic=True)
    assert print_mlir(cached) == print_mlir(_parse(Parser, MEMREF_OPS))
    # Plain forms with known types are read from the text; attributes, dynamic
    # indices and the first occurrence of a type are not.
    assert read.count(True) >= 6 and read.count(False) >= 4


@pytest.mark.parametrize("wrong, right", [
    ("memref.store %v, %a[%i, %i]", "memref.store %i, %a[%i, %i]"),
    ("memref.dealloc %b : memref<4x8xf32> //", "memref.dealloc %i : memref<4x8xf32> //"),
    ("%t = memref.subview %b[0, 4]", "%t = memref.subview %big[0, 4]"),
])
def test_a_memref_op_operand_of_another_type_is_reported_where_it_is_written(wrong, right):
    text = MEMREF_OPS.replace(wrong, right, 1).replace("%big: memref<4x8xf32>", "%big: memref<8xf32>")
    at = _same_error_with_and_without_caching(text)
    assert text[at:].startswith(right.split(" = ")[-1].split()[1].split("[")[0].rstrip(","))
