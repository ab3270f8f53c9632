"""The part of IREE's `flow` dialect that reaches memplan: `flow.dispatch`.

`flow.dispatch @ex::@entry[%workload](%args) : (types) -> results` runs an
executable entry point on tensors (IREE's `FLOW_PureOp`: Pure, so CSE may merge two
equal dispatches and an unused one is dead -- tensors have value semantics here).
Tensor operands and results with dynamic dimensions carry them as `type{%d0, %d1}`;
a result may be tied to an operand (`-> %arg0`, `-> %arg0 as type{%d}`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.iree.util import (
    parse_entry_points,
    parse_results,
    parse_workload,
    print_entry_points,
    print_workload,
    tied_indices,
    tied_operands_attr,
    verify_tied_operands,
)

__all__ = ["DispatchOp", "Flow"]


def _dynamic_dims(type: Attribute) -> int:
    if isinstance(type, TensorType):
        return sum(1 for d in type.get_shape() if d < 0)
    return 0


def _parse_dims(parser: Parser) -> list[UnresolvedOperand]:
    """`{%d0, %d1}` after a shaped type, or nothing."""
    if parser.parse_optional_punctuation("{") is None:
        return []
    dims = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(",") is not None:
        dims.append(parser.parse_unresolved_operand())
    parser.parse_punctuation("}")
    return dims


def _print_dims(printer: Printer, dims: Sequence[SSAValue]) -> None:
    if dims:
        printer.print_string("{")
        printer.print_list(dims, printer.print_operand)
        printer.print_string("}")


@irdl_op_definition
class DispatchOp(IRDLOperation):
    """`flow.dispatch @ex::@entry([%workload])?(%args) attr-dict : (types) ->
    results` -- an executable entry point applied to tensors. Pure."""

    name = "flow.dispatch"

    workload = var_operand_def(IndexType)
    arguments = var_operand_def()
    argument_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return tied_indices(self.tied_operands, len(self.results))

    def verify_(self) -> None:
        if not self.entry_points.data:
            raise VerifyException("at least one entry point must be defined")
        if sum(_dynamic_dims(t) for t in self.arguments.types) != len(self.argument_dims):
            raise VerifyException("argument dynamic dimensions do not match their types")
        if sum(_dynamic_dims(t) for t in self.results_.types) != len(self.result_dims):
            raise VerifyException("result dynamic dimensions do not match their types")
        verify_tied_operands(
            self, self.tied_operands, len(self.results), len(self.arguments)
        )

    @classmethod
    def parse(cls, parser: Parser) -> DispatchOp:
        entry_points = parse_entry_points(parser)
        index = IndexType()
        workload = parse_workload(parser)
        pos = parser.pos
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        argument_dims: list[UnresolvedOperand] = []

        def typed() -> Attribute:
            type = parser.parse_type()
            argument_dims.extend(_parse_dims(parser))
            return type

        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, typed)
        parser.parse_punctuation("->")
        result_types: list[Attribute] = []
        result_dims: list[UnresolvedOperand] = []
        ties: list[int | None] = []

        def result() -> None:
            tied = parser.parse_optional_unresolved_operand()
            tie = None
            if tied is not None:
                names = [(o.span.text, o.index) for o in operands]
                key = (tied.span.text, tied.index)
                if key not in names:
                    parser.raise_error(f"tied result {tied.span.text} does not name an operand")
                tie = names.index(key)
                type = parser.parse_type() if parser.parse_optional_keyword("as") else types[tie]
            else:
                type = parser.parse_type()
            result_dims.extend(_parse_dims(parser))
            result_types.append(type)
            ties.append(tie)

        parse_results(parser, lambda _: result())
        op = cls.build(
            operands=[
                workload,
                parser.resolve_operands(operands, types, pos),
                [parser.resolve_operand(d, index) for d in argument_dims],
                [parser.resolve_operand(d, index) for d in result_dims],
            ],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "tied_operands": tied_operands_attr(ties) if result_types else None,
            },
            result_types=[result_types],
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_entry_points(printer, self.entry_points.data)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        dims = list(self.argument_dims)

        def typed(type: Attribute) -> None:
            printer.print_attribute(type)
            count = _dynamic_dims(type)
            _print_dims(printer, dims[:count])
            del dims[:count]

        printer.print_list(self.arguments.types, typed)
        printer.print_string(") -> ")
        result_dims = list(self.result_dims)
        ties = self.tied_result_operands()

        def result(i: int) -> None:
            type = self.results[i].type
            tie = ties[i]
            if tie is not None:
                printer.print_operand(self.arguments[tie])
                if self.arguments[tie].type != type:
                    printer.print_string(" as ")
                    printer.print_attribute(type)
            else:
                printer.print_attribute(type)
            count = _dynamic_dims(type)
            _print_dims(printer, result_dims[:count])
            del result_dims[:count]

        count = len(self.results)
        if count != 1:
            printer.print_string("(")
        printer.print_list(range(count), result)
        if count != 1:
            printer.print_string(")")


Flow = Dialect("flow", [DispatchOp], [])
