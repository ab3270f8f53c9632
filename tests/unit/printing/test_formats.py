"""Declarative formats compiled per op class print exactly what xDSL's
interpreter of the format prints."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import DynamicIndexList
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    OperandVariable,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from memplan.context import make_context
from memplan.printing import MlirPrinter, print_mlir, structure
from memplan.printing.formats import CompiledFormat, compile_program, compiled_print, format_program
from memplan.tools.source import parse_module


@irdl_custom_directive
class Angled(CustomDirective):
    """Prints `<<%v>>` and leaves the state as punctuation that wants no space."""

    value: OperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        raise NotImplementedError

    def print(self, printer: Printer, state: PrintingState, op: Operation) -> None:
        state.print_whitespace(printer)
        printer.print_string("<<")
        printer.print_ssa_value(self.value.get(op))
        printer.print_string(">>")
        state.last_was_punctuation = True
        state.should_emit_space = False


@irdl_op_definition
class TwoOperandsOp(IRDLOperation):
    name = "fmt.two"
    a = operand_def()
    b = operand_def()
    assembly_format = "$a `,` $b attr-dict `:` type($a) `,` type($b)"


@irdl_op_definition
class OptionalOperandOp(IRDLOperation):
    name = "fmt.optional"
    x = opt_operand_def()
    r = result_def()
    assembly_format = "(`(` $x^ `:` type($x) `)`)? attr-dict `->` type($r)"


@irdl_op_definition
class ElseGroupOp(IRDLOperation):
    name = "fmt.else"
    flag = opt_prop_def(UnitAttr)
    count = prop_def(IntegerAttr[i64], default_value=IntegerAttr(0, i64))
    assembly_format = "(`on` $flag^) : (`off`)? `[` $count `]` attr-dict"


@irdl_op_definition
class VariadicOp(IRDLOperation):
    name = "fmt.variadic"
    xs = var_operand_def()
    ys = var_operand_def(IndexType)
    rs = var_result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`(` $xs `)` `[` $ys `]` `` `{` `}` attr-dict `:` functional-type($xs, $rs)"
    )


@irdl_op_definition
class RegionOp(IRDLOperation):
    name = "fmt.region"
    sym_name = prop_def(SymbolNameConstraint())
    body = region_def()
    other = opt_region_def()
    assembly_format = "$sym_name attr-dict-with-keyword $body (`else` $other^)?"


@irdl_op_definition
class SpacingOp(IRDLOperation):
    name = "fmt.spacing"
    a = operand_def()
    b = operand_def()
    dims = prop_def(DenseArrayBase)
    assembly_format = (
        "`<` $a `>` ` ` `(` `)` `->` custom<Angled>($b) `,` $dims `keyword` `?` "
        "type(operands) attr-dict"
    )
    custom_directives = (Angled,)


@irdl_op_definition
class IndexListOp(IRDLOperation):
    name = "fmt.index_list"
    dyn = var_operand_def(IndexType)
    static = prop_def(DenseArrayBase)
    assembly_format = "`at` custom<DynamicIndexList>($dyn, $static) attr-dict"
    custom_directives = (DynamicIndexList,)


def _values(*types):
    return Block(arg_types=list(types)).args


def _ops() -> list[Operation]:
    a, b, c = _values(i32, IndexType(), i64)
    unit = {"flag": UnitAttr()}
    body = Region(Block())
    return [
        TwoOperandsOp.create(operands=[a, b]),
        TwoOperandsOp.create(operands=[a, b], attributes={"note": StringAttr("x")}),
        OptionalOperandOp.create(operands=[c], result_types=[i32]),
        OptionalOperandOp.create(operands=[], result_types=[i32], attributes={"k": UnitAttr()}),
        ElseGroupOp.create(properties=unit | {"count": IntegerAttr(0, i64)}),
        ElseGroupOp.create(properties={"count": IntegerAttr(3, i64)}),
        ElseGroupOp.create(properties={"count": IntegerAttr(3, i64)}, attributes={"z": i32}),
        VariadicOp.create(
            operands=[a, b, c],
            result_types=[i32, i64],
            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [2, 1])},
        ),
        VariadicOp.create(
            operands=[],
            result_types=[i32],
            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 0])},
        ),
        RegionOp.create(properties={"sym_name": StringAttr("f")}, regions=[body, Region()]),
        RegionOp.create(
            properties={"sym_name": StringAttr("g")},
            attributes={"a": UnitAttr()},
            regions=[Region(Block()), Region(Block())],
        ),
        SpacingOp.create(operands=[a, b], properties={"dims": DenseArrayBase.from_list(i64, [1, 2])}),
        *(
            IndexListOp.create(operands=dynamic, properties={"static": DenseArrayBase.from_list(i64, static)})
            for dynamic, static in (
                ([], [0, 4]),
                ([b], [DYNAMIC_INDEX, 1]),
                ([b, b], [DYNAMIC_INDEX, 2, DYNAMIC_INDEX]),
                ([], []),
            )
        ),
    ]


def _printed(print_op, op: Operation, printer_type: type[Printer] = Printer) -> str:
    stream = io.StringIO()
    printer = printer_type(stream=stream)
    print_op(op, printer)
    return stream.getvalue()


@pytest.mark.parametrize("printer_type", [Printer, MlirPrinter], ids=["xdsl", "memplan"])
@pytest.mark.parametrize("op", _ops(), ids=lambda op: op.name)
def test_compiled_format_prints_as_xdsl(op: Operation, printer_type: type[Printer]):
    """Piece by piece through xDSL's printer, as one string through memplan's."""
    program = format_program(type(op))
    assert program is not None
    expected = _printed(lambda op, printer: program.print(printer, op), op, printer_type)
    assert _printed(compile_program(program), op, printer_type) == expected
    assert _printed(compiled_print(type(op)), op, printer_type) == expected
    if printer_type is MlirPrinter and isinstance(compiled_print(type(op)), CompiledFormat):
        text = compiled_print(type(op)).text
        assert (text is None) == any(op.regions)


def test_ops_with_their_own_print_keep_it():
    @irdl_op_definition
    class HandWritten(IRDLOperation):
        name = "fmt.hand"

        def print(self, printer: Printer) -> None:
            printer.print_string(" hand")

    assert format_program(HandWritten) is None
    assert compiled_print(HandWritten) is HandWritten.print


def _decoder_ops() -> list[Operation]:
    sys.path.insert(0, str(Path(__file__).parents[3] / "bench"))
    try:
        import pipeline_speed
    finally:
        sys.path.pop(0)
    text = pipeline_speed.decoder_module(300).text
    return list(parse_module(make_context(), text, "d.mlir").walk())


def test_a_decoder_prints_as_with_xdsls_formats(monkeypatch):
    """The whole module through memplan's printer: compiled formats (one string
    per op) or xDSL's interpreter of them, the same text."""
    module = _decoder_ops()[0]
    compiled = print_mlir(module)
    monkeypatch.setattr(structure, "compiled_print", lambda op_type: op_type.print)
    assert print_mlir(module) == compiled
    assert print_mlir(module, generic=True) != compiled


def test_every_format_of_a_decoder_prints_as_xdsl():
    """memref, arith, scf, stream, util and hip ops as a decoder spells them (the
    same values printed through one printer each, so their names agree)."""
    seen: set[type[Operation]] = set()
    ours, theirs = io.StringIO(), io.StringIO()
    our_printer, their_printer = Printer(stream=ours), Printer(stream=theirs)
    for op in _decoder_ops():
        program = format_program(type(op))
        if program is None:
            continue
        seen.add(type(op))
        compiled_print(type(op))(op, our_printer)
        program.print(their_printer, op)
        our_printer.print_string("\n")
        their_printer.print_string("\n")
    assert len(seen) >= 8
    assert ours.getvalue() == theirs.getvalue()
