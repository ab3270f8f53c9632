"""`optimize-memrefs`: slot reuse between buffers whose accesses never overlap in time.

hip-ep's `hip-optimize-memrefs`, made safe across the host/device boundary. In each
single-block function it walks the plannable allocations
(`memplan.interfaces.PlannableAllocation`) in program order and lets each take the
*slot* (the bytes of an earlier allocation) of least byte waste that is free for
it: same element type and memory space, at least as many bytes; a smaller static
buffer becomes a `memref.reinterpret_cast` of the slot, a dynamic one needs the same
type and SSA-identical size operands. A slot shared by several buffers is one timing
(`Timing.union`), so each candidate slot costs one `BlockOrdering.precedes` query;
only slots dead by the buffer's first access are candidates (`_Bucket`), so buffers
that are live together cost nothing to pass over.

"Free" is decided by `memplan.analysis.ordering` (DESIGN.md section 2): every
access of the slot's buffers must happen before every access of the new one, so a
host store may not take the bytes a kernel enqueued earlier still reads unless an op
that waits for that stream lies between. With `host-ordering=false` it is hip-ep's
old interval rule (the slot's last use precedes the new allocation in program
order), which is UNSAFE when the host writes a buffer a kernel may still read: it is
kept only to reproduce that race in tests.

A buffer that escapes never takes or gives a slot, nor does one that is never read
or written (it is dead); one the function returns may take a slot (which then
leaves with it) but never gives its own. When a buffer takes a slot, one set of
frees is kept to free the slot's root: the new buffer's when they come after the
slot's last use in program order, else the slot's own when they come after the new
buffer's last use; the other set is erased, and a slot with neither is not taken.
Docs: docs/design/optimize-memrefs.md.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.analysis.aliasing import static_bytes
from memplan.analysis.ordering import (
    NEVER,
    BlockOrdering,
    BufferInfo,
    Timing,
    plannable_roots,
)
from memplan.interfaces import plannable_allocation
from memplan.passes.base import MemplanPass
from memplan.passes.common import RemarksUnderDebug, describe_buffer, function_bodies

__all__ = ["OptimizeMemrefs"]


@dataclass(eq=False)
class _Slot:
    """The bytes of one allocation and the buffers that have occupied them."""

    root: SSAValue
    bytes: int
    order: int
    alignment: int
    timing: Timing
    last: int
    """`timing.last`: what orders it among busy slots under the ordering rules."""
    last_use: int
    frees: tuple[tuple[Operation, int], ...]
    """The frees of the occupant whose frees free the root; the others are erased."""
    busy_key: int = -1
    """Its key in `_Bucket.busy` while it is there; -1 once it is in `free`."""


class _Bucket:
    """The slots one kind of buffer may take, split by a monotone threshold.

    The walk visits allocations in program order, so "the slot was last used before
    this allocation" stays true for every later one: such slots are *free* for good
    (`free`, sorted by (bytes, order) for best fit by bisection). The others are
    *busy* (`busy`, sorted by (key, order)): `key` is the slot's last access under
    the ordering rules, or its last use in program order under the interval rule.
    A buffer bisects `free` to the first slot large enough and tests slots in order
    of waste; under the ordering rules it also tests the busy slots whose last access
    comes before its own first access (allocated early, accessed late), a prefix of
    `busy`. No other busy slot is looked at, so many live buffers cost nothing.
    """

    def __init__(self) -> None:
        self.free: list[tuple[int, int, _Slot]] = []
        self.busy: list[tuple[int, int, _Slot]] = []

    def release(self, threshold: int) -> None:
        """Move the busy slots whose key is below `threshold` into `free`."""
        end = bisect.bisect_left(self.busy, (threshold, -1), key=_head)
        for _, _, slot in self.busy[:end]:
            slot.busy_key = -1
            bisect.insort(self.free, (slot.bytes, slot.order, slot), key=_head)
        del self.busy[:end]

    def add_busy(self, slot: _Slot, key: int) -> None:
        slot.busy_key = key
        bisect.insort(self.busy, (key, slot.order, slot), key=_head)

    def remove(self, slot: _Slot) -> None:
        if slot.busy_key < 0:
            entries, head = self.free, (slot.bytes, slot.order)
        else:
            entries, head = self.busy, (slot.busy_key, slot.order)
        j = bisect.bisect_left(entries, head, key=_head)
        assert entries[j][2] is slot
        del entries[j]


def _head(entry: tuple[int, int, _Slot]) -> tuple[int, int]:
    return entry[0], entry[1]


def _identity_strides(shape: tuple[int, ...]) -> list[int]:
    strides, stride = [], 1
    for size in reversed(shape):
        strides.append(stride)
        stride *= size
    return strides[::-1]


def _kept_frees(ordering: BlockOrdering, slot: _Slot, info: BufferInfo) -> bool | None:
    """Which frees may free the slot once `info`'s buffer joins it: True for the new
    buffer's, when they all come after the slot's last use in program order; False
    for the slot's own, when they all come after the new buffer's last use; True
    again when the new buffer has none (the slot is then never freed, which is safe);
    None when neither is safe, and the slot may not be taken."""

    def after(frees: tuple[tuple[Operation, int], ...], position: int) -> bool:
        for free, _ in frees:
            index = ordering.index(free)
            if index is None or index <= position:
                return False
        return True

    if info.frees and after(info.frees, slot.last_use):
        return True
    if after(slot.frees, info.last_use):
        return False
    if not info.frees:
        return True
    return None


@dataclass(frozen=True)
class OptimizeMemrefs(RemarksUnderDebug, MemplanPass):
    """Reuse the slot of a dead buffer, where the execution model allows it."""

    name = "optimize-memrefs"

    host_ordering: bool = True
    """Decide with the host/device ordering rules. false: hip-ep's old interval-only
    rule, which races when the host writes a buffer a kernel still reads (tests)."""

    debug: bool = False
    """Remark why a function or buffer was left alone."""

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        changed = False
        for function, region in function_bodies(module):
            if len(region.blocks) != 1:
                self._remark(
                    function,
                    f"function left unchanged: its body has {len(region.blocks)} "
                    "blocks; slot reuse plans one block",
                )
                continue
            changed |= self._plan(region.blocks[0])
        return changed

    def _plan(self, block: Block) -> bool:
        ordering = BlockOrdering(block)
        roots = [r for r in plannable_roots(block) if r.uses]
        infos = {r: ordering.info(r) for r in roots}  # before the block changes
        buckets: dict[object, _Bucket] = {}
        changed = False
        for order, root in enumerate(roots):
            op = root.owner
            assert isinstance(op, Operation)
            info = infos[root]
            key, size = self._bucket(op, root)
            if key is None:
                continue
            if info.escape is not None:
                self._remark(op, f"buffer left alone: {info.escape}")
                continue
            if info.timing.first == NEVER:
                # Dead: its bytes are never read or written. Taking a slot would only
                # move its free onto bytes that are still in use.
                self._remark(op, "buffer left alone: it is never read or written")
                continue
            alignment = plannable_allocation(op).alignment(op) or 0
            bucket = buckets.setdefault(key, _Bucket())
            # A slot last used before this allocation is so for every later one.
            bucket.release(2 * info.defined_at if self.host_ordering else info.defined_at)
            found = self._find(ordering, bucket, size, alignment, info, op)
            if found is not None:
                slot, keep_new_frees = found
                bucket.remove(slot)
                self._move_into(slot, op, root, info, keep_new_frees)
                if info.returned_by is None:
                    bucket.add_busy(slot, self._busy_key(slot))
                changed = True
            elif info.returned_by is None:
                new = _Slot(root, size, order, alignment, info.timing, info.timing.last,
                            info.last_use, info.frees)
                bucket.add_busy(new, self._busy_key(new))
        return changed

    def _busy_key(self, slot: _Slot) -> int:
        """What orders a busy slot: its last access (keys, as `Timing`) under the
        ordering rules, its last use (op index) under the interval rule; either is
        above the threshold of the allocation that just took or gave it."""
        return slot.last if self.host_ordering else slot.last_use

    def _bucket(self, op: Operation, root: SSAValue) -> tuple[object, int]:
        """Which slots `root` may take, and its byte size; (None, 0) when it is not
        a buffer this pass places."""
        t = root.type
        if not isinstance(t, MemRefType) or not isinstance(t.layout, NoneAttr):
            self._remark(op, f"buffer left alone: {t} does not have the identity layout")
            return None, 0
        if t.has_static_shape():
            size = static_bytes(t)
            if size is None:
                self._remark(op, f"buffer left alone: the size of {t.element_type} is unknown")
                return None, 0
            return ("static", t.element_type, t.memory_space), size
        sizes = tuple(plannable_allocation(op).dynamic_sizes(op))
        return ("dynamic", t, sizes), 0

    def _find(
        self,
        ordering: BlockOrdering,
        bucket: _Bucket,
        size: int,
        alignment: int,
        info: BufferInfo,
        op: Operation,
    ) -> tuple[_Slot, bool] | None:
        """The slot of least waste (ties: the oldest) whose buffers are all done
        before `info`'s, and whether the new buffer's frees (rather than the slot's)
        free it then."""
        blocked: _Slot | None = None
        best: tuple[_Slot, bool] | None = None
        start = bisect.bisect_left(bucket.free, (size, -1), key=_head)
        for j in range(start, len(bucket.free)):
            slot = bucket.free[j][2]
            if slot.alignment < alignment:
                continue
            # Free slots were last accessed before this allocation, so before any
            # access of `info`; under the ordering rules a device access may still
            # be pending, though.
            if self.host_ordering and not ordering.precedes(slot.timing, info.timing):
                # Worth a remark when the interval rule would have taken it.
                if blocked is None and slot.last_use < info.defined_at:
                    blocked = slot
                continue
            if (keep := _kept_frees(ordering, slot, info)) is not None:
                best = slot, keep
                break
        if self.host_ordering:
            # Busy slots last accessed before `info`'s first access.
            first = info.timing.first
            end = bisect.bisect_left(bucket.busy, (first, -1), key=_head)
            for j in range(end):
                slot = bucket.busy[j][2]
                if (
                    slot.bytes < size
                    or slot.alignment < alignment
                    or (best is not None and (slot.bytes, slot.order) > (best[0].bytes, best[0].order))
                    or not ordering.precedes(slot.timing, info.timing)
                ):
                    continue
                if (keep := _kept_frees(ordering, slot, info)) is not None:
                    best = slot, keep
        if best is None and blocked is not None:
            why = ordering.explain(blocked.timing, info.timing)
            self._remark(op, f"kept apart from {describe_buffer(blocked.root)}: {why}")
        return best

    def _move_into(
        self, slot: _Slot, op: Operation, root: SSAValue, info: BufferInfo, keep_new_frees: bool
    ) -> None:
        t = root.type
        assert isinstance(t, MemRefType)
        replacement = slot.root
        if slot.root.type != t:
            shape = t.get_shape()
            cast = memref.ReinterpretCastOp.from_dynamic(
                slot.root, [0], list(shape), _identity_strides(shape), t
            )
            Rewriter.insert_op(cast, InsertPoint.before(op))
            replacement = cast.results[0]
        root.replace_all_uses_with(replacement)
        Rewriter.erase_op(op)
        if keep_new_frees:
            for free, _ in slot.frees:
                Rewriter.erase_op(free)
            for free, operand in info.frees:
                operands = list(free.operands)
                operands[operand] = slot.root
                free.operands = operands
            slot.frees = info.frees
        else:
            for free, _ in info.frees:
                Rewriter.erase_op(free)
        slot.timing = slot.timing.union(info.timing)
        slot.last = slot.timing.last
        slot.last_use = max(slot.last_use, info.last_use)
