"""The constant of MLIR's `index` dialect, which xDSL 0.75 does not have.

`%idx1 = index.constant 1` is an `index` constant (Pure, ConstantLike), as
`arith.constant 1 : index`; upstream's memref tests and index-dialect IR use it.
Registered for memplan-opt only (`MLIR_SYNTAX_OVERRIDES`), so that a later xDSL
with its own `index` dialect does not clash in the xDSL universe.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure

from memplan.printing.naming import AsmResultNames

__all__ = ["ConstantOp", "IndexMlir"]


class _ValueName(AsmResultNames):
    """MLIR's name for the result: `%idx1`, `%idx-2`."""

    def result_names(self, op):
        assert isinstance(op, ConstantOp)
        return (f"idx{op.value.value.data}",)


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`index.constant 42`."""

    name = "index.constant"

    value = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure(), ConstantLike(), _ValueName())

    def __init__(self, value: int):
        super().__init__(
            properties={"value": IntegerAttr(value, IndexType())},
            result_types=[IndexType()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        value = parser.parse_integer(allow_boolean=False)
        op = cls(value)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.value.data}")
        printer.print_op_attributes(self.attributes)


IndexMlir = Dialect("index", [ConstantOp])
"""`index.constant`, the one op of MLIR's index dialect memplan reads."""
