"""The part of IREE's `hal` dialect that stream IR refers to: device affinities.

`#hal.device.affinity<@device>` names the device (a global holding a `!hal.device`)
a stream op runs on or a resource lives on; `<@device, [0, 1]>` also restricts it to
some of the device's queues. IREE stores the queue set as a 64-bit mask where -1
means "any queue" (printed without the list); the list prints the set bits in
increasing order, as IREE 3.13 does (`[2, 0]` reads back as `[0, 2]`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import IntAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from memplan.interfaces import OperandEffects, all_results
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "ANY_QUEUE",
    "AllocatorType",
    "BufferType",
    "BufferViewType",
    "DeviceAffinityAttr",
    "DeviceType",
    "FenceCreateOp",
    "FenceType",
    "Hal",
    "SemaphoreType",
]

ANY_QUEUE = -1
"""The queue mask of an affinity that allows every queue of the device."""

_MASK_BITS = 64


def _mask_from_queues(queues: Iterable[int]) -> int:
    mask = 0
    for queue in queues:
        mask |= 1 << queue
    # Stored as a signed 64-bit value, like IREE's int64_t queue_mask.
    return mask - (1 << _MASK_BITS) if mask >= 1 << (_MASK_BITS - 1) else mask


@irdl_attr_definition
class DeviceAffinityAttr(ParametrizedAttribute):
    """`#hal.device.affinity<@device(, [queues])?>`: where a stream op executes."""

    name = "hal.device.affinity"

    device: SymbolRefAttr
    queue_mask: IntAttr

    def __init__(
        self,
        device: str | StringAttr | SymbolRefAttr,
        queues: Sequence[int] | None = None,
    ):
        if not isinstance(device, SymbolRefAttr):
            device = SymbolRefAttr(device)
        mask = ANY_QUEUE if queues is None else _mask_from_queues(queues)
        super().__init__(device, IntAttr(mask))

    @property
    def queues(self) -> tuple[int, ...] | None:
        """The allowed queue ordinals, or None when any queue may be used."""
        mask = self.queue_mask.data
        if mask == ANY_QUEUE:
            return None
        mask &= (1 << _MASK_BITS) - 1
        return tuple(bit for bit in range(_MASK_BITS) if mask >> bit & 1)

    def verify(self) -> None:
        if self.device.nested_references.data:
            raise VerifyException(
                "#hal.device.affinity takes a flat symbol reference to a device, "
                f"got {self.device}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[SymbolRefAttr, IntAttr]:
        with parser.in_angle_brackets():
            device = parser.parse_attribute()
            if not isinstance(device, SymbolRefAttr):
                parser.raise_error(
                    "expected a device symbol reference in #hal.device.affinity"
                )
            mask = ANY_QUEUE
            if parser.parse_optional_punctuation(",") is not None:
                queues = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_integer
                )
                for queue in queues:
                    if not 0 <= queue < _MASK_BITS:
                        parser.raise_error(
                            f"queue ordinal {queue} out of range [0, {_MASK_BITS})"
                        )
                mask = _mask_from_queues(queues)
        return device, IntAttr(mask)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.device)
            queues = self.queues
            if queues is not None:
                printer.print_string(", [")
                printer.print_string(", ".join(str(q) for q in queues))
                printer.print_string("]")


def _opaque_type(type_name: str, doc: str) -> type[ParametrizedAttribute]:
    """A parameterless `!hal.<name>` reference type (a runtime object handle)."""
    cls = type(
        type_name.title().replace("_", "") + "Type",
        (ParametrizedAttribute, TypeAttribute),
        {"name": f"hal.{type_name}", "__doc__": doc, "__module__": __name__},
    )
    return irdl_attr_definition(cls)


AllocatorType = _opaque_type("allocator", "`!hal.allocator`: a device's allocator.")
BufferType = _opaque_type("buffer", "`!hal.buffer`: a device buffer.")
BufferViewType = _opaque_type(
    "buffer_view", "`!hal.buffer_view`: a buffer with shape and element type."
)
ChannelType = _opaque_type("channel", "`!hal.channel`: a collective channel.")
CommandBufferType = _opaque_type("command_buffer", "`!hal.command_buffer`.")
DeviceType = _opaque_type("device", "`!hal.device`: a device (globals hold them).")
ExecutableType = _opaque_type("executable", "`!hal.executable`: loaded code.")
FenceType = _opaque_type("fence", "`!hal.fence`: a set of semaphore timepoints.")
FileType = _opaque_type("file", "`!hal.file`: a file handle.")
SemaphoreType = _opaque_type("semaphore", "`!hal.semaphore`: a device timeline.")


@irdl_op_definition
class FenceCreateOp(IRDLOperation):
    """`hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence` -- a
    fresh fence; ALLOCates its result (unused ones are dead)."""

    name = "hal.fence.create"

    device = operand_def(DeviceType)
    flags = prop_def(Attribute)
    result = result_def(FenceType)

    traits = traits_def(OperandEffects(allocates=all_results))

    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `flags` `(` $flags `)` "
        "`:` type($result) attr-dict-with-keyword"
    )


Hal = Dialect(
    "hal",
    [FenceCreateOp],
    [
        DeviceAffinityAttr,
        AllocatorType,
        BufferType,
        BufferViewType,
        ChannelType,
        CommandBufferType,
        DeviceType,
        ExecutableType,
        FenceType,
        FileType,
        SemaphoreType,
    ],
)
