"""What every part of the `hip` dialect shares: the context type, the ops that ask it
for memory (`hip.get_pool`, `hip.get_host_scratch`, which `ContextType.memory_request`
builds) and small helpers.

Split out of the package module (`hip/__init__.py`) so that the op families
(`kernels.py`, `control.py`) and the runtime ops can each import it without a cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    TensorType,
    i8,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.interfaces import (
    HOST_SCRATCH,
    POOL,
    ContextMemory,
    OperandEffects,
    RuntimeContext,
    all_results,
)

__all__ = [
    "TENSOR_OR_MEMREF",
    "ContextType",
    "GetHostScratchOp",
    "GetPoolOp",
    "op_prefix",
    "print_attr_dict",
]


@irdl_attr_definition
class ContextType(ParametrizedAttribute, TypeAttribute, RuntimeContext):
    """`!hip.context`: the runtime handle; it names the device stream that kernel ops
    are enqueued on and that the read-backs (and memplan's `memplan.synchronize`) wait
    for, and owns
    the host scratch and pools (a `RuntimeContext`)."""

    name = "hip.context"

    def memory_request(
        self, kind: str, context: SSAValue, size: SSAValue, key: object = None
    ) -> Operation:
        """`hip.get_pool(%ctx, %size)` (`key`: its `domain_id`) or
        `hip.get_host_scratch(%ctx, %size)`."""
        if kind == POOL:
            assert isinstance(key, int | None)
            return GetPoolOp(context, size, domain=key or None)
        if kind == HOST_SCRATCH and key is None:
            return GetHostScratchOp(context, size)
        return super().memory_request(kind, context, size, key)


TENSOR_OR_MEMREF = base(TensorType) | base(MemRefType)
"""hip-ep's `Hip_TensorOrMemRef`: a ranked tensor before bufferization, a memref
after it."""


def op_prefix(op: Operation) -> str:
    """MLIR's diagnostic prefix, so messages read like `mlir-opt`'s."""
    return f"'{op.name}' op"


def verify_context(op: Operation, value: SSAValue) -> None:
    if not isinstance(value.type, ContextType):
        raise VerifyException(
            f"{op_prefix(op)} operand #0 must be !hip.context, but got {value.type}"
        )


def print_attr_dict(
    printer: Printer,
    op: Operation,
    defaults: Mapping[str, Attribute] = {},
    elide: Sequence[str] = (),
) -> None:
    """MLIR's custom attr-dict: inherent (properties) and discardable attributes in
    one dictionary sorted by name, leaving out properties equal to their default
    and the names in `elide` (those the format prints elsewhere)."""
    merged: dict[str, Attribute] = {}
    for name, value in op.properties.items():
        if name in elide or name == "operandSegmentSizes" or defaults.get(name) == value:
            continue
        merged[name] = value
    merged.update(op.attributes)
    printer.print_op_attributes(dict(sorted(merged.items())))


# ------------------------------------------- parsing helpers, the context's memory


def _verify_index(op: Operation, value: SSAValue, what: str) -> None:
    if not isinstance(value.type, IndexType):
        raise VerifyException(f"{op_prefix(op)} {what} must be index, but got {value.type}")


def _parse_context_call(parser: Parser, count: int | None) -> list[UnresolvedOperand]:
    """Parse `(%ctx, %a, ...)`; `count` operands in total, or at least one if None."""
    pos = parser.pos
    operands = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )
    if count is not None and len(operands) != count:
        parser.raise_error(f"expected {count} operands, got {len(operands)}", pos, parser.pos)
    if not operands:
        parser.raise_error("expected the !hip.context operand", pos, parser.pos)
    return operands


def _print_context_call(
    printer: Printer, operands: Sequence[SSAValue], attributes: Mapping[str, Attribute], type: Attribute
) -> None:
    """Print `(%ctx, %a, ...) attr-dict : type`, the form `_parse_context_call` reads."""
    printer.print_string("(")
    printer.print_list(operands, printer.print_operand)
    printer.print_string(")")
    printer.print_op_attributes(attributes)
    printer.print_string(" : ")
    printer.print_attribute(type)


def _split_props(
    attrs: dict[str, Attribute], names: Sequence[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Move inherent attributes written in the attr-dict into properties."""
    props = {name: attrs.pop(name) for name in names if name in attrs}
    return props, attrs


def _verify_byte_buffer(op: Operation, t: Attribute) -> None:
    if (
        not isinstance(t, MemRefType)
        or t.get_num_dims() != 1
        or t.element_type != i8
        or not isinstance(t.layout, NoneAttr)
    ):
        raise VerifyException(
            f"{op_prefix(op)} result must be a 1-D memref of i8 with the identity "
            f"layout (memref<?xi8>), but got {t}"
        )


class _SizedBufferOp(IRDLOperation):
    """`hip.<op>(%ctx, %size) attr-dict : memref<?xi8>`: runtime memory of `%size`
    bytes, allocated by this op (so never merged with another one by CSE)."""

    ctx = operand_def()
    size = operand_def()
    result = result_def()

    traits = traits_def(OperandEffects(allocates=all_results))

    INHERENT: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        ctx: SSAValue | Operation,
        size: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=(ctx, size),
            result_types=(result_type or MemRefType(i8, [DYNAMIC_INDEX]),),
            attributes=dict(attributes or {}),
            properties=dict(properties or {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> _SizedBufferOp:
        ctx_name, size_name = _parse_context_call(parser, 2)
        props, attrs = _split_props(parser.parse_optional_attr_dict(), cls.INHERENT)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        ctx = parser.resolve_operand(ctx_name, ContextType())
        size = parser.resolve_operand(size_name, IndexType())
        return cls(ctx, size, result_type, attrs, props)

    def _printed_properties(self) -> dict[str, Attribute]:
        return dict(self.properties)

    def print(self, printer: Printer) -> None:
        _print_context_call(
            printer, (self.ctx, self.size), self._printed_properties() | dict(self.attributes),
            self.result.type,
        )

    def verify_(self) -> None:
        verify_context(self, self.ctx)
        _verify_index(self, self.size, "size operand")
        _verify_byte_buffer(self, self.result.type)


@irdl_op_definition
class GetPoolOp(_SizedBufferOp):
    """`%pool = hip.get_pool(%ctx, %size) {domain_id = N : i64} : memref<?xi8>`.

    The device memory pool of one planning domain (`pool-allocs` views every planned
    buffer into it). `domain_id` defaults to 0 (always set, as hip-ep's
    `DefaultValuedAttr`) and is then not printed in the custom form.
    """

    name = "hip.get_pool"

    domain_id = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(
        OperandEffects(allocates=all_results), ContextMemory(POOL, 0, lambda op: op.domain)
    )

    irdl_options = (ParsePropInAttrDict(),)

    INHERENT: ClassVar[tuple[str, ...]] = ("domain_id",)

    def __init__(
        self,
        ctx: SSAValue | Operation,
        size: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
        *,
        domain: int | None = None,
    ):
        properties = dict(properties or {})
        if domain is not None:
            properties["domain_id"] = IntegerAttr(domain, 64)
        properties.setdefault("domain_id", IntegerAttr(0, 64))
        super().__init__(ctx, size, result_type, attributes, properties)

    @classmethod
    def create(cls, *, properties: Mapping[str, Attribute] = {}, **kwargs):  # type: ignore[override]
        """`domain_id` is set from the start (0 unless given), as MLIR populates a
        default-valued property: the generic form always shows it."""
        return super().create(properties={"domain_id": IntegerAttr(0, 64), **properties}, **kwargs)

    @property
    def domain(self) -> int:
        """The pool domain; 0 when `domain_id` is absent."""
        return 0 if self.domain_id is None else self.domain_id.value.data

    def _printed_properties(self) -> dict[str, Attribute]:
        props = dict(self.properties)
        if self.domain == 0:
            props.pop("domain_id", None)
        return props

    def verify_(self) -> None:
        super().verify_()
        if self.domain < 0:
            raise VerifyException(
                f"{op_prefix(self)} domain_id must be non-negative, but got {self.domain}"
            )


@irdl_op_definition
class GetHostScratchOp(_SizedBufferOp):
    """`%s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>`.

    Runtime-owned host-mapped memory: the host writes it with plain stores and the
    device reads it directly (`materialize-host-scalars` moves host-fed scalars
    here).
    """

    name = "hip.get_host_scratch"

    traits = traits_def(OperandEffects(allocates=all_results), ContextMemory(HOST_SCRATCH, 0))
