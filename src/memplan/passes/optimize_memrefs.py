"""`optimize-memrefs`: slot reuse between buffers whose accesses never overlap in time.

hip-ep's `hip-optimize-memrefs`, made safe across the host/device boundary. In each
single-block function it walks the plannable allocations
(`memplan.interfaces.PlannableAllocation`) in program order and lets each take the
*slot* (the bytes of an earlier allocation) of least byte waste that is free for
it: same element type and memory space, at least as many bytes; a smaller static
buffer becomes a `memref.reinterpret_cast` of the slot, a dynamic one needs the same
type and SSA-identical size operands. A slot shared by several buffers is one timing
(`Timing.union`), so each candidate slot costs one `BlockOrdering.precedes` query.

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
    """`timing.last`, kept for the quick test in `_find`."""
    last_use: int
    frees: tuple[tuple[Operation, int], ...]
    """The frees of the latest occupant: the only ones kept, freeing the root."""


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
        buckets: dict[object, list[tuple[int, int, _Slot]]] = {}
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
            bucket = buckets.setdefault(key, [])
            found = self._find(ordering, bucket, size, alignment, info, op)
            if found is not None:
                slot, keep_new_frees = found
                self._move_into(slot, op, root, info, keep_new_frees)
                if info.returned_by is not None:
                    bucket.remove((slot.bytes, slot.order, slot))
                changed = True
            elif info.returned_by is None:
                new = _Slot(root, size, order, alignment, info.timing, info.timing.last,
                            info.last_use, info.frees)
                bisect.insort(bucket, (size, order, new), key=lambda e: e[:2])
        return changed

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
        bucket: list[tuple[int, int, _Slot]],
        size: int,
        alignment: int,
        info: BufferInfo,
        op: Operation,
    ) -> tuple[_Slot, bool] | None:
        """The slot of least waste whose buffers are all done before `info`'s, and
        whether the new buffer's frees (rather than the slot's) free it then."""
        blocked: _Slot | None = None
        first = info.timing.first
        start = bisect.bisect_left(bucket, (size, -1), key=lambda e: e[:2])
        for j in range(start, len(bucket)):
            slot = bucket[j][2]
            if slot.alignment < alignment:
                continue
            interval_free = slot.last_use < info.defined_at
            if not self.host_ordering:
                free = interval_free
            # `precedes` implies the slot's last access comes before the first
            # access of `info`: an integer test rejects most busy slots.
            else:
                free = slot.last < first and ordering.precedes(slot.timing, info.timing)
                if not free and interval_free and blocked is None:
                    blocked = slot
            if free and (keep := _kept_frees(ordering, slot, info)) is not None:
                return slot, keep
        if blocked is not None:
            why = ordering.explain(blocked.timing, info.timing)
            self._remark(op, f"kept apart from {describe_buffer(blocked.root)}: {why}")
        return None

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
