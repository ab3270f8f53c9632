"""The `hip` dialect: GPU-runtime ops with ROCm hip-ep's surface syntax.

memplan reads and writes hip-ep's textual IR so that its dumps can be fed to the
memory passes unchanged. The ops matter to those passes for *when* and *what* they
touch, not for what they compute, so each op declares memplan's interfaces
(`memplan.interfaces`) instead of being special-cased by name:

- kernel ops (`hip.matmul(%ctx) ins(..) outs(..)`, hip-ep's 76 DPS kernels from one
  table in `kernels.py`) are enqueued on the context's in-order stream
  (`StreamExecution(0)`), read their memref inputs and write their memref `outs`;
- hip-ep's `hip.readback_scalar` / `hip.readback_dim` make the host wait for that
  stream (`StreamSynchronization(0)`);
- `hip.alloc_output` writes (the runtime's output allocator) and is no allocation;
- `hip.loop` / `hip.if` run outlined functions (`OutlinedBodies`), and the graph,
  constant and yield ops are in `control.py`;
- `hip.get_pool`, `hip.get_host_scratch`, `hip.alloc` allocate their result and
  `hip.free` frees its buffer, each effect tied to its value so that CSE never merges
  two allocations and DCE may drop an unused one.

The namespace is hip-ep's alone: memplan's own ops (`memplan.synchronize`,
`memplan.launch`) are in `memplan_dialect.py`. See docs/design/dialect-hip.md for the
syntax and the execution model behind it.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloatConstr,
    DYNAMIC_INDEX,
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.traits import MemoryWriteEffect
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.hip.base import (
    TENSOR_OR_MEMREF,
    ContextType,
    GetHostScratchOp,
    GetPoolOp,
    _parse_context_call,
    _print_context_call,
    _verify_index,
    op_prefix,
    verify_context,
)
from memplan.dialects.hip.control import (
    ConstantOp,
    GetConstantOp,
    HipblasltGraphOp,
    HipDNNGraphOutlineOp,
    IfOp,
    LoopOp,
    MiopenGraphOp,
    YieldOp,
)
from memplan.dialects.hip.kernels import (  # noqa: F401  (re-exported)
    KERNEL_OPS,
    KERNELS,
    KernelOp,
    KernelSpec,
    kernel_op,
)
from memplan.interfaces import (
    OperandEffects,
    SignatureVerifier,
    StreamSynchronization,
    all_results,
    buffer_operands_named,
    operands_named,
)

__all__ = [
    "KERNELS",
    "KERNEL_OPS",
    "AllocOp",
    "AllocOutputOp",
    "ContextType",
    "FreeOp",
    "GetHostScratchOp",
    "GetPoolOp",
    "Hip",
    "KernelOp",
    "KernelSpec",
    "ReadbackDimOp",
    "ReadbackScalarOp",
    "kernel_op",
]


# ------------------------------------------------------------------- allocation


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`%x = hip.alloc(%ctx, %d0, ...) attr-dict : memref<?x128xf32>`.

    A device buffer from the runtime, one index operand per dynamic dimension.
    """

    name = "hip.alloc"

    ctx = operand_def()
    dynamic_sizes = var_operand_def()
    result = result_def()

    traits = traits_def(OperandEffects(allocates=all_results))

    def __init__(
        self,
        ctx: SSAValue | Operation,
        result_type: Attribute,
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=(ctx, dynamic_sizes),
            result_types=(result_type,),
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AllocOp:
        ctx_name, *size_names = _parse_context_call(parser, None)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        ctx = parser.resolve_operand(ctx_name, ContextType())
        sizes = [parser.resolve_operand(n, IndexType()) for n in size_names]
        return cls(ctx, result_type, sizes, attrs)

    def print(self, printer: Printer) -> None:
        _print_context_call(printer, (self.ctx, *self.dynamic_sizes), self.attributes, self.result.type)

    def verify_(self) -> None:
        verify_context(self, self.ctx)
        t = self.result.type
        if not isinstance(t, MemRefType):
            raise VerifyException(f"{op_prefix(self)} result must be a ranked memref, but got {t}")
        if not isinstance(t.layout, NoneAttr | StridedLayoutAttr):
            raise VerifyException(
                f"{op_prefix(self)} result must have the identity or a strided layout, "
                f"but got {t}"
            )
        dynamic = sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)
        if dynamic != len(self.dynamic_sizes):
            raise VerifyException(
                f"{op_prefix(self)} has {len(self.dynamic_sizes)} dynamic size operands "
                f"but its result type {t} has {dynamic} dynamic dimensions"
            )
        for i, size in enumerate(self.dynamic_sizes):
            _verify_index(self, size, f"dynamic size operand #{i}")


@irdl_op_definition
class FreeOp(IRDLOperation):
    """`hip.free(%ctx, %x) attr-dict : memref<..>`: returns a `hip.alloc` buffer to the
    runtime. A host op: it waits for nothing, so it implies no device ordering."""

    name = "hip.free"

    ctx = operand_def()
    memref = operand_def()

    traits = traits_def(OperandEffects(frees=operands_named("memref")))

    def __init__(
        self,
        ctx: SSAValue | Operation,
        memref: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(operands=(ctx, memref), attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> FreeOp:
        ctx_name, buffer_name = _parse_context_call(parser, 2)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        buffer_type = parser.parse_type()
        ctx = parser.resolve_operand(ctx_name, ContextType())
        buffer = parser.resolve_operand(buffer_name, buffer_type)
        return cls(ctx, buffer, attrs)

    def print(self, printer: Printer) -> None:
        _print_context_call(printer, (self.ctx, self.memref), self.attributes, self.memref.type)

    def verify_(self) -> None:
        verify_context(self, self.ctx)
        if not isinstance(self.memref.type, MemRefType):
            raise VerifyException(
                f"{op_prefix(self)} operand #1 must be a ranked memref, "
                f"but got {self.memref.type}"
            )


# ------------------------------------------------- graph outputs and read-backs


def _verify_dynamic_sizes(op: Operation, t: MemRefType, sizes: Sequence[SSAValue]) -> None:
    """hip-ep's rule for `hip.alloc_output`: one size operand per `?` of the result."""
    dynamic = sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)
    if dynamic != len(sizes):
        raise VerifyException(
            f"{op_prefix(op)} expected {dynamic} dynamic size operand(s), got {len(sizes)}"
        )


@irdl_op_definition
class AllocOutputOp(IRDLOperation):
    """`%out = hip.alloc_output(%ctx, %d0, ...) {out_idx = N : i64} : memref<..>`.

    The buffer of graph output `out_idx`, from the runtime's output allocator. It is
    deliberately NOT an allocation: the runtime owns it (it leaves the graph), so no
    planner may pool it, give its bytes away or free it, and it has no
    `PlannableAllocation` model. Like hip-ep, it declares a WRITE not tied to a
    value (it changes the allocator's state): no cleanup pass deletes or merges it.
    """

    name = "hip.alloc_output"

    ctx = operand_def(ContextType)
    dynamic_sizes = var_operand_def(IndexType)
    out_idx = prop_def(IntegerAttr[I64])
    memref = result_def(MemRefType)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "`(` $ctx (`,` $dynamic_sizes^)? `)` attr-dict `:` type($memref)"

    def __init__(
        self,
        ctx: SSAValue | Operation,
        result_type: MemRefType,
        out_idx: int,
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(
            operands=(ctx, dynamic_sizes),
            result_types=(result_type,),
            properties={"out_idx": IntegerAttr(out_idx, 64)},
        )

    def verify_(self) -> None:
        assert isinstance(self.memref.type, MemRefType)
        _verify_dynamic_sizes(self, self.memref.type, self.dynamic_sizes)


class _ReadbackOp(IRDLOperation):
    """`%v = hip.<readback>(%ctx, %scalar : memref<..>) attr-dict -> T`.

    The host first waits for `%ctx`'s stream (`StreamSynchronization(0)`), so the
    kernel that wrote `%scalar` has completed, then copies the value back. These are
    hip-ep's synchronizing points: after one, every device access enqueued before it
    has completed, exactly as after memplan's `memplan.synchronize`. The read is a host
    access, tied to `%scalar` in memref form; in tensor form (before bufferization)
    no memory is touched yet.
    """

    ctx = operand_def(ContextType)
    scalar = operand_def(TENSOR_OR_MEMREF)

    traits = traits_def(
        StreamSynchronization(0),
        OperandEffects(reads=buffer_operands_named("scalar")),
        SignatureVerifier(),  # the result type's check
    )
    assembly_format = (
        "`(` $ctx `,` $scalar `:` type($scalar) `)` attr-dict `->` type($result)"
    )

    RESULT: ClassVar[str]
    """What the result must be, for the verifier's message."""

    def __init__(self, ctx: SSAValue | Operation, scalar: SSAValue | Operation,
                 result_type: Attribute):
        super().__init__(operands=(ctx, scalar), result_types=(result_type,))

    @staticmethod
    @abc.abstractmethod
    def _accepts(t: Attribute) -> bool:
        """Whether `t` is a result type this read-back may produce."""

    def verify_(self) -> None:
        t = self.results[0].type
        if not self._accepts(t):
            raise VerifyException(f"{op_prefix(self)} result #0 must be {self.RESULT}, but got '{t}'")


@irdl_op_definition
class ReadbackScalarOp(_ReadbackOp):
    """`%v = hip.readback_scalar(%ctx, %buf : memref<i64>) -> i64`: a device scalar
    of any integer, float or index type back to the host, same type; see
    `_ReadbackOp`."""

    name = "hip.readback_scalar"

    result = result_def()  # checked in `verify_`, with MLIR's message

    RESULT: ClassVar[str] = "integer or floating-point or index"

    @staticmethod
    def _accepts(t: Attribute) -> bool:
        return isinstance(t, IntegerType | IndexType) or AnyFloatConstr.verifies(t)


@irdl_op_definition
class ReadbackDimOp(_ReadbackOp):
    """`%n = hip.readback_dim(%ctx, %count : memref<i32>) -> index`: a device extent
    back to the host as an index; see `_ReadbackOp`."""

    name = "hip.readback_dim"

    result = result_def()  # checked in `verify_`, with MLIR's message

    RESULT: ClassVar[str] = "index"

    @staticmethod
    def _accepts(t: Attribute) -> bool:
        return isinstance(t, IndexType)


Hip = Dialect(
    "hip",
    [
        *KERNEL_OPS.values(),
        LoopOp,
        IfOp,
        YieldOp,
        MiopenGraphOp,
        HipblasltGraphOp,
        HipDNNGraphOutlineOp,
        ConstantOp,
        GetConstantOp,
        GetPoolOp,
        GetHostScratchOp,
        AllocOp,
        FreeOp,
        AllocOutputOp,
        ReadbackScalarOp,
        ReadbackDimOp,
    ],
    [ContextType],
)
