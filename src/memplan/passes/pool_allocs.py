"""`pool-allocs`: place every poolable buffer of a function at an offset in one pool.

hip-ep's `hip-pool-allocs`, planned under the host/device execution model. In each
single-block function whose argument 0 is a `!hip.context`, every used plannable
allocation (`PlannableAllocation`) that may live in device memory the runtime owns
becomes a `memref.view` into `hip.get_pool(%ctx, %size)` at a planned byte offset,
and its frees are erased.

Which buffers may overlap is the ordering analysis' conflict graph
(`BlockOrdering.conflict_graph`, DESIGN.md section 2), never intervals in program order:
a buffer the host writes while a kernel enqueued earlier may still read another
buffer's bytes is kept apart from it, and shares them after a synchronize. The
offsets come from `memplan.planning` (`greedy`, `best` or `exact`), which validates
every plan. The graph is built once, as neighbour arrays, split by group with numpy
and handed to the planner as it is (`Problem.from_neighbours`).

Left out of the pool (with a remark under `debug`): buffers that escape, buffers the
function returns (the next invocation reuses the pool while the caller may still read
them), buffers outside the default memory space, element types of unknown size, and
layouts that are not static strided ones. A static strided layout is placed as its
contiguous span and reinterpreted.

Static buffers share one static region at the start of domain 0. Dynamic buffers go
into *slabs* after the static region of a domain; buffers share a slab only when their
byte sizes are the same static factor times SSA-identical size operands, and the
ordering analysis lets them. A slab's offset is runtime SSA (arith ops from the static
region size and the earlier slabs' sizes). A pool is created before the first buffer
it holds, so its size must be computable there: a dynamic buffer whose size is defined
after that point opens another pool domain (`domain_id` 1, 2, ...).

The plan is recorded for the runtime as hip-ep records it (DESIGN.md section 4); see
`plan_attributes`. Docs: docs/design/pool-allocs.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.analysis.aliasing import element_bytes
from memplan.analysis.ordering import BlockOrdering, BufferInfo, plannable_roots
from memplan.dialects.hip import ContextType, GetPoolOp
from memplan.interfaces import plannable_allocation
from memplan.passes.base import MemplanPass
from memplan.passes.common import (
    RemarksUnderDebug,
    describe_buffer,
    function_bodies,
    nested_ops,
    runtime_context,
)
from memplan.planning import Buffer, Plan, Problem, best, exact, greedy
from memplan.planning.problem import align_up

__all__ = [
    "DEFAULT_ALIGNMENT",
    "STRATEGIES",
    "DomainLayout",
    "PoolAllocs",
    "Slab",
    "check_options",
    "group_conflicts",
    "plan_attributes",
    "plan_offsets",
    "split_domains",
]

DEFAULT_ALIGNMENT = 256
"""Byte alignment of every offset in the pool, as in hip-ep."""

STRATEGIES = ("greedy", "best", "exact")

_ATTRIBUTE_PREFIX = "hipdnn."


def check_options(alignment: int, strategy: str, time_limit: float = 1.0) -> None:
    """A `ValueError` naming the fault unless `alignment` is a positive power of two
    (hip-ep's rule), `strategy` one of `STRATEGIES` and `time_limit` a positive
    number of seconds."""
    if isinstance(alignment, bool) or alignment <= 0 or alignment & (alignment - 1):
        raise ValueError(f"alignment must be a positive power of two, got {alignment}")
    _check_strategy(strategy)
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not time_limit > 0  # NaN too
    ):
        raise ValueError(f"time-limit must be a positive number of seconds, got {time_limit}")


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(
            f"unknown strategy '{strategy}'; expected one of {', '.join(STRATEGIES)}"
        )


# ----------------------------------------------------------------- IR-free logic


def split_domains(positions: Sequence[int], ready: Sequence[int]) -> list[int]:
    """The pool domain of each buffer, given in program order.

    `positions[i]` is the index in the block of buffer i's allocation and `ready[i]`
    the index of the last op its size needs (-1 for a static size or one known on
    entry). A domain's pool is created just before its first buffer (its *anchor*), so
    a buffer joins the earliest domain anchored after its size is ready; when none
    is, it opens a new domain anchored at itself. Static buffers therefore all go to
    domain 0, whose pool is created before the first buffer of all.
    """
    anchors: list[int] = []
    domains: list[int] = []
    for position, needs in zip(positions, ready, strict=True):
        for domain, anchor in enumerate(anchors):
            if needs < anchor:
                domains.append(domain)
                break
        else:
            anchors.append(position)
            domains.append(len(anchors) - 1)
    return domains


def group_conflicts(
    keys: Sequence[Hashable], neighbours: Sequence[np.ndarray]
) -> dict[Hashable, tuple[list[int], tuple[np.ndarray, ...]]]:
    """Split buffers by key (in first-seen order) into groups planned on their own:
    for each key, its members (ascending) and the conflict graph among them as
    sorted neighbour arrays of indices into the members. `neighbours` is the whole
    graph (`BlockOrdering.conflict_graph`); one numpy filter per buffer, and a
    single group keeps the arrays as they are."""
    n = len(keys)
    ids: dict[Hashable, int] = {}
    members: list[list[int]] = []
    group_of = np.empty(n, dtype=np.int64)
    local = np.empty(n, dtype=np.int64)
    for buffer, key in enumerate(keys):
        g = ids.setdefault(key, len(ids))
        if g == len(members):
            members.append([])
        group_of[buffer] = g
        local[buffer] = len(members[g])
        members[g].append(buffer)
    if len(ids) == 1:
        ((key, _),) = ids.items()
        return {key: (members[0], tuple(neighbours))}
    groups: dict[Hashable, tuple[list[int], tuple[np.ndarray, ...]]] = {}
    for key, g in ids.items():
        rows = []
        for m in members[g]:
            row = neighbours[m]
            rows.append(local[row[group_of[row] == g]])
        groups[key] = (members[g], tuple(rows))
    return groups


def plan_offsets(
    sizes: Sequence[int],
    alignments: Sequence[int],
    conflicts: Iterable[tuple[int, int]] | None = None,
    strategy: str = "greedy",
    time_limit: float = 1.0,
    *,
    neighbours: Sequence[np.ndarray] | None = None,
) -> Plan:
    """Offsets for buffers of the given sizes under a conflict graph, given as index
    pairs or (cheaper for large graphs) as sorted neighbour arrays, by the named
    planner strategy; every strategy validates its plan."""
    _check_strategy(strategy)
    buffers = [Buffer(str(i), s, alignment=a) for i, (s, a) in enumerate(zip(sizes, alignments))]
    if neighbours is not None:
        problem = Problem.from_neighbours(buffers, neighbours)
    else:
        problem = Problem(buffers, conflicts=conflicts if conflicts is not None else ())
    if strategy == "best":
        return best(problem, time_limit=time_limit)
    if strategy == "exact":
        return exact(problem, time_limit=time_limit)
    return greedy(problem)


@dataclass
class Slab:
    """Bytes after a domain's static region, `factor` times the product of `sizes`
    (SSA values), shared by `members` (buffer numbers), which never conflict."""

    factor: int
    sizes: tuple[SSAValue, ...]
    members: list[int] = field(default_factory=list)


@dataclass
class DomainLayout:
    """One pool: its static region (offsets of static buffers inside it), then slabs."""

    alignment: int
    """What the static region's size and every slab's bytes are rounded up to."""
    static_size: int = 0
    """Bytes of the static region, aligned up: where the first slab starts."""
    lower_bound: int = 0
    static_offsets: dict[int, int] = field(default_factory=dict)
    """Buffer number -> byte offset, for the static buffers of the domain."""
    slabs: list[Slab] = field(default_factory=list)

    def constant_offset(self, buffer: int) -> int | None:
        """The buffer's byte offset when it is known before run time: a static
        buffer's, or the static region's size for the first slab; else None."""
        if buffer in self.static_offsets:
            return self.static_offsets[buffer]
        if self.slabs and buffer in self.slabs[0].members:
            return self.static_size
        return None


def plan_attributes(
    layouts: Sequence[DomainLayout], domains: Sequence[int]
) -> dict[str, Attribute]:
    """The plan as hip-ep's runtime reads it (DESIGN.md section 4), buffers numbered
    in program order:

    - `hipdnn.pool_size` (i64): the static region of domain 0, in bytes;
    - `hipdnn.buffer_count` (i64): the number of pooled buffers;
    - `hipdnn.buffer_offsets` (`array<i64>`): each buffer's byte offset in its
      domain's pool, -1 when the offset is runtime SSA (a slab after the first);
    - with more than one domain, also `hipdnn.domain_count` (i64),
      `hipdnn.pool_sizes` (`array<i64>`, each domain's static region) and
      `hipdnn.buffer_domains` (`array<i64>`).
    """
    offsets = [layouts[d].constant_offset(b) for b, d in enumerate(domains)]
    attributes: dict[str, Attribute] = {
        "pool_size": IntegerAttr(layouts[0].static_size if layouts else 0, i64),
        "buffer_count": IntegerAttr(len(domains), i64),
        "buffer_offsets": DenseArrayBase.from_list(i64, [-1 if o is None else o for o in offsets]),
    }
    if len(layouts) > 1:
        attributes["domain_count"] = IntegerAttr(len(layouts), i64)
        attributes["pool_sizes"] = DenseArrayBase.from_list(i64, [x.static_size for x in layouts])
        attributes["buffer_domains"] = DenseArrayBase.from_list(i64, list(domains))
    return {_ATTRIBUTE_PREFIX + k: v for k, v in attributes.items()}


# ----------------------------------------------------------------- candidates


@dataclass
class _Candidate:
    """A buffer that goes into the pool and how its view is built."""

    root: SSAValue
    op: Operation
    info: BufferInfo
    position: int
    factor: int
    """Bytes, or bytes per unit of the product of `sizes` for a dynamic shape."""
    sizes: tuple[SSAValue, ...]
    alignment: int
    span_type: MemRefType
    """The type of the view into the pool; the root's type unless a reinterpret_cast
    of the span gives the root's strided layout."""


def _strided_span(t: MemRefType) -> tuple[MemRefType, int, list[int]] | None:
    """For a static strided layout: the contiguous type covering its elements, its
    offset and its strides; None when the layout is not static strided."""
    layout = t.layout
    if not isinstance(layout, StridedLayoutAttr) or not t.has_static_shape():
        return None
    strides = layout.get_strides()
    offset = layout.get_offset()
    if offset is None or offset < 0 or any(s is None or s < 0 for s in strides):
        return None
    shape = t.get_shape()
    extent = 0 if 0 in shape else 1 + sum((d - 1) * s for d, s in zip(shape, strides))
    return MemRefType(t.element_type, [offset + extent]), offset, list(strides)


# ----------------------------------------------------------------- the pass


@dataclass(frozen=True)
class PoolAllocs(RemarksUnderDebug, MemplanPass):
    """Place every poolable buffer of a function at a planned offset in one pool."""

    name = "pool-allocs"

    alignment: int = DEFAULT_ALIGNMENT
    """Byte alignment of every offset (a positive power of two); a buffer asking for
    more (`alignment = N` on the allocation) gets its own."""

    strategy: str = "greedy"
    """The offset planner: greedy, best or exact (memplan.planning)."""

    time_limit: float = 1.0
    """Seconds the best and exact strategies may spend per plan."""

    debug: bool = False
    """Remark which buffers stay out of the pool and why, and what was planned."""

    def __post_init__(self) -> None:
        check_options(self.alignment, self.strategy, self.time_limit)

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        recorded: list[dict[str, Attribute]] = []
        pooled_before = 0
        for function, region in function_bodies(module):
            entry = region.blocks[0]
            if nested_ops(function, GetPoolOp):
                # It counts for the module's plan even though it is not planned now.
                pooled_before += 1
                self._remark(function, "function left alone: it already takes a pool")
                continue
            if runtime_context(region) is None:
                self._remark(function, f"function left alone: argument 0 is not a {ContextType()}")
                continue
            if len(region.blocks) != 1:
                self._remark(
                    function,
                    f"function left alone: its body has {len(region.blocks)} blocks; "
                    "pooling plans one block",
                )
                continue
            attributes = self._pool(entry)
            if attributes is not None:
                function.attributes.update(attributes)
                recorded.append(attributes)
        if not recorded:
            return False
        stale = [k for k in module.attributes if k.startswith(_ATTRIBUTE_PREFIX)]
        for key in stale:
            del module.attributes[key]
        pooled = len(recorded) + pooled_before
        if pooled == 1:
            module.attributes.update(recorded[0])
        else:
            self._remark(
                module,
                f"{pooled} functions take pools: each records its plan on itself, "
                "the module none",
            )
        return True

    # ------------------------------------------------------------- selection

    def _candidate(self, ordering: BlockOrdering, root: SSAValue) -> _Candidate | None:
        op = root.owner
        assert isinstance(op, Operation)
        info = ordering.info(root)
        reason = self._exclusion(root, info)
        if reason is not None:
            self._remark(op, f"buffer left out of the pool: {reason}")
            return None
        t = root.type
        assert isinstance(t, MemRefType)
        width = element_bytes(t.element_type)
        assert width is not None
        allocation = plannable_allocation(op)
        alignment = max(self.alignment, allocation.alignment(op) or 1)
        position = ordering.index(op)
        assert position is not None
        if isinstance(t.layout, NoneAttr):
            sizes = tuple(allocation.dynamic_sizes(op))
            factor = width
            for d in t.get_shape():
                if d != DYNAMIC_INDEX:
                    factor *= d
            return _Candidate(root, op, info, position, factor, sizes, alignment, t)
        span_type, _, _ = _strided_span(t)  # type: ignore[misc]
        return _Candidate(
            root, op, info, position, width * span_type.element_count(), (), alignment, span_type
        )

    @staticmethod
    def _exclusion(root: SSAValue, info: BufferInfo) -> str | None:
        """Why `root` may not live in the pool; None when it may."""
        if info.escape is not None:
            return f"{info.escape}"
        if info.returned_by is not None:
            return (
                f"returned by '{info.returned_by.name}'; the next invocation reuses the "
                "pool while the caller may still read it"
            )
        t = root.type
        if not isinstance(t, MemRefType):
            return f"{t} is not a memref"
        if not isinstance(t.memory_space, NoneAttr):
            return f"{t} is not in the default memory space of the pool"
        if element_bytes(t.element_type) is None:
            return f"the size of {t.element_type} is unknown"
        if not isinstance(t.layout, NoneAttr) and _strided_span(t) is None:
            return f"{t} has a layout that is not static strided with a static shape"
        return None

    # ------------------------------------------------------------- planning

    def _pool(self, block: Block) -> dict[str, Attribute] | None:
        ordering = BlockOrdering(block)
        candidates = [
            c for r in plannable_roots(block) if r.uses
            if (c := self._candidate(ordering, r)) is not None
        ]
        if not candidates:
            return None
        graph = ordering.conflict_graph([c.root for c in candidates])
        self._explain_conflicts(ordering, candidates, graph)
        ready = [self._ready(ordering, c) for c in candidates]
        domains = split_domains([c.position for c in candidates], ready)
        keys = [(d, c.factor, *c.sizes) if c.sizes else (d,) for c, d in zip(candidates, domains)]
        # Slabs start at multiples of the largest alignment a slab buffer asks for.
        alignments = [self.alignment] * (max(domains) + 1)
        for c, d in zip(candidates, domains):
            if c.sizes:
                alignments[d] = max(alignments[d], c.alignment)
        layouts = [DomainLayout(a) for a in alignments]
        for key, (members, neighbours) in group_conflicts(keys, graph).items():
            self._place_group(layouts[key[0]], candidates, members, neighbours, len(key) > 1)
        if self.debug:
            self._describe_domains(candidates, domains, layouts)
        self._rewrite(block.args[0], candidates, domains, layouts)
        return plan_attributes(layouts, domains)

    def _describe_domains(
        self, candidates: list[_Candidate], domains: list[int], layouts: list[DomainLayout]
    ) -> None:
        for d, layout in enumerate(layouts):
            members = [b for b, x in enumerate(domains) if x == d]
            first = candidates[members[0]].op
            if d:
                self._remark(
                    first,
                    f"opens pool domain {d}: its size is defined after the first buffer "
                    "of every earlier domain",
                )
            self._remark(
                first,
                f"domain {d}: {_count(len(members), 'buffer')}, static region "
                f"{layout.static_size} bytes (lower bound {layout.lower_bound}), "
                f"{_count(len(layout.slabs), 'slab')}",
            )

    @staticmethod
    def _ready(ordering: BlockOrdering, candidate: _Candidate) -> int:
        """The index of the last op of the block the buffer's size needs, or -1."""
        needs = -1
        for size in candidate.sizes:
            owner = size.owner
            if isinstance(owner, Operation):
                index = ordering.index(owner)
                if index is not None:
                    needs = max(needs, index)
        return needs

    def _place_group(
        self,
        layout: DomainLayout,
        candidates: list[_Candidate],
        members: list[int],
        neighbours: tuple[np.ndarray, ...],
        dynamic: bool,
    ) -> None:
        """Plan one group of a domain: its static buffers into the static region, or
        buffers of one dynamic size into slabs (a plan of unit-sized buffers is a
        colouring: buffers of one colour share a slab)."""
        if not dynamic:
            plan = plan_offsets(
                [candidates[b].factor for b in members],
                [candidates[b].alignment for b in members],
                strategy=self.strategy,
                time_limit=self.time_limit,
                neighbours=neighbours,
            )
            layout.static_offsets = {b: int(o) for b, o in zip(members, plan.offsets)}
            layout.static_size = int(align_up(plan.pool_size, layout.alignment))
            if self.debug:
                layout.lower_bound = plan.problem.lower_bound()
            return
        plan = plan_offsets(
            [1] * len(members),
            [1] * len(members),
            strategy=self.strategy,
            time_limit=self.time_limit,
            neighbours=neighbours,
        )
        first = len(layout.slabs)
        sample = candidates[members[0]]
        layout.slabs.extend(Slab(sample.factor, sample.sizes) for _ in range(plan.pool_size))
        for b, slab in zip(members, plan.offsets):
            layout.slabs[first + int(slab)].members.append(b)

    def _explain_conflicts(
        self,
        ordering: BlockOrdering,
        candidates: list[_Candidate],
        graph: tuple[np.ndarray, ...],
    ) -> None:
        """Remark, for each buffer kept apart from an earlier one that is dead in
        program order before it is allocated, which access forbids sharing (the
        first such earlier buffer)."""
        if not self.debug:
            return
        for j, row in enumerate(graph):
            b = candidates[j].info
            for i in row[row < j].tolist():
                a = candidates[i].info
                if a.last_use < b.defined_at:
                    why = ordering.explain(a.timing, b.timing)
                    self._remark(
                        candidates[j].op,
                        f"kept apart from {describe_buffer(candidates[i].root)} in the pool: {why}",
                    )
                    break

    # ------------------------------------------------------------- rewriting

    @staticmethod
    def _rewrite(
        context: SSAValue,
        candidates: list[_Candidate],
        domains: list[int],
        layouts: list[DomainLayout],
    ) -> None:
        slab_offsets: dict[int, SSAValue] = {}
        pools: list[SSAValue] = []
        for d, layout in enumerate(layouts):
            anchor = candidates[domains.index(d)].op
            ops, pool, offsets = _build_pool(context, d, layout)
            Rewriter.insert_op(ops, InsertPoint.before(anchor))
            pools.append(pool)
            for slab, offset in zip(layout.slabs, offsets):
                for b in slab.members:
                    slab_offsets[b] = offset
        for b, c in enumerate(candidates):
            layout = layouts[domains[b]]
            ops: list[Operation] = []
            if b in slab_offsets:
                shift = slab_offsets[b]
            else:
                constant = _index(layout.static_offsets[b], f"c{layout.static_offsets[b]}")
                ops.append(constant)
                shift = constant.result
            view = memref.ViewOp(pools[domains[b]], shift, list(c.sizes), c.span_type)
            ops.append(view)
            replacement = view.results[0]
            if c.span_type != c.root.type:
                t = c.root.type
                assert isinstance(t, MemRefType)
                _, offset, strides = _strided_span(t)  # type: ignore[misc]
                cast = memref.ReinterpretCastOp.from_dynamic(
                    replacement, [offset], list(t.get_shape()), strides, t
                )
                ops.append(cast)
                replacement = cast.results[0]
            if c.root.name_hint:
                replacement.name_hint = c.root.name_hint
            Rewriter.insert_op(ops, InsertPoint.before(c.op))
            c.root.replace_all_uses_with(replacement)
            Rewriter.erase_op(c.op)
            for free, _ in c.info.frees:
                Rewriter.erase_op(free)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _index(value: int, hint: str | None = None) -> arith.ConstantOp:
    constant = arith.ConstantOp.from_int_and_width(value, IndexType())
    if hint is not None:
        constant.result.name_hint = hint
    return constant


def _build_pool(
    context: SSAValue, domain: int, layout: DomainLayout
) -> tuple[list[Operation], SSAValue, list[SSAValue]]:
    """The ops that compute a domain's slab offsets and size and take its pool:
    (ops, pool, offset of each slab). A slab's bytes are rounded up to the domain's
    alignment, so every slab starts aligned."""
    ops: list[Operation] = []
    static = _index(layout.static_size, "pool_static_size" if layout.slabs else "pool_size")
    ops.append(static)
    end: SSAValue = static.result
    offsets: list[SSAValue] = []
    align = _index(layout.alignment, f"c{layout.alignment}") if layout.slabs else None
    if align is not None:
        ops.append(align)
    for slab in layout.slabs:
        offsets.append(end)
        dims = list(slab.sizes)
        if slab.factor == 1:
            size: SSAValue = dims.pop(0)
        else:
            factor = _index(slab.factor, f"c{slab.factor}")
            ops.append(factor)
            size = factor.result
        for dim in dims:
            product = arith.MuliOp(size, dim)
            ops.append(product)
            size = product.result
        assert align is not None
        units = arith.CeilDivUIOp(size, align.result)
        rounded = arith.MuliOp(units.result, align.result)
        rounded.result.name_hint = "slab_size"
        following = arith.AddiOp(end, rounded.result)
        following.result.name_hint = "slab_end"
        ops.extend([units, rounded, following])
        end = following.result
    if layout.slabs:
        end.name_hint = "pool_size"
    pool = GetPoolOp(context, end, domain=domain if domain else None)
    pool.result.name_hint = "pool" if domain == 0 else f"pool_{domain}"
    ops.append(pool)
    return ops, pool.result, offsets
