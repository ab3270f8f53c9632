"""The `FunctionPlan` of a block a pooling pass has planned, built from what the
pass already holds (its ordering analysis and conflict graph, the offsets it
chose), and why buffers were kept apart."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from memplan.lazy_numpy import np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue

from memplan.analysis.ordering import BlockOrdering, BufferInfo
from memplan.diagnostics import location_of
from memplan.interfaces import plannable_allocation
from memplan.passes.base import record_statistic
from memplan.report.model import BufferKind, DomainPlan, FunctionPlan, PlannedBuffer
from memplan.report.recording import listening, record


def kept_apart(
    ordering: BlockOrdering, infos: Sequence[BufferInfo], graph: Sequence[np.ndarray]
) -> Iterator[tuple[int, int, str]]:
    """``(j, i, reason)`` for each buffer j that conflicts with an earlier buffer i
    although i is dead in program order before j is allocated: the first such i, and
    the ordering analysis' reason (the access that forbids sharing)."""
    for j, row in enumerate(graph):
        b = infos[j]
        for i in row[row < j].tolist():
            a = infos[i]
            if a.last_use < b.defined_at:
                why = ordering.explain(a.timing, b.timing)
                if why is not None:
                    yield j, i, why
                    break


def buffer_name(value: SSAValue) -> str:
    """`%name` from the value's name hint, else `%alloc` as mlir-opt names it."""
    return f"%{value.name_hint}" if value.name_hint else "%alloc"


def unique_names(names: Sequence[str]) -> list[str]:
    """`names` with repeats suffixed `_0`, `_1`, ... as mlir-opt numbers clashing
    names (`%alloc`, `%alloc_0`, ...), so each buffer of a plan has its own."""
    seen: set[str] = set(names)
    taken: set[str] = set()
    counters: dict[str, int] = {}
    result = []
    for name in names:
        if name in taken:
            while True:
                candidate = f"{name}_{counters.get(name, 0)}"
                counters[name] = counters.get(name, 0) + 1
                if candidate not in seen and candidate not in taken:
                    break
            name = candidate
        taken.add(name)
        result.append(name)
    return result


def _kind(info: BufferInfo) -> BufferKind:
    if info.returned_by is not None:
        return "returned"
    return "host-fed" if info.host_accessed else "device-only"


def _dynamic_size(root: SSAValue) -> str:
    """`memref<?x512xf16>, ? = %n`: what a dynamic buffer's size is made of."""
    op = root.owner
    allocation = plannable_allocation(op) if isinstance(op, Operation) else None
    sizes = list(allocation.dynamic_sizes(op)) if allocation is not None else []  # type: ignore[arg-type]
    names = ", ".join(buffer_name(s) for s in sizes)
    return f"{root.type}" + (f", ? = {names}" if names else "")


def _function_name(block: Block) -> str:
    op = block.parent_op()
    while op is not None:
        name = getattr(op, "sym_name", None)
        if name is not None:
            return name.data
        op = op.parent_op()
    return "<anonymous>"


def record_pool_statistics(pooled: int, pools: Sequence[tuple[int, int, int]]) -> None:
    """Count a block's plan in the running pass's statistics
    (`--mlir-pass-statistics`): `pooled` buffers, `pools` as `record_pool_plan`'s."""
    record_statistic("num-buffers-pooled", pooled, "Number of buffers placed in a pool")
    record_statistic("pool-bytes", sum(p[0] for p in pools), "Bytes of the pools' static regions")


def record_pool_plan(
    block: Block,
    ordering: BlockOrdering,
    infos: Sequence[BufferInfo],
    sizes: Sequence[int | None],
    offsets: Sequence[int | None],
    domains: Sequence[int],
    pools: Sequence[tuple[int, int, int]],
    graph: Sequence[np.ndarray],
    strategy: str,
) -> None:
    """Record the plan of `block` (see `memplan.report.recording`) when anyone
    listens, and count it in the running pass's statistics (`--mlir-pass-statistics`).

    Per pooled buffer, in program order: its `BufferInfo` (from `ordering`), its
    static byte size (None when dynamic), its constant offset (None when runtime
    SSA) and its domain; per domain, ``(static size, lower bound of the static
    buffers, dynamic slabs)``; `graph` is the conflict graph the plan obeys."""
    record_pool_statistics(len(infos), pools)
    if not listening():
        return
    names = unique_names([buffer_name(info.root) for info in infos])
    reasons: dict[int, tuple[tuple[str, str], ...]] = {
        j: ((names[i], why),) for j, i, why in kept_apart(ordering, infos, graph)
    }
    buffers = []
    for b, info in enumerate(infos):
        op = info.root.owner
        location = location_of(op) if isinstance(op, Operation) else None
        static = sizes[b] is not None and isinstance(info.root.type, MemRefType)
        buffers.append(
            PlannedBuffer(
                names[b],
                sizes[b],
                offsets[b],
                domains[b],
                (info.defined_at, max(info.last_use, info.defined_at) + 1),
                _kind(info),
                str(location) if location else None,
                "" if static else _dynamic_size(info.root),
                reasons.get(b, ()),
            )
        )
    plans = tuple(DomainPlan(d, size, bound, slabs) for d, (size, bound, slabs) in enumerate(pools))
    record(FunctionPlan(_function_name(block), tuple(buffers), plans, strategy))
