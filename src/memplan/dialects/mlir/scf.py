"""`scf.if` and `scf.index_switch` as MLIR reads and prints them.

xDSL's classes differ from MLIR in three places that IREE's IR hits:

- `scf.if %c -> i32 {` and `scf.for ... iter_args(..) -> i32 {`: MLIR reads result
  types without parentheses (`parseOptionalArrowTypeList`); xDSL requires
  `-> (i32)`. Both print `-> (i32)`.
- `scf.index_switch`'s default region may leave out a result-less `scf.yield`
  (the op has `SingleBlockImplicitTerminator`, which MLIR's declarative parser
  applies to `$defaultRegion` only), so `default {}` is a valid empty default;
  xDSL's parser keeps the region empty and its verifier rejects it. A case region
  is parsed as written (MLIR rejects one without its yield). MLIR prints the
  cases' terminators and the default's only when the op has results.
- `scf.if` verifies as MLIR's: results need an else region, and both regions
  yield the results' types (xDSL checks neither).
- `scf.execute_region` prints its `scf.yield` even without results (xDSL leaves it
  out, and MLIR rejects the block without its terminator).

Each subclass redeclares its definitions in xDSL's order (see
`memplan.dialects.mlir.memref` for why) under the same op name; `ScfMlirSyntax` is xDSL's
scf dialect with these classes in place of xDSL's.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    SignlessIntegerConstraint,
    TypeAttribute,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Region
from xdsl.irdl import (
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

__all__ = ["ExecuteRegionOp", "ForOp", "IfOp", "IndexSwitchOp", "ScfMlirSyntax"]


_INDEX = IndexType()


def _with_implicit_yield(region: Region) -> Region:
    """Give a region without a terminator the result-less `scf.yield` MLIR's parser
    adds (an empty region gets a block holding only that yield)."""
    block = region.blocks.last
    if block is None:
        block = Block()
        region.add_block(block)
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        # `create`: the same op as `YieldOp()`, without IRDL's argument building
        # (90 us, once per loop of a decoder).
        block.add_op(xscf.YieldOp.create())
    return region


def _parse_arrow_types(parser: Parser) -> list[Attribute]:
    """`-> type`, `-> type, type` or `-> (types)`; nothing without an arrow."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        parser.parse_punctuation(")")
        return types
    types = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    return types


@irdl_op_definition
class IfOp(xscf.IfOp):
    """`scf.if %c (-> types)? { ... } (else { ... })?`."""

    name = "scf.if"

    output = var_result_def()
    cond = operand_def(i1)
    true_region = region_def("single_block")
    false_region = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand(i1)
        return_types = _parse_arrow_types(parser)
        then_region = _with_implicit_yield(parser.parse_region())
        else_region = (
            _with_implicit_yield(parser.parse_region())
            if parser.parse_optional_keyword("else")
            else Region()
        )
        attr_dict = parser.parse_optional_attr_dict()
        return cls(cond, return_types, then_region, else_region, attr_dict)

    def verify_(self) -> None:
        """MLIR's checks that xDSL leaves out: results need an else region, and
        each region yields the results' types (messages as MLIR's)."""
        super().verify_()
        if self.output and not self.false_region.blocks:
            raise VerifyException("must have an else block if defining values")
        expected = [r.type for r in self.output]
        for region in (self.true_region, self.false_region):
            block = region.blocks.first
            terminator = None if block is None else block.last_op
            if terminator is None or not terminator.has_trait(IsTerminator):
                continue
            edge = f"along control flow edge from Operation {terminator.name} to parent: "
            given = [v.type for v in terminator.operands]
            if len(given) != len(expected):
                raise VerifyException(
                    f"{edge}region branch point has {len(given)} operands, but region "
                    f"successor needs {len(expected)} inputs"
                )
            for i, (got, want) in enumerate(zip(given, expected)):
                if got != want:
                    raise VerifyException(
                        f"{edge}successor operand type #{i} '{got}' should match "
                        f"successor input type #{i} '{want}'"
                    )


@irdl_op_definition
class IndexSwitchOp(xscf.IndexSwitchOp):
    """`scf.index_switch %i (-> types)? (case N {...})* default {...}`."""

    name = "scf.index_switch"

    arg = operand_def(IndexType)
    cases = prop_def(DenseArrayBase.constr(i64))
    output = var_result_def()
    default_region = region_def("single_block")
    case_regions = var_region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> IndexSwitchOp:
        arg = parser.parse_operand(IndexType())
        attr_dict = parser.parse_optional_attr_dict()
        result_types: list[TypeAttribute] = _parse_arrow_types(parser)  # type: ignore[assignment]
        case_values: list[int] = []
        case_regions: list[Region] = []
        while parser.parse_optional_keyword("case"):
            case_values.append(parser.parse_integer())
            case_regions.append(parser.parse_region())
        parser.parse_keyword("default")
        default_region = _with_implicit_yield(parser.parse_region())
        cases = DenseArrayBase.from_list(i64, case_values)
        return cls(arg, cases, default_region, case_regions, result_types, attr_dict)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.arg)
        attr_dict = {k: v for k, v in self.attributes.items() if k != "cases"}
        if attr_dict:
            printer.print_string(" ")
            printer.print_attr_dict(attr_dict)
        if self.result_types:
            printer.print_string(" -> ")
            printer.print_list(self.result_types, printer.print_attribute)
        for value, region in zip(self.cases.iter_values(), self.case_regions, strict=True):
            printer.print_string("\n")
            printer.print_string(f"case {value} ")
            printer.print_region(region, print_entry_block_args=False)
        printer.print_string("\n")
        printer.print_string("default ")
        printer.print_region(
            self.default_region,
            print_entry_block_args=False,
            print_block_terminators=bool(self.result_types),
        )


@irdl_op_definition
class ForOp(xscf.ForOp):
    """`scf.for %i = %lb to %ub step %s (iter_args(%a = %init) -> types)?
    (: type)? { ... }`: the result types may be written without parentheses."""

    name = "scf.for"

    T: ClassVar = VarConstraint("T", base(IndexType) | SignlessIntegerConstraint)
    lb = operand_def(T)
    ub = operand_def(T)
    step = operand_def(T)
    iter_args = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        induction = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        bounds = [parser.parse_unresolved_operand()]
        parser.parse_keyword("to")
        bounds.append(parser.parse_unresolved_operand())
        parser.parse_keyword("step")
        bounds.append(parser.parse_unresolved_operand())
        pos = parser.pos
        carried: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:

            def assignment() -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
                argument = parser.parse_argument(expect_type=False)
                parser.parse_punctuation("=")
                return argument, parser.parse_unresolved_operand()

            carried = parser.parse_comma_separated_list(parser.Delimiter.PAREN, assignment)
            types = _parse_arrow_types(parser)
        inits = parser.resolve_operands([c[1] for c in carried], types, pos)
        index_type = parser.parse_type() if parser.parse_optional_punctuation(":") else _INDEX
        lb, ub, step = (parser.resolve_operand(b, index_type) for b in bounds)
        arguments = [induction.resolve(index_type)] + [
            c[0].resolve(t) for c, t in zip(carried, types, strict=True)
        ]
        body = parser.parse_region(arguments)
        if not carried:
            _with_implicit_yield(body)
        # `cls(lb, ub, step, inits, body)` without IRDL's argument building (a
        # decoder reads a loop per layer).
        op = cls.create(operands=[lb, ub, step, *inits], result_types=[v.type for v in inits], regions=[body])
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class ExecuteRegionOp(xscf.ExecuteRegionOp):
    """`scf.execute_region` as MLIR prints it: with its block terminators always (the
    op has no implicit terminator, so MLIR rejects the body xDSL prints when the op
    has no results)."""

    name = "scf.execute_region"

    outs = var_result_def()
    region = region_def()

    def print(self, printer: Printer) -> None:
        if self.outs:
            printer.print_string(" -> (")
            printer.print_list(self.outs.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False, print_block_terminators=True)
        if self.attributes:
            printer.print_op_attributes(self.attributes)


_REPLACEMENTS = {
    xscf.IfOp: IfOp,
    xscf.IndexSwitchOp: IndexSwitchOp,
    xscf.ForOp: ForOp,
    xscf.ExecuteRegionOp: ExecuteRegionOp,
}

ScfMlirSyntax = Dialect(
    "scf",
    [_REPLACEMENTS.get(op, op) for op in xscf.Scf.operations],
    list(xscf.Scf.attributes),
)
"""xDSL's scf dialect with MLIR's `scf.if`, `scf.for`, `scf.index_switch` and
`scf.execute_region` syntax."""
