"""xDSL's `affine` dialect with `affine.apply` printed as mlir-opt prints it.

xDSL writes `affine.apply #map (%c0)`; MLIR writes `affine.apply #map(%c0)[%s]`
(no space before the operand list). The subclass keeps xDSL's class under the same
name, so `isinstance` checks and xDSL's patterns keep working; like the memref
subclasses (`memplan.dialects.memref`), it redeclares its fields and verifier.
"""

from __future__ import annotations

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, prop_def, result_def, traits_def, var_operand_def
from xdsl.printer import Printer
from xdsl.traits import Pure

__all__ = ["AffineMlirSyntax", "ApplyOp"]


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


AffineMlirSyntax = Dialect(
    "affine",
    [ApplyOp if op is xaffine.ApplyOp else op for op in xaffine.Affine.operations],
    list(xaffine.Affine.attributes),
)
"""xDSL's affine dialect with `affine.apply` in MLIR's syntax."""
