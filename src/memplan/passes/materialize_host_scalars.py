"""`materialize-host-scalars`: small host-fed integer buffers move to host scratch.

hip-ep's `hip-materialize-host-scalars`. A shape scalar the host stores and a kernel
reads needs no device buffer: runtime-owned host-mapped memory is host-writable and
device-readable. Every candidate of a function becomes a `memref.view` into one
host-scratch buffer taken from the function's runtime context (argument 0) at a
64-byte-aligned offset; its frees are erased. Host scratch is memory too: two
candidates share a slot when the ordering analysis proves every access to one
happens before every access to the other (after a read-back of the kernels that
read the first, DESIGN.md section 2), the offsets planned by `memplan.planning` on
that conflict graph, so a decoder's scratch does not grow with its layers. Being views rather than
plannable allocations, the moved buffers leave the pool and slot reuse
(`optimize-memrefs`) altogether.

A candidate is a plannable allocation (`PlannableAllocation`) of the function's
entry block with a static identity-layout shape of at most 16 integer or index
elements, in the default memory space, that the host reads or writes (a
synchronous read/write effect on it, through any chain of views) and whose every
user the ordering analysis understands: host accesses, ops enqueued on a stream with
effects tied to their operands, frees, views, ops that read only metadata
(`NoAddressCapture`: `memref.dim`). A returned or escaping buffer stays. Nothing here names an
op: host and device are told apart by `StreamExecution`.

A function that already takes host scratch reuses it (the runtime has one per
context): new buffers go after the bytes its uses reach through any chain of views
(`memplan.analysis.byte_ranges.constant_reach`), and the scratch grows; when those
bytes are not known the function is left alone.

Host scratch is one buffer per context at run time, so a function that is called
from another (or that hands its context to a function whose body is not in the
module) is left alone, and a caller's new buffers go after the bytes the scratch
uses of its callees reach (`memplan.analysis.calls`, docs/design/
execution-model.md).

This alone does not remove the host/device race of DESIGN.md section 2: a 32-element
host-fed buffer stays in device memory. Docs: docs/design/materialize-host-scalars.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from memplan.analysis.aliasing import static_bytes
from memplan.analysis.byte_ranges import constant_reach
from memplan.analysis.cache import module_analysis
from memplan.analysis.calls import CallGraph, shared_context_memory
from memplan.analysis.ordering import BlockOrdering, BufferInfo, plannable_roots
from memplan.interfaces import (
    HOST_SCRATCH,
    ContextMemory,
    RuntimeContext,
    context_memory,
    plannable_allocation,
)
from memplan.passes.base import MemplanPass
from memplan.passes.common import (
    RemarksUnderDebug,
    function_bodies,
    index_constant,
    nested_context_memory,
    replace_allocation,
    runtime_context,
    view_into,
)
from memplan.passes.pool_allocs import plan_offsets

__all__ = ["ALIGNMENT", "MAX_ELEMENTS", "MaterializeHostScalars"]

MAX_ELEMENTS = 16
"""The largest buffer (in elements) that moves, as in hip-ep."""

ALIGNMENT = 64
"""Byte alignment of each buffer's offset in the scratch buffer."""


def _align(value: int) -> int:
    return -(-value // ALIGNMENT) * ALIGNMENT


@dataclass(frozen=True)
class MaterializeHostScalars(RemarksUnderDebug, MemplanPass):
    """Move host-fed scalar buffers into one host-mapped scratch buffer per function."""

    name = "materialize-host-scalars"

    shares_analyses = True
    # It adds no function and no symbol reference, and reports the one context
    # memory op it may add to the call graph.
    preserved_analyses = (CallGraph, function_bodies)

    debug: bool = False
    """Remark why a function or a host-fed buffer was left alone."""

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        changed = False
        calls = module_analysis(module, CallGraph)
        for function, region in module_analysis(module, function_bodies):
            entry = region.blocks[0]
            context = runtime_context(region)
            if context is None:
                self._remark(function, "function left alone: argument 0 is not a runtime context")
                continue
            reserved = calls.reserved(function, (HOST_SCRATCH, None))
            why = shared_context_memory(calls, function) or (
                reserved if isinstance(reserved, str) else None)
            if why is not None:
                self._remark(function, f"function left alone: {why}")
                continue
            ordering = BlockOrdering(entry)
            types: dict[int, tuple[Attribute, Callable[[], str] | None]] = {}
            candidates = [
                (root, info) for root in plannable_roots(entry)
                if (info := self._accept(root, ordering, types)) is not None
            ]
            if not candidates:
                continue
            existing = nested_context_memory(function, HOST_SCRATCH)
            reuse = None
            if existing:
                # The runtime has one scratch buffer per context: a second one would
                # be the same bytes, and offset 0 is taken.
                reuse = self._reusable(function, context, existing)
                if reuse is None:
                    continue
            offsets, size = self._layout(function, ordering, candidates)
            scratch = self._materialize(context, candidates, offsets, size, reuse, reserved)
            if reuse is None:
                calls.added(scratch)
            changed = True
        return changed

    def _layout(
        self,
        function: Operation,
        ordering: BlockOrdering,
        candidates: list[tuple[SSAValue, BufferInfo]],
    ) -> tuple[list[int], int]:
        """Offsets of the candidates from the start of their part of the scratch, and
        that part's size: slots shared where the ordering analysis proves every access
        to one buffer happens before every access to the other (a host store after a
        read-back of the device work that read the slot's earlier occupant), planned
        by `memplan.planning` on the conflict graph (DESIGN.md section 2). Without a
        proof two buffers keep their own bytes."""
        sizes = [_align(static_bytes(root.type) or 0) for root, _ in candidates]
        graph = ordering.conflict_graph([root for root, _ in candidates])
        # Best fit by size, ties in program order (hip-ep's placement): the scalars
        # are nearly all one slot wide, so this is first-fit colouring in program order.
        plan = plan_offsets(sizes, [ALIGNMENT] * len(sizes), strategy="best-fit", neighbours=graph)
        offsets = [int(o) for o in plan.offsets]
        size = _align(max((o + s for o, s in zip(offsets, sizes)), default=0))
        if self.debug and size < sum(sizes):
            self._remark(
                function,
                f"{len(candidates)} host-fed buffers in {size} bytes of host scratch, "
                f"{sum(sizes)} without sharing slots",
            )
        return offsets, size

    def _reusable(
        self, function: Operation, context: SSAValue, existing: list[Operation]
    ) -> tuple[Operation, int, int] | None:
        """The function's own scratch op, its constant size and the end of the bytes
        its uses reach, when new buffers can go after them: one scratch, taken in the
        entry block from `context` with a constant size, every alias of it reaching
        constant bytes. None (and a remark) when not."""
        why = None
        memory = _memory(existing[0])
        if len(existing) > 1:
            why = (
                f"it takes host scratch {len(existing)} times; new buffers could overlap "
                "the bytes of any of them"
            )
        elif existing[0].parent_block() is not context.owner:
            why = "it takes host scratch inside a nested region, which new views could not use"
        elif existing[0].operands[memory.context_index] is not context:
            why = "its host scratch comes from another context value than argument 0"
        elif memory.size_index is None or (
            size := _constant(existing[0].operands[memory.size_index])
        ) is None:
            why = "its host scratch has a size that is not a constant, so it cannot be grown"
        if why is None:
            scratch = existing[0]
            end, unknown = constant_reach(scratch.results[0], size)
            if unknown is None:
                return scratch, size, end
            why = (
                f"'{unknown.owner.name}' uses its host scratch at bytes that are "
                "not constant; new buffers could overlap them"
            )
        self._remark(function, f"function left alone: {why}")
        return None

    def _accept(
        self, root: SSAValue, ordering: BlockOrdering,
        types: dict[int, tuple[Attribute, Callable[[], str] | None]],
    ) -> BufferInfo | None:
        """`root`'s ordering facts when it moves, else None; a remark (under debug)
        for a host-fed one that does not. A buffer whose type rules it out is not
        analysed unless the remark needs to know whether the host feeds it (most
        buffers of a model are large float ones). `types`: what `_type_rejection`
        found for each type object so far."""
        rejected = self._type_rejection(root, types)
        if rejected is not None and not self.debug:
            return None
        info = ordering.info(root)
        if not info.host_accessed:
            return None
        reason = rejected() if rejected is not None else self._use_rejection(info)
        if reason is not None:
            self._remark(root.owner, f"host-fed buffer left alone: {reason}")
            return None
        return info

    @staticmethod
    def _type_rejection(
        root: SSAValue, types: dict[int, tuple[Attribute, Callable[[], str] | None]]
    ) -> Callable[[], str] | None:
        """Why `root`'s type rules it out, as a function that words it (printing a
        type costs more than the test, and only a remark reads it); None when not.
        The type's own tests are made once per type object in `types` (a parsed
        module has one object per distinct type: 11 for a decoder's 7k buffers),
        kept alive there while its id is a key."""
        t = root.type
        known = types.get(id(t))
        if known is None:
            known = types[id(t)] = (t, _rejected_type(t))
        if known[1] is not None:
            return known[1]
        op = root.owner
        assert isinstance(op, Operation)
        alignment = plannable_allocation(op).alignment(op)
        if alignment is not None and alignment > ALIGNMENT:
            return lambda: f"it asks for {alignment}-byte alignment, more than {ALIGNMENT}"
        return None

    @staticmethod
    def _use_rejection(info: BufferInfo) -> str | None:
        if info.escape is not None:
            return f"{info.escape}"
        if info.returned_by is not None:
            return f"returned by '{info.returned_by.name}'"
        return None

    @staticmethod
    def _materialize(
        context: SSAValue,
        candidates: list[tuple[SSAValue, BufferInfo]],
        offsets: list[int],
        size: int,
        reuse: tuple[Operation, int, int] | None,
        reserved: tuple[int, int],
    ) -> Operation:
        """View each candidate into the scratch at its offset (`_layout`) after a
        base, and return the scratch: a new one at the top of the entry block, or
        the existing one (moved there, grown to hold the new buffers after the bytes
        its views already use). `reserved`: how far the scratch uses of the
        functions it calls reach, and the largest size they ask for; new buffers go
        after those bytes, and the scratch is asked for at least that size, so a
        callee neither overlaps them nor makes the runtime grow (and move) it."""
        base = _align(max(reuse[2] if reuse is not None else 0, reserved[0]))
        offsets = [base + offset for offset in offsets]
        end = base + size
        entry = context.owner
        total = index_constant(max(end, reserved[1], reuse[1] if reuse is not None else 0))
        total.result.name_hint = "host_scratch_size"
        if reuse is None:
            assert isinstance(context.type, RuntimeContext)
            scratch = context.type.memory_request(HOST_SCRATCH, context, total.result)
            scratch.results[0].name_hint = "host_scratch"
        else:
            # Moved to the top, so that it comes before every new view.
            scratch = reuse[0]
            scratch.detach()
            size_index = _memory(scratch).size_index
            assert size_index is not None
            operands = list(scratch.operands)
            operands[size_index] = total.result
            scratch.operands = operands
        Rewriter.insert_op([total, scratch], InsertPoint.at_start(entry))
        for (root, info), offset in zip(candidates, offsets):
            op = root.owner
            assert isinstance(op, Operation) and isinstance(root.type, MemRefType)
            shift = index_constant(offset)
            shift.result.name_hint = f"c{offset}"
            view = view_into(scratch.results[0], shift.result, (), root.type)
            replace_allocation(op, [shift, view], info.frees)
        return scratch


def _rejected_type(t: Attribute) -> Callable[[], str] | None:
    """Why a buffer of type `t` may not move, as a function that words it."""
    if not isinstance(t, MemRefType) or not t.has_static_shape():
        return lambda: "its shape is not static"
    if not isinstance(t.layout, NoneAttr):
        return lambda: f"{t} does not have the identity layout"
    if not isinstance(t.memory_space, NoneAttr):
        return lambda: f"{t} is not in the default memory space"
    if not isinstance(t.element_type, IntegerType | IndexType):
        return lambda: f"its element type {t.element_type} is not an integer or index"
    if (count := t.element_count()) > MAX_ELEMENTS:
        return lambda: f"{count} elements, more than {MAX_ELEMENTS}"
    return None


def _memory(op: Operation) -> ContextMemory:
    """The context-memory model of a scratch op `nested_context_memory` found."""
    memory = context_memory(op)
    assert memory is not None
    return memory


def _constant(value: SSAValue) -> int | None:
    """The integer a constant-like op (`ConstantLike`) gives `value`, else None."""
    attribute = ConstantLike.get_constant_value(value)
    return attribute.value.data if isinstance(attribute, IntegerAttr) else None
