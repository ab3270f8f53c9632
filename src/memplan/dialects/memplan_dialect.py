"""The `memplan` dialect: memplan's own runtime ops, beside hip-ep's `hip` ones.

The `hip` namespace is hip-ep's alone (what its `hip-mlir-opt` accepts, rejects and
prints), so the two ops memplan adds to hip IR live here:

- `memplan.synchronize(%ctx)`: the host waits until `%ctx`'s stream is empty
  (hip-ep waits only inside its read-backs and loops);
- `memplan.launch @kernel(%ctx) ins(..) outs(..)`: a kernel no dialect lists, with
  the hip kernels' execution model and effects (`hip_kernels.KernelOp`).

Passes learn both only through their traits (`StreamSynchronization`,
`StreamExecution`, `OperandEffects`), as they learn hip-ep's ops. See
docs/design/dialect-memplan.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.hip.base import ContextType, op_prefix, verify_context
from memplan.dialects.hip.kernels import (
    KernelOp,
    KernelSpec,
    Operand,
    parse_typed_operands,
    print_typed_operands,
    verify_data_operands,
    verify_destination_style,
    verify_dps_modes,
)
from memplan.interfaces import OperandEffects, StreamSynchronization, operands_named

__all__ = ["LaunchOp", "Memplan", "SynchronizeOp"]


def _parse_context(parser: Parser) -> SSAValue:
    """`(%ctx)`."""
    parser.parse_punctuation("(")
    ctx = parser.resolve_operand(parser.parse_unresolved_operand(), ContextType())
    parser.parse_punctuation(")")
    return ctx


@irdl_op_definition
class SynchronizeOp(IRDLOperation):
    """`memplan.synchronize(%ctx) attr-dict`: the host waits until `%ctx`'s stream is
    empty.

    After it, every device access enqueued before it has completed, so later host
    accesses are ordered after them (DESIGN.md section 2, rule 4). It declares a write
    to the context so that no cleanup pass deletes, merges or moves it.
    """

    name = "memplan.synchronize"

    ctx = operand_def()

    traits = traits_def(
        StreamSynchronization(0),
        OperandEffects(writes=operands_named("ctx")),
    )

    def __init__(self, ctx: SSAValue | Operation, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=(ctx,), attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> SynchronizeOp:
        ctx = _parse_context(parser)
        return cls(ctx, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.ctx)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        verify_context(self, self.ctx)


_LAUNCH = KernelSpec(
    "launch",
    (Operand("inputs", "variadic", "ins"), Operand("outputs", "variadic", "outs")),
    arrow=True,
)


@irdl_op_definition
class LaunchOp(KernelOp):
    """`memplan.launch @kernel(%ctx) ins(..) outs(..) {attrs} (-> T)?`: a kernel no
    dialect lists, with the hip kernels' execution model and effects (`KernelOp`).
    `ins(..)` may be left out when empty."""

    name = "memplan.launch"
    SPEC: ClassVar[KernelSpec] = _LAUNCH

    ctx_operand = operand_def()
    inputs = var_operand_def()
    outputs = var_operand_def()
    kernel = prop_def(SymbolRefAttr)
    result_tensors = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kernel: str | SymbolRefAttr,
        ctx: SSAValue | Operation,
        ins: Sequence[SSAValue | Operation] = (),
        outs: Sequence[SSAValue | Operation] = (),
        attributes: Mapping[str, Attribute] | None = None,
        result_types: Sequence[Attribute] = (),
    ):
        if isinstance(kernel, str):
            kernel = SymbolRefAttr(kernel)
        IRDLOperation.__init__(
            self,
            operands=(ctx, ins, outs),
            result_types=(result_types,),
            properties={"kernel": kernel},
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        root = parser.parse_optional_symbol_name()
        if root is None:
            parser.raise_error("expected a kernel symbol such as @name")
        nested: list[StringAttr] = []
        while parser.parse_optional_punctuation(":") is not None:
            parser.parse_punctuation(":", " in a nested symbol reference")
            nested.append(parser.parse_symbol_name())
        kernel = SymbolRefAttr(root, ArrayAttr(nested))
        ctx = _parse_context(parser)
        ins: list[SSAValue] = []
        if parser.parse_optional_keyword("ins") is not None:
            ins = parse_typed_operands(parser, "ins")
        parser.parse_keyword("outs")
        outs = parse_typed_operands(parser, "outs")
        attrs = parser.parse_optional_attr_dict()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls(kernel, ctx, ins, outs, attrs, result_types)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        printer.print_string("(")
        printer.print_operand(self.ctx)
        printer.print_string(")")
        if self.ins:
            print_typed_operands(printer, "ins", self.ins)
        print_typed_operands(printer, "outs", self.outs)
        printer.print_op_attributes(self.attributes)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results], printer.print_attribute)

    def verify_(self) -> None:
        if not self.outs:
            raise VerifyException(f"{op_prefix(self)} expects at least 1 outs operand, but got 0")
        verify_data_operands(self)
        verify_destination_style(self, self.numbered_outs())
        verify_dps_modes(self, (*self.ins, *self.outs), len(self.outs))


Memplan = Dialect("memplan", [LaunchOp, SynchronizeOp], [])
