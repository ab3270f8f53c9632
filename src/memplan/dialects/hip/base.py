"""What every part of the `hip` dialect shares: the context type and small helpers.

Split out of the package module (`hip/__init__.py`) so that the op families (`kernels.py`, `control.py`)
and the runtime ops can each import it without a cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import base, irdl_attr_definition
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.interfaces import HOST_SCRATCH, POOL, RuntimeContext

__all__ = [
    "TENSOR_OR_MEMREF",
    "ContextType",
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
        # The ops are defined in `hip.py`, which imports this module.
        from memplan.dialects.hip import GetHostScratchOp, GetPoolOp

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
