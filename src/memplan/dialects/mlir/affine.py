"""xDSL's `affine` dialect with `affine.apply` and `affine.parallel` in mlir-opt's
syntax.

xDSL writes `affine.apply #map (%c0)`; MLIR writes `affine.apply #map(%c0)[%s]`
(no space before the operand list). xDSL has no custom form for `affine.parallel`;
MLIR's is read and written for bounds that are constants or values, with an
optional `step` (`affine.parallel (%i, %j) = (0, %lo) to (64, %n) step (1, 2)
{...}`, the empty `affine.yield` elided); other forms (bound expressions, `max`,
reductions) stay generic. The subclass keeps xDSL's class under the same
name, so `isinstance` checks and xDSL's patterns keep working; like the memref
subclasses (`memplan.dialects.mlir.memref`), it redeclares its fields and verifier.
"""

from __future__ import annotations

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Block, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect

__all__ = ["AffineMlirSyntax", "ApplyOp", "ParallelOp"]


@irdl_op_definition
class ApplyOp(xaffine.ApplyOp):
    """`affine.apply #map(%d0)[%s0]`."""

    name = "affine.apply"

    mapOperands = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        xaffine.ApplyOp.verify_(self)

    def print(self, printer: Printer) -> None:
        amap = self.map.data
        operands = tuple(self.mapOperands)
        printer.print_string(" ")
        printer.print_attribute(self.map)
        printer.print_string("(")
        printer.print_list(operands[: amap.num_dims], printer.print_operand)
        printer.print_string(")")
        if amap.num_symbols:
            printer.print_string("[")
            printer.print_list(operands[amap.num_dims :], printer.print_operand)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)


def _parse_bounds(parser: Parser) -> tuple[list[AffineExpr], list[SSAValue]]:
    """`(0, %n)`: one bound per loop, each a constant or a value (a map dim)."""
    operands: list[SSAValue] = []

    def bound() -> AffineExpr:
        if (value := parser.parse_optional_integer(allow_boolean=False)) is not None:
            return AffineConstantExpr(value)
        operands.append(parser.parse_operand(IndexType()))
        return AffineDimExpr(len(operands) - 1)

    exprs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, bound)
    return exprs, operands


def _groups(count: int) -> DenseIntElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i32, [count]), [1] * count)


@irdl_op_definition
class ParallelOp(xaffine.ParallelOp):
    """`affine.parallel (%i) = (0) to (%n) step (2) { ... }`."""

    name = "affine.parallel"

    map_operands = var_operand_def(IndexType)
    reductions = prop_def(ArrayAttr[StringAttr])
    lowerBoundsMap = prop_def(AffineMapAttr)
    lowerBoundsGroups = prop_def(DenseIntElementsAttr)
    upperBoundsMap = prop_def(AffineMapAttr)
    upperBoundsGroups = prop_def(DenseIntElementsAttr)
    steps = prop_def(ArrayAttr[IntegerAttr[IntegerType]])
    res = var_result_def()
    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        xaffine.ParallelOp.verify_(self)

    def _simple(self) -> bool:
        """Whether the custom form holds the op: one bound per loop, each a
        constant or a dim, no symbols, no reductions or results."""
        if self.reductions.data or self.res:
            return False
        for amap, groups in (
            (self.lowerBoundsMap.data, self.lowerBoundsGroups),
            (self.upperBoundsMap.data, self.upperBoundsGroups),
        ):
            if amap.num_symbols or any(g != 1 for g in groups.get_values()):
                return False
            if not all(isinstance(e, AffineConstantExpr | AffineDimExpr) for e in amap.results):
                return False
        return True

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lower, lower_operands = _parse_bounds(parser)
        parser.parse_keyword("to")
        upper, upper_operands = _parse_bounds(parser)
        steps = [1] * len(ivs)
        if parser.parse_optional_keyword("step") is not None:
            steps = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN,
                lambda: parser.parse_integer(allow_boolean=False, allow_negative=False),
            )
        args = [iv.resolve(IndexType()) for iv in ivs]
        region = parser.parse_region(args)
        block = region.blocks.first
        assert block is not None
        if block.last_op is None or not isinstance(block.last_op, xaffine.YieldOp):
            block.add_op(xaffine.YieldOp.get())
        attributes = parser.parse_optional_attr_dict()
        op = cls.create(
            operands=[*lower_operands, *upper_operands],
            properties={
                "reductions": ArrayAttr([]),
                "lowerBoundsMap": AffineMapAttr(AffineMap(len(lower_operands), 0, tuple(lower))),
                "lowerBoundsGroups": _groups(len(lower)),
                "upperBoundsMap": AffineMapAttr(AffineMap(len(upper_operands), 0, tuple(upper))),
                "upperBoundsGroups": _groups(len(upper)),
                "steps": ArrayAttr([IntegerAttr(s, i64) for s in steps]),
            },
            attributes=attributes,
            regions=[region],
        )
        return op

    def print(self, printer: Printer) -> None:
        if not self._simple():
            printer.print_op_with_default_format(self)
            return
        block = self.body.block
        lower, upper = self.lowerBoundsMap.data, self.upperBoundsMap.data
        operands = list(self.map_operands)
        lower_operands, upper_operands = operands[: lower.num_dims], operands[lower.num_dims :]

        def bounds(amap: AffineMap, values: list[SSAValue]) -> None:
            printer.print_string("(")
            for i, expr in enumerate(amap.results):
                if i:
                    printer.print_string(", ")
                if isinstance(expr, AffineConstantExpr):
                    printer.print_string(str(expr.value))
                else:
                    printer.print_operand(values[expr.position])
            printer.print_string(")")

        printer.print_string(" (")
        printer.print_list(block.args, printer.print_operand)
        printer.print_string(") = ")
        bounds(lower, lower_operands)
        printer.print_string(" to ")
        bounds(upper, upper_operands)
        steps = [s.value.data for s in self.steps]
        if any(s != 1 for s in steps):
            printer.print_string(" step (" + ", ".join(map(str, steps)) + ")")
        printer.print_string(" ")
        terminator = block.last_op
        elide = isinstance(terminator, xaffine.YieldOp) and not terminator.operands
        printer.print_region(self.body, print_entry_block_args=False,
                             print_block_terminators=not elide)
        printer.print_op_attributes(self.attributes)


AffineMlirSyntax = Dialect(
    "affine",
    [
        ApplyOp if op is xaffine.ApplyOp else ParallelOp if op is xaffine.ParallelOp else op
        for op in xaffine.Affine.operations
    ],
    list(xaffine.Affine.attributes),
)
"""xDSL's affine dialect with `affine.apply` in MLIR's syntax."""
