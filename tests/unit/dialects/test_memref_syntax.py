"""memref ops in MLIR's custom syntax: round trips, generic form, isinstance against
xDSL's classes, interfaces, verifiers, and the printer fixes for memref types.

The texts below are what `mlir-opt-22` prints (tests/oracle/compare_mlir_opt.py
checks the same forms against it).
"""

from __future__ import annotations

from memplan.printing.builtin_syntax import MlirBuiltinPrinter

import math
import re
from io import StringIO

import pytest
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Builtin,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    f32,
    i64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import make_context
from memplan.dialects.mlir import memref
from memplan.interfaces import MemoryEffectKind, memory_effects, view_source

ARGS = (
    "%a: memref<4xf32>, %b: memref<?xf32>, %u: memref<*xf32>, "
    "%s: memref<4xf32, strided<[2], offset: 3>>, %r: memref<4x8xf32>, "
    "%q: memref<?x8xf32>, %z: memref<f32>, %one: memref<1x1xf32>, "
    "%m: memref<8xi8, 3>, %n: memref<4xi32>, %v: f32, %w: i32, %i: index, %d: index"
)


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def show(op: Operation, generic: bool = False) -> str:
    out = StringIO()
    MlirBuiltinPrinter(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def in_func(line: str) -> str:
    return f"func.func @f({ARGS}) {{\n  {line}\n  func.return\n}}"


def first_memref_op(module: ModuleOp) -> Operation:
    return next(op for op in module.walk() if op.name.startswith("memref."))


# Every op memplan gives MLIR's syntax, in mlir-opt's text. Function-level ops use
# the arguments of ARGS; module-level ones (globals) stand alone.
FUNC_OPS = [
    "%r0 = memref.cast %a : memref<4xf32> to memref<?xf32>",
    "%r0 = memref.cast %s : memref<4xf32, strided<[2], offset: 3>> to "
    "memref<?xf32, strided<[?], offset: ?>>",
    "%r0 = memref.cast %a : memref<4xf32> to memref<*xf32>",
    "%r0 = memref.cast %u : memref<*xf32> to memref<4xf32>",
    "%r0 = memref.cast %m : memref<8xi8, 3> to memref<?xi8, 3>",
    "%r0 = memref.cast %a {tag = 1 : i32} : memref<4xf32> to memref<?xf32>",
    "memref.copy %a, %b : memref<4xf32> to memref<?xf32>",
    "memref.copy %u, %a : memref<*xf32> to memref<4xf32>",
    "memref.copy %s, %a {note} : memref<4xf32, strided<[2], offset: 3>> to memref<4xf32>",
    "%r0 = memref.memory_space_cast %a : memref<4xf32> to memref<4xf32, 1>",
    "%r0 = memref.memory_space_cast %m : memref<8xi8, 3> to memref<8xi8>",
    "%r0 = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 2>",
    "%r0 = memref.expand_shape %q [[0, 1], [2]] output_shape [%d, 4, 8] : "
    "memref<?x8xf32> into memref<?x4x8xf32>",
    "%r0 = memref.expand_shape %z [] output_shape [1, 1] : memref<f32> into "
    "memref<1x1xf32>",
    "%r0 = memref.collapse_shape %r [[0, 1]] : memref<4x8xf32> into memref<32xf32>",
    "%r0 = memref.collapse_shape %one [] : memref<1x1xf32> into memref<f32>",
    "%r0 = memref.collapse_shape %r [[0], [1]] {tag} : memref<4x8xf32> into "
    "memref<4x8xf32>",
    "%r0 = memref.rank %q : memref<?x8xf32>",
    "%r0 = memref.rank %u : memref<*xf32>",
    "%r0 = memref.atomic_rmw addf %v, %a[%i] : (f32, memref<4xf32>) -> f32",
    "%r0 = memref.atomic_rmw maxs %w, %n[%i] : (i32, memref<4xi32>) -> i32",
    "%r0 = memref.atomic_rmw assign %v, %a[%i] : (f32, memref<4xf32>) -> f32",
    "%r0 = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index",
    # Ops xDSL already prints as mlir-opt does; kept here so a regression shows.
    "%r0 = memref.alloc(%d) {alignment = 64 : i64} : memref<?x4xf32>",
    "%r0 = memref.alloc(%d)[%i] : memref<?xf32, strided<[1], offset: ?>>",
    "%r0 = memref.alloca() : memref<16xi8, 1>",
    "%r0 = memref.load %a[%i] {nontemporal = true} : memref<4xf32>",
    "%r0 = memref.load %z[] : memref<f32>",
    "memref.store %v, %a[%i] : memref<4xf32>",
    "%r0 = memref.subview %r[%i, 2] [4, %d] [1, 1] : memref<4x8xf32> to "
    "memref<4x?xf32, strided<[8, 1], offset: ?>>",
    "%r0 = memref.reinterpret_cast %a to offset: [0], sizes: [%d, 4], strides: "
    "[%i, 1] : memref<4xf32> to memref<?x4xf32, strided<[?, 1]>>",
    "%r0 = memref.dim %u, %i : memref<*xf32>",
    "%r0 = memref.assume_alignment %a, 16 : memref<4xf32>",
    "memref.dealloc %u : memref<*xf32>",
]

GLOBALS = [
    'memref.global "private" constant @c : memref<2xf32> = '
    "dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}",
    "memref.global @pub : memref<4xi32> = uninitialized",
    'memref.global "nested" @nest : memref<4xi32>',
    'memref.global "public" @explicit : memref<2xf32>',
    "memref.global @splat : memref<2x2xf32> = dense<0.000000e+00>",
    'memref.global "private" constant @scalar : memref<i64> = dense<3>',
    "memref.global constant @bools : memref<3xi1> = dense<[true, false, true]>",
    'memref.global "private" constant @mat : memref<2x3xi32> = '
    "dense<[[1, 2, 3], [4, 5, 6]]>",
    'memref.global "private" @"quoted:name" : memref<2xf32> = uninitialized',
    'memref.global "private" @spaced : memref<4xf32, 1> = uninitialized '
    '{alignment = 16 : i64, foo = "bar"}',
    'memref.global "private" constant @inf : memref<3xf32> = '
    "dense<[0x7FC00000, 0xFF800000, 1.000000e+00]>",
]


def parse_line(line: str) -> Operation:
    text = line if line.startswith("memref.global") else in_func(line)
    return first_memref_op(parse(text))


@pytest.mark.parametrize("line", FUNC_OPS + GLOBALS)
def test_custom_syntax_round_trips(line: str):
    assert show(parse_line(line)) == line


HEX_FLOAT_GLOBAL = next(g for g in GLOBALS if "0xFF800000" in g)
XDSL_GENERIC_HEX_FLOATS = pytest.mark.xfail(
    strict=True,
    reason="xDSL 0.75's generic attribute parser reads 0xFF800000 in a float "
    "dense<> as the integer 4286578688 (only the custom syntax is fixed here)",
)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(line, marks=XDSL_GENERIC_HEX_FLOATS)
        if line == HEX_FLOAT_GLOBAL
        else line
        for line in FUNC_OPS + GLOBALS
    ],
)
def test_generic_form_parses_back_to_the_same_op(line: str):
    op = parse_line(line)
    generic = show(op, generic=True)
    assert generic.startswith(('"memref.', '%r0 = "memref.'))
    text = generic if line.startswith("memref.global") else in_func(generic)
    again = first_memref_op(parse(text))
    assert type(again) is type(op)
    assert show(again, generic=True) == generic
    assert show(again) == line


def test_xdsl_reassociation_form_is_accepted_and_printed_as_mlir():
    op = parse_line(
        "%r0 = memref.collapse_shape %r [[0 : i64, 1 : i64]] : memref<4x8xf32> "
        "into memref<32xf32>"
    )
    assert show(op) == (
        "%r0 = memref.collapse_shape %r [[0, 1]] : memref<4x8xf32> into memref<32xf32>"
    )


REPLACED = {
    "memref.cast": xmemref.CastOp,
    "memref.copy": xmemref.CopyOp,
    "memref.memory_space_cast": xmemref.MemorySpaceCastOp,
    "memref.global": xmemref.GlobalOp,
    "memref.expand_shape": xmemref.ExpandShapeOp,
    "memref.collapse_shape": xmemref.CollapseShapeOp,
    "memref.rank": xmemref.RankOp,
    "memref.atomic_rmw": xmemref.AtomicRMWOp,
    "memref.extract_aligned_pointer_as_index": xmemref.ExtractAlignedPointerAsIndexOp,
    # Subclassed only to be read faster (same syntax and printing).
    "memref.alloc": xmemref.AllocOp,
    "memref.store": xmemref.StoreOp,
    "memref.dealloc": xmemref.DeallocOp,
    "memref.subview": xmemref.SubviewOp,
}


@pytest.mark.parametrize("line", FUNC_OPS + GLOBALS)
def test_parsed_ops_are_still_xdsls_classes(line: str):
    op = parse_line(line)
    if op.name in REPLACED:
        assert isinstance(op, REPLACED[op.name])
        assert type(op) is not REPLACED[op.name]
        assert type(op).__module__ == "memplan.dialects.mlir.memref"
    else:
        assert type(op).__module__ == "xdsl.dialects.memref"


def test_dialect_has_every_xdsl_memref_op_once():
    names = [op.name for op in memref.MemRefMlirSyntax.operations]
    added = ["memref.realloc", "memref.reshape", "memref.transpose"]
    assert sorted(names) == sorted(
        [op.name for op in xmemref.MemRef.operations] + added
    )
    for op in memref.MemRefMlirSyntax.operations:
        if op.name in REPLACED:
            assert issubclass(op, REPLACED[op.name]) and op is not REPLACED[op.name]
    ctx = make_context()
    assert ctx.get_op("memref.cast") is memref.CastOp


def test_external_models_apply_to_the_subclasses():
    module = parse(
        in_func("%r0 = memref.cast %a : memref<4xf32> to memref<?xf32>")
        + "\n"
        + in_func("memref.copy %a, %b : memref<4xf32> to memref<?xf32>").replace(
            "@f", "@g"
        )
    )
    cast_op = next(op for op in module.walk() if isinstance(op, memref.CastOp))
    copy_op = next(op for op in module.walk() if isinstance(op, memref.CopyOp))
    assert view_source(cast_op) is cast_op.source
    effects = memory_effects(copy_op)
    assert effects is not None
    assert {(e.kind, e.value) for e in effects} == {
        (MemoryEffectKind.READ, copy_op.source),
        (MemoryEffectKind.WRITE, copy_op.destination),
    }


# ---------------------------------------------------------------------------------
# Verifiers: what mlir-opt-22 rejects, with its messages
# ---------------------------------------------------------------------------------

INVALID = [
    (
        "%r0 = memref.cast %a : memref<4xf32> to memref<5xf32>",
        "operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast "
        "incompatible",
    ),
    ("%r0 = memref.cast %a : memref<4xf32> to memref<4xf16>", "cast incompatible"),
    ("%r0 = memref.cast %a : memref<4xf32> to memref<4x1xf32>", "cast incompatible"),
    (
        "%r0 = memref.cast %a : memref<4xf32> to memref<4xf32, 1>",
        "result type 'memref<4xf32, 1>' are cast incompatible",
    ),
    ("%r0 = memref.cast %u : memref<*xf32> to memref<*xf32>", "cast incompatible"),
    ("%r0 = memref.cast %u : memref<*xf32> to memref<4xi32>", "cast incompatible"),
    (
        "%r0 = memref.cast %s : memref<4xf32, strided<[2], offset: 3>> to "
        "memref<4xf32>",
        "cast incompatible",
    ),
    (
        "%r0 = memref.cast %s : memref<4xf32, strided<[2], offset: 3>> to "
        "memref<4xf32, strided<[?], offset: 4>>",
        "cast incompatible",
    ),
    (
        "memref.copy %a, %n : memref<4xf32> to memref<4xi32>",
        "requires the same element type for all operands",
    ),
    (
        "memref.copy %a, %r : memref<4xf32> to memref<4x8xf32>",
        "requires the same shape for all operands",
    ),
    (
        "%r0 = memref.memory_space_cast %a : memref<4xf32> to memref<?xf32, 1>",
        "cast incompatible",
    ),
    (
        "%r0 = memref.memory_space_cast %a : memref<4xf32> to memref<*xf32, 1>",
        "cast incompatible",
    ),
    (
        "%r0 = memref.memory_space_cast %s : memref<4xf32, strided<[2], offset: 3>> "
        "to memref<4xf32, 1>",
        "cast incompatible",
    ),
    (
        "%r0 = memref.atomic_rmw addf %w, %n[%i] : (i32, memref<4xi32>) -> i32",
        "with kind 'addf' expects a floating-point type",
    ),
    (
        "%r0 = memref.atomic_rmw ori %v, %a[%i] : (f32, memref<4xf32>) -> f32",
        "with kind 'ori' expects an integer type",
    ),
    (
        "%r0 = memref.atomic_rmw addf %v, %r[%i] : (f32, memref<4x8xf32>) -> f32",
        "expects the number of subscripts to be equal to memref rank",
    ),
    (
        "%r0 = memref.collapse_shape %r [[0, 1]] : memref<4x8xf32> into memref<31xf32>",
        "collapsed dim size (31) must equal reassociation group size (32)",
    ),
    (
        "%r0 = memref.collapse_shape %q [[0, 1]] : memref<?x8xf32> into memref<8xf32>",
        "collapsed dim (0) must be dynamic",
    ),
    (
        "%r0 = memref.collapse_shape %r [[0]] : memref<4x8xf32> into memref<4xf32>",
        "to be valid and contiguous",
    ),
    (
        "%r0 = memref.expand_shape %a [[0, 1]] output_shape [2, 3] : memref<4xf32> "
        "into memref<2x3xf32>",
        "collapsed dim size (4) must equal reassociation group size (6)",
    ),
    (
        "%r0 = memref.expand_shape %a [[0, 1]] output_shape [2, 3] : memref<4xf32> "
        "into memref<2x2xf32>",
        "invalid output shape provided at pos 1",
    ),
    (
        "%r0 = memref.expand_shape %q [[0, 1], [2]] output_shape [4, 4, 8] : "
        "memref<?x8xf32> into memref<?x4x8xf32>",
        "invalid output shape provided at pos 0",
    ),
    (
        "%r0 = memref.collapse_shape %r [] : memref<4x8xf32> into memref<f32>",
        "expected all unit dims when reshaping to rank 0",
    ),
]


@pytest.mark.parametrize(("line", "message"), INVALID)
def test_verifier_rejects_what_mlir_rejects(line: str, message: str):
    module = Parser(make_context(), in_func(line)).parse_module()
    with pytest.raises(VerifyException, match=re.escape(message)):
        module.verify()


INVALID_GLOBALS = [
    (
        '"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()',
        "type should be static shaped memref, but got 'memref<?xf32>'",
    ),
    (
        '"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = '
        "dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> ()",
        "initial value expected to be of type 'tensor<2xf32>', but was of type "
        "'tensor<3xf32>'",
    ),
    (
        "memref.global @g : memref<2xf32> = uninitialized {alignment = 3 : i64}",
        "alignment attribute value 3 is not a positive power of 2",
    ),
    (
        '"memref.global"() <{sym_name = "g", sym_visibility = "hidden", '
        "type = memref<2xf32>}> : () -> ()",
        "visibility expected to be one of",
    ),
]


@pytest.mark.parametrize(("text", "message"), INVALID_GLOBALS)
def test_global_verifier(text: str, message: str):
    module = Parser(make_context(), text).parse_module()
    with pytest.raises(VerifyException, match=re.escape(message)):
        module.verify()


def test_copy_between_static_and_dynamic_shapes_is_valid_unlike_xdsl():
    """mlir-opt writes such copies itself; xDSL's own CopyOp rejects them."""
    op = parse_line("memref.copy %a, %b : memref<4xf32> to memref<?xf32>")
    op.verify()
    plain = xmemref.CopyOp(op.operands[0], op.operands[1])
    with pytest.raises(VerifyException, match="same shape"):
        plain.verify()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('memref.global "hidden" @g : memref<2xf32>', "as visibility"),
        ("memref.global @g : memref<2xf32> = 3", "expected 'uninitialized'"),
        ("memref.global @g : memref<?xf32> = dense<1.0>", "static shaped memref"),
        ("memref.global @g : tensor<2xf32>", "static shaped memref"),
        (
            "memref.global @g : memref<2xf32> = uninitialized {sym_name = \"h\"}",
            "part of memref.global's syntax",
        ),
        (
            in_func("%r0 = memref.atomic_rmw plus %v, %a[%i] : (f32, memref<4xf32>) -> f32"),
            "expected an atomic_rmw kind",
        ),
        (
            in_func(
                "%r0 = memref.collapse_shape %r [[0 : i32, 1]] : memref<4x8xf32> "
                "into memref<32xf32>"
            ),
            "reassociation indices must be i64",
        ),
    ],
)
def test_parse_errors(text: str, message: str):
    with pytest.raises(ParseError, match=re.escape(message)):
        Parser(make_context(), text).parse_module()


# ---------------------------------------------------------------------------------
# Global initial values
# ---------------------------------------------------------------------------------


def test_global_hex_float_elements_are_bit_patterns():
    op = parse_line(
        'memref.global "private" constant @m : memref<4xf32> = '
        "dense<[0x7FC00000, 0x7F800000, 0xFF800000, 2.5]>"
    )
    assert isinstance(op, memref.GlobalOp)
    init = op.initial_value
    assert isinstance(init, DenseIntOrFPElementsAttr)
    nan, inf, ninf, plain = init.get_values()
    assert math.isnan(nan) and inf == math.inf and ninf == -math.inf and plain == 2.5


def test_global_hex_float_splat_and_f16():
    splat = parse_line("memref.global @s : memref<2x2xf32> = dense<0xFF800000>")
    half = parse_line("memref.global @h : memref<2xf16> = dense<[0x7C00, 2.0]>")
    assert isinstance(splat, memref.GlobalOp) and isinstance(half, memref.GlobalOp)
    assert isinstance(splat.initial_value, DenseIntOrFPElementsAttr)
    assert isinstance(half.initial_value, DenseIntOrFPElementsAttr)
    assert list(splat.initial_value.get_values()) == [-math.inf] * 4
    assert list(half.initial_value.get_values()) == [math.inf, 2.0]


def test_global_integer_hex_is_left_to_xdsl():
    op = parse_line("memref.global @i : memref<2xi32> = dense<[0x10, 3]>")
    assert isinstance(op, memref.GlobalOp)
    assert isinstance(op.initial_value, DenseIntOrFPElementsAttr)
    assert list(op.initial_value.get_values()) == [16, 3]


RESOURCE_GLOBAL = """memref.global "private" constant @w : memref<2xf32> = \
dense_resource<{handle}> {{alignment = 64 : i64}}

{{-#
  dialect_resources: {{
    builtin: {{
      {handle}: "0x040000000000803F00000040"
    }}
  }}
#-}}"""


def print_with_resources(module: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    printer = MlirBuiltinPrinter(stream=out, print_generic_format=generic)
    printer.print_op(module)
    printer.print_metadata([Builtin])
    return out.getvalue()


def test_global_dense_resource_round_trips_with_its_blob():
    # xDSL keeps resources in process-global storage and renames a handle that
    # is parsed twice, so each parse here uses a handle of its own.
    module = parse(RESOURCE_GLOBAL.format(handle="memplan_rt_blob"))
    text = print_with_resources(module)
    assert 'memref.global "private" constant @w : memref<2xf32> = ' in text
    assert "dense_resource<memplan_rt_blob> {alignment = 64 : i64}" in text
    assert 'memplan_rt_blob: "0x040000000000803F00000040"' in text

    generic = print_with_resources(
        parse(RESOURCE_GLOBAL.format(handle="memplan_gen_blob")), generic=True
    )
    assert "initial_value = dense_resource<memplan_gen_blob> : tensor<2xf32>" in generic
    again = first_memref_op(parse(generic))
    assert isinstance(again, memref.GlobalOp)
    assert show(again).startswith(
        'memref.global "private" constant @w : memref<2xf32> = '
        "dense_resource<memplan_gen_blob"
    )


def test_global_optional_parts_are_absent_properties():
    op = parse_line("memref.global @ext : memref<2xf32>")
    assert isinstance(op, memref.GlobalOp)
    assert op.sym_visibility is None and op.initial_value is None
    assert op.constant is None and op.alignment is None
    uninit = parse_line('memref.global "private" constant @u : memref<2xf32> = uninitialized')
    assert isinstance(uninit, memref.GlobalOp)
    assert uninit.initial_value == UnitAttr() and uninit.constant == UnitAttr()
    assert uninit.sym_visibility == StringAttr("private")


def test_global_builder():
    op = memref.GlobalOp.get(
        "w",
        MemRefType(f32, [2]),
        DenseIntOrFPElementsAttr.from_list(memref.GlobalOp.tensor_type(MemRefType(f32, [2])), [1.0, 2.0]),
        constant=True,
        alignment=64,
    )
    op.verify()
    assert show(op) == (
        'memref.global "private" constant @w : memref<2xf32> = '
        "dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}"
    )


# ---------------------------------------------------------------------------------
# MlirBuiltinPrinter: memref types and float literals as mlir-opt prints them
# ---------------------------------------------------------------------------------


def plain_show(op: Operation) -> str:
    out = StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def test_mlir_printer_elides_i64_of_integer_memory_spaces():
    op = parse_line("%r0 = memref.memory_space_cast %a : memref<4xf32> to memref<4xf32, 1>")
    assert plain_show(op).endswith("memref<4xf32, 1 : i64>")
    assert show(op).endswith("memref<4xf32, 1>")


@pytest.mark.parametrize(
    "type_text",
    [
        "memref<4xf32, 1 : i32>",
        'memref<4xf32, "x">',
        "memref<*xf32, 3>",
        "memref<4x?xf32, strided<[?, 1], offset: ?>, 7>",
        "memref<f32, 2>",
    ],
)
def test_mlir_printer_memref_types(type_text: str):
    module = parse(f"func.func @f(%x: {type_text}) {{\n  func.return\n}}")
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    assert f"%x: {type_text})" in show(func)


@pytest.mark.parametrize(
    ("literal", "type_text", "expected"),
    [
        ("0xFF800000", "f32", "0xFF800000"),
        ("0x7FC00000", "f32", "0x7FC00000"),
        ("0x7C00", "f16", "0x7C00"),
        ("3.140625", "bf16", "3.140630e+00"),
        ("-2.5", "f32", "-2.500000e+00"),
        ("0.1", "f64", "1.000000e-01"),
        ("0.0", "f32", "0.000000e+00"),
        ("-0.0", "f32", "-0.000000e+00"),
        ("65504.0", "f16", "6.550400e+04"),
        ("1.0000001", "f32", "1.00000012"),
        ("123456.5", "f32", "123456.5"),
    ],
)
def test_mlir_printer_floats(literal: str, type_text: str, expected: str):
    module = parse(
        f"func.func @f() -> {type_text} {{\n  %c = arith.constant {literal} : "
        f"{type_text}\n  func.return %c : {type_text}\n}}"
    )
    const = next(op for op in module.walk() if op.name == "arith.constant")
    assert show(const) == f"%c = arith.constant {expected} : {type_text}"


# ---------------------------------------------------------------------------------
# adopt_mlir_syntax: ops built from xDSL's classes
# ---------------------------------------------------------------------------------


def test_adopt_mlir_syntax_replaces_xdsl_instances_keeping_uses():
    src_type, dyn_type = MemRefType(f32, [4]), MemRefType(f32, [DYNAMIC_INDEX])
    block = Block(arg_types=[src_type, dyn_type])
    cast_op = xmemref.CastOp.get(block.args[0], dyn_type)
    cast_op.results[0].name_hint = "cast"
    copy_op = xmemref.CopyOp(block.args[0], cast_op.results[0])
    rank_op = xmemref.RankOp.from_memref(cast_op.results[0])
    block.add_ops([cast_op, copy_op, rank_op, ReturnOp()])
    func = FuncOp.from_region("f", [src_type, dyn_type], [], Region(block))
    module = ModuleOp([func])
    assert '"memref.cast"' in show(module)

    assert memref.adopt_mlir_syntax(module) == 3
    module.verify()
    text = show(module)
    assert "%cast = memref.cast %0 : memref<4xf32> to memref<?xf32>" in text
    assert "memref.copy %0, %cast : memref<4xf32> to memref<?xf32>" in text
    assert "memref.rank %cast : memref<?xf32>" in text
    new_cast = next(op for op in module.walk() if isinstance(op, xmemref.CastOp))
    assert type(new_cast) is memref.CastOp
    assert {type(use.operation) for use in new_cast.results[0].uses} == {
        memref.CopyOp,
        memref.RankOp,
    }
    assert memref.adopt_mlir_syntax(module) == 0


def test_atomic_rmw_kind_values_match_mlir_enum():
    """The `kind` property is MLIR's arith::AtomicRMWKind value (mlir-opt-22's
    generic form prints `kind = 2 : i64` for andi, 13 for muli)."""
    for keyword, value in (("addf", 0), ("andi", 2), ("assign", 3), ("muli", 13), ("xori", 15)):
        elem = "f32" if keyword in ("addf", "assign") else "i32"
        mem = "%a" if elem == "f32" else "%n"
        val = "%v" if elem == "f32" else "%w"
        op = parse_line(
            f"%r0 = memref.atomic_rmw {keyword} {val}, {mem}[%i] : "
            f"({elem}, memref<4x{elem}>) -> {elem}"
        )
        assert isinstance(op, memref.AtomicRMWOp)
        assert op.kind == IntegerAttr(value, i64)



# ---------------------------------------------------------------------------------
# reshape / transpose / realloc and layouts
# ---------------------------------------------------------------------------------


def test_reshape_and_transpose_are_views_and_realloc_a_fresh_buffer():
    from memplan.dialects.mlir.memref_ops import ReallocOp, ReshapeOp, TransposeOp
    from memplan.interfaces import MemoryEffectKind, memory_effects, view_source

    module = parse(
        "func.func @f(%m: memref<4x4xf32>, %s: memref<1xindex>, %v: memref<2xf32>) {\n"
        "  %r = memref.reshape %m(%s) : (memref<4x4xf32>, memref<1xindex>) -> memref<16xf32>\n"
        "  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x4xf32> to "
        "memref<4x4xf32, strided<[1, 4]>>\n"
        "  %n = memref.realloc %v : memref<2xf32> to memref<4xf32>\n"
        "  return\n}"
    )
    ops = {type(op): op for op in module.walk()}
    reshape, transpose, realloc = ops[ReshapeOp], ops[TransposeOp], ops[ReallocOp]
    m, s, v = reshape.operands[0], reshape.operands[1], realloc.operands[0]
    assert view_source(reshape) is m and view_source(transpose) is m
    assert view_source(realloc) is None
    assert {(e.kind, e.value) for e in memory_effects(reshape)} == {
        (MemoryEffectKind.READ, s)
    }
    assert memory_effects(transpose) == set()
    assert {(e.kind, e.value) for e in memory_effects(realloc)} == {
        (MemoryEffectKind.READ, v),
        (MemoryEffectKind.FREE, v),
        (MemoryEffectKind.ALLOC, realloc.results[0]),
    }


def test_semi_affine_layout_parses_prints_and_has_strides():
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    from memplan.analysis.memref_layout import affine_map_text, strides_and_offset

    module = parse(
        "func.func @f(%m: memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>>,"
        " %n: memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>,"
        " %o: memref<4xf32, affine_map<(d0)[s0] -> (d0 floordiv s0)>>) {\n"
        "  return\n}"
    )
    args = next(op for op in module.walk() if op.name == "func.func").regions[0].block.args
    layouts = [a.type.layout.data for a in args]
    assert affine_map_text(layouts[0]) == "(d0, d1)[s0] -> (d0 + d1 * s0)"
    assert strides_and_offset(args[0].type) == ([1, DYNAMIC_INDEX], 0)
    assert strides_and_offset(args[1].type) == ([4, 1], DYNAMIC_INDEX)
    assert affine_map_text(layouts[2]) == "(d0)[s0] -> (d0 floordiv s0)"
    assert strides_and_offset(args[2].type) is None


def test_transposed_type_permutes_sizes_and_strides():
    from xdsl.dialects.builtin import MemRefType, StridedLayoutAttr, f32
    from xdsl.ir.affine import AffineMap

    from memplan.dialects.mlir.memref_ops import transposed_type

    source = MemRefType(f32, [2, 3, 4])
    permuted = transposed_type(source, AffineMap.from_callable(lambda a, b, c: (c, a, b)))
    assert permuted == MemRefType(f32, [4, 2, 3], StridedLayoutAttr([1, 12, 4], 0))
