"""The `stream` dialect: the ops and attributes of `stream.py`, `stream_cmd.py`,
`stream_executable.py` and `stream_runtime.py`. The last three import `stream.py`'s
types, so the dialect is assembled here, above all four."""

from __future__ import annotations

from xdsl.ir import Dialect

from memplan.dialects.iree.stream import (
    AsyncAllocaOp,
    AsyncCastOp,
    AsyncCloneOp,
    AsyncConcurrentOp,
    AsyncConstantOp,
    AsyncCopyOp,
    AsyncDispatchOp,
    AsyncExecuteOp,
    AsyncFillOp,
    AsyncLoadOp,
    AsyncSliceOp,
    AsyncSplatOp,
    AsyncStoreOp,
    AsyncTransferOp,
    AsyncUpdateOp,
    NamedParameterAttr,
    ResourceAllocOp,
    ResourceAllocaOp,
    ResourceDeallocaOp,
    ResourceLoadOp,
    ResourcePackOp,
    ResourceSizeOp,
    ResourceStoreOp,
    ResourceSubviewOp,
    ResourceTransientsOp,
    ResourceTryMapOp,
    ResourceType,
    TensorCloneOp,
    TensorConstantOp,
    TensorEmptyOp,
    TensorEncodeOp,
    TensorExportOp,
    TensorFillOp,
    TensorImportOp,
    TensorLoadOp,
    TensorSizeOfOp,
    TensorSliceOp,
    TensorSplatOp,
    TensorStoreOp,
    TensorUpdateOp,
    TimepointAttr,
    TimepointAwaitOp,
    TimepointBarrierOp,
    TimepointChainExternalOp,
    TimepointExportOp,
    TimepointImmediateOp,
    TimepointImportOp,
    TimepointJoinOp,
    TimepointType,
    YieldOp,
)
from memplan.dialects.iree.stream_cmd import CMD_OPS
from memplan.dialects.iree.stream_executable import EXECUTABLE_OPS, EXECUTABLE_TYPES
from memplan.dialects.iree.stream_runtime import STREAM_RUNTIME_ATTRIBUTES, STREAM_RUNTIME_OPS
from memplan.interfaces import FreshResults, attach_trait

__all__ = ["Stream"]

Stream = Dialect(
    "stream",
    [
        TensorConstantOp,
        ResourceSizeOp,
        AsyncTransferOp,
        TensorSizeOfOp,
        TensorEncodeOp,
        AsyncAllocaOp,
        AsyncCloneOp,
        AsyncDispatchOp,
        ResourceAllocOp,
        ResourceAllocaOp,
        ResourceDeallocaOp,
        TimepointImmediateOp,
        TimepointJoinOp,
        TimepointAwaitOp,
        AsyncConstantOp,
        AsyncSplatOp,
        AsyncSliceOp,
        AsyncFillOp,
        AsyncUpdateOp,
        AsyncCopyOp,
        AsyncCastOp,
        AsyncLoadOp,
        AsyncStoreOp,
        AsyncExecuteOp,
        AsyncConcurrentOp,
        YieldOp,
        TensorImportOp,
        TensorExportOp,
        TensorEmptyOp,
        TensorSplatOp,
        TensorCloneOp,
        TensorSliceOp,
        TensorFillOp,
        TensorUpdateOp,
        TensorLoadOp,
        TensorStoreOp,
        ResourceLoadOp,
        ResourceStoreOp,
        ResourceSubviewOp,
        ResourceTransientsOp,
        ResourceTryMapOp,
        ResourcePackOp,
        TimepointImportOp,
        TimepointExportOp,
        TimepointChainExternalOp,
        TimepointBarrierOp,
        *CMD_OPS,
        *EXECUTABLE_OPS,
        *STREAM_RUNTIME_OPS,
    ],
    [ResourceType, TimepointType, NamedParameterAttr, TimepointAttr, *EXECUTABLE_TYPES,
     *STREAM_RUNTIME_ATTRIBUTES],
)
for op_type in Stream.operations:
    # IREE's Stream async phase: an untied result of an async or tensor op
    # without regions is a new resource, never an operand's storage.
    if op_type.name.startswith(("stream.async.", "stream.tensor.")) and not (
        op_type.get_irdl_definition().regions
    ):
        attach_trait(op_type, FreshResults())
