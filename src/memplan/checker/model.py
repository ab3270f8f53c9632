"""What the plan checker reads from one function: logical buffers, their byte ranges
in their roots, and every access with where and when it runs.

Nothing here asks for an op's class. Views answer through `ViewLike` (their source,
their byte range, whether they place a buffer of their own); effects, streams and
waits through `memory_effects`, `stream_of`, `synchronized_stream`; what an op's
outlined bodies may touch through `OutlinedBodies`; how an op runs its regions through
`HostInlineRegions`; memory the runtime keeps per context through
`ContextMemory`. Element sizes come from the data layout's one rule
(`memplan.analysis.data_layout.alloc_size`), the same the planners and the
interpreter use, so the checker tests a plan's bytes rather than repeating the
planner's arithmetic. See docs/design/verify-memory-plan.md.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from math import prod

from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator

from memplan.analysis.data_layout import alloc_size
from memplan.checker.expressions import Expr, linear, of_bytes
from memplan.diagnostics import Diagnostic, location_of
from memplan.interfaces import (
    ALL_STREAMS,
    MemoryEffectKind,
    ViewLike,
    captures_no_address,
    context_memory,
    get_interface,
    host_inline_regions,
    memory_effects,
    outlined_bodies,
    outlined_streams,
    stream_of,
    synchronized_stream,
)

__all__ = [
    "Access",
    "BlockInfo",
    "Buffer",
    "CallSummary",
    "Function",
    "Path",
    "Violation",
    "op_label",
    "value_name",
]

Path = tuple[tuple[Block, int], ...]
"""(block, index of the op or its ancestor in that block), outermost first."""


def op_label(op: Operation) -> str:
    """The op's name as written (an unregistered op's own name, not its class's)."""
    written = getattr(op, "op_name", None)
    return getattr(written, "data", None) or op.name


def value_name(value: SSAValue) -> str:
    if value.name_hint:
        return f"%{value.name_hint}"
    if isinstance(value, OpResult):
        return f"the result of '{op_label(value.op)}' at {location_of(value.op)}"
    return f"block argument #{value.index}"


def _type_range(t: MemRefType) -> tuple[Expr, Expr | None]:
    """The bytes a root of type `t` spans from its aligned pointer: [0, size) for a
    static strided type of known element size, else from 0 to an unknown end."""
    width = alloc_size(t.element_type)
    if width is None or not t.has_static_shape():
        return Expr(), None
    shape = t.get_shape()
    if isinstance(t.layout, NoneAttr):
        return Expr(), Expr(prod(shape) * width)
    if not isinstance(t.layout, StridedLayoutAttr):
        return Expr(), None
    offset = t.layout.get_offset()
    strides = t.layout.get_strides()
    if offset is None or any(s is None or s < 0 for s in strides):
        return Expr(), None
    if 0 in shape:
        return Expr(offset * width), Expr(offset * width)
    extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides))  # type: ignore[operator]
    return Expr(offset * width), Expr((offset + extent) * width)


def _hull(lo: Expr | None, hi: Expr | None, lo2: Expr | None,
          hi2: Expr | None) -> tuple[Expr | None, Expr | None]:
    """The smallest range known to hold both (None: not known, as in `Buffer`)."""
    if lo is None or lo2 is None:
        return None, None
    low = lo if (lo2 - lo).nonnegative() else lo2 if (lo - lo2).nonnegative() else None
    if low is None:
        return None, None
    if hi is None or hi2 is None:
        return low, None
    high = hi if (hi - hi2).nonnegative() else hi2 if (hi2 - hi).nonnegative() else None
    return low, high


@dataclass(eq=False)
class Buffer:
    """A logical buffer: a root, or a buffer a placing view put into a root."""

    head: SSAValue
    root: SSAValue
    lo: Expr | None
    hi: Expr | None
    """Byte range in the root; `lo` None: anywhere, `hi` None: up to the root's end."""
    def_path: Path
    escapes_at: Operation | None = None
    accesses: list[Access] = field(default_factory=list)
    group: object = None
    """What it shares bytes with: its root, or for memory the runtime keeps per
    context, that memory on that context (the same in every function)."""
    label: str | None = None
    """How to name it when no value does (a callee's use of context memory)."""
    limit: Expr | None = None
    """The bytes its root has, when known (a static type, the size context memory
    is asked for): no buffer placed in it may reach past them."""
    memory: str | None = None
    """For context memory, how messages name it: the op that takes it."""

    def name(self) -> str:
        return self.label or value_name(self.head)

    def where(self) -> str:
        """What its bytes are part of: its root, or context memory on a context."""
        if isinstance(self.group, tuple):
            (kind, _), context = self.group
            return f"the '{self.memory or kind}' of {value_name(context)}"
        return value_name(self.root)


@dataclass(eq=False)
class Access:
    op: Operation
    buffer: Buffer
    write: bool
    stream: SSAValue | None
    """The stream the access runs on; None on the host."""
    waits: object | None
    """What the op waits for before it accesses (`synchronized_stream`)."""
    path: Path
    order: int
    """Pre-order position in the function, to pick readable witnesses."""
    fresh: bool = False
    """A write of the whole buffer by an op that takes only buffers (a kernel's
    `outs`, a copy's target): what the buffer held before no longer matters."""

    def describe(self) -> str:
        kind = "write" if self.write else "read"
        where = "host" if self.stream is None else f"device, stream {value_name(self.stream)}"
        loc = location_of(self.op)
        return f"{kind} of {self.buffer.name()} ({where}) by '{op_label(self.op)}' at {loc}"


@dataclass(frozen=True)
class Violation:
    """Two accesses the plan lets race; `later` is where the error is reported."""

    later: Operation
    earlier: Operation
    message: str

    def diagnostics(self) -> list[Diagnostic]:
        return [
            Diagnostic("error", self.message, location_of(self.later)),
            Diagnostic("note", "the other access is here", location_of(self.earlier)),
        ]


@dataclass
class BlockInfo:
    """The ops of one block and its synchronization points, by op index."""

    ops: list[Operation] = field(default_factory=list)
    index: dict[Operation, int] = field(default_factory=dict)
    sync_at: list[float] = field(default_factory=list)
    sync_for: list[object] = field(default_factory=list)

    def any_sync(self, stream: SSAValue, lo: float, hi: float) -> bool:
        """An op strictly between indexes lo and hi waits for `stream`."""
        start = bisect.bisect_right(self.sync_at, lo)
        for position, target in zip(self.sync_at[start:], self.sync_for[start:]):
            if position >= hi:
                return False
            if target is ALL_STREAMS or target is stream:
                return True
        return False


@dataclass(frozen=True)
class _Value:
    """What the checker knows of a memref value."""

    buffer: Buffer
    base: Expr | None
    """Byte position of its aligned pointer in the root (None: not known)."""
    lo: Expr | None
    hi: Expr | None
    """The bytes it reaches in the root (as `Buffer`)."""


class Function:
    """Everything the checker knows about one function body.

    `calls` maps a call-like op (one that names a function whose body the module
    holds) to the context memory that function reaches (`CallSummary`, computed by
    the caller of this class)."""

    def __init__(self, function: Operation, region_blocks: list[Block],
                 calls: dict[Operation, list[CallSummary]] | None = None):
        self.function = function
        self.blocks: dict[Block, BlockInfo] = {}
        self.values: dict[SSAValue, _Value] = {}
        self.buffers: list[Buffer] = []
        self.order = 0
        self.calls = calls or {}
        top = region_blocks[0]
        self.args = list(top.args)
        for block in region_blocks:
            self._walk_block(block, (), None)
        self._returns(region_blocks)

    # -- derivation

    def _root(self, value: SSAValue, path: Path) -> None:
        if not isinstance(value.type, MemRefType):
            return
        lo, hi = _type_range(value.type)
        group: object = value
        limit = hi
        memory = None
        if isinstance(value, OpResult) and value.index == 0:
            model = context_memory(value.op)
            if model is not None:
                group = (model.identity(value.op), value.op.operands[model.context_index])
                memory = value.op.name
                if model.size_index is not None:
                    limit = linear(value.op.operands[model.size_index])
        buffer = Buffer(value, value, lo, hi, path, group=group, limit=limit, memory=memory)
        self.buffers.append(buffer)
        self.values[value] = _Value(buffer, Expr(), lo, hi)

    def _info(self, value: SSAValue, path: Path) -> _Value:
        if value not in self.values:
            self._root(value, path)
        return self.values[value]

    def _view(self, op: Operation, trait: ViewLike, path: Path) -> None:
        result = op.results[0]
        source = trait.view_source(op)
        if not isinstance(result.type, MemRefType) or not isinstance(source.type, MemRefType):
            for r in op.results:
                self._root(r, path)
            return
        known = self._info(source, path)
        answer = trait.byte_range(op)
        base = lo = hi = None
        if answer is not None and known.base is not None:
            shift, start, end = (of_bytes(answer.shift), of_bytes(answer.start),
                                 of_bytes(answer.end))
            base = None if shift is None else known.base + shift
            lo = None if start is None else known.base + start
            hi = None if end is None or lo is None else known.base + end
        buffer = known.buffer
        if trait.places and buffer.head is buffer.root and self._covers(source):
            # A buffer placed directly into a root (a pool, scratch, a reused slot);
            # placed into a part of one (a subview), it reshapes that part's contents.
            new = Buffer(result, buffer.root, lo, hi, path, group=buffer.group,
                         limit=buffer.limit, memory=buffer.memory)
            self.buffers.append(new)
            self.values[result] = _Value(new, base, lo, hi)
        else:
            # A view of a buffer's own contents (a part, a new shape, a re-layout);
            # a re-layout may reach past the bytes its source names, and the buffer
            # then spans those too.
            self.values[result] = _Value(buffer, base, lo, hi)
            buffer.lo, buffer.hi = _hull(buffer.lo, buffer.hi, lo, hi)
        for r in op.results[1:]:
            self._root(r, path)

    def _covers(self, value: SSAValue) -> bool:
        """Whether `value` reaches every byte of its logical buffer."""
        known = self.values[value]
        buffer = known.buffer
        if known.lo is None or buffer.lo is None:
            return value is buffer.head
        return known.lo == buffer.lo and known.hi == buffer.hi

    def _access(self, op: Operation, value: SSAValue, write: bool, path: Path,
                stream: SSAValue | None = None, waits: object = None,
                fresh: bool | None = None) -> None:
        if not isinstance(value.type, MemRefType):
            return
        buffer = self._info(value, path).buffer
        if fresh is None:
            stream = stream_of(op)
            waits = synchronized_stream(op)
            fresh = write and self._covers(value) and all(
                isinstance(o.type, MemRefType) or o is stream for o in op.operands)
        buffer.accesses.append(Access(op, buffer, write, stream, waits, path, self.order, fresh))

    def _escape(self, op: Operation, value: SSAValue, path: Path) -> None:
        if isinstance(value.type, MemRefType):
            buffer = self._info(value, path).buffer
            if buffer.escapes_at is None:
                buffer.escapes_at = op

    def _walk_block(self, block: Block, outer: Path, deferred: Operation | None) -> None:
        """Visit a block's ops; `deferred` is the outermost op around it that may run
        its regions later or elsewhere (their buffers escape there)."""
        info = self.blocks[block] = BlockInfo()
        for arg in block.args:
            self._root(arg, (*outer, (block, -1)))
        for i, op in enumerate(block.ops):
            info.ops.append(op)
            info.index[op] = i
            path = (*outer, (block, i))
            self.order += 1
            if deferred is None:
                # A wait once the op is done with its accesses lies between it and
                # the next op.
                for position, waits in ((i, synchronized_stream(op)),
                                        (i + 0.5, synchronized_stream(op, after_accesses=True))):
                    if waits is not None:
                        info.sync_at.append(position)
                        info.sync_for.append(waits)
            self._visit(op, path, deferred)
            inner = deferred
            if op.regions and inner is None and host_inline_regions(op) is None:
                inner = op
            for region in op.regions:
                for nested in region.blocks:
                    self._walk_block(nested, path, inner)

    def _visit(self, op: Operation, path: Path, deferred: Operation | None) -> None:
        trait = get_interface(op, ViewLike)
        if trait is not None and op.results:
            self._view(op, trait, path)
            return
        for result in op.results:
            self._root(result, path)
        buffers = [v for v in op.operands if isinstance(v.type, MemRefType)]
        if deferred is not None:
            for value in buffers:
                self._escape(deferred, value, path)
            return
        for summary in self.calls.get(op, ()):
            summary.apply(self, op, path)
        if not buffers:
            return
        # An unregistered op using a buffer is no return: its effects are unknown.
        if op.has_trait(IsTerminator, value_if_unregistered=False):
            parent = op.parent_op()
            if parent is not self.function:
                for value in buffers:
                    self._escape(op, value, path)
            return
        if op.regions:
            for value in buffers:
                self._escape(op, value, path)
            return
        if outlined_bodies(op):
            # The bodies may read and write every buffer handed to the op, on the host
            # while it runs and on each stream they are handed (as the ordering analysis).
            waits = synchronized_stream(op)
            for value in buffers:
                for write in (False, True):
                    for stream in (None, *outlined_streams(op)):
                        self._access(op, value, write, path, stream, waits, False)
            return
        effects = memory_effects(op)
        if effects is None:
            for value in buffers:
                self._escape(op, value, path)
            return
        for effect in effects:
            if effect.kind not in (MemoryEffectKind.READ, MemoryEffectKind.WRITE):
                continue
            write = effect.kind == MemoryEffectKind.WRITE
            targets = buffers if effect.value is None else [effect.value]
            for value in targets:
                self._access(op, value, write, path)
        # A buffer operand no effect names may have its address kept or stored as a
        # value (`memref.store %buf, %box[..]`), unless the op reads only metadata.
        if any(e.value is None for e in effects) or captures_no_address(op):
            return
        tied = {e.value for e in effects}
        for value in buffers:
            if value not in tied:
                self._escape(op, value, path)

    def _returns(self, blocks: list[Block]) -> None:
        """At each exit of the function (a terminator with no successors; an
        unregistered last op of the only block may be one) the caller reads what is
        returned and every memref argument, after the runtime synchronized."""
        for block in blocks:
            last = block.last_op
            if last is None or last.successors:
                continue
            registered = last.has_trait(IsTerminator, value_if_unregistered=False)
            if not registered and not (
                len(blocks) == 1 and last.has_trait(IsTerminator, value_if_unregistered=True)
            ):
                continue
            path = ((block, self.blocks[block].index[last]),)
            outputs = [v for v in last.operands if registered and isinstance(v.type, MemRefType)]
            arguments = [a for a in self.args
                         if isinstance(a.type, MemRefType) and a in self.values]
            for value in (*outputs, *arguments):
                self._access(last, value, False, path, None, ALL_STREAMS, False)


@dataclass(frozen=True)
class CallSummary:
    """What a called function does to one kind of context memory, seen at the call:
    host and device reads and writes of bytes `[lo, hi)` (None: unknown) of that
    memory on the context the call passes (`context`)."""

    identity: object
    context: SSAValue
    lo: Expr | None
    hi: Expr | None
    host_reads: bool
    host_writes: bool
    device_reads: bool
    device_writes: bool
    label: str
    memory: str | None
    """How messages name the memory (`Buffer.memory`)."""

    def apply(self, fn: Function, op: Operation, path: Path) -> None:
        """The callee's accesses as accesses at the call, by a buffer of its own in
        the caller's group for that memory (two calls are two buffers)."""
        group = (self.identity, self.context)
        buffer = Buffer(self.context, self.context, self.lo, self.hi, path, group=group,
                        label=self.label, memory=self.memory)
        fn.buffers.append(buffer)
        for write, host, device in ((False, self.host_reads, self.device_reads),
                                    (True, self.host_writes, self.device_writes)):
            if host:
                buffer.accesses.append(Access(op, buffer, write, None, None, path, fn.order))
            if device:
                buffer.accesses.append(
                    Access(op, buffer, write, self.context, None, path, fn.order))

